// core/models/model.h — the two GRU encoder–decoders of the lesson: plain (the
// decoder starts from the encoder's last state and never sees the others) and
// attention (every step reads a fresh weighted sum of all encoder states).
//
//   encoder    x_j = Embedding_in[src_j]           [40, 32]
//              h_j = GRU_enc(x_j, h_{j−1})          32 → H, h_0 = 0, j < len
//   decoder    s_0 = h_{len−1}, each row's true last state
//              y_t = Embedding_out[dec_in_t]        [13, 16], start token at t = 0
//     plain    s_t = GRU_dec(y_t, s_{t−1})          16 → H
//     attention c_t = attention(s_{t−1}, h_0..h_{len−1})   (attention.h)
//              s_t = GRU_dec([y_t ; c_t], s_{t−1})  16 + H → H
//   output     logits_t = W_out s_t + b_out         [13, H], [13]
//   loss       mean over the B·T target tokens of −log softmax(logits_t)[target_t]
// Training is teacher-forced (dec_in = start, then the target's first T−1
// tokens); greedy decoding feeds back its own argmax.
//
// Parameter names map onto PyTorch by renaming alone: nn.Embedding.weight,
// nn.GRU.{weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0} (same gate order
// and layout, see gru.h), nn.Linear.{weight, bias}.
//
// The other kinds have their own files and these functions dispatch to them:
// transformer is transformer.h's one-layer Transformer (H is its d_model);
// bahdanau is Bahdanau et al. 2014 as published (bahdanau.h: bidirectional
// encoder, deep output); luong and luong-local are Luong et al. 2015's global
// and local-p attention (luong.h: the current state scores, an attentional
// state feeds the output, input feeding optional). `attention` above is
// neither paper's model: a unidirectional encoder with Bahdanau's scoring,
// the model the lesson's numbers were measured on.
//
// Legend: B batch rows, S padded source length, T output steps (10), H width,
// E embedding width (32 in, 16 out), V vocabulary (40 in, 13 out).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <xtensor/xtensor.hpp>
#include "layers/attention.h"
#include "models/bahdanau.h"
#include "data/dataset.h"
#include "layers/gru.h"
#include "models/luong.h"
#include "layers/scorer.h"
#include "models/transformer.h"

namespace lb {

constexpr int encoder_embedding_width = 32;  // E_in
constexpr int decoder_embedding_width = 16;  // E_out

enum class DecoderKind { plain, attention, transformer, bahdanau, luong, luong_local };

// The decoder's name on the command line, in weights' metadata and in JSON.
inline std::string_view decoder_name(DecoderKind kind) {
    switch (kind) {
        case DecoderKind::plain: return "plain";
        case DecoderKind::attention: return "attention";
        case DecoderKind::transformer: return "transformer";
        case DecoderKind::bahdanau: return "bahdanau";
        case DecoderKind::luong: return "luong";
        case DecoderKind::luong_local: return "luong-local";
    }
    return "?";
}
inline std::optional<DecoderKind> parse_decoder(std::string_view name) {
    for (DecoderKind kind : {DecoderKind::plain, DecoderKind::attention, DecoderKind::transformer,
                             DecoderKind::bahdanau, DecoderKind::luong, DecoderKind::luong_local})
        if (name == decoder_name(kind)) return kind;
    return std::nullopt;
}
inline bool is_luong(DecoderKind kind) {
    return kind == DecoderKind::luong || kind == DecoderKind::luong_local;
}

// The scorers each kind takes, as the command line, metadata and JSON spell
// them. Luong's concat, vᵀ tanh(W_a [s ; h]), is the additive scorer with
// W_a = [W_d W_e], so it is stored as Scorer::additive and shown as "concat".
// attention: additive | dot | general; luong: dot | general | concat;
// luong-local: dot | general; bahdanau: additive only; others: none.
std::optional<Scorer> parse_model_scorer(DecoderKind kind, std::string_view name);
std::string_view model_scorer_name(DecoderKind kind, Scorer scorer);  // "none" where none applies
std::string_view model_scorer_choices(DecoderKind kind);              // e.g. "dot, general or concat"
Scorer default_scorer(DecoderKind kind);  // additive; general for luong and luong-local
bool takes_scorer(DecoderKind kind, Scorer scorer);  // parse_model_scorer accepts it for kind

struct ModelConfig {
    DecoderKind decoder = DecoderKind::attention;
    Scorer scorer = Scorer::additive;  // attention, luong, luong-local (bahdanau: additive)
    int H = 64;                        // GRU width (both GRUs); the Transformer's d_model
    // transformer only (transformer.h):
    int heads = 4;                     // 1, 2, 4 or 8, dividing H
    int ffn = 0;                       // feed-forward width; 0 = 2H
    Memory memory = Memory::all;       // what the cross-attention reads
    float dropout = 0.0f;              // applied when training (the trainer's generator)
    bool input_feeding = false;        // luong and luong-local only (luong.h)
};
TransformerConfig transformer_config(const ModelConfig& config);
// A model's name in tables and labels: "plain", "attention additive", "bahdanau",
// "luong concat + input feeding", "luong-local general", "transformer (memory all, 4 heads)".
std::string model_label(const ModelConfig& config);

// All parameters of one model; the same type holds their gradients and the
// Adam moments. Tensors the configuration does not use have size 0.
struct Params {
    xt::xtensor<float, 2> enc_embedding;  // [40, 32]              encoder.embedding.weight
    GruParams enc_gru;                    // E = 32                encoder.gru.*_l0
    xt::xtensor<float, 2> dec_embedding;  // [13, 16]              decoder.embedding.weight
    GruParams dec_gru;                    // E = 16 (+ H attention) decoder.gru.*_l0
    xt::xtensor<float, 2> out_weight;     // [13, H]               decoder.out.weight
    xt::xtensor<float, 1> out_bias;       // [13]                  decoder.out.bias
    AttentionParams attention;            // see attention.h       attention.{W_e, W_d, v, W}
    TransformerParams transformer;        // transformer only (transformer.h), else empty
    // bahdanau and luong only (bahdanau.h, luong.h), else empty:
    GruParams enc_gru_reverse;            // bahdanau: the backward GRU encoder.gru.*_l0_reverse
    xt::xtensor<float, 2> init_weight;    // bahdanau [H, H]  decoder.init.weight  (W_s)
    xt::xtensor<float, 1> init_bias;      // bahdanau [H]     decoder.init.bias
    xt::xtensor<float, 2> combine_weight; // luong [H, 2H]    decoder.combine.weight (W_c)
    xt::xtensor<float, 2> position_weight; // luong-local [H, H] attention.W_p
    xt::xtensor<float, 1> position_v;     // luong-local [H]  attention.v_p
};

struct Model {
    ModelConfig config;
    Params params;
};

Params make_params(const ModelConfig& config);  // zero-filled, the config's shapes
// Throws std::invalid_argument, saying why, for a config no model has (a width < 1, a scorer or
// input feeding the design does not take, a Transformer's heads that do not divide its width).
void check_model_config(const ModelConfig& config);
Model make_model(const ModelConfig& config);    // checked, then zero-filled (init_params in trainer.h)
// By formula (the one count; the scorer's share is scorer.h's scorer_parameter_count):
// 36,893 plain / 57,437 additive attention at H = 64.
long parameter_count(const ModelConfig& config);
void zero_params(Params& params);

// One named tensor of a Params, viewed (not copied). Safetensors I/O, Adam and
// the tests all walk this one list, in this order:
//   encoder.embedding.weight, encoder.gru.weight_ih_l0, encoder.gru.weight_hh_l0,
//   encoder.gru.bias_ih_l0, encoder.gru.bias_hh_l0, decoder.embedding.weight,
//   decoder.gru.weight_ih_l0, decoder.gru.weight_hh_l0, decoder.gru.bias_ih_l0,
//   decoder.gru.bias_hh_l0, decoder.out.weight, decoder.out.bias, then those of
//   attention.W_e, attention.W_d, attention.v, attention.W that are not empty,
//   then (bahdanau, luong) encoder.gru.{weight_ih, weight_hh, bias_ih,
//   bias_hh}_l0_reverse, decoder.init.weight, decoder.init.bias,
//   decoder.combine.weight, attention.W_p, attention.v_p that are not empty;
//   a transformer has only the tensors of transformer.h, in its order.
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
constexpr int tensor_slots = 25 + transformer_tensor_count;
std::array<TensorSpan, tensor_slots> tensor_spans(Params& params);

// Caches and workspaces of one batch: flat buffers that grow when B or S grows
// and are reused otherwise (no allocation per batch). Shapes are logical, for
// the current B and S.
struct Activations {
    int B = 0, S = 0;              // the current batch
    int B_cap = 0, S_cap = 0;      // what the buffers hold
    ModelConfig config;            // the config the buffers were sized for
    // forward
    xt::xtensor<float, 1> enc_x;   // [B, S, 32]         embedded source
    xt::xtensor<float, 1> enc_h;   // [B, S, H]          encoder states h_j
    GruCache enc_gru;              //                    over S steps
    xt::xtensor<float, 1> s0;      // [B, H]             each row's true last encoder state
    xt::xtensor<float, 1> dec_x;   // [B, T, 16 (+H)]    [y_t ; c_t] decoder GRU input
    xt::xtensor<float, 1> dec_h;   // [B, T, H]          decoder states s_1..s_T
    GruCache dec_gru;              //                    over T steps
    xt::xtensor<float, 1> dec_wctx_t; // [H, 3H]         attention: W_ih[:, 16:]ᵀ (c_t's columns)
    AttentionCache att;            //                    alpha [B, T, S] is the alignment map
    xt::xtensor<float, 1> logits;  // [B, T, 13]
    xt::xtensor<float, 1> probs;   // [B, T, 13]         softmax(logits)
    xt::xtensor<int32_t, 1> tokens; // [B, T]            greedy decoding's outputs
    // backward
    xt::xtensor<float, 1> dlogits; // [B, T, 13]
    xt::xtensor<float, 1> ddec_h;  // [B, T, H]
    xt::xtensor<float, 1> ddec_x;  // [B, T, 16 (+H)]
    xt::xtensor<float, 1> ds0;     // [B, H]
    xt::xtensor<float, 1> denc_h;  // [B, S, H]
    xt::xtensor<float, 1> denc_x;  // [B, S, 32]
    TransformerCache transformer;  //                    transformer only; the GRU buffers stay empty
    BahdanauCache bahdanau;        //                    bahdanau only, likewise
    LuongCache luong;              //                    luong and luong-local only, likewise
};
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
// Runs the decoder on its own argmax for T = 10 steps over src [B, S] with
// true lengths src_len: acts.tokens [B, T] holds output token ids (always real
// characters: the argmax skips pad and start), acts.att.alpha [B, T, S] the
// attention weights (attention decoder only; a transformer's cross-attention
// weights are acts.transformer.cross_attn.alpha [B, heads, T, S]; bahdanau's
// and luong's are alignment_map's). Throws DecodingError (decoding_check.h) for
// weights that overflow: a non-finite logit or an attention row that is not one.
void greedy_decode_batch(Activations& acts, const int32_t* src, const int* src_len, int B, int S,
                         const Model& model);

// The logits [B, T, 13] of the last forward or greedy decoding, whichever model.
const float* model_logits(const Activations& acts);
// The attention weights [B, T, S] of the last forward or greedy decoding of a
// GRU model with attention (attention, bahdanau, luong, luong-local), else nullptr.
const float* alignment_map(const Activations& acts);

struct Decoded {
    std::string output;               // 10 characters (decode_output), YYYY-MM-DD if the model is right
    xt::xtensor<float, 2> attention;  // [10, S_real] rows sum to 1; shape [0, 0] for plain
                                      // transformer: the cross-attention, mean over heads
    xt::xtensor<float, 3> heads;      // transformer: [heads, 10, S_real] each head's; else [0, 0, 0]
    xt::xtensor<float, 3> encoder_self_attention;  // transformer: [heads, S_real, S_real], row i =
                                                   // what input position i attends to; else empty
};
// Decodes every example (in batches of batch_size). keep_attention = false
// skips copying the matrices (metrics need only the strings).
std::vector<Decoded> decode_examples(const std::vector<Example>& examples, const Model& model,
                                     bool keep_attention = true, int batch_size = 256);
// One user string, already tokenised by lb::encode_user_input (non-empty).
Decoded decode_tokens(const std::vector<int>& tokens, const Model& model);

}  // namespace lb
