// core/models/model.h — what the rest of the core, the tool and the page ask of
// a model, whatever its kind: make and check it, list its tensors, run it
// forward and backward, decode greedily, read its attention. Each function
// looks the kind up in registry.h's table; the families themselves are
// encoder_decoder.h (the lesson's plain and attention models), bahdanau.h,
// luong.h (global and local-p) and transformer.h.
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// V_in and V_out the vocabularies' sizes (the task's).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <xtensor/xtensor.hpp>
#include "data/dataset.h"
#include "kernels/rng.h"
#include "models/params.h"
#include "models/registry.h"

namespace lb {

// --- kinds and their options, as registry.h's rows state them -------------------
// The kind's name on the command line, in weights' metadata and in JSON.
std::string_view decoder_name(DecoderKind kind);
std::optional<DecoderKind> parse_decoder(std::string_view name);
// The names of every kind, in the table's order, as a message lists them:
// "plain, attention, …, or luong-local".
std::string decoder_choices();
inline bool is_luong(DecoderKind kind) {
    return kind == DecoderKind::luong || kind == DecoderKind::luong_local;
}

// The scorers each kind takes, as the command line, metadata and JSON spell
// them (registry.h: Luong's concat is Scorer::additive).
std::optional<Scorer> parse_model_scorer(DecoderKind kind, std::string_view name);
std::string_view model_scorer_name(DecoderKind kind, Scorer scorer);  // "none" where none applies
std::string model_scorer_choices(DecoderKind kind);                   // e.g. "dot, general or concat"
Scorer default_scorer(DecoderKind kind);  // the row's
bool takes_scorer(DecoderKind kind, Scorer scorer);  // parse_model_scorer accepts it for kind

TransformerConfig transformer_config(const ModelConfig& config);
// A model's name in tables and labels: "plain", "attention additive", "bahdanau",
// "luong concat + input feeding", "luong-local general", "transformer (memory all, 4 heads)".
std::string model_label(const ModelConfig& config);
// A model's name in the sweeps' files: its kind's name, and where the kind has a memory choice its
// memory after a dash ("transformer-all"); parse_sweep_name reads the kind and memory back.
std::string sweep_name(const ModelConfig& config);
std::optional<ModelConfig> parse_sweep_name(std::string_view name);

Params make_params(const ModelConfig& config);  // zero-filled, the config's shapes
// Throws std::invalid_argument, saying why, for a config no model has (a width < 1, a scorer or
// input feeding the design does not take, a Transformer's heads that do not divide its width).
void check_model_config(const ModelConfig& config);
Model make_model(const ModelConfig& config);    // checked, then zero-filled (init_params in trainer.h)
// By formula, the row's (the scorer's share is scorer.h's scorer_parameter_count):
// 36,893 plain / 57,437 additive attention at H = 64.
long parameter_count(const ModelConfig& config);
// FLOPs of one example's forward pass with S source tokens, by the row's performance model
// (registry.h's forward_flops); std::logic_error for a row that states none.
double forward_flops(const ModelConfig& config, double S);
void zero_params(Params& params);

// One named tensor of a Params, viewed (not copied): visit_tensors' list
// (params.h) without the empty slots.
template <class Float>
struct NamedTensorOf {
    std::string name;
    Float* data;
    std::vector<std::size_t> shape;
    std::size_t size;  // product of shape
};
using NamedTensor = NamedTensorOf<float>;
using ConstNamedTensor = NamedTensorOf<const float>;
std::vector<NamedTensor> named_tensors(Params& params);
std::vector<ConstNamedTensor> named_tensors(const Params& params);

// The same tensors as flat spans, for loops that must not allocate (zeroing,
// Adam): every slot in named_tensors order, unused tensors with size 0.
struct TensorSpan {
    float* data;
    std::size_t size;
};
std::array<TensorSpan, tensor_slots> tensor_spans(Params& params);

// Sizes the buffers for a batch of B rows of padded length S (grows only).
void reserve_activations(Activations& acts, const ModelConfig& config, int B, int S);

// Teacher-forced forward pass of batch (dataset.h): returns the mean
// cross-entropy over the B·T target tokens; keeps what backward needs in acts.
// dropout_rng: the generator a Transformer with dropout > 0 draws its masks
// from while training (nullptr: no dropout).
float model_forward(Activations& acts, const Batch& batch, const Model& model,
                    Rng* dropout_rng = nullptr);
// Backward of the last model_forward on the same batch: ADDS the gradient of
// that mean loss into grads (zero them first with zero_params).
void model_backward(Params& grads, Activations& acts, const Batch& batch, const Model& model);

// --- greedy decoding ---------------------------------------------------------
// Runs the decoder on its own argmax for T steps over src [B, S] with
// true lengths src_len: acts.tokens [B, T] holds output token ids (always real
// characters: the argmax skips pad and start); alignment_map(acts) the
// attention weights of the kinds with one map (a Transformer's cross-attention
// weights are acts.transformer.cross_attn.alpha [B, heads, T, S]). Throws
// DecodingError (decoding_check.h) for weights that overflow: a non-finite logit
// or an attention row that does not sum to one. overrides: counterfactual decoding's edited
// attention (attention_override.h; counterfactual.h checks them), none by default.
void greedy_decode_batch(Activations& acts, const int32_t* src, const int* src_len, int B, int S,
                         const Model& model, AttentionOverrides overrides = {});

// The logits [B, T, V_out] of the last forward or greedy decoding, whichever model.
const float* model_logits(const Activations& acts);
// The attention weights [B, T, S] of the last forward or greedy decoding of a
// kind with one map per step (the GRU models with attention), else nullptr.
const float* alignment_map(const Activations& acts);

struct Decoded {
    std::string output;               // the text written (T steps, up to an end token): YYYY-MM-DD for a date
    xt::xtensor<float, 2> attention;  // [T, S_real] rows sum to 1; shape [0, 0] for plain
                                      // transformer: the cross-attention, mean over heads
    xt::xtensor<float, 3> heads;      // transformer: [heads, T, S_real] each head's; else [0, 0, 0]
    xt::xtensor<float, 3> encoder_self_attention;  // transformer: [heads, S_real, S_real], row i =
                                                   // what input position i attends to; else empty
};
// Decodes every example (in batches of batch_size). keep_attention = false
// skips copying the matrices (metrics need only the strings).
std::vector<Decoded> decode_examples(const std::vector<Example>& examples, const Model& model,
                                     bool keep_attention = true, int batch_size = decode_batch_rows);
// One user string, already tokenised by lb::encode_user_input (non-empty). overrides: as
// greedy_decode_batch's, for row 0 (counterfactual.h).
Decoded decode_tokens(const std::vector<int>& tokens, const Model& model,
                      AttentionOverrides overrides = {});

}  // namespace lb
