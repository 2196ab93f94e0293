// core/layers/layers.h — the small layers of the seq2seq models: embedding, dense,
// softmax cross-entropy (the activations are in kernels.h).
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
// probs[N, V] = softmax(logits[N, V]) by row; returns the mean over the N rows
// of −log probs[n, targets[n]].
float softmax_cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                                    int N, int V);
// Gradient of that mean: dlogits[n, :] += (probs[n, :] − onehot(targets[n])) / N
void softmax_cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                                    int N, int V);

}  // namespace lb
