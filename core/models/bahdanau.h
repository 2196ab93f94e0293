// core/models/bahdanau.h — Bahdanau, Cho & Bengio 2014 ("RNNsearch") as published,
// on the date task: a bidirectional encoder whose annotations carry both
// sides of every position, and a decoder that scores its previous state.
//
//   encoder   x_j  = Embedding_in[src_j]                        [V_in, 32]
//             →h_j = GRU_fwd(x_j, →h_{j−1})                     left to right, j < len
//             ←h_j = GRU_bwd(x_j, ←h_{j+1})                     right to left from the row's
//                                                               own last character (padding
//                                                               never enters: each row's
//                                                               real part is run reversed)
//             h_j  = [→h_j ; ←h_j]                              annotations, 2H wide
//   decoder   s_0  = tanh(W_s ←h_0 + b_s)                       the paper's s_0 = tanh(W_s ←h_1)
//             y_t  = Embedding_out[dec_in_t]                    [V_out, 16], the previous character
//             e_tj = vᵀ tanh(W_d s_{t−1} + W_e h_j)             additive, of the state BEFORE the step
//             α_tj = softmax over j < len;  c_t = Σ_j α_tj h_j  (2H; attention.h with
//                                                               values 2H wide)
//             s_t  = GRU_dec([y_t ; c_t], s_{t−1})              16 + 2H → H
//   output    logits_t = W_o [s_t ; y_t ; c_t] + b_o            [V_out, 3H + 16], the deep output
//
// The deep output is linear. The paper passes U_o s + V_o y + C_o c through a
// maxout layer (pairs of 500 units pooled) before its 30,000-word softmax; we
// keep the three inputs the paper reads and drop the hidden maxout layer:
// with the dates' 13 output characters the softmax layer is small, the question this
// model answers is what the bidirectional encoder and the wider context buy
// (not what an extra hidden layer buys), and one nn.Linear keeps the weights
// loadable into PyTorch by renaming alone. s_0 carries a bias b_s (nn.Linear's
// default), which the paper's formulas omit throughout.
//
// Tensors (PyTorch names; nn.GRU(32, H, bidirectional=True) names its second
// direction's weights *_l0_reverse):
//   encoder.embedding.weight [V_in, 32]; encoder.gru.*_l0 and *_l0_reverse (E = 32);
//   decoder.embedding.weight [V_out, 16]; decoder.gru.*_l0 (E = 16 + 2H);
//   decoder.init.weight [H, H], decoder.init.bias [H];
//   attention.W_e [H, 2H], attention.W_d [H, H], attention.v [H];
//   decoder.out.weight [V_out, 3H + 16], decoder.out.bias [V_out].
// Parameters: 32·V_in + 2·(96H + 3H² + 6H) + 16·V_out + (3H(16 + 2H) + 3H² + 6H)
//             + (H² + H) + (3H² + H) + (V_out(3H + 16) + V_out); on the date task
//             (V_in = 40, V_out = 13) 19H² + 299H + 1,709 (98,669 at H = 64).
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// V_in and V_out the vocabularies' sizes (the task's).
#pragma once
#include <cstdint>
#include <xtensor/xtensor.hpp>
#include "data/dataset.h"
#include "layers/attention.h"
#include "layers/gru.h"
#include "models/attention_override.h"

namespace lb {

struct Params;
struct ModelConfig;
struct ModelKind;

// Its own tensors, beside the GRU family's (params.h); empty in every other kind.
struct BahdanauParams {
    GruParams enc_gru_reverse;          // the backward GRU  encoder.gru.*_l0_reverse
    xt::xtensor<float, 2> init_weight;  // [H, H]  decoder.init.weight  (W_s)
    xt::xtensor<float, 1> init_bias;    // [H]     decoder.init.bias
};
// The list of its tensors, in the file's order: slot(name, get) for each, where get(p) reaches
// it in a BahdanauParams (params.h's gru_family_slots calls it).
template <class Slot>
constexpr void bahdanau_slots(Slot&& slot) {
    slot("encoder.gru.weight_ih_l0_reverse", [](auto& p) -> auto& { return p.enc_gru_reverse.weight_ih; });
    slot("encoder.gru.weight_hh_l0_reverse", [](auto& p) -> auto& { return p.enc_gru_reverse.weight_hh; });
    slot("encoder.gru.bias_ih_l0_reverse", [](auto& p) -> auto& { return p.enc_gru_reverse.bias_ih; });
    slot("encoder.gru.bias_hh_l0_reverse", [](auto& p) -> auto& { return p.enc_gru_reverse.bias_hh; });
    slot("decoder.init.weight", [](auto& p) -> auto& { return p.init_weight; });
    slot("decoder.init.bias", [](auto& p) -> auto& { return p.init_bias; });
}

// Caches and workspaces of one batch: flat buffers that only grow.
struct BahdanauCache {
    int T = 0, V = 0;               // the task's output steps and vocabulary, as last reserved
    xt::xtensor<float, 1> x;        // [B, S, 32]     embedded source
    xt::xtensor<float, 1> x_rev;    // [B, S, 32]     each row's real part reversed
    xt::xtensor<float, 1> h_fwd;    // [B, S, H]      →h_j
    xt::xtensor<float, 1> h_rev;    // [B, S, H]      the backward GRU in its own time: ←h_{len−1−j}
    GruCache gru_fwd, gru_rev, dec_gru;
    xt::xtensor<float, 1> annotations; // [B, S, 2H]  [→h_j ; ←h_j], 0 on padding
    xt::xtensor<float, 1> last_back;   // [B, H]      ←h_0
    xt::xtensor<float, 1> s0;       // [B, H]
    AttentionCache att;             //                keys W_e h_j, scores; alpha [B, T, S] the alignment map
    xt::xtensor<float, 1> dec_x;    // [B, T, 16 + 2H] [y_t ; c_t]
    xt::xtensor<float, 1> dec_h;    // [B, T, H]      s_1..s_T
    xt::xtensor<float, 1> out_in;   // [B, T, 3H + 16] [s_t ; y_t ; c_t]
    xt::xtensor<float, 1> logits, probs;  // [B, T, V]
    // backward
    xt::xtensor<float, 1> dlogits, dout_in, ddec_x, ds0, dlast_back, dannotations, dh_fwd, dh_rev,
        dx, dx_rev;
};

// Teacher-forced forward pass: the mean cross-entropy over the B·T targets.
float bahdanau_forward(BahdanauCache& cache, const Batch& batch, const Params& p,
                       const ModelConfig& config);
// Backward of the last bahdanau_forward on the same batch: ADDS into grads.
void bahdanau_backward(Params& grads, BahdanauCache& cache, const Batch& batch, const Params& p,
                       const ModelConfig& config);
// Greedy decoding of T steps: tokens [B, T] (never pad or start),
// cache.att.alpha the alignment map; overrides replace the attention of chosen steps
// (attention_override.h: their weights are over the annotations, c_t = Σ_j α_tj h_j).
void bahdanau_greedy_decode(int32_t* tokens, BahdanauCache& cache, const int32_t* src,
                            const int* src_len, int B, int S, const Params& p,
                            const ModelConfig& config, AttentionOverrides overrides = {});

// Zero-filled tensors of the shapes above, and their count by the formula.
Params bahdanau_params(const ModelConfig& config);
long bahdanau_parameter_count(const ModelConfig& config);
// FLOPs of one example's forward pass with S source tokens (registry.h's forward_flops; the
// counting of encoder_decoder.h's):
//   2 · S · 3H(E_in + H) + S · 2H²                       two encoder GRUs; the keys W_e h_j
//   + (T + 1) · (3H(E_out + 2H) + 3H² + H² + 3SH)        GRU on [y ; c]; W_d s; the scores
//                                                        (H each) and the sum of 2H-wide h_j
double bahdanau_forward_flops(const ModelConfig& config, double S);

// Its row of the table of kinds (registry.h).
ModelKind bahdanau_kind();

}  // namespace lb
