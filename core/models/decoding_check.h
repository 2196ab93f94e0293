// core/models/decoding_check.h — where the finiteness guarantee lives. Loading refuses a NaN or an
// infinity in the weights (io/safetensors.h), but finite weights can still overflow (3e38 times
// anything), so the guarantee is made where numbers come out: after greedy decoding of any model
// kind (greedy_decode_batch, the one path of decode_examples, decode_tokens and the trainer's
// held-out metrics), every logit is finite and every attention row over the real positions is
// finite, non-negative and sums to 1 (luong-local: at most 1, luong.h). Otherwise decoding stops
// with a DecodingError naming the model and the output step, before an argmax, a map or a metric
// reads the values.
#pragma once
#include <stdexcept>

#include "models/model.h"

namespace lb {

struct DecodingError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Checks the last greedy decoding in acts of B rows of padded length S with real lengths src_len.
void check_decoding(const Activations& acts, const Model& model, const int* src_len, int B, int S);

}  // namespace lb
