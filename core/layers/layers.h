// core/layers/layers.h — the small layers of the seq2seq models: embedding, dense,
// softmax cross-entropy, the masked softmax every attention takes (the
// activations are in kernels.h).
//
// Style (llm.c): each layer is a pair of free functions, forward and backward.
// Arguments in a fixed order: outputs, caches, inputs, weights, sizes. A `d`
// prefix is a gradient; backward ADDS into its gradient buffers (one function,
// zero_params in model.h, zeroes the parameter gradients once per batch).
// Activations are raw row-major pointers taken from xtensor buffers; `ld` is a
// row stride, so a slice of a wider tensor can be passed without copying.
//
// Legend: N rows (B·T flattened), E embedding width, H state width,
// V vocabulary size.
#pragma once
#include <cstdint>

namespace lb {

// --- embedding --------------------------------------------------------------
// out[n, :] = weight[ids[n], :]
// out [N, E] (row stride ld_out), ids [N], weight [V, E]
void embedding_forward(float* out, const int32_t* ids, const float* weight, int N, int E,
                       int ld_out);
// dweight [V, E] += scatter of dout [N, E] (row stride ld_dout)
void embedding_backward(float* dweight, const float* dout, const int32_t* ids, int N, int E,
                        int ld_dout);

// --- dense ------------------------------------------------------------------
// out[N, V] = in[N, H] · weightᵀ + bias          weight [V, H], bias [V]
void dense_forward(float* out, const float* in, const float* weight, const float* bias, int N,
                   int H, int V);
// din [N, H], dweight [V, H], dbias [V] += gradients; din may be nullptr.
void dense_backward(float* din, float* dweight, float* dbias, const float* dout, const float* in,
                    const float* weight, int N, int H, int V);

// --- softmax cross-entropy --------------------------------------------------
// probs[N, V] = softmax(logits[N, V]) by row; returns the mean of −log probs[n, targets[n]]
// over the M rows whose target is not unscored_target (a padded step after a target's end).
// Rows of an unscored target get probs but add nothing; M = 0 gives 0.
constexpr int32_t unscored_target = 0;  // the tasks' pad token
float softmax_cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                                    int N, int V);
// Gradient of that mean: dlogits[n, :] += (probs[n, :] − onehot(targets[n])) / M for the
// scored rows.
void softmax_cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                                    int N, int V);

// --- masked softmax ---------------------------------------------------------
// One row of attention weights over its first `len` positions (1 ≤ len ≤ width),
// in place: row[j] = exp(scale·e_j − m) / Σ_{i < len} exp(scale·e_i − m), m the
// largest scale·e_i, for j < len; row[j] = 0 exactly for len ≤ j < width (padding,
// keys a causal mask hides, positions outside a local window). scale is
// 1/√K in the Transformer, 1 elsewhere.
void masked_softmax_forward(float* row, int len, int width, float scale = 1.0f);
// Backward from the forward's output alpha [width]: WRITES
// de_j = scale · α_j (dα_j − Σ_{i < len} α_i dα_i) for j < len, and 0 for
// len ≤ j < width, into dscores [width] (the scores are a workspace, not a sum
// of paths). dalpha(j) returns dα_j; it is called once for each j < len, in
// order, so that a caller may compute dα_j in the same pass as its other
// gradients (attention: dα_j = dc · h_j beside dh_j += α_j dc).
template <class DAlpha>
void masked_softmax_backward(float* dscores, const float* alpha, int len, int width, float scale,
                             DAlpha&& dalpha) {
    float weighted = 0;  // Σ_i α_i dα_i
    for (int j = 0; j < len; ++j) {
        const float da = dalpha(j);
        dscores[j] = da;
        weighted += alpha[j] * da;
    }
    for (int j = 0; j < len; ++j) dscores[j] = alpha[j] * (dscores[j] - weighted) * scale;
    for (int j = len; j < width; ++j) dscores[j] = 0.0f;
}
// The same from the gradient of the weights dalpha [width]; dscores may be dalpha.
inline void masked_softmax_backward(float* dscores, const float* alpha, const float* dalpha,
                                    int len, int width, float scale = 1.0f) {
    masked_softmax_backward(dscores, alpha, len, width, scale, [&](int j) { return dalpha[j]; });
}

}  // namespace lb
