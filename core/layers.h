// core/layers.h — the small layers of the seq2seq models: embedding, dense,
// softmax cross-entropy, and the elementwise activations everything shares.
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

// --- activations ------------------------------------------------------------
// y[i] = e^{x[i]}, σ(x[i]) or tanh(x[i]) for i < n; y may be x. Written with
// vector extensions (8 floats at a time: AVX natively, two SIMD128 vectors in
// WASM, plain floats in the scalar build) because compilers will not
// vectorise a libm call or an exp built from bit tricks on their own.
// exp: x = k·ln2 + r, |r| ≤ ln2/2, e^x = 2^k · (Taylor series of e^r to degree
// 7); relative error below 2e-7 (float rounding) on [−87, 88], inputs outside
// are clamped. σ(x) = 1 / (1 + e^{−x}); tanh(x) = 1 − 2 / (e^{2x} + 1),
// absolute error a few 1e-8.
void exp_array(float* y, const float* x, int n);
void sigmoid_array(float* y, const float* x, int n);
void tanh_array(float* y, const float* x, int n);
// Σ_i a[i]·b[i] over n floats, in 8 partial sums (a float reduction is not
// vectorised by compilers unless allowed to reorder it; we allow it here).
float dot(const float* a, const float* b, int n);

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
// probs[N, V] = softmax(logits[N, V]) by row; returns the mean over the N rows
// of −log probs[n, targets[n]].
float softmax_cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                                    int N, int V);
// Gradient of that mean: dlogits[n, :] += (probs[n, :] − onehot(targets[n])) / N
void softmax_cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                                    int N, int V);

}  // namespace lb
