// tests/copy_task.h — a fourth task that lives only in the tests: copy a string of the letters a
// to e (3 to 8 of them). Made as docs/adding-a-task.md says a task's file makes its row, and
// added to the table while a test runs (CopyTaskInTable), so the tests can show that everything
// downstream of the table — the settings schema, the weights, the page's Lab and figures — takes a
// task it has never seen, with nothing to resize.
#pragma once
#include <string>

#include "data/draw.h"
#include "data/task.h"

namespace lb::testing {

inline Example copy_example(const std::string& input) {
    Example ex{input, input, int(input.size()) >= 6, {}};
    for (int t = 0; t < int(input.size()); ++t) ex.alignment.push_back({t, t, true});
    return ex;
}

inline const Task& copy_task() {
    static const Task task = [] {
        Task t;
        t.name = "copy";
        t.summary = "a string of the letters a to e, copied";
        t.input = Vocabulary(false, {""});
        t.output = Vocabulary(false, {"", "<s>", "</s>"});
        for (char c = 'a'; c <= 'e'; ++c) {
            t.input.add(std::string(1, c));
            t.output.add(std::string(1, c));
        }
        t.max_input_tokens = 8;
        t.output_steps = 9;  // the longest target and its end token
        t.ends = true;
        t.train_size = 200;
        t.held_out_size = 40;
        t.group_names = {"3-5 letters", "6-8 letters"};
        t.example_input = "abcde";
        t.make_splits = [](uint64_t seed, int train_size, int held_out_size) {
            return draw_distinct_splits(seed, train_size, held_out_size, "copy", [](Rng& rng, int i) {
                std::string input(size_t(3 + 3 * (i % 2) + int(rng.below(3))), ' ');
                for (char& c : input) c = char('a' + rng.below(5));
                return copy_example(input);
            });
        };
        return t;
    }();
    return task;
}

// The copy task in the table for as long as it lives.
struct CopyTaskInTable : TaskInTable {
    CopyTaskInTable() : TaskInTable(&copy_task()) {}
};

}  // namespace lb::testing
