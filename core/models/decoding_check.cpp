// core/models/decoding_check.cpp — the checks of decoding_check.h.
#include "models/decoding_check.h"

#include <cmath>
#include <string>

namespace lb {

namespace {

constexpr float row_sum_tolerance = 1e-3f;  // float softmax over at most a few dozen positions

[[noreturn]] void stop(const Model& model, int t, const std::string& what) {
    throw DecodingError("the " + model_label(model.config) + " model's decoding " + what +
                        " at output step " + std::to_string(t + 1) + " of " +
                        std::to_string(output_steps(model.config)) +
                        ": its weights overflow, so it gives no output.");
}

// A row's weights over its L real positions: finite, non-negative, summing to 1 (or at most 1).
void check_row(const float* row, int L, bool at_most_one, const Model& model, int t) {
    double sum = 0;
    for (int j = 0; j < L; ++j) {
        if (!std::isfinite(row[j]) || row[j] < 0) stop(model, t, "gave a non-finite attention weight");
        sum += row[j];
    }
    const bool sound = at_most_one ? sum <= 1 + row_sum_tolerance : std::fabs(sum - 1) <= row_sum_tolerance;
    if (!sound) stop(model, t, "gave attention weights summing to " + std::to_string(sum));
}

}  // namespace

void check_decoding(const Activations& acts, const Model& model, const int* src_len, int B, int S) {
    const int T = acts.T, V = acts.V;
    const float* logits = model_logits(acts);
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < T; ++t)
            for (int k = 0; k < V; ++k)
                if (!std::isfinite(logits[(size_t(b) * T + t) * V + size_t(k)]))
                    stop(model, t, "gave a non-finite logit");
    const ModelKind& row = model_kind(model.config.decoder);
    int A = 0;
    if (const float* alpha = row.head_maps ? row.head_maps(acts, A) : nullptr) {  // [B, A, T, S]
        for (int b = 0; b < B; ++b)
            for (int h = 0; h < A; ++h)
                for (int t = 0; t < T; ++t)
                    check_row(alpha + ((size_t(b) * A + h) * T + t) * S, src_len[b], false, model, t);
    } else if (const float* alpha = alignment_map(acts)) {  // [B, T, S]
        for (int b = 0; b < B; ++b)
            for (int t = 0; t < T; ++t)
                check_row(alpha + (size_t(b) * T + t) * S, src_len[b], row.windowed_attention, model, t);
    }
}

}  // namespace lb
