// core/data/draw.cpp — see draw.h.
#include "data/draw.h"

#include <stdexcept>
#include <string>
#include <unordered_set>

namespace lb {

Splits draw_distinct_splits(uint64_t seed, int train_size, int held_out_size, const char* generator,
                            const std::function<Example(Rng&, int i)>& draw) {
    if (train_size < 0 || held_out_size < 0)
        throw std::invalid_argument(std::string(generator) + ": negative size");
    Rng rng(seed);
    std::unordered_set<std::string> seen;
    auto draw_split = [&](int count, std::vector<Example>& out) {
        out.reserve(size_t(count));
        for (int i = 0; i < count; ++i) {
            for (;;) {
                Example ex = draw(rng, i);
                if (seen.insert(ex.input).second) {
                    out.push_back(std::move(ex));
                    break;
                }
            }
        }
    };
    Splits splits;
    draw_split(held_out_size, splits.held_out);
    draw_split(train_size, splits.train);
    return splits;
}

}  // namespace lb
