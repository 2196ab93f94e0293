// `lookback sweep --published`: the attention models as Bahdanau et al. 2014
// and Luong et al. 2015 published them, beside the lesson's own attention
// model, over several seeds — written as DIR/published.json (runs with the
// fields of sweep.json's, plus a summary) and DIR/published.md (tables of
// mean and range, and a reading computed from them).
#include <algorithm>
#include <cstdio>

#include "cli/sweeps.h"
#include "io/worker_codec.h"

namespace lb::cli {

namespace {

struct Variant {
    const char* label;  // the table's name for it
    ModelConfig model;
};

// Each variant at width H: today's model, Bahdanau's, Luong's three global
// scorers, global with input feeding, local-p with and without it.
std::vector<Variant> variants(int H) {
    auto config = [H](DecoderKind kind, Scorer scorer, bool feeding = false) {
        ModelConfig c;
        c.decoder = kind;
        c.scorer = scorer;
        c.H = H;
        c.input_feeding = feeding;
        return c;
    };
    return {
        {"attention (today's: unidirectional, additive, s_{t-1})", config(DecoderKind::attention, Scorer::additive)},
        {"bahdanau", config(DecoderKind::bahdanau, Scorer::additive)},
        {"luong dot", config(DecoderKind::luong, Scorer::dot)},
        {"luong general", config(DecoderKind::luong, Scorer::general)},
        {"luong concat", config(DecoderKind::luong, Scorer::additive)},
        {"luong general + input feeding", config(DecoderKind::luong, Scorer::general, true)},
        {"luong-local general", config(DecoderKind::luong_local, Scorer::general)},
        {"luong-local general + input feeding", config(DecoderKind::luong_local, Scorer::general, true)},
    };
}

// A stored run's variant: the one whose kind, scorer and input feeding it ran with.
const char* variant_label(const ModelConfig& model) {
    for (const Variant& v : variants(model.H))
        if (v.model.decoder == model.decoder && v.model.scorer == model.scorer &&
            v.model.input_feeding == model.input_feeding)
            return v.label;
    throw std::invalid_argument("published.json has a run of no variant: " + std::string(decoder_name(model.decoder)));
}

std::string signed_fixed(double v) { return (v >= 0 ? "+" : "") + fixed(v); }

const PublishedSummary& find(const std::vector<PublishedSummary>& all, const char* label) {
    return *std::find_if(all.begin(), all.end(), [&](const PublishedSummary& s) { return s.label == label; });
}

// One comparison of the reading: means, ranges, and whether the ranges overlap.
std::string compare(const PublishedSummary& a, const PublishedSummary& b, const char* what, size_t seeds) {
    const bool apart = a.exact.lo > b.exact.hi || b.exact.lo > a.exact.hi;
    const char* verdict = seeds == 1 ? "One seed: no spread to weigh the difference against."
                          : apart    ? "The seeds' ranges do not overlap."
                                     : "The seeds' ranges overlap: the seeds do not separate the two.";
    return "- " + std::string(what) + ": exact match " + spread_text(a.exact) + " against " +
           spread_text(b.exact) + ", a difference of " + signed_fixed(a.exact.mean - b.exact.mean) +
           "; per character " + signed_fixed(a.per_char.mean - b.per_char.mean) + ". " + verdict;
}

}  // namespace

PublishedRow published_row(const char* label, const RunOptions& options, const RunResult& result) {
    const Metrics& m = result.metrics;
    return {label, options.model, result.parameters, m.exact, m.per_char, m.per_position, result.train_seconds,
            run_json(options, result)};
}

PublishedRow published_row_of(const nlohmann::json& run) {
    const ModelConfig model = run_settings_from_record(run).model;
    return {variant_label(model), model, run.at("parameters").get<long>(), run.at("exact").get<double>(),
            run.at("per_char").get<double>(), run.at("per_position").get<std::vector<double>>(),
            run.at("train_seconds").get<double>(), run};
}

PublishedSweepResults published_sweep_results(const SweepHeader& header, const std::vector<PublishedRow>& rows) {
    PublishedSweepResults r{header, {}, rows};
    const int n = int(header.seeds.size());
    for (const PublishedRow& row : rows) {  // a width's variants in turn, a variant's seeds in turn
        std::vector<PublishedSummary>* width = nullptr;
        for (size_t w = 0; w < r.by_width.size(); ++w)
            if (header.widths[w] == row.model.H) width = &r.by_width[w];
        if (!width) width = &r.by_width.emplace_back();
        if (width->empty() || width->back().label != row.label) width->push_back({row.label, row.model});
        PublishedSummary& s = width->back();
        s.parameters = row.parameters;
        s.exact.add(row.exact, n);
        s.per_char.add(row.per_char, n);
        for (int t = 0; t < output_length; ++t) s.per_position[size_t(t)] += row.per_position[size_t(t)] / n;
        s.seconds += row.train_seconds / n;
    }
    return r;
}

PublishedSweepResults published_sweep_results_of(const nlohmann::json& json) {
    std::vector<PublishedRow> rows;
    for (const nlohmann::json& run : json.at("runs")) rows.push_back(published_row_of(run));
    return published_sweep_results(sweep_header_of(json), rows);
}

nlohmann::json published_sweep_json(const PublishedSweepResults& r) {
    nlohmann::json runs = nlohmann::json::array(), summaries = nlohmann::json::array();
    for (const PublishedRow& row : r.rows) runs.push_back(row.json);
    for (const std::vector<PublishedSummary>& width : r.by_width)
        for (const PublishedSummary& s : width)
            summaries.push_back({{"label", s.label},
                                 {"model", decoder_name(s.model.decoder)},
                                 {"scorer", model_scorer_name(s.model.decoder, s.model.scorer)},
                                 {"input_feeding", s.model.input_feeding},
                                 {"width", s.model.H},
                                 {"seeds", r.header.seeds.size()},
                                 {"parameters", s.parameters},
                                 {"exact_mean", s.exact.mean},
                                 {"exact_min", s.exact.lo},
                                 {"exact_max", s.exact.hi},
                                 {"per_char_mean", s.per_char.mean},
                                 {"per_char_min", s.per_char.lo},
                                 {"per_char_max", s.per_char.hi},
                                 {"per_position_mean", s.per_position},
                                 {"train_seconds_mean", s.seconds}});
    nlohmann::json out = sweep_header_json(r.header);
    out["runs"] = runs;
    out["summary"] = summaries;
    return out;
}

std::string published_sweep_markdown(const PublishedSweepResults& r) {
    const SweepHeader& h = r.header;
    const size_t seeds = h.seeds.size();
    std::string md;
    auto line = [&](const std::string& s) { md += s + "\n"; };
    line("# The attention models as published, beside the lesson's");
    line("");
    line("Written by `lookback sweep --published`: " + std::to_string(h.epochs) + " epochs per run, seeds " +
         h.seeds_text() + " (initialisation and shuffling), dataset seed " + std::to_string(h.data_seed) +
         ", the same Adam (learning rate " + fixed(h.learning_rate.value_or(0.0f), 4) +
         "), batch 64 and data as `sweep.md`; held-out exact match and per-character accuracy of greedy "
         "decoding, as the mean over the seeds and (in brackets) their lowest–highest. `attention` is the "
         "lesson's model (a unidirectional encoder with Bahdanau's additive score of s_{t−1}, predicting "
         "from s_t alone); `bahdanau` is Bahdanau et al. 2014 (bidirectional encoder, s_0 from the "
         "backward state, linear deep output; core/models/bahdanau.h); `luong` and `luong-local` are Luong et "
         "al. 2015's global and local-p attention (the score of s_t after the step, the attentional "
         "state h̃ = tanh(W_c [c ; s]), local window D = 4; core/models/luong.h). Seconds are single-threaded "
         "wall clock, mean per run.");
    for (size_t w = 0; w < r.by_width.size(); ++w) {
        const std::vector<PublishedSummary>& all = r.by_width[w];
        const int H = h.widths[w];
        line("");
        line("## Width " + std::to_string(H));
        line("");
        line("| model | parameters | exact match | per character | seconds |");
        line("|:---|---:|---:|---:|---:|");
        for (const PublishedSummary& s : all)
            line("| " + s.label + " | " + std::to_string(s.parameters) + " | " + spread_text(s.exact) + " | " +
                 spread_text(s.per_char) + " | " + fixed(s.seconds, 1) + " |");
        line("");
        line("Per output position (mean over the seeds):");
        line("");
        line("| model | y | y | y | y | - | m | m | - | d | d |");
        line("|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (const PublishedSummary& s : all) {
            std::string cells;
            for (double a : s.per_position) cells += " " + fixed(a, 3) + " |";
            line("| " + s.label + " |" + cells);
        }
        line("");
        line("Reading at width " + std::to_string(H) + " (computed from the table):");
        line("");
        line(compare(find(all, "bahdanau"), find(all, "attention (today's: unidirectional, additive, s_{t-1})"),
                     "Bahdanau's model against today's (the bidirectional encoder, with s_0 and the deep "
                     "output that come with it)", seeds));
        line(compare(find(all, "luong general + input feeding"), find(all, "luong general"),
                     "Input feeding (luong general with it against without)", seeds));
        line(compare(find(all, "luong-local general + input feeding"), find(all, "luong-local general"),
                     "Input feeding with the local window", seeds));
        line(compare(find(all, "luong-local general"), find(all, "luong general"),
                     "The local window (luong-local general against luong general)", seeds));
        line(compare(find(all, "luong general"), find(all, "luong dot"), "Luong's general score against dot", seeds));
        line(compare(find(all, "luong concat"), find(all, "luong general"), "Luong's concat score against general", seeds));
    }
    return md;
}

int published_sweep(const SweepArgs& args) {
    const SweepFiles files(args.out_dir, "published");
    if (!files.writable()) return 1;  // before the training, not after
    const Splits data = make_date_splits(args.data_seed);
    SweepHeader header = sweep_header(args, data);  // its widths: those done
    std::vector<PublishedRow> rows;
    std::string md;
    for (int H : args.widths) {
        for (const Variant& v : variants(H))
            for (uint64_t seed : header.seeds) {
                char label[96];
                std::snprintf(label, sizeof label, "%-55s width %4d seed %llu: ", v.label, H, (unsigned long long)seed);
                const RunOptions o = sweep_options(args, v.model, seed);
                const std::optional<RunResult> r = sweep_run(o, label, data);
                if (!r) return 1;
                rows.push_back(published_row(v.label, o, *r));
            }
        // Both files after each width: a long sweep leaves its finished widths behind.
        header.widths.push_back(H);
        const PublishedSweepResults results = published_sweep_results(header, rows);
        md = published_sweep_markdown(results);
        if (!files.write(published_sweep_json(results), md)) return 1;
    }
    files.print(md);
    return 0;
}

}  // namespace lb::cli
