// cli/commands.h — the subcommands of `lookback`, one file each.
// Each takes the arguments after its name and returns the process exit code.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "data/pairs.h"
#include "data/dataset.h"
#include "data/metrics.h"
#include "models/alignment_check.h"
#include "settings/run_settings.h"
#include "text/text.h"
#include "models/model.h"
#include "training/trainer.h"

namespace lb::cli {

using Args = std::vector<std::string>;

int worked_example(const Args& args);
int train(const Args& args);
int sweep(const Args& args);
struct SweepArgs;
int published_sweep(const SweepArgs& args);  // sweep --published
int predict(const Args& args);
int bench(const Args& args);  // cmd_bench.cpp
int chance(const Args& args);  // cmd_chance.cpp
int counterfactual(const Args& args);  // cmd_counterfactual.cpp
int pairs_examples(const Args& args);  // cmd_pairs.cpp
int eval(const Args& args);  // cmd_eval.cpp

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
// The same for a flag that names a file: an empty name is refused, "--save needs a file name"
// (`or_else`, such as " (or -)", says what else it takes).
bool take_file_option(const Args& args, size_t& i, const char* name, std::string& path, const char* or_else = "");
// --tokens chars|words, a reader's pairs' tokens.
bool take_tokens_option(const Args& args, size_t& i, std::optional<PairsTokens>& tokens);
// An integer in [lo, hi] for a flag, or UsageError naming the flag (also for
// digits beyond any integer: 9999999999999999999).
long long parse_integer(const char* flag, const std::string& text, long long lo, long long hi);
std::vector<std::string> split_commas(const std::string& text);
// --widths 8,16,64: each a width the settings schema takes, or UsageError naming the flag.
std::vector<int> parse_widths(const std::string& text);
// A finite decimal number in (lo, hi] for a flag, or UsageError naming the flag.
double parse_decimal(const char* flag, const std::string& text, double lo, double hi);
// A run's settings (--model, --width, --lr, ...) are the settings schema's flags
// (settings/run_settings.h): its bounds, its refusals and its usage lines.
// If args[i] is the flag of one of `keys` (`--width VALUE`, `--width=VALUE`, or a
// flag setting such as `--input-feeding` alone), records it with its text in
// `given`, advances i past it and returns true.
bool take_setting(const Args& args, size_t& i, const std::vector<std::string>& keys, GivenSettings& given);
// The settings given, read through the schema; UsageError with its refusal.
RunSettings read_setting_flags(const GivenSettings& given);
// The usage lines of `keys`' flags, each "    --width N  what it sets: what it takes (default)".
std::string settings_usage(const std::vector<std::string>& keys);
// An argument quoted for a message: escaped, cut, always valid UTF-8 (text.h).
std::string shown(const std::string& text);

// --- each command's options, parsed without doing any work: the commands,
// the tests and the option fuzzer call these. Each throws UsageError only.
struct BenchArgs {
    bool json = false, run_kernels = true, run_models = true;
    double budget = 1.0;  // seconds per training figure (kernels and inference get less)
    std::vector<int> widths = {8, 16, 32, 64};
    std::vector<std::string> model_names = {"plain", "dot", "general", "additive", "transformer",
                                            "transformer-first"};
    const Task* task = &date_task();  // --task: whose training split the models train on
    // --write-split FILE ("-": stdout): the task's training split as token ids, for the
    // PyTorch reference; nothing is timed
    std::string write_split;
};
BenchArgs parse_bench_args(const Args& args);
bool parse_worked_example_args(const Args& args);  // --json given
// --attend STEP=POS: output step STEP's attention moved wholly onto input position POS (0-based).
struct AttendTo {
    int step, position;
};
struct PredictArgs {
    std::string weights;
    bool json = false;
    bool per_head = false;  // a Transformer's cross-attention per head too
    std::string gradient_target;  // --gradient-path: ‖∂loss/∂h_j‖ for the loss of writing this date
    std::vector<AttendTo> attend;  // --attend: decode again with these steps' attention moved
    std::optional<int> head;       // --head: a Transformer's one head to move (else every head)
    std::vector<std::string> texts;
};
PredictArgs parse_predict_args(const Args& args);
// The options that depend on the loaded model's kind (--gradient-path: plain and attention only,
// --per-head and --head: transformer only, --attend: models with attention);
// throws UsageError naming the option and the kind.
void check_predict_model(const PredictArgs& args, const ModelConfig& model);
struct CounterfactualArgs {
    std::string out_dir = "assets";
    uint64_t data_seed = 1;
    std::vector<std::string> weights;  // the date models measured, in order
};
CounterfactualArgs parse_counterfactual_args(const Args& args);
struct TrainArgs;
TrainArgs parse_train_args(const Args& args);
// `lookback eval`: saved weights scored on their task's held-out split.
struct EvalArgs {
    std::string weights;
    std::string task_file;              // --task-file: the pairs a model of a reader's task was trained on
    std::optional<PairsTokens> tokens;  // --tokens, beside --task-file
    const Task* task = nullptr;         // --task: a built-in task
    std::string predictions_path;       // --predictions: the held-out predictions as CSV
    std::string json_path;              // --json: the scores as JSON ("-": stdout)
    bool bleu = false;                  // --bleu: BLEU printed for a task of words that is not the translation
};
EvalArgs parse_eval_args(const Args& args);
struct SweepArgs {
    std::string out_dir = "assets";
    int epochs = 12;
    uint64_t seed = 1, data_seed = 1;
    float learning_rate = 1e-3f;
    bool transformer = false;  // --transformer: the Transformer table (cmd_sweep_transformer.cpp)
    // --published: the published attention models beside today's (cmd_sweep_published.cpp),
    // at these widths (1–1024), seeds seed .. seed + seeds − 1
    bool published = false;
    std::vector<int> widths = {64};
    int seeds = 3;
    // --alignment: every model at width 64 on `task`, its maps scored (cmd_sweep_alignment.cpp)
    bool alignment = false;
    const Task* task = &date_task();
    // --dial: plain and attention at width 64 on the date task at each of these settings of its
    // dial (cmd_sweep_dial.cpp): dial_settings(), or the one given by --formats and --field-order
    bool dial = false;
    std::vector<DateDial> dials;
};
SweepArgs parse_sweep_args(const Args& args);
int transformer_sweep(const SweepArgs& args);
int alignment_sweep(const SweepArgs& args);
int dial_sweep(const SweepArgs& args);
// The dial sweep's settings: one format (5, dd mm yyyy), then all six in each of the six orders.
std::vector<DateDial> dial_settings();
// Of held-out targets YYYY-MM-DD and their predictions, the share whose field — characters
// [start, start + length) — is right in full; a prediction too short has it wrong.
double field_right(const std::vector<Example>& examples, const std::vector<std::string>& predictions, int start,
                   int length);
// The share of targets whose field is the most common value there: what always writing that
// value scores.
double field_chance(const std::vector<Example>& examples, int start, int length);

// --- one training run, shared by train and sweep (cmd_train.cpp) -------------
// The run's settings (model, epochs, seeds, learning rate, warmup), and how the command runs it.
struct RunOptions : RunSettings {
    bool evaluate_each_epoch = false;  // held-out exact and per-char in each EpochRecord
    bool progress = false;   // draw a progress bar on stdout (a terminal)
    std::string label;       // shown before the bar
};
struct RunResult {
    Model model;
    Metrics metrics;                  // held-out, greedy decoding
    std::vector<EpochRecord> history; // train loss per epoch
    long parameters = 0;
    double train_seconds = 0, eval_seconds = 0, examples_per_second = 0;
    std::string failure;  // the trainer's stop message (then nothing was evaluated)
    std::vector<std::string> predictions;  // greedy decoding of the held-out split, in its order
    std::optional<AlignmentCheck> alignment;  // held-out maps against the task's truth (attention models)
};
struct TrainArgs {
    RunOptions run;
    std::string save_path, json_path;  // empty: not written
    bool yes_long = false;             // --yes-long: run even if it is estimated to be long
    std::string task_file;             // --task-file: a reader's pairs (data/pairs.h), else run.model.task
    std::optional<PairsTokens> tokens;  // --tokens chars|words, for pairs (characters if not given)
    std::string predictions_path;      // --predictions: the held-out predictions as CSV; empty: none
    bool bleu = false;                 // --bleu: BLEU printed for a task of words that is not the translation
};
// A file of pairs as the page reads it (the page's defaults: duplicates dropped, 10 % held out,
// split seed 1), or a task file the page exported (io/task_file.h), which states its own tokens
// and split; named `name`, or if none is given after the file when its name may be a task's and
// not taken. Throws PairsError (with the line) or std::invalid_argument.
PairsTask read_pairs_file(const std::string& path, std::optional<PairsTokens> tokens, const std::string& name = "");
// docs/design.md's FLOP model of one training example with S source tokens (3 × the kind's
// forward pass, registry.h's forward_flops, for the config's task), and from it the estimated
// seconds of a run natively: at the 50 GFLOP/s BENCHMARKS.md measured for attention at width 64
// (wider models come nearer the kernels' 160 GFLOP/s peak, so this errs on the long side by at
// most about 3x).
double flops_per_training_example(const ModelConfig& config, double S);
// A run's training time by that FLOP model, for its task's output steps and its training
// inputs' mean length in tokens, at this machine's measured speed.
double estimated_train_seconds(const RunOptions& options, const std::vector<Example>& train);
constexpr double long_run_seconds = 3600;  // longer needs --yes-long
// Why path cannot be written, or "" if it can (checked before a long run).
std::string write_problem(const std::string& path);
// Whether every output given can be written (one named "" is not asked for, "-" is stdout); the
// first that cannot is said on stderr with its reason.
bool can_write_all(std::initializer_list<std::string_view> paths);
// Writes text to path, replacing what was there; false if that failed.
bool write_text(const std::string& path, const std::string& text);
// How predict reports a refused input: the text escaped and cut, then why.
std::string refusal_line(const std::string& text, const std::string& error);
RunResult train_and_evaluate(const RunOptions& options, const Splits& data);
// A model's greedy outputs on a split, scored, and its maps checked against the task's alignment:
// what train and eval report. Throws DecodingError (models/decoding_check.h).
struct HeldOutResult {
    Metrics metrics;
    std::optional<AlignmentCheck> alignment;
    std::vector<std::string> predictions;  // in the split's order
};
HeldOutResult evaluate_held_out(const Model& model, const std::vector<Example>& held_out);
// Whether any example has a link of a known alignment: what the maps' scores need.
bool has_alignments(const std::vector<Example>& examples);
// "attention decoder (additive scorer), width 64": the kind, its options and its width.
std::string model_description(const ModelConfig& model);
// The held-out scores as train and eval print them, named for the task: per-token accuracy and
// the character or word error rate; BLEU for the translation; the maps' scores where the split
// has alignments, else a line saying none were given; the per-position table where every target
// has one length; then the length buckets and the groups that hold examples.
// The held-out scores as train and eval print them; BLEU where metrics.h's reports_bleu says
// (`bleu_asked`: --bleu).
void print_held_out(const Task& task, const std::vector<Example>& held_out, const HeldOutResult& result, bool bleu_asked);
// --bleu's refusal for a task whose outputs are not words, or "".
std::string bleu_refusal(const Task& task, bool bleu_asked);
// Writes the split's predictions as CSV (io/predictions_csv.h); false, having said why on stderr,
// if the file cannot be written.
bool write_predictions(const std::string& path, const Task& task, const std::vector<Example>& held_out,
                       const std::vector<std::string>& predictions);
// `train --json`'s fields: model, scorer, width, epochs, seed, parameters,
// train_seconds, examples_per_second, exact, per_char, per_position[10],
// length_buckets[4], per_format[6]; plus the bucket ranges and counts, the
// per-format exact match and the loss per epoch.
nlohmann::json run_json(const RunOptions& options, const RunResult& result);
// An attention map's scores against the known alignment, as the files carry them.
struct MapScores {
    double aer = 0, peak_hit_rate = 0, peak_near_rate = 0, linked_mass = 0;
    int steps = 0;
};
MapScores map_scores(const AlignmentScores& a);
nlohmann::json map_scores_json(const MapScores& m);
MapScores map_scores_of(const nlohmann::json& json);

// --- what the sweeps share (sweeps.cpp; chance and counterfactual write their
// files alike). Each sweep's steps are in sweeps.h.
// One measurement over n seeds: their mean, lowest and highest.
struct Spread {
    double mean = 0, lo = INFINITY, hi = -INFINITY;
    void add(double v, int n) { mean += v / n, lo = std::min(lo, v), hi = std::max(hi, v); }
};
std::string spread_text(const Spread& s);  // "mean (lowest–highest)"
nlohmann::json spread_json(const Spread& s);  // {"mean", "min", "max"}
// The two files a sweep writes, DIR/NAME.json and DIR/NAME.md. Each call
// that fails says why on stderr.
struct SweepFiles {
    std::string json_path, md_path;
    SweepFiles(const std::string& dir, const std::string& name);
    bool writable() const;  // checked before any training
    bool write(const nlohmann::json& json, const std::string& md) const;  // the JSON indented by 1
    void print(const std::string& md) const;  // the Markdown on stdout, and where it was written
};
// One run of a sweep (label before its progress bar, if options asks for one),
// then its line printed: label, exact, per-char, seconds, parameters. nullopt
// if the trainer stopped it (its message on stderr): the sweep stops there.
std::optional<RunResult> sweep_run(RunOptions options, const std::string& label, const Splits& data);

bool stdout_is_terminal();

}  // namespace lb::cli
