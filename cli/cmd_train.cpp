// `lookback train`: trains one model on a task (the date task unless told) from scratch, shows a
// progress bar on a terminal, then the held-out metrics (and optionally saves
// the weights as safetensors and the metrics as JSON). Also the training run
// that `lookback sweep` shares.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unistd.h>

#include "cli/commands.h"
#include "io/safetensors.h"
#include "models/decoding_check.h"

namespace lb::cli {

bool stdout_is_terminal() { return isatty(fileno(stdout)) != 0; }

// --- the progress bar --------------------------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string clock_text(double seconds) {
    const long s = long(std::lround(seconds));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// One line, redrawn in place with '\r' at most ten times a second.
class ProgressBar {
public:
    ProgressBar(bool enabled, std::string label) : enabled_(enabled), label_(std::move(label)) {}

    void update(long examples, long total_examples, int epoch, int epochs, double seconds,
                float loss) {
        if (!enabled_ || (seconds - last_draw_ < 0.1 && examples < total_examples)) return;
        last_draw_ = seconds;
        const double fraction = double(examples) / double(total_examples);
        const double rate = seconds > 0 ? examples / seconds : 0;
        const int width = 24, filled = int(fraction * width);
        std::string bar(size_t(filled), '#');
        bar.append(size_t(width - filled), '.');
        const std::string eta =
            rate > 0 ? clock_text(double(total_examples - examples) / rate) : "?";
        std::printf("\r%s[%s] %3.0f%%  epoch %d/%d  %6.0f ex/s  ETA %s  loss %.3f   ",
                    label_.c_str(), bar.c_str(), 100 * fraction, std::min(epoch + 1, epochs),
                    epochs, rate, eta.c_str(), loss);
        std::fflush(stdout);
    }

    void finish() {
        if (!enabled_) return;
        std::printf("\r%*s\r", 100, "");  // clear the line for what follows
        std::fflush(stdout);
    }

private:
    bool enabled_;
    std::string label_;
    double last_draw_ = -1;
};

}  // namespace

// --- one run -----------------------------------------------------------------

RunResult train_and_evaluate(const RunOptions& options, const Splits& data) {
    TrainerConfig config;
    config.model = options.model;
    config.seed = options.seed;
    config.epochs = options.epochs;
    config.adam.learning_rate = options.learning_rate;
    config.adam.warmup_steps = options.warmup_steps;
    // Off unless asked: keeps train_seconds about training alone.
    config.evaluate_each_epoch = options.evaluate_each_epoch;
    Trainer trainer(config, data);

    const long total = long(options.epochs) * long(data.train.size());
    ProgressBar bar(options.progress, options.label);
    const Clock::time_point start = Clock::now();
    RunResult result;
    try {  // a held-out evaluation of each epoch decodes too (decoding_check.h)
        while (!trainer.done()) {
            trainer.step(4);
            const auto& losses = trainer.loss_history();
            bar.update(trainer.examples_seen(), total, trainer.epoch(), options.epochs,
                       seconds_since(start), losses.empty() ? NAN : losses.back());
        }
    } catch (const DecodingError& e) {
        result.failure = e.what();
    }
    result.train_seconds = seconds_since(start);
    bar.finish();
    result.model = trainer.model();
    result.history = trainer.epoch_history();
    result.parameters = parameter_count(options.model);
    result.examples_per_second = double(trainer.examples_seen()) / result.train_seconds;
    if (!trainer.failure().empty()) result.failure = trainer.failure();
    if (!result.failure.empty()) return result;  // diverged: the last sound weights, nothing to evaluate

    const Clock::time_point eval_start = Clock::now();
    std::vector<Decoded> decoded;
    try {
        decoded = decode_examples(data.held_out, trainer.model(), false);
    } catch (const DecodingError& e) {
        result.failure = e.what();
        return result;
    }
    std::vector<std::string> predictions;
    predictions.reserve(decoded.size());
    for (const Decoded& d : decoded) predictions.push_back(d.output);
    result.metrics = evaluate_predictions(*options.model.task, data.held_out, predictions);
    result.eval_seconds = seconds_since(eval_start);
    return result;
}

nlohmann::json run_json(const RunOptions& options, const RunResult& r) {
    const Metrics& m = r.metrics;
    const bool transformer = options.model.decoder == DecoderKind::transformer;
    nlohmann::json ranges = nlohmann::json::array(), formats = nlohmann::json::array(), losses = nlohmann::json::array();
    for (int k = 0; k < length_bucket_count; ++k)
        ranges.push_back({m.buckets.lowest_length(k), m.buckets.highest_length(k)});
    for (const std::string& name : options.model.task->group_names) formats.push_back(name);
    for (const EpochRecord& e : r.history) losses.push_back(e.train_loss);
    nlohmann::json json = {
        {"task", options.model.task->name},
        {"model", decoder_name(options.model.decoder)},
        {"scorer", model_scorer_name(options.model.decoder, options.model.scorer)},
        {"input_feeding", options.model.input_feeding},
        {"width", options.model.H},
        {"epochs", options.epochs},
        {"learning_rate", options.learning_rate},
        {"seed", options.seed},
        {"data_seed", options.data_seed},
        {"parameters", r.parameters},
        {"train_seconds", r.train_seconds},
        {"eval_seconds", r.eval_seconds},
        {"examples_per_second", r.examples_per_second},
        {"held_out_size", m.count},
        {"exact", m.exact},
        {"per_char", m.per_char},
        {"per_position", m.per_position},
        {"length_buckets", m.per_length_bucket},
        {"length_bucket_ranges", ranges},
        {"length_bucket_counts", m.bucket_count},
        {"per_format", m.per_format},
        {"per_format_exact", m.per_format_exact},
        {"format_names", formats},
        {"epoch_train_loss", losses},
    };
    if (transformer) {
        json["memory"] = memory_name(options.model.memory);
        json["heads"] = options.model.heads;
        json["ffn"] = transformer_config(options.model).F;
        json["dropout"] = options.model.dropout;
        json["warmup_steps"] = options.warmup_steps;
    }
    return json;
}

// --- the command -------------------------------------------------------------

namespace {

const char* const train_usage =
    "lookback train [--task dates|reversal|translation]\n"
    "                      [--model plain|attention|transformer|bahdanau|luong|luong-local]\n"
    "                      [--scorer additive|dot|general|concat] [--input-feeding] [--width N]\n"
    "                      [--memory all|first] [--heads 1|2|4|8] [--ffn N] [--dropout P] [--warmup STEPS]\n"
    "                      [--epochs N] [--seed N] [--data-seed N] [--lr X] [--save FILE] [--json FILE]\n"
    "  defaults: --task dates --model attention --scorer additive --width 64 --epochs 12 --seed 1 --data-seed 1\n"
    "  --lr 0.001: Adam's learning rate, above 0 and at most 10; a run whose loss or gradient\n"
    "    goes NaN or infinite stops with a message (exit 1)\n"
    "  --scorer: attention additive|dot|general (additive), luong dot|general|concat (general),\n"
    "    luong-local dot|general (general); --input-feeding to luong and luong-local only\n"
    "  --memory (all), --heads (4), --ffn (2 x width)\n"
    "    and --dropout (0) to --model transformer only; --warmup 0: the rate rises linearly over\n"
    "    that many first steps; --json - writes the JSON to stdout\n"
    "  --save and --json are checked before training; a run estimated (docs/design.md's FLOP model at\n"
    "    the measured 50 GFLOP/s) to take over an hour is refused unless --yes-long is given:\n"
    "    width 64 for 12 epochs is about 6 s, width 1024 for 10000 epochs about 12 days";

void print_metrics(const RunOptions& o, const RunResult& r) {
    const Metrics& m = r.metrics;
    const std::string detail =
        o.model.decoder == DecoderKind::transformer
            ? " (memory " + std::string(memory_name(o.model.memory)) + ", " +
                  std::to_string(o.model.heads) + " heads, feed-forward " +
                  std::to_string(transformer_config(o.model).F) + ")"
        : o.model.decoder != DecoderKind::plain
            ? " (" + std::string(model_scorer_name(o.model.decoder, o.model.scorer)) + " scorer" +
                  (o.model.input_feeding ? ", input feeding" : "") + ")"
            : "";
    std::printf("%s decoder%s, width %d, %d epoch%s, seed %llu: %ld parameters\n",
                std::string(decoder_name(o.model.decoder)).c_str(), detail.c_str(),
                o.model.H, o.epochs, o.epochs == 1 ? "" : "s", (unsigned long long)o.seed, r.parameters);
    std::printf("trained in %.1f s (%.0f examples/s); held-out: %d strings\n\n", r.train_seconds,
                r.examples_per_second, m.count);
    std::printf("  exact match     %.4f\n  per token       %.4f\n\n", m.exact, m.per_char);
    std::printf("  output position ");
    for (size_t t = 0; t < m.per_position.size(); ++t) std::printf("%7zu", t + 1);
    std::printf("\n  accuracy        ");
    for (double a : m.per_position) std::printf("%7.4f", a);
    std::printf("\n\n  input length (quartile buckets)   strings   per-token\n");
    for (int k = 0; k < length_bucket_count; ++k)
        std::printf("  %2d..%-2d                            %7d   %.4f\n",
                    m.buckets.lowest_length(k), m.buckets.highest_length(k),
                    m.bucket_count[size_t(k)], m.per_length_bucket[size_t(k)]);
    std::printf("\n  group                     strings   per-token  exact\n");
    const auto& groups = o.model.task->group_names;
    for (size_t f = 0; f < groups.size(); ++f)
        std::printf("  %-24s  %7d   %.4f     %.4f\n", groups[f].c_str(),
                    m.examples_per_format[size_t(f)], m.per_format[size_t(f)],
                    m.per_format_exact[size_t(f)]);
}

std::string hours_text(double seconds) {
    char buf[64];
    if (seconds < 2 * 3600) std::snprintf(buf, sizeof buf, "%.0f minutes", seconds / 60);
    else if (seconds < 3 * 86400) std::snprintf(buf, sizeof buf, "%.0f hours", seconds / 3600);
    else std::snprintf(buf, sizeof buf, "%.0f days", seconds / 86400);
    return buf;
}

}  // namespace

double estimated_train_seconds(const RunOptions& options, size_t train_size) {
    constexpr double measured_flops_per_second = 50e9;
    constexpr double mean_input_length = 18;  // above the real mean (15.8, docs/dataset.md): errs long
    return double(options.epochs) * double(train_size) *
           flops_per_training_example(options.model.decoder, options.model.H, mean_input_length) /
           measured_flops_per_second;
}

bool write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    return bool(out.flush());
}

std::string write_problem(const std::string& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status)) {
        if (!std::filesystem::is_regular_file(status)) return "it is not a regular file";
        if (!std::ofstream(path, std::ios::app)) return "it cannot be opened for writing";
        return "";
    }
    // Created empty and removed again: the folder exists and takes new files.
    const bool created = bool(std::ofstream(path));
    std::filesystem::remove(path, error);
    return created ? "" : "it cannot be created (does the folder exist?)";
}

TrainArgs parse_train_args(const Args& args) {
    TrainArgs o;
    RunOptions& run = o.run;
    bool transformer_given = false;
    std::optional<std::string> scorer;
    for (size_t i = 0; i < args.size();) {
        std::string v;
        if (take_option(args, i, "--task", v)) {
            try {
                run.model.task = &find_task(v);
            } catch (const std::invalid_argument& e) {
                throw UsageError(std::string("--task: ") + e.what());
            }
        } else if (take_option(args, i, "--model", v)) {
            const auto decoder = parse_decoder(v);
            if (!decoder)
                throw UsageError("--model must be plain, attention, transformer, bahdanau, luong or "
                                 "luong-local, not " + shown(v));
            run.model.decoder = *decoder;
        } else if (take_option(args, i, "--scorer", v)) {
            scorer = v;  // read once the model is known
        } else if (args[i] == "--input-feeding") {
            run.model.input_feeding = true;
            ++i;
        } else if (take_option(args, i, "--memory", v)) {
            if (v == "all") run.model.memory = Memory::all;
            else if (v == "first") run.model.memory = Memory::first;
            else throw UsageError("--memory must be all or first, not " + shown(v));
            transformer_given = true;
        } else if (take_option(args, i, "--heads", v)) {
            run.model.heads = int(parse_integer("--heads", v, 1, 8));
            transformer_given = true;
        } else if (take_option(args, i, "--ffn", v)) {
            run.model.ffn = int(parse_integer("--ffn", v, 1, 4096));
            transformer_given = true;
        } else if (take_option(args, i, "--dropout", v)) {
            run.model.dropout = v == "0" ? 0.0f : parse_float("--dropout", v, 0, 0.9f);
            transformer_given = true;
        } else if (take_option(args, i, "--warmup", v)) {
            run.warmup_steps = int(parse_integer("--warmup", v, 0, 1000000));
        } else if (take_option(args, i, "--width", v)) {
            run.model.H = int(parse_integer("--width", v, 1, 1024));
        } else if (take_option(args, i, "--epochs", v)) {
            run.epochs = int(parse_integer("--epochs", v, 1, 10000));
        } else if (take_option(args, i, "--seed", v)) {
            run.seed = uint64_t(parse_integer("--seed", v, 0, INT64_MAX));
        } else if (take_option(args, i, "--data-seed", v)) {
            run.data_seed = uint64_t(parse_integer("--data-seed", v, 0, INT64_MAX));
        } else if (take_option(args, i, "--lr", v)) {
            run.learning_rate = parse_learning_rate(v);
        } else if (args[i] == "--yes-long") {
            o.yes_long = true;
            ++i;
        } else if (take_option(args, i, "--save", v)) {
            if (v.empty()) throw UsageError("--save needs a file name");
            o.save_path = v;
        } else if (take_option(args, i, "--json", v)) {
            if (v.empty()) throw UsageError("--json needs a file name (or -)");
            o.json_path = v;
        } else {
            throw UsageError("unknown option " + shown(args[i]));
        }
    }
    const DecoderKind kind = run.model.decoder;
    run.model.scorer = default_scorer(kind);
    if (scorer && (kind == DecoderKind::plain || kind == DecoderKind::transformer))
        throw UsageError("--scorer applies to --model attention, bahdanau, luong and luong-local only");
    if (scorer) {
        const auto parsed = parse_model_scorer(kind, *scorer);
        if (!parsed)
            throw UsageError("--scorer of --model " + std::string(decoder_name(kind)) + " must be " +
                             std::string(model_scorer_choices(kind)) + ", not " + shown(*scorer));
        run.model.scorer = *parsed;
    }
    if (run.model.input_feeding && !is_luong(kind))
        throw UsageError("--input-feeding applies to --model luong and luong-local only");
    if (transformer_given && run.model.decoder != DecoderKind::transformer)
        throw UsageError("--memory, --heads, --ffn and --dropout apply to --model transformer only");
    if (run.model.decoder == DecoderKind::transformer) {
        try {
            check_transformer_config(transformer_config(run.model));
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    return o;
}

int train(const Args& args) {
    TrainArgs parsed;
    try {
        parsed = parse_train_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), train_usage);
    }
    RunOptions& options = parsed.run;
    const std::string& save_path = parsed.save_path;
    const std::string& json_path = parsed.json_path;

    // Refused before any work: an output that cannot be written, a run of hours.
    for (const std::string* path : {&save_path, &json_path}) {
        if (path->empty() || *path == "-") continue;
        const std::string problem = write_problem(*path);
        if (!problem.empty()) {
            std::fprintf(stderr, "lookback: cannot write %s: %s\n", shown(*path).c_str(), problem.c_str());
            return 1;
        }
    }
    const Task& task = *options.model.task;
    const Splits data = task.make_splits(options.data_seed, task.train_size, task.held_out_size);
    const double estimate = estimated_train_seconds(options, data.train.size());
    if (estimate > long_run_seconds && !parsed.yes_long) {
        std::fprintf(stderr,
                     "lookback: width %d for %d epochs would train for about %s on this machine's "
                     "measured speed; add --yes-long to run it anyway\n",
                     options.model.H, options.epochs, hours_text(estimate).c_str());
        return 1;
    }

    const bool json_to_stdout = json_path == "-";
    options.progress = stdout_is_terminal() && !json_to_stdout;
    const RunResult result = train_and_evaluate(options, data);
    if (!result.failure.empty()) {
        std::fprintf(stderr, "lookback: %s Nothing was saved: try a smaller --lr.\n",
                     result.failure.c_str());
        return 1;
    }

    if (!json_to_stdout) print_metrics(options, result);
    if (!json_path.empty()) {
        const std::string text = run_json(options, result).dump(2) + "\n";
        if (json_to_stdout) std::fputs(text.c_str(), stdout);
        else if (!write_text(json_path, text)) {
            std::fprintf(stderr, "lookback: cannot write '%s'\n", json_path.c_str());
            return 1;
        }
    }
    if (!save_path.empty()) {
        try {
            save_model(save_path, result.model,
                       {{"seed", std::to_string(options.seed)},
                        {"data_seed", std::to_string(options.data_seed)},
                        {"epochs", std::to_string(options.epochs)},
                        {"exact", std::to_string(result.metrics.exact)},
                        {"per_char", std::to_string(result.metrics.per_char)}});
        } catch (const SafetensorsError& e) {
            std::fprintf(stderr, "lookback: %s\n", e.what());
            return 1;
        }
        if (!json_to_stdout) std::printf("\nweights saved to %s\n", save_path.c_str());
    }
    return 0;
}

}  // namespace lb::cli
