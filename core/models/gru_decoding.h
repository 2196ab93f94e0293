// core/models/gru_decoding.h — internal to the GRU encoder–decoders (model.cpp,
// bahdanau.cpp, luong.cpp): the encoder and the greedy-decoding loop they share.
//
// Legend: B batch rows, S padded source length, T output steps (10), H width,
// D a decoder input row's width (its first 16 columns hold y_t).
#pragma once
#include <cstdint>
#include <cstring>
#include "data/dataset.h"
#include "layers/gru.h"
#include "models/params.h"

namespace lb {

// x_j = Embedding_in[src_j];  h_j = GRU_enc(x_j, h_{j−1}) over each row's real
// characters;  s0 = h_{len−1}, each row's true last state.
// x [B, S, 32], h [B, S, H], s0 [B, H] (model.cpp).
void encode_last_state(float* x, float* h, float* s0, GruCache& gru, const int32_t* src,
                       const int* src_len, const Params& p, int B, int S, int H);

// Greedy decoding's T steps. At step t: y_t = Embedding_out[the previous
// output] (the start token at t = 0) into dec_x[b, t, :16]; then step(t), the
// model's own step, which leaves logits[b, t] [13]; then tokens[b, t] = the
// argmax over the real characters.
template <class Step>
void greedy_steps(int32_t* tokens, float* dec_x, int D, const float* logits, const Params& p,
                  int B, Step&& step) {
    constexpr int T = output_length, E_out = decoder_embedding_width;
    for (int t = 0; t < T; ++t) {
        for (int b = 0; b < B; ++b) {
            const int previous = t == 0 ? start_token : tokens[size_t(b) * T + t - 1];
            std::memcpy(dec_x + (size_t(b) * T + t) * D,
                        p.dec_embedding.data() + size_t(previous) * E_out, sizeof(float) * E_out);
        }
        step(t);
        for (int b = 0; b < B; ++b)
            tokens[size_t(b) * T + t] =
                greedy_character(logits + (size_t(b) * T + t) * output_vocab_size);
    }
}

}  // namespace lb
