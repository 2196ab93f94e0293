// `lookback worked-example [--json]`: the lesson's one-step attention table,
// computed by the core.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "lesson/attention_step.h"
#include "cli/commands.h"

namespace lb::cli {

bool parse_worked_example_args(const Args& args) {
    bool json = false;
    for (const std::string& a : args) {
        if (a == "--json") json = true;
        else throw UsageError("unknown option " + shown(a));
    }
    return json;
}

int worked_example(const Args& args) {
    bool json = false;
    try {
        json = parse_worked_example_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), "lookback worked-example [--json]");
    }
    const Mat hs = {{1, 0}, {0, 1}, {1, 1}};
    const Vec s = {0.9, 0.2};
    const AttentionStep step = attention_step(Scorer::dot, s, hs);
    if (json) {
        nlohmann::json out = {{"scores", step.scores}, {"exp", step.exps},
                              {"weights", step.weights}, {"denominator", step.denominator},
                              {"context", step.context}, {"lengths", step.lengths},
                              {"cosines", step.cosines}};
        std::printf("%s\n", out.dump().c_str());
        return 0;
    }
    std::printf("h1 = (1, 0), h2 = (0, 1), h3 = (1, 1), s = (0.9, 0.2), score = dot\n\n");
    std::printf("  i   |h_i|   cos(s,h_i)   e_i = s·h_i   exp(e_i)    α_i\n");
    for (size_t i = 0; i < hs.size(); ++i)
        std::printf("  %zu   %5.3f   %10.3f   %11.3f   %8.3f   %6.3f\n", i + 1, step.lengths[i],
                    step.cosines[i], step.scores[i], step.exps[i], step.weights[i]);
    std::printf("\ndenominator Σ exp(e_j) = %.3f\ncontext c = Σ α_i h_i = (%.3f, %.3f)\n",
                step.denominator, step.context[0], step.context[1]);
    return 0;
}

}  // namespace lb::cli
