// core/layers/gru.h — one GRU layer, batched over padded sequences, forward and
// backward through time.
//
// THE GRU CONVENTION of Lookback (PyTorch nn.GRU's layout; Keras' GRU with
// reset_after=True computes the same function). Gate rows in order r, z, n:
//   weight_ih [3H, E] = [W_ir; W_iz; W_in], weight_hh [3H, H] = [W_hr; W_hz; W_hn],
//   bias_ih [3H] = [b_ir; b_iz; b_in],     bias_hh [3H] = [b_hr; b_hz; b_hn]
//   r  = σ(W_ir x + b_ir + W_hr h + b_hr)
//   z  = σ(W_iz x + b_iz + W_hz h + b_hz)
//   n  = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))      (reset applied after W_hn)
//   h' = (1 − z) ⊙ n + z ⊙ h
// Parameters: 3H·E + 3H·H + 6H.
//
// Padding: a row b runs only for t < lengths[b]; for t ≥ lengths[b] its state
// is carried unchanged (h_t = h_{t−1}) and its gradient passes straight
// through, so padding changes no real sequence's outputs or gradients.
//
// Work layout: the input projection x_t·W_ihᵀ + b_ih of all time steps is one
// product (gru_forward) or is supplied by the caller in cache.xproj (the
// attention decoder adds its context per step); each step is one [B, H]·[H, 3H]
// product plus fused gate math; backward fills per-step gradients of the two
// projections and then forms the weight gradients in whole-run products.
//
// Legend: B batch rows, T time steps, E input width, H state width.
// Activations are batch-major [B, T, ·] raw pointers; step t of a [B, T, C]
// tensor is (ptr + t·C) with row stride T·C.
#pragma once
#include <xtensor/xtensor.hpp>

namespace lb {

// A GRU's parameters; the same type holds their gradients and Adam moments.
struct GruParams {
    xt::xtensor<float, 2> weight_ih;  // [3H, E]  rows r | z | n
    xt::xtensor<float, 2> weight_hh;  // [3H, H]  rows r | z | n
    xt::xtensor<float, 1> bias_ih;    // [3H]
    xt::xtensor<float, 1> bias_hh;    // [3H]
};
GruParams make_gru_params(int E, int H);  // zero-filled

// Caches and workspaces of one run of T steps over B rows. Flat buffers that
// only grow (gru_reserve), read with the logical shapes below.
struct GruCache {
    xt::xtensor<float, 1> xproj;   // [B, T, 3H] x_t·W_ihᵀ + b_ih
    xt::xtensor<float, 1> hprev;   // [B, T, H]  h_{t−1} as step t read it (h0 at t = 0)
    xt::xtensor<float, 1> gates;   // [T, B, 3H] r, z, n after σ / tanh (time-major: gru.cpp)
    xt::xtensor<float, 1> hn;      // [T, B, H]  W_hn h_{t−1} + b_hn (the part r gates)
    xt::xtensor<float, 1> hproj;   // [B, 3H]    step workspace: h_{t−1}·W_hhᵀ + b_hh
    xt::xtensor<float, 1> weight_hh_t; // [H, 3H] W_hhᵀ (gru_begin_steps)
    xt::xtensor<float, 1> dh;      // [B, T, H]  backward: total gradient reaching h_t
    xt::xtensor<float, 1> dxproj;  // [B, T, 3H] backward: gradient of xproj
    xt::xtensor<float, 1> dhproj;  // [B, T, 3H] backward: gradient of h_{t−1}·W_hhᵀ + b_hh
    xt::xtensor<float, 1> zeros;   // [B, H]     h0 when none is given; dh0 when none is wanted
};
void gru_reserve(GruCache& cache, int B, int T, int H);

// --- one step (the attention decoder drives these) --------------------------
// Once per run, before its steps: W_hhᵀ into cache.weight_hh_t, so that each
// step's product reads it as is instead of transposing W_hh again (p must not
// change until the run's last step). Not for one row (B = 1): its steps take
// dot products with W_hh's rows, cheaper than the transpose.
void gru_begin_steps(GruCache& cache, const GruParams& p, int B, int H);
// Step t (after gru_begin_steps): reads cache.xproj[:, t] and h_prev [B, H] (row stride ld_prev), writes
// h[:, t] (h is [B, T, H]) and the step's caches. lengths == nullptr: all rows run.
void gru_step_forward(float* h, GruCache& cache, const float* h_prev, int ld_prev,
                      const int* lengths, const GruParams& p, int t, int B, int T, int H);
// Backward of step t: cache.dh[:, t] must hold the complete gradient of h_t.
// Fills cache.dxproj[:, t], cache.dhproj[:, t]; ADDS the gradient of h_{t−1}
// into dh_prev [B, H] (row stride ld_dprev; for t > 0 pass cache.dh[:, t−1]).
void gru_step_backward(float* dh_prev, int ld_dprev, GruCache& cache, const int* lengths,
                       const GruParams& p, int t, int B, int T, int H);
// After all steps: dweight_ih += dxprojᵀ·x, dbias_ih += Σ dxproj,
// dweight_hh += dhprojᵀ·hprev, dbias_hh += Σ dhproj (whole-run products).
// x [B, T, E] is the run's input.
void gru_weights_backward(GruParams& dp, const GruCache& cache, const float* x, int B, int T,
                          int E, int H);

// --- a whole run --------------------------------------------------------------
// h [B, T, H] = GRU over x [B, T, E] from h0 [B, H] (nullptr: zeros).
void gru_forward(float* h, GruCache& cache, const float* x, const float* h0, const int* lengths,
                 const GruParams& p, int B, int T, int E, int H);
// Given dh [B, T, H] (gradient of every output h_t), ADDS into dx [B, T, E],
// dh0 [B, H] (either may be nullptr) and dp.
void gru_backward(float* dx, float* dh0, GruParams& dp, GruCache& cache, const float* dh,
                  const float* x, const int* lengths, const GruParams& p, int B, int T, int E,
                  int H);

}  // namespace lb
