// web/lab/assets.cpp — what the Lab loads from assets/ (the page's own origin): the two shipped
// 64-unit models, labelled from their own metadata and checked on the held-out split by a
// worker, the two shipped 64-wide Transformers (memory first and all) for the Transformer
// section's maps, the native sweep (assets/sweep.json) as result rows, and for the maps checked
// against each task's known alignment the other tasks' shipped attention models
// (assets/attention-TASK-64.safetensors) and the alignment sweeps (assets/alignment-TASK.json).
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

enum FetchTag {
    fetch_plain = 0, fetch_attention = 1, fetch_sweep = 2, fetch_transformer_first = 3, fetch_transformer_all = 4,
    fetch_published = 5,
    fetch_task_model = 10,        // + 0 reversal, + 1 translation (Lab::task_models)
    fetch_alignment_sweep = 20,   // + the task's index in tasks()
};
const char* const task_model_names[] = {"reversal", "translation"};

// Fetches a file of the site; calls lb_asset_fetched(tag, bytes, size, error) when it arrives.
EM_JS(void, js_fetch_asset, (const char* path, int tag), {
    const done = (bytes, error) => {
        const data = bytes ? _malloc(Math.max(1, bytes.length)) : 0;
        if (bytes) HEAPU8.set(bytes, data);
        let message = 0;
        if (error) {
            const size = lengthBytesUTF8(error) + 1;
            message = _malloc(size);
            stringToUTF8(error, message, size);
        }
        _lb_asset_fetched(tag, data, bytes ? bytes.length : 0, message);
        if (data) _free(data);
        if (message) _free(message);
    };
    const url = UTF8ToString(path);
    fetch(url)
        .then((response) => {
            if (!response.ok) throw new Error(url + " answered HTTP " + response.status);
            return response.arrayBuffer();
        })
        .then((buffer) => done(new Uint8Array(buffer), null), (error) => done(null, String(error.message || error)));
});
// A worker decodes the held-out split with the weights; lb_shipped_evaluated(k, json) answers.
EM_JS(void, js_evaluate, (int k, const uint8_t* bytes, int size), {
    Module.lookbackRuns.evaluate(k, HEAPU8.slice(bytes, bytes + size));
});

const char* model_word(int k) { return k ? "attention" : "plain"; }

// A run's model as a sweep file records it, read through the settings schema (io/worker_codec.h).
ModelConfig config_of(const nlohmann::json& run) {
    const ModelConfig c = run_settings_from_record(run).model;
    if (c.decoder == DecoderKind::transformer) throw std::invalid_argument("a run of an unknown model");
    return c;
}

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
    // sweep names a Transformer by its memory, "transformer-all": the schema's model is "transformer").
    const std::string label = "alignment sweep, " + std::to_string(out.seeds) + " seeds";
    for (const auto& s : sweep.at("summary")) {
        const std::string name = s.at("model").get<std::string>();
        const auto& runs = sweep.at("runs");
        const auto run = std::find_if(runs.begin(), runs.end(), [&](const nlohmann::json& r) { return r.at("model") == name; });
        if (run == runs.end()) throw std::runtime_error("no run of " + name);
        nlohmann::json record = *run;
        if (name.starts_with("transformer")) record["model"] = "transformer";
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

}  // namespace

void Lab::start_loading() {
    native_note = "loading assets/sweep.json\u2026";
    js_fetch_asset("assets/plain-64.safetensors", fetch_plain);
    js_fetch_asset("assets/attention-64.safetensors", fetch_attention);
    js_fetch_asset("assets/sweep.json", fetch_sweep);
    js_fetch_asset("assets/published.json", fetch_published);
    js_fetch_asset("assets/transformer-first-64.safetensors", fetch_transformer_first);
    js_fetch_asset("assets/transformer-all-64.safetensors", fetch_transformer_all);
    for (int k = 0; k < 2; ++k)
        js_fetch_asset(("assets/attention-" + std::string(task_model_names[k]) + "-64.safetensors").c_str(), fetch_task_model + k);
    for (size_t k = 0; k < tasks().size(); ++k)
        js_fetch_asset(("assets/alignment-" + tasks()[k]->name + ".json").c_str(), fetch_alignment_sweep + int(k));
}

const std::vector<Example>& Lab::held_out() {
    if (!data_) data_ = make_date_splits(1);
    return data_->held_out;
}

namespace {
size_t task_index(const Task& task) {
    const auto& all = tasks();
    return size_t(std::find(all.begin(), all.end(), &task) - all.begin());
}
}  // namespace

const std::vector<Example>& Lab::held_out(const Task& task) {
    if (&task == &date_task()) return held_out();
    std::vector<Example>& split = task_held_out_.at(task_index(task));
    // The held-out split is drawn first: with no training strings it is the same split (draw.h).
    if (split.empty()) split = task.make_splits(1, 0, task.held_out_size).held_out;
    return split;
}

const Model* Lab::attention_model(const Task& task) const {
    if (&task == &date_task()) return shipped[1] ? &*shipped[1] : nullptr;
    const TaskModel& m = task_models.at(task_index(task) - 1);
    return m.model ? &*m.model : nullptr;
}

std::string Lab::attention_model_note(const Task& task) const {
    if (&task == &date_task()) return shipped[1] ? shipped_info[1] : shipped_error;
    const TaskModel& m = task_models.at(task_index(task) - 1);
    return m.model ? m.info : m.error;
}

const AlignmentSweep& Lab::alignment_sweep(const Task& task) const { return alignment_sweeps.at(task_index(task)); }

void Lab::asset_fetched(int tag, const uint8_t* bytes, size_t size, const char* error) {
    if (tag == fetch_plain || tag == fetch_attention) {
        const int k = tag;
        if (error) {
            shipped_error += std::string(model_word(k)) + " model: " + error + ". ";
        } else {
            try {
                const SafetensorsContent content = decode_safetensors(bytes, size);
                Model model = model_from_safetensors(content);
                const DecoderKind want = k ? DecoderKind::attention : DecoderKind::plain;
                if (model.config.decoder != want) throw SafetensorsError("the file holds the other model");
                const auto found = content.metadata.find("exact");  // not a setting: what the run measured
                const std::string exact = found == content.metadata.end() ? "?" : found->second;
                shipped[size_t(k)] = std::move(model);
                shipped_native_exact[size_t(k)] = std::strtod(exact.c_str(), nullptr);
                shipped_info[size_t(k)] = "width " + recorded(content, "width") + ", " + recorded(content, "epochs") +
                                          " epochs, seed " + recorded(content, "seed") + "; natively: exact " +
                                          exact.substr(0, 6);
                js_evaluate(k, bytes, int(size));
            } catch (const std::exception& e) {
                shipped_error += std::string(model_word(k)) + " model: " + e.what() + ". ";
            }
        }
    } else if (tag == fetch_transformer_first || tag == fetch_transformer_all) {
        const int k = tag == fetch_transformer_all;
        const std::string name = k ? "Transformer (all states)" : "Transformer (first state)";
        try {
            if (error) throw std::runtime_error(error);
            const SafetensorsContent content = decode_safetensors(bytes, size);
            Model model = model_from_safetensors(content);
            if (model.config.decoder != DecoderKind::transformer || (model.config.memory == Memory::all) != bool(k))
                throw SafetensorsError("the file holds another model");
            const auto found = content.metadata.find("exact");  // not a setting: what the run measured
            const std::string exact = found == content.metadata.end() ? "?" : found->second;
            shipped_transformers[size_t(k)] = std::move(model);
            shipped_transformer_info[size_t(k)] = "width " + recorded(content, "width") + ", " + recorded(content, "heads") +
                                                  " heads, " + recorded(content, "epochs") + " epochs, seed " +
                                                  recorded(content, "seed") + "; natively: exact " + exact.substr(0, 6);
        } catch (const std::exception& e) {
            shipped_transformer_error += "The shipped " + name + " could not be loaded: " + e.what() + ". ";
        }
    } else if (tag == fetch_sweep) {
        if (error) {
            native_note = std::string("no native sweep was shipped (") + error + ")";
        } else {
            try {
                const nlohmann::json sweep = nlohmann::json::parse(bytes, bytes + size);
                std::vector<ResultRow> rows;
                for (const auto& run : sweep.at("runs")) {
                    const ModelConfig c = config_of(run);
                    rows.push_back({Origin::native, native_sweep_label, c, run.at("exact").get<double>(), run.at("per_char").get<double>(),
                                    run.at("parameters").get<long>(), run.value("train_seconds", NAN)});
                }
                std::erase_if(native_rows, [](const ResultRow& r) { return r.label == native_sweep_label; });
                native_rows.insert(native_rows.begin(), rows.begin(), rows.end());
                native_note = std::to_string(sweep.value("epochs", 0)) + " epochs, seed " +
                              std::to_string(sweep.value("seed", 0));
            } catch (const std::exception& e) {
                native_note = std::string("assets/sweep.json could not be read: ") + e.what();
            }
        }
    } else if (tag == fetch_task_model || tag == fetch_task_model + 1) {
        TaskModel& m = task_models[size_t(tag - fetch_task_model)];
        const std::string task = task_model_names[tag - fetch_task_model];
        try {
            if (error) throw std::runtime_error(error);
            const SafetensorsContent content = decode_safetensors(bytes, size);
            Model model = model_from_safetensors(content);
            if (model.config.task->name != task || model.config.decoder != DecoderKind::attention)
                throw SafetensorsError("the file holds another model than the " + task + " task's attention model");
            m.model = std::move(model);
            m.info = "width " + recorded(content, "width") + ", " + recorded(content, "epochs") + " epochs, seed " +
                     recorded(content, "seed");
        } catch (const std::exception& e) {
            m.error = "The shipped attention model for " + task + " could not be loaded: " + e.what() + ".";
        }
    } else if (tag >= fetch_alignment_sweep && tag < fetch_alignment_sweep + int(tasks().size())) {
        const Task& task = *tasks()[size_t(tag - fetch_alignment_sweep)];
        AlignmentSweep& sweep = alignment_sweeps[size_t(tag - fetch_alignment_sweep)];
        const std::string file = "assets/alignment-" + task.name + ".json";
        try {
            if (error) throw std::runtime_error(error);
            sweep = alignment_sweep_from_json(nlohmann::json::parse(bytes, bytes + size), task);
        } catch (const std::exception& e) {
            sweep = AlignmentSweep{};
            sweep.note = "no alignment sweep was shipped for " + task.name + " (" + file + ": " + e.what() + ")";
        }
    } else if (tag == fetch_published) {
        // The published designs' rows: each variant's mean over its seeds (assets/published.md).
        try {
            if (error) throw std::runtime_error(error);
            const nlohmann::json published = nlohmann::json::parse(bytes, bytes + size);
            std::vector<ResultRow> rows;
            for (const auto& v : published.at("summary")) {
                const ModelConfig c = config_of(v);
                rows.push_back({Origin::native, "published, mean of " + std::to_string(v.at("seeds").get<int>()) + " seeds",
                                c, v.at("exact_mean").get<double>(),
                                v.at("per_char_mean").get<double>(), v.at("parameters").get<long>(),
                                NAN});  // its seconds are wall clock on a loaded machine: not shown
            }
            native_rows.insert(native_rows.end(), rows.begin(), rows.end());
        } catch (const std::exception& e) {
            published_note = std::string("assets/published.json could not be read: ") + e.what();
        }
    }
    changed();
}

void Lab::shipped_evaluated(int k, const std::string& json) {
    if (k < 0 || k > 1) return;
    try {
        const nlohmann::json parsed = nlohmann::json::parse(json);
        if (parsed.contains("error")) throw std::runtime_error(parsed.at("error").get<std::string>());
        shipped_metrics[size_t(k)] = metrics_from_json(parsed);
    } catch (const std::exception& e) {
        shipped_error += std::string(model_word(k)) + " model's check: " + e.what() + ". ";
    }
    changed();
}

}  // namespace lb::web
