// core/lesson/published.h — the lesson's experiment as the source ran it: the widths
// of its sweep and its published measurements, quoted as published (TensorFlow,
// 12 epochs, 6,000 training and 1,200 held-out strings). One home: the CLI's
// sweep tables, the page's results and the tests all read these, so a figure
// is typed once.
#pragma once
#include <array>

#include "data/metrics.h"
#include "models/model.h"

namespace lb {

// The sweep: every width × {plain, additive attention}, 12 epochs each.
constexpr std::array<int, 4> sweep_widths = {8, 16, 32, 64};
constexpr int sweep_width_count = int(sweep_widths.size());
constexpr int sweep_epochs = 12;
static_assert(sweep_widths.back() == 64, "the source's per-position, cost and bucket figures are at width 64");

// The lesson's pair, each kind at its slot (models/registry.h's pair_slot): the plain model and the
// lesson's attention model.
constexpr std::array<DecoderKind, pair_slots> lesson_pair = {DecoderKind::plain, DecoderKind::attention};

// The width sweep's cells, one for each width and slot of the pair. Cell w * pair_slots + slot is
// this one way of making and reading a cell's index.
constexpr size_t sweep_cell_count = sweep_widths.size() * pair_slots;
struct SweepCell {
    size_t width_index;  // into sweep_widths
    size_t slot;         // of the lesson's pair
    constexpr int width() const { return sweep_widths[width_index]; }
    constexpr DecoderKind kind() const { return lesson_pair[slot]; }
    constexpr size_t index() const { return width_index * pair_slots + slot; }
    static constexpr SweepCell at(size_t index) { return {index / pair_slots, index % pair_slots}; }
};

struct SourceModelFigures {
    std::array<double, sweep_width_count> exact;     // held-out exact match, at sweep_widths
    std::array<double, sweep_width_count> per_char;  // held-out per-character accuracy
    std::array<double, output_length> per_position_64;  // width 64, positions y y y y - m m - d d
    long parameters_64;                              // width 64
    double seconds_64;                               // wall clock of 12 epochs at width 64
};

struct SourceFigures {
    SourceModelFigures plain, attention;
    std::array<double, length_bucket_count> plain_length_buckets_64;  // per-char, shortest first
    const SourceModelFigures& of(DecoderKind kind) const {
        return pair_slot(kind) == plain_slot ? plain : attention;
    }
};

inline constexpr SourceFigures source_figures = {
    .plain = {.exact = {0.0000, 0.0000, 0.0008, 0.0017},
              .per_char = {0.1432, 0.5524, 0.6467, 0.7277},
              .per_position_64 = {1.0, 1.0, 1.0, 0.9625, 1.0, 0.7467, 0.1108, 1.0, 0.3658, 0.0908},
              .parameters_64 = 36893,
              .seconds_64 = 43.6},
    .attention = {.exact = {0.0000, 0.0133, 0.9042, 1.0000},
                  .per_char = {0.4995, 0.7450, 0.9871, 1.0000},
                  .per_position_64 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                  .parameters_64 = 57437,
                  .seconds_64 = 83.5},
    .plain_length_buckets_64 = {0.7300, 0.7211, 0.7386, 0.7086},
};

// The second source's experiment: a one-layer Transformer
// (d_model 128, 8 heads) on Multi30k German→English, 10 epochs, test BLEU —
// its decoder reading all S encoder states, or the first one only; beside it
// an LSTM encoder–decoder without attention. `lookback sweep --transformer`
// puts these beside our date-task table.
struct SourceTransformerFigures {
    double bleu_all, bleu_first, bleu_lstm_without_attention;
    int d_model, heads, epochs;
};
inline constexpr SourceTransformerFigures source_transformer_figures = {
    .bleu_all = 0.320, .bleu_first = 0.190, .bleu_lstm_without_attention = 0.152,
    .d_model = 128, .heads = 8, .epochs = 10};

}  // namespace lb
