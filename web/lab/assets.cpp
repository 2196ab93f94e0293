// web/lab/assets.cpp — what the Lab loads from assets/ (the page's own origin). The site build
// lists what the build shipped in assets/shipped.json (web/page/build_page.mjs): each trained
// model's file with the settings that tell it apart (its task, kind, a Transformer's memory), and
// each task's alignment sweep (assets/alignment-TASK.json). The Lab reads that list and then
// exactly the files it names, keeping every model alike (ShippedModel) and each task's sweep in
// the task's record; a task the list has nothing for is said to have none. Besides: the native
// sweep (assets/sweep.json) and the published designs' means (assets/published.json) as result
// rows, and each task's held-out split.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "figure.h"
#include "lab.h"
#include "io/metrics_json.h"
#include "io/worker_codec.h"
#include "io/safetensors.h"

namespace lb::web {
namespace {

// Fetches a file of the site; calls lb_asset_fetched(request, bytes, size, error) when it arrives.
EM_JS(void, js_fetch_asset, (const char* path, int request), {
    const done = (bytes, error) => {
        const data = bytes ? _malloc(Math.max(1, bytes.length)) : 0;
        if (bytes) HEAPU8.set(bytes, data);
        let message = 0;
        if (error) {
            const size = lengthBytesUTF8(error) + 1;
            message = _malloc(size);
            stringToUTF8(error, message, size);
        }
        _lb_asset_fetched(request, data, bytes ? bytes.length : 0, message);
        if (data) _free(data);
        if (message) _free(message);
    };
    const url = UTF8ToString(path);
    fetch(url)
        .then((response) => {
            if (response.ok) return response.arrayBuffer();
            // The server's or the service worker's refusal says why in a line of text.
            return response.text().catch(() => "").then((text) => {
                throw new Error(url + " answered HTTP " + response.status + (text ? ": " + text.slice(0, 200) : ""));
            });
        })
        .then((buffer) => done(new Uint8Array(buffer), null), (error) => done(null, String(error.message || error)));
});
// A worker decodes the held-out split with the weights; lb_shipped_evaluated(k, json) answers.
EM_JS(void, js_evaluate, (int k, const uint8_t* bytes, int size), {
    Module.lookbackRuns.evaluate(k, HEAPU8.slice(bytes, bytes + size));
});

// A setting a weights file records (its model's, and the seed and epochs its trainer wrote), read
// through the settings schema; "?" where it is missing or refused.
std::string recorded(const SafetensorsContent& content, const char* key) {
    const SettingField& field = *find_setting(key);
    const auto found = content.metadata.find(key);
    RunSettings s;
    return found != content.metadata.end() && try_set_setting(s, field, found->second) ? setting_text(field, s) : "?";
}

// A mean over seeds as the sweep writes it ({"mean", "min", "max"}); null (nothing to count) is NaN.
double mean_of(const nlohmann::json& spread) {
    const nlohmann::json& mean = spread.at("mean");
    return mean.is_null() ? NAN : mean.get<double>();
}

AlignmentSweepRow alignment_row(std::string model, const nlohmann::json& scores, bool spread) {
    const auto read = [&](const char* key) {
        const nlohmann::json& v = scores.at(key);
        return spread ? mean_of(v) : v.is_null() ? NAN : v.get<double>();
    };
    return {std::move(model), read("aer"), read("peak_hit_rate"), read("peak_near_rate"), read("linked_mass")};
}

// assets/alignment-TASK.json: its models with a map (the means over seeds), then the diagonal guess.
AlignmentSweep alignment_sweep_from_json(const nlohmann::json& sweep, const Task& task) {
    if (sweep.at("task").get<std::string>() != task.name) throw std::runtime_error("the file is another task's");
    AlignmentSweep out;
    for (const auto& s : sweep.at("summary"))
        if (s.contains("alignment")) out.rows.push_back(alignment_row(s.at("model").get<std::string>(), s.at("alignment"), true));
    out.rows.push_back(alignment_row("diagonal guess", sweep.at("diagonal_guess"), false));
    out.epochs = sweep.at("epochs").get<int>();
    const nlohmann::json& seeds = sweep.at("seeds");  // the list of seeds, or their count
    out.seeds = seeds.is_array() ? int(seeds.size()) : seeds.get<int>();
    // The results table's rows: each model's means, its settings read from its first run (the
    // sweep names a model by sweep_name, "transformer-all": the schema's model is its kind's name).
    const std::string label = "alignment sweep, " + std::to_string(out.seeds) + " seeds";
    for (const auto& s : sweep.at("summary")) {
        const std::string name = s.at("model").get<std::string>();
        const auto& runs = sweep.at("runs");
        const auto run = std::find_if(runs.begin(), runs.end(), [&](const nlohmann::json& r) { return r.at("model") == name; });
        if (run == runs.end()) throw std::runtime_error("no run of " + name);
        nlohmann::json record = *run;
        const std::optional<ModelConfig> named = parse_sweep_name(name);
        if (!named) throw std::runtime_error("no model is named " + name);
        record["model"] = decoder_name(named->decoder);
        const ModelConfig c = run_settings_from_record(record).model;
        if (c.task != &task) throw std::runtime_error("a run of another task");
        out.results.push_back({Origin::native, label, c, mean_of(s.at("exact")), mean_of(s.at("per_char")),
                               s.at("parameters").get<long>(), s.value("train_seconds", NAN),
                               s.contains("alignment") ? mean_of(s.at("alignment").at("aer")) : NAN,
                               s.contains("bleu") ? mean_of(s.at("bleu")) : NAN});
    }
    out.held_out = sweep.at("held_out_size").get<int>();
    out.note.clear();
    return out;
}


// The two that tell a shipped model apart from the others of its task and kind.
bool same_model(const ModelConfig& a, const ModelConfig& b) {
    return a.task == b.task && a.decoder == b.decoder && (!model_kind(a.decoder).has_memory_choice() || a.memory == b.memory);
}

// A task's sweep before assets/shipped.json is read, and once it is read and names none.
const AlignmentSweep& no_sweep(bool listed) {
    static const AlignmentSweep loading, none{.note = "no alignment sweep was shipped for it"};
    return listed ? none : loading;
}

}  // namespace

std::string shipped_label(const ModelConfig& c) {
    const ModelKind& kind = model_kind(c.decoder);
    std::string label = kind.title.empty() ? std::string(kind.name) + " model" : std::string(kind.title);
    if (kind.has_memory_choice()) label += reads_every_state(c) ? " (all states)" : " (first state)";
    return label + (c.task == &date_task() ? "" : " for " + c.task->name);
}

//-----------------------------------------------------------------------------------------------
// Reading the site's files
//-----------------------------------------------------------------------------------------------

void Lab::read(const std::string& path, AssetArrived done) {
    AssetArrived then = [this, done = std::move(done)](const uint8_t* bytes, size_t size, const char* error) {
        done(bytes, size, error);
        changed();
    };
    if (read_asset) return read_asset(path, std::move(then));
    const int request = next_request_++;
    fetching_[request] = std::move(then);
    js_fetch_asset(path.c_str(), request);
}

void Lab::asset_fetched(int request, const uint8_t* bytes, size_t size, const char* error) {
    const auto found = fetching_.find(request);
    if (found == fetching_.end()) return;
    const AssetArrived done = std::move(found->second);
    fetching_.erase(found);
    done(bytes, size, error);
}

void Lab::start_loading() {
    native_note = "loading assets/sweep.json\u2026";
    read("assets/shipped.json", [this](const uint8_t* bytes, size_t size, const char* error) {
        try {
            if (error) throw std::runtime_error(error);
            take_shipped_list(bytes, size);
        } catch (const std::exception& e) {
            shipped_list_note = std::string("assets/shipped.json could not be read: ") + e.what();
        }
    });
    read("assets/sweep.json", [this](const uint8_t* bytes, size_t size, const char* error) {
        if (error) {
            native_note = std::string("no native sweep was shipped (") + error + ")";
            return;
        }
        try {
            const nlohmann::json sweep = nlohmann::json::parse(bytes, bytes + size);
            std::vector<ResultRow> rows;
            for (const auto& run : sweep.at("runs")) {
                const ModelConfig c = run_settings_from_record(run).model;
                rows.push_back({Origin::native, native_sweep_label, c, run.at("exact").get<double>(), run.at("per_char").get<double>(),
                                run.at("parameters").get<long>(), run.value("train_seconds", NAN)});
            }
            std::erase_if(native_rows, [](const ResultRow& r) { return r.label == native_sweep_label; });
            native_rows.insert(native_rows.begin(), rows.begin(), rows.end());
            native_note = std::to_string(sweep.value("epochs", 0)) + " epochs, seed " + std::to_string(sweep.value("seed", 0));
        } catch (const std::exception& e) {
            native_note = std::string("assets/sweep.json could not be read: ") + e.what();
        }
    });
    // The published designs' rows: each variant's mean over its seeds (assets/published.md).
    read("assets/published.json", [this](const uint8_t* bytes, size_t size, const char* error) {
        try {
            if (error) throw std::runtime_error(error);
            const nlohmann::json published = nlohmann::json::parse(bytes, bytes + size);
            std::vector<ResultRow> rows;
            for (const auto& v : published.at("summary"))
                rows.push_back({Origin::native, "published, mean of " + std::to_string(v.at("seeds").get<int>()) + " seeds",
                                run_settings_from_record(v).model, v.at("exact_mean").get<double>(), v.at("per_char_mean").get<double>(),
                                v.at("parameters").get<long>(),
                                NAN});  // its seconds are wall clock on a loaded machine: not shown
            native_rows.insert(native_rows.end(), rows.begin(), rows.end());
        } catch (const std::exception& e) {
            published_note = std::string("assets/published.json could not be read: ") + e.what();
        }
    });
}

// {"models": [{"file", "settings": {"model", "task", "memory"}}, ...],
//  "alignment_sweeps": [{"file", "task"}, ...]}: an entry the page cannot read is said and skipped.
void Lab::take_shipped_list(const uint8_t* bytes, size_t size) {
    const nlohmann::json list = nlohmann::json::parse(bytes, bytes + size);
    shipped_list_note.clear();
    const auto refused = [this](const nlohmann::json& entry, const std::exception& e) {
        shipped_list_note += "assets/shipped.json's entry " + entry.dump() + " was skipped: " + e.what() + ". ";
    };
    for (const nlohmann::json& entry : list.at("models")) {
        try {
            ShippedModel m;
            m.file = entry.at("file").get<std::string>();
            m.config = run_settings_from_record(entry.at("settings")).model;
            // The lesson's pair: the sweep and results figures show what they score on the page.
            m.checked = m.config.task == &date_task() &&
                        std::find(lesson_pair.begin(), lesson_pair.end(), m.config.decoder) != lesson_pair.end();
            ShippedModel& kept = shipped.emplace_back(std::move(m));
            read(kept.file, [this, &kept](const uint8_t* bytes, size_t size, const char* error) {
                try {
                    if (error) throw std::runtime_error(error);
                    take_shipped(kept, bytes, size);
                } catch (const std::exception& e) {
                    kept.error = "The shipped " + shipped_label(kept.config) + " could not be loaded: " + e.what() + ".";
                }
            });
        } catch (const std::exception& e) {
            refused(entry, e);
        }
    }
    for (const nlohmann::json& entry : list.at("alignment_sweeps")) {
        try {
            const std::string file = entry.at("file").get<std::string>();
            const Task& task = find_task(entry.at("task").get<std::string>());
            tasks_[&task].alignment = AlignmentSweep{};  // loading, not missing
            read(file, [this, &task, file](const uint8_t* bytes, size_t size, const char* error) {
                AlignmentSweep& sweep = *tasks_[&task].alignment;
                try {
                    if (error) throw std::runtime_error(error);
                    sweep = alignment_sweep_from_json(nlohmann::json::parse(bytes, bytes + size), task);
                } catch (const std::exception& e) {
                    sweep = AlignmentSweep{};
                    sweep.note = "no alignment sweep was shipped for " + task.name + " (" + file + ": " + e.what() + ")";
                }
            });
        } catch (const std::exception& e) {
            refused(entry, e);
        }
    }
    listed_ = true;
}

void Lab::take_shipped(ShippedModel& m, const uint8_t* bytes, size_t size) {
    const SafetensorsContent content = decode_safetensors(bytes, size);
    Model model = model_from_safetensors(content);
    if (!same_model(model.config, m.config)) throw SafetensorsError("the file holds another model");
    const auto found = content.metadata.find("exact");  // not a setting: what the run measured
    m.info = "width " + recorded(content, "width") +
             (model_kind(m.config.decoder).has_heads() ? ", " + recorded(content, "heads") + " heads" : "") + ", " +
             recorded(content, "epochs") + " epochs, seed " + recorded(content, "seed") +
             (found == content.metadata.end() ? "" : "; natively: exact " + found->second.substr(0, 6));
    if (found != content.metadata.end()) m.native_exact = std::strtod(found->second.c_str(), nullptr);
    m.model = std::move(model);
    if (m.checked) {
        int k = 0;
        while (&shipped[size_t(k)] != &m) ++k;
        js_evaluate(k, bytes, int(size));
    }
}

void Lab::shipped_evaluated(int k, const std::string& json) {
    if (k < 0 || size_t(k) >= shipped.size()) return;
    ShippedModel& m = shipped[size_t(k)];
    try {
        const nlohmann::json parsed = nlohmann::json::parse(json);
        if (parsed.contains("error")) throw std::runtime_error(parsed.at("error").get<std::string>());
        m.metrics = metrics_from_json(parsed);
    } catch (const std::exception& e) {
        m.error = "The shipped " + shipped_label(m.config) + "'s check failed: " + e.what() + ".";
    }
    changed();
}

//-----------------------------------------------------------------------------------------------
// What the figures ask
//-----------------------------------------------------------------------------------------------

const ShippedModel* Lab::find_shipped(const Task& task, DecoderKind kind, Memory memory) const {
    ModelConfig want;
    want.task = &task;
    want.decoder = kind;
    want.memory = memory;
    for (const ShippedModel& m : shipped)
        if (same_model(m.config, want)) return &m;
    return nullptr;
}

const Model* Lab::shipped_model(const Task& task, DecoderKind kind, Memory memory) const {
    const ShippedModel* m = find_shipped(task, kind, memory);
    return m && m->model ? &*m->model : nullptr;
}

std::string Lab::shipped_note(const Task& task, DecoderKind kind, Memory memory) const {
    if (const ShippedModel* m = find_shipped(task, kind, memory)) return m->model ? m->info : m->error;
    if (!listed_) return "";  // loading
    ModelConfig c;
    c.task = &task;
    c.decoder = kind;
    c.memory = memory;
    return "No " + shipped_label(c) + " was shipped" + (shipped_list_note.empty() ? "" : " (" + shipped_list_note + ")");
}

std::string Lab::shipped_errors(const Task& task, std::initializer_list<DecoderKind> kinds) const {
    std::string errors;
    for (DecoderKind kind : kinds)
        for (Memory memory : memory_choices(kind)) {
            const ShippedModel* m = find_shipped(task, kind, memory);
            const std::string error = m ? m->error : shipped_note(task, kind, memory);
            if (!error.empty()) errors += (errors.empty() ? "" : " ") + error;
        }
    return errors;
}

bool Lab::checking_shipped() const {
    return std::any_of(shipped.begin(), shipped.end(), [](const ShippedModel& m) { return m.checking(); });
}

const std::vector<Example>& Lab::held_out(const Task& task) {
    std::vector<Example>& split = tasks_[&task].held_out;
    // The held-out split is drawn first: with no training strings it is the same split (draw.h).
    if (split.empty()) split = task.make_splits(1, 0, task.held_out_size).held_out;
    return split;
}

bool Lab::knows_alignment(const Task& task) {
    const std::vector<Example>& split = held_out(task);
    return std::any_of(split.begin(), split.end(), [](const Example& e) { return !e.alignment.empty(); });
}

const Model* Lab::attention_model(const Task& task) const { return shipped_model(task, DecoderKind::attention); }

std::string Lab::attention_model_note(const Task& task) const { return shipped_note(task, DecoderKind::attention); }

const AlignmentSweep& Lab::alignment_sweep(const Task& task) const {
    const auto found = tasks_.find(&task);
    if (found != tasks_.end() && found->second.alignment) return *found->second.alignment;
    return no_sweep(listed_);
}

}  // namespace lb::web
