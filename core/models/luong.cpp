// core/models/luong.cpp — Luong et al. 2015, global and local-p (see luong.h).
// Global attention is attention.h's, called with s_t instead of s_{t−1};
// local-p's windowed, Gaussian-weighted step is written out here.
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// G = 3H gate rows, D decoder GRU input width (16, or 16 + H with input
// feeding), L = src_len[b] a row's real length.
#include "models/luong.h"

#include <cmath>
#include <cstring>
#include "kernels/buffers.h"
#include "models/gru_decoding.h"
#include "kernels/kernels.h"
#include "layers/layers.h"
#include "models/encoder_decoder.h"
#include "models/params.h"
#include "models/registry.h"

namespace lb {

namespace {

constexpr int E_in = encoder_embedding_width;
constexpr int E_out = decoder_embedding_width;
constexpr float local_sigma = local_half_width / 2.0f;

bool is_local(const ModelConfig& c) { return c.decoder == DecoderKind::luong_local; }
int input_width(const ModelConfig& c) { return E_out + (c.input_feeding ? c.H : 0); }

void reserve(LuongCache& c, const ModelConfig& config, int B, int S) {
    const int T = output_steps(config), V = output_vocab(config);
    const size_t b = size_t(B), s = size_t(S), h = size_t(config.H), D = input_width(config);
    for (auto* x : {&c.enc_x, &c.denc_x}) grow(*x, b * s * E_in);
    for (auto* x : {&c.enc_h, &c.denc_h}) grow(*x, b * s * h);
    for (auto* x : {&c.s0, &c.ds0}) grow(*x, b * h);
    for (auto* x : {&c.dec_x, &c.ddec_x}) grow(*x, b * T * D);
    for (auto* x : {&c.dec_h, &c.attentional, &c.dattentional, &c.position_u}) grow(*x, b * T * h);
    for (auto* x : {&c.combine_in, &c.dcombine_in}) grow(*x, b * T * 2 * h);
    for (auto* x : {&c.logits, &c.probs, &c.dlogits}) grow(*x, b * T * V);
    for (auto* x : {&c.position_sig, &c.centre}) grow(*x, b * T);
    for (auto* x : {&c.align, &c.gauss}) grow(*x, b * T * s);
    if (c.window.size() < b * T * 2) c.window.resize(b * T * 2);
    gru_reserve(c.enc_gru, B, S, config.H);
    gru_reserve(c.dec_gru, B, T, config.H);
    attention_reserve(c.att, config.scorer, B, S, T, config.H);
}

void encode(LuongCache& c, const int32_t* src, const int* len, const Params& p,
            const ModelConfig& config, int B, int S) {
    const int H = config.H;
    encode_last_state(c.enc_x.data(), c.enc_h.data(), c.s0.data(), c.enc_gru, src, len, p, B, S, H);
    attention_keys_forward(c.att, c.enc_h.data(), p.attention, config.scorer, B, S, H);
}

// Local-p at step t: p_t, the window, a_tj (into att.alpha) and c_t (into
// combine_in[:, t, :H]) from s_t = dec_h[:, t].
void local_attention_forward(LuongCache& c, const int* len, const Params& p,
                             const ModelConfig& config, int t, int B, int S) {
    const int T = output_steps(config);
    const int H = config.H;
    const float* s = c.dec_h.data() + size_t(t) * H;
    float* u = c.position_u.data() + size_t(t) * H;
    // u = tanh(W_p s_t)
    kernels::matmul_nt(B, H, H, s, T * H, p.luong.position_weight.data(), H, u, T * H, false);
    const float* keys = config.scorer == Scorer::dot ? c.enc_h.data() : c.att.keys.data();
    for (int b = 0; b < B; ++b) {
        const int L = len[b];
        const size_t bt = size_t(b) * T + t;
        float* ub = c.position_u.data() + bt * H;
        kernels::tanh_array(ub, ub, H);
        const float z = kernels::dot(p.luong.position_v.data(), ub, H);
        const float sig = 1.0f / (1.0f + std::exp(-z));
        const float centre = float(L) * sig;
        c.position_sig[bt] = sig;
        c.centre[bt] = centre;
        // Overflowing weights make p_t NaN, which no integer can hold: the window is then the
        // whole row and the NaN flows on through the Gaussian, for decoding's check to stop.
        const bool placed = std::isfinite(centre);
        const int first = placed ? std::max(0, int(std::ceil(centre - local_half_width))) : 0;
        const int last = placed ? std::min(L - 1, int(std::floor(centre + local_half_width))) : L - 1;
        c.window[2 * bt] = first;
        c.window[2 * bt + 1] = last;
        // the softmax over the window of e_j = s_t · k_j
        float* align = c.align.data() + bt * S;
        float* gauss = c.gauss.data() + bt * S;
        float* alpha = c.att.alpha.data() + bt * S;
        std::memset(align, 0, sizeof(float) * S);
        std::memset(gauss, 0, sizeof(float) * S);
        std::memset(alpha, 0, sizeof(float) * S);
        const float* sb = s + size_t(b) * T * H;
        for (int j = first; j <= last; ++j)
            align[j] = kernels::dot(sb, keys + (size_t(b) * S + j) * H, H);
        const int width = last - first + 1;
        masked_softmax_forward(align + first, width, width);
        // a_j = softmax_j · exp(−(j − p_t)² / 2σ²)
        for (int j = first; j <= last; ++j) {
            const float d = float(j) - centre;
            gauss[j] = std::exp(-d * d / (2 * local_sigma * local_sigma));
            alpha[j] = align[j] * gauss[j];
        }
        float* ctx = c.combine_in.data() + bt * 2 * H;
        std::memset(ctx, 0, sizeof(float) * H);
        for (int j = first; j <= last; ++j) {
            const float* h = c.enc_h.data() + (size_t(b) * S + j) * H;
            for (int i = 0; i < H; ++i) ctx[i] += alpha[j] * h[i];
        }
    }
}

// Backward of local_attention_forward at step t from dc_t = dcombine_in[:, t, :H]:
// ADDS into ds_t = dec_gru.dh[:, t], denc_h, att.dkeys (general) and the
// gradients of W_p, v_p; leaves d(W_p s_t) in position_u for dW_p.
void local_attention_backward(Params& grads, LuongCache& c, const int* len, const Params& p,
                              const ModelConfig& config, int t, int B, int S) {
    const int T = output_steps(config);
    const int H = config.H;
    const bool dot = config.scorer == Scorer::dot;
    const float* keys = dot ? c.enc_h.data() : c.att.keys.data();
    float* dkeys = dot ? c.denc_h.data() : c.att.dkeys.data();
    for (int b = 0; b < B; ++b) {
        const int L = len[b];
        const size_t bt = size_t(b) * T + t;
        const int first = c.window[2 * bt], last = c.window[2 * bt + 1];
        const float centre = c.centre[bt], sig = c.position_sig[bt];
        const float* dc = c.dcombine_in.data() + bt * 2 * H;
        const float* align = c.align.data() + bt * S;
        const float* gauss = c.gauss.data() + bt * S;
        const float* s = c.dec_h.data() + bt * H;
        float* ds = c.dec_gru.dh.data() + bt * H;
        float* dalign = c.att.dscores.data() + bt * S;
        // c = Σ a_j h_j, a_j = align_j g_j  →  dh_j += a_j dc, dalign_j = (dc · h_j) g_j,
        // dp = Σ_j (dc · h_j) align_j g_j (j − p) / σ²
        float dcentre = 0;
        for (int j = first; j <= last; ++j) {
            const float* h = c.enc_h.data() + (size_t(b) * S + j) * H;
            float* dh = c.denc_h.data() + (size_t(b) * S + j) * H;
            const float da = kernels::dot(dc, h, H);
            for (int i = 0; i < H; ++i) dh[i] += align[j] * gauss[j] * dc[i];
            dalign[j] = da * gauss[j];
            dcentre += da * align[j] * gauss[j] * (float(j) - centre) / (local_sigma * local_sigma);
        }
        // the window's softmax (de in place of dalign), then e_j = s · k_j
        const int width = last - first + 1;
        masked_softmax_backward(dalign + first, align + first, dalign + first, width, width);
        for (int j = first; j <= last; ++j) {
            const float de = dalign[j];
            const float* k = keys + (size_t(b) * S + j) * H;
            float* dk = dkeys + (size_t(b) * S + j) * H;
            for (int i = 0; i < H; ++i) {
                ds[i] += de * k[i];
                dk[i] += de * s[i];
            }
        }
        // p = L σ(z), z = v_pᵀ u, u = tanh(W_p s): dv_p += dz u, d(W_p s) = dz v_p ⊙ (1 − u²)
        const float dz = dcentre * float(L) * sig * (1.0f - sig);
        float* u = c.position_u.data() + bt * H;
        for (int i = 0; i < H; ++i) {
            grads.luong.position_v[size_t(i)] += dz * u[i];
            u[i] = dz * p.luong.position_v[size_t(i)] * (1.0f - u[i] * u[i]);
        }
    }
    // ds_t += d(W_p s_t) W_p
    kernels::matmul_nn(B, H, H, c.position_u.data() + size_t(t) * H, T * H,
                       p.luong.position_weight.data(), H, c.dec_gru.dh.data() + size_t(t) * H, T * H, true);
}

// Step t once dec_x[:, t] holds y_t: (input feeding) h̃_{t−1}, the GRU step,
// attention of s_t (or greedy decoding's overrides, attention_override.h), h̃_t and logits[:, t].
void decoder_step(LuongCache& c, const int* len, const Params& p, const ModelConfig& config, int t,
                  int B, int S, AttentionOverrides overrides = {}) {
    const int T = output_steps(config), V = output_vocab(config);
    const int H = config.H, D = input_width(config);
    const float* s_prev = state_before(c.s0.data(), c.dec_h.data(), t, H);
    const int ld_prev = state_before_ld(t, H, T);
    if (config.input_feeding)
        for (int b = 0; b < B; ++b) {
            const size_t bt = size_t(b) * T + t;
            float* fed = c.dec_x.data() + bt * D + E_out;
            if (t == 0) std::memset(fed, 0, sizeof(float) * H);
            else std::memcpy(fed, c.attentional.data() + (bt - 1) * H, sizeof(float) * H);
        }
    project_decoder_inputs(c.dec_gru, c.dec_x.data(), p.dec_gru, t, 1, D, B, D, H, T);
    gru_step_forward(c.dec_h.data(), c.dec_gru, s_prev, ld_prev, nullptr, p.dec_gru, t, B, T, H);
    // c_t from s_t, into combine_in[:, t, :H]
    if (is_local(config))
        local_attention_forward(c, len, p, config, t, B, S);
    else
        attention_step_forward(c.combine_in.data() + size_t(t) * 2 * H, T * 2 * H, c.att,
                               c.dec_h.data() + size_t(t) * H, T * H, c.enc_h.data(), len,
                               p.attention, config.scorer, t, B, S, T, H);
    // an override stands for local-p's final a_tj over every real position, window or not
    override_attention(overrides, t, c.att.alpha.data(), c.combine_in.data() + size_t(t) * 2 * H,
                       T * 2 * H, c.enc_h.data(), len, S, T, H);
    // h̃_t = tanh(W_c [c_t ; s_t]); logits_t = W_out h̃_t + b_out
    for (int b = 0; b < B; ++b) {
        const size_t bt = size_t(b) * T + t;
        std::memcpy(c.combine_in.data() + bt * 2 * H + H, c.dec_h.data() + bt * H, sizeof(float) * H);
        std::memcpy(c.logits.data() + bt * V, p.out_bias.data(), sizeof(float) * V);
    }
    float* attentional = c.attentional.data() + size_t(t) * H;
    kernels::matmul_nt(B, H, 2 * H, c.combine_in.data() + size_t(t) * 2 * H, T * 2 * H,
                       p.luong.combine_weight.data(), 2 * H, attentional, T * H, false);
    for (int b = 0; b < B; ++b)
        kernels::tanh_array(attentional + size_t(b) * T * H, attentional + size_t(b) * T * H, H);
    kernels::matmul_nt(B, V, H, attentional, T * H, p.out_weight.data(), H,
                       c.logits.data() + size_t(t) * V, T * V, true);
}

}  // namespace

float luong_forward(LuongCache& c, const Batch& batch, const Params& p, const ModelConfig& config) {
    const int T = output_steps(config), V = output_vocab(config);
    const int B = batch.B, S = batch.S;
    reserve(c, config, B, S);
    encode(c, batch.src.data(), batch.src_len.data(), p, config, B, S);
    embedding_forward(c.dec_x.data(), batch.dec_in.data(), p.dec_embedding.data(), B * T, E_out,
                      input_width(config));
    gru_begin_steps(c.dec_gru, p.dec_gru, B, config.H);
    for (int t = 0; t < T; ++t) decoder_step(c, batch.src_len.data(), p, config, t, B, S);
    return softmax_cross_entropy_forward(c.probs.data(), c.logits.data(), batch.dec_out.data(),
                                         B * T, V);
}

void luong_backward(Params& grads, LuongCache& c, const Batch& batch, const Params& p,
                    const ModelConfig& config) {
    const int T = output_steps(config), V = output_vocab(config);
    const int B = batch.B, S = batch.S, H = config.H, G = 3 * H, D = input_width(config);
    const int* len = batch.src_len.data();
    const size_t BT = size_t(B) * T, BS = size_t(B) * S;
    zero(c.dlogits, BT * V);
    zero(c.ds0, size_t(B) * H);
    zero(c.denc_h, BS * H);
    zero(c.denc_x, BS * E_in);
    zero(c.ddec_x, BT * D);
    zero(c.dec_gru.dh, BT * H);
    attention_zero_grads(c.att, config.scorer, B, S, T, H);

    softmax_cross_entropy_backward(c.dlogits.data(), c.probs.data(), batch.dec_out.data(), B * T, V);
    const float* attentional = c.attentional.data();
    float* dattentional = c.dattentional.data();  // dh̃, then d(W_c [c ; s]) in place
    zero(c.dattentional, BT * H);
    dense_backward(dattentional, grads.out_weight.data(), grads.out_bias.data(), c.dlogits.data(),
                   attentional, p.out_weight.data(), B * T, H, V);
    for (int t = T - 1; t >= 0; --t) {
        // dh̃_t is complete (the output's, and step t + 1's input feeding): through tanh and W_c
        for (int b = 0; b < B; ++b) {
            const size_t bt = size_t(b) * T + t;
            for (int i = 0; i < H; ++i) {
                const float a = attentional[bt * H + size_t(i)];
                dattentional[bt * H + size_t(i)] *= 1.0f - a * a;
            }
        }
        kernels::matmul_nn(B, 2 * H, H, dattentional + size_t(t) * H, T * H,
                           p.luong.combine_weight.data(), 2 * H, c.dcombine_in.data() + size_t(t) * 2 * H,
                           T * 2 * H, false);
        float* ds = c.dec_gru.dh.data() + size_t(t) * H;
        for (int b = 0; b < B; ++b) {
            const float* d = c.dcombine_in.data() + (size_t(b) * T + t) * 2 * H + H;
            for (int i = 0; i < H; ++i) ds[size_t(b) * T * H + i] += d[i];
        }
        if (is_local(config))
            local_attention_backward(grads, c, len, p, config, t, B, S);
        else
            attention_step_backward(ds, T * H, c.denc_h.data(), c.att,
                                    c.dcombine_in.data() + size_t(t) * 2 * H, T * 2 * H,
                                    c.dec_h.data() + size_t(t) * H, T * H, c.enc_h.data(), len,
                                    p.attention, config.scorer, t, B, S, T, H);
        // ds_t is complete: the GRU step
        float* ds_prev = state_before(c.ds0.data(), c.dec_gru.dh.data(), t, H);
        gru_step_backward(ds_prev, state_before_ld(t, H, T), c.dec_gru, nullptr, p.dec_gru, t, B, T, H);
        // input feeding: x_t = [y_t ; h̃_{t−1}]  →  dh̃_{t−1} += dxproj_t W_ih[:, 16:]
        if (config.input_feeding && t > 0)
            kernels::matmul_nn(B, H, G, c.dec_gru.dxproj.data() + size_t(t) * G, T * G,
                               p.dec_gru.weight_ih.data() + E_out, D,
                               dattentional + size_t(t - 1) * H, T * H, true);
    }
    // W_c: dW_c += d(W_c [c ; s])ᵀ [c ; s]
    kernels::matmul_tn(H, 2 * H, B * T, dattentional, H, c.combine_in.data(), 2 * H,
                       grads.luong.combine_weight.data(), 2 * H, true);
    if (is_local(config))  // W_p: dW_p += d(W_p s)ᵀ s
        kernels::matmul_tn(H, H, B * T, c.position_u.data(), H, c.dec_h.data(), H,
                           grads.luong.position_weight.data(), H, true);
    gru_weights_backward(grads.dec_gru, c.dec_gru, c.dec_x.data(), B, T, D, H);
    kernels::matmul_nn(B * T, E_out, G, c.dec_gru.dxproj.data(), G, p.dec_gru.weight_ih.data(), D,
                       c.ddec_x.data(), D, true);
    embedding_backward(grads.dec_embedding.data(), c.ddec_x.data(), batch.dec_in.data(), B * T,
                       E_out, D);
    // the scorer's keys (and concat's W_d against the states it scored, s_1..s_T)
    attention_keys_backward(c.denc_h.data(), grads.attention, c.att, c.enc_h.data(),
                            c.dec_h.data(), p.attention, config.scorer, B, S, T, H);
    last_state_backward(c.denc_h.data(), c.ds0.data(), len, B, S, H);  // s_0 = h_{len−1}
    gru_backward(c.denc_x.data(), nullptr, grads.enc_gru, c.enc_gru, c.denc_h.data(),
                 c.enc_x.data(), len, p.enc_gru, B, S, E_in, H);
    embedding_backward(grads.enc_embedding.data(), c.denc_x.data(), batch.src.data(), B * S, E_in,
                       E_in);
}

void luong_greedy_decode(int32_t* tokens, LuongCache& c, const int32_t* src, const int* src_len,
                         int B, int S, const Params& p, const ModelConfig& config,
                         AttentionOverrides overrides) {
    const int D = input_width(config);
    reserve(c, config, B, S);
    encode(c, src, src_len, p, config, B, S);
    gru_begin_steps(c.dec_gru, p.dec_gru, B, config.H);
    greedy_steps(tokens, c.dec_x.data(), D, c.logits.data(), p, B, *config.task,
                 [&](int t) { decoder_step(c, src_len, p, config, t, B, S, overrides); });
}

Params luong_params(const ModelConfig& config) {
    const size_t h = size_t(config.H);
    Params p = gru_family_params(config, E_out + (config.input_feeding ? config.H : 0), true);
    p.luong.combine_weight = xt::zeros<float>({h, 2 * h});
    if (config.decoder == DecoderKind::luong_local) {
        p.luong.position_weight = xt::zeros<float>({h, h});
        p.luong.position_v = xt::zeros<float>({h});
    }
    return p;
}

long luong_parameter_count(const ModelConfig& config) {
    const int V = output_vocab(config);
    const long H = config.H, G = 3 * H, D = E_out + (config.input_feeding ? H : 0);
    const long gru_encoder = G * E_in + G * H + 2 * G;
    const long embeddings = long(input_vocab(config)) * E_in + long(V) * E_out;
    const long dec_gru = G * D + G * H + 2 * G;
    const long output = V * H + V;
    const long combine = 2 * H * H;
    const long local = config.decoder == DecoderKind::luong_local ? H * H + H : 0;
    return embeddings + gru_encoder + dec_gru + output +
           scorer_parameter_count(config.scorer, int(H)) + combine + local;
}

double luong_forward_flops(const ModelConfig& config, double S) {
    const double H = config.H, steps = output_steps(config) + 1;
    const double local = config.decoder == DecoderKind::luong_local ? H * H : 0;
    return 2 * (S * 3 * H * (E_in + H) + S * H * H +
                steps * (3 * H * (E_out + H) + 2 * S * H + 2 * H * H + local));
}


// --- the rows of the table of kinds (registry.h) ----------------------------------------------
// Global and local-p attention: one family, two rows.
namespace {
ModelKind luong_family_kind(std::string_view name, std::vector<ScorerChoice> scorers) {
    ModelKind row;
    row.name = name;
    row.scorers = std::move(scorers);
    row.default_scorer = Scorer::general;
    row.input_feeding = true;
    row.make_params = luong_params;
    row.parameter_count = luong_parameter_count;
    row.forward_flops = luong_forward_flops;
    row.forward = [](Activations& a, const Batch& batch, const Model& m, Rng*) {
        return luong_forward(a.luong, batch, m.params, m.config);
    };
    row.backward = [](Params& g, Activations& a, const Batch& batch, const Model& m) {
        luong_backward(g, a.luong, batch, m.params, m.config);
    };
    row.greedy_decode = [](Activations& a, const int32_t* src, const int* len, int B, int S,
                           const Model& m, AttentionOverrides overrides) {
        luong_greedy_decode(a.tokens.data(), a.luong, src, len, B, S, m.params, m.config, overrides);
    };
    row.logits = [](const Activations& a) -> const float* { return a.luong.logits.data(); };
    row.read_attention = read_step_alignment;
    row.alignment = [](const Activations& a) -> const float* { return a.luong.att.alpha.data(); };
    return row;
}
}  // namespace

ModelKind luong_kind() {
    return luong_family_kind("luong", {{"dot", Scorer::dot}, {"general", Scorer::general}, {"concat", Scorer::additive}});
}

// local-p's window edges [B, T, 2] move in whole positions.
ModelKind luong_local_kind() {
    ModelKind row = luong_family_kind("luong-local", {{"dot", Scorer::dot}, {"general", Scorer::general}});
    row.windowed_attention = true;
    row.piecewise_choices = [](const Activations& a) {
        return std::vector<int>(a.luong.window.begin(), a.luong.window.begin() + 2 * a.B * a.T);
    };
    return row;
}

}  // namespace lb
