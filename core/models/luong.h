// core/models/luong.h — Luong, Pham & Manning 2015 on the date task: global attention
// (model luong) and local-p attention (model luong-local), each with input
// feeding as a switch. A GRU stands in for the paper's stacked LSTMs, as in
// every GRU model here.
//
//   encoder   x_j = Embedding_in[src_j];  h_j = GRU_enc(x_j, h_{j−1})   32 → H, j < len
//   decoder   s_0 = h_{len−1}, each row's true last state
//             y_t = Embedding_out[dec_in_t]                            [V_out, 16]
//             s_t = GRU_dec(y_t, s_{t−1})                               16 → H
//               or GRU_dec([y_t ; h̃_{t−1}], s_{t−1}), h̃_{−1} = 0     16 + H → H (input feeding)
//             e_tj = score(s_t, h_j), of the state AFTER the step:
//                    dot sᵀh | general sᵀW h | concat vᵀ tanh(W_d s + W_e h)
//   global    a_tj = softmax over j < len of e_tj
//   local-p   p_t  = len · σ(v_pᵀ tanh(W_p s_t))                         in (0, len)
//             window j ∈ [p_t − D, p_t + D] ∩ [0, len − 1]  (j counts from 0)
//             a_tj = softmax over the window of e_tj · exp(−(j − p_t)² / 2σ²),  σ = D/2
//                    0 outside the window; the Gaussian is not renormalised
//                    (the paper's), so a row sums to at most 1
//             c_t  = Σ_j a_tj h_j
//   output    h̃_t = tanh(W_c [c_t ; s_t])                             the attentional state
//             logits_t = W_out h̃_t + b_out                            [V_out, H], [V_out]
//
// The window, D = 4 (nine positions, σ = 2). Every output character of a
// date is read from a field of at most four characters — a year, a day with
// its ordinal suffix ("19th"), a month's first three letters (enough to tell
// june from july and march from may; full names add nothing) — so a window
// centred anywhere on a field holds all of it with a margin for an imprecise
// p_t, while staying local: nine of 26 positions on the longest inputs. On the
// shortest (8 characters, "1/1/1950") it spans nearly the whole string.
// At the edges: the window is cut to the row's real positions (padding is
// never scored), the softmax runs over what remains, and positions outside
// get weight 0 — so a_tj jumps from about e^{−2} ≈ 0.14 × its softmax share to
// 0 where |j − p_t| crosses D. Membership of the window is piecewise constant
// in p_t: the gradient reaches p_t (and v_p, W_p) through the Gaussian only,
// as in the paper. p_t < len always, and p_t − D < len − 1, so the window
// holds at least one real position.
//
// Tensors (PyTorch names): encoder.embedding.weight, encoder.gru.*_l0,
// decoder.embedding.weight, decoder.gru.*_l0 (E = 16, or 16 + H with input
// feeding), attention.W (general) or attention.W_e, W_d, v (concat),
// decoder.combine.weight [H, 2H] (W_c, nn.Linear(2H, H, bias=False)),
// local only attention.W_p [H, H] and attention.v_p [H], decoder.out.weight
// [V_out, H], decoder.out.bias [V_out].
// Parameters: on the date task, the plain model's 6H² + 169H + 1,501 (36,893 at H = 64), plus
// 3H² with input feeding, the scorer's (dot 0, general H², concat 2H² + H),
// 2H² for W_c, and local-p's H² + H (W_p, v_p).
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// V_in and V_out the vocabularies' sizes (the task's).
#pragma once
#include <cstdint>
#include <vector>
#include <xtensor/xtensor.hpp>
#include "layers/attention.h"
#include "data/dataset.h"
#include "layers/gru.h"
#include "models/attention_override.h"

namespace lb {

struct Params;
struct ModelConfig;
struct ModelKind;

// Its own tensors, beside the GRU family's (params.h); empty in every other kind.
struct LuongParams {
    xt::xtensor<float, 2> combine_weight;   // [H, 2H]  decoder.combine.weight (W_c)
    xt::xtensor<float, 2> position_weight;  // local-p [H, H]  attention.W_p
    xt::xtensor<float, 1> position_v;       // local-p [H]     attention.v_p
};
// The list of its tensors, in the file's order: slot(name, get) for each, where get(p) reaches
// it in a LuongParams (params.h's gru_family_slots calls it).
template <class Slot>
constexpr void luong_slots(Slot&& slot) {
    slot("decoder.combine.weight", [](auto& p) -> auto& { return p.combine_weight; });
    slot("attention.W_p", [](auto& p) -> auto& { return p.position_weight; });
    slot("attention.v_p", [](auto& p) -> auto& { return p.position_v; });
}

constexpr int local_half_width = 4;  // D, see above; σ = D/2

// Caches and workspaces of one batch: flat buffers that only grow.
struct LuongCache {
    xt::xtensor<float, 1> enc_x;    // [B, S, 32]
    xt::xtensor<float, 1> enc_h;    // [B, S, H]
    GruCache enc_gru, dec_gru;
    xt::xtensor<float, 1> s0;       // [B, H]
    xt::xtensor<float, 1> dec_x;    // [B, T, 16 (+ H)]  [y_t (; h̃_{t−1})]
    xt::xtensor<float, 1> dec_h;    // [B, T, H]         s_1..s_T
    AttentionCache att;             //                   keys, scores; alpha [B, T, S] the alignment map
    xt::xtensor<float, 1> combine_in; // [B, T, 2H]      [c_t ; s_t]
    xt::xtensor<float, 1> attentional; // [B, T, H]      h̃_t
    xt::xtensor<float, 1> logits, probs;  // [B, T, V_out]
    // local-p
    xt::xtensor<float, 1> position_u;   // [B, T, H]     tanh(W_p s_t); backward: d(W_p s_t)
    xt::xtensor<float, 1> position_sig; // [B, T]        σ(v_pᵀ u)
    xt::xtensor<float, 1> centre;       // [B, T]        p_t
    xt::xtensor<float, 1> align;        // [B, T, S]     softmax over the window
    xt::xtensor<float, 1> gauss;        // [B, T, S]     exp(−(j − p_t)² / 2σ²)
    std::vector<int> window;            // [B, T, 2]     first and last position
    // backward
    xt::xtensor<float, 1> dattentional; // [B, T, H]     dh̃_t, then d(W_c [c_t ; s_t])
    xt::xtensor<float, 1> dlogits, dcombine_in, ds0, denc_h, denc_x, ddec_x;
};

// Teacher-forced forward pass: the mean cross-entropy over the B·T targets.
float luong_forward(LuongCache& cache, const Batch& batch, const Params& p, const ModelConfig& config);
// Backward of the last luong_forward on the same batch: ADDS into grads.
void luong_backward(Params& grads, LuongCache& cache, const Batch& batch, const Params& p,
                    const ModelConfig& config);
// Greedy decoding of T steps: tokens [B, T] (real characters only),
// cache.att.alpha the alignment map. overrides replace the attention of chosen steps
// (attention_override.h): c_t = Σ_j a_tj h_j from the given a_tj. For local-p they are the
// final weights over all of the row's real positions, in the window or not: the step's p_t,
// window and Gaussian are computed but not read, and the weights may sum to less than one, as
// the model's own do.
void luong_greedy_decode(int32_t* tokens, LuongCache& cache, const int32_t* src, const int* src_len,
                         int B, int S, const Params& p, const ModelConfig& config,
                         AttentionOverrides overrides = {});

// Zero-filled tensors of the shapes above (local-p's when config.decoder is
// luong_local), and their count by the formula.
Params luong_params(const ModelConfig& config);
long luong_parameter_count(const ModelConfig& config);
// FLOPs of one example's forward pass with S source tokens (registry.h's forward_flops; the
// counting of encoder_decoder.h's), for the general scorer whatever the config's:
//   S · 3H(E_in + H) + S · H²                            encoder; the keys W_a h_j
//   + (T + 1) · (3H(E_out + H) + 2SH + 2H²)              GRU (without input feeding's H
//                                                        columns); scores and sum; W_c
//   local-p: + (T + 1) · H²                              W_p s_t
double luong_forward_flops(const ModelConfig& config, double S);

// Their rows of the table of kinds (registry.h): global and local-p attention.
ModelKind luong_kind();
ModelKind luong_local_kind();

}  // namespace lb
