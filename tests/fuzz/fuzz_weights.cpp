// Fuzz target: the weights loader (safetensors bytes → a model), then decoding with what loaded.
// The contract: a file is refused only with SafetensorsError, whose message is valid UTF-8; a
// model that loads has a width the CLI can make and only finite weights; and it decodes two
// dates, alone and as a batch, either to 10 characters of "0-9" and "-" with attention rows that
// are finite, non-negative and sum to 1 (luong-local: at most 1), or to a DecodingError whose
// message is valid UTF-8 and names the model (decoding_check.h). Any other exception escapes and
// libFuzzer reports it as a crash.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>
#include <xtensor/xview.hpp>

#include "data/dataset.h"
#include "io/safetensors.h"
#include "models/decoding_check.h"
#include "models/model.h"
#include "text/text.h"

namespace {

void check_rows(const xt::xtensor<float, 2>& map, size_t L, bool at_most_one) {
    if (map.shape()[0] != 10 || map.shape()[1] != L) std::abort();
    for (size_t t = 0; t < 10; ++t) {
        double sum = 0;
        for (size_t j = 0; j < L; ++j) {
            if (!std::isfinite(map(t, j)) || map(t, j) < 0) std::abort();
            sum += map(t, j);
        }
        if (at_most_one ? sum > 1 + 1e-3 : std::fabs(sum - 1) > 1e-3) std::abort();
    }
}

void check_decoded(const lb::Decoded& d, size_t L, const lb::ModelConfig& config) {
    if (d.output.size() != 10) std::abort();
    for (char c : d.output)
        if (!((c >= '0' && c <= '9') || c == '-')) std::abort();
    if (config.decoder == lb::DecoderKind::plain) return;
    check_rows(d.attention, L, config.decoder == lb::DecoderKind::luong_local);
    for (size_t h = 0; h < (d.heads.dimension() == 3 ? d.heads.shape()[0] : 0); ++h)
        check_rows(xt::xtensor<float, 2>(xt::view(d.heads, h, xt::all(), xt::all())), L, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    lb::Model model;
    try {
        model = lb::load_model(data, size);
    } catch (const lb::SafetensorsError& e) {
        if (!lb::is_valid_utf8(e.what())) std::abort();
        return 0;
    }
    if (model.config.H < 1 || model.config.H > 1024) std::abort();
    for (const lb::NamedTensor& t : lb::named_tensors(model.params))
        for (size_t i = 0; i < t.size; ++i)
            if (!std::isfinite(t.data[i])) std::abort();

    const std::vector<lb::Example> dates = {{"monday 19 september 1977", "1977-09-19", 0},
                                            {"1/2/03", "2003-02-01", 0}};
    const std::string label = lb::model_label(model.config);
    try {
        for (const lb::Example& e : dates) {
            std::string error;
            const std::vector<int> tokens = lb::encode_user_input(date_task(), e.input, error);
            check_decoded(lb::decode_tokens(tokens, model), tokens.size(), model.config);
        }
        const std::vector<lb::Decoded> batch = lb::decode_examples(dates, model);
        for (size_t i = 0; i < dates.size(); ++i)
            check_decoded(batch[i], dates[i].input.size(), model.config);
    } catch (const lb::DecodingError& e) {
        const std::string message = e.what();
        if (!lb::is_valid_utf8(message) || message.find(label) == std::string::npos) std::abort();
    }
    return 0;
}
