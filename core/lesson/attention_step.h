// core/lesson/attention_step.h — one attention step on a handful of small vectors,
// computed in double precision for display: the worked example of the lesson
// and the figures that let a reader drag the vectors around.
//
// Legend: S source positions, D state width, A width of the additive scorer's
// hidden layer. The four steps: score, softmax, weighted sum (context).
// The scorers and their weights' names are attention.h's (W, W_e, W_d, v); the
// tests check this step against the batched attention on the same weights.
#pragma once
#include <vector>
#include "layers/scorer.h"

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
    Vec scores;          // e_i = score(s, h_i)                 [S]
    double temperature;  // T
    Vec exps;            // exp(e_i / T)                        [S]
    double denominator;  // Σ_j exp(e_j / T)
    Vec weights;         // α_i = exp(e_i / T) / Σ_j exp(e_j / T)   [S]
    Vec context;         // c = Σ_i α_i h_i                     [D]
    // Why a dot score is high: s·h = |s| |h| cos(s, h), so length counts as much as direction.
    Vec lengths;         // |h_i|                               [S]
    Vec cosines;         // cos(s, h_i); NaN where s or h_i is zero   [S]
};

// e(s, h) for one encoder state. Throws std::invalid_argument on shape mismatch.
double score(Scorer scorer, const Vec& s, const Vec& h, const ScorerParams& params);

// The whole step over encoder states hs [S][D]. Throws std::invalid_argument
// if S == 0, shapes disagree or the temperature is not a positive finite number.
// Weights are computed with the max score subtracted, so they stay finite even
// where exp(e_i / T) itself overflows.
AttentionStep attention_step(Scorer scorer, const Vec& s, const Mat& hs,
                             const ScorerParams& params = {}, double temperature = 1);

}  // namespace lb
