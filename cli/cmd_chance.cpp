// `lookback chance [--out DIR] [--data-seed N]`: what guessing scores on the held-out split, a
// property of the data and of no model (data/metrics.h, chance_baselines). Written as
// DIR/chance.json and DIR/chance.md: the yardstick the page reads the plain model's per-position
// accuracy against. Nothing is trained, so it takes a moment.
#include <cstdio>

#include "cli/commands.h"

namespace lb::cli {

namespace {

const char* const chance_usage =
    "lookback chance [--out DIR] [--data-seed N]\n"
    "  writes DIR/chance.json and DIR/chance.md (default DIR: assets): at each output position the\n"
    "  held-out split's most common character and its share, the per-character score of always\n"
    "  writing those characters, and the score of copying the year, writing both dashes and the most\n"
    "  common character elsewhere";

const char* const roles[output_length] = {"year 1", "year 2", "year 3", "year 4", "dash",
                                          "month 1", "month 2", "dash", "day 1", "day 2"};

// Always writing the most common character at every position, reading nothing: one fixed string,
// whose per-character accuracy is the mean of the ten shares (each position scores its share).
double constant_per_char(const ChanceBaselines& b) {
    double sum = 0;
    for (double share : b.majority_share) sum += share;
    return sum / output_length;
}

std::string markdown(const ChanceBaselines& b, uint64_t data_seed, size_t count) {
    std::string md = "# What guessing scores on the held-out split\n\nWritten by `lookback chance`: dataset seed " +
                     std::to_string(data_seed) + ", the " + std::to_string(count) +
                     " held-out strings (`docs/dataset.md`). At each output position, the character most targets "
                     "have there and the share that have it: a model that always writes that character scores that "
                     "share there, whatever it reads.\n\n| position | character | most common | share |\n"
                     "|---:|:---|:---:|---:|\n";
    for (int t = 0; t < output_length; ++t)
        md += "| " + std::to_string(t + 1) + " | " + roles[t] + " | `" + b.majority_char[size_t(t)] + "` | " +
              fixed(b.majority_share[size_t(t)]) + " |\n";
    md += "\nAlways writing the most common character at every position (one fixed string, nothing read): per "
          "character " + fixed(constant_per_char(b)) + ".\n";
    md += "\nCopying the year, writing both dashes and the most common character at the four month and day "
          "positions: per character " + fixed(b.year_and_dashes_per_char) + ", exact match " +
          fixed(b.year_and_dashes_exact) + ".\n";
    return md;
}

}  // namespace

int chance(const Args& args) {
    std::string out_dir = "assets";
    uint64_t data_seed = 1;
    try {
        GivenSettings given;  // --data-seed, the settings schema's (settings/run_settings.h)
        for (size_t i = 0; i < args.size();) {
            std::string v;
            if (take_option(args, i, "--out", v)) {
                if (v.empty()) throw UsageError("--out needs a folder");
                out_dir = v;
            } else if (take_setting(args, i, {"data_seed"}, given)) {
                continue;
            } else {
                throw UsageError("unknown option " + shown(args[i]));
            }
        }
        data_seed = read_setting_flags(given).data_seed;
    } catch (const UsageError& e) {
        return usage_error(e.what(), chance_usage);
    }
    const SweepFiles files(out_dir, "chance");
    if (!files.writable()) return 1;
    const std::vector<Example> held_out = make_date_splits(data_seed).held_out;
    const ChanceBaselines b = chance_baselines(held_out);
    nlohmann::json characters = nlohmann::json::array();
    for (char c : b.majority_char) characters.push_back(std::string(1, c));
    const nlohmann::json out = {{"data_seed", data_seed},
                                {"held_out_size", held_out.size()},
                                {"majority_char", characters},
                                {"majority_share", b.majority_share},
                                {"constant_per_char", constant_per_char(b)},
                                {"year_and_dashes_per_char", b.year_and_dashes_per_char},
                                {"year_and_dashes_exact", b.year_and_dashes_exact}};
    const std::string md = markdown(b, data_seed, held_out.size());
    if (!files.write(out, md)) return 1;
    files.print(md);
    return 0;
}

}  // namespace lb::cli
