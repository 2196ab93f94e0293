// core/lesson/probes.cpp — occlusion and the gradient path (see probes.h).
//
// Legend: T output steps (the task's), S input tokens, H width.
#include "lesson/probes.h"

#include <cmath>
#include <stdexcept>

namespace lb {

namespace {

// The tokens of a string the model can take, or std::invalid_argument.
std::vector<int> model_input(const Model& model, std::string_view input) {
    if (input.empty()) throw std::invalid_argument("probes: the input is empty");
    return model.config.task->input.encode(input);  // throws, naming the token outside the vocabulary
}

void check_position(int position, int S) {
    if (position < 0 || position >= S)
        throw std::invalid_argument("probes: position " + std::to_string(position) +
                                    " is outside the input (0 to " + std::to_string(S - 1) + ")");
}

std::string decode_blanked(std::vector<int> tokens, int position, const Model& model) {
    tokens[size_t(position)] = pad_token;
    return decode_tokens(tokens, model).output;
}

// ‖row‖ of each of the S rows of x [S, H], summed in double.
std::vector<float> row_norms(const float* x, int S, int H) {
    std::vector<float> norms(static_cast<size_t>(S));
    for (int j = 0; j < S; ++j) {
        double sum = 0;
        for (int i = 0; i < H; ++i) sum += double(x[size_t(j) * H + i]) * x[size_t(j) * H + i];
        norms[size_t(j)] = float(std::sqrt(sum));
    }
    return norms;
}

}  // namespace

Occlusion occlusion(const Model& model, std::string_view input) {
    const std::vector<int> tokens = model_input(model, input);
    const Vocabulary& out = model.config.task->output;
    Occlusion o;
    o.S = int(tokens.size());
    o.T = output_steps(model.config);
    const int T = o.T, S = o.S;
    o.reference = decode_tokens(tokens, model).output;
    const auto reference = out.split(o.reference);
    o.changed.assign(size_t(T) * S, 0.0f);
    for (int j = 0; j < S; ++j) {
        o.outputs.push_back(decode_blanked(tokens, j, model));
        const auto blanked = out.split(o.outputs.back());
        for (size_t t = 0; t < size_t(T); ++t) {
            const bool in_reference = t < reference.size(), in_blanked = t < blanked.size();
            o.changed[t * S + j] = in_reference != in_blanked || (in_reference && blanked[t] != reference[t]);
        }
    }
    return o;
}

std::string occluded_output(const Model& model, std::string_view input, int position) {
    const std::vector<int> tokens = model_input(model, input);
    check_position(position, int(tokens.size()));
    return decode_blanked(tokens, position, model);
}

GradientPath gradient_path(const Model& model, std::string_view input, std::string_view target) {
    if (!has_gradient_path(model.config.decoder))
        throw std::invalid_argument("probes: the gradient path is measured for the plain and attention models only, not " +
                                    std::string(decoder_name(model.config.decoder)));
    model_input(model, input);
    const std::vector<Example> one = {{std::string(input), std::string(target), 0, {}}};
    const Batch batch = make_batch(*model.config.task, one, {0});  // throws for a target that does not fit
    Activations acts;
    GradientPath g;
    g.loss = model_forward(acts, batch, model);
    Params grads = make_params(model.config);
    model_backward(grads, acts, batch, model);
    // After the backward pass (one row, no padding): denc_h [S, H] holds what the decoder sent
    // to each h_j (attention and s_0 = h_{len−1}); the encoder GRU's dh [S, H] adds what came
    // back through h_{j+1}, …, i.e. the total.
    const int S = batch.S, H = model.config.H;
    g.total = row_norms(acts.enc_gru.dh.data(), S, H);
    g.direct = row_norms(acts.denc_h.data(), S, H);
    return g;
}

}  // namespace lb
