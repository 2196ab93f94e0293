// core/models/gru_decoding.cpp — the GRU encoder–decoders' shared idioms (see
// gru_decoding.h).
#include "models/gru_decoding.h"

#include "kernels/kernels.h"
#include "layers/attention.h"
#include "layers/layers.h"

namespace lb {

void encode_last_state(float* x, float* h, float* s0, GruCache& gru, const int32_t* src,
                       const int* src_len, const Params& p, int B, int S, int H) {
    constexpr int E_in = encoder_embedding_width;
    embedding_forward(x, src, p.enc_embedding.data(), B * S, E_in, E_in);
    gru_forward(h, gru, x, nullptr, src_len, p.enc_gru, B, S, E_in, H);
    last_state_forward(s0, h, src_len, B, S, H);
}

void last_state_forward(float* s0, const float* h, const int* len, int B, int S, int H) {
    for (int b = 0; b < B; ++b)
        std::memcpy(s0 + size_t(b) * H, h + (size_t(b) * S + len[b] - 1) * H, sizeof(float) * H);
}

void last_state_backward(float* dh, const float* ds0, const int* len, int B, int S, int H) {
    for (int b = 0; b < B; ++b) {
        float* d = dh + (size_t(b) * S + len[b] - 1) * H;
        const float* ds = ds0 + size_t(b) * H;
        for (int i = 0; i < H; ++i) d[i] += ds[i];
    }
}

void project_decoder_inputs(GruCache& gru, const float* x, const GruParams& p, int t0, int steps,
                            int cols, int B, int D, int H, int T) {
    const int G = 3 * H;
    float* xproj = gru.xproj.data();
    for (int b = 0; b < B; ++b)
        for (int t = t0; t < t0 + steps; ++t)
            std::memcpy(xproj + (size_t(b) * T + t) * G, p.bias_ih.data(), sizeof(float) * G);
    if (steps == T)
        kernels::matmul_nt(B * T, G, cols, x, D, p.weight_ih.data(), D, xproj, G, true);
    else
        for (int t = t0; t < t0 + steps; ++t)
            kernels::matmul_nt(B, G, cols, x + size_t(t) * D, T * D, p.weight_ih.data(), D,
                               xproj + size_t(t) * G, T * G, true);
}

void override_attention(AttentionOverrides overrides, int t, float* alpha, float* ctx, int ld_ctx,
                        const float* enc, const int* src_len, int S, int T, int A) {
    for (const AttentionOverride& o : overrides) {
        if (o.step != t) continue;
        const int b = o.row, L = src_len[b];
        float* row = alpha + (size_t(b) * T + t) * S;
        std::memcpy(row, o.weights, sizeof(float) * L);
        std::memset(row + L, 0, sizeof(float) * (S - L));
        attention_context(ctx + size_t(b) * ld_ctx, row, enc + size_t(b) * S * A, L, A);
    }
}

}  // namespace lb
