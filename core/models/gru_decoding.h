// core/models/gru_decoding.h — internal to the GRU encoder–decoders (encoder_decoder.cpp,
// bahdanau.cpp, luong.cpp): the idioms their decoders share. The encoder and
// s_0 = each row's last state (forward and backward), the state a step reads,
// the decoder GRU's input projection, the greedy-decoding loop.
//
// Legend: B batch rows, S padded source length, T output steps (the task's), H width,
// G = 3H gate rows, D a decoder input row's width (its first 16 columns hold y_t).
#pragma once
#include <cstdint>
#include <cstring>
#include "data/dataset.h"
#include "layers/gru.h"
#include "models/attention_override.h"
#include "models/params.h"

namespace lb {

// x_j = Embedding_in[src_j];  h_j = GRU_enc(x_j, h_{j−1}) over each row's real
// characters;  s0 = h_{len−1}, each row's true last state.
// x [B, S, 32], h [B, S, H], s0 [B, H].
void encode_last_state(float* x, float* h, float* s0, GruCache& gru, const int32_t* src,
                       const int* src_len, const Params& p, int B, int S, int H);

// s0 [B, H] = h[b, len[b] − 1], each row's last real state of h [B, S, H].
void last_state_forward(float* s0, const float* h, const int* len, int B, int S, int H);
// Its backward: dh[b, len[b] − 1] += ds0[b].
void last_state_backward(float* dh, const float* ds0, const int* len, int B, int S, int H);

// s_{t−1} as decoder step t reads it: s0 [B, H] at t = 0, else states[:, t − 1]
// of the decoder's states [B, T, H]; its row stride is state_before_ld. The
// same for their gradients (ds0, and the GRU cache's dh).
template <class Float>
Float* state_before(Float* s0, Float* states, int t, int H) {
    return t == 0 ? s0 : states + size_t(t - 1) * H;
}
inline int state_before_ld(int t, int H, int T) { return t == 0 ? H : T * H; }

// The decoder GRU's input projection for steps [t0, t0 + steps):
// gru.xproj[:, t] = b_ih + x[:, t, :cols] · W_ih[:, :cols]ᵀ, x [B, T, D], W_ih [G, D].
// cols < D leaves the other columns' share to the caller (the attention
// decoder adds its context's per step); all T steps are one product.
void project_decoder_inputs(GruCache& gru, const float* x, const GruParams& p, int t0, int steps,
                            int cols, int B, int D, int H, int T);

// Counterfactual decoding's hook (attention_override.h), after step t has weighed as usual: each
// override of step t puts its weights in row b's alpha[b, t] [S] (0 past the row's length) and
// recomputes that row's context ctx[b] [A] (row stride ld_ctx) from the states enc [B, S, A],
// with attention.h's own sum.
void override_attention(AttentionOverrides overrides, int t, float* alpha, float* ctx, int ld_ctx,
                        const float* enc, const int* src_len, int S, int T, int A);

// Greedy decoding's T steps. At step t: y_t = Embedding_out[the previous
// output] (the start token at t = 0) into dec_x[b, t, :16]; then step(t), the
// model's own step, which leaves logits[b, t] [V]; then tokens[b, t] = the
// task's greedy token (never pad or start).
template <class Step>
void greedy_steps(int32_t* tokens, float* dec_x, int D, const float* logits, const Params& p,
                  int B, const Task& task, Step&& step) {
    const int T = task.output_steps, V = task.output.size();
    constexpr int E_out = decoder_embedding_width;
    for (int t = 0; t < T; ++t) {
        for (int b = 0; b < B; ++b) {
            const int previous = t == 0 ? start_token : tokens[size_t(b) * T + t - 1];
            std::memcpy(dec_x + (size_t(b) * T + t) * D,
                        p.dec_embedding.data() + size_t(previous) * E_out, sizeof(float) * E_out);
        }
        step(t);
        for (int b = 0; b < B; ++b)
            tokens[size_t(b) * T + t] = task.greedy_token(logits + (size_t(b) * T + t) * V);
    }
}

}  // namespace lb
