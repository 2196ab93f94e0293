// core/layers/gru.cpp — one GRU layer, forward and backward through time (gru.h has
// the convention: gate order r, z, n; reset applied after W_hn).
//
// Legend: B batch rows, T time steps, E input width, H state width; G = 3H.
#include "layers/gru.h"

#include <cstring>
#include "kernels/buffers.h"
#include "kernels/kernels.h"

namespace lb {

namespace {
bool runs(const int* lengths, int b, int t) { return lengths == nullptr || t < lengths[b]; }

// Row (b, t) of a cache the steps alone read (gates, hn): time-major, so that one step's rows
// lie side by side and the backward step streams through them (batch-major, each row was a
// jump of T rows, and the loads waited on memory). The caches the weight gradients multiply
// over all B·T rows at once (hprev, dxproj, dhproj) stay batch-major: their sums run in
// row order, and the order of a sum decides its bits.
size_t step_row(int b, int t, int B) { return size_t(t) * B + b; }

// The gate math of one row's backward step. Every buffer is distinct
// (__restrict on parameters is what lets compilers vectorise this loop).
// dx, dhq [3H]: gradients of xproj and hproj; dprev [H] += gradient of h_{t−1};
// dh [H]: gradient of h_t; gates [3H] = r, z, n; hn, hp [H].
void gate_gradients(float* __restrict dx, float* __restrict dhq, float* __restrict dprev,
                    const float* __restrict dh, const float* __restrict gates,
                    const float* __restrict hn, const float* __restrict hp, int H) {
    for (int i = 0; i < H; ++i) {
        const float r = gates[i], z = gates[H + i], n = gates[2 * H + i];
        // h' = (1 − z) ⊙ n + z ⊙ h
        const float dn = dh[i] * (1.0f - z);
        const float dz = dh[i] * (hp[i] - n);
        dprev[i] += dh[i] * z;
        // n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))
        const float dn_pre = dn * (1.0f - n * n);
        const float dr = dn_pre * hn[i];
        // r = σ(·), z = σ(·)
        const float dr_pre = dr * r * (1.0f - r);
        const float dz_pre = dz * z * (1.0f - z);
        dx[i] = dr_pre;
        dx[H + i] = dz_pre;
        dx[2 * H + i] = dn_pre;
        dhq[i] = dr_pre;
        dhq[H + i] = dz_pre;
        dhq[2 * H + i] = dn_pre * r;
    }
}
}  // namespace

GruParams make_gru_params(int E, int H) {
    const size_t G = 3 * size_t(H);
    return {xt::zeros<float>({G, size_t(E)}), xt::zeros<float>({G, size_t(H)}),
            xt::zeros<float>({G}), xt::zeros<float>({G})};
}

void gru_reserve(GruCache& c, int B, int T, int H) {
    const size_t BT = size_t(B) * T, G = 3 * size_t(H);
    grow(c.xproj, BT * G);
    grow(c.hprev, BT * H);
    grow(c.gates, BT * G);
    grow(c.hn, BT * H);
    grow(c.hproj, size_t(B) * G);
    grow(c.weight_hh_t, size_t(H) * G);
    grow(c.dh, BT * H);
    grow(c.dxproj, BT * G);
    grow(c.dhproj, BT * G);
    grow(c.zeros, size_t(B) * H);
}

void gru_begin_steps(GruCache& c, const GruParams& p, int B, int H) {
    if (B > 1) kernels::transpose(3 * H, H, p.weight_hh.data(), H, c.weight_hh_t.data(), 3 * H);
}

void gru_step_forward(float* h, GruCache& c, const float* h_prev, int ld_prev,
                      const int* lengths, const GruParams& p, int t, int B, int T, int H) {
    const int G = 3 * H;
    // hproj [B, 3H] = h_prev · W_hhᵀ + b_hh
    float* hproj = c.hproj.data();
    for (int b = 0; b < B; ++b) std::memcpy(hproj + b * G, p.bias_hh.data(), sizeof(float) * G);
    if (B > 1)
        kernels::matmul_nn(B, G, H, h_prev, ld_prev, c.weight_hh_t.data(), G, hproj, G, true);
    else  // one string: no transposed copy (gru_begin_steps)
        kernels::matmul_nt(B, G, H, h_prev, ld_prev, p.weight_hh.data(), H, hproj, G, true);

    for (int b = 0; b < B; ++b) {
        const size_t bt = size_t(b) * T + t;
        const float* hp = h_prev + size_t(b) * ld_prev;
        float* hprev = c.hprev.data() + bt * H;
        float* out = h + bt * H;
        std::memcpy(hprev, hp, sizeof(float) * H);
        if (!runs(lengths, b, t)) {  // padding: carry the state
            std::memcpy(out, hp, sizeof(float) * H);
            continue;
        }
        const float* xp = c.xproj.data() + bt * G;
        const float* hq = hproj + size_t(b) * G;
        float* gates = c.gates.data() + step_row(b, t, B) * G;
        float* hn = c.hn.data() + step_row(b, t, B) * H;
        // r, z = σ(xproj + hproj) over the first 2H gate rows
        for (int i = 0; i < 2 * H; ++i) gates[i] = xp[i] + hq[i];
        kernels::sigmoid_array(gates, gates, 2 * H);
        // n = tanh(xproj_n + r ⊙ hproj_n)
        float* n = gates + 2 * H;
        for (int i = 0; i < H; ++i) {
            hn[i] = hq[2 * H + i];
            n[i] = xp[2 * H + i] + gates[i] * hn[i];
        }
        kernels::tanh_array(n, n, H);
        // h' = (1 − z) ⊙ n + z ⊙ h
        const float* z = gates + H;
        for (int i = 0; i < H; ++i) out[i] = n[i] + z[i] * (hp[i] - n[i]);
    }
}

void gru_step_backward(float* dh_prev, int ld_dprev, GruCache& c, const int* lengths,
                       const GruParams& p, int t, int B, int T, int H) {
    const int G = 3 * H;
    for (int b = 0; b < B; ++b) {
        const size_t bt = size_t(b) * T + t;
        const float* dh = c.dh.data() + bt * H;
        float* dprev = dh_prev + size_t(b) * ld_dprev;
        float* dx = c.dxproj.data() + bt * G;
        float* dhq = c.dhproj.data() + bt * G;
        if (!runs(lengths, b, t)) {  // padding: h_t = h_{t−1}
            for (int i = 0; i < H; ++i) dprev[i] += dh[i];
            std::memset(dx, 0, sizeof(float) * G);
            std::memset(dhq, 0, sizeof(float) * G);
            continue;
        }
        gate_gradients(dx, dhq, dprev, dh, c.gates.data() + step_row(b, t, B) * G,
                       c.hn.data() + step_row(b, t, B) * H, c.hprev.data() + bt * H, H);
    }
    // hproj = h_prev · W_hhᵀ + b_hh  →  dh_prev += dhproj · W_hh
    kernels::matmul_nn(B, H, G, c.dhproj.data() + size_t(t) * G, T * G, p.weight_hh.data(), H,
                       dh_prev, ld_dprev, true);
}

void gru_weights_backward(GruParams& dp, const GruCache& c, const float* x, int B, int T, int E,
                          int H) {
    const int G = 3 * H, BT = B * T;
    // xproj = x · W_ihᵀ + b_ih ;  hproj = h_prev · W_hhᵀ + b_hh   (all steps at once)
    kernels::matmul_tn(G, E, BT, c.dxproj.data(), G, x, E, dp.weight_ih.data(), E, true);
    kernels::matmul_tn(G, H, BT, c.dhproj.data(), G, c.hprev.data(), H, dp.weight_hh.data(), H,
                       true);
    float* dbi = dp.bias_ih.data();
    float* dbh = dp.bias_hh.data();
    for (int n = 0; n < BT; ++n) {
        const float* dx = c.dxproj.data() + size_t(n) * G;
        const float* dhq = c.dhproj.data() + size_t(n) * G;
        for (int g = 0; g < G; ++g) {
            dbi[g] += dx[g];
            dbh[g] += dhq[g];
        }
    }
}

void gru_forward(float* h, GruCache& c, const float* x, const float* h0, const int* lengths,
                 const GruParams& p, int B, int T, int E, int H) {
    const int G = 3 * H, BT = B * T;
    gru_reserve(c, B, T, H);
    // xproj [B·T, 3H] = x · W_ihᵀ + b_ih: the input projection of every step in one product
    float* xproj = c.xproj.data();
    for (int n = 0; n < BT; ++n) std::memcpy(xproj + size_t(n) * G, p.bias_ih.data(), sizeof(float) * G);
    kernels::matmul_nt(BT, G, E, x, E, p.weight_ih.data(), E, xproj, G, true);

    gru_begin_steps(c, p, B, H);
    if (!h0) {
        std::memset(c.zeros.data(), 0, sizeof(float) * size_t(B) * H);
        h0 = c.zeros.data();
    }
    for (int t = 0; t < T; ++t) {
        if (t == 0)
            gru_step_forward(h, c, h0, H, lengths, p, 0, B, T, H);
        else
            gru_step_forward(h, c, h + size_t(t - 1) * H, T * H, lengths, p, t, B, T, H);
    }
}

void gru_backward(float* dx, float* dh0, GruParams& dp, GruCache& c, const float* dh,
                  const float* x, const int* lengths, const GruParams& p, int B, int T, int E,
                  int H) {
    const int G = 3 * H, BT = B * T;
    std::memcpy(c.dh.data(), dh, sizeof(float) * size_t(BT) * H);
    if (!dh0) dh0 = c.zeros.data();  // a sink: its contents are not used again
    for (int t = T - 1; t >= 0; --t) {
        if (t == 0)
            gru_step_backward(dh0, H, c, lengths, p, 0, B, T, H);
        else
            gru_step_backward(c.dh.data() + size_t(t - 1) * H, T * H, c, lengths, p, t, B, T, H);
    }
    gru_weights_backward(dp, c, x, B, T, E, H);
    // xproj = x · W_ihᵀ + b_ih  →  dx += dxproj · W_ih
    if (dx) kernels::matmul_nn(BT, E, G, c.dxproj.data(), G, p.weight_ih.data(), E, dx, E, true);
}

}  // namespace lb
