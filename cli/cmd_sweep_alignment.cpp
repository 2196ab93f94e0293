// `lookback sweep --alignment [--task WORD] [--seeds N]`: every model of the page at width 64 on
// one task, over seeds, each attention map scored against the alignment the task knows
// (docs/tasks.md, "Scores") beside a map no model made (the diagonal guess), with BLEU for a task
// of words — written as DIR/alignment-TASK.json and DIR/alignment-TASK.md, after each model (a
// long sweep leaves what it finished behind).
#include <cstdio>

#include "cli/sweeps.h"
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

nlohmann::json map_spread_json(const MapSpread& m) {
    return {{"aer", spread_json(m.aer)}, {"peak_hit_rate", spread_json(m.peak_hit)},
            {"peak_near_rate", spread_json(m.peak_near)}, {"linked_mass", spread_json(m.mass)}};
}

std::string map_cells(const MapSpread& m) {
    return spread_text(m.aer) + " | " + spread_text(m.peak_hit) + " | " + spread_text(m.peak_near) + " | " +
           spread_text(m.mass);
}

// Run: one model on the task over the seeds; nullopt if the trainer stopped a run.
std::optional<std::vector<AlignmentRow>> run_model(const Row& row, const SweepArgs& args,
                                                   const std::vector<uint64_t>& seeds, const Splits& data) {
    const Task& task = *args.task;
    std::vector<AlignmentRow> runs;
    for (uint64_t seed : seeds) {
        ModelConfig model;
        model.task = &task;
        model.decoder = row.decoder;
        model.scorer = row.scorer;
        model.memory = row.memory;
        model.H = width;
        const RunOptions o = sweep_options(args, model, seed);
        char label[80];
        std::snprintf(label, sizeof label, "%-11s %-17s seed %llu ", task.name.c_str(), row.name,
                      (unsigned long long)seed);
        const std::optional<RunResult> r = sweep_run(o, label, data);
        if (!r) return std::nullopt;
        runs.push_back(alignment_row(row.name, o, *r));
    }
    return runs;
}

}  // namespace

AlignmentRow alignment_row(const char* model, const RunOptions& options, const RunResult& result) {
    const Metrics& m = result.metrics;
    AlignmentRow row{model,  options.seed, result.parameters,   m.exact, m.per_char, m.bleu,
                     result.train_seconds, m.per_format, {}, {}, run_json(options, result)};
    row.json["model"] = model;
    if (result.alignment) {
        row.map = map_scores(result.alignment->map);
        for (const AlignmentScores& h : result.alignment->heads) row.head_aer.push_back(h.aer());
    }
    return row;
}

AlignmentRow alignment_row_of(const nlohmann::json& run) {
    AlignmentRow row{run.at("model").get<std::string>(),
                     run.at("seed").get<uint64_t>(),
                     run.at("parameters").get<long>(),
                     run.at("exact").get<double>(),
                     run.at("per_char").get<double>(),
                     run.contains("bleu") ? run["bleu"].get<double>() : NAN,
                     run.at("train_seconds").get<double>(),
                     run.at("per_format").get<std::vector<double>>(),
                     {},
                     {},
                     run};
    if (run.contains("alignment")) row.map = map_scores_of(run["alignment"]);
    if (run.contains("alignment_per_head"))
        for (const nlohmann::json& h : run["alignment_per_head"]) row.head_aer.push_back(h.at("aer").get<double>());
    return row;
}

AlignmentSweepResults alignment_sweep_results(const SweepHeader& header, const Task& task, const MapScores& guess,
                                              const std::vector<AlignmentRow>& rows) {
    AlignmentSweepResults r{header, &task, guess, {}, rows};
    const int n = int(header.seeds.size());
    for (const AlignmentRow& row : rows) {
        if (r.summary.empty() || r.summary.back().model != row.model)
            r.summary.push_back({row.model, 0, {}, {}, {}, {}, std::vector<double>(task.group_names.size(), 0.0), {}});
        AlignmentSummary& s = r.summary.back();
        s.exact.add(row.exact, n), s.per_char.add(row.per_char, n), s.seconds.add(row.train_seconds, n);
        if (task.output.words) s.bleu.add(row.bleu, n);
        for (size_t g = 0; g < s.per_group.size(); ++g) s.per_group[g] += row.per_group[g] / n;
        s.parameters = row.parameters;
        if (row.map) {
            if (!s.map) s.map.emplace();
            s.map->aer.add(row.map->aer, n), s.map->peak_hit.add(row.map->peak_hit_rate, n);
            s.map->peak_near.add(row.map->peak_near_rate, n), s.map->mass.add(row.map->linked_mass, n);
        }
    }
    return r;
}

AlignmentSweepResults alignment_sweep_results_of(const nlohmann::json& json) {
    std::vector<AlignmentRow> rows;
    for (const nlohmann::json& run : json.at("runs")) rows.push_back(alignment_row_of(run));
    const SweepHeader header = sweep_header_of(json);
    return alignment_sweep_results(header, find_task(header.task), map_scores_of(json.at("diagonal_guess")), rows);
}

nlohmann::json alignment_sweep_json(const AlignmentSweepResults& r) {
    nlohmann::json runs = nlohmann::json::array(), summary = nlohmann::json::array();
    for (const AlignmentRow& row : r.rows) runs.push_back(row.json);
    for (const AlignmentSummary& s : r.summary) {
        nlohmann::json j = {{"model", s.model},           {"parameters", s.parameters},
                            {"exact", spread_json(s.exact)}, {"per_char", spread_json(s.per_char)},
                            {"per_group", s.per_group},      {"train_seconds", s.seconds.mean}};
        if (r.task->output.words) j["bleu"] = spread_json(s.bleu);
        if (s.map) j["alignment"] = map_spread_json(*s.map);
        summary.push_back(j);
    }
    nlohmann::json json = sweep_header_json(r.header);
    json["group_names"] = r.task->group_names;
    json["diagonal_guess"] = map_scores_json(r.guess);
    json["summary"] = summary;
    json["runs"] = runs;
    return json;
}

std::string alignment_sweep_markdown(const AlignmentSweepResults& r) {
    const SweepHeader& h = r.header;
    const Task& task = *r.task;
    const bool words = task.output.words;
    std::string md = "# Maps checked against the known alignment: " + task.name + "\n\n";
    md += "Written by `lookback sweep --alignment --task " + task.name + "`: width " + std::to_string(width) + ", " +
          std::to_string(h.epochs) + " epochs, Adam at " + fixed(h.learning_rate.value_or(0.0f), 4) +
          ", batch 64, seeds " + h.seeds_text() + " (initialisation and shuffling), dataset seed " +
          std::to_string(h.data_seed) + ", " + std::to_string(h.train_size) + " training and " +
          std::to_string(h.held_out_size) +
          " held-out examples (`docs/tasks.md`). Every model has the same settings; `luong` and "
          "`luong-local` score with Luong's general score. Mean over the seeds, (lowest–highest) in "
          "brackets; seconds are single-threaded wall clock, mean per run.\n\n";
    md += "## Greedy decoding on the held-out split\n\n";
    md += std::string("| model | parameters | exact match | per ") + (words ? "word" : "character") +
          (words ? " | BLEU" : "") + " | seconds |\n|:---|---:|---:|---:|" + (words ? "---:|" : "") + "---:|\n";
    for (const AlignmentSummary& s : r.summary)
        md += "| " + s.model + " | " + std::to_string(s.parameters) + " | " + spread_text(s.exact) + " | " +
              spread_text(s.per_char) + (words ? " | " + spread_text(s.bleu) : "") + " | " +
              fixed(s.seconds.mean, 1) + " |\n";
    md += "\n## The maps against the known alignment\n\n"
          "Read under teacher forcing on each held-out target, over the steps whose output token has a "
          "link (`docs/tasks.md`): AER from each step's peak (lower is better), the share of peaks on a "
          "linked input position and within one position of one, and the mean attention weight on "
          "linked positions. A Transformer's map is the mean of its heads. The diagonal guess is no "
          "model: step t of n looks wholly at input position round(t·(m−1)/(n−1)).\n\n"
          "| map | AER | peak on a link | within one | mass on links |\n|:---|---:|---:|---:|---:|\n";
    for (const AlignmentSummary& s : r.summary)
        if (s.map) md += "| " + s.model + " | " + map_cells(*s.map) + " |\n";
    md += "| diagonal guess | " + fixed(r.guess.aer) + " | " + fixed(r.guess.peak_hit_rate) + " | " +
          fixed(r.guess.peak_near_rate) + " | " + fixed(r.guess.linked_mass) + " |\n";
    md += "\n## Per " + std::string(words ? "word" : "character") + " accuracy by group (mean over the seeds)\n\n| model";
    for (const std::string& g : task.group_names) md += " | " + g;
    md += " |\n|:---";
    for (size_t g = 0; g < task.group_names.size(); ++g) md += "|---:";
    md += "|\n";
    for (const AlignmentSummary& s : r.summary) {
        md += "| " + s.model;
        for (double a : s.per_group) md += " | " + fixed(a, 3);
        md += " |\n";
    }
    std::string heads;
    for (const AlignmentRow& row : r.rows) {
        if (row.head_aer.empty()) continue;
        std::string cells;
        for (double aer : row.head_aer) cells += (cells.empty() ? "" : ", ") + fixed(aer);
        heads += "| " + row.model + " | " + std::to_string(row.seed) + " | " + cells + " | " + fixed(row.map->aer) +
                 " |\n";
    }
    if (!heads.empty())
        md += "\n## The Transformers' cross-attention, head by head (AER)\n\n"
              "Heads are numbered within a run; seeds do not share them.\n\n"
              "| model | seed | heads' AER | mean of the heads' maps |\n|:---|---:|:---|---:|\n" + heads;
    return md;
}

// Run, then the results rendered again after each model: a long sweep leaves what it finished behind.
int alignment_sweep(const SweepArgs& args) {
    const Task& task = *args.task;
    const SweepFiles files(args.out_dir, "alignment-" + task.name);
    if (!files.writable()) return 1;  // before the training, not after
    const Splits data = task.make_splits(args.data_seed, task.train_size, task.held_out_size);
    const MapScores guess = map_scores(diagonal_guess_scores(task, data.held_out));
    SweepHeader header = sweep_header(args, data);
    header.task = task.name;
    header.width = width;

    std::vector<AlignmentRow> done;
    std::string md;
    for (const Row& row : rows) {
        const std::optional<std::vector<AlignmentRow>> runs = run_model(row, args, header.seeds, data);
        if (!runs) return 1;
        done.insert(done.end(), runs->begin(), runs->end());
        const AlignmentSweepResults results = alignment_sweep_results(header, task, guess, done);
        md = alignment_sweep_markdown(results);
        if (!files.write(alignment_sweep_json(results), md)) return 1;
    }
    files.print(md);
    return 0;
}

}  // namespace lb::cli
