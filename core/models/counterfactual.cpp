// core/models/counterfactual.cpp — see counterfactual.h.
#include "models/counterfactual.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include "models/decoding_check.h"

namespace lb {

namespace {

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

std::string edit_name(const AttentionEdit& e) {
    return "output step " + std::to_string(e.step) +
           (e.head == every_head ? "" : " (head " + std::to_string(e.head) + ")");
}

// The input positions of L a model's attention weighs: all of them, but a Transformer whose
// memory is its first state reads position 0 alone.
int readable_positions(const ModelConfig& c, int L) {
    return reads_every_state(c) ? L : 1;
}

void check_edit(const Model& model, const AttentionEdit& e, int L) {
    const ModelConfig& c = model.config;
    const ModelKind& kind = model_kind(c.decoder);
    const std::string label = model_label(c);
    const int T = output_steps(c);
    if (e.step < 0 || e.step >= T)
        throw std::invalid_argument("output step " + std::to_string(e.step) + " is outside the " + label +
                                    " model's " + std::to_string(T) + " output steps (0 to " +
                                    std::to_string(T - 1) + ")");
    if (e.head != every_head && !kind.head_maps)
        throw std::invalid_argument("the " + label + " model has one attention map, not heads: head " +
                                    std::to_string(e.head) + " applies to a Transformer only");
    if (e.head != every_head && (e.head < 0 || e.head >= c.heads))
        throw std::invalid_argument("head " + std::to_string(e.head) + " is outside the " + label +
                                    " model's " + std::to_string(c.heads) + " heads (0 to " +
                                    std::to_string(c.heads - 1) + ")");
    const int n = int(e.weights.size());
    if (n > L)
        throw std::invalid_argument(edit_name(e) + " has weights for " + std::to_string(n) +
                                    " positions, but the input has " + std::to_string(L) + ": positions " +
                                    std::to_string(L) + " to " + std::to_string(n - 1) +
                                    " are padding, which attention never reads");
    if (n < L)
        throw std::invalid_argument(edit_name(e) + " has weights for " + std::to_string(n) +
                                    " positions, but the input has " + std::to_string(L) +
                                    ": give one for each");
    const int readable = readable_positions(c, L);
    double sum = 0;
    for (int j = 0; j < L; ++j) {
        const float w = e.weights[size_t(j)];
        if (!std::isfinite(w) || w < 0)
            throw std::invalid_argument(edit_name(e) + "'s weight at position " + std::to_string(j) + " is " +
                                        number(w) + ": weights must be finite and not negative");
        if (w > 0 && j >= readable)
            throw std::invalid_argument("the " + label + " model attends to input position 0 only: " +
                                        edit_name(e) + " weighs position " + std::to_string(j));
        sum += w;
    }
    const bool at_most_one = kind.windowed_attention;  // local-p's own rows sum to at most one
    if (at_most_one ? sum > 1 + edit_sum_tolerance : std::fabs(sum - 1) > edit_sum_tolerance)
        throw std::invalid_argument(edit_name(e) + "'s weights sum to " + number(sum) + ": they must sum to " +
                                    (at_most_one ? "at most one, as the " + label + " model's own do," : "one") +
                                    " within " + number(edit_sum_tolerance));
}

bool same_map(const AttentionEdit& a, const AttentionEdit& b) {
    return a.step == b.step && (a.head == every_head || b.head == every_head || a.head == b.head);
}

// Output steps whose token differs: the outputs split into tokens, a step past one's end included.
std::vector<int> changed_steps(const Vocabulary& output, const std::string& a, const std::string& b) {
    const std::vector<std::string_view> x = output.split(a), y = output.split(b);
    std::vector<int> changed;
    for (size_t t = 0; t < std::max(x.size(), y.size()); ++t)
        if (t >= x.size() || t >= y.size() || x[t] != y[t]) changed.push_back(int(t));
    return changed;
}

// decode_tokens, with a decoding that overflows refused as the other bad inputs are.
Decoded decode(const std::vector<int>& tokens, const Model& model, AttentionOverrides overrides) {
    try {
        return decode_tokens(tokens, model, overrides);
    } catch (const DecodingError& e) {
        throw std::invalid_argument(e.what());
    }
}

}  // namespace

Counterfactual decode_counterfactual(const Model& model, const std::vector<int>& tokens,
                                     const std::vector<AttentionEdit>& edits) {
    if (!model_kind(model.config.decoder).read_attention)
        throw std::invalid_argument("the " + model_label(model.config) +
                                    " model has no attention to edit: it reads the encoder's last state only");
    Counterfactual out;
    out.original = decode(tokens, model, {});  // refuses tokens it cannot decode
    const int L = int(tokens.size());
    std::vector<AttentionOverride> overrides;
    for (size_t i = 0; i < edits.size(); ++i) {
        check_edit(model, edits[i], L);
        for (size_t k = 0; k < i; ++k)
            if (same_map(edits[k], edits[i]))
                throw std::invalid_argument(edit_name(edits[i]) + " is edited twice (also as " +
                                            edit_name(edits[k]) + ")");
        overrides.push_back({0, edits[i].step, edits[i].head, edits[i].weights.data()});
    }
    out.edited = decode(tokens, model, overrides);
    out.changed_steps = changed_steps(model.config.task->output, out.original.output, out.edited.output);
    return out;
}

AttentionEdit attention_on(int step, int position, int input_length, int head) {
    if (position < 0 || position >= input_length)
        throw std::invalid_argument("input position " + std::to_string(position) + " is outside the input's " +
                                    std::to_string(input_length) + " positions (0 to " +
                                    std::to_string(input_length - 1) + "): past them is padding, which "
                                    "attention never reads");
    AttentionEdit edit{step, std::vector<float>(size_t(input_length), 0.0f), head};
    edit.weights[size_t(position)] = 1.0f;
    return edit;
}

}  // namespace lb
