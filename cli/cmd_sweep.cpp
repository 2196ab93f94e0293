// `lookback sweep [--out DIR]`: the lesson's experiment on the date task (docs/dataset.md) —
// widths 8/16/32/64 × {plain, additive attention}, 12 epochs each — written as
// DIR/sweep.md and DIR/sweep.json with the source's measurements beside ours,
// and the claims the lesson makes checked against our numbers.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/sweeps.h"
#include "lesson/published.h"

namespace lb::cli {

namespace {

// The run settings a sweep takes (the settings schema's flags, settings/run_settings.h).
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

const auto& widths = sweep_widths;  // published.h
const SourceFigures& source = source_figures;
// The output positions the claims read: the year's four digits, the day's second one.
constexpr int year_digits = 4;
constexpr int day_second_digit = 9;

// The run at a width the claims name.
const WidthRow& at_width(const std::vector<WidthRow>& rows, int width) {
    for (const WidthRow& row : rows)
        if (row.width == width) return row;
    throw std::invalid_argument("the width sweep has no run at width " + std::to_string(width));
}

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

std::vector<Check> checks_of(const std::vector<WidthRow>& plain, const std::vector<WidthRow>& attention) {
    const WidthRow &p64 = at_width(plain, 64), &a64 = at_width(attention, 64);
    const WidthRow &p8 = at_width(plain, 8), &a8 = at_width(attention, 8);
    const double year_min = *std::min_element(p64.per_position.begin(), p64.per_position.begin() + year_digits);
    const double gap32 = at_width(attention, 32).exact - at_width(plain, 32).exact;
    const double gap64 = a64.exact - p64.exact;
    const double day_digit = p64.per_position[day_second_digit];
    return {
        {"attention at width 64: exact >= 0.99", a64.exact, a64.exact >= 0.99},
        {"plain at width 64: exact <= 0.05", p64.exact, p64.exact <= 0.05},
        {"plain at width 64: per-char >= 0.6", p64.per_char, p64.per_char >= 0.6},
        {"plain at width 64: every year digit >= 0.95 (lowest shown)", year_min, year_min >= 0.95},
        {"plain at width 64: day's second digit <= 0.3", day_digit, day_digit <= 0.3},
        {"plain at width 64: length-bucket spread <= 0.05", spread(p64.length_buckets),
         spread(p64.length_buckets) <= 0.05},
        {"plain at width 8: exact <= 0.05", p8.exact, p8.exact <= 0.05},
        {"attention at width 8: exact <= 0.05", a8.exact, a8.exact <= 0.05},
        {"width 32: attention exact - plain exact >= 0.5", gap32, gap32 >= 0.5},
        {"width 64: attention exact - plain exact >= 0.5", gap64, gap64 >= 0.5},
    };
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

// Run: every width × {plain, attention}, in that order.
std::optional<std::vector<WidthRow>> run_width_sweep(const SweepArgs& args, const Splits& data) {
    std::vector<WidthRow> rows;
    for (int width : widths)
        for (DecoderKind kind : lesson_pair) {
            ModelConfig model;
            model.decoder = kind;
            model.scorer = Scorer::additive;
            model.H = width;
            const RunOptions o = sweep_options(args, model, args.seed);
            char label[64];
            std::snprintf(label, sizeof label, "%-9s width %2d ", std::string(decoder_name(kind)).c_str(), width);
            const std::optional<RunResult> result = sweep_run(o, label, data);
            if (!result) return std::nullopt;
            rows.push_back(width_row(o, *result));
        }
    return rows;
}

}  // namespace

WidthRow width_row(const RunOptions& options, const RunResult& result) {
    const Metrics& m = result.metrics;
    WidthRow row{std::string(decoder_name(options.model.decoder)), options.model.H, m.count, result.parameters,
                 m.exact, m.per_char, result.train_seconds, m.per_position, m.per_format, m.per_format_exact,
                 m.per_length_bucket, {}, m.bucket_count, run_json(options, result)};
    for (int k = 0; k < length_bucket_count; ++k)
        row.bucket_ranges[size_t(k)] = {m.buckets.lowest_length(k), m.buckets.highest_length(k)};
    return row;
}

WidthRow width_row_of(const nlohmann::json& run) {
    using Buckets = std::array<double, length_bucket_count>;
    return {run.at("model").get<std::string>(),
            run.at("width").get<int>(),
            run.at("held_out_size").get<int>(),
            run.at("parameters").get<long>(),
            run.at("exact").get<double>(),
            run.at("per_char").get<double>(),
            run.at("train_seconds").get<double>(),
            run.at("per_position").get<std::vector<double>>(),
            run.at("per_format").get<std::vector<double>>(),
            run.at("per_format_exact").get<std::vector<double>>(),
            run.at("length_buckets").get<Buckets>(),
            run.at("length_bucket_ranges").get<std::array<std::array<int, 2>, length_bucket_count>>(),
            run.at("length_bucket_counts").get<std::array<int, length_bucket_count>>(),
            run};
}

WidthSweepResults width_sweep_results(const SweepHeader& header, const std::vector<WidthRow>& rows,
                                      const std::vector<Example>& held_out) {
    WidthSweepResults r{header, {}, {}, std::vector<int>(format_count, 0), {}};
    for (const WidthRow& row : rows) {
        const std::optional<DecoderKind> kind = parse_decoder(row.model);
        if (!kind) throw std::invalid_argument("the width sweep has a run of no model kind: " + row.model);
        (pair_slot(*kind) == plain_slot ? r.plain : r.attention).push_back(row);
    }
    for (const Example& ex : held_out) ++r.strings_per_format[size_t(ex.group)];
    r.checks = checks_of(r.plain, r.attention);
    return r;
}

WidthSweepResults width_sweep_results_of(const nlohmann::json& json) {
    std::vector<WidthRow> rows;
    for (const nlohmann::json& run : json.at("runs")) rows.push_back(width_row_of(run));
    const SweepHeader header = sweep_header_of(json);
    return width_sweep_results(header, rows, make_date_splits(header.data_seed).held_out);
}

nlohmann::json width_sweep_json(const WidthSweepResults& r) {
    nlohmann::json json = sweep_header_json(r.header), runs = nlohmann::json::array(),
                   checks = nlohmann::json::array();
    for (size_t w = 0; w < r.plain.size(); ++w) runs.push_back(r.plain[w].json), runs.push_back(r.attention[w].json);
    for (const Check& c : r.checks) checks.push_back({{"claim", c.claim}, {"value", c.value}, {"pass", c.pass}});
    json["runs"] = runs;
    json["source"] = source_json();
    json["checks"] = checks;
    return json;
}

std::string width_sweep_markdown(const WidthSweepResults& r) {
    const SweepHeader& h = r.header;
    const WidthRow &p64 = at_width(r.plain, 64), &a64 = at_width(r.attention, 64);
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
                  h.epochs, (unsigned long long)h.seed.value_or(0), (unsigned long long)h.data_seed,
                  thousands(long(h.train_size)).c_str(), thousands(p64.count).c_str());
    line(buf);
    line("");
    line("## Exact match and per-character accuracy (held-out)");
    line("");
    line("| width | plain exact, source | plain exact, ours | attention exact, source | attention exact, ours "
         "| plain per-char, source | plain per-char, ours | attention per-char, source | attention per-char, ours |");
    line("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (size_t w = 0; w < r.plain.size(); ++w) {
        const WidthRow &p = r.plain[w], &a = r.attention[w];
        line("| " + std::to_string(p.width) + " | " + fixed(source.plain.exact[w]) + " | " + fixed(p.exact) + " | " +
             fixed(source.attention.exact[w]) + " | " + fixed(a.exact) + " | " + fixed(source.plain.per_char[w]) +
             " | " + fixed(p.per_char) + " | " + fixed(source.attention.per_char[w]) + " | " + fixed(a.per_char) +
             " |");
    }
    line("");
    line("## Accuracy per output position at width 64");
    line("");
    line("| position | character | plain, source | plain, ours | attention, source | attention, ours |");
    line("|---:|:---:|---:|---:|---:|---:|");
    const char* roles[output_length] = {"year 1", "year 2", "year 3", "year 4", "dash",
                                        "month 1", "month 2", "dash", "day 1", "day 2"};
    for (size_t t = 0; t < size_t(output_length); ++t)
        line("| " + std::to_string(t + 1) + " | " + roles[t] + " | " + fixed(source.plain.per_position_64[t]) +
             " | " + fixed(p64.per_position[t]) + " | " + fixed(source.attention.per_position_64[t]) + " | " +
             fixed(a64.per_position[t]) + " |");
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
    for (size_t k = 0; k < size_t(length_bucket_count); ++k)
        line("| " + std::to_string(k + 1) + " | " + std::to_string(p64.bucket_ranges[k][0]) + "–" +
             std::to_string(p64.bucket_ranges[k][1]) + " | " + std::to_string(p64.bucket_counts[k]) + " | " +
             fixed(source.plain_length_buckets_64[k]) + " | " + fixed(p64.length_buckets[k]) + " | " +
             fixed(a64.length_buckets[k]) + " |");
    line("| spread | | | " + fixed(spread(source.plain_length_buckets_64)) + " | " + fixed(spread(p64.length_buckets)) +
         " | " + fixed(spread(a64.length_buckets)) + " |");
    line("");
    line("## Per format at width 64 (ours)");
    line("");
    line("| format | strings | plain per-char | plain exact | attention per-char | attention exact |");
    line("|:---|---:|---:|---:|---:|---:|");
    for (size_t f = 0; f < size_t(format_count); ++f)
        line(std::string("| `") + format_name(int(f)) + "` | " + std::to_string(r.strings_per_format[f]) + " | " +
             fixed(p64.per_format[f]) + " | " + fixed(p64.per_format_exact[f]) + " | " + fixed(a64.per_format[f]) +
             " | " + fixed(a64.per_format_exact[f]) + " |");
    line("");
    line("## Cost");
    line("");
    line("| width | plain parameters | attention parameters | plain seconds | attention seconds | attention / plain time |");
    line("|---:|---:|---:|---:|---:|---:|");
    for (size_t w = 0; w < r.plain.size(); ++w) {
        const WidthRow &p = r.plain[w], &a = r.attention[w];
        line("| " + std::to_string(p.width) + " | " + thousands(p.parameters) + " | " + thousands(a.parameters) +
             " | " + fixed(p.train_seconds, 1) + " | " + fixed(a.train_seconds, 1) + " | " +
             fixed(a.train_seconds / p.train_seconds, 2) + "× |");
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
    for (const Check& c : r.checks)
        line("| " + c.claim + " | " + fixed(c.value) + " | " + (c.pass ? "yes" : "**no**") + " |");
    return md;
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
            o.widths = parse_widths(v);
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
    const SweepFiles files(parsed.out_dir, "sweep");
    if (!files.writable()) return 1;  // before the training, not after

    const Splits data = make_date_splits(parsed.data_seed);
    const std::optional<std::vector<WidthRow>> rows = run_width_sweep(parsed, data);
    if (!rows) return 1;
    // sweep.json has one seed and no learning rate: it predates both keys.
    SweepHeader header = sweep_header(parsed, data);
    header.widths.assign(widths.begin(), widths.end());
    header.learning_rate.reset();
    header.seeds.clear();
    header.seed = parsed.seed;
    const WidthSweepResults results = width_sweep_results(header, *rows, data.held_out);
    const std::string md = width_sweep_markdown(results);
    if (!files.write(width_sweep_json(results), md)) return 1;
    files.print(md);
    return 0;
}

}  // namespace lb::cli
