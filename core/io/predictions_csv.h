// core/io/predictions_csv.h — a split's predictions as rows a reader can sort and read, and as
// CSV (RFC 4180), for `lookback train --predictions` and `lookback eval` and for the page. No
// file is touched in here: the caller writes the text where it belongs.
#pragma once
#include <string>
#include <vector>

#include "data/task.h"

namespace lb {

// One example and what the model wrote for it. Strings are as the task writes them: characters,
// or words separated by single spaces.
struct PredictionRow {
    std::string input, target, output;
    bool exact;         // the output is the target
    int edit_distance;  // token_edit_distance(output, target) in the task's output tokens
    // One character a target token: '=' where the output has the same token at that position,
    // 'x' where it has another or none; then one '+' a token the output has past the target's end.
    std::string marks;
};

// Throws std::invalid_argument when the counts differ.
std::vector<PredictionRow> prediction_rows(const Task& task, const std::vector<Example>& examples,
                                           const std::vector<std::string>& predictions);

// The header `input,target,output,exact,edit_distance,token_marks`, then one line a row; exact is
// 1 or 0. A field holding a comma, a double quote, CR or LF, or a space at either end is quoted,
// its double quotes doubled. UTF-8, LF line ends.
std::string predictions_csv(const std::vector<PredictionRow>& rows);

}  // namespace lb
