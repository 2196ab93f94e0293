// core/data/reversal.cpp — the reversal task's strings, splits and row of the task table. Only
// lb::Rng's integers decide what is drawn, so the strings are the same on every platform.
#include "data/reversal.h"

#include <stdexcept>
#include <string>

#include "data/draw.h"

namespace lb {

namespace {
constexpr char first_letter = 'a', last_letter = 'j';
constexpr int letter_count = last_letter - first_letter + 1;
constexpr int lengths_per_class =
    (reversal_longest - reversal_shortest + 1) / reversal_length_classes;
static_assert(lengths_per_class * reversal_length_classes ==
              reversal_longest - reversal_shortest + 1);
}  // namespace

int reversal_length_class(int length) {
    const int k = (length - reversal_shortest) / lengths_per_class;
    return k < 0 ? 0 : k >= reversal_length_classes ? reversal_length_classes - 1 : k;
}

Example reversal_example(std::string_view input) {
    if (input.empty()) throw std::invalid_argument("reversal_example: empty input");
    for (char c : input)
        if (c < first_letter || c > last_letter)
            throw std::invalid_argument("reversal_example: '" + std::string(input) +
                                        "' has a character outside a-j");
    Example ex;
    ex.input = std::string(input);
    ex.target = std::string(input.rbegin(), input.rend());
    const int n = int(input.size());
    ex.group = reversal_length_class(n);
    for (int t = 0; t < n; ++t) ex.alignment.push_back({t, n - 1 - t, true});
    return ex;
}

Splits make_reversal_splits(uint64_t seed, int train_size, int held_out_size) {
    // The smallest class alone holds 10^8 + ... + 10^12 strings: any int size can be drawn, and
    // a string already drawn is drawn again (rare: at least 10^8 strings a length).
    return draw_distinct_splits(seed, train_size, held_out_size, "make_reversal_splits", [](Rng& rng, int i) {
        const int length = reversal_shortest + (i % reversal_length_classes) * lengths_per_class +
                           int(rng.below(lengths_per_class));
        std::string input(size_t(length), ' ');
        for (char& c : input) c = char(first_letter + rng.below(letter_count));
        return reversal_example(input);
    });
}

const Task& reversal_task() {
    static const Task task = [] {
        Task t;
        t.name = "reversal";
        t.summary = "a string of the letters a to j, written backwards";
        t.input = Vocabulary(false, {""});
        t.output = Vocabulary(false, {"", "<s>", "</s>"});
        for (char c = first_letter; c <= last_letter; ++c) {
            t.input.add(std::string(1, c));
            t.output.add(std::string(1, c));
        }
        t.max_input_tokens = reversal_longest;
        t.output_steps = reversal_longest + 1;  // the longest target and its end token
        t.ends = true;
        t.train_size = reversal_train_size;
        t.held_out_size = reversal_held_out_size;
        for (int k = 0; k < reversal_length_classes; ++k) {
            const int lowest = reversal_shortest + k * lengths_per_class;
            t.group_names.push_back(std::to_string(lowest) + "-" +
                                    std::to_string(lowest + lengths_per_class - 1) + " letters");
        }
        t.example_input = "cabbagefaced";
        t.make_splits = make_reversal_splits;
        return t;
    }();
    return task;
}

}  // namespace lb
