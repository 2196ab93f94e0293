// core/models/transformer.h — the one-layer Transformer of the lesson's last section
// (Vaswani et al. 2017, post-LN as PyTorch's default norm_first=False): the
// decoder's cross-attention reads either every encoder state (memory `all`)
// or the first one only (memory `first`, the bottleneck) — one code path, the
// key-padding mask of the cross-attention is all that changes.
//
//   encoder   x_j  = √D · Embedding_in[src_j] + PE(j)                [V_in, D]
//             x'   = LayerNorm_1(x + SelfAttention(x, x, keys j < len))
//             m    = LayerNorm_2(x' + FFN(x'))                       memory [B, S, D]
//   decoder   y_t  = √D · Embedding_out[dec_in_t] + PE(t)            [V_out, D], start at t = 0
//             y'   = LayerNorm_1(y + SelfAttention(y, y, keys u ≤ t))    causal
//             y''  = LayerNorm_2(y' + CrossAttention(y', m, keys j < M)) M = len (all) or 1 (first)
//             z    = LayerNorm_3(y'' + FFN(y''))
//   output    logits_t = W_out z_t + b_out                           [V_out, D], [V_out]
//   loss      mean over the B·T target tokens of −log softmax(logits_t)[target_t]
// Attention, FFN and LayerNorm are transformer_layers.h's; every sub-layer's
// output passes through dropout (rate p, off by default) before its residual
// sum, and so do the embedded inputs x and y (the paper's §5.4). The √D scale
// of the embeddings is the paper's (§3.4); with embeddings initialised in
// ±0.05 (the trainer's rule for every embedding) a token's √D·e is ±0.4 per
// feature against the sinusoids' ±1, so position and token both stay legible:
// of the four initialisations measured it trains best, and N(0, 1) × √D (the
// PyTorch tutorials') drowns the positions (BENCHMARKS.md, "The Transformer's
// settings, chosen by measurement").
//
// Parameters (D = d_model, F = feed-forward width, one layer each):
//   embeddings     V_in·D + V_out·D
//   encoder layer  (3D² + 3D) + (D² + D)          self-attention
//                  + (D·F + F) + (F·D + D)        feed-forward
//                  + 2·2D                         norm1, norm2
//   decoder layer  2·(4D² + 4D) + (2·D·F + F + D) + 3·2D
//   output         V_out·D + V_out
// On the date task (V_in = 40, V_out = 13) at D = 64, F = 128: 3,392 + 33,472 + 50,240 + 845 = 87,949 parameters
// (the GRU models: 36,893 plain, 57,437 additive attention).
//
// Tensor names are PyTorch's nn.TransformerEncoderLayer /
// nn.TransformerDecoderLayer under `encoder.layers.0.` / `decoder.layers.0.`
// (self_attn.in_proj_weight, self_attn.in_proj_bias, self_attn.out_proj.weight,
// self_attn.out_proj.bias, multihead_attn.* in the decoder, linear1.*,
// linear2.*, norm1.* … norm3.*), plus encoder.embedding.weight,
// decoder.embedding.weight, decoder.out.{weight, bias}.
//
// Legend: B batch rows, S padded source length, T output steps (the task's), D width
// (d_model), A heads, K = D/A head width, F feed-forward width, V_in and V_out the
// vocabularies' sizes (the task's).
#pragma once
#include <cstdint>
#include <string>
#include <xtensor/xtensor.hpp>
#include "data/dataset.h"
#include "kernels/rng.h"
#include "layers/transformer_layers.h"
#include "models/attention_override.h"

namespace lb {

enum class Memory { all, first };
const char* memory_name(Memory memory);  // "all" | "first"

// The trainer's setting for the Transformer (trainer.h's default_adam): the
// GRU models' own, lr 1e-3 without warmup. A warmup of 200 steps, other rates
// and dropout were measured on the held-out split (BENCHMARKS.md, "The
// Transformer's settings, chosen by measurement"): none did better beyond
// what a last-bit change of rounding does to a run, so the Transformer needs
// no setting of its own; warmup stays a trainer option.
constexpr float transformer_learning_rate = 1e-3f;
constexpr int transformer_warmup_steps = 0;

struct TransformerConfig {
    const Task* task = &date_task();  // its vocabularies and output steps
    int D = 64;                  // d_model
    int heads = 4;               // A, divides D
    int F = 128;                 // feed-forward width
    Memory memory = Memory::all;
    float dropout = 0.0f;        // p, applied only when a generator is passed
};

// All parameters; the same type holds gradients and Adam moments.
struct TransformerParams {
    xt::xtensor<float, 2> src_embedding;     // [V_in, D] encoder.embedding.weight
    MultiheadAttentionParams enc_self_attn;  //         encoder.layers.0.self_attn.*
    FeedForwardParams enc_ffn;               //         encoder.layers.0.linear1.*, linear2.*
    LayerNormParams enc_norm1, enc_norm2;    // [D]     encoder.layers.0.norm1.*, norm2.*
    xt::xtensor<float, 2> tgt_embedding;     // [V_out, D] decoder.embedding.weight
    MultiheadAttentionParams dec_self_attn;  //         decoder.layers.0.self_attn.*
    MultiheadAttentionParams dec_cross_attn; //         decoder.layers.0.multihead_attn.*
    FeedForwardParams dec_ffn;               //         decoder.layers.0.linear1.*, linear2.*
    LayerNormParams dec_norm1, dec_norm2, dec_norm3;  // decoder.layers.0.norm1..3.*
    xt::xtensor<float, 2> out_weight;        // [V_out, D] decoder.out.weight
    xt::xtensor<float, 1> out_bias;          // [V_out] decoder.out.bias
};
TransformerParams make_transformer_params(const TransformerConfig& config);  // zero-filled
long transformer_parameter_count(const TransformerConfig& config);           // by the formula above
// FLOPs of one example's forward pass with S source tokens (registry.h's forward_flops; 2 per
// multiply-add of the products; heads do not change the count):
//   encoder   S · (4D² + 2DF) + 2S²D              projections, FFN; scores and weighted sums
//   decoder   T · (4D² + 2D² + 2DF + V_out·D)     self-attention, cross q and out, FFN, output
//             + S · 2D² + 2T²D + 2TSD             the memory's K and V; scores and sums
double transformer_forward_flops(const TransformerConfig& config, double S);
// Throws std::invalid_argument unless D ≥ 1, heads ∈ {1, 2, 4, 8} divides D, F ≥ 1, 0 ≤ p < 1.
void check_transformer_config(const TransformerConfig& config);

// The list of its tensors (params.h's gru_family_slots, for the Transformer): slot(prefix,
// suffix, get) for every tensor, in the file's order, named prefix + suffix, where get(p) reaches
// it in a TransformerParams. The count is the list's length, counted when compiling.
template <class Slot>
constexpr void transformer_slots(Slot&& slot) {
    auto attention = [&](const char* prefix, auto get) {
        slot(prefix, "in_proj_weight", [get](auto& p) -> auto& { return get(p).in_proj_weight; });
        slot(prefix, "in_proj_bias", [get](auto& p) -> auto& { return get(p).in_proj_bias; });
        slot(prefix, "out_proj.weight", [get](auto& p) -> auto& { return get(p).out_proj_weight; });
        slot(prefix, "out_proj.bias", [get](auto& p) -> auto& { return get(p).out_proj_bias; });
    };
    auto ffn = [&](const char* prefix, auto get) {
        slot(prefix, "linear1.weight", [get](auto& p) -> auto& { return get(p).linear1_weight; });
        slot(prefix, "linear1.bias", [get](auto& p) -> auto& { return get(p).linear1_bias; });
        slot(prefix, "linear2.weight", [get](auto& p) -> auto& { return get(p).linear2_weight; });
        slot(prefix, "linear2.bias", [get](auto& p) -> auto& { return get(p).linear2_bias; });
    };
    auto norm = [&](const char* name, auto get) {
        slot(name, ".weight", [get](auto& p) -> auto& { return get(p).weight; });
        slot(name, ".bias", [get](auto& p) -> auto& { return get(p).bias; });
    };
    slot("encoder.embedding.weight", "", [](auto& p) -> auto& { return p.src_embedding; });
    attention("encoder.layers.0.self_attn.", [](auto& p) -> auto& { return p.enc_self_attn; });
    ffn("encoder.layers.0.", [](auto& p) -> auto& { return p.enc_ffn; });
    norm("encoder.layers.0.norm1", [](auto& p) -> auto& { return p.enc_norm1; });
    norm("encoder.layers.0.norm2", [](auto& p) -> auto& { return p.enc_norm2; });
    slot("decoder.embedding.weight", "", [](auto& p) -> auto& { return p.tgt_embedding; });
    attention("decoder.layers.0.self_attn.", [](auto& p) -> auto& { return p.dec_self_attn; });
    attention("decoder.layers.0.multihead_attn.", [](auto& p) -> auto& { return p.dec_cross_attn; });
    ffn("decoder.layers.0.", [](auto& p) -> auto& { return p.dec_ffn; });
    norm("decoder.layers.0.norm1", [](auto& p) -> auto& { return p.dec_norm1; });
    norm("decoder.layers.0.norm2", [](auto& p) -> auto& { return p.dec_norm2; });
    norm("decoder.layers.0.norm3", [](auto& p) -> auto& { return p.dec_norm3; });
    slot("decoder.out.weight", "", [](auto& p) -> auto& { return p.out_weight; });
    slot("decoder.out.bias", "", [](auto& p) -> auto& { return p.out_bias; });
}
constexpr int transformer_tensor_count = [] {
    int n = 0;
    transformer_slots([&](const char*, const char*, auto) { ++n; });
    return n;
}();

// Calls visit(name, tensor) for every tensor, in the list's order.
template <class P, class Visit>
void visit_transformer_tensors(P& p, Visit&& visit) {
    transformer_slots([&](const char* prefix, const char* suffix, auto get) {
        if (*suffix) visit((std::string(prefix) + suffix).c_str(), get(p));
        else visit(prefix, get(p));
    });
}

// One attention's buffers (transformer_layers.h's cache points into them).
struct AttentionBuffers {
    xt::xtensor<float, 1> q, kv, alpha, ctx, dq, dkv, dctx, dalpha;
    MultiheadAttentionCache view();
};
// One "LayerNorm(x + sublayer(x))" block's buffers.
struct ResidualNormBuffers {
    xt::xtensor<float, 1> sub;   // [N, D]  the sub-layer's output (after dropout)
    xt::xtensor<float, 1> mask;  // [N, D]  its dropout mask
    xt::xtensor<float, 1> sum;   // [N, D]  x + sub; backward: d(sum)
    xt::xtensor<float, 1> out;   // [N, D]  LayerNorm(sum)
    xt::xtensor<float, 1> xhat;  // [N, D]
    xt::xtensor<float, 1> rstd;  // [N]
    xt::xtensor<float, 1> dout;  // [N, D]  backward: gradient of out
};

// Caches and workspaces of one batch: flat buffers that only grow.
struct TransformerCache {
    int B = 0, S = 0, B_cap = 0, S_cap = 0;
    int train_B_cap = 0, train_S_cap = 0;  // what teacher forcing's and backward's buffers hold
    TransformerConfig config;
    int T = 0, V = 0;                 // its task's output steps and output vocabulary, as sized
    bool dropout_on = false;          // the last forward drew dropout masks
    xt::xtensor<float, 1> pe;         // [max(S, T), D] positions
    std::vector<int> memory_len;      // [B] keys the cross-attention reads
    // encoder
    xt::xtensor<float, 1> x, x_mask;  // [B, S, D]  embedded source; its dropout mask
    AttentionBuffers enc_attn;        //            alpha [B, A, S, S]
    ResidualNormBuffers enc_res1;     //            out = x'
    xt::xtensor<float, 1> enc_hidden; // [B, S, F]  relu(W_1 x' + b_1)
    ResidualNormBuffers enc_res2;     //            out = memory m
    // decoder
    xt::xtensor<float, 1> y, y_mask;  // [B, T, D]
    AttentionBuffers dec_attn;        //            alpha [B, A, T, T]
    ResidualNormBuffers dec_res1;     //            out = y'
    AttentionBuffers cross_attn;      //            alpha [B, A, T, S]: the cross-attention map
    ResidualNormBuffers dec_res2;     //            out = y''
    xt::xtensor<float, 1> dec_hidden; // [B, T, F]
    ResidualNormBuffers dec_res3;     //            out = z
    xt::xtensor<float, 1> logits;     // [B, T, V_out]
    xt::xtensor<float, 1> probs;      // [B, T, V_out]
    // backward
    xt::xtensor<float, 1> dlogits;    // [B, T, V_out]
    xt::xtensor<float, 1> dy, dx;     // [B, T, D], [B, S, D]
    xt::xtensor<float, 1> dhidden;    // [B, max(S, T), F]
    // greedy decoding's one-step workspaces, [B, …]
    xt::xtensor<float, 1> step_y, step_q, step_ctx, step_sub, step_sum, step_xhat, step_rstd,
        step_y1, step_y2, step_hidden, step_z;
};
// Sizes what greedy decoding uses for B rows of padded length S (grows only);
// transformer_forward sizes the rest itself.
void transformer_reserve(TransformerCache& cache, const TransformerConfig& config, int B, int S);

// Teacher-forced forward pass: returns the mean cross-entropy over the B·T
// target tokens. With dropout_rng and config.dropout > 0, draws dropout masks
// from it (training); otherwise none (evaluation).
float transformer_forward(TransformerCache& cache, const Batch& batch, const TransformerParams& p,
                          const TransformerConfig& config, Rng* dropout_rng = nullptr);
// Backward of the last transformer_forward on the same batch: ADDS the gradient
// of its mean loss into grads.
void transformer_backward(TransformerParams& grads, TransformerCache& cache, const Batch& batch,
                          const TransformerParams& p, const TransformerConfig& config);

// Greedy decoding of T steps, one position at a time: the decoder's
// self-attention keys and values of earlier steps are kept (cache.dec_attn.kv
// [B, T, 2D]) and each step projects only its own; the memory's keys and values
// are projected once. Writes tokens [B, T] (real characters only: the argmax
// skips pad and start), cache.logits [B, T, V_out] and the cross-attention map
// cache.cross_attn.alpha [B, A, T, S]. overrides replace the cross-attention of chosen steps,
// one head's or every head's (attention_override.h); with memory `first` their weights past
// position 0 must be 0, as the model's own are.
void transformer_greedy_decode(int32_t* tokens, TransformerCache& cache, const int32_t* src,
                               const int* src_len, int B, int S, const TransformerParams& p,
                               const TransformerConfig& config, AttentionOverrides overrides = {});

// Its row of the table of kinds (registry.h).
struct ModelKind;
ModelKind transformer_kind();

}  // namespace lb
