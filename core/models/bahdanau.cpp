// core/models/bahdanau.cpp — Bahdanau et al. 2014 as published (see bahdanau.h).
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// A = 2H annotation width, G = 3H gate rows, D = 16 + 2H decoder GRU input,
// O = 3H + 16 output layer input, L = src_len[b] a row's real length.
#include "models/bahdanau.h"

#include <cstring>
#include "kernels/buffers.h"
#include "kernels/kernels.h"
#include "layers/attention.h"
#include "layers/layers.h"
#include "models/encoder_decoder.h"
#include "models/gru_decoding.h"
#include "models/params.h"
#include "models/registry.h"

namespace lb {

namespace {

constexpr int E_in = encoder_embedding_width;
constexpr int E_out = decoder_embedding_width;

void reserve(BahdanauCache& c, int B, int S, const ModelConfig& config) {
    const int H = config.H, T = output_steps(config), V = output_vocab(config);
    c.T = T;
    c.V = V;
    const size_t b = size_t(B), s = size_t(S), h = size_t(H), A = 2 * h, D = E_out + A,
                 O = 3 * h + E_out;
    for (auto* x : {&c.x, &c.x_rev, &c.dx, &c.dx_rev}) grow(*x, b * s * E_in);
    for (auto* x : {&c.h_fwd, &c.h_rev, &c.dh_fwd, &c.dh_rev}) grow(*x, b * s * h);
    for (auto* x : {&c.annotations, &c.dannotations}) grow(*x, b * s * A);
    for (auto* x : {&c.last_back, &c.s0, &c.ds0, &c.dlast_back}) grow(*x, b * h);
    attention_reserve(c.att, Scorer::additive, B, S, T, H);
    grow(c.dec_h, b * T * h);
    for (auto* x : {&c.dec_x, &c.ddec_x}) grow(*x, b * T * D);
    for (auto* x : {&c.out_in, &c.dout_in}) grow(*x, b * T * O);
    for (auto* x : {&c.logits, &c.probs, &c.dlogits}) grow(*x, b * T * V);
    gru_reserve(c.gru_fwd, B, S, H);
    gru_reserve(c.gru_rev, B, S, H);
    gru_reserve(c.dec_gru, B, T, H);
}

// The encoder, s_0 and the keys: everything before the decoder's steps.
void encode(BahdanauCache& c, const int32_t* src, const int* len, const Params& p, int B, int S,
            int H) {
    const int A = 2 * H;
    embedding_forward(c.x.data(), src, p.enc_embedding.data(), B * S, E_in, E_in);
    gru_forward(c.h_fwd.data(), c.gru_fwd, c.x.data(), nullptr, len, p.enc_gru, B, S, E_in, H);
    // The backward GRU reads each row's real characters last to first, so its
    // first input is the row's own last character, never padding.
    zero(c.x_rev, size_t(B) * S * E_in);
    for (int b = 0; b < B; ++b)
        for (int j = 0; j < len[b]; ++j)
            std::memcpy(c.x_rev.data() + (size_t(b) * S + j) * E_in,
                        c.x.data() + (size_t(b) * S + len[b] - 1 - j) * E_in, sizeof(float) * E_in);
    gru_forward(c.h_rev.data(), c.gru_rev, c.x_rev.data(), nullptr, len, p.bahdanau.enc_gru_reverse, B, S,
                E_in, H);
    // h_j = [→h_j ; ←h_j], ←h_j = h_rev[len − 1 − j]; 0 on padding
    zero(c.annotations, size_t(B) * S * A);
    for (int b = 0; b < B; ++b) {
        const int L = len[b];
        for (int j = 0; j < L; ++j) {
            float* h = c.annotations.data() + (size_t(b) * S + j) * A;
            std::memcpy(h, c.h_fwd.data() + (size_t(b) * S + j) * H, sizeof(float) * H);
            std::memcpy(h + H, c.h_rev.data() + (size_t(b) * S + L - 1 - j) * H, sizeof(float) * H);
        }
    }
    // ←h_0: the backward GRU's state after it read the whole row
    last_state_forward(c.last_back.data(), c.h_rev.data(), len, B, S, H);
    // s_0 = tanh(W_s ←h_0 + b_s)
    dense_forward(c.s0.data(), c.last_back.data(), p.bahdanau.init_weight.data(), p.bahdanau.init_bias.data(), B, H, H);
    kernels::tanh_array(c.s0.data(), c.s0.data(), B * H);
    // k_j = W_e h_j, one product for the batch
    attention_keys_forward(c.att, c.annotations.data(), p.attention, Scorer::additive, B, S, H);
}

// Step t once dec_x[:, t] holds y_t: the context from s_{t−1} (or from greedy decoding's
// overrides, attention_override.h), the GRU step, the deep output's logits[:, t].
void decoder_step(BahdanauCache& c, const int* len, const Params& p, int t, int B, int S, int H,
                  AttentionOverrides overrides = {}) {
    const int T = c.T, V = c.V;
    const int A = 2 * H, D = E_out + A, O = 3 * H + E_out;
    const float* s_prev = state_before(c.s0.data(), c.dec_h.data(), t, H);
    const int ld_prev = state_before_ld(t, H, T);
    // c_t = attention(s_{t−1}, h), into dec_x[:, t, 16:]
    attention_step_forward(c.dec_x.data() + size_t(t) * D + E_out, T * D, c.att, s_prev, ld_prev,
                           c.annotations.data(), len, p.attention, Scorer::additive, t, B, S, T, H);
    override_attention(overrides, t, c.att.alpha.data(), c.dec_x.data() + size_t(t) * D + E_out, T * D,
                       c.annotations.data(), len, S, T, A);
    // s_t = GRU([y_t ; c_t], s_{t−1})
    project_decoder_inputs(c.dec_gru, c.dec_x.data(), p.dec_gru, t, 1, D, B, D, H, T);
    gru_step_forward(c.dec_h.data(), c.dec_gru, s_prev, ld_prev, nullptr, p.dec_gru, t, B, T, H);
    // logits_t = W_o [s_t ; y_t ; c_t] + b_o
    for (int b = 0; b < B; ++b) {
        const size_t bt = size_t(b) * T + t;
        float* in = c.out_in.data() + bt * O;
        std::memcpy(in, c.dec_h.data() + bt * H, sizeof(float) * H);
        std::memcpy(in + H, c.dec_x.data() + bt * D, sizeof(float) * D);  // y_t then c_t
        std::memcpy(c.logits.data() + bt * V, p.out_bias.data(), sizeof(float) * V);
    }
    kernels::matmul_nt(B, V, O, c.out_in.data() + size_t(t) * O, T * O, p.out_weight.data(), O,
                       c.logits.data() + size_t(t) * V, T * V, true);
}

}  // namespace

float bahdanau_forward(BahdanauCache& c, const Batch& batch, const Params& p,
                       const ModelConfig& config) {
    const int H = config.H, B = batch.B, S = batch.S, D = E_out + 2 * H;
    reserve(c, B, S, config);
    const int T = c.T, V = c.V;
    encode(c, batch.src.data(), batch.src_len.data(), p, B, S, H);
    embedding_forward(c.dec_x.data(), batch.dec_in.data(), p.dec_embedding.data(), B * T, E_out, D);
    gru_begin_steps(c.dec_gru, p.dec_gru, B, H);
    for (int t = 0; t < T; ++t) decoder_step(c, batch.src_len.data(), p, t, B, S, H);
    return softmax_cross_entropy_forward(c.probs.data(), c.logits.data(), batch.dec_out.data(),
                                         B * T, V);
}

void bahdanau_backward(Params& grads, BahdanauCache& c, const Batch& batch, const Params& p,
                       const ModelConfig& config) {
    const int H = config.H, T = c.T, V = c.V;
    const int B = batch.B, S = batch.S, A = 2 * H, G = 3 * H, D = E_out + A, O = 3 * H + E_out;
    const int* len = batch.src_len.data();
    const size_t BT = size_t(B) * T, BS = size_t(B) * S;
    zero(c.dlogits, BT * V);
    zero(c.dout_in, BT * O);
    zero(c.ddec_x, BT * D);
    zero(c.ds0, size_t(B) * H);
    zero(c.dannotations, BS * A);
    attention_zero_grads(c.att, Scorer::additive, B, S, T, H);

    softmax_cross_entropy_backward(c.dlogits.data(), c.probs.data(), batch.dec_out.data(), B * T, V);
    dense_backward(c.dout_in.data(), grads.out_weight.data(), grads.out_bias.data(),
                   c.dlogits.data(), c.out_in.data(), p.out_weight.data(), B * T, O, V);
    // [s_t ; y_t ; c_t]  →  ds_t, and dy_t, dc_t into ddec_x (same layout as dec_x)
    for (size_t bt = 0; bt < BT; ++bt) {
        const float* d = c.dout_in.data() + bt * O;
        std::memcpy(c.dec_gru.dh.data() + bt * H, d, sizeof(float) * H);
        std::memcpy(c.ddec_x.data() + bt * D, d + H, sizeof(float) * D);
    }
    for (int t = T - 1; t >= 0; --t) {
        float* ds_prev = state_before(c.ds0.data(), c.dec_gru.dh.data(), t, H);
        const int ld_dprev = state_before_ld(t, H, T);
        gru_step_backward(ds_prev, ld_dprev, c.dec_gru, nullptr, p.dec_gru, t, B, T, H);
        // xproj_t = b_ih + [y_t ; c_t] W_ihᵀ  →  d[y_t ; c_t] += dxproj_t W_ih
        kernels::matmul_nn(B, D, G, c.dec_gru.dxproj.data() + size_t(t) * G, T * G,
                           p.dec_gru.weight_ih.data(), D, c.ddec_x.data() + size_t(t) * D, T * D, true);
        // c_t = attention(s_{t−1}, h)  →  ds_{t−1}, dh_j, the keys' and W_d's shares
        attention_step_backward(ds_prev, ld_dprev, c.dannotations.data(), c.att,
                                c.ddec_x.data() + size_t(t) * D + E_out, T * D,
                                state_before(c.s0.data(), c.dec_h.data(), t, H), ld_dprev,
                                c.annotations.data(), len, p.attention, Scorer::additive, t, B, S,
                                T, H);
    }
    gru_weights_backward(grads.dec_gru, c.dec_gru, c.dec_x.data(), B, T, D, H);
    embedding_backward(grads.dec_embedding.data(), c.ddec_x.data(), batch.dec_in.data(), B * T,
                       E_out, D);
    // attention's weights: k = h W_eᵀ, q_t = s_{t−1} W_dᵀ (hprev holds each step's s_{t−1})
    attention_keys_backward(c.dannotations.data(), grads.attention, c.att, c.annotations.data(),
                            c.dec_gru.hprev.data(), p.attention, Scorer::additive, B, S, T, H);
    // s_0 = tanh(W_s ←h_0 + b_s)
    for (int i = 0; i < B * H; ++i) c.ds0[size_t(i)] *= 1.0f - c.s0[size_t(i)] * c.s0[size_t(i)];
    zero(c.dlast_back, size_t(B) * H);
    dense_backward(c.dlast_back.data(), grads.bahdanau.init_weight.data(), grads.bahdanau.init_bias.data(),
                   c.ds0.data(), c.last_back.data(), p.bahdanau.init_weight.data(), B, H, H);
    // split the annotations' gradient between the two directions
    zero(c.dh_fwd, BS * H);
    zero(c.dh_rev, BS * H);
    for (int b = 0; b < B; ++b) {
        const int L = len[b];
        for (int j = 0; j < L; ++j) {
            const float* d = c.dannotations.data() + (size_t(b) * S + j) * A;
            std::memcpy(c.dh_fwd.data() + (size_t(b) * S + j) * H, d, sizeof(float) * H);
            std::memcpy(c.dh_rev.data() + (size_t(b) * S + L - 1 - j) * H, d + H, sizeof(float) * H);
        }
    }
    last_state_backward(c.dh_rev.data(), c.dlast_back.data(), len, B, S, H);
    zero(c.dx, BS * E_in);
    zero(c.dx_rev, BS * E_in);
    gru_backward(c.dx.data(), nullptr, grads.enc_gru, c.gru_fwd, c.dh_fwd.data(), c.x.data(), len,
                 p.enc_gru, B, S, E_in, H);
    gru_backward(c.dx_rev.data(), nullptr, grads.bahdanau.enc_gru_reverse, c.gru_rev, c.dh_rev.data(),
                 c.x_rev.data(), len, p.bahdanau.enc_gru_reverse, B, S, E_in, H);
    for (int b = 0; b < B; ++b)
        for (int j = 0; j < len[b]; ++j) {
            float* dx = c.dx.data() + (size_t(b) * S + len[b] - 1 - j) * E_in;
            const float* dr = c.dx_rev.data() + (size_t(b) * S + j) * E_in;
            for (int i = 0; i < E_in; ++i) dx[i] += dr[i];
        }
    embedding_backward(grads.enc_embedding.data(), c.dx.data(), batch.src.data(), B * S, E_in, E_in);
}

void bahdanau_greedy_decode(int32_t* tokens, BahdanauCache& c, const int32_t* src,
                            const int* src_len, int B, int S, const Params& p,
                            const ModelConfig& config, AttentionOverrides overrides) {
    const int H = config.H, D = E_out + 2 * H;
    reserve(c, B, S, config);
    encode(c, src, src_len, p, B, S, H);
    gru_begin_steps(c.dec_gru, p.dec_gru, B, H);
    greedy_steps(tokens, c.dec_x.data(), D, c.logits.data(), p, B, *config.task,
                 [&](int t) { decoder_step(c, src_len, p, t, B, S, H, overrides); });
}

Params bahdanau_params(const ModelConfig& config) {
    const size_t h = size_t(config.H);
    Params p = gru_family_params(config, E_out + 2 * config.H, false);
    p.bahdanau.enc_gru_reverse = make_gru_params(E_in, config.H);
    p.bahdanau.init_weight = xt::zeros<float>({h, h});
    p.bahdanau.init_bias = xt::zeros<float>({h});
    p.attention = make_attention_params(Scorer::additive, config.H, 2 * config.H);
    p.out_weight = xt::zeros<float>({size_t(output_vocab(config)), 3 * h + E_out});
    return p;
}

long bahdanau_parameter_count(const ModelConfig& config) {
    const long H = config.H, G = 3 * H, D = E_out + 2 * H, V = output_vocab(config);
    const long gru_encoder = G * E_in + G * H + 2 * G;
    const long embeddings = long(input_vocab(config)) * E_in + V * E_out;
    const long dec_gru = G * D + G * H + 2 * G;
    // two encoder GRUs, s_0's layer, the scorer with W_e's second half, the deep output
    return embeddings + 2 * gru_encoder + dec_gru + (H * H + H) +
           scorer_parameter_count(Scorer::additive, int(H)) + H * H + V * (3 * H + E_out) + V;
}

double bahdanau_forward_flops(const ModelConfig& config, double S) {
    const double H = config.H, steps = output_steps(config) + 1;
    return 2 * (2 * S * 3 * H * (E_in + H) + S * 2 * H * H +
                steps * (3 * H * (E_out + 2 * H) + 3 * H * H + H * H + 3 * S * H));
}

ModelKind bahdanau_kind() {
    ModelKind row;
    row.name = "bahdanau";
    row.scorers = {{"additive", Scorer::additive}};
    row.two_way_encoder = true;
    row.make_params = bahdanau_params;
    row.parameter_count = bahdanau_parameter_count;
    row.forward_flops = bahdanau_forward_flops;
    row.forward = [](Activations& a, const Batch& batch, const Model& m, Rng*) {
        return bahdanau_forward(a.bahdanau, batch, m.params, m.config);
    };
    row.backward = [](Params& g, Activations& a, const Batch& batch, const Model& m) {
        bahdanau_backward(g, a.bahdanau, batch, m.params, m.config);
    };
    row.greedy_decode = [](Activations& a, const int32_t* src, const int* len, int B, int S,
                           const Model& m, AttentionOverrides overrides) {
        bahdanau_greedy_decode(a.tokens.data(), a.bahdanau, src, len, B, S, m.params, m.config,
                               overrides);
    };
    row.logits = [](const Activations& a) -> const float* { return a.bahdanau.logits.data(); };
    row.read_attention = read_step_alignment;
    row.alignment = [](const Activations& a) -> const float* { return a.bahdanau.att.alpha.data(); };
    return row;
}

}  // namespace lb
