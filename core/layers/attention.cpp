// core/layers/attention.cpp — batched scorers, masked softmax and context (see
// attention.h for the formulas).
//
// Legend: B batch rows, S source positions (padded), T decoder steps, H decoder
// state width, A encoder state width; j a source position, L = src_len[b] the
// row's real length.
#include "layers/attention.h"

#include <cstring>
#include "kernels/buffers.h"
#include "kernels/kernels.h"
#include "layers/layers.h"

namespace lb {

namespace {
// The tensor k_j is read from: the encoder states themselves for dot.
const float* keys_of(const AttentionCache& c, const float* enc, Scorer scorer) {
    return scorer == Scorer::dot ? enc : c.keys.data();
}
// Where row b's tanh(k_j + q_t) start at step t, [S, H]: the cache is time-major, so that the
// backward step reads its B rows as one stream (batch-major, each row was a jump of T·S·H
// floats, and the loads waited on memory; BENCHMARKS.md, "Where the time goes").
float* tanh_rows(AttentionCache& c, int b, int t, int B, int S, int H) {
    return c.tanh.data() + (size_t(t) * B + b) * S * H;
}
}  // namespace

AttentionParams make_attention_params(Scorer scorer, int H, int A) {
    const size_t h = size_t(H), a = size_t(A > 0 ? A : H);
    AttentionParams p{xt::zeros<float>({size_t(0), size_t(0)}),
                      xt::zeros<float>({size_t(0), size_t(0)}), xt::zeros<float>({size_t(0)}),
                      xt::zeros<float>({size_t(0), size_t(0)})};
    if (scorer == Scorer::additive) {
        p.W_e = xt::zeros<float>({h, a});
        p.W_d = xt::zeros<float>({h, h});
        p.v = xt::zeros<float>({h});
    } else if (scorer == Scorer::general) {
        p.W = xt::zeros<float>({h, a});
    }
    return p;
}

int attention_value_width(const AttentionParams& p, Scorer scorer, int H) {
    if (scorer == Scorer::additive) return int(p.W_e.shape(1));
    if (scorer == Scorer::general) return int(p.W.shape(1));
    return H;
}

void attention_reserve(AttentionCache& c, Scorer scorer, int B, int S, int T, int H) {
    const size_t BS = size_t(B) * S, BT = size_t(B) * T;
    grow(c.alpha, BT * S);
    grow(c.dscores, BT * S);
    if (scorer != Scorer::dot) {
        grow(c.keys, BS * H);
        grow(c.dkeys, BS * H);
    }
    if (scorer == Scorer::additive) {
        grow(c.query, BT * H);
        grow(c.dquery, BT * H);
        grow(c.tanh, BT * S * H);
        grow(c.W_d_t, size_t(H) * H);
        grow(c.dv, size_t(H));
    }
}

void attention_keys_forward(AttentionCache& c, const float* enc, const AttentionParams& p,
                            Scorer scorer, int B, int S, int H) {
    const int A = attention_value_width(p, scorer, H);
    // general: k_j = W h_j ; additive: k_j = W_e h_j   (rows: keys = enc · Wᵀ)
    if (scorer == Scorer::general)
        kernels::matmul_nt(B * S, H, A, enc, A, p.W.data(), A, c.keys.data(), H, false);
    else if (scorer == Scorer::additive) {
        kernels::matmul_nt(B * S, H, A, enc, A, p.W_e.data(), A, c.keys.data(), H, false);
        if (B > 1) kernels::transpose(H, H, p.W_d.data(), H, c.W_d_t.data(), H);
    }
}

void attention_step_forward(float* ctx, int ld_ctx, AttentionCache& c, const float* s_prev,
                            int ld_prev, const float* enc, const int* src_len,
                            const AttentionParams& p, Scorer scorer, int t, int B, int S, int T,
                            int H) {
    const bool additive = scorer == Scorer::additive;
    const int A = attention_value_width(p, scorer, H);
    // additive: q_t = W_d s_{t−1}   (rows: query[:, t] = s_prev · W_dᵀ)
    if (additive && B > 1)
        kernels::matmul_nn(B, H, H, s_prev, ld_prev, c.W_d_t.data(), H,
                           c.query.data() + size_t(t) * H, T * H, false);
    else if (additive)  // one string: no transposed copy (attention_keys_forward)
        kernels::matmul_nt(B, H, H, s_prev, ld_prev, p.W_d.data(), H,
                           c.query.data() + size_t(t) * H, T * H, false);
    const float* keys = keys_of(c, enc, scorer);
    for (int b = 0; b < B; ++b) {
        const int L = src_len[b];
        const float* s = s_prev + size_t(b) * ld_prev;
        const float* q = additive ? c.query.data() + (size_t(b) * T + t) * H : nullptr;
        float* alpha = c.alpha.data() + (size_t(b) * T + t) * S;
        // scores e_j over the real positions j < L
        if (additive) {
            // u_j = tanh(k_j + q) (kept for backward), e_j = v · u_j
            kernels::additive_scores(alpha, tanh_rows(c, b, t, B, S, H),
                                     keys + size_t(b) * S * H, q, p.v.data(), L, H);
        } else {
            for (int j = 0; j < L; ++j) alpha[j] = kernels::dot(s, keys + (size_t(b) * S + j) * H, H);
        }
        // α = softmax(e) over j < L; 0 on padding
        masked_softmax_forward(alpha, L, S);
        attention_context(ctx + size_t(b) * ld_ctx, alpha, enc + size_t(b) * S * A, L, A);
    }
}

void attention_context(float* ctx, const float* alpha, const float* enc, int L, int A) {
    std::memset(ctx, 0, sizeof(float) * A);
    for (int j = 0; j < L; ++j) {
        const float* h = enc + size_t(j) * A;
        const float a = alpha[j];
        for (int i = 0; i < A; ++i) ctx[i] += a * h[i];
    }
}

void attention_step_backward(float* ds_prev, int ld_dprev, float* denc, AttentionCache& c,
                             const float* dctx, int ld_dctx, const float* s_prev, int ld_prev,
                             const float* enc, const int* src_len, const AttentionParams& p,
                             Scorer scorer, int t, int B, int S, int T, int H) {
    const bool additive = scorer == Scorer::additive;
    const int A = attention_value_width(p, scorer, H);
    const float* keys = keys_of(c, enc, scorer);
    for (int b = 0; b < B; ++b) {
        const int L = src_len[b];
        const float* dc = dctx + size_t(b) * ld_dctx;
        const float* s = s_prev + size_t(b) * ld_prev;
        float* __restrict ds = ds_prev + size_t(b) * ld_dprev;
        const float* alpha = c.alpha.data() + (size_t(b) * T + t) * S;
        float* de = c.dscores.data() + (size_t(b) * T + t) * S;
        // c = Σ_j α_j h_j  →  dα_j = dc · h_j,  dh_j += α_j dc (one pass);
        // α = softmax(e)  →  de_j = α_j (dα_j − Σ_i α_i dα_i)
        masked_softmax_backward(de, alpha, L, S, 1.0f, [&](int j) {
            const float* h = enc + (size_t(b) * S + j) * A;
            float* dh = denc + (size_t(b) * S + j) * A;
            const float a = alpha[j];
            const float da = kernels::dot(dc, h, A);
            for (int i = 0; i < A; ++i) dh[i] += a * dc[i];
            return da;
        });

        if (additive) {
            // e_j = vᵀ u_j, u_j = tanh(k_j + q)  →  dv += de_j u_j,
            // dk_j += de_j v ⊙ (1 − u_j²), dq = Σ_j of that (one pass over the tanh cache)
            float* __restrict dq = c.dquery.data() + (size_t(b) * T + t) * H;
            std::memset(dq, 0, sizeof(float) * H);
            const float* __restrict v = p.v.data();
            float* __restrict dv = c.dv.data();
            if (b + 1 < B) prefetch(tanh_rows(c, b + 1, t, B, S, H), size_t(src_len[b + 1]) * H);
            for (int j = 0; j < L; ++j) {
                const float* __restrict u = tanh_rows(c, b, t, B, S, H) + size_t(j) * H;
                float* __restrict dk = c.dkeys.data() + (size_t(b) * S + j) * H;
                const float e = de[j];
                for (int i = 0; i < H; ++i) {
                    const float g = e * v[i] * (1.0f - u[i] * u[i]);
                    dv[i] += e * u[i];
                    dk[i] += g;
                    dq[i] += g;
                }
            }
        } else {
            // e_j = s · k_j  →  ds += Σ_j de_j k_j,  dk_j += de_j s
            float* dkeys = scorer == Scorer::dot ? denc : c.dkeys.data();
            for (int j = 0; j < L; ++j) {
                const float* __restrict k = keys + (size_t(b) * S + j) * H;
                float* __restrict dk = dkeys + (size_t(b) * S + j) * H;
                const float e = de[j];
                for (int i = 0; i < H; ++i) {
                    ds[i] += e * k[i];
                    dk[i] += e * s[i];
                }
            }
        }
    }
    // q_t = s_{t−1} · W_dᵀ  →  ds_prev += dq_t · W_d
    if (additive)
        kernels::matmul_nn(B, H, H, c.dquery.data() + size_t(t) * H, T * H, p.W_d.data(), H,
                           ds_prev, ld_dprev, true);
}

void attention_keys_backward(float* denc, AttentionParams& dp, const AttentionCache& c,
                             const float* enc, const float* s_prevs, const AttentionParams& p,
                             Scorer scorer, int B, int S, int T, int H) {
    if (scorer == Scorer::dot) return;
    const int A = attention_value_width(p, scorer, H);
    const float* W = scorer == Scorer::general ? p.W.data() : p.W_e.data();
    float* dW = scorer == Scorer::general ? dp.W.data() : dp.W_e.data();
    // keys = enc · Wᵀ  →  denc += dkeys · W,  dW += dkeysᵀ · enc
    kernels::matmul_nn(B * S, A, H, c.dkeys.data(), H, W, A, denc, A, true);
    kernels::matmul_tn(H, A, B * S, c.dkeys.data(), H, enc, A, dW, A, true);
    if (scorer == Scorer::additive) {
        // q = s_prev · W_dᵀ  →  dW_d += dqᵀ · s_prev
        kernels::matmul_tn(H, H, B * T, c.dquery.data(), H, s_prevs, H, dp.W_d.data(), H, true);
        // e_tj = vᵀ u_tj  →  dv += Σ_tj de_tj u_tj, summed by the steps
        for (int i = 0; i < H; ++i) dp.v[size_t(i)] += c.dv[size_t(i)];
    }
}

void attention_zero_grads(AttentionCache& c, Scorer scorer, int B, int S, int, int H) {
    if (scorer != Scorer::dot) std::memset(c.dkeys.data(), 0, sizeof(float) * size_t(B) * S * H);
    if (scorer == Scorer::additive) std::memset(c.dv.data(), 0, sizeof(float) * size_t(H));
}

}  // namespace lb
