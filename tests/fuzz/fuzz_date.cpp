// Fuzz target: a typed date through encoding and greedy decoding with a real
// model (attention, additive, width 8, initialised from seed 1). The contract:
// a refusal is an error message, valid UTF-8 with no control byte; an
// accepted date decodes to 10 characters of "0-9" and "-" with an attention
// matrix [10, input length] whose rows are finite and sum to one.
#include <cmath>
#include <cstdlib>
#include <string>

#include "data/dataset.h"
#include "models/model.h"
#include "text/text.h"
#include "training/trainer.h"

namespace {
const lb::Model& model() {
    static const lb::Model m = [] {
        lb::Model made = lb::make_model({lb::DecoderKind::attention, lb::Scorer::additive, 8});
        lb::Rng rng(1);
        lb::init_params(made.params, rng);
        return made;
    }();
    return m;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const std::vector<int> tokens = lb::encode_user_input(lb::date_task(), text, error);
    if (tokens.empty()) {
        if (error.empty() || !lb::is_valid_utf8(error)) std::abort();
        for (char c : error)
            if (static_cast<unsigned char>(c) < 0x20) std::abort();
        return 0;
    }
    const lb::Decoded d = lb::decode_tokens(tokens, model());
    if (d.output.size() != 10) std::abort();
    for (char c : d.output)
        if (!((c >= '0' && c <= '9') || c == '-')) std::abort();
    if (d.attention.dimension() != 2 || d.attention.shape()[0] != 10 ||
        d.attention.shape()[1] != tokens.size())
        std::abort();
    for (size_t t = 0; t < 10; ++t) {
        double sum = 0;
        for (size_t j = 0; j < tokens.size(); ++j) {
            if (!std::isfinite(d.attention(t, j))) std::abort();
            sum += d.attention(t, j);
        }
        if (std::fabs(sum - 1) > 1e-3) std::abort();
    }
    return 0;
}
