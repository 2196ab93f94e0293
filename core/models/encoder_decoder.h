// core/models/encoder_decoder.h — the two GRU encoder–decoders of the lesson: plain (the
// decoder starts from the encoder's last state and never sees the others) and
// attention (every step reads a fresh weighted sum of all encoder states).
//
//   encoder    x_j = Embedding_in[src_j]           [V_in, 32]
//              h_j = GRU_enc(x_j, h_{j−1})          32 → H, h_0 = 0, j < len
//   decoder    s_0 = h_{len−1}, each row's true last state
//              y_t = Embedding_out[dec_in_t]        [V_out, 16], start token at t = 0
//     plain    s_t = GRU_dec(y_t, s_{t−1})          16 → H
//     attention c_t = attention(s_{t−1}, h_0..h_{len−1})   (attention.h)
//              s_t = GRU_dec([y_t ; c_t], s_{t−1})  16 + H → H
//   output     logits_t = W_out s_t + b_out         [V_out, H], [V_out]
//   loss       mean over the B·T target tokens of −log softmax(logits_t)[target_t]
// Training is teacher-forced (dec_in = start, then the target's first T−1
// tokens); greedy decoding feeds back its own argmax.
//
// Parameter names map onto PyTorch by renaming alone: nn.Embedding.weight,
// nn.GRU.{weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0} (same gate order
// and layout, see gru.h), nn.Linear.{weight, bias}.
//
// `attention` is neither paper's model: a unidirectional encoder with
// Bahdanau's scoring of the state before the step, the model the lesson's
// numbers were measured on (bahdanau.h and luong.h are the papers').
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// E embedding width (32 in, 16 out), V_in and V_out the vocabularies' sizes (the task's).
#pragma once
#include <cstdint>
#include "data/dataset.h"
#include "kernels/rng.h"
#include "models/attention_override.h"
#include "models/params.h"

namespace lb {

// The plain and attention kinds' rows (below) name these.
Params encoder_decoder_params(const ModelConfig& config);
long encoder_decoder_parameter_count(const ModelConfig& config);
// FLOPs of one example's forward pass with S source tokens (registry.h's forward_flops; the
// performance model of docs/design.md, 2 FLOPs per multiply-add of the matrix products):
//   encoder     S · 3H(E_in + H)
//   plain       (T + 1) · 3H(E_out + H)
//   attention   (T + 1) · (3H(E_out + 2H) + 2SH + H²)   GRU on [y ; c]; scores and the
//                                                       weighted sum; W_d s (not the keys)
// T + 1 steps where the decoder runs T (about a tenth high for the dates); the output layer,
// the softmax and the gates' arithmetic are left out, so its GFLOP/s compare with the kernels'.
double encoder_decoder_forward_flops(const ModelConfig& config, double S);
void encoder_decoder_reserve(Activations& acts, const ModelConfig& config, int B, int S);
float encoder_decoder_forward(Activations& acts, const Batch& batch, const Model& model);
void encoder_decoder_backward(Params& grads, Activations& acts, const Batch& batch, const Model& model);
// Greedy decoding; overrides replace the attention of chosen steps (attention_override.h).
void encoder_decoder_greedy_decode(Activations& acts, const int32_t* src, const int* src_len, int B,
                                   int S, const Model& model, AttentionOverrides overrides = {});

// The tensors every GRU encoder–decoder has (embeddings, encoder and decoder
// GRUs, output layer, the scorer's attention tensors), zero-filled, with a
// decoder GRU input of decoder_input columns; the published families' own
// tensors empty, for bahdanau.cpp and luong.cpp to fill.
Params gru_family_params(const ModelConfig& config, int decoder_input, bool scored);

// Their rows of the table of kinds (registry.h).
struct ModelKind;
ModelKind plain_kind();
ModelKind attention_kind();

}  // namespace lb
