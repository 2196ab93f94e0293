// web/lab/analysis.h — everything the map and probe figures show of one string, for one model:
// its output, its attention map (a Transformer's per head too, and its encoder's
// self-attention), what blanking each input character does (occlusion) and the gradient path.
// Computed once per (model, its weights, string, gradient target) and kept: the alignment,
// probes and Transformer-maps figures only read it, and none of them decodes.
//
// And the map of one input of any task (TaskMap) that the "checked" figure draws against the
// task's known alignment: teacher-forced on a held-out example's target, or greedily decoded from
// what a reader typed.
//
// Legend: T output characters (10), S input characters, A heads.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "data/alignment_scores.h"
#include "lab.h"
#include "models/attention_override.h"

namespace lb::web {

// A string a model reads: its text and its tokens, checked once where it came in (a typed date
// where it is typed, the held-out split and the lesson's example by the generator).
struct ModelInput {
    std::string text;
    std::vector<int> tokens;
};
// A string of the generator's (the held-out split, the lesson's example): known to be readable.
ModelInput generated_input(const std::string& text);
ModelInput generated_input(const Task& task, const std::string& text);  // of any task

struct Analysis {
    std::string output;                    // [T] greedy decoding
    std::vector<float> attention;          // [T, S]; a Transformer's cross-attention, mean over heads;
                                           // empty for the plain model
    int heads = 0;                         // A: a Transformer's; else 0
    std::vector<float> head_attention;     // [A, T, S] each head's
    std::vector<float> self_attention;     // [A, S, S] the encoder's: row i = what input i attends to
    std::vector<float> self_mean;          // [S, S] its mean over heads
    std::vector<std::string> occluded;     // [S] the output with input j blanked
    std::vector<float> changed;            // [T, S] 1 where blanking input j changes output t
    std::string gradient_target;           // the target the gradient path's loss is taken against
    std::vector<float> gradient_total;     // [S] ‖∂loss/∂h_j‖; empty: the model has no gradient path
    std::vector<float> gradient_direct;    // [S] the part that reaches h_j directly
};

// The analysis of `input` by `model.model` (non-null); the gradient path's loss is taken against
// `gradient_target`, or the model's own output when it is "". Kept for the last few asked.
std::shared_ptr<const Analysis> analyse(const ModelRead& model, const ModelInput& input,
                                        const std::string& gradient_target = "");

// "What if the decoder had looked elsewhere?": one step's attention moved evenly onto the input
// positions first..last, the string decoded again from there (core/models/counterfactual.h).
struct Move {
    int step = -1;              // the output step whose attention moves; -1: none
    int first = 0, last = 0;    // the input positions it moves onto, evenly
    int head = every_head;      // a Transformer's cross-attention head (0-based), or every head
    bool operator==(const Move&) const = default;
};
struct WhatIf {
    std::string output;         // [T] what the decoder writes after the move
    std::vector<float> attention;  // [T, S] its map: row `step` is the moved weights (a
                                   // Transformer's: the mean over heads)
    int heads = 0;              // A: a Transformer's; else 0
    std::vector<float> head_attention;  // [A, T, S] each head's map after the move
    std::vector<int> changed;   // the output steps whose character changed
    std::string error;          // why the move was refused ("" = it was not); the rest is empty then
};
// The move's decoding of `input` by `model.model` (non-null, a model with attention); a move the
// core refuses comes back as its message. Kept for the last few asked.
std::shared_ptr<const WhatIf> what_if(const ModelRead& model, const ModelInput& input, const Move& move);

// One map of a task's model, as the checked figure draws it: rows are output tokens, columns
// input tokens (characters, or a translation's words). Legend here: T rows, S columns.
struct TaskMap {
    std::vector<std::string> rows;         // [T] the target's tokens (forced) or the greedy output's
    std::vector<std::string> columns;      // [S] the input's tokens
    std::vector<float> attention;          // [T, S]; a Transformer's cross-attention, mean over heads
    int heads = 0;                         // A: a Transformer's; else 0
    std::vector<float> head_attention;     // [A, T, S] each head's
    std::string written;                   // what greedy decoding writes from this input
    bool forced = false;                   // teacher-forced on a known target: links and scores below
    std::vector<AlignmentLink> links;      // the example's known alignment (forced only)
    AlignmentCounts scores;                // the map scored against the links (core's score_alignment)
};
// The teacher-forced map of `example` (a held-out example of the model's task) by `model.model`
// (non-null, a model with attention), scored against its links. Kept for the last few asked.
std::shared_ptr<const TaskMap> forced_task_map(const ModelRead& model, const Example& example);
// The greedy decoding's map of a reader's input (checked by encode_user_input for the model's
// task): no links, no scores. Rows: the tokens written before the end token. Kept likewise.
std::shared_ptr<const TaskMap> typed_task_map(const ModelRead& model, const ModelInput& input);

}  // namespace lb::web
