// core/data/reversal.h — the reversal task (docs/tasks.md): a string of the letters a to j,
// written backwards. Its known alignment is exact and fully sure (output position t reads input
// position n−1−t), so it is the cleanest place to see whether attention finds what it must: the
// map of a model that has learnt the task is the anti-diagonal.
//
// Lengths are those of the date task's inputs, 8 to 27 characters, in four classes of five
// lengths (Example::group 0..3); example i of a split is in class i % 4, its length uniform in
// the class.
#pragma once
#include <cstdint>
#include <string_view>

#include "data/task.h"

namespace lb {

constexpr int reversal_shortest = 8, reversal_longest = 27;  // the date task's input lengths
constexpr int reversal_length_classes = 4;                   // 8–12, 13–17, 18–22, 23–27
constexpr int reversal_train_size = 6000, reversal_held_out_size = 1200;

const Task& reversal_task();

// The length class of an n-character input: (n − 8) / 5, kept within 0..3 for a reader's input
// shorter than 8.
int reversal_length_class(int length);

// The example for one input string (the target and its alignment). Throws std::invalid_argument
// for an empty string or a character outside a–j.
Example reversal_example(std::string_view input);

// Deterministic for a seed on every platform; every input distinct within and across the splits,
// the held-out split drawn first. Throws std::invalid_argument for a negative size.
Splits make_reversal_splits(uint64_t seed, int train_size = reversal_train_size,
                            int held_out_size = reversal_held_out_size);

}  // namespace lb
