// core/data/draw.h — the rule every task's generator follows when it draws its two splits: the
// held-out split first, so its strings depend only on the seed and its own size; then training;
// an input already drawn, in either split, is drawn again, so every input is distinct and no
// held-out input is in training. Only lb::Rng's integers decide, so the strings are the same on
// every platform.
#pragma once
#include <cstdint>
#include <functional>

#include "data/task.h"
#include "kernels/rng.h"

namespace lb {

// draw(rng, i) writes example i of a split (the generators use i to cycle through their groups).
// Throws std::invalid_argument, naming `generator`, for a negative size.
Splits draw_distinct_splits(uint64_t seed, int train_size, int held_out_size, const char* generator,
                            const std::function<Example(Rng&, int i)>& draw);

}  // namespace lb
