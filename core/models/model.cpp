// core/models/model.cpp — the plain and attention encoder–decoders: parameters,
// teacher-forced forward/backward, greedy decoding (see model.h).
//
// Legend: B batch rows, S padded source length, T output steps (10), H width,
// G = 3H gate rows, D decoder GRU input width (16, or 16 + H with attention),
// V = 13 output tokens. The decoder runs step by step in both modes; with
// attention, step t's GRU input is [y_t ; c_t], where c_t needs s_{t−1}.
#include "models/model.h"
#include "models/decoding_check.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include "kernels/buffers.h"
#include "models/gru_decoding.h"
#include "kernels/kernels.h"
#include "layers/layers.h"

namespace lb {

namespace {

constexpr int T = output_length;
constexpr int V = output_vocab_size;
constexpr int E_in = encoder_embedding_width;
constexpr int E_out = decoder_embedding_width;

bool has_attention(const ModelConfig& c) { return c.decoder == DecoderKind::attention; }
bool is_transformer(const ModelConfig& c) { return c.decoder == DecoderKind::transformer; }
bool is_bahdanau(const ModelConfig& c) { return c.decoder == DecoderKind::bahdanau; }
// The decoder GRU's input: [y_t], [y_t ; c_t] (attention: H, bahdanau: 2H),
// or luong's [y_t ; h̃_{t−1}] with input feeding.
int decoder_input_width(const ModelConfig& c) {
    if (c.decoder == DecoderKind::bahdanau) return E_out + 2 * c.H;
    return E_out + (has_attention(c) || c.input_feeding ? c.H : 0);
}
bool same_config(const ModelConfig& a, const ModelConfig& b) {
    return a.decoder == b.decoder && a.scorer == b.scorer && a.H == b.H && a.heads == b.heads &&
           a.ffn == b.ffn && a.memory == b.memory && a.dropout == b.dropout &&
           a.input_feeding == b.input_feeding;
}

// s_{t−1} as decoder step t reads it: s0 for t = 0, else dec_h[:, t−1].
const float* state_before(const Activations& a, int t, int H) {
    return t == 0 ? a.s0.data() : a.dec_h.data() + size_t(t - 1) * H;
}
int state_before_ld(int t, int H) { return t == 0 ? H : T * H; }

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
    const int B = a.B, H = model.config.H, G = 3 * H, D = decoder_input_width(model.config);
    const GruParams& gru = model.params.dec_gru;
    float* xproj = a.dec_gru.xproj.data();
    for (int b = 0; b < B; ++b)
        for (int t = t0; t < t0 + steps; ++t)
            std::memcpy(xproj + (size_t(b) * T + t) * G, gru.bias_ih.data(), sizeof(float) * G);
    if (steps == T)
        kernels::matmul_nt(B * T, G, E_out, a.dec_x.data(), D, gru.weight_ih.data(), D, xproj, G,
                           true);
    else
        for (int t = t0; t < t0 + steps; ++t)
            kernels::matmul_nt(B, G, E_out, a.dec_x.data() + size_t(t) * D, T * D,
                               gru.weight_ih.data(), D, xproj + size_t(t) * G, T * G, true);
}

// Decoder step t once xproj[:, t] holds the embedding part: attention's
// context (added into the projection), then the GRU step.
void decoder_step(Activations& a, const int* src_len, const Model& model, int t) {
    const Params& p = model.params;
    const int B = a.B, S = a.S, H = model.config.H, G = 3 * H, D = decoder_input_width(model.config);
    const float* s_prev = state_before(a, t, H);
    const int ld_prev = state_before_ld(t, H);
    if (has_attention(model.config)) {
        // c_t = attention(s_{t−1}, h), stored as the last H columns of dec_x[:, t]
        float* ctx = a.dec_x.data() + size_t(t) * D + E_out;
        attention_step_forward(ctx, T * D, a.att, s_prev, ld_prev, a.enc_h.data(), src_len,
                               p.attention, model.config.scorer, t, B, S, T, H);
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

// A transformer's cross-attention map of row b (L real positions of S): each
// head's [A, T, L] and their mean [T, L]; and its encoder's self-attention
// [A, L, L].
void copy_cross_attention(Decoded& d, const Activations& a, int b, int L, int S, int A) {
    const float* self = a.transformer.enc_attn.alpha.data() + size_t(b) * A * S * S;
    d.encoder_self_attention = xt::zeros<float>({size_t(A), size_t(L), size_t(L)});
    for (int h = 0; h < A; ++h)
        for (int i = 0; i < L; ++i)
            for (int j = 0; j < L; ++j)
                d.encoder_self_attention(h, i, j) = self[(size_t(h) * S + i) * S + j];
    const float* alpha = a.transformer.cross_attn.alpha.data() + size_t(b) * A * T * S;
    d.heads = xt::zeros<float>({size_t(A), size_t(T), size_t(L)});
    d.attention = xt::zeros<float>({size_t(T), size_t(L)});
    for (int h = 0; h < A; ++h)
        for (int t = 0; t < T; ++t)
            for (int j = 0; j < L; ++j) {
                const float w = alpha[(size_t(h) * T + t) * S + j];
                d.heads(h, t, j) = w;
                d.attention(t, j) += w / float(A);
            }
}

}  // namespace

void encode_last_state(float* x, float* h, float* s0, GruCache& gru, const int32_t* src,
                       const int* src_len, const Params& p, int B, int S, int H) {
    embedding_forward(x, src, p.enc_embedding.data(), B * S, E_in, E_in);
    gru_forward(h, gru, x, nullptr, src_len, p.enc_gru, B, S, E_in, H);
    for (int b = 0; b < B; ++b)
        std::memcpy(s0 + size_t(b) * H, h + (size_t(b) * S + src_len[b] - 1) * H, sizeof(float) * H);
}

std::optional<Scorer> parse_model_scorer(DecoderKind kind, std::string_view name) {
    const std::optional<Scorer> scorer = parse_scorer(name == "concat" ? "additive" : name);
    if (!scorer) return std::nullopt;
    switch (kind) {
        case DecoderKind::attention: return name == "concat" ? std::nullopt : scorer;
        case DecoderKind::luong: return name == "additive" ? std::nullopt : scorer;
        case DecoderKind::luong_local:
            return *scorer == Scorer::additive ? std::nullopt : scorer;
        case DecoderKind::bahdanau: return name == "additive" ? scorer : std::nullopt;
        default: return std::nullopt;
    }
}

std::string_view model_scorer_name(DecoderKind kind, Scorer scorer) {
    if (kind == DecoderKind::bahdanau) return "additive";
    if (kind == DecoderKind::attention) return scorer_name(scorer);
    if (is_luong(kind)) return scorer == Scorer::additive ? "concat" : scorer_name(scorer);
    return "none";
}

std::string_view model_scorer_choices(DecoderKind kind) {
    switch (kind) {
        case DecoderKind::attention: return "additive, dot or general";
        case DecoderKind::luong: return "dot, general or concat";
        case DecoderKind::luong_local: return "dot or general";
        case DecoderKind::bahdanau: return "additive";
        default: return "none";
    }
}

Scorer default_scorer(DecoderKind kind) { return is_luong(kind) ? Scorer::general : Scorer::additive; }

bool takes_scorer(DecoderKind kind, Scorer scorer) {
    return parse_model_scorer(kind, model_scorer_name(kind, scorer)) == scorer;
}

std::string model_label(const ModelConfig& c) {
    std::string label(decoder_name(c.decoder));
    if (c.decoder == DecoderKind::transformer)
        return label + " (memory " + memory_name(c.memory) + ", " + std::to_string(c.heads) +
               (c.heads == 1 ? " head)" : " heads)");
    if (c.decoder == DecoderKind::attention || is_luong(c.decoder))
        label += " " + std::string(model_scorer_name(c.decoder, c.scorer));
    return c.input_feeding ? label + " + input feeding" : label;
}

TransformerConfig transformer_config(const ModelConfig& c) {
    return {c.H, c.heads, c.ffn > 0 ? c.ffn : 2 * c.H, c.memory, c.dropout};
}

Params make_params(const ModelConfig& config) {
    const int H = config.H;
    Params p;
    if (is_transformer(config)) {  // the GRU tensors stay empty
        p.transformer = make_transformer_params(transformer_config(config));
        return p;
    }
    const size_t h = size_t(H);
    p.enc_embedding = xt::zeros<float>({size_t(input_vocab_size), size_t(E_in)});
    p.enc_gru = make_gru_params(E_in, H);
    p.dec_embedding = xt::zeros<float>({size_t(V), size_t(E_out)});
    p.dec_gru = make_gru_params(decoder_input_width(config), H);
    p.out_weight = xt::zeros<float>({size_t(V), h});
    p.out_bias = xt::zeros<float>({size_t(V)});
    const bool scored = has_attention(config) || is_luong(config.decoder);
    p.attention = make_attention_params(scored ? config.scorer : Scorer::dot, H);
    p.enc_gru_reverse = make_gru_params(0, 0);
    p.init_weight = xt::zeros<float>({size_t(0), size_t(0)});
    p.init_bias = xt::zeros<float>({size_t(0)});
    p.combine_weight = xt::zeros<float>({size_t(0), size_t(0)});
    p.position_weight = xt::zeros<float>({size_t(0), size_t(0)});
    p.position_v = xt::zeros<float>({size_t(0)});
    if (is_bahdanau(config)) {  // bahdanau.h's shapes
        p.enc_gru_reverse = make_gru_params(E_in, H);
        p.init_weight = xt::zeros<float>({h, h});
        p.init_bias = xt::zeros<float>({h});
        p.attention = make_attention_params(Scorer::additive, H);
        p.attention.W_e = xt::zeros<float>({h, 2 * h});
        p.out_weight = xt::zeros<float>({size_t(V), 3 * h + E_out});
    }
    if (is_luong(config.decoder)) p.combine_weight = xt::zeros<float>({h, 2 * h});
    if (config.decoder == DecoderKind::luong_local) {
        p.position_weight = xt::zeros<float>({h, h});
        p.position_v = xt::zeros<float>({h});
    }
    return p;
}

void check_model_config(const ModelConfig& config) {
    if (config.H < 1) throw std::invalid_argument("model width must be at least 1");
    if (is_transformer(config)) check_transformer_config(transformer_config(config));
    if (config.decoder != DecoderKind::transformer && config.decoder != DecoderKind::plain &&
        !takes_scorer(config.decoder, config.scorer))
        throw std::invalid_argument("the " + std::string(decoder_name(config.decoder)) +
                                    " model's scorer must be " +
                                    std::string(model_scorer_choices(config.decoder)));
    if (config.input_feeding && !is_luong(config.decoder))
        throw std::invalid_argument("input feeding is for the luong and luong-local models only");
}

Model make_model(const ModelConfig& config) {
    check_model_config(config);
    return {config, make_params(config)};
}

long parameter_count(const ModelConfig& config) {
    if (is_transformer(config)) return transformer_parameter_count(transformer_config(config));
    const long H = config.H, G = 3 * H, D = decoder_input_width(config);
    const long gru_encoder = G * E_in + G * H + 2 * G;
    const long embeddings = long(input_vocab_size) * E_in + long(V) * E_out;
    const long dec_gru = G * D + G * H + 2 * G;
    if (is_bahdanau(config))  // bahdanau.h: two encoder GRUs, s_0's layer, the deep output
        return embeddings + 2 * gru_encoder + dec_gru + (H * H + H) +
               scorer_parameter_count(Scorer::additive, H) + H * H /* W_e's second half */ +
               V * (3 * H + E_out) + V;
    const long output = V * H + V;
    const bool scored = has_attention(config) || is_luong(config.decoder);
    const long attention = scored ? scorer_parameter_count(config.scorer, H) : 0;
    const long combine = is_luong(config.decoder) ? 2 * H * H : 0;
    const long local = config.decoder == DecoderKind::luong_local ? H * H + H : 0;
    return embeddings + gru_encoder + dec_gru + output + attention + combine + local;
}

template <class P, class Float>
static std::vector<NamedTensorOf<Float>> list_tensors(P& p) {
    std::vector<NamedTensorOf<Float>> list;
    auto add = [&](const char* name, auto& tensor) {
        if (tensor.size() == 0) return;
        std::vector<size_t> shape(tensor.shape().begin(), tensor.shape().end());
        list.push_back({name, tensor.data(), shape, tensor.size()});
    };
    add("encoder.embedding.weight", p.enc_embedding);
    add("encoder.gru.weight_ih_l0", p.enc_gru.weight_ih);
    add("encoder.gru.weight_hh_l0", p.enc_gru.weight_hh);
    add("encoder.gru.bias_ih_l0", p.enc_gru.bias_ih);
    add("encoder.gru.bias_hh_l0", p.enc_gru.bias_hh);
    add("decoder.embedding.weight", p.dec_embedding);
    add("decoder.gru.weight_ih_l0", p.dec_gru.weight_ih);
    add("decoder.gru.weight_hh_l0", p.dec_gru.weight_hh);
    add("decoder.gru.bias_ih_l0", p.dec_gru.bias_ih);
    add("decoder.gru.bias_hh_l0", p.dec_gru.bias_hh);
    add("decoder.out.weight", p.out_weight);
    add("decoder.out.bias", p.out_bias);
    add("attention.W_e", p.attention.W_e);
    add("attention.W_d", p.attention.W_d);
    add("attention.v", p.attention.v);
    add("attention.W", p.attention.W);
    add("encoder.gru.weight_ih_l0_reverse", p.enc_gru_reverse.weight_ih);
    add("encoder.gru.weight_hh_l0_reverse", p.enc_gru_reverse.weight_hh);
    add("encoder.gru.bias_ih_l0_reverse", p.enc_gru_reverse.bias_ih);
    add("encoder.gru.bias_hh_l0_reverse", p.enc_gru_reverse.bias_hh);
    add("decoder.init.weight", p.init_weight);
    add("decoder.init.bias", p.init_bias);
    add("decoder.combine.weight", p.combine_weight);
    add("attention.W_p", p.position_weight);
    add("attention.v_p", p.position_v);
    visit_transformer_tensors(p.transformer, add);
    return list;
}

std::vector<NamedTensor> named_tensors(Params& params) {
    return list_tensors<Params, float>(params);
}
std::vector<ConstNamedTensor> named_tensors(const Params& params) {
    return list_tensors<const Params, const float>(params);
}

std::array<TensorSpan, tensor_slots> tensor_spans(Params& p) {
    auto span = [](auto& tensor) { return TensorSpan{tensor.data(), tensor.size()}; };
    std::array<TensorSpan, tensor_slots> spans = {
        span(p.enc_embedding),      span(p.enc_gru.weight_ih), span(p.enc_gru.weight_hh),
        span(p.enc_gru.bias_ih),    span(p.enc_gru.bias_hh),   span(p.dec_embedding),
        span(p.dec_gru.weight_ih),  span(p.dec_gru.weight_hh), span(p.dec_gru.bias_ih),
        span(p.dec_gru.bias_hh),    span(p.out_weight),        span(p.out_bias),
        span(p.attention.W_e),      span(p.attention.W_d),     span(p.attention.v),
        span(p.attention.W),        span(p.enc_gru_reverse.weight_ih),
        span(p.enc_gru_reverse.weight_hh), span(p.enc_gru_reverse.bias_ih),
        span(p.enc_gru_reverse.bias_hh),   span(p.init_weight),   span(p.init_bias),
        span(p.combine_weight),     span(p.position_weight),   span(p.position_v)};
    int k = 25;
    visit_transformer_tensors(p.transformer,
                              [&](const char*, auto& tensor) { spans[size_t(k++)] = span(tensor); });
    return spans;
}

void zero_params(Params& params) {
    for (const TensorSpan& t : tensor_spans(params))
        if (t.size) std::memset(t.data, 0, sizeof(float) * t.size);
}

void reserve_activations(Activations& a, const ModelConfig& config, int B, int S) {
    if (!same_config(a.config, config)) a = Activations{};
    a.config = config;
    a.B = B;
    a.S = S;
    if (is_transformer(config) || is_bahdanau(config) || is_luong(config.decoder)) {
        // their own files size their caches (greedy decoding's tokens are here)
        if (is_transformer(config)) transformer_reserve(a.transformer, transformer_config(config), B, S);
        if (a.tokens.size() < size_t(B) * T) a.tokens = xt::zeros<int32_t>({size_t(B) * T});
        return;
    }
    if (B <= a.B_cap && S <= a.S_cap) return;
    a.B_cap = std::max(B, a.B_cap);
    a.S_cap = std::max(S, a.S_cap);
    const size_t Bc = a.B_cap, Sc = a.S_cap, H = config.H, D = decoder_input_width(config);
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
    if (a.tokens.size() < Bc * T) a.tokens = xt::zeros<int32_t>({Bc * T});
    grow(a.dlogits, Bc * T * V);
    grow(a.ddec_h, Bc * T * H);
    grow(a.ddec_x, Bc * T * D);
    grow(a.ds0, Bc * H);
    grow(a.denc_h, Bc * Sc * H);
    grow(a.denc_x, Bc * Sc * E_in);
}

float model_forward(Activations& a, const Batch& batch, const Model& model, Rng* dropout_rng) {
    if (is_transformer(model.config)) {
        reserve_activations(a, model.config, batch.B, batch.S);
        return transformer_forward(a.transformer, batch, model.params.transformer,
                                   transformer_config(model.config), dropout_rng);
    }
    if (is_bahdanau(model.config)) {
        reserve_activations(a, model.config, batch.B, batch.S);
        return bahdanau_forward(a.bahdanau, batch, model.params, model.config.H);
    }
    if (is_luong(model.config.decoder)) {
        reserve_activations(a, model.config, batch.B, batch.S);
        return luong_forward(a.luong, batch, model.params, model.config);
    }
    const Params& p = model.params;
    const int B = batch.B, S = batch.S, H = model.config.H, D = decoder_input_width(model.config);
    reserve_activations(a, model.config, B, S);
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

void model_backward(Params& grads, Activations& a, const Batch& batch, const Model& model) {
    if (is_transformer(model.config))
        return transformer_backward(grads.transformer, a.transformer, batch,
                                    model.params.transformer, transformer_config(model.config));
    if (is_bahdanau(model.config))
        return bahdanau_backward(grads, a.bahdanau, batch, model.params, model.config.H);
    if (is_luong(model.config.decoder))
        return luong_backward(grads, a.luong, batch, model.params, model.config);
    const Params& p = model.params;
    const ModelConfig& config = model.config;
    const int B = a.B, S = a.S, H = config.H, G = 3 * H, D = decoder_input_width(config);
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
        float* dh_prev = t == 0 ? a.ds0.data() : a.dec_gru.dh.data() + size_t(t - 1) * H;
        const int ld_dprev = state_before_ld(t, H);
        gru_step_backward(dh_prev, ld_dprev, a.dec_gru, nullptr, p.dec_gru, t, B, T, H);
        if (attention) {
            // xproj[:, t] += c_t · W_ih[:, 16:]ᵀ  →  dc_t = dxproj[:, t] · W_ih[:, 16:]
            float* dctx = a.ddec_x.data() + size_t(t) * D + E_out;
            kernels::matmul_nn(B, H, G, a.dec_gru.dxproj.data() + size_t(t) * G, T * G,
                               p.dec_gru.weight_ih.data() + E_out, D, dctx, T * D, true);
            attention_step_backward(dh_prev, ld_dprev, a.denc_h.data(), a.att, dctx, T * D,
                                    state_before(a, t, H), state_before_ld(t, H), a.enc_h.data(),
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
    for (int b = 0; b < B; ++b) {
        float* dh = a.denc_h.data() + (size_t(b) * S + src_len[b] - 1) * H;
        const float* ds = a.ds0.data() + size_t(b) * H;
        for (int i = 0; i < H; ++i) dh[i] += ds[i];
    }
    // The encoder.
    gru_backward(a.denc_x.data(), nullptr, grads.enc_gru, a.enc_gru, a.denc_h.data(),
                 a.enc_x.data(), src_len, p.enc_gru, B, S, E_in, H);
    embedding_backward(grads.enc_embedding.data(), a.denc_x.data(), batch.src.data(), B * S, E_in,
                       E_in);
}

static void greedy_decode_any(Activations& a, const int32_t* src, const int* src_len, int B, int S,
                              const Model& model) {
    const Params& p = model.params;
    const int H = model.config.H, D = decoder_input_width(model.config);
    reserve_activations(a, model.config, B, S);
    if (is_transformer(model.config))
        return transformer_greedy_decode(a.tokens.data(), a.transformer, src, src_len, B, S,
                                         p.transformer, transformer_config(model.config));
    if (is_bahdanau(model.config))
        return bahdanau_greedy_decode(a.tokens.data(), a.bahdanau, src, src_len, B, S, p, H);
    if (is_luong(model.config.decoder))
        return luong_greedy_decode(a.tokens.data(), a.luong, src, src_len, B, S, p, model.config);
    encode(a, src, src_len, model);
    begin_decoder(a, model);
    greedy_steps(a.tokens.data(), a.dec_x.data(), D, a.logits.data(), p, B, [&](int t) {
        project_embeddings(a, model, t, 1);
        decoder_step(a, src_len, model, t);
        // logits_t = W_out s_t + b_out
        float* logits = a.logits.data() + size_t(t) * V;
        for (int b = 0; b < B; ++b)
            std::memcpy(logits + size_t(b) * T * V, p.out_bias.data(), sizeof(float) * V);
        kernels::matmul_nt(B, V, H, a.dec_h.data() + size_t(t) * H, T * H, p.out_weight.data(), H,
                           logits, T * V, true);
    });
}

void greedy_decode_batch(Activations& a, const int32_t* src, const int* src_len, int B, int S,
                         const Model& model) {
    greedy_decode_any(a, src, src_len, B, S, model);
    check_decoding(a, model, src_len, B, S);  // the finiteness guarantee (decoding_check.h)
}

const float* model_logits(const Activations& a) {
    if (is_transformer(a.config)) return a.transformer.logits.data();
    if (is_bahdanau(a.config)) return a.bahdanau.logits.data();
    if (is_luong(a.config.decoder)) return a.luong.logits.data();
    return a.logits.data();
}

const float* alignment_map(const Activations& a) {
    if (has_attention(a.config)) return a.att.alpha.data();
    if (is_bahdanau(a.config)) return a.bahdanau.alpha.data();
    if (is_luong(a.config.decoder)) return a.luong.att.alpha.data();
    return nullptr;
}

std::vector<Decoded> decode_examples(const std::vector<Example>& examples, const Model& model,
                                     bool keep_attention, int batch_size) {
    std::vector<Decoded> out;
    out.reserve(examples.size());
    Activations a;
    std::vector<int> indices;
    for (size_t first = 0; first < examples.size(); first += size_t(batch_size)) {
        const size_t last = std::min(examples.size(), first + size_t(batch_size));
        indices.clear();
        for (size_t i = first; i < last; ++i) indices.push_back(int(i));
        const Batch batch = make_batch(examples, indices);
        greedy_decode_batch(a, batch.src.data(), batch.src_len.data(), batch.B, batch.S, model);
        for (int b = 0; b < batch.B; ++b) {
            Decoded d;
            d.output = decode_output(a.tokens.data() + size_t(b) * T, T);
            const int L = batch.src_len[b];
            if (keep_attention && is_transformer(model.config)) {
                copy_cross_attention(d, a, b, L, batch.S, model.config.heads);
            } else if (const float* alpha = alignment_map(a); keep_attention && alpha) {
                d.attention = xt::zeros<float>({size_t(T), size_t(L)});
                for (int t = 0; t < T; ++t)
                    for (int j = 0; j < L; ++j)
                        d.attention(t, j) = alpha[(size_t(b) * T + t) * batch.S + j];
            } else {
                d.attention = xt::zeros<float>({size_t(0), size_t(0)});
            }
            out.push_back(std::move(d));
        }
    }
    return out;
}

Decoded decode_tokens(const std::vector<int>& tokens, const Model& model) {
    if (tokens.empty()) throw std::invalid_argument("decode_tokens: no input tokens");
    const int L = int(tokens.size());
    static_assert(std::is_same_v<int, int32_t>, "token ids are passed to the model as they are");
    // Buffers reused from call to call (they grow to the longest string seen):
    // the page decodes a string per keystroke and the alignment figure dozens.
    thread_local Activations a;
    greedy_decode_batch(a, tokens.data(), &L, 1, L, model);
    Decoded d;
    d.output = decode_output(a.tokens.data(), T);
    if (is_transformer(model.config)) {
        copy_cross_attention(d, a, 0, L, L, model.config.heads);
    } else if (const float* alpha = alignment_map(a)) {
        d.attention = xt::zeros<float>({size_t(T), size_t(L)});
        for (int t = 0; t < T; ++t)
            for (int j = 0; j < L; ++j) d.attention(t, j) = alpha[size_t(t) * L + j];
    } else {
        d.attention = xt::zeros<float>({size_t(0), size_t(0)});
    }
    return d;
}

}  // namespace lb
