// core/models/params.h — what every model family's file shares: a model's
// configuration, its parameters (one struct holding every family's tensors,
// those a kind does not use left empty), the one list of its tensors, and the
// caches of one batch. The families (encoder_decoder.h, bahdanau.h, luong.h,
// transformer.h) build on this; model.h and registry.h sit above them.
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// E embedding width (32 in, 16 out), V a vocabulary's size (the task's).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>
#include <xtensor/xtensor.hpp>
#include "data/dataset.h"
#include "data/task.h"
#include "layers/attention.h"
#include "layers/gru.h"
#include "layers/scorer.h"
#include "models/bahdanau.h"
#include "models/luong.h"
#include "models/transformer.h"

namespace lb {

constexpr int encoder_embedding_width = 32;  // E_in
constexpr int decoder_embedding_width = 16;  // E_out

// A model kind is a row of registry.h's table; these are the built-in rows' ids (registry.cpp
// checks when compiling that each row sits at its id). A kind registered at run time (a test's)
// gets the next id after them, the first first_registered, which no built-in row has.
enum class DecoderKind : int { plain, attention, transformer, bahdanau, luong, luong_local, first_registered };

struct ModelConfig {
    DecoderKind decoder = DecoderKind::attention;
    Scorer scorer = Scorer::additive;  // the kinds that score (registry.h's scorers)
    int H = 64;                        // GRU width (both GRUs); the Transformer's d_model
    // transformer only (transformer.h):
    int heads = 4;                     // 1, 2, 4 or 8, dividing H
    int ffn = 0;                       // feed-forward width; 0 = 2H
    Memory memory = Memory::all;       // what the cross-attention reads
    float dropout = 0.0f;              // applied when training (the trainer's generator)
    bool input_feeding = false;        // luong and luong-local only (luong.h)
    const Task* task = &date_task();   // its vocabularies and output steps size the model
};
bool operator==(const ModelConfig& a, const ModelConfig& b);
// The task's sizes, as the models read them.
inline int output_steps(const ModelConfig& c) { return c.task->output_steps; }      // T
inline int input_vocab(const ModelConfig& c) { return c.task->input.size(); }       // V_in
inline int output_vocab(const ModelConfig& c) { return c.task->output.size(); }     // V_out

// All parameters of one model; the same type holds their gradients and the
// Adam moments. Tensors the configuration does not use have size 0.
struct Params {
    xt::xtensor<float, 2> enc_embedding;  // [V_in, 32]            encoder.embedding.weight
    GruParams enc_gru;                    // E = 32                encoder.gru.*_l0
    xt::xtensor<float, 2> dec_embedding;  // [V_out, 16]           decoder.embedding.weight
    GruParams dec_gru;                    // E = 16 (+ H attention) decoder.gru.*_l0
    xt::xtensor<float, 2> out_weight;     // [V_out, H]            decoder.out.weight
    xt::xtensor<float, 1> out_bias;       // [V_out]               decoder.out.bias
    AttentionParams attention;            // see attention.h       attention.{W_e, W_d, v, W}
    // Each family's own tensors, empty in the other kinds:
    BahdanauParams bahdanau;              // bahdanau.h
    LuongParams luong;                    // luong.h: luong and luong-local
    TransformerParams transformer;        // transformer.h (the GRU tensors above stay empty)
};

struct Model {
    ModelConfig config;
    Params params;
};

// The one list of a Params' tensors, in this order, empty ones included: each family's list
// calls slot(name, get) once per tensor, where get(p) reaches that tensor of a Params (const or
// not). visit_tensors hands them to visit(name, tensor); safetensors I/O, Adam, zeroing and the
// tests all walk it (model.h's named_tensors and tensor_spans). The counts are the lists' own
// lengths, counted when compiling: a tensor added to a list gets its place in tensor_spans' array.
template <class Slot>
constexpr void gru_family_slots(Slot&& slot) {
    auto gru = [&](const char* ih, const char* hh, const char* bih, const char* bhh, auto get) {
        slot(ih, [get](auto& p) -> auto& { return get(p).weight_ih; });
        slot(hh, [get](auto& p) -> auto& { return get(p).weight_hh; });
        slot(bih, [get](auto& p) -> auto& { return get(p).bias_ih; });
        slot(bhh, [get](auto& p) -> auto& { return get(p).bias_hh; });
    };
    slot("encoder.embedding.weight", [](auto& p) -> auto& { return p.enc_embedding; });
    gru("encoder.gru.weight_ih_l0", "encoder.gru.weight_hh_l0", "encoder.gru.bias_ih_l0",
        "encoder.gru.bias_hh_l0", [](auto& p) -> auto& { return p.enc_gru; });
    slot("decoder.embedding.weight", [](auto& p) -> auto& { return p.dec_embedding; });
    gru("decoder.gru.weight_ih_l0", "decoder.gru.weight_hh_l0", "decoder.gru.bias_ih_l0",
        "decoder.gru.bias_hh_l0", [](auto& p) -> auto& { return p.dec_gru; });
    slot("decoder.out.weight", [](auto& p) -> auto& { return p.out_weight; });
    slot("decoder.out.bias", [](auto& p) -> auto& { return p.out_bias; });
    slot("attention.W_e", [](auto& p) -> auto& { return p.attention.W_e; });
    slot("attention.W_d", [](auto& p) -> auto& { return p.attention.W_d; });
    slot("attention.v", [](auto& p) -> auto& { return p.attention.v; });
    slot("attention.W", [](auto& p) -> auto& { return p.attention.W; });
    bahdanau_slots([&](const char* name, auto get) {
        slot(name, [get](auto& p) -> auto& { return get(p.bahdanau); });
    });
    luong_slots([&](const char* name, auto get) {
        slot(name, [get](auto& p) -> auto& { return get(p.luong); });
    });
}
constexpr int gru_family_tensor_count = [] {
    int n = 0;
    gru_family_slots([&](const char*, auto) { ++n; });
    return n;
}();
constexpr int tensor_slots = gru_family_tensor_count + transformer_tensor_count;

template <class P, class Visit>
void visit_tensors(P& p, Visit&& visit) {
    gru_family_slots([&](const char* name, auto get) { visit(name, get(p)); });
    visit_transformer_tensors(p.transformer, visit);
}

// Caches and workspaces of one batch: flat buffers that grow when B or S grows
// and are reused otherwise (no allocation per batch). Shapes are logical, for
// the current B and S. The first group is the lesson's encoder–decoder's
// (encoder_decoder.h); each other family keeps its own cache.
struct Activations {
    int B = 0, S = 0;              // the current batch
    int B_cap = 0, S_cap = 0;      // what the buffers hold
    ModelConfig config;            // the config the buffers were sized for
    int T = 0, V = 0;              // its task's output steps and output vocabulary
    xt::xtensor<int32_t, 1> tokens; // [B, T]            greedy decoding's outputs, every kind
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
    xt::xtensor<float, 1> logits;  // [B, T, V]
    xt::xtensor<float, 1> probs;   // [B, T, V]         softmax(logits)
    // backward
    xt::xtensor<float, 1> dlogits; // [B, T, V]
    xt::xtensor<float, 1> ddec_h;  // [B, T, H]
    xt::xtensor<float, 1> ddec_x;  // [B, T, 16 (+H)]
    xt::xtensor<float, 1> ds0;     // [B, H]
    xt::xtensor<float, 1> denc_h;  // [B, S, H]
    xt::xtensor<float, 1> denc_x;  // [B, S, 32]
    TransformerCache transformer;  //                    transformer only; the GRU buffers stay empty
    BahdanauCache bahdanau;        //                    bahdanau only, likewise
    LuongCache luong;              //                    luong and luong-local only, likewise
};

}  // namespace lb
