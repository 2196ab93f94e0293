// core/layers/attention.h — batched attention of a decoder over encoder states: the
// three scorers, softmax over the real (unpadded) source positions, context.
//
// At decoder step t, for each row b and source position j < src_len[b]:
//   dot       e_tj = s_{t−1} · h_j
//   general   e_tj = s_{t−1}ᵀ W h_j        = s_{t−1} · k_j,  k_j = W h_j
//   additive  e_tj = vᵀ tanh(W_e h_j + W_d s_{t−1}) = vᵀ tanh(k_j + q_t)
//   α_tj = exp(e_tj) / Σ_{i < len} exp(e_ti)   (α_tj = 0 for j ≥ len; layers.h's
//          masked softmax)
//   c_t  = Σ_j α_tj h_j
// The keys k_j (W h_j or W_e h_j) are one product per batch
// (attention_keys_forward), not one per step. Score, softmax and the weighted
// sum run in one fused pass per row.
//
// The encoder states, and so the context, may be wider than the decoder
// state: A columns against H (Bahdanau's annotations, A = 2H). W and W_e are
// then [H, A]; the keys and queries stay H wide. Dot products need A = H.
// The width A is read from the parameters (attention_value_width).
//
// Legend: B batch rows, S source positions (padded), T decoder steps, H
// decoder state width, A encoder state (value) width.
// Encoder states enc are [B, S, A]; decoder states s_{t−1} are passed per step.
#pragma once
#include <xtensor/xtensor.hpp>
#include "layers/scorer.h"

namespace lb {

// The scorers' parameters; a tensor a scorer does not use has shape [0] / [0, 0].
// The same type holds their gradients and Adam moments.
struct AttentionParams {
    xt::xtensor<float, 2> W_e;  // additive: [H, A], applied to encoder states
    xt::xtensor<float, 2> W_d;  // additive: [H, H], applied to the decoder state
    xt::xtensor<float, 1> v;    // additive: [H]
    xt::xtensor<float, 2> W;    // general:  [H, A]
};
// Zero-filled, unused ones empty; A = 0: values as wide as the state (A = H).
AttentionParams make_attention_params(Scorer scorer, int H, int A = 0);
// A, the encoder states' width: W_e's or W's columns, H for dot.
int attention_value_width(const AttentionParams& p, Scorer scorer, int H);

// Caches and workspaces; flat buffers that only grow (attention_reserve).
struct AttentionCache {
    xt::xtensor<float, 1> keys;    // [B, S, H]    general: h·Wᵀ, additive: h·W_eᵀ (dot: unused)
    xt::xtensor<float, 1> query;   // [B, T, H]    additive: s_{t−1}·W_dᵀ
    xt::xtensor<float, 1> tanh;    // [T, B, S, H] additive: tanh(k_j + q_t) (time-major)
    xt::xtensor<float, 1> alpha;   // [B, T, S]    weights; 0 on padding
    xt::xtensor<float, 1> dscores; // [B, T, S]    backward: gradient of the scores e_tj
    xt::xtensor<float, 1> dkeys;   // [B, S, H]    backward: gradient of keys
    xt::xtensor<float, 1> dquery;  // [B, T, H]    backward (additive): gradient of q_t
    xt::xtensor<float, 1> W_d_t;   // [H, H]       additive: W_dᵀ, for the per-step q_t
    xt::xtensor<float, 1> dv;      // [H]          backward (additive): gradient of v
};
void attention_reserve(AttentionCache& cache, Scorer scorer, int B, int S, int T, int H);

// Once per batch: keys from the encoder states enc [B, S, A] (and, additive with
// B > 1, W_dᵀ for the steps; p must not change until the batch's last step).
void attention_keys_forward(AttentionCache& cache, const float* enc, const AttentionParams& p,
                            Scorer scorer, int B, int S, int H);
// Step t: context ctx [B, A] (row stride ld_ctx) and cache.alpha[:, t] from
// s_prev [B, H] (row stride ld_prev).
void attention_step_forward(float* ctx, int ld_ctx, AttentionCache& cache, const float* s_prev,
                            int ld_prev, const float* enc, const int* src_len,
                            const AttentionParams& p, Scorer scorer, int t, int B, int S, int T,
                            int H);
// c = Σ_{j < L} α_j h_j of one row: ctx [A] from alpha [L] and enc [L, A], the row's states.
// attention_step_forward's own sum; counterfactual decoding (models/counterfactual.h) calls it
// again on edited weights.
void attention_context(float* ctx, const float* alpha, const float* enc, int L, int A);
// Backward of step t from dctx [B, A] (row stride ld_dctx): ADDS into ds_prev
// [B, H] (row stride ld_dprev), denc [B, S, A] and cache.dkeys; writes
// cache.dscores[:, t] and (additive) cache.dquery[:, t], whose share of ds_prev
// (through q_t = s_{t−1}·W_dᵀ) it also adds.
void attention_step_backward(float* ds_prev, int ld_dprev, float* denc, AttentionCache& cache,
                             const float* dctx, int ld_dctx, const float* s_prev, int ld_prev,
                             const float* enc, const int* src_len, const AttentionParams& p,
                             Scorer scorer, int t, int B, int S, int T, int H);
// After all steps: the keys' gradients into denc and dp (whole-batch
// products); additive also dW_d += dqueryᵀ·s_prevs (s_prevs [B, T, H], the
// states each step scored against) and dv += cache.dv (summed by the steps).
void attention_keys_backward(float* denc, AttentionParams& dp, const AttentionCache& cache,
                             const float* enc, const float* s_prevs, const AttentionParams& p,
                             Scorer scorer, int B, int S, int T, int H);
// Zeroes cache.dkeys and cache.dv before a backward pass.
void attention_zero_grads(AttentionCache& cache, Scorer scorer, int B, int S, int T, int H);

}  // namespace lb
