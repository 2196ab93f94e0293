// Fuzz target: the weights loader (safetensors bytes → a model), then decoding with what loaded.
// The contract: a file is refused only with SafetensorsError, whose message is valid UTF-8 with
// no control character (C0, DEL, C1: the file's bytes are quoted escaped, text/text.h); a
// model that loads has a width the CLI can make and only finite weights; one of a date task's dial
// setting other than the lesson's does not load into a model of the lesson's; and it decodes two
// inputs of its task (a file may name any task), alone and as a batch, either to text of the
// task's output vocabulary (for dates: 10 characters of "0-9" and "-") with attention rows that
// are finite, non-negative and sum to 1 (a windowed kind: at most 1), or to a DecodingError whose
// message is valid UTF-8 and names the model (decoding_check.h). Any other exception escapes and
// libFuzzer reports it as a crash.
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>
#include <xtensor/xview.hpp>

#include "data/dataset.h"
#include "io/safetensors.h"
#include "models/decoding_check.h"
#include "models/model.h"
#include "text/text.h"

namespace {

// Valid UTF-8 with no C0, DEL or C1 control: a terminal that prints it obeys nothing in it.
void check_refusal(const std::string& m) {
    if (!lb::is_valid_utf8(m)) std::abort();
    for (size_t i = 0; i < m.size();) {
        const size_t n = lb::utf8_char_length(m, i);
        const char32_t c = lb::utf8_code_point(m, i, n);
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) std::abort();
        i += n;
    }
}

void check_rows(const xt::xtensor<float, 2>& map, size_t T, size_t L, bool at_most_one) {
    if (map.shape()[0] != T || map.shape()[1] != L) std::abort();
    for (size_t t = 0; t < T; ++t) {
        double sum = 0;
        for (size_t j = 0; j < L; ++j) {
            if (!std::isfinite(map(t, j)) || map(t, j) < 0) std::abort();
            sum += map(t, j);
        }
        if (at_most_one ? sum > 1 + 1e-3 : std::fabs(sum - 1) > 1e-3) std::abort();
    }
}

void check_decoded(const lb::Decoded& d, size_t L, const lb::ModelConfig& config) {
    const lb::Task& task = *config.task;
    if (task.output.split(d.output).size() > size_t(task.output_steps)) std::abort();
    for (std::string_view token : task.output.split(d.output))
        if (task.output.id(token) < 0) std::abort();  // only the task's own tokens
    if (!task.ends && d.output.size() != size_t(task.output_steps)) std::abort();
    const lb::ModelKind& row = lb::model_kind(config.decoder);
    if (!row.read_attention) return;
    const size_t T = size_t(task.output_steps);
    check_rows(d.attention, T, L, row.windowed_attention);
    for (size_t h = 0; h < (d.heads.dimension() == 3 ? d.heads.shape()[0] : 0); ++h)
        check_rows(xt::xtensor<float, 2>(xt::view(d.heads, h, xt::all(), xt::all())), T, L, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    lb::Model model;
    try {
        model = lb::load_model(data, size);
    } catch (const lb::SafetensorsError& e) {
        check_refusal(e.what());
        return 0;
    }
    if (model.config.H < 1 || model.config.H > 1024) std::abort();
    for (const lb::NamedTensor& t : lb::named_tensors(model.params))
        for (size_t i = 0; i < t.size; ++i)
            if (!std::isfinite(t.data[i])) std::abort();

    const lb::Task& task = *model.config.task;
    // A file of another setting of the date task's dial never loads into a model of the lesson's
    // dates: the configuration is compared, the task included, not the shapes alone.
    if (lb::date_dial(task) && &task != &lb::date_task()) {
        lb::ModelConfig lesson = model.config;
        lesson.task = &lb::date_task();
        lb::Model other = lb::make_model(lesson);
        try {
            lb::load_weights_into(other, lb::decode_safetensors(data, size));
            std::abort();
        } catch (const lb::SafetensorsError& e) {
            check_refusal(e.what());
        }
    }
    static std::map<const lb::Task*, std::vector<lb::Example>> drawn;  // two of each task's strings
    if (!drawn.count(&task)) drawn[&task] = task.make_splits(1, 0, 2).held_out;
    const std::vector<lb::Example>& inputs = drawn[&task];
    const std::string label = lb::model_label(model.config);
    try {
        for (const lb::Example& e : inputs) {
            std::string error;
            const std::vector<int> tokens = lb::encode_user_input(task, e.input, error);
            if (tokens.empty()) std::abort();  // the task's own strings are always accepted
            check_decoded(lb::decode_tokens(tokens, model), tokens.size(), model.config);
        }
        const std::vector<lb::Decoded> batch = lb::decode_examples(inputs, model);
        for (size_t i = 0; i < inputs.size(); ++i)
            check_decoded(batch[i], task.input.split(inputs[i].input).size(), model.config);
    } catch (const lb::DecodingError& e) {
        const std::string message = e.what();
        if (!lb::is_valid_utf8(message) || message.find(label) == std::string::npos) std::abort();
    }
    return 0;
}
