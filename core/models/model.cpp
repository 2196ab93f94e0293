// core/models/model.cpp — model.h's functions: each reads the kind's row of
// registry.h's table; none branches on the kind.
#include "models/model.h"
#include "models/decoding_check.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "text/text.h"

namespace lb {

namespace {

bool has_scorers(DecoderKind kind) { return !model_kind(kind).scorers.empty(); }

}  // namespace

bool operator==(const ModelConfig& a, const ModelConfig& b) {
    return a.task == b.task && a.decoder == b.decoder && a.scorer == b.scorer && a.H == b.H && a.heads == b.heads &&
           a.ffn == b.ffn && a.memory == b.memory && a.dropout == b.dropout &&
           a.input_feeding == b.input_feeding;
}

std::string_view decoder_name(DecoderKind kind) { return model_kind(kind).name; }

std::optional<DecoderKind> parse_decoder(std::string_view name) {
    for (DecoderKind kind : model_kinds())
        if (model_kind(kind).name == name) return kind;
    return std::nullopt;
}

std::string decoder_choices() {
    std::vector<std::string> names;
    for (DecoderKind kind : model_kinds()) names.emplace_back(model_kind(kind).name);
    return list_text(names);
}

std::optional<Scorer> parse_model_scorer(DecoderKind kind, std::string_view name) {
    for (const ScorerChoice& choice : model_kind(kind).scorers)
        if (choice.name == name) return choice.scorer;
    return std::nullopt;
}

std::string_view model_scorer_name(DecoderKind kind, Scorer scorer) {
    for (const ScorerChoice& choice : model_kind(kind).scorers)
        if (choice.scorer == scorer) return choice.name;
    return "none";
}

std::string model_scorer_choices(DecoderKind kind) {
    const std::vector<ScorerChoice>& scorers = model_kind(kind).scorers;
    if (scorers.empty()) return "none";
    std::vector<std::string> names;
    for (const ScorerChoice& choice : scorers) names.emplace_back(choice.name);
    return list_text(names);
}

Scorer default_scorer(DecoderKind kind) { return model_kind(kind).default_scorer; }

bool takes_scorer(DecoderKind kind, Scorer scorer) {
    return parse_model_scorer(kind, model_scorer_name(kind, scorer)) == scorer;
}

std::string model_label(const ModelConfig& c) {
    std::string label(decoder_name(c.decoder));
    if (model_kind(c.decoder).transformer_options)
        return label + " (memory " + memory_name(c.memory) + ", " + std::to_string(c.heads) +
               (c.heads == 1 ? " head)" : " heads)");
    if (model_kind(c.decoder).scorers.size() > 1) {
        label += ' ';
        label += model_scorer_name(c.decoder, c.scorer);
    }
    return c.input_feeding ? label + " + input feeding" : label;
}

std::string sweep_name(const ModelConfig& c) {
    const std::string name(decoder_name(c.decoder));
    return model_kind(c.decoder).has_memory_choice() ? name + "-" + memory_name(c.memory) : name;
}

std::optional<ModelConfig> parse_sweep_name(std::string_view name) {
    for (DecoderKind kind : model_kinds())
        for (Memory memory : memory_choices(kind)) {
            ModelConfig c;
            c.decoder = kind;
            c.memory = memory;
            if (sweep_name(c) == name) return c;
        }
    return std::nullopt;
}

TransformerConfig transformer_config(const ModelConfig& c) {
    return {c.task, c.H, c.heads, c.ffn > 0 ? c.ffn : 2 * c.H, c.memory, c.dropout};
}

Params make_params(const ModelConfig& config) { return model_kind(config.decoder).make_params(config); }

void check_model_config(const ModelConfig& config) {
    const ModelKind& kind = model_kind(config.decoder);  // refuses an id no row has
    if (config.H < 1) throw std::invalid_argument("model width must be at least 1");
    if (kind.transformer_options) check_transformer_config(transformer_config(config));
    if (has_scorers(config.decoder) && !takes_scorer(config.decoder, config.scorer))
        throw std::invalid_argument("the " + std::string(kind.name) + " model's scorer must be " +
                                    model_scorer_choices(config.decoder));
    if (config.input_feeding && !kind.input_feeding) {
        std::string takers;
        for (DecoderKind k : model_kinds())
            if (model_kind(k).input_feeding)
                takers += (takers.empty() ? "" : " and ") + std::string(model_kind(k).name);
        throw std::invalid_argument("input feeding is for the " + takers + " models only");
    }
}

Model make_model(const ModelConfig& config) {
    check_model_config(config);
    return {config, make_params(config)};
}

long parameter_count(const ModelConfig& config) {
    return model_kind(config.decoder).parameter_count(config);
}

double forward_flops(const ModelConfig& config, double S) {
    const ModelKind& row = model_kind(config.decoder);
    if (!row.forward_flops)
        throw std::logic_error("the " + std::string(row.name) + " kind states no FLOP model (registry.h's forward_flops)");
    return row.forward_flops(config, S);
}

template <class P, class Float>
static std::vector<NamedTensorOf<Float>> list_tensors(P& p) {
    std::vector<NamedTensorOf<Float>> list;
    visit_tensors(p, [&](const char* name, auto& tensor) {
        if (tensor.size() == 0) return;
        std::vector<size_t> shape(tensor.shape().begin(), tensor.shape().end());
        list.push_back({name, tensor.data(), shape, tensor.size()});
    });
    return list;
}

std::vector<NamedTensor> named_tensors(Params& params) {
    return list_tensors<Params, float>(params);
}
std::vector<ConstNamedTensor> named_tensors(const Params& params) {
    return list_tensors<const Params, const float>(params);
}

std::array<TensorSpan, tensor_slots> tensor_spans(Params& p) {
    std::array<TensorSpan, tensor_slots> spans{};
    size_t k = 0;
    visit_tensors(p, [&](const char*, auto& tensor) { spans[k++] = {tensor.data(), tensor.size()}; });
    return spans;
}

void zero_params(Params& params) {
    for (const TensorSpan& t : tensor_spans(params))
        if (t.size) std::memset(t.data, 0, sizeof(float) * t.size);
}

void reserve_activations(Activations& a, const ModelConfig& config, int B, int S) {
    // The buffers are sized by the config and by its task's output steps and vocabulary, which are
    // compared as numbers: a config names its task by address, and a task made where a freed one
    // lived has that address but may decode more steps into more tokens.
    const int T = output_steps(config), V = output_vocab(config);
    if (!(a.config == config) || a.T != T || a.V != V) a = Activations{};
    a.config = config;
    a.B = B;
    a.S = S;
    a.T = T;
    a.V = V;
    if (a.tokens.size() < size_t(B) * a.T) a.tokens = xt::zeros<int32_t>({size_t(B) * a.T});
    if (const auto reserve = model_kind(config.decoder).reserve) reserve(a, config, B, S);
}

float model_forward(Activations& a, const Batch& batch, const Model& model, Rng* dropout_rng) {
    reserve_activations(a, model.config, batch.B, batch.S);
    return model_kind(model.config.decoder).forward(a, batch, model, dropout_rng);
}

void model_backward(Params& grads, Activations& a, const Batch& batch, const Model& model) {
    model_kind(model.config.decoder).backward(grads, a, batch, model);
}

void greedy_decode_batch(Activations& a, const int32_t* src, const int* src_len, int B, int S,
                         const Model& model, AttentionOverrides overrides) {
    reserve_activations(a, model.config, B, S);
    model_kind(model.config.decoder).greedy_decode(a, src, src_len, B, S, model, overrides);
    check_decoding(a, model, src_len, B, S);  // the finiteness guarantee (decoding_check.h)
}

const float* model_logits(const Activations& a) { return model_kind(a.config.decoder).logits(a); }

const float* alignment_map(const Activations& a) {
    const auto alignment = model_kind(a.config.decoder).alignment;
    return alignment ? alignment(a) : nullptr;
}

namespace {

// Row b's output string and (keep_attention) its maps, from the last decoding.
Decoded read_decoded(const Activations& a, const Model& model, int b, int L, int S,
                     bool keep_attention) {
    Decoded d;
    d.output = model.config.task->output.decode(a.tokens.data() + size_t(b) * a.T, a.T);
    d.attention = xt::zeros<float>({size_t(0), size_t(0)});
    const auto read_attention = model_kind(model.config.decoder).read_attention;
    if (keep_attention && read_attention) read_attention(d, a, model.config, b, L, S);
    return d;
}

}  // namespace

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
        const Batch batch = make_batch(*model.config.task, examples, indices);
        greedy_decode_batch(a, batch.src.data(), batch.src_len.data(), batch.B, batch.S, model);
        for (int b = 0; b < batch.B; ++b)
            out.push_back(read_decoded(a, model, b, batch.src_len[b], batch.S, keep_attention));
    }
    return out;
}

Decoded decode_tokens(const std::vector<int>& tokens, const Model& model, AttentionOverrides overrides) {
    if (tokens.empty()) throw std::invalid_argument("decode_tokens: no input tokens");
    const int L = int(tokens.size());
    for (int token : tokens)
        if (token < pad_token || token >= input_vocab(model.config))  // pad: occlusion's blank
            throw std::invalid_argument("decode_tokens: token " + std::to_string(token) +
                                        " is outside the " + model.config.task->name +
                                        " task's input vocabulary");
    static_assert(std::is_same_v<int, int32_t>, "token ids are passed to the model as they are");
    // Buffers reused from call to call (they grow to the longest string seen):
    // the page decodes a string per keystroke and the alignment figure dozens.
    thread_local Activations a;
    greedy_decode_batch(a, tokens.data(), &L, 1, L, model, overrides);
    return read_decoded(a, model, 0, L, L, true);
}

}  // namespace lb
