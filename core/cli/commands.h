// core/cli/commands.h — the subcommands of `lookback`, one file each.
// Each takes the arguments after its name and returns the process exit code.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "dataset.h"
#include "metrics.h"
#include "model.h"
#include "trainer.h"

namespace lb::cli {

using Args = std::vector<std::string>;

int worked_example(const Args& args);
int train(const Args& args);
int sweep(const Args& args);
int predict(const Args& args);
int bench(const Args& args);  // cmd_bench.cpp

// A usage error: prints the message and the command's usage, returns 2.
int usage_error(const std::string& message, const char* usage);

// --- option parsing (options.cpp) ------------------------------------------
// Thrown for an unknown flag or a bad value; the command turns it into
// usage_error.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// If args[i] is `--name VALUE` or `--name=VALUE`, stores VALUE, advances i past
// it and returns true; throws UsageError if the value is missing.
bool take_option(const Args& args, size_t& i, const char* name, std::string& value);
// An integer in [lo, hi] for a flag, or UsageError naming the flag.
long long parse_integer(const char* flag, const std::string& text, long long lo, long long hi);

// --- one training run, shared by train and sweep (cmd_train.cpp) -------------
struct RunOptions {
    ModelConfig model;
    AdamConfig adam;         // the trainer's rate (and warmup); see default_adam
    int epochs = 12;
    uint64_t seed = 1;       // initialisation and shuffling
    uint64_t data_seed = 1;  // the dataset's strings
    bool progress = false;   // draw a progress bar on stdout (a terminal)
    std::string label;       // shown before the bar
};
struct RunResult {
    Model model;
    Metrics metrics;                  // held-out, greedy decoding
    std::vector<EpochRecord> history; // train loss per epoch
    long parameters = 0;
    double train_seconds = 0, eval_seconds = 0, examples_per_second = 0;
};
RunResult train_and_evaluate(const RunOptions& options, const DateSplits& data);
// The train JSON: model, scorer, width, epochs, seed, parameters,
// train_seconds, examples_per_second, exact, per_char, per_position[10],
// length_buckets[4], per_format[6]; plus the bucket ranges and counts, the
// per-format exact match and the loss per epoch.
nlohmann::json run_json(const RunOptions& options, const RunResult& result);

std::string decoder_name(DecoderKind kind);  // "plain" | "attention" | "transformer"
bool stdout_is_terminal();

}  // namespace lb::cli
