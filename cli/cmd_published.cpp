// `lookback sweep --published`: the attention models as Bahdanau et al. 2014
// and Luong et al. 2015 published them, beside the lesson's own attention
// model, over several seeds — written as DIR/published.json (runs with the
// fields of sweep.json's, plus a summary) and DIR/published.md (tables of
// mean and range, and a reading computed from them).
#include <algorithm>
#include <cstdio>

#include "cli/sweeps.h"

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

struct Summary {
    std::string label;
    ModelConfig model;
    long parameters = 0;
    Spread exact{}, per_char{};
    std::array<double, output_length> per_position{};  // means
    double seconds = 0;
};

std::string signed_fixed(double v) { return (v >= 0 ? "+" : "") + fixed(v); }

const Summary& find(const std::vector<Summary>& all, const char* label) {
    return *std::find_if(all.begin(), all.end(), [&](const Summary& s) { return s.label == label; });
}

// One comparison of the reading: means, ranges, and whether the ranges overlap.
std::string compare(const Summary& a, const Summary& b, const char* what, int seeds) {
    const bool apart = a.exact.lo > b.exact.hi || b.exact.lo > a.exact.hi;
    const char* verdict = seeds == 1 ? "One seed: no spread to weigh the difference against."
                          : apart    ? "The seeds' ranges do not overlap."
                                     : "The seeds' ranges overlap: the seeds do not separate the two.";
    return "- " + std::string(what) + ": exact match " + spread_text(a.exact) + " against " +
           spread_text(b.exact) + ", a difference of " + signed_fixed(a.exact.mean - b.exact.mean) +
           "; per character " + signed_fixed(a.per_char.mean - b.per_char.mean) + ". " + verdict;
}

}  // namespace

int published_sweep(const SweepArgs& args) {
    const SweepFiles files(args.out_dir, "published");
    if (!files.writable()) return 1;  // before the training, not after
    const Splits data = make_date_splits(args.data_seed);
    nlohmann::json runs = nlohmann::json::array(), summaries = nlohmann::json::array();
    std::vector<std::vector<Summary>> by_width;
    // Writes both files from the widths done so far (after each width: a long
    // sweep leaves its finished widths behind). Returns the markdown, or "" if
    // a file cannot be written.
    auto write_files = [&]() -> std::string {
        std::string md;
        auto line = [&](const std::string& s) { md += s + "\n"; };
        line("# The attention models as published, beside the lesson's");
        line("");
        line("Written by `lookback sweep --published`: " + std::to_string(args.epochs) + " epochs per run, seeds " +
             std::to_string(args.seed) + "–" + std::to_string(args.seed + uint64_t(args.seeds) - 1) +
             " (initialisation and shuffling), dataset seed " + std::to_string(args.data_seed) +
             ", the same Adam (learning rate " + fixed(args.learning_rate, 4) +
             "), batch 64 and data as `sweep.md`; held-out exact match and per-character accuracy of greedy "
             "decoding, as the mean over the seeds and (in brackets) their lowest–highest. `attention` is the "
             "lesson's model (a unidirectional encoder with Bahdanau's additive score of s_{t−1}, predicting "
             "from s_t alone); `bahdanau` is Bahdanau et al. 2014 (bidirectional encoder, s_0 from the "
             "backward state, linear deep output; core/models/bahdanau.h); `luong` and `luong-local` are Luong et "
             "al. 2015's global and local-p attention (the score of s_t after the step, the attentional "
             "state h̃ = tanh(W_c [c ; s]), local window D = 4; core/models/luong.h). Seconds are single-threaded "
             "wall clock, mean per run.");
        for (size_t w = 0; w < by_width.size(); ++w) {
            const int H = args.widths[w];
            line("");
            line("## Width " + std::to_string(H));
            line("");
            line("| model | parameters | exact match | per character | seconds |");
            line("|:---|---:|---:|---:|---:|");
            for (const Summary& s : by_width[w])
                line("| " + s.label + " | " + std::to_string(s.parameters) + " | " + spread_text(s.exact) +
                     " | " + spread_text(s.per_char) + " | " + fixed(s.seconds, 1) + " |");
            line("");
            line("Per output position (mean over the seeds):");
            line("");
            line("| model | y | y | y | y | - | m | m | - | d | d |");
            line("|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for (const Summary& s : by_width[w]) {
                std::string cells;
                for (double a : s.per_position) cells += " " + fixed(a, 3) + " |";
                line("| " + s.label + " |" + cells);
            }
            const std::vector<Summary>& all = by_width[w];
            line("");
            line("Reading at width " + std::to_string(H) + " (computed from the table):");
            line("");
            line(compare(find(all, "bahdanau"), find(all, "attention (today's: unidirectional, additive, s_{t-1})"),
                         "Bahdanau's model against today's (the bidirectional encoder, with s_0 and the deep "
                         "output that come with it)", args.seeds));
            line(compare(find(all, "luong general + input feeding"), find(all, "luong general"),
                         "Input feeding (luong general with it against without)", args.seeds));
            line(compare(find(all, "luong-local general + input feeding"), find(all, "luong-local general"),
                         "Input feeding with the local window", args.seeds));
            line(compare(find(all, "luong-local general"), find(all, "luong general"),
                         "The local window (luong-local general against luong general)", args.seeds));
            line(compare(find(all, "luong general"), find(all, "luong dot"), "Luong's general score against dot", args.seeds));
            line(compare(find(all, "luong concat"), find(all, "luong general"), "Luong's concat score against general", args.seeds));
        }

        SweepHeader header = sweep_header(args, data);
        header.widths.assign(args.widths.begin(), args.widths.begin() + long(by_width.size()));
        nlohmann::json out = sweep_header_json(header);
        out["runs"] = runs;
        out["summary"] = summaries;
        return files.write(out, md) ? md : std::string();
    };
    std::string md;
    for (int H : args.widths) {
        std::vector<Summary> row;
        for (const Variant& v : variants(H)) {
            Summary s{v.label, v.model};
            for (int k = 0; k < args.seeds; ++k) {
                RunOptions o;
                o.model = v.model;
                o.epochs = args.epochs;
                o.seed = args.seed + uint64_t(k);
                o.data_seed = args.data_seed;
                o.learning_rate = args.learning_rate;
                char label[96];
                std::snprintf(label, sizeof label, "%-55s width %4d seed %llu: ", v.label, H,
                              (unsigned long long)o.seed);
                const std::optional<RunResult> r = sweep_run(o, label, data);
                if (!r) return 1;
                const Metrics& m = r->metrics;
                runs.push_back(run_json(o, *r));
                s.parameters = r->parameters;
                s.exact.add(m.exact, args.seeds);
                s.per_char.add(m.per_char, args.seeds);
                for (int t = 0; t < output_length; ++t)
                    s.per_position[size_t(t)] += m.per_position[size_t(t)] / args.seeds;
                s.seconds += r->train_seconds / args.seeds;
            }
            summaries.push_back({{"label", s.label},
                                 {"model", decoder_name(s.model.decoder)},
                                 {"scorer", model_scorer_name(s.model.decoder, s.model.scorer)},
                                 {"input_feeding", s.model.input_feeding},
                                 {"width", H},
                                 {"seeds", args.seeds},
                                 {"parameters", s.parameters},
                                 {"exact_mean", s.exact.mean},
                                 {"exact_min", s.exact.lo},
                                 {"exact_max", s.exact.hi},
                                 {"per_char_mean", s.per_char.mean},
                                 {"per_char_min", s.per_char.lo},
                                 {"per_char_max", s.per_char.hi},
                                 {"per_position_mean", s.per_position},
                                 {"train_seconds_mean", s.seconds}});
            row.push_back(s);
        }
        by_width.push_back(row);
        md = write_files();
        if (md.empty()) return 1;
    }
    files.print(md);
    return 0;
}

}  // namespace lb::cli
