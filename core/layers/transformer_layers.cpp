// core/layers/transformer_layers.cpp — positions, layer norm, multi-head attention,
// feed-forward and dropout, forward and backward (see transformer_layers.h).
//
// Legend: B batch rows, Tq query positions, Tk key positions, N rows, D model
// width, A heads, K = D/A head width, F feed-forward width.
#include "layers/transformer_layers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include "kernels/kernels.h"
#include "layers/layers.h"

namespace lb {

MultiheadAttentionParams make_multihead_attention_params(int D) {
    const size_t d = size_t(D);
    return {xt::zeros<float>({3 * d, d}), xt::zeros<float>({3 * d}), xt::zeros<float>({d, d}),
            xt::zeros<float>({d})};
}

LayerNormParams make_layer_norm_params(int D) {
    return {xt::zeros<float>({size_t(D)}), xt::zeros<float>({size_t(D)})};
}

FeedForwardParams make_feed_forward_params(int D, int F) {
    const size_t d = size_t(D), f = size_t(F);
    return {xt::zeros<float>({f, d}), xt::zeros<float>({f}), xt::zeros<float>({d, f}),
            xt::zeros<float>({d})};
}

// --- token embedding + sinusoidal positions ----------------------------------

void sinusoid_positions(float* pe, int T, int D) {
    for (int t = 0; t < T; ++t)
        for (int c = 0; c < D; ++c) {
            // column c = 2i (sin) or 2i + 1 (cos) shares the frequency 1 / 10000^(2i/D)
            const double angle = t / std::pow(10000.0, double(c - c % 2) / D);
            pe[size_t(t) * D + c] = float(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
}

void embed_positions_forward(float* out, const int32_t* ids, const float* weight, const float* pe,
                             float scale, int B, int T, int D) {
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t) {
            const size_t n = size_t(b) * T + t;
            const float* e = weight + size_t(ids[n]) * D;
            const float* p = pe + size_t(t) * D;
            float* o = out + n * D;
            for (int c = 0; c < D; ++c) o[c] = scale * e[c] + p[c];
        }
}

void embed_positions_backward(float* dweight, const float* dout, const int32_t* ids, float scale,
                              int B, int T, int D) {
    // backward of: out[b, t] = scale · weight[ids[b, t]] + pe[t]
    for (size_t n = 0; n < size_t(B) * T; ++n) {
        float* dw = dweight + size_t(ids[n]) * D;
        const float* d = dout + n * D;
        for (int c = 0; c < D; ++c) dw[c] += scale * d[c];
    }
}

// --- layer norm ---------------------------------------------------------------
// Float throughout, with the row sums in eight partial sums (kernels::dot for
// the sums of products) so that the loops vectorise; a row is D ≤ 1024 values.

namespace {

float row_sum(const float* a, int n) {
    float partial[8] = {};
    int c = 0;
    for (; c + 8 <= n; c += 8)
        for (int k = 0; k < 8; ++k) partial[k] += a[c + k];
    float sum = 0;
    for (; c < n; ++c) sum += a[c];
    for (float p : partial) sum += p;
    return sum;
}

}  // namespace

void layer_norm_forward(float* y, float* xhat, float* rstd, const float* x, const float* gamma,
                        const float* beta, int N, int D) {
    for (int n = 0; n < N; ++n) {
        const float* xn = x + size_t(n) * D;
        float* h = xhat + size_t(n) * D;
        float* yn = y + size_t(n) * D;
        const float mean = row_sum(xn, D) / float(D);
        for (int c = 0; c < D; ++c) h[c] = xn[c] - mean;
        // the biased variance, as nn.LayerNorm
        const float r = 1.0f / std::sqrt(kernels::dot(h, h, D) / float(D) + layer_norm_epsilon);
        rstd[n] = r;
        for (int c = 0; c < D; ++c) {
            h[c] *= r;
            yn[c] = h[c] * gamma[c] + beta[c];
        }
    }
}

void layer_norm_backward(float* dx, float* dgamma, float* dbeta, const float* dy,
                         const float* xhat, const float* rstd, const float* gamma, int N, int D) {
    // backward of: y = x̂ ⊙ γ + β,  x̂ = (x − μ) · rstd. With g = dy ⊙ γ:
    //   dx = rstd · (g − mean(g) − x̂ · mean(g ⊙ x̂))
    for (int n = 0; n < N; ++n) {
        const float* dyn = dy + size_t(n) * D;
        const float* h = xhat + size_t(n) * D;
        float* dxn = dx + size_t(n) * D;
        for (int c = 0; c < D; ++c) {
            dgamma[c] += dyn[c] * h[c];
            dbeta[c] += dyn[c];
        }
        const float g_mean = kernels::dot(dyn, gamma, D) / float(D);
        // Σ g ⊙ x̂ (g = dy ⊙ γ) in eight partial sums and a tail, each product rounded before it
        // is added or fused into the sum as GCC 12 compiled the plain loop for the AVX-512 build
        // that trained the shipped Transformers: rounded in runs of 16 blocks of 8 (its vector
        // loop) and in the tail's first four if it has four, fused elsewhere (peeled). Spelled
        // out (kernels.h), an AVX2 build, which vectorises the loop otherwise, sums the same way.
        const auto g = [&](int c) { return dyn[c] * gamma[c]; };
        float partial[8] = {};
        const int rounded_blocks_end = D / 128 * 128;
        int c = 0;
        for (; c < rounded_blocks_end; c += 8)
            for (int k = 0; k < 8; ++k) partial[k] += kernels::rounded_product(g(c + k), h[c + k]);
        for (; c + 8 <= D; c += 8)
            for (int k = 0; k < 8; ++k)
                partial[k] = kernels::fused_mul_add(g(c + k), h[c + k], partial[k]);
        float gh_sum = 0;
        const int rounded_tail_end = D - c >= 4 ? c + 4 : c;
        for (; c < rounded_tail_end; ++c) gh_sum += kernels::rounded_product(g(c), h[c]);
        for (; c < D; ++c) gh_sum = kernels::fused_mul_add(g(c), h[c], gh_sum);
        for (float p : partial) gh_sum += p;
        const float gh_mean = gh_sum / float(D), r = rstd[n];
        for (int c2 = 0; c2 < D; ++c2)
            dxn[c2] += r * (dyn[c2] * gamma[c2] - g_mean - h[c2] * gh_mean);
    }
}

// --- multi-head attention -----------------------------------------------------

namespace {
// The keys query position `position` may read: the row's real ones, and (causal)
// none after its own position.
int allowed_keys(int key_len, bool causal, int position, int Tk) {
    return std::min(key_len, causal ? position + 1 : Tk);
}

// layers.h's masked_softmax_backward over a whole row of Tk, in place (de from dα): the same
// formula, with Σ α_l dα_l in order, the products rounded in whole groups of 8 and fused after
// them, as GCC 12 compiled the shared loop here for the AVX-512 build that trained the shipped
// Transformers (vectors of 8, the rest peeled). Spelled out (kernels.h), an AVX2 build, which
// vectorises the loop otherwise, sums the same way.
void softmax_backward_row(float* d, const float* alpha, int Tk, float scale) {
    const int rounded = Tk / 8 * 8;
    float weighted = 0;
    int l = 0;
    for (; l < rounded; ++l) weighted += kernels::rounded_product(alpha[l], d[l]);
    for (; l < Tk; ++l) weighted = kernels::fused_mul_add(alpha[l], d[l], weighted);
    for (l = 0; l < Tk; ++l) d[l] = alpha[l] * (d[l] - weighted) * scale;
}
}  // namespace

void attend_forward(float* ctx, int ld_ctx, float* alpha, long head_stride, int ld_alpha,
                    const float* q, int ld_q, const float* kv, int ld_kv, int key_len, int q0,
                    bool causal, int Tq, int Tk, int A, int K) {
    const int D = A * K;
    const float scale = 1.0f / std::sqrt(float(K));
    for (int a = 0; a < A; ++a) {
        float* al = alpha + a * head_stride;
        // e = Q_a K_aᵀ   [Tq, Tk]
        kernels::matmul_nt(Tq, Tk, K, q + a * K, ld_q, kv + a * K, ld_kv, al, ld_alpha, false);
        for (int i = 0; i < Tq; ++i) {
            float* row = al + size_t(i) * ld_alpha;
            // α = softmax(e / √K) over the allowed keys, 0 on the rest
            masked_softmax_forward(row, allowed_keys(key_len, causal, q0 + i, Tk), Tk, scale);
        }
        // ctx_a = α_a V_a   [Tq, K]
        kernels::matmul_nn(Tq, K, Tk, al, ld_alpha, kv + D + a * K, ld_kv, ctx + a * K, ld_ctx,
                           false);
    }
}

namespace {

// out[n] = bias (then the product adds into it)
void fill_rows(float* out, const float* bias, int N, int width, int ld) {
    for (int n = 0; n < N; ++n) std::memcpy(out + size_t(n) * ld, bias, sizeof(float) * width);
}

void add_column_sums(float* dbias, const float* d, int N, int width, int ld) {
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < width; ++c) dbias[c] += d[size_t(n) * ld + c];
}

}  // namespace

void multihead_attention_forward(float* out, MultiheadAttentionCache& c, const float* xq,
                                 const float* xkv, const int* key_len, bool causal,
                                 const MultiheadAttentionParams& p, int B, int Tq, int Tk, int D,
                                 int A) {
    const int K = D / A, Nq = B * Tq, Nk = B * Tk;
    const float* W = p.in_proj_weight.data();
    const float* bias = p.in_proj_bias.data();
    // Q = X_q W_qᵀ + b_q;  [K ; V] = X_kv [W_k ; W_v]ᵀ + [b_k ; b_v]
    fill_rows(c.q, bias, Nq, D, D);
    kernels::matmul_nt(Nq, D, D, xq, D, W, D, c.q, D, true);
    fill_rows(c.kv, bias + D, Nk, 2 * D, 2 * D);
    kernels::matmul_nt(Nk, 2 * D, D, xkv, D, W + size_t(D) * D, D, c.kv, 2 * D, true);
    for (int b = 0; b < B; ++b)
        attend_forward(c.ctx + size_t(b) * Tq * D, D, c.alpha + size_t(b) * A * Tq * Tk,
                       long(Tq) * Tk, Tk, c.q + size_t(b) * Tq * D, D,
                       c.kv + size_t(b) * Tk * 2 * D, 2 * D, key_len[b], 0, causal, Tq, Tk, A, K);
    // out = ctx W_oᵀ + b_o
    dense_forward(out, c.ctx, p.out_proj_weight.data(), p.out_proj_bias.data(), Nq, D, D);
}

void multihead_attention_backward(float* dxq, float* dxkv, MultiheadAttentionParams& dp,
                                  MultiheadAttentionCache& c, const float* dout,
                                  const float* xq, const float* xkv, const int* key_len,
                                  bool causal, const MultiheadAttentionParams& p, int B, int Tq,
                                  int Tk, int D, int A) {
    (void)key_len;  // masked keys have α = 0, which already zeroes their gradient
    (void)causal;
    const int K = D / A, Nq = B * Tq, Nk = B * Tk;
    const float scale = 1.0f / std::sqrt(float(K));
    // out = ctx W_oᵀ + b_o  →  dctx = dout W_o, dW_o += doutᵀ ctx, db_o += Σ dout
    std::memset(c.dctx, 0, sizeof(float) * size_t(Nq) * D);
    dense_backward(c.dctx, dp.out_proj_weight.data(), dp.out_proj_bias.data(), dout, c.ctx,
                   p.out_proj_weight.data(), Nq, D, D);
    std::memset(c.dq, 0, sizeof(float) * size_t(Nq) * D);
    std::memset(c.dkv, 0, sizeof(float) * size_t(Nk) * 2 * D);
    for (int b = 0; b < B; ++b) {
        const float* q = c.q + size_t(b) * Tq * D;
        const float* kv = c.kv + size_t(b) * Tk * 2 * D;
        const float* dctx = c.dctx + size_t(b) * Tq * D;
        float* dq = c.dq + size_t(b) * Tq * D;
        float* dkv = c.dkv + size_t(b) * Tk * 2 * D;
        for (int a = 0; a < A; ++a) {
            const float* al = c.alpha + (size_t(b) * A + a) * Tq * Tk;
            // ctx_a = α V_a  →  dα = dctx_a V_aᵀ,  dV_a += αᵀ dctx_a
            kernels::matmul_nt(Tq, Tk, K, dctx + a * K, D, kv + D + a * K, 2 * D, c.dalpha, Tk,
                               false);
            kernels::matmul_tn(Tk, K, Tq, al, Tk, dctx + a * K, D, dkv + D + a * K, 2 * D, true);
            // α = softmax(e / √K)  →  de_ij = α_ij (dα_ij − Σ_l α_il dα_il) / √K, over
            // the whole row: the keys the mask hid have α = 0, so their de is 0
            for (int i = 0; i < Tq; ++i)
                softmax_backward_row(c.dalpha + size_t(i) * Tk, al + size_t(i) * Tk, Tk, scale);
            // e = Q_a K_aᵀ  →  dQ_a += de K_a,  dK_a += deᵀ Q_a
            kernels::matmul_nn(Tq, K, Tk, c.dalpha, Tk, kv + a * K, 2 * D, dq + a * K, D, true);
            kernels::matmul_tn(Tk, K, Tq, c.dalpha, Tk, q + a * K, D, dkv + a * K, 2 * D, true);
        }
    }
    // Q = X_q W_qᵀ + b_q  →  dX_q += dQ W_q,  dW_q += dQᵀ X_q,  db_q += Σ dQ
    const float* W = p.in_proj_weight.data();
    float* dW = dp.in_proj_weight.data();
    float* dbias = dp.in_proj_bias.data();
    kernels::matmul_nn(Nq, D, D, c.dq, D, W, D, dxq, D, true);
    kernels::matmul_tn(D, D, Nq, c.dq, D, xq, D, dW, D, true);
    add_column_sums(dbias, c.dq, Nq, D, D);
    // [K ; V] = X_kv [W_k ; W_v]ᵀ + [b_k ; b_v]  →  likewise with rows D..3D
    kernels::matmul_nn(Nk, D, 2 * D, c.dkv, 2 * D, W + size_t(D) * D, D, dxkv, D, true);
    kernels::matmul_tn(2 * D, D, Nk, c.dkv, 2 * D, xkv, D, dW + size_t(D) * D, D, true);
    add_column_sums(dbias + D, c.dkv, Nk, 2 * D, 2 * D);
}

// --- feed-forward -------------------------------------------------------------

void feed_forward_forward(float* y, float* hidden, const float* x, const FeedForwardParams& p,
                          int N, int D, int F) {
    // hidden = relu(x W_1ᵀ + b_1);  y = hidden W_2ᵀ + b_2
    dense_forward(hidden, x, p.linear1_weight.data(), p.linear1_bias.data(), N, D, F);
    for (size_t i = 0; i < size_t(N) * F; ++i) hidden[i] = std::max(hidden[i], 0.0f);
    dense_forward(y, hidden, p.linear2_weight.data(), p.linear2_bias.data(), N, F, D);
}

void feed_forward_backward(float* dx, FeedForwardParams& dp, float* dhidden, const float* dy,
                           const float* x, const float* hidden, const FeedForwardParams& p, int N,
                           int D, int F) {
    // y = hidden W_2ᵀ + b_2
    std::memset(dhidden, 0, sizeof(float) * size_t(N) * F);
    dense_backward(dhidden, dp.linear2_weight.data(), dp.linear2_bias.data(), dy, hidden,
                   p.linear2_weight.data(), N, F, D);
    // hidden = relu(pre)  →  dpre = dhidden where hidden > 0
    for (size_t i = 0; i < size_t(N) * F; ++i)
        if (hidden[i] <= 0.0f) dhidden[i] = 0.0f;
    // pre = x W_1ᵀ + b_1
    dense_backward(dx, dp.linear1_weight.data(), dp.linear1_bias.data(), dhidden, x,
                   p.linear1_weight.data(), N, D, F);
}

// --- dropout ------------------------------------------------------------------

void dropout_forward(float* x, float* mask, float p, int n, Rng& rng) {
    const float keep = 1.0f / (1.0f - p);
    for (int i = 0; i < n; ++i) {
        mask[i] = rng.uniform() < double(p) ? 0.0f : keep;
        x[i] *= mask[i];
    }
}

void dropout_backward(float* dx, const float* mask, int n) {
    for (int i = 0; i < n; ++i) dx[i] *= mask[i];
}

}  // namespace lb
