// core/layers/transformer_layers.h — the layers of the one-layer Transformer
// (transformer.h): token embedding plus sinusoidal positions, layer
// normalisation, multi-head scaled dot-product attention with a key-padding
// and a causal mask, the position-wise feed-forward block, dropout.
//
//   positions   PE(t, 2i) = sin(t / 10000^(2i/D)),  PE(t, 2i+1) = cos(t / 10000^(2i/D))
//               x_t = √D · Embedding[id_t] + PE(t)                 (Vaswani 2017, §3.4–3.5)
//   layer norm  y = (x − μ) / √(σ² + ε) ⊙ γ + β  over the D features of a row, ε = 1e-5
//   attention   Q = X_q W_qᵀ + b_q,  K = X_kv W_kᵀ + b_k,  V = X_kv W_vᵀ + b_v
//               (W_q, W_k, W_v are the rows 0..D, D..2D, 2D..3D of in_proj_weight)
//               head a reads columns a·K .. (a+1)·K of Q, K, V:
//               α_a = softmax_j(Q_a K_aᵀ / √K) over the allowed keys j, 0 elsewhere
//                     (layers.h's masked softmax)
//               ctx_a = α_a V_a;  out = [ctx_0 … ctx_{A−1}] W_oᵀ + b_o
//               allowed: j < key_len[b] (key padding), and j ≤ q0 + i if causal
//   feed-forward y = W_2 relu(W_1 x + b_1) + b_2
//   dropout     y = x ⊙ m / (1 − p),  m_i ~ Bernoulli(1 − p) from the trainer's Rng
//
// Style as layers.h (llm.c): forward/backward pairs; arguments in the order
// outputs, caches, inputs, weights, sizes; a `d` prefix is a gradient and
// backward ADDS into its gradient buffers. Caches are raw pointers into
// buffers the model owns (transformer.h), sized for the batch.
//
// Legend: B batch rows, Tq query positions, Tk key positions, N rows (B·T
// flattened), D model width (d_model), A heads, K = D/A head width (d_head),
// F feed-forward width.
#pragma once
#include <cstdint>
#include <xtensor/xtensor.hpp>
#include "kernels/rng.h"

namespace lb {

// nn.MultiheadAttention's parameters (the same type holds gradients and moments).
struct MultiheadAttentionParams {
    xt::xtensor<float, 2> in_proj_weight;   // [3D, D]  rows W_q, W_k, W_v
    xt::xtensor<float, 1> in_proj_bias;     // [3D]
    xt::xtensor<float, 2> out_proj_weight;  // [D, D]   W_o
    xt::xtensor<float, 1> out_proj_bias;    // [D]
};
// nn.LayerNorm(D): weight γ, bias β.
struct LayerNormParams {
    xt::xtensor<float, 1> weight;  // [D]
    xt::xtensor<float, 1> bias;    // [D]
};
// linear1 = nn.Linear(D, F), linear2 = nn.Linear(F, D).
struct FeedForwardParams {
    xt::xtensor<float, 2> linear1_weight;  // [F, D]
    xt::xtensor<float, 1> linear1_bias;    // [F]
    xt::xtensor<float, 2> linear2_weight;  // [D, F]
    xt::xtensor<float, 1> linear2_bias;    // [D]
};
MultiheadAttentionParams make_multihead_attention_params(int D);  // zero-filled
LayerNormParams make_layer_norm_params(int D);
FeedForwardParams make_feed_forward_params(int D, int F);

// --- token embedding + sinusoidal positions ----------------------------------
// pe [T, D] = PE(t, c) for t < T (no parameters, no gradient).
void sinusoid_positions(float* pe, int T, int D);
// out[b, t] = scale · weight[ids[b, t]] + pe[t]        out [B, T, D], ids [B, T]
void embed_positions_forward(float* out, const int32_t* ids, const float* weight, const float* pe,
                             float scale, int B, int T, int D);
// dweight[ids[b, t]] += scale · dout[b, t]
void embed_positions_backward(float* dweight, const float* dout, const int32_t* ids, float scale,
                              int B, int T, int D);

// --- layer norm ---------------------------------------------------------------
constexpr float layer_norm_epsilon = 1e-5f;  // PyTorch's default
// y [N, D]; caches xhat [N, D] = (x − μ)/√(σ² + ε) and rstd [N] = 1/√(σ² + ε).
void layer_norm_forward(float* y, float* xhat, float* rstd, const float* x, const float* gamma,
                        const float* beta, int N, int D);
// dx [N, D], dgamma, dbeta [D] += gradients.
void layer_norm_backward(float* dx, float* dgamma, float* dbeta, const float* dy,
                         const float* xhat, const float* rstd, const float* gamma, int N, int D);

// --- multi-head attention -----------------------------------------------------
// One batch row, every head, once Q and [K ; V] are projected:
//   ctx [Tq, D] (row stride ld_ctx), alpha[a] [Tq, Tk] at alpha + a·head_stride
//   (row stride ld_alpha; 0 on every key that is not allowed),
//   q [Tq, D] (ld_q), kv [Tk, 2D] (K in columns 0..D, V in D..2D; ld_kv).
// Query i sits at position q0 + i (the causal mask of a decoder step).
void attend_forward(float* ctx, int ld_ctx, float* alpha, long head_stride, int ld_alpha,
                    const float* q, int ld_q, const float* kv, int ld_kv, int key_len, int q0,
                    bool causal, int Tq, int Tk, int A, int K);

// Caches of one attention over a batch: every buffer is [B, …] contiguous.
struct MultiheadAttentionCache {
    float* q;      // [B, Tq, D]
    float* kv;     // [B, Tk, 2D]   [K ; V]
    float* alpha;  // [B, A, Tq, Tk] the attention weights
    float* ctx;    // [B, Tq, D]    heads concatenated, before W_o
    // backward workspaces
    float* dq;     // [B, Tq, D]
    float* dkv;    // [B, Tk, 2D]
    float* dctx;   // [B, Tq, D]
    float* dalpha; // [Tq, Tk]      one row's, reused
};
// out [B, Tq, D] from xq [B, Tq, D] (queries) and xkv [B, Tk, D] (keys and
// values; the same pointer for self-attention); key_len [B] real keys per row.
void multihead_attention_forward(float* out, MultiheadAttentionCache& cache, const float* xq,
                                 const float* xkv, const int* key_len, bool causal,
                                 const MultiheadAttentionParams& p, int B, int Tq, int Tk, int D,
                                 int A);
// dxq [B, Tq, D], dxkv [B, Tk, D] (may be the same buffer) and dp += gradients.
void multihead_attention_backward(float* dxq, float* dxkv, MultiheadAttentionParams& dp,
                                  MultiheadAttentionCache& cache, const float* dout,
                                  const float* xq, const float* xkv, const int* key_len,
                                  bool causal, const MultiheadAttentionParams& p, int B, int Tq,
                                  int Tk, int D, int A);

// --- feed-forward -------------------------------------------------------------
// y [N, D] = W_2 relu(W_1 x + b_1) + b_2; caches hidden [N, F] = relu(W_1 x + b_1).
void feed_forward_forward(float* y, float* hidden, const float* x, const FeedForwardParams& p,
                          int N, int D, int F);
// dx [N, D] and dp += gradients; dhidden [N, F] is a workspace.
void feed_forward_backward(float* dx, FeedForwardParams& dp, float* dhidden, const float* dy,
                           const float* x, const float* hidden, const FeedForwardParams& p, int N,
                           int D, int F);

// --- dropout ------------------------------------------------------------------
// x [n] ⊙= mask [n], mask_i = 0 with probability p, else 1/(1 − p) (drawn here).
void dropout_forward(float* x, float* mask, float p, int n, Rng& rng);
// dx [n] ⊙= mask [n]
void dropout_backward(float* dx, const float* mask, int n);

}  // namespace lb
