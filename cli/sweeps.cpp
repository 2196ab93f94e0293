// cli/sweeps.cpp — what the sweeps (and the commands that write a table beside its JSON) share:
// numbers for a table, spreads over seeds, the two files, one run, and the JSON's header.
#include "cli/sweeps.h"

#include <cstdio>

namespace lb::cli {

std::string spread_text(const Spread& s) {
    return fixed(s.mean) + " (" + fixed(s.lo) + "–" + fixed(s.hi) + ")";
}

nlohmann::json spread_json(const Spread& s) { return {{"mean", s.mean}, {"min", s.lo}, {"max", s.hi}}; }

SweepFiles::SweepFiles(const std::string& dir, const std::string& name)
    : json_path(dir + "/" + name + ".json"), md_path(dir + "/" + name + ".md") {}

bool SweepFiles::writable() const { return can_write_all({md_path, json_path}); }

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

std::string SweepHeader::seeds_text() const {
    return std::to_string(seeds.front()) + "–" + std::to_string(seeds.back());
}

nlohmann::json sweep_header_json(const SweepHeader& h) {
    nlohmann::json json = {{"epochs", h.epochs},
                           {"data_seed", h.data_seed},
                           {"train_size", h.train_size},
                           {"held_out_size", h.held_out_size}};
    if (!h.task.empty()) json["task"] = h.task;
    if (h.width) json["width"] = *h.width;
    if (!h.widths.empty()) json["widths"] = h.widths;
    if (h.learning_rate) json["learning_rate"] = *h.learning_rate;
    if (h.seed) json["seed"] = *h.seed;
    if (!h.seeds.empty()) json["seeds"] = h.seeds;
    return json;
}

SweepHeader sweep_header_of(const nlohmann::json& json) {
    SweepHeader h;
    h.epochs = json.at("epochs").get<int>();
    h.data_seed = json.at("data_seed").get<uint64_t>();
    h.train_size = json.at("train_size").get<size_t>();
    h.held_out_size = json.at("held_out_size").get<size_t>();
    if (json.contains("task")) h.task = json["task"].get<std::string>();
    if (json.contains("width")) h.width = json["width"].get<int>();
    if (json.contains("widths")) h.widths = json["widths"].get<std::vector<int>>();
    if (json.contains("learning_rate")) h.learning_rate = json["learning_rate"].get<float>();
    if (json.contains("seed")) h.seed = json["seed"].get<uint64_t>();
    if (json.contains("seeds")) h.seeds = json["seeds"].get<std::vector<uint64_t>>();
    return h;
}

std::vector<uint64_t> seed_range(uint64_t first, int count) {
    std::vector<uint64_t> seeds;
    for (int k = 0; k < count; ++k) seeds.push_back(first + uint64_t(k));
    return seeds;
}

SweepHeader sweep_header(const SweepArgs& args, const Splits& data) {
    SweepHeader h;
    h.epochs = args.epochs;
    h.learning_rate = args.learning_rate;
    h.seeds = seed_range(args.seed, args.seeds);
    h.data_seed = args.data_seed;
    h.train_size = data.train.size();
    h.held_out_size = data.held_out.size();
    return h;
}

RunOptions sweep_options(const SweepArgs& args, const ModelConfig& model, uint64_t seed) {
    RunOptions o;
    o.model = model;
    o.epochs = args.epochs;
    o.seed = seed;
    o.data_seed = args.data_seed;
    o.learning_rate = args.learning_rate;
    o.progress = stdout_is_terminal();
    return o;
}

}  // namespace lb::cli
