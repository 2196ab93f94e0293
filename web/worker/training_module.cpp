// web/worker/training_module.cpp — the training module: lb::Trainer behind a small C API, built
// from core/ alone (no ImGui, no GL) into lookback_trainer.{js,wasm}. web/worker/engine.js drives
// it, in a Web Worker (web/worker/training_worker.js) or, where no Worker can start, on the page's
// main thread; the same module runs under node for the determinism test.
//
// A module holds any number of runs, each a Trainer with its own seed; the dataset is built when
// a run first needs it and shared by every run of the same data seed. Every export catches
// everything: an error becomes a message (lbt_message) and the module stays usable.
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include "io/metrics_json.h"
#include "io/safetensors.h"
#include "training/trainer.h"

namespace {

using nlohmann::json;

struct Run {
    std::unique_ptr<lb::Trainer> trainer;
    size_t losses_sent = 0, epochs_sent = 0;  // what lbt_report has already returned
    double busy_ms = 0;                       // time spent training (not evaluating)
    long examples_at_busy = 0;
};

std::map<uint64_t, lb::Splits> datasets;  // by data seed
std::map<int, Run> runs;
int next_run = 0;
std::string message;                          // the last error, for lbt_message
std::string text;                             // the last JSON returned
std::vector<uint8_t> bytes;                   // the last weights returned

const lb::Splits& dataset(uint64_t seed) {
    auto found = datasets.find(seed);
    if (found == datasets.end()) found = datasets.emplace(seed, lb::make_date_splits(seed)).first;
    return found->second;
}

// A whole number from `config[key]` in [lo, hi], or the default; refuses anything else by name.
long whole(const json& config, const char* key, long fallback, long lo, long hi) {
    if (!config.contains(key)) return fallback;
    const json& v = config[key];
    if (!v.is_number_integer() || v.get<long>() < lo || v.get<long>() > hi)
        throw std::invalid_argument(std::string(key) + " must be a whole number from " + std::to_string(lo) + " to " +
                                    std::to_string(hi));
    return v.get<long>();
}

// A string from `config[key]`, or the default; refuses any other type by name.
std::string word(const json& config, const char* key, const char* fallback) {
    if (!config.contains(key)) return fallback;
    if (!config[key].is_string()) throw std::invalid_argument(std::string(key) + " must be a string");
    return config[key].get<std::string>();
}

lb::TrainerConfig parse_config(const json& config) {
    if (!config.is_object()) throw std::invalid_argument("a run's config must be a JSON object");
    lb::TrainerConfig c;
    const auto decoder = lb::parse_decoder(word(config, "model", "attention"));
    if (!decoder)
        throw std::invalid_argument("model must be plain, attention, bahdanau, luong, luong-local or transformer");
    c.model.decoder = *decoder;
    c.model.H = int(whole(config, "width", 64, 1, 512));
    if (*decoder == lb::DecoderKind::transformer) {
        if (config.contains("scorer") || config.contains("input_feeding"))
            throw std::invalid_argument("scorer and input_feeding apply to the GRU models only");
        const std::string memory = word(config, "memory", "all");
        if (memory != "all" && memory != "first") throw std::invalid_argument("memory must be all or first");
        c.model.memory = memory == "all" ? lb::Memory::all : lb::Memory::first;
        c.model.heads = int(whole(config, "heads", 4, 1, 8));
        lb::check_transformer_config(lb::transformer_config(c.model));  // as `lookback train` does
    } else {
        if (config.contains("memory") || config.contains("heads"))
            throw std::invalid_argument("memory and heads apply to model transformer only");
        // the command line's names and rules (model.h): a scorer for the models that score,
        // input feeding for luong and luong-local
        c.model.scorer = lb::default_scorer(*decoder);
        if (config.contains("scorer") && *decoder != lb::DecoderKind::plain) {
            const json& name = config["scorer"];
            const auto scorer = name.is_string() ? lb::parse_model_scorer(*decoder, name.get<std::string>())
                                                 : std::nullopt;
            if (!scorer)
                throw std::invalid_argument("scorer of the " + std::string(lb::decoder_name(*decoder)) +
                                            " model must be " + std::string(lb::model_scorer_choices(*decoder)));
            c.model.scorer = *scorer;
        }
        if (config.contains("input_feeding")) {
            const json& feeding = config["input_feeding"];
            if (!feeding.is_boolean()) throw std::invalid_argument("input_feeding must be true or false");
            if (feeding.get<bool>() && !lb::is_luong(*decoder))
                throw std::invalid_argument("input_feeding is for the luong and luong-local models only");
            c.model.input_feeding = feeding.get<bool>();
        }
    }
    c.epochs = int(whole(config, "epochs", 12, 1, 1000));
    c.seed = uint64_t(whole(config, "seed", 1, 0, 2147483647));
    if (config.contains("learning_rate")) {
        const json& lr = config["learning_rate"];
        // checked as the float it is stored as: 1e-50 is above 0 as a double but 0 as a float
        const double asked = lr.is_number() ? lr.get<double>() : 0.0;
        const float rate = asked > 0 && asked <= 10 ? float(asked) : 0.0f;
        if (!(rate > 0 && rate <= 10)) throw std::invalid_argument("learning_rate must be a number in (0, 10]");
        c.adam.learning_rate = rate;
    }
    return c;
}

Run* find_run(int id) {
    const auto found = runs.find(id);
    if (found == runs.end()) {
        message = "no run " + std::to_string(id);
        return nullptr;
    }
    return &found->second;
}

// Runs `body`, turning every exception into `message`; returns `failed` then.
template <typename F, typename R>
R guarded(R failed, F&& body) {
    try {
        return body();
    } catch (const std::bad_alloc&) {
        message = "out of memory";
    } catch (const std::exception& e) {
        message = e.what();
    } catch (...) {
        message = "an unknown error";
    }
    return failed;
}

}  // namespace

extern "C" {

// The last error of any call below.
EMSCRIPTEN_KEEPALIVE const char* lbt_message() { return message.c_str(); }

// Creates a run from its config (JSON: model plain|attention|bahdanau|luong|luong-local|transformer,
// scorer and input_feeding (GRU models), memory all|first and heads (transformer), width, epochs,
// seed, data_seed, learning_rate); the model is initialised, nothing is trained. Returns its id or -1.
EMSCRIPTEN_KEEPALIVE int lbt_create(const char* config_text) {
    return guarded(-1, [&] {
        const json parsed = json::parse(config_text);
        const lb::TrainerConfig config = parse_config(parsed);
        const lb::Splits& data = dataset(uint64_t(whole(parsed, "data_seed", 1, 0, 2147483647)));
        const int id = next_run++;
        runs[id].trainer = std::make_unique<lb::Trainer>(config, data);
        return id;
    });
}

EMSCRIPTEN_KEEPALIVE void lbt_destroy(int id) { runs.erase(id); }

// Trains run `id` (or decodes its held-out split after an epoch) for about `budget_ms`, in
// units of at most one batch (or decode_batch_rows decoded strings), and stops before step
// `stop_at_step` when that is ≥ 0. Returns 0: more to do, 1: done, 2: reached stop_at_step, -1: failed (message).
EMSCRIPTEN_KEEPALIVE int lbt_work(int id, double budget_ms, int stop_at_step) {
    return guarded(-1, [&] {
        Run* run = find_run(id);
        if (!run) return -1;
        lb::Trainer& t = *run->trainer;
        const double start = emscripten_get_now();
        do {
            if (!t.failure().empty()) {  // a step went non-finite: the trainer kept the last sound weights
                message = t.failure();
                return -1;
            }
            if (t.done()) return 1;
            const bool training = t.phase() == lb::Trainer::Phase::training;
            if (training && stop_at_step >= 0 && t.rows_into_batch() == 0 &&
                long(t.loss_history().size()) >= stop_at_step)
                return 2;
            const double t0 = emscripten_get_now();
            t.work(training ? t.rows_left() : std::min(t.rows_left(), lb::decode_batch_rows));
            if (training) run->busy_ms += emscripten_get_now() - t0;
        } while (emscripten_get_now() - start < budget_ms);
        if (!t.failure().empty()) {
            message = t.failure();
            return -1;
        }
        return t.done() ? 1 : 0;
    });
}

// What run `id` has done since its last report, as JSON: new per-step losses, new epochs (each
// with its held-out exact and per-character accuracy), the metrics of the newest evaluation if
// one finished, and progress. null on error.
EMSCRIPTEN_KEEPALIVE const char* lbt_report(int id) {
    text = guarded(std::string("null"), [&] {
        Run* run = find_run(id);
        if (!run) return std::string("null");
        const lb::Trainer& t = *run->trainer;
        json losses = json::array(), epochs = json::array();
        for (size_t i = run->losses_sent; i < t.loss_history().size(); ++i) losses.push_back(t.loss_history()[i]);
        for (size_t i = run->epochs_sent; i < t.epoch_history().size(); ++i) {
            const lb::EpochRecord& e = t.epoch_history()[i];
            epochs.push_back({{"epoch", e.epoch}, {"train_loss", e.train_loss},
                              {"exact", std::isnan(e.exact) ? json(nullptr) : json(e.exact)},
                              {"per_char", std::isnan(e.per_char) ? json(nullptr) : json(e.per_char)}});
        }
        json report = {
            {"first_step", run->losses_sent},
            {"losses", losses},
            {"epochs", epochs},
            {"steps", t.loss_history().size()},
            {"epoch", t.epoch()},
            {"examples", t.examples_seen()},
            {"evaluating", t.phase() == lb::Trainer::Phase::evaluating},
            {"fraction", t.fraction_done()},
            {"train_seconds", run->busy_ms / 1000},
            {"done", t.done()},
        };
        if (!epochs.empty() && t.metrics()) report["metrics"] = lb::metrics_to_json(*t.metrics());
        run->losses_sent = t.loss_history().size();
        run->epochs_sent = t.epoch_history().size();
        return report.dump();
    });
    return text.c_str();
}

// Run `id`'s current weights in the safetensors layout (the bytes stay valid until the next
// call); their size in *size, or nullptr and -1 on error.
EMSCRIPTEN_KEEPALIVE const uint8_t* lbt_weights(int id, int* size) {
    *size = -1;
    return guarded(static_cast<const uint8_t*>(nullptr), [&]() -> const uint8_t* {
        Run* run = find_run(id);
        if (!run) return nullptr;
        const lb::Trainer& t = *run->trainer;
        bytes = lb::encode_safetensors(lb::model_to_safetensors(
            t.model(), {{"seed", std::to_string(t.config().seed)}, {"epochs", std::to_string(t.epoch())}}));
        *size = int(bytes.size());
        return bytes.data();
    });
}

// Decodes the held-out split (data seed 1) with the model in a weights file and returns its
// Metrics as JSON, or {"error": "..."}: the page's check of the shipped models.
EMSCRIPTEN_KEEPALIVE const char* lbt_evaluate(const uint8_t* file, int size) {
    text = guarded(std::string(), [&] {
        const lb::Model model = lb::load_model(file, size_t(size));
        lb::SplitEvaluator evaluator(dataset(1).held_out);
        while (!evaluator.done()) evaluator.work(model, lb::decode_batch_rows);
        return lb::metrics_to_json(*evaluator.metrics()).dump();
    });
    if (text.empty()) text = json{{"error", message}}.dump();
    return text.c_str();
}

}  // extern "C"
