// core/models/transformer.cpp — the one-layer Transformer: parameters, teacher-forced
// forward/backward, greedy decoding with cached keys and values (see
// transformer.h).
//
// Legend: B batch rows, S padded source length, T output steps (the task's), D width,
// A heads, K = D/A, F feed-forward width, V = 13 output tokens, N rows of a
// flattened [B, S] or [B, T].
#include "models/transformer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include "kernels/buffers.h"
#include "kernels/kernels.h"
#include "layers/layers.h"
#include "models/model.h"
#include "models/registry.h"

namespace lb {

namespace {

// Whether the cache's buffers were sized for this config: its task's sizes are compared as
// numbers, since a task made where a freed one lived has the freed one's address.
bool sized_for(const TransformerCache& c, const TransformerConfig& config) {
    const TransformerConfig& was = c.config;
    return was.task == config.task && c.T == config.task->output_steps && c.V == config.task->output.size() &&
           was.D == config.D && was.heads == config.heads && was.F == config.F && was.memory == config.memory &&
           was.dropout == config.dropout;
}

// Greedy decoding needs an attention's keys/values and weights (and the
// encoder's, its queries and context); teacher forcing and backward need all.
void reserve_attention(AttentionBuffers& a, size_t Nq, size_t Nk, size_t alpha, size_t D,
                       bool decoding) {
    grow(a.kv, Nk * 2 * D);
    grow(a.alpha, alpha);
    if (decoding) return;
    grow(a.q, Nq * D);
    grow(a.ctx, Nq * D);
}
void reserve_attention_backward(AttentionBuffers& a, size_t Nq, size_t Nk, size_t dalpha, size_t D) {
    grow(a.dq, Nq * D);
    grow(a.dkv, Nk * 2 * D);
    grow(a.dctx, Nq * D);
    grow(a.dalpha, dalpha);
}

void reserve_residual(ResidualNormBuffers& r, size_t N, size_t D, bool backward) {
    for (auto* b : {&r.sub, &r.sum, &r.out, &r.xhat}) grow(*b, N * D);
    grow(r.rstd, N);
    if (backward)
        for (auto* b : {&r.mask, &r.dout}) grow(*b, N * D);
}

// What transformer_forward and transformer_backward use beyond decoding's
// buffers (transformer_reserve): the decoder over all T positions at once,
// dropout masks, gradients.
void reserve_training(TransformerCache& c, int B, int S) {
    const int T = c.config.task->output_steps, V = c.config.task->output.size();
    if (B <= c.train_B_cap && S <= c.train_S_cap) return;
    // at least the longest generated string: training batches then size once
    c.train_B_cap = std::max(B, c.train_B_cap);
    c.train_S_cap = std::max({S, c.train_S_cap, c.config.task->max_input_tokens});
    const TransformerConfig& config = c.config;
    const size_t Bc = c.train_B_cap, Sc = c.train_S_cap, D = config.D, A = config.heads,
                 F = config.F;
    const size_t NS = Bc * Sc, NT = Bc * T, L = std::max(Sc, size_t(T));
    grow(c.x_mask, NS * D);
    reserve_attention_backward(c.enc_attn, NS, NS, Sc * Sc, D);
    reserve_residual(c.enc_res1, NS, D, true);
    reserve_residual(c.enc_res2, NS, D, true);
    grow(c.y, NT * D);
    grow(c.y_mask, NT * D);
    reserve_attention(c.dec_attn, NT, NT, Bc * A * T * T, D, false);
    reserve_attention_backward(c.dec_attn, NT, NT, T * T, D);
    reserve_residual(c.dec_res1, NT, D, true);
    reserve_attention(c.cross_attn, NT, NS, Bc * A * T * Sc, D, false);
    reserve_attention_backward(c.cross_attn, NT, NS, T * Sc, D);
    reserve_residual(c.dec_res2, NT, D, true);
    grow(c.dec_hidden, NT * F);
    reserve_residual(c.dec_res3, NT, D, true);
    grow(c.probs, NT * V);
    grow(c.dlogits, NT * V);
    grow(c.dy, NT * D);
    grow(c.dx, NS * D);
    grow(c.dhidden, Bc * L * F);
}

// out = LayerNorm(x + dropout(sub)), sub already in r.sub [N, D].
void residual_norm_forward(ResidualNormBuffers& r, const float* x, const LayerNormParams& norm,
                           int N, int D, float p, Rng* rng) {
    const size_t n = size_t(N) * D;
    if (rng) dropout_forward(r.sub.data(), r.mask.data(), p, int(n), *rng);
    for (size_t i = 0; i < n; ++i) r.sum[i] = x[i] + r.sub[i];
    layer_norm_forward(r.out.data(), r.xhat.data(), r.rstd.data(), r.sum.data(),
                       norm.weight.data(), norm.bias.data(), N, D);
}

// Backward of residual_norm_forward from r.dout: ADDS d(sum) into dx and
// leaves the gradient of the sub-layer's output (before dropout) in r.sum.
void residual_norm_backward(float* dx, LayerNormParams& dnorm, ResidualNormBuffers& r,
                            const LayerNormParams& norm, int N, int D, bool dropout_on) {
    const size_t n = size_t(N) * D;
    zero(r.sum, n);
    layer_norm_backward(r.sum.data(), dnorm.weight.data(), dnorm.bias.data(), r.dout.data(),
                        r.xhat.data(), r.rstd.data(), norm.weight.data(), N, D);
    for (size_t i = 0; i < n; ++i) dx[i] += r.sum[i];
    if (dropout_on) dropout_backward(r.sum.data(), r.mask.data(), int(n));
}

// [K ; V] [B, Tk, 2D] (row stride ld) of x [B·Tk, D] through in_proj rows D..3D.
void project_kv(float* kv, int ld, const float* x, const MultiheadAttentionParams& p, int N, int D) {
    for (int n = 0; n < N; ++n)
        std::memcpy(kv + size_t(n) * ld, p.in_proj_bias.data() + D, sizeof(float) * 2 * D);
    kernels::matmul_nt(N, 2 * D, D, x, D, p.in_proj_weight.data() + size_t(D) * D, D, kv, ld, true);
}

// The encoder, from src [B, S] to the memory c.enc_res2.out [B, S, D]; sets
// c.memory_len.
void encode(TransformerCache& c, const int32_t* src, const int* src_len,
            const TransformerParams& p, const TransformerConfig& cfg, Rng* rng) {
    const int B = c.B, S = c.S, D = cfg.D, A = cfg.heads, F = cfg.F, N = B * S;
    // x_j = √D · Embedding_in[src_j] + PE(j)
    embed_positions_forward(c.x.data(), src, p.src_embedding.data(), c.pe.data(),
                            std::sqrt(float(D)), B, S, D);
    if (rng) dropout_forward(c.x.data(), c.x_mask.data(), cfg.dropout, N * D, *rng);
    // x' = LayerNorm_1(x + SelfAttention(x, x, keys j < len))
    MultiheadAttentionCache attn = c.enc_attn.view();
    multihead_attention_forward(c.enc_res1.sub.data(), attn, c.x.data(), c.x.data(), src_len,
                                false, p.enc_self_attn, B, S, S, D, A);
    residual_norm_forward(c.enc_res1, c.x.data(), p.enc_norm1, N, D, cfg.dropout, rng);
    // m = LayerNorm_2(x' + FFN(x'))
    feed_forward_forward(c.enc_res2.sub.data(), c.enc_hidden.data(), c.enc_res1.out.data(),
                         p.enc_ffn, N, D, F);
    residual_norm_forward(c.enc_res2, c.enc_res1.out.data(), p.enc_norm2, N, D, cfg.dropout, rng);
    // the keys the cross-attention may read: all real positions, or the first
    c.memory_len.resize(size_t(B));
    for (int b = 0; b < B; ++b) c.memory_len[size_t(b)] = cfg.memory == Memory::all ? src_len[b] : 1;
}

// One row of n = B positions through out = LayerNorm(x + sub) without a cache
// worth keeping (decoding).
void step_residual_norm(float* out, TransformerCache& c, const float* x, const float* sub,
                        const LayerNormParams& norm, int B, int D) {
    for (size_t i = 0; i < size_t(B) * D; ++i) c.step_sum[i] = x[i] + sub[i];
    layer_norm_forward(out, c.step_xhat.data(), c.step_rstd.data(), c.step_sum.data(),
                       norm.weight.data(), norm.bias.data(), B, D);
}

// Counterfactual decoding's hook (attention_override.h), after row b's cross-attention at step t:
// each override of (b, t) puts its weights in its head's row of the map (or every head's) and
// recomputes that head's context α_a V_a with attend_forward's own product.
void override_cross_attention(TransformerCache& c, AttentionOverrides overrides, const int* src_len,
                              int b, int t, int S, int T, int D, int A) {
    const int K = D / A, L = src_len[b];
    for (const AttentionOverride& o : overrides) {
        if (o.row != b || o.step != t) continue;
        for (int a = 0; a < A; ++a) {
            if (o.head != every_head && o.head != a) continue;
            float* row = c.cross_attn.alpha.data() + ((size_t(b) * A + a) * T + t) * S;
            std::memcpy(row, o.weights, sizeof(float) * L);
            std::memset(row + L, 0, sizeof(float) * (S - L));
            kernels::matmul_nn(1, K, S, row, S, c.cross_attn.kv.data() + size_t(b) * S * 2 * D + D + a * K,
                               2 * D, c.step_ctx.data() + size_t(b) * D + a * K, D, false);
        }
    }
}

}  // namespace

const char* memory_name(Memory memory) { return memory == Memory::all ? "all" : "first"; }

MultiheadAttentionCache AttentionBuffers::view() {
    return {q.data(), kv.data(), alpha.data(), ctx.data(),
            dq.data(), dkv.data(), dctx.data(), dalpha.data()};
}

void check_transformer_config(const TransformerConfig& c) {
    if (c.D < 1) throw std::invalid_argument("model width must be at least 1");
    if (c.heads != 1 && c.heads != 2 && c.heads != 4 && c.heads != 8)
        throw std::invalid_argument("heads must be 1, 2, 4 or 8, not " + std::to_string(c.heads));
    if (c.D % c.heads != 0)
        throw std::invalid_argument(std::to_string(c.heads) + " heads do not divide the width " +
                                    std::to_string(c.D));
    if (c.F < 1) throw std::invalid_argument("feed-forward width must be at least 1");
    if (!(c.dropout >= 0.0f && c.dropout < 1.0f))
        throw std::invalid_argument("dropout must be in [0, 1)");
}

TransformerParams make_transformer_params(const TransformerConfig& c) {
    const size_t D = size_t(c.D), V = size_t(c.task->output.size());
    TransformerParams p;
    p.src_embedding = xt::zeros<float>({size_t(c.task->input.size()), D});
    p.enc_self_attn = make_multihead_attention_params(c.D);
    p.enc_ffn = make_feed_forward_params(c.D, c.F);
    p.enc_norm1 = make_layer_norm_params(c.D);
    p.enc_norm2 = make_layer_norm_params(c.D);
    p.tgt_embedding = xt::zeros<float>({V, D});
    p.dec_self_attn = make_multihead_attention_params(c.D);
    p.dec_cross_attn = make_multihead_attention_params(c.D);
    p.dec_ffn = make_feed_forward_params(c.D, c.F);
    p.dec_norm1 = make_layer_norm_params(c.D);
    p.dec_norm2 = make_layer_norm_params(c.D);
    p.dec_norm3 = make_layer_norm_params(c.D);
    p.out_weight = xt::zeros<float>({V, D});
    p.out_bias = xt::zeros<float>({V});
    return p;
}

long transformer_parameter_count(const TransformerConfig& c) {
    const long D = c.D, F = c.F, V = c.task->output.size();
    const long embeddings = long(c.task->input.size()) * D + V * D;
    const long attention = (3 * D * D + 3 * D) + (D * D + D);
    const long ffn = (D * F + F) + (F * D + D);
    const long norm = 2 * D;
    const long encoder = attention + ffn + 2 * norm;
    const long decoder = 2 * attention + ffn + 3 * norm;
    const long output = long(V) * D + V;
    return embeddings + encoder + decoder + output;
}

double transformer_forward_flops(const TransformerConfig& c, double S) {
    const double D = c.D, F = c.F, T = c.task->output_steps, V = c.task->output.size();
    const double encoder = S * (4 * D * D + 2 * D * F) + 2 * S * S * D;
    const double decoder = T * (6 * D * D + 2 * D * F + V * D) + S * 2 * D * D + 2 * T * T * D + 2 * T * S * D;
    return 2 * (encoder + decoder);
}

void transformer_reserve(TransformerCache& c, const TransformerConfig& config, int B, int S) {
    const int T = config.task->output_steps, V = config.task->output.size();
    if (!sized_for(c, config)) c = TransformerCache{};
    c.config = config;
    c.T = T;
    c.V = V;
    c.B = B;
    c.S = S;
    if (B <= c.B_cap && S <= c.S_cap) return;
    c.B_cap = std::max(B, c.B_cap);
    c.S_cap = std::max({S, c.S_cap, config.task->max_input_tokens});  // batches of any length, then, size once
    const size_t Bc = c.B_cap, Sc = c.S_cap, D = config.D, A = config.heads, F = config.F;
    const size_t NS = Bc * Sc, NT = Bc * T, L = std::max(Sc, size_t(T));
    if (c.pe.size() < L * D) {
        c.pe = xt::zeros<float>({L * D});
        sinusoid_positions(c.pe.data(), int(L), int(D));
    }
    grow(c.x, NS * D);
    reserve_attention(c.enc_attn, NS, NS, Bc * A * Sc * Sc, D, false);
    reserve_residual(c.enc_res1, NS, D, false);
    grow(c.enc_hidden, NS * F);
    reserve_residual(c.enc_res2, NS, D, false);
    reserve_attention(c.dec_attn, NT, NT, Bc * A * T * T, D, true);
    reserve_attention(c.cross_attn, NT, NS, Bc * A * T * Sc, D, true);
    grow(c.logits, NT * V);
    for (auto* b : {&c.step_y, &c.step_q, &c.step_ctx, &c.step_sub, &c.step_sum, &c.step_xhat,
                    &c.step_y1, &c.step_y2, &c.step_z})
        grow(*b, Bc * D);
    grow(c.step_rstd, Bc);
    grow(c.step_hidden, Bc * F);
}

float transformer_forward(TransformerCache& c, const Batch& batch, const TransformerParams& p,
                          const TransformerConfig& cfg, Rng* dropout_rng) {
    const int T = cfg.task->output_steps, V = cfg.task->output.size();
    const int B = batch.B, S = batch.S, D = cfg.D, A = cfg.heads, F = cfg.F, N = B * T;
    transformer_reserve(c, cfg, B, S);
    reserve_training(c, B, S);
    Rng* rng = cfg.dropout > 0.0f ? dropout_rng : nullptr;
    c.dropout_on = rng != nullptr;
    encode(c, batch.src.data(), batch.src_len.data(), p, cfg, rng);
    const float* memory = c.enc_res2.out.data();
    // y_t = √D · Embedding_out[dec_in_t] + PE(t) (teacher forcing)
    embed_positions_forward(c.y.data(), batch.dec_in.data(), p.tgt_embedding.data(), c.pe.data(),
                            std::sqrt(float(D)), B, T, D);
    if (rng) dropout_forward(c.y.data(), c.y_mask.data(), cfg.dropout, N * D, *rng);
    // y' = LayerNorm_1(y + SelfAttention(y, y, keys u ≤ t))
    const std::vector<int> all_steps(size_t(B), T);
    MultiheadAttentionCache self = c.dec_attn.view(), cross = c.cross_attn.view();
    multihead_attention_forward(c.dec_res1.sub.data(), self, c.y.data(), c.y.data(),
                                all_steps.data(), true, p.dec_self_attn, B, T, T, D, A);
    residual_norm_forward(c.dec_res1, c.y.data(), p.dec_norm1, N, D, cfg.dropout, rng);
    // y'' = LayerNorm_2(y' + CrossAttention(y', m, keys j < M))
    multihead_attention_forward(c.dec_res2.sub.data(), cross, c.dec_res1.out.data(), memory,
                                c.memory_len.data(), false, p.dec_cross_attn, B, T, S, D, A);
    residual_norm_forward(c.dec_res2, c.dec_res1.out.data(), p.dec_norm2, N, D, cfg.dropout, rng);
    // z = LayerNorm_3(y'' + FFN(y''))
    feed_forward_forward(c.dec_res3.sub.data(), c.dec_hidden.data(), c.dec_res2.out.data(),
                         p.dec_ffn, N, D, F);
    residual_norm_forward(c.dec_res3, c.dec_res2.out.data(), p.dec_norm3, N, D, cfg.dropout, rng);
    // logits_t = W_out z_t + b_out ; loss = mean CE
    dense_forward(c.logits.data(), c.dec_res3.out.data(), p.out_weight.data(), p.out_bias.data(),
                  N, D, V);
    return softmax_cross_entropy_forward(c.probs.data(), c.logits.data(), batch.dec_out.data(), N,
                                         V);
}

void transformer_backward(TransformerParams& g, TransformerCache& c, const Batch& batch,
                          const TransformerParams& p, const TransformerConfig& cfg) {
    const int T = cfg.task->output_steps, V = cfg.task->output.size();
    const int B = c.B, S = c.S, D = cfg.D, A = cfg.heads, F = cfg.F;
    const int NT = B * T, NS = B * S;
    const bool drop = c.dropout_on;
    const float scale = std::sqrt(float(D));
    zero(c.dlogits, size_t(NT) * V);
    softmax_cross_entropy_backward(c.dlogits.data(), c.probs.data(), batch.dec_out.data(), NT, V);
    // logits = z W_outᵀ + b_out
    zero(c.dec_res3.dout, size_t(NT) * D);
    dense_backward(c.dec_res3.dout.data(), g.out_weight.data(), g.out_bias.data(),
                   c.dlogits.data(), c.dec_res3.out.data(), p.out_weight.data(), NT, D, V);
    // z = LayerNorm_3(y'' + FFN(y''))
    zero(c.dec_res2.dout, size_t(NT) * D);
    residual_norm_backward(c.dec_res2.dout.data(), g.dec_norm3, c.dec_res3, p.dec_norm3, NT, D, drop);
    feed_forward_backward(c.dec_res2.dout.data(), g.dec_ffn, c.dhidden.data(), c.dec_res3.sum.data(),
                          c.dec_res2.out.data(), c.dec_hidden.data(), p.dec_ffn, NT, D, F);
    // y'' = LayerNorm_2(y' + CrossAttention(y', m))  →  dy', dm
    zero(c.dec_res1.dout, size_t(NT) * D);
    zero(c.enc_res2.dout, size_t(NS) * D);
    residual_norm_backward(c.dec_res1.dout.data(), g.dec_norm2, c.dec_res2, p.dec_norm2, NT, D, drop);
    MultiheadAttentionCache cross = c.cross_attn.view();
    multihead_attention_backward(c.dec_res1.dout.data(), c.enc_res2.dout.data(), g.dec_cross_attn,
                                 cross, c.dec_res2.sum.data(), c.dec_res1.out.data(),
                                 c.enc_res2.out.data(), c.memory_len.data(), false,
                                 p.dec_cross_attn, B, T, S, D, A);
    // y' = LayerNorm_1(y + SelfAttention(y, y))
    zero(c.dy, size_t(NT) * D);
    residual_norm_backward(c.dy.data(), g.dec_norm1, c.dec_res1, p.dec_norm1, NT, D, drop);
    const std::vector<int> all_steps(size_t(B), T);
    MultiheadAttentionCache self = c.dec_attn.view();
    multihead_attention_backward(c.dy.data(), c.dy.data(), g.dec_self_attn, self,
                                 c.dec_res1.sum.data(), c.y.data(), c.y.data(), all_steps.data(),
                                 true, p.dec_self_attn, B, T, T, D, A);
    // y = dropout(√D · Embedding_out[dec_in] + PE)
    if (drop) dropout_backward(c.dy.data(), c.y_mask.data(), NT * D);
    embed_positions_backward(g.tgt_embedding.data(), c.dy.data(), batch.dec_in.data(), scale, B, T, D);

    // The encoder, from dm.
    zero(c.enc_res1.dout, size_t(NS) * D);
    residual_norm_backward(c.enc_res1.dout.data(), g.enc_norm2, c.enc_res2, p.enc_norm2, NS, D, drop);
    feed_forward_backward(c.enc_res1.dout.data(), g.enc_ffn, c.dhidden.data(), c.enc_res2.sum.data(),
                          c.enc_res1.out.data(), c.enc_hidden.data(), p.enc_ffn, NS, D, F);
    zero(c.dx, size_t(NS) * D);
    residual_norm_backward(c.dx.data(), g.enc_norm1, c.enc_res1, p.enc_norm1, NS, D, drop);
    MultiheadAttentionCache attn = c.enc_attn.view();
    multihead_attention_backward(c.dx.data(), c.dx.data(), g.enc_self_attn, attn,
                                 c.enc_res1.sum.data(), c.x.data(), c.x.data(),
                                 batch.src_len.data(), false, p.enc_self_attn, B, S, S, D, A);
    if (drop) dropout_backward(c.dx.data(), c.x_mask.data(), NS * D);
    embed_positions_backward(g.src_embedding.data(), c.dx.data(), batch.src.data(), scale, B, S, D);
}

void transformer_greedy_decode(int32_t* tokens, TransformerCache& c, const int32_t* src,
                               const int* src_len, int B, int S, const TransformerParams& p,
                               const TransformerConfig& cfg, AttentionOverrides overrides) {
    const int T = cfg.task->output_steps, V = cfg.task->output.size();
    const int D = cfg.D, A = cfg.heads, K = D / A, F = cfg.F;
    const float scale = std::sqrt(float(D));
    transformer_reserve(c, cfg, B, S);
    c.dropout_on = false;
    encode(c, src, src_len, p, cfg, nullptr);
    // the memory's keys and values, once: [B, S, 2D]
    project_kv(c.cross_attn.kv.data(), 2 * D, c.enc_res2.out.data(), p.dec_cross_attn, B * S, D);
    float* self_kv = c.dec_attn.kv.data();  // [B, T, 2D], filled one step at a time
    const float* self_W = p.dec_self_attn.in_proj_weight.data();
    const float* cross_W = p.dec_cross_attn.in_proj_weight.data();
    for (int t = 0; t < T; ++t) {
        // y_t = √D · Embedding_out[previous output] + PE(t) (the start token at t = 0)
        for (int b = 0; b < B; ++b) {
            const int previous = t == 0 ? start_token : tokens[size_t(b) * T + t - 1];
            const float* e = p.tgt_embedding.data() + size_t(previous) * D;
            const float* pe = c.pe.data() + size_t(t) * D;
            float* y = c.step_y.data() + size_t(b) * D;
            for (int i = 0; i < D; ++i) y[i] = scale * e[i] + pe[i];
        }
        // self-attention: q_t, and [k_t ; v_t] appended to the cache at row t
        for (int b = 0; b < B; ++b)
            std::memcpy(c.step_q.data() + size_t(b) * D, p.dec_self_attn.in_proj_bias.data(),
                        sizeof(float) * D);
        kernels::matmul_nt(B, D, D, c.step_y.data(), D, self_W, D, c.step_q.data(), D, true);
        project_kv(self_kv + size_t(t) * 2 * D, T * 2 * D, c.step_y.data(), p.dec_self_attn, B, D);
        for (int b = 0; b < B; ++b)
            attend_forward(c.step_ctx.data() + size_t(b) * D, D,
                           c.dec_attn.alpha.data() + (size_t(b) * A * T + t) * T, long(T) * T, T,
                           c.step_q.data() + size_t(b) * D, D, self_kv + size_t(b) * T * 2 * D,
                           2 * D, T, t, true, 1, t + 1, A, K);
        dense_forward(c.step_sub.data(), c.step_ctx.data(), p.dec_self_attn.out_proj_weight.data(),
                      p.dec_self_attn.out_proj_bias.data(), B, D, D);
        step_residual_norm(c.step_y1.data(), c, c.step_y.data(), c.step_sub.data(), p.dec_norm1, B, D);
        // cross-attention over the memory's keys j < M; its weights are row t of the map
        for (int b = 0; b < B; ++b)
            std::memcpy(c.step_q.data() + size_t(b) * D, p.dec_cross_attn.in_proj_bias.data(),
                        sizeof(float) * D);
        kernels::matmul_nt(B, D, D, c.step_y1.data(), D, cross_W, D, c.step_q.data(), D, true);
        for (int b = 0; b < B; ++b) {
            attend_forward(c.step_ctx.data() + size_t(b) * D, D,
                           c.cross_attn.alpha.data() + (size_t(b) * A * T + t) * S, long(T) * S, S,
                           c.step_q.data() + size_t(b) * D, D,
                           c.cross_attn.kv.data() + size_t(b) * S * 2 * D, 2 * D,
                           c.memory_len[size_t(b)], 0, false, 1, S, A, K);
            override_cross_attention(c, overrides, src_len, b, t, S, T, D, A);
        }
        dense_forward(c.step_sub.data(), c.step_ctx.data(), p.dec_cross_attn.out_proj_weight.data(),
                      p.dec_cross_attn.out_proj_bias.data(), B, D, D);
        step_residual_norm(c.step_y2.data(), c, c.step_y1.data(), c.step_sub.data(), p.dec_norm2, B, D);
        // feed-forward
        feed_forward_forward(c.step_sub.data(), c.step_hidden.data(), c.step_y2.data(), p.dec_ffn,
                             B, D, F);
        step_residual_norm(c.step_z.data(), c, c.step_y2.data(), c.step_sub.data(), p.dec_norm3, B, D);
        // logits_t = W_out z_t + b_out, then the argmax over the real characters
        float* logits = c.logits.data() + size_t(t) * V;
        for (int b = 0; b < B; ++b)
            std::memcpy(logits + size_t(b) * T * V, p.out_bias.data(), sizeof(float) * V);
        kernels::matmul_nt(B, V, D, c.step_z.data(), D, p.out_weight.data(), D, logits, T * V, true);
        for (int b = 0; b < B; ++b)
            tokens[size_t(b) * T + t] = cfg.task->greedy_token(logits + size_t(b) * T * V);
    }
}


// --- its row of the table of kinds (registry.h) -----------------------------------------------
namespace {
// Row b's cross-attention (L real positions of S): each head's [A, T, L] and their mean [T, L];
// and its encoder's self-attention [A, L, L].
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
}  // namespace

ModelKind transformer_kind() {
    ModelKind row;
    row.name = "transformer";
    row.title = "Transformer";
    row.short_name = "tf";
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

}  // namespace lb
