// core/io/worker_codec.h — the training worker's protocol as one codec for both ends: the page
// (web/lab/runs.cpp) writes a run's config and reads reports, the worker
// (web/worker/training_module.cpp) reads the config and writes reports. Tested natively with a
// round trip and fuzzed (tests/fuzz/fuzz_worker.cpp); a config is read through the settings
// schema (run_settings.h).
#pragma once
#include <cstddef>
#include <optional>
#include <vector>
#include <nlohmann/json.hpp>

#include "data/metrics.h"
#include "data/pairs.h"
#include "settings/run_settings.h"

namespace lb {

// A run's config: every field of the schema that applies to its kind and task, keyed by the field's key.
nlohmann::json run_settings_to_json(const RunSettings& settings);
// Reads a config: an object of the schema's keys (any subset; the rest keep their defaults).
// Throws SettingError naming the key for an unknown key, a value of the wrong JSON type or one
// the field does not take, or a field given for a kind or a task it does not apply to.
RunSettings run_settings_from_json(const nlohmann::json& config);
// A run recorded among other things (a row of assets/sweep.json or published.json, `lookback train
// --json`): its schema keys that apply to its kind, read as a config; every other key is ignored
// (such rows also record "scorer": "none" for a kind that does not score). Throws SettingError.
RunSettings run_settings_from_record(const nlohmann::json& row);

// What a run did since its last report.
struct WorkerReport {
    size_t first_step = 0;            // the step of losses[0]: steps already reported
    std::vector<float> losses;        // per-step training losses
    std::vector<EpochRecord> epochs;  // epochs finished (exact, per_char, token_error_rate NaN when not evaluated)
    std::optional<Metrics> metrics;   // the newest held-out evaluation, sent with the epoch that made it
    size_t steps = 0;                 // steps taken in all
    int epoch = 0;                    // epochs finished in all
    long examples = 0;                // training examples seen
    bool evaluating = false;          // decoding the held-out split
    double fraction = 0;              // of the whole run, 0..1
    double train_seconds = 0;         // spent training (not evaluating)
    bool done = false;
};
nlohmann::json worker_report_to_json(const WorkerReport& report);
// Throws std::invalid_argument (or nlohmann's errors) for a report that is not one, or whose
// numbers do not fit the types they are stored in.
WorkerReport worker_report_from_json(const nlohmann::json& json);

// A reader's own task as a worker is sent it (docs/own-pairs.md): the pairs' text and the options
// that made it in the page. make_pairs_task is deterministic from these, so the worker makes the
// same task (split, vocabularies) and adds it to its own table before a run of it is created.
// {"text": "...", "name": "your-pairs", "tokens": "characters"|"words", "format":
// "detect"|"tsv"|"csv", "split_seed": n, "held_out": n, "drop_duplicates": true}.
struct PairsTaskSource {
    std::string text;
    PairsOptions options;
};
nlohmann::json pairs_source_to_json(const PairsTaskSource& source);
// Throws std::invalid_argument naming the key for a message that is not one (the text itself is
// checked by make_pairs_task, not here).
PairsTaskSource pairs_source_from_json(const nlohmann::json& json);

}  // namespace lb
