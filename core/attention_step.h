// core/attention_step.h — one attention step on a handful of small vectors,
// computed in double precision for display: the worked example of the lesson
// and the figures that let a reader drag the vectors around.
//
// Legend: S source positions, D state width, A width of the additive scorer's
// hidden layer. The four steps: score, softmax, weighted sum (context).
// The scorers and their weights' names are attention.h's (W, W_e, W_d, v); the
// tests check this step against the batched attention on the same weights.
#pragma once
#include <vector>
#include "scorer.h"

namespace lb {

using Vec = std::vector<double>;
using Mat = std::vector<Vec>;  // row-major, Mat[row][col]

struct ScorerParams {
    Mat W;    // general: [D, D]
    Mat W_e;  // additive, applied to each encoder state h_i: [A, D]
    Mat W_d;  // additive, applied to the decoder state s: [A, D]
    Vec v;    // additive: [A]
};

struct AttentionStep {
    Vec scores;          // e_i = score(s, h_i)             [S]
    Vec exps;            // exp(e_i)                        [S]
    double denominator;  // Σ_j exp(e_j)
    Vec weights;         // α_i = exp(e_i) / Σ_j exp(e_j)   [S]
    Vec context;         // c = Σ_i α_i h_i                 [D]
};

// e(s, h) for one encoder state. Throws std::invalid_argument on shape mismatch.
double score(Scorer scorer, const Vec& s, const Vec& h, const ScorerParams& params);

// The whole step over encoder states hs [S][D]. Throws std::invalid_argument
// if S == 0 or shapes disagree. Weights are computed with the max score
// subtracted, so they stay finite even where exp(e_i) itself overflows.
AttentionStep attention_step(Scorer scorer, const Vec& s, const Mat& hs,
                             const ScorerParams& params = {});

}  // namespace lb
