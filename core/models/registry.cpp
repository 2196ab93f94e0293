// core/models/registry.cpp — the table of model kinds: one row each, built
// from its family's functions (encoder_decoder.h, bahdanau.h, luong.h,
// transformer.h); small adaptors give every row the same signatures.
#include "models/registry.h"

#include <stdexcept>
#include "models/encoder_decoder.h"
#include "models/model.h"

namespace lb {

namespace {

// Row b's map [T, L] of a kind with one [B, T, S] map per step.
void read_alignment(Decoded& d, const Activations& a, const ModelConfig&, int b, int L, int S) {
    const int T = a.T;
    const float* alpha = alignment_map(a);
    d.attention = xt::zeros<float>({size_t(T), size_t(L)});
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < L; ++j) d.attention(t, j) = alpha[(size_t(b) * T + t) * S + j];
}

// A Transformer's cross-attention of row b (L real positions of S): each
// head's [A, T, L] and their mean [T, L]; and its encoder's self-attention [A, L, L].
void read_transformer_attention(Decoded& d, const Activations& a, const ModelConfig& config, int b,
                                int L, int S) {
    const int T = a.T;
    const int A = config.heads;
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

// The lesson's plain and attention models differ only in their options.
ModelKind encoder_decoder_row(std::string_view name, std::vector<ScorerChoice> scorers) {
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

ModelKind plain_row() { return encoder_decoder_row("plain", {}); }

ModelKind attention_row() {
    ModelKind row = encoder_decoder_row(
        "attention", {{"additive", Scorer::additive}, {"dot", Scorer::dot}, {"general", Scorer::general}});
    row.default_scorer = Scorer::additive;
    row.read_attention = read_alignment;
    row.alignment = [](const Activations& a) -> const float* { return a.att.alpha.data(); };
    return row;
}

ModelKind transformer_row() {
    ModelKind row;
    row.name = "transformer";
    row.transformer_options = true;
    row.learning_rate = transformer_learning_rate;
    row.warmup_steps = transformer_warmup_steps;
    row.make_params = [](const ModelConfig& c) {
        Params p;  // the GRU tensors stay empty
        p.transformer = make_transformer_params(transformer_config(c));
        return p;
    };
    row.parameter_count = [](const ModelConfig& c) {
        return transformer_parameter_count(transformer_config(c));
    };
    row.forward_flops = [](const ModelConfig& c, double S) {
        return transformer_forward_flops(transformer_config(c), S);
    };
    row.reserve = [](Activations& a, const ModelConfig& c, int B, int S) {
        transformer_reserve(a.transformer, transformer_config(c), B, S);
    };
    row.forward = [](Activations& a, const Batch& batch, const Model& m, Rng* dropout) {
        return transformer_forward(a.transformer, batch, m.params.transformer,
                                   transformer_config(m.config), dropout);
    };
    row.backward = [](Params& g, Activations& a, const Batch& batch, const Model& m) {
        transformer_backward(g.transformer, a.transformer, batch, m.params.transformer,
                             transformer_config(m.config));
    };
    row.greedy_decode = [](Activations& a, const int32_t* src, const int* len, int B, int S,
                           const Model& m, AttentionOverrides overrides) {
        transformer_greedy_decode(a.tokens.data(), a.transformer, src, len, B, S,
                                  m.params.transformer, transformer_config(m.config), overrides);
    };
    row.logits = [](const Activations& a) -> const float* { return a.transformer.logits.data(); };
    row.read_attention = read_transformer_attention;
    row.head_maps = [](const Activations& a, int& heads) -> const float* {
        heads = a.config.heads;
        return a.transformer.cross_attn.alpha.data();
    };
    row.piecewise_choices = [](const Activations& a) {
        const TransformerCache& c = a.transformer;
        const size_t enc = size_t(c.B) * c.S * c.config.F, dec = size_t(c.B) * a.T * c.config.F;
        std::vector<int> on;
        for (size_t i = 0; i < enc; ++i) on.push_back(c.enc_hidden[i] > 0.0f);
        for (size_t i = 0; i < dec; ++i) on.push_back(c.dec_hidden[i] > 0.0f);
        return on;
    };
    return row;
}

ModelKind bahdanau_row() {
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
    row.read_attention = read_alignment;
    row.alignment = [](const Activations& a) -> const float* { return a.bahdanau.att.alpha.data(); };
    return row;
}

// Global (luong) and local-p (luong-local) attention: one family, two rows.
// local-p's window edges [B, T, 2] move in whole positions.
ModelKind luong_row(std::string_view name, std::vector<ScorerChoice> scorers) {
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
    row.read_attention = read_alignment;
    row.alignment = [](const Activations& a) -> const float* { return a.luong.att.alpha.data(); };
    return row;
}

ModelKind luong_local_row() {
    ModelKind row = luong_row("luong-local", {{"dot", Scorer::dot}, {"general", Scorer::general}});
    row.windowed_attention = true;
    row.piecewise_choices = [](const Activations& a) {
        return std::vector<int>(a.luong.window.begin(), a.luong.window.begin() + 2 * a.B * a.T);
    };
    return row;
}

// In DecoderKind's order: a row's place is its id.
std::vector<ModelKind>& table() {
    static std::vector<ModelKind> rows = {
        plain_row(),
        attention_row(),
        transformer_row(),
        bahdanau_row(),
        luong_row("luong", {{"dot", Scorer::dot}, {"general", Scorer::general}, {"concat", Scorer::additive}}),
        luong_local_row(),
    };
    return rows;
}

}  // namespace

const ModelKind& model_kind(DecoderKind kind) {
    const std::vector<ModelKind>& rows = table();
    const int id = int(kind);
    if (id < 0 || size_t(id) >= rows.size())
        throw std::invalid_argument("no model kind has the id " + std::to_string(id));
    return rows[size_t(id)];
}

std::vector<DecoderKind> model_kinds() {
    std::vector<DecoderKind> kinds;
    for (size_t id = 0; id < table().size(); ++id) kinds.push_back(DecoderKind(int(id)));
    return kinds;
}

DecoderKind register_model_kind(ModelKind row) {
    for (const ModelKind& existing : table())
        if (existing.name == row.name)
            throw std::invalid_argument("a model kind is already called " + std::string(row.name));
    table().push_back(std::move(row));
    return DecoderKind(int(table().size()) - 1);
}

std::vector<ModelConfig> model_variants(DecoderKind kind, int H) {
    const ModelKind& row = model_kind(kind);
    std::vector<ModelConfig> variants;
    std::vector<Scorer> scorers;
    for (const ScorerChoice& choice : row.scorers) scorers.push_back(choice.scorer);
    if (scorers.empty()) scorers.push_back(row.default_scorer);
    for (Scorer scorer : scorers)
        for (bool feeding : {false, true}) {
            if (feeding && !row.input_feeding) continue;
            for (Memory memory : {Memory::all, Memory::first}) {
                if (memory == Memory::first && !row.transformer_options) continue;
                ModelConfig config;
                config.decoder = kind;
                config.scorer = scorer;
                config.H = H;
                config.input_feeding = feeding;
                config.memory = memory;
                if (row.transformer_options) config.heads = H % 2 == 0 ? 2 : 1;
                variants.push_back(config);
            }
        }
    return variants;
}

}  // namespace lb
