// `lookback sweep --alignment [--task WORD] [--seeds N]`: every model of the page at width 64 on
// one task, over seeds, each attention map scored against the alignment the task knows
// (docs/tasks.md, "Scores") beside a map no model made (the diagonal guess), with BLEU for a task
// of words — written as DIR/alignment-TASK.json and DIR/alignment-TASK.md, after each model (a
// long sweep leaves what it finished behind).
#include <cstdio>

#include "cli/commands.h"
#include "data/alignment_scores.h"

namespace lb::cli {

namespace {

constexpr int width = 64;

// The models, by the name the page and the runs carry: each kind with the scorer it was published
// with (Luong's local-p with its general score, as in published.md).
struct Row {
    const char* name;
    DecoderKind decoder;
    Scorer scorer;
    Memory memory;
};
constexpr Row rows[] = {
    {"plain", DecoderKind::plain, Scorer::additive, Memory::all},
    {"attention", DecoderKind::attention, Scorer::additive, Memory::all},
    {"bahdanau", DecoderKind::bahdanau, Scorer::additive, Memory::all},
    {"luong", DecoderKind::luong, Scorer::general, Memory::all},
    {"luong-local", DecoderKind::luong_local, Scorer::general, Memory::all},
    {"transformer-all", DecoderKind::transformer, Scorer::additive, Memory::all},
    {"transformer-first", DecoderKind::transformer, Scorer::additive, Memory::first},
};

// The alignment scores of a split, over seeds.
struct MapSpread {
    Spread aer, peak_hit, peak_near, mass;
    void add(const AlignmentScores& a, int n) {
        aer.add(a.aer(), n), peak_hit.add(a.peak_hit_rate(), n);
        peak_near.add(a.peak_near_rate(), n), mass.add(a.mean_linked_mass(), n);
    }
};

nlohmann::json scores_json(const AlignmentScores& a) {
    return {{"aer", a.aer()}, {"peak_hit_rate", a.peak_hit_rate()}, {"peak_near_rate", a.peak_near_rate()},
            {"linked_mass", a.mean_linked_mass()}, {"steps", a.totals.steps}};
}

nlohmann::json map_spread_json(const MapSpread& m) {
    return {{"aer", spread_json(m.aer)}, {"peak_hit_rate", spread_json(m.peak_hit)},
            {"peak_near_rate", spread_json(m.peak_near)}, {"linked_mass", spread_json(m.mass)}};
}

std::string map_cells(const MapSpread& m) {
    return spread_text(m.aer) + " | " + spread_text(m.peak_hit) + " | " + spread_text(m.peak_near) + " | " +
           spread_text(m.mass);
}

}  // namespace

int alignment_sweep(const SweepArgs& args) {
    const Task& task = *args.task;
    const SweepFiles files(args.out_dir, "alignment-" + task.name);
    if (!files.writable()) return 1;  // before the training, not after
    const Splits data = task.make_splits(args.data_seed, task.train_size, task.held_out_size);
    const bool words = task.output.words;
    const int n = args.seeds;
    const AlignmentScores guess = diagonal_guess_scores(task, data.held_out);

    std::vector<uint64_t> seeds;
    for (int k = 0; k < n; ++k) seeds.push_back(args.seed + uint64_t(k));
    nlohmann::json runs = nlohmann::json::array(), summary = nlohmann::json::array();
    std::string md_results, md_maps, md_groups, md_heads, written;  // written: the last markdown saved
    const std::string seeds_text = std::to_string(args.seed) + "–" + std::to_string(args.seed + uint64_t(n) - 1);

    auto markdown = [&] {
        std::string md = "# Maps checked against the known alignment: " + task.name + "\n\n";
        md += "Written by `lookback sweep --alignment --task " + task.name + "`: width 64, " +
              std::to_string(args.epochs) + " epochs, Adam at " + fixed(args.learning_rate, 4) +
              ", batch 64, seeds " + seeds_text + " (initialisation and shuffling), dataset seed " +
              std::to_string(args.data_seed) + ", " + std::to_string(data.train.size()) + " training and " +
              std::to_string(data.held_out.size()) +
              " held-out examples (`docs/tasks.md`). Every model has the same settings; `luong` and "
              "`luong-local` score with Luong's general score. Mean over the seeds, (lowest–highest) in "
              "brackets; seconds are single-threaded wall clock, mean per run.\n\n";
        md += "## Greedy decoding on the held-out split\n\n";
        md += std::string("| model | parameters | exact match | per ") + (words ? "word" : "character") +
              (words ? " | BLEU" : "") + " | seconds |\n|:---|---:|---:|---:|" + (words ? "---:|" : "") +
              "---:|\n" + md_results;
        md += "\n## The maps against the known alignment\n\n"
              "Read under teacher forcing on each held-out target, over the steps whose output token has a "
              "link (`docs/tasks.md`): AER from each step's peak (lower is better), the share of peaks on a "
              "linked input position and within one position of one, and the mean attention weight on "
              "linked positions. A Transformer's map is the mean of its heads. The diagonal guess is no "
              "model: step t of n looks wholly at input position round(t·(m−1)/(n−1)).\n\n"
              "| map | AER | peak on a link | within one | mass on links |\n|:---|---:|---:|---:|---:|\n" +
              md_maps + "| diagonal guess | " + fixed(guess.aer()) + " | " + fixed(guess.peak_hit_rate()) +
              " | " + fixed(guess.peak_near_rate()) + " | " + fixed(guess.mean_linked_mass()) + " |\n";
        md += "\n## Per " + std::string(words ? "word" : "character") + " accuracy by group (mean over the seeds)\n\n| model";
        for (const std::string& g : task.group_names) md += " | " + g;
        md += " |\n|:---";
        for (size_t g = 0; g < task.group_names.size(); ++g) md += "|---:";
        md += "|\n" + md_groups;
        if (!md_heads.empty())
            md += "\n## The Transformers' cross-attention, head by head (AER)\n\n"
                  "Heads are numbered within a run; seeds do not share them.\n\n"
                  "| model | seed | heads' AER | mean of the heads' maps |\n|:---|---:|:---|---:|\n" + md_heads;
        return md;
    };

    for (const Row& row : rows) {
        Spread exact, per_token, bleu, seconds;
        MapSpread map;
        std::vector<double> per_group(task.group_names.size(), 0.0);
        long parameters = 0;
        bool has_map = false;
        for (int k = 0; k < n; ++k) {
            RunOptions o;
            o.model.task = &task;
            o.model.decoder = row.decoder;
            o.model.scorer = row.scorer;
            o.model.memory = row.memory;
            o.model.H = width;
            o.epochs = args.epochs;
            o.seed = args.seed + uint64_t(k);
            o.data_seed = args.data_seed;
            o.learning_rate = args.learning_rate;
            o.progress = stdout_is_terminal();
            char label[80];
            std::snprintf(label, sizeof label, "%-11s %-17s seed %llu ", task.name.c_str(), row.name,
                          (unsigned long long)o.seed);
            const std::optional<RunResult> r = sweep_run(o, label, data);
            if (!r) return 1;
            nlohmann::json run = run_json(o, *r);
            run["model"] = row.name;
            runs.push_back(run);
            const Metrics& m = r->metrics;
            exact.add(m.exact, n), per_token.add(m.per_char, n), seconds.add(r->train_seconds, n);
            if (words) bleu.add(r->metrics.bleu, n);
            for (size_t g = 0; g < per_group.size(); ++g) per_group[g] += m.per_format[g] / n;
            parameters = r->parameters;
            if (r->alignment) {
                has_map = true;
                map.add(r->alignment->map, n);
                if (!r->alignment->heads.empty()) {
                    std::string cells;
                    for (const AlignmentScores& h : r->alignment->heads) cells += (cells.empty() ? "" : ", ") + fixed(h.aer());
                    md_heads += std::string("| ") + row.name + " | " + std::to_string(o.seed) + " | " + cells +
                                " | " + fixed(r->alignment->map.aer()) + " |\n";
                }
            }
        }
        nlohmann::json s = {{"model", row.name},           {"parameters", parameters},
                            {"exact", spread_json(exact)}, {"per_char", spread_json(per_token)},
                            {"per_group", per_group},      {"train_seconds", seconds.mean}};
        if (words) s["bleu"] = spread_json(bleu);
        if (has_map) s["alignment"] = map_spread_json(map);
        summary.push_back(s);
        md_results += std::string("| ") + row.name + " | " + std::to_string(parameters) + " | " +
                      spread_text(exact) + " | " + spread_text(per_token) + (words ? " | " + spread_text(bleu) : "") +
                      " | " + fixed(seconds.mean, 1) + " |\n";
        if (has_map) md_maps += std::string("| ") + row.name + " | " + map_cells(map) + " |\n";
        md_groups += std::string("| ") + row.name;
        for (double a : per_group) md_groups += " | " + fixed(a, 3);
        md_groups += " |\n";

        const nlohmann::json out = {{"task", task.name},
                                    {"width", width},
                                    {"epochs", args.epochs},
                                    {"learning_rate", args.learning_rate},
                                    {"seeds", seeds},
                                    {"data_seed", args.data_seed},
                                    {"train_size", data.train.size()},
                                    {"held_out_size", data.held_out.size()},
                                    {"group_names", task.group_names},
                                    {"diagonal_guess", scores_json(guess)},
                                    {"summary", summary},
                                    {"runs", runs}};
        written = markdown();
        if (!files.write(out, written)) return 1;
    }
    files.print(written);
    return 0;
}

}  // namespace lb::cli
