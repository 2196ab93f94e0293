// `lookback sweep [--out DIR]`: the lesson's experiment on the date task (docs/dataset.md) —
// widths 8/16/32/64 × {plain, additive attention}, 12 epochs each — written as
// DIR/sweep.md and DIR/sweep.json with the source's measurements beside ours,
// and the claims the lesson makes checked against our numbers.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/commands.h"
#include "lesson/published.h"

namespace lb::cli {

namespace {

// The run settings a sweep takes (the settings schema's flags, io/run_settings.h).
const std::vector<std::string> sweep_setting_keys = {"task",          "formats", "field_order", "epochs", "seed",
                                                     "data_seed",     "learning_rate"};

// Built when first shown: the schema is another file's static.
const char* sweep_usage() {
    static const std::string text =
        "lookback sweep [--out DIR] [--epochs N] [--seed N] [--data-seed N] [--lr X]\n"
        "               [--transformer | --published [--widths 64,16] [--seeds 3] |\n"
        "                --alignment [--task WORD] [--seeds 3] |\n"
        "                --dial [--formats LIST] [--field-order WORD] [--seeds 3]]\n" +
        settings_usage(sweep_setting_keys) +
        "  writes DIR/sweep.md and DIR/sweep.json (default DIR: assets); with --transformer,\n"
        "  DIR/transformer.md and DIR/transformer.json instead (width 64, seeds 1-3, the shipped\n"
        "  Transformers' settings); --published trains attention, bahdanau, luong and luong-local at\n"
        "  each width for seeds seed .. seed + N - 1 and writes DIR/published.md and DIR/published.json;\n"
        "  --alignment trains every model at width 64 on the task for seeds seed .. seed + N - 1, scores\n"
        "  its maps against the task's known alignment and writes DIR/alignment-TASK.md and .json;\n"
        "  --dial trains plain and attention at width 64 on the dates at each setting of the dial (one\n"
        "  format; all six in each field order), or at the one given, for seeds seed .. seed + N - 1, and\n"
        "  writes DIR/dial.md and DIR/dial.json";
    return text.c_str();
}

constexpr int width_count = sweep_width_count;
const auto& widths = sweep_widths;   // published.h
const SourceFigures& source = source_figures;

struct Run {
    RunOptions options;
    RunResult result;
};

double spread(const std::array<double, length_bucket_count>& buckets) {
    double lo = INFINITY, hi = -INFINITY;
    for (double b : buckets)
        if (!std::isnan(b)) lo = std::min(lo, b), hi = std::max(hi, b);
    return hi - lo;
}

std::string thousands(long v) {
    std::string s = std::to_string(v);
    for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(size_t(i), ",");
    return s;
}

// The claims the lesson makes about the sweep, each with our number.
struct Check {
    std::string claim;
    double value;
    bool pass;
};

std::vector<Check> checks_of(const Run (&plain)[width_count], const Run (&attention)[width_count]) {
    const Metrics& p64 = plain[3].result.metrics;
    const Metrics& a64 = attention[3].result.metrics;
    const Metrics& p8 = plain[0].result.metrics;
    const Metrics& a8 = attention[0].result.metrics;
    const double year_min = std::min({p64.per_position[0], p64.per_position[1],
                                      p64.per_position[2], p64.per_position[3]});
    const double gap32 = attention[2].result.metrics.exact - plain[2].result.metrics.exact;
    const double gap64 = a64.exact - p64.exact;
    return {
        {"attention at width 64: exact >= 0.99", a64.exact, a64.exact >= 0.99},
        {"plain at width 64: exact <= 0.05", p64.exact, p64.exact <= 0.05},
        {"plain at width 64: per-char >= 0.6", p64.per_char, p64.per_char >= 0.6},
        {"plain at width 64: every year digit >= 0.95 (lowest shown)", year_min, year_min >= 0.95},
        {"plain at width 64: day's second digit <= 0.3", p64.per_position[9], p64.per_position[9] <= 0.3},
        {"plain at width 64: length-bucket spread <= 0.05", spread(p64.per_length_bucket),
         spread(p64.per_length_bucket) <= 0.05},
        {"plain at width 8: exact <= 0.05", p8.exact, p8.exact <= 0.05},
        {"attention at width 8: exact <= 0.05", a8.exact, a8.exact <= 0.05},
        {"width 32: attention exact - plain exact >= 0.5", gap32, gap32 >= 0.5},
        {"width 64: attention exact - plain exact >= 0.5", gap64, gap64 >= 0.5},
    };
}

std::string markdown(const Run (&plain)[width_count], const Run (&attention)[width_count],
                     const std::vector<Check>& checks, size_t train_size) {
    const RunOptions& o = plain[0].options;
    const Metrics& p64 = plain[3].result.metrics;
    const Metrics& a64 = attention[3].result.metrics;
    std::string md;
    auto line = [&](const std::string& s) { md += s + "\n"; };
    char buf[512];

    line("# The width sweep: plain encoder–decoder vs additive attention");
    line("");
    std::snprintf(buf, sizeof buf,
                  "Written by `lookback sweep`: %d epochs per model, seed %llu (initialisation and "
                  "shuffling), dataset seed %llu, %s training and %s held-out strings "
                  "(`docs/dataset.md`), greedy decoding of 10 characters. \"Source\" is the "
                  "lesson's reference run (TensorFlow, as published); \"ours\" is this "
                  "project's C++ core. Seconds are single-threaded wall clock on the machine "
                  "that ran the sweep.",
                  o.epochs, (unsigned long long)o.seed, (unsigned long long)o.data_seed,
                  thousands(long(train_size)).c_str(), thousands(p64.count).c_str());
    line(buf);
    line("");
    line("## Exact match and per-character accuracy (held-out)");
    line("");
    line("| width | plain exact, source | plain exact, ours | attention exact, source | attention exact, ours "
         "| plain per-char, source | plain per-char, ours | attention per-char, source | attention per-char, ours |");
    line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (int w = 0; w < width_count; ++w) {
        const Metrics& p = plain[w].result.metrics;
        const Metrics& a = attention[w].result.metrics;
        line("| " + std::to_string(widths[size_t(w)]) + " | " + fixed(source.plain.exact[size_t(w)]) + " | " +
             fixed(p.exact) + " | " + fixed(source.attention.exact[size_t(w)]) + " | " + fixed(a.exact) +
             " | " + fixed(source.plain.per_char[size_t(w)]) + " | " + fixed(p.per_char) + " | " +
             fixed(source.attention.per_char[size_t(w)]) + " | " + fixed(a.per_char) + " |");
    }
    line("");
    line("## Accuracy per output position at width 64");
    line("");
    line("| position | character | plain, source | plain, ours | attention, source | attention, ours |");
    line("|---:|:---:|---:|---:|---:|---:|");
    const char* roles[output_length] = {"year 1", "year 2", "year 3", "year 4", "dash",
                                        "month 1", "month 2", "dash", "day 1", "day 2"};
    for (int t = 0; t < output_length; ++t)
        line("| " + std::to_string(t + 1) + " | " + roles[t] + " | " +
             fixed(source.plain.per_position_64[size_t(t)]) + " | " + fixed(p64.per_position[size_t(t)]) + " | " +
             fixed(source.attention.per_position_64[size_t(t)]) + " | " + fixed(a64.per_position[size_t(t)]) + " |");
    line("");
    line("## Per-character accuracy by input length at width 64");
    line("");
    line("Buckets are the nearest-rank quartiles of the held-out input lengths: Q_k is the "
         "smallest length with at least k/4 of the strings no longer than it; bucket 1 is "
         "length ≤ Q1, bucket 2 is Q1 < length ≤ Q2, bucket 3 is Q2 < length ≤ Q3, bucket 4 is "
         "longer. Lengths tie, so the bucket sizes differ. The source's own bucket edges are not "
         "known; its numbers are shown for the same rank.");
    line("");
    line("| bucket | lengths | strings | plain, source | plain, ours | attention, ours |");
    line("|---:|:---:|---:|---:|---:|---:|");
    for (int k = 0; k < length_bucket_count; ++k)
        line("| " + std::to_string(k + 1) + " | " + std::to_string(p64.buckets.lowest_length(k)) +
             "–" + std::to_string(p64.buckets.highest_length(k)) + " | " +
             std::to_string(p64.bucket_count[size_t(k)]) + " | " + fixed(source.plain_length_buckets_64[size_t(k)]) +
             " | " + fixed(p64.per_length_bucket[size_t(k)]) + " | " +
             fixed(a64.per_length_bucket[size_t(k)]) + " |");
    double source_spread = 0, lo = 1, hi = 0;
    for (double b : source.plain_length_buckets_64) lo = std::min(lo, b), hi = std::max(hi, b);
    source_spread = hi - lo;
    line("| spread | | | " + fixed(source_spread) + " | " + fixed(spread(p64.per_length_bucket)) +
         " | " + fixed(spread(a64.per_length_bucket)) + " |");
    line("");
    line("## Per format at width 64 (ours)");
    line("");
    line("| format | strings | plain per-char | plain exact | attention per-char | attention exact |");
    line("|:---|---:|---:|---:|---:|---:|");
    for (int f = 0; f < format_count; ++f)
        line(std::string("| `") + format_name(f) + "` | " +
             std::to_string(p64.examples_per_format[size_t(f)]) + " | " +
             fixed(p64.per_format[size_t(f)]) + " | " + fixed(p64.per_format_exact[size_t(f)]) +
             " | " + fixed(a64.per_format[size_t(f)]) + " | " + fixed(a64.per_format_exact[size_t(f)]) + " |");
    line("");
    line("## Cost");
    line("");
    line("| width | plain parameters | attention parameters | plain seconds | attention seconds | attention / plain time |");
    line("|---:|---:|---:|---:|---:|---:|");
    for (int w = 0; w < width_count; ++w) {
        const RunResult& p = plain[w].result;
        const RunResult& a = attention[w].result;
        line("| " + std::to_string(widths[size_t(w)]) + " | " + thousands(p.parameters) + " | " +
             thousands(a.parameters) + " | " + fixed(p.train_seconds, 1) + " | " +
             fixed(a.train_seconds, 1) + " | " + fixed(a.train_seconds / p.train_seconds, 2) + "× |");
    }
    line("| 64, source | " + thousands(source.plain.parameters_64) + " | " +
         thousands(source.attention.parameters_64) + " | " + fixed(source.plain.seconds_64, 1) + " | " +
         fixed(source.attention.seconds_64, 1) + " | " +
         fixed(source.attention.seconds_64 / source.plain.seconds_64, 2) + "× |");
    line("");
    line("## Checks of the lesson's claims");
    line("");
    line("| claim | ours | holds |");
    line("|:---|---:|:---:|");
    for (const Check& c : checks)
        line("| " + c.claim + " | " + fixed(c.value) + " | " + (c.pass ? "yes" : "**no**") + " |");
    return md;
}

nlohmann::json source_json() {
    return {
        {"widths", widths},
        {"plain_exact", source.plain.exact},
        {"attention_exact", source.attention.exact},
        {"plain_per_char", source.plain.per_char},
        {"attention_per_char", source.attention.per_char},
        {"per_position_64",
         {{"plain", source.plain.per_position_64}, {"attention", source.attention.per_position_64}}},
        {"length_buckets_plain_64", source.plain_length_buckets_64},
        {"parameters_64",
         {{"plain", source.plain.parameters_64}, {"attention", source.attention.parameters_64}}},
        {"seconds_64", {{"plain", source.plain.seconds_64}, {"attention", source.attention.seconds_64}}},
    };
}

}  // namespace

std::string fixed(double v, int digits) {
    if (std::isnan(v)) return "–";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string spread_text(const Spread& s) {
    return fixed(s.mean) + " (" + fixed(s.lo) + "–" + fixed(s.hi) + ")";
}

nlohmann::json spread_json(const Spread& s) { return {{"mean", s.mean}, {"min", s.lo}, {"max", s.hi}}; }

SweepFiles::SweepFiles(const std::string& dir, const std::string& name)
    : json_path(dir + "/" + name + ".json"), md_path(dir + "/" + name + ".md") {}

bool SweepFiles::writable() const {
    for (const std::string& path : {md_path, json_path}) {
        const std::string problem = write_problem(path);
        if (!problem.empty()) {
            std::fprintf(stderr, "lookback: cannot write %s: %s\n", shown(path).c_str(), problem.c_str());
            return false;
        }
    }
    return true;
}

bool SweepFiles::write(const nlohmann::json& json, const std::string& md) const {
    if (write_text(json_path, json.dump(1) + "\n") && write_text(md_path, md)) return true;
    std::fprintf(stderr, "lookback: cannot write '%s' or '%s'\n", json_path.c_str(), md_path.c_str());
    return false;
}

void SweepFiles::print(const std::string& md) const {
    std::printf("\n%s\nwrote %s and %s\n", md.c_str(), md_path.c_str(), json_path.c_str());
}

std::optional<RunResult> sweep_run(RunOptions options, const std::string& label, const Splits& data) {
    options.label = label;
    RunResult result = train_and_evaluate(options, data);
    if (!result.failure.empty()) {
        std::fprintf(stderr, "\nlookback: %s%s The sweep stopped there; try a smaller --lr.\n", label.c_str(),
                     result.failure.c_str());
        return std::nullopt;
    }
    const Metrics& m = result.metrics;
    std::printf("%sexact %.4f  per-char %.4f  %6.1f s  %6ld parameters\n", label.c_str(), m.exact, m.per_char,
                result.train_seconds, result.parameters);
    std::fflush(stdout);
    return result;
}

SweepArgs parse_sweep_args(const Args& args) {
    SweepArgs o;
    bool widths_given = false, seeds_given = false;
    GivenSettings given;
    for (size_t i = 0; i < args.size();) {
        std::string v;
        if (take_option(args, i, "--out", v)) {
            if (v.empty()) throw UsageError("--out needs a folder");
            o.out_dir = v;
        } else if (take_setting(args, i, sweep_setting_keys, given)) {
            continue;
        } else if (args[i] == "--transformer") {
            o.transformer = true, ++i;
        } else if (args[i] == "--published") {
            o.published = true;
            ++i;
        } else if (args[i] == "--alignment") {
            o.alignment = true;
            ++i;
        } else if (args[i] == "--dial") {
            o.dial = true;
            ++i;
        } else if (take_option(args, i, "--widths", v)) {
            o.widths.clear();
            for (const std::string& w : split_commas(v))
                o.widths.push_back(int(parse_integer("--widths", w, 1, 1024)));
            widths_given = true;
        } else if (take_option(args, i, "--seeds", v)) {
            o.seeds = int(parse_integer("--seeds", v, 1, 100));
            seeds_given = true;
        } else {
            throw UsageError("unknown option " + shown(args[i]));
        }
    }
    const RunSettings settings = read_setting_flags(given);
    o.epochs = settings.epochs;
    o.seed = settings.seed;
    o.data_seed = settings.data_seed;
    o.learning_rate = settings.learning_rate;
    o.task = settings.model.task;
    const bool dial_given = std::any_of(given.begin(), given.end(), [](const auto& g) {
        return std::string_view(g.first->key) == "formats" || std::string_view(g.first->key) == "field_order";
    });
    if (int(o.transformer) + int(o.published) + int(o.alignment) + int(o.dial) > 1)
        throw UsageError("--transformer, --published, --alignment and --dial are four sweeps: give one");
    if (o.task->name != date_task().name && !o.alignment) throw UsageError("--task applies to --alignment only");
    if (dial_given && !o.dial) throw UsageError("--formats and --field-order apply to --dial only");
    if (o.transformer && o.seed != SweepArgs{}.seed)
        throw UsageError("--transformer runs seeds 1-3: it takes no --seed");
    if (widths_given && !o.published) throw UsageError("--widths applies to --published only");
    if (seeds_given && !o.published && !o.alignment && !o.dial)
        throw UsageError("--seeds applies to --published, --alignment and --dial only");
    if (o.dial) o.dials = dial_given ? std::vector<DateDial>{*date_dial(*o.task)} : dial_settings();
    return o;
}

int sweep(const Args& args) {
    SweepArgs parsed;
    try {
        parsed = parse_sweep_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), sweep_usage());
    }
    if (parsed.transformer) return transformer_sweep(parsed);
    if (parsed.published) return published_sweep(parsed);
    if (parsed.alignment) return alignment_sweep(parsed);
    if (parsed.dial) return dial_sweep(parsed);
    const int epochs = parsed.epochs;
    const uint64_t seed = parsed.seed, data_seed = parsed.data_seed;
    const SweepFiles files(parsed.out_dir, "sweep");
    if (!files.writable()) return 1;  // before the training, not after

    const Splits data = make_date_splits(data_seed);
    const bool terminal = stdout_is_terminal();
    Run plain[width_count], attention[width_count];
    nlohmann::json runs = nlohmann::json::array();
    for (int w = 0; w < width_count; ++w)
        for (Run* run : {&plain[w], &attention[w]}) {
            RunOptions& o = run->options;
            o.model.decoder = run == &plain[w] ? DecoderKind::plain : DecoderKind::attention;
            o.model.scorer = Scorer::additive;
            o.model.H = widths[size_t(w)];
            o.epochs = epochs;
            o.seed = seed;
            o.data_seed = data_seed;
            o.learning_rate = parsed.learning_rate;
            o.progress = terminal;
            char label[64];
            std::snprintf(label, sizeof label, "%-9s width %2d ", std::string(decoder_name(o.model.decoder)).c_str(),
                          widths[size_t(w)]);
            std::optional<RunResult> result = sweep_run(o, label, data);
            if (!result) return 1;
            run->result = std::move(*result);
            runs.push_back(run_json(o, run->result));
        }

    const std::vector<Check> checks = checks_of(plain, attention);
    nlohmann::json check_list = nlohmann::json::array();
    for (const Check& c : checks) check_list.push_back({{"claim", c.claim}, {"value", c.value}, {"pass", c.pass}});
    const nlohmann::json out = {
        {"epochs", epochs},
        {"seed", seed},
        {"data_seed", data_seed},
        {"train_size", data.train.size()},
        {"held_out_size", data.held_out.size()},
        {"widths", widths},
        {"runs", runs},
        {"source", source_json()},
        {"checks", check_list},
    };
    const std::string md = markdown(plain, attention, checks, data.train.size());
    if (!files.write(out, md)) return 1;
    files.print(md);
    return 0;
}

}  // namespace lb::cli
