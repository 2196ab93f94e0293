// web/worker/training_module.cpp — the training module: lb::Trainer behind a small C API, built
// from core/ alone (no ImGui, no GL) into lookback_trainer.{js,wasm}. web/worker/engine.js drives
// it, in a Web Worker (web/worker/training_worker.js) or, where no Worker can start, on the page's
// main thread; the same module runs under node for the determinism test.
//
// A module holds any number of runs, each a Trainer with its own seed; the dataset is built when
// a run first needs it and shared by every run of the same data seed. Every export catches
// everything: an error becomes a message (lbt_message) and the module stays usable.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include "io/metrics_json.h"
#include "io/safetensors.h"
#include "data/pairs.h"
#include "io/worker_codec.h"
#include "training/trainer.h"

namespace {

using nlohmann::json;

struct Run {
    std::unique_ptr<lb::Trainer> trainer;
    size_t losses_sent = 0, epochs_sent = 0;  // what lbt_report has already returned
    double busy_ms = 0;                       // time spent training (not evaluating)
    long examples_at_busy = 0;
};

std::map<std::pair<const lb::Task*, uint64_t>, lb::Splits> datasets;  // by task and data seed
std::map<int, Run> runs;
int next_run = 0;
std::string message;                          // the last error, for lbt_message
std::string text;                             // the last JSON returned
std::vector<uint8_t> bytes;                   // the last weights returned

const lb::Splits& dataset(const lb::Task& task, uint64_t seed) {
    const auto key = std::make_pair(&task, seed);
    auto found = datasets.find(key);
    if (found == datasets.end())
        found = datasets.emplace(key, task.make_splits(seed, task.train_size, task.held_out_size)).first;
    return found->second;
}

// The reader's tasks this module was sent (lbt_pairs_task), by name: each with the message that
// made it, so the same message twice makes nothing. A task replaced while a run still trains on
// it is kept out of the table until the module ends (its runs read it), never freed under them.
struct OwnTask {
    std::unique_ptr<lb::PairsTask> made;
    std::string source;  // the message's JSON text
};
std::map<std::string, OwnTask> own_tasks;
std::vector<std::unique_ptr<lb::PairsTask>> retired_tasks;

bool task_in_use(const lb::Task& task) {
    return std::any_of(runs.begin(), runs.end(), [&](const auto& r) { return r.second.trainer->config().model.task == &task; });
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

// Creates a run from its config (JSON: the settings schema's keys, io/worker_codec.h); the model is
// initialised, nothing is trained. Returns its id or -1.
EMSCRIPTEN_KEEPALIVE int lbt_create(const char* config_text) {
    return guarded(-1, [&] {
        const lb::RunSettings settings = lb::run_settings_from_json(json::parse(config_text));
        const lb::Splits& data = dataset(*settings.model.task, settings.data_seed);
        const int id = next_run++;
        runs[id].trainer = std::make_unique<lb::Trainer>(lb::TrainerConfig{settings}, data);  // evaluates each epoch
        return id;
    });
}

EMSCRIPTEN_KEEPALIVE void lbt_destroy(int id) { runs.erase(id); }

// A reader's own task (io/worker_codec.h's PairsTaskSource as JSON): made with
// replace_pairs_task from the same text and options as the page made it, so the same split and
// vocabularies, in this module's table in place of a task of that name made from another text
// (its runs, if any, keep theirs). The page sends it once, before this module's first run of it.
// Returns 0, or -1 with the refusal in lbt_message (the table as it was).
EMSCRIPTEN_KEEPALIVE int lbt_pairs_task(const char* source_text) {
    return guarded(-1, [&] {
        const std::string source = source_text;
        const lb::PairsTaskSource wanted = lb::pairs_source_from_json(json::parse(source));
        const std::string name = wanted.options.name;
        const auto found = own_tasks.find(name);
        if (found != own_tasks.end() && found->second.source == source) return 0;
        const lb::Task* old = found != own_tasks.end() ? &found->second.made->task : nullptr;
        std::unique_ptr<lb::PairsTask> made = lb::replace_pairs_task(wanted.text, wanted.options, old);
        if (old) {
            std::unique_ptr<lb::PairsTask> replaced = std::move(found->second.made);
            if (task_in_use(*old)) retired_tasks.push_back(std::move(replaced));
            else std::erase_if(datasets, [&](const auto& d) { return d.first.first == old; });
        }
        own_tasks[name] = OwnTask{std::move(made), source};
        return 0;
    });
}

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
        lb::WorkerReport report;
        report.first_step = run->losses_sent;
        report.losses.assign(t.loss_history().begin() + long(run->losses_sent), t.loss_history().end());
        report.epochs.assign(t.epoch_history().begin() + long(run->epochs_sent), t.epoch_history().end());
        if (!report.epochs.empty()) report.metrics = t.metrics();  // with the epoch that made them
        report.steps = t.loss_history().size();
        report.epoch = t.epoch();
        report.examples = t.examples_seen();
        report.evaluating = t.phase() == lb::Trainer::Phase::evaluating;
        report.fraction = t.fraction_done();
        report.train_seconds = run->busy_ms / 1000;
        report.done = t.done();
        run->losses_sent = t.loss_history().size();
        run->epochs_sent = t.epoch_history().size();
        return lb::worker_report_to_json(report).dump();
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

// Decodes its task's held-out split (data seed 1) with the model in a weights file and returns its
// Metrics as JSON, or {"error": "..."}: the page's check of the shipped models.
EMSCRIPTEN_KEEPALIVE const char* lbt_evaluate(const uint8_t* file, int size) {
    text = guarded(std::string(), [&] {
        const lb::Model model = lb::load_model(file, size_t(size));
        lb::SplitEvaluator evaluator(dataset(*model.config.task, 1).held_out);
        while (!evaluator.done()) evaluator.work(model, lb::decode_batch_rows);
        return lb::metrics_to_json(*evaluator.metrics()).dump();
    });
    if (text.empty()) text = json{{"error", message}}.dump();
    return text.c_str();
}

}  // extern "C"
