// `lookback train`: trains one model on a task (the date task unless told) from scratch, shows a
// progress bar on a terminal, then the held-out metrics (and optionally saves
// the weights as safetensors and the metrics as JSON). Also the training run
// that `lookback sweep` shares.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <utility>

#include "cli/commands.h"
#include "data/translation.h"
#include "io/predictions_csv.h"
#include "io/safetensors.h"
#include "io/task_file.h"
#include "io/worker_codec.h"
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
    TrainerConfig config{options};
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
    try {
        HeldOutResult held_out = evaluate_held_out(trainer.model(), data.held_out);
        result.metrics = std::move(held_out.metrics);
        result.alignment = std::move(held_out.alignment);
        result.predictions = std::move(held_out.predictions);
    } catch (const DecodingError& e) {
        result.failure = e.what();
        return result;
    }
    result.eval_seconds = seconds_since(eval_start);
    return result;
}

HeldOutResult evaluate_held_out(const Model& model, const std::vector<Example>& held_out) {
    HeldOutResult result;
    const std::vector<Decoded> decoded = decode_examples(held_out, model, false);
    result.predictions.reserve(decoded.size());
    for (const Decoded& d : decoded) result.predictions.push_back(d.output);
    // BLEU too, for a task of words
    result.metrics = evaluate_predictions(*model.config.task, held_out, result.predictions);
    result.alignment = check_alignment(model, held_out);
    return result;
}

std::string model_description(const ModelConfig& model) {
    const ModelKind& kind = model_kind(model.decoder);
    const std::string detail =
        kind.transformer_options
            ? " (memory " + std::string(memory_name(model.memory)) + ", " + std::to_string(model.heads) +
                  " heads, feed-forward " + std::to_string(transformer_config(model).F) + ")"
        : !kind.scorers.empty()
            ? " (" + std::string(model_scorer_name(model.decoder, model.scorer)) + " scorer" +
                  (model.input_feeding ? ", input feeding" : "") + ")"
            : "";
    return std::string(decoder_name(model.decoder)) + " decoder" + detail + ", width " + std::to_string(model.H);
}

bool has_alignments(const std::vector<Example>& examples) {
    return std::any_of(examples.begin(), examples.end(), [](const Example& e) { return !e.alignment.empty(); });
}

std::string bleu_refusal(const Task& task, bool bleu_asked) {
    if (!bleu_asked || task.output.words) return "";
    return "--bleu needs a task whose outputs are words (BLEU counts word n-grams); " + shown(task.name) + "'s are characters";
}

void print_held_out(const Task& task, const std::vector<Example>& held_out, const HeldOutResult& r, bool bleu_asked) {
    const Metrics& m = r.metrics;
    const char* error_rate = score_names(task).error_rate;
    std::printf("  %-22s %.4f   outputs equal to their target\n", "exact match", m.exact);
    std::printf("  %-22s %.4f   target tokens right at their own position\n", "per-token accuracy", m.per_char);
    std::printf("  %-22s %.4f   edits (a token inserted, dropped or replaced) per target token\n", error_rate,
                m.token_error_rate);
    // BLEU's n-grams mean something for a translation; a reader's words may be digits or phonemes.
    if (reports_bleu(task, bleu_asked) && !std::isnan(m.bleu)) std::printf("  %-22s %.4f\n", "BLEU", m.bleu);
    if (!has_alignments(held_out))
        std::printf("  %-22s no alignments given\n", "alignment");
    else if (r.alignment)
        std::printf("  %-22s AER %.4f, peak on a true position %.4f (within one %.4f), "
                    "mass on true positions %.4f\n",
                    "alignment", r.alignment->map.aer(), r.alignment->map.peak_hit_rate(),
                    r.alignment->map.peak_near_rate(), r.alignment->map.mean_linked_mass());
    if (!task.ends) {  // every target has the task's length: position t is the same field in each
        std::printf("\n  output position       ");
        for (size_t t = 0; t < m.per_position.size(); ++t) std::printf("%7zu", t + 1);
        std::printf("\n  per-token accuracy    ");
        for (double a : m.per_position) std::printf("%7.4f", a);
        std::printf("\n");
    }
    std::printf("\n  input length (quartile buckets)   strings   per-token\n");
    for (int k = 0; k < length_bucket_count; ++k)
        if (m.bucket_count[size_t(k)] > 0)  // ties leave a bucket empty
            std::printf("  %2d..%-2d                            %7d   %.4f\n",
                        m.buckets.lowest_length(k), m.buckets.highest_length(k),
                        m.bucket_count[size_t(k)], m.per_length_bucket[size_t(k)]);
    std::printf("\n  group                     strings   per-token  exact\n");
    for (size_t f = 0; f < task.group_names.size(); ++f)
        if (m.examples_per_format[f] > 0)  // a reader's length band may hold no held-out pair
            std::printf("  %-24s  %7d   %.4f     %.4f\n", task.group_names[f].c_str(), m.examples_per_format[f],
                        m.per_format[f], m.per_format_exact[f]);
}

bool write_predictions(const std::string& path, const Task& task, const std::vector<Example>& held_out,
                       const std::vector<std::string>& predictions) {
    if (write_text(path, predictions_csv(prediction_rows(task, held_out, predictions)))) return true;
    std::fprintf(stderr, "lookback: cannot write %s\n", shown(path).c_str());
    return false;
}

MapScores map_scores(const AlignmentScores& a) {
    return {a.aer(), a.peak_hit_rate(), a.peak_near_rate(), a.mean_linked_mass(), a.totals.steps};
}

nlohmann::json map_scores_json(const MapScores& m) {
    return {{"aer", m.aer}, {"peak_hit_rate", m.peak_hit_rate}, {"peak_near_rate", m.peak_near_rate},
            {"linked_mass", m.linked_mass}, {"steps", m.steps}};
}

MapScores map_scores_of(const nlohmann::json& json) {
    return {json.at("aer").get<double>(), json.at("peak_hit_rate").get<double>(),
            json.at("peak_near_rate").get<double>(), json.at("linked_mass").get<double>(),
            json.at("steps").get<int>()};
}

nlohmann::json run_json(const RunOptions& options, const RunResult& r) {
    const Metrics& m = r.metrics;
    nlohmann::json ranges = nlohmann::json::array(), formats = nlohmann::json::array(), losses = nlohmann::json::array();
    for (int k = 0; k < length_bucket_count; ++k)
        ranges.push_back({m.buckets.lowest_length(k), m.buckets.highest_length(k)});
    for (const std::string& name : options.model.task->group_names) formats.push_back(name);
    for (const EpochRecord& e : r.history) losses.push_back(e.train_loss);
    // The run's settings as the schema writes them (a worker's config), then what it measured.
    nlohmann::json json = run_settings_to_json(options);
    json["scorer"] = model_scorer_name(options.model.decoder, options.model.scorer);  // "none" too: rows are read by it
    json.update(nlohmann::json{
        {"parameters", r.parameters},
        {"train_seconds", r.train_seconds},
        {"eval_seconds", r.eval_seconds},
        {"examples_per_second", r.examples_per_second},
        {"held_out_size", m.count},
        {"exact", m.exact},
        {"per_char", m.per_char},
        {"token_error_rate", m.token_error_rate},
        {"per_position", m.per_position},
        {"length_buckets", m.per_length_bucket},
        {"length_bucket_ranges", ranges},
        {"length_bucket_counts", m.bucket_count},
        {"per_format", m.per_format},
        {"per_format_exact", m.per_format_exact},
        {"format_names", formats},
        {"epoch_train_loss", losses},
    });
    if (!std::isnan(m.bleu)) json["bleu"] = m.bleu;
    if (r.alignment) {
        json["aer"] = r.alignment->map.aer();
        json["alignment"] = map_scores_json(map_scores(r.alignment->map));
        if (!r.alignment->heads.empty()) {
            json["alignment_per_head"] = nlohmann::json::array();
            for (const AlignmentScores& head : r.alignment->heads)
                json["alignment_per_head"].push_back(map_scores_json(map_scores(head)));
        }
    }
    return json;
}

// --- the command -------------------------------------------------------------

namespace {

// Every flag of the settings schema (settings/run_settings.h), in its order.
std::vector<std::string> run_setting_keys() {
    std::vector<std::string> keys;
    for (const SettingField& field : run_setting_fields()) keys.emplace_back(field.key);
    return keys;
}

// Built when first shown: the schema is another file's static.
const char* train_usage() {
    static const std::string text =
        "lookback train [SETTINGS] [--task-file FILE [--tokens chars|words]] [--save FILE] [--json FILE]\n"
        "               [--predictions FILE] [--bleu] [--yes-long]\n"
        "  SETTINGS (what each takes, and its default):\n" +
        settings_usage(run_setting_keys()) +
        "  --task-file FILE    a task of your own pairs instead of --task: one pair a line, input TAB output\n"
        "                      [TAB alignment], or a CSV with a header (docs/own-pairs.md); as the page reads it:\n"
        "                      duplicates dropped, 10% held out by split seed 1\n"
        "  --tokens WORD       the task file's tokens: chars or words (chars)\n"
        "  --predictions FILE  the held-out split's outputs as CSV: input, target, output, exact (1 or 0),\n"
        "                      edit_distance (in tokens) and token_marks ('=' right, 'x' wrong or missing at\n"
        "                      that target position, '+' a token past the target's end)\n"
        "  --bleu              BLEU too, for a task of words that is not the translation (your own translation\n"
        "                      pairs, say; on phonemes or digits its n-grams may mean nothing)\n" +
        "  a run whose loss or gradient goes NaN or infinite stops with a message (exit 1);\n"
        "  --json - writes the JSON to stdout\n"
        "  --save, --json and --predictions are checked before training; a run estimated (docs/design.md's\n"
        "    FLOP model at the measured 50 GFLOP/s) to take over an hour is refused unless --yes-long is given:\n"
        "    width 64 for 12 epochs is about 6 s, width 1024 for 10000 epochs about 12 days";
    return text.c_str();
}

void print_metrics(const RunOptions& o, const RunResult& r, const std::vector<Example>& held_out, bool bleu_asked) {
    std::printf("%s, %d epoch%s, seed %llu: %ld parameters\n", model_description(o.model).c_str(), o.epochs,
                o.epochs == 1 ? "" : "s", (unsigned long long)o.seed, r.parameters);
    std::printf("trained in %.1f s (%.0f examples/s); held-out: %d strings\n\n", r.train_seconds,
                r.examples_per_second, r.metrics.count);
    print_held_out(*o.model.task, held_out, {r.metrics, r.alignment, r.predictions}, bleu_asked);
}

std::string hours_text(double seconds) {
    char buf[64];
    if (seconds < 2 * 3600) std::snprintf(buf, sizeof buf, "%.0f minutes", seconds / 60);
    else if (seconds < 3 * 86400) std::snprintf(buf, sizeof buf, "%.0f hours", seconds / 3600);
    else std::snprintf(buf, sizeof buf, "%.0f days", seconds / 86400);
    return buf;
}

}  // namespace

double estimated_train_seconds(const RunOptions& options, const std::vector<Example>& train) {
    constexpr double measured_flops_per_second = 50e9;
    const Task& task = *options.model.task;
    double tokens = 0;
    for (const Example& e : train) tokens += double(task.input.split(e.input).size());
    const double mean_input_length = train.empty() ? 0 : tokens / double(train.size());
    return double(options.epochs) * double(train.size()) *
           flops_per_training_example(options.model, mean_input_length) /
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

bool can_write_all(std::initializer_list<std::string_view> paths) {
    for (std::string_view path : paths) {
        if (path.empty() || path == "-") continue;
        const std::string problem = write_problem(std::string(path));
        if (!problem.empty()) {
            std::fprintf(stderr, "lookback: cannot write %s: %s\n", shown(std::string(path)).c_str(), problem.c_str());
            return false;
        }
    }
    return true;
}

TrainArgs parse_train_args(const Args& args) {
    TrainArgs o;
    const std::vector<std::string> keys = run_setting_keys();
    GivenSettings given;
    for (size_t i = 0; i < args.size();) {
        std::string v;
        if (take_setting(args, i, keys, given)) {
            continue;
        } else if (args[i] == "--yes-long") {
            o.yes_long = true;
            ++i;
        } else if (args[i] == "--bleu") {
            o.bleu = true;
            ++i;
        } else if (take_file_option(args, i, "--task-file", o.task_file) || take_tokens_option(args, i, o.tokens) ||
                   take_file_option(args, i, "--save", o.save_path) || take_file_option(args, i, "--json", o.json_path, " (or -)") ||
                   take_file_option(args, i, "--predictions", o.predictions_path)) {
            continue;
        } else {
            throw UsageError("unknown option " + shown(args[i]));
        }
    }
    if (o.tokens && o.task_file.empty()) throw UsageError("--tokens applies to a --task-file only");
    if (!o.task_file.empty())
        for (const auto& [field, text] : given)
            if (std::string_view(field->key) == "task" || field->task)
                throw UsageError(std::string(field->flag) + " does not apply to a --task-file: its pairs are the task");
    static_cast<RunSettings&>(o.run) = read_setting_flags(given);
    return o;
}

int train(const Args& args) {
    TrainArgs parsed;
    try {
        parsed = parse_train_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), train_usage());
    }
    RunOptions& options = parsed.run;
    const std::string& save_path = parsed.save_path;
    const std::string& json_path = parsed.json_path;

    // Refused before any work: an output that cannot be written, a run of hours.
    if (!can_write_all({save_path, json_path, parsed.predictions_path})) return 1;
    std::optional<PairsTask> pairs;
    if (!parsed.task_file.empty()) {
        try {
            pairs = read_pairs_file(parsed.task_file, parsed.tokens);
        } catch (const std::invalid_argument& e) {  // PairsError too: "line 12: ..."
            std::fprintf(stderr, "lookback: %s: %s\n", shown(parsed.task_file).c_str(), e.what());
            return 1;
        }
        options.model.task = &pairs->task;
        if (json_path != "-") std::printf("%s: %s\n\n", pairs->task.name.c_str(), describe_pairs(pairs->summary).c_str());
    }
    const TaskInTable in_table(pairs ? &pairs->task : nullptr);
    const Task& task = *options.model.task;
    if (const std::string refusal = bleu_refusal(task, parsed.bleu); !refusal.empty()) return usage_error(refusal, train_usage());
    const Splits data = task.make_splits(options.data_seed, task.train_size, task.held_out_size);
    const double estimate = estimated_train_seconds(options, data.train);
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

    if (!json_to_stdout) print_metrics(options, result, data.held_out, parsed.bleu);
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
    if (!parsed.predictions_path.empty()) {
        if (!write_predictions(parsed.predictions_path, task, data.held_out, result.predictions)) return 1;
        if (!json_to_stdout)
            std::printf("%spredictions of the %zu held-out strings written to %s\n", save_path.empty() ? "\n" : "",
                        data.held_out.size(), parsed.predictions_path.c_str());
    }
    return 0;
}

PairsTask read_pairs_file(const std::string& path, std::optional<PairsTokens> tokens, const std::string& name) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error)) throw std::invalid_argument("not a file that can be read");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("it cannot be opened");
    // One byte past the larger limit is enough for either reader to refuse where it passes it.
    std::string bytes(task_file_max_bytes + 1, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    bytes.resize(size_t(in.gcount()));
    PairsTaskSource source{std::move(bytes), {}};
    if (is_task_file(source.text)) {
        if (tokens) throw std::invalid_argument("a task file states its own tokens: leave out --tokens");
        source = read_task_file(source.text);
    } else {
        source.options.tokens = tokens.value_or(PairsTokens::characters);
    }
    PairsOptions& options = source.options;
    if (!name.empty()) {
        options.name = name;
    } else {
        options.name = std::filesystem::path(path).filename().string();
        options.name.resize(std::min(options.name.size(), options.name.find('.')));  // "numbers.tsv": numbers
        if (!valid_pairs_task_name(options.name) || task_named(options.name)) options.name = "pairs";
    }
    return make_pairs_task(source.text, options);
}

}  // namespace lb::cli
