// web/lab/analysis.h — everything the map and probe figures show of one string, for one model:
// its output, its attention map (a Transformer's per head too, and its encoder's
// self-attention), what blanking each input character does (occlusion) and the gradient path.
// Computed once per (model, its weights, string, gradient target) and kept: the alignment,
// probes and Transformer-maps figures only read it, and none of them decodes.
//
// Legend: T output characters (10), S input characters, A heads.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "lab.h"

namespace lb::web {

// A string a model reads: its text and its tokens, checked once where it came in (a typed date
// where it is typed, the held-out split and the lesson's example by the generator).
struct ModelInput {
    std::string text;
    std::vector<int> tokens;
};
// A string of the generator's (the held-out split, the lesson's example): known to be readable.
ModelInput generated_input(const std::string& text);

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

}  // namespace lb::web
