// core/models/model.cpp — the plain and attention encoder–decoders: parameters,
// teacher-forced forward/backward, greedy decoding (see model.h).
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// G = 3H gate rows, D decoder GRU input width (16, or 16 + H with attention),
// V output tokens (the task's). The decoder runs step by step in both modes; with
// attention, step t's GRU input is [y_t ; c_t], where c_t needs s_{t−1}.
#include "models/encoder_decoder.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include "kernels/buffers.h"
#include "models/gru_decoding.h"
#include "kernels/kernels.h"
#include "layers/layers.h"
#include "models/registry.h"

namespace lb {

namespace {

constexpr int E_in = encoder_embedding_width;
constexpr int E_out = decoder_embedding_width;

bool has_attention(const ModelConfig& c) { return c.decoder == DecoderKind::attention; }
// The decoder GRU's input: [y_t], or [y_t ; c_t] with attention.
int decoder_input_width(const ModelConfig& c) { return E_out + (has_attention(c) ? c.H : 0); }

// s_{t−1} as decoder step t reads it: s0 for t = 0, else dec_h[:, t−1].
const float* state_before(const Activations& a, int t, int H) {
    return lb::state_before(a.s0.data(), a.dec_h.data(), t, H);
}

// The encoder, s0 and (attention) the keys: everything before the decoder loop.
void encode(Activations& a, const int32_t* src, const int* src_len, const Model& model) {
    const Params& p = model.params;
    const int B = a.B, S = a.S, H = model.config.H;
    encode_last_state(a.enc_x.data(), a.enc_h.data(), a.s0.data(), a.enc_gru, src, src_len, p, B, S, H);
    if (has_attention(model.config))
        attention_keys_forward(a.att, a.enc_h.data(), p.attention, model.config.scorer, B, S, H);
}

// Once per batch, before the decoder steps: the weights they multiply by,
// transposed, so that each step's product needs no transpose of its own (one
// string takes dot products with the rows instead, cheaper than a transpose).
void begin_decoder(Activations& a, const Model& model) {
    const int H = model.config.H, D = decoder_input_width(model.config);
    gru_begin_steps(a.dec_gru, model.params.dec_gru, a.B, H);
    if (has_attention(model.config) && a.B > 1)
        kernels::transpose(3 * H, H, model.params.dec_gru.weight_ih.data() + E_out, D,
                           a.dec_wctx_t.data(), 3 * H);
}

// xproj[:, t] = b_ih + y_t · W_ih[:, :16]ᵀ for steps [t0, t0 + steps) (the
// embedding part of the decoder GRU's input projection; one product for all
// steps when teacher-forced).
void project_embeddings(Activations& a, const Model& model, int t0, int steps) {
    project_decoder_inputs(a.dec_gru, a.dec_x.data(), model.params.dec_gru, t0, steps, E_out, a.B,
                           decoder_input_width(model.config), model.config.H, a.T);
}

// Decoder step t once xproj[:, t] holds the embedding part: attention's
// context (added into the projection), then the GRU step. overrides: greedy
// decoding's edited weights (attention_override.h), none when teacher-forced.
void decoder_step(Activations& a, const int* src_len, const Model& model, int t,
                  AttentionOverrides overrides = {}) {
    const Params& p = model.params;
    const int T = a.T;
    const int B = a.B, S = a.S, H = model.config.H, G = 3 * H, D = decoder_input_width(model.config);
    const float* s_prev = state_before(a, t, H);
    const int ld_prev = state_before_ld(t, H, T);
    if (has_attention(model.config)) {
        // c_t = attention(s_{t−1}, h), stored as the last H columns of dec_x[:, t]
        float* ctx = a.dec_x.data() + size_t(t) * D + E_out;
        attention_step_forward(ctx, T * D, a.att, s_prev, ld_prev, a.enc_h.data(), src_len,
                               p.attention, model.config.scorer, t, B, S, T, H);
        override_attention(overrides, t, a.att.alpha.data(), ctx, T * D, a.enc_h.data(), src_len, S, T, H);
        // xproj[:, t] += c_t · W_ih[:, 16:]ᵀ
        if (B > 1)
            kernels::matmul_nn(B, G, H, ctx, T * D, a.dec_wctx_t.data(), G,
                               a.dec_gru.xproj.data() + size_t(t) * G, T * G, true);
        else
            kernels::matmul_nt(B, G, H, ctx, T * D, p.dec_gru.weight_ih.data() + E_out, D,
                               a.dec_gru.xproj.data() + size_t(t) * G, T * G, true);
    }
    gru_step_forward(a.dec_h.data(), a.dec_gru, s_prev, ld_prev, nullptr, p.dec_gru, t, B, T, H);
}

}  // namespace

Params gru_family_params(const ModelConfig& config, int decoder_input, bool scored) {
    const int H = config.H;
    Params p;
    const size_t h = size_t(H);
    const size_t V = size_t(output_vocab(config));
    p.enc_embedding = xt::zeros<float>({size_t(input_vocab(config)), size_t(E_in)});
    p.enc_gru = make_gru_params(E_in, H);
    p.dec_embedding = xt::zeros<float>({V, size_t(E_out)});
    p.dec_gru = make_gru_params(decoder_input, H);
    p.out_weight = xt::zeros<float>({V, h});
    p.out_bias = xt::zeros<float>({V});
    p.attention = make_attention_params(scored ? config.scorer : Scorer::dot, H);
    const auto empty2 = xt::zeros<float>({size_t(0), size_t(0)});
    const auto empty1 = xt::zeros<float>({size_t(0)});
    p.bahdanau = {make_gru_params(0, 0), empty2, empty1};
    p.luong = {empty2, empty2, empty1};
    return p;
}

Params encoder_decoder_params(const ModelConfig& config) {
    return gru_family_params(config, decoder_input_width(config), has_attention(config));
}

long encoder_decoder_parameter_count(const ModelConfig& config) {
    const long H = config.H, G = 3 * H, D = decoder_input_width(config), V = output_vocab(config);
    const long gru_encoder = G * E_in + G * H + 2 * G;
    const long embeddings = long(input_vocab(config)) * E_in + V * E_out;
    const long dec_gru = G * D + G * H + 2 * G;
    const long output = V * H + V;
    const long attention = has_attention(config) ? scorer_parameter_count(config.scorer, H) : 0;
    return embeddings + gru_encoder + dec_gru + output + attention;
}

double encoder_decoder_forward_flops(const ModelConfig& config, double S) {
    const double H = config.H, steps = output_steps(config) + 1;
    const double encoder = S * 3 * H * (E_in + H);
    const double decoder = has_attention(config) ? steps * (3 * H * (E_out + 2 * H) + 2 * S * H + H * H)
                                                 : steps * 3 * H * (E_out + H);
    return 2 * (encoder + decoder);
}

void encoder_decoder_reserve(Activations& a, const ModelConfig& config, int B, int S) {
    if (B <= a.B_cap && S <= a.S_cap) return;
    a.B_cap = std::max(B, a.B_cap);
    a.S_cap = std::max(S, a.S_cap);
    const size_t Bc = a.B_cap, Sc = a.S_cap, H = config.H, D = decoder_input_width(config);
    const int T = output_steps(config);
    const size_t V = size_t(output_vocab(config));
    grow(a.enc_x, Bc * Sc * E_in);
    grow(a.enc_h, Bc * Sc * H);
    gru_reserve(a.enc_gru, a.B_cap, a.S_cap, config.H);
    grow(a.s0, Bc * H);
    grow(a.dec_x, Bc * T * D);
    grow(a.dec_h, Bc * T * H);
    gru_reserve(a.dec_gru, a.B_cap, T, config.H);
    if (has_attention(config)) grow(a.dec_wctx_t, H * 3 * H);
    if (has_attention(config)) attention_reserve(a.att, config.scorer, a.B_cap, a.S_cap, T, config.H);
    grow(a.logits, Bc * T * V);
    grow(a.probs, Bc * T * V);
    grow(a.dlogits, Bc * T * V);
    grow(a.ddec_h, Bc * T * H);
    grow(a.ddec_x, Bc * T * D);
    grow(a.ds0, Bc * H);
    grow(a.denc_h, Bc * Sc * H);
    grow(a.denc_x, Bc * Sc * E_in);
}

float encoder_decoder_forward(Activations& a, const Batch& batch, const Model& model) {
    const Params& p = model.params;
    const int B = batch.B, H = model.config.H, D = decoder_input_width(model.config);
    const int T = a.T, V = a.V;
    const int* src_len = batch.src_len.data();
    encode(a, batch.src.data(), src_len, model);
    // y_t = Embedding_out[dec_in_t] (teacher forcing), into the first 16 columns of dec_x
    embedding_forward(a.dec_x.data(), batch.dec_in.data(), p.dec_embedding.data(), B * T, E_out, D);
    project_embeddings(a, model, 0, T);
    begin_decoder(a, model);
    for (int t = 0; t < T; ++t) decoder_step(a, src_len, model, t);
    // logits_t = W_out s_t + b_out ; loss = mean CE
    dense_forward(a.logits.data(), a.dec_h.data(), p.out_weight.data(), p.out_bias.data(), B * T, H,
                  V);
    return softmax_cross_entropy_forward(a.probs.data(), a.logits.data(), batch.dec_out.data(),
                                         B * T, V);
}

void encoder_decoder_backward(Params& grads, Activations& a, const Batch& batch, const Model& model) {
    const Params& p = model.params;
    const ModelConfig& config = model.config;
    const int B = a.B, S = a.S, H = config.H, G = 3 * H, D = decoder_input_width(config);
    const int T = a.T, V = a.V;
    const int* src_len = batch.src_len.data();
    const size_t BT = size_t(B) * T, BS = size_t(B) * S;
    zero(a.dlogits, BT * V);
    zero(a.ddec_h, BT * H);
    zero(a.ddec_x, BT * D);
    zero(a.ds0, size_t(B) * H);
    zero(a.denc_h, BS * H);
    zero(a.denc_x, BS * E_in);

    softmax_cross_entropy_backward(a.dlogits.data(), a.probs.data(), batch.dec_out.data(), B * T, V);
    dense_backward(a.ddec_h.data(), grads.out_weight.data(), grads.out_bias.data(), a.dlogits.data(),
                   a.dec_h.data(), p.out_weight.data(), B * T, H, V);

    // The decoder, backward through its T steps.
    const bool attention = has_attention(config);
    if (attention) attention_zero_grads(a.att, config.scorer, B, S, T, H);
    std::memcpy(a.dec_gru.dh.data(), a.ddec_h.data(), sizeof(float) * BT * H);
    for (int t = T - 1; t >= 0; --t) {
        float* dh_prev = lb::state_before(a.ds0.data(), a.dec_gru.dh.data(), t, H);
        const int ld_dprev = state_before_ld(t, H, T);
        gru_step_backward(dh_prev, ld_dprev, a.dec_gru, nullptr, p.dec_gru, t, B, T, H);
        if (attention) {
            // xproj[:, t] += c_t · W_ih[:, 16:]ᵀ  →  dc_t = dxproj[:, t] · W_ih[:, 16:]
            float* dctx = a.ddec_x.data() + size_t(t) * D + E_out;
            kernels::matmul_nn(B, H, G, a.dec_gru.dxproj.data() + size_t(t) * G, T * G,
                               p.dec_gru.weight_ih.data() + E_out, D, dctx, T * D, true);
            attention_step_backward(dh_prev, ld_dprev, a.denc_h.data(), a.att, dctx, T * D,
                                    state_before(a, t, H), state_before_ld(t, H, T), a.enc_h.data(),
                                    src_len, p.attention, config.scorer, t, B, S, T, H);
        }
    }
    gru_weights_backward(grads.dec_gru, a.dec_gru, a.dec_x.data(), B, T, D, H);
    // xproj = b_ih + y · W_ih[:, :16]ᵀ  →  dy += dxproj · W_ih[:, :16]
    kernels::matmul_nn(B * T, E_out, G, a.dec_gru.dxproj.data(), G, p.dec_gru.weight_ih.data(), D,
                       a.ddec_x.data(), D, true);
    embedding_backward(grads.dec_embedding.data(), a.ddec_x.data(), batch.dec_in.data(), B * T,
                       E_out, D);
    if (attention)
        attention_keys_backward(a.denc_h.data(), grads.attention, a.att, a.enc_h.data(),
                                a.dec_gru.hprev.data(), p.attention, config.scorer, B, S, T, H);

    // s0 = h_{len−1}  →  dh_{len−1} += ds0
    last_state_backward(a.denc_h.data(), a.ds0.data(), src_len, B, S, H);
    // The encoder.
    gru_backward(a.denc_x.data(), nullptr, grads.enc_gru, a.enc_gru, a.denc_h.data(),
                 a.enc_x.data(), src_len, p.enc_gru, B, S, E_in, H);
    embedding_backward(grads.enc_embedding.data(), a.denc_x.data(), batch.src.data(), B * S, E_in,
                       E_in);
}

void encoder_decoder_greedy_decode(Activations& a, const int32_t* src, const int* src_len, int B,
                                   int, const Model& model, AttentionOverrides overrides) {
    const Params& p = model.params;
    const int H = model.config.H, D = decoder_input_width(model.config), T = a.T, V = a.V;
    encode(a, src, src_len, model);
    begin_decoder(a, model);
    greedy_steps(a.tokens.data(), a.dec_x.data(), D, a.logits.data(), p, B, *model.config.task, [&](int t) {
        project_embeddings(a, model, t, 1);
        decoder_step(a, src_len, model, t, overrides);
        // logits_t = W_out s_t + b_out
        float* logits = a.logits.data() + size_t(t) * V;
        for (int b = 0; b < B; ++b)
            std::memcpy(logits + size_t(b) * T * V, p.out_bias.data(), sizeof(float) * V);
        kernels::matmul_nt(B, V, H, a.dec_h.data() + size_t(t) * H, T * H, p.out_weight.data(), H,
                           logits, T * V, true);
    });
}

// --- the rows of the table of kinds (registry.h) ----------------------------------------------
// The lesson's plain and attention models differ only in their options.
namespace {
ModelKind encoder_decoder_kind(std::string_view name, std::vector<ScorerChoice> scorers) {
    ModelKind row;
    row.name = name;
    row.scorers = std::move(scorers);
    row.gradient_path = true;
    row.make_params = encoder_decoder_params;
    row.parameter_count = encoder_decoder_parameter_count;
    row.forward_flops = encoder_decoder_forward_flops;
    row.reserve = encoder_decoder_reserve;
    row.forward = [](Activations& a, const Batch& batch, const Model& m, Rng*) {
        return encoder_decoder_forward(a, batch, m);
    };
    row.backward = encoder_decoder_backward;
    row.greedy_decode = encoder_decoder_greedy_decode;
    row.logits = [](const Activations& a) -> const float* { return a.logits.data(); };
    return row;
}
}  // namespace

ModelKind plain_kind() { return encoder_decoder_kind("plain", {}); }

ModelKind attention_kind() {
    ModelKind row = encoder_decoder_kind(
        "attention", {{"additive", Scorer::additive}, {"dot", Scorer::dot}, {"general", Scorer::general}});
    row.default_scorer = Scorer::additive;
    row.read_attention = read_step_alignment;
    row.alignment = [](const Activations& a) -> const float* { return a.att.alpha.data(); };
    return row;
}

}  // namespace lb
