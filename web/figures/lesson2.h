// web/figures/lesson2.h — the figures of the lesson's second part, the experiment on the date
// task (docs/dataset.md): their own state (owned by the app, web/app.cpp) and the functions that
// make them FigureSpecs. What they show comes from the Lab (web/lab/lab.h), handed to each.
//
//   training    figures/training.cpp   plain and an attention design trained side by side, in workers
//   sweep       figures/sweep.cpp      widths 8–64 × two models; per-position and length views
//   alignment   figures/alignment.cpp  the attention map of one string; click a row for its bars
//   probes      figures/probes.cpp     occlusion and the gradient path of the same string
//   results     figures/results.cpp    every result in one table, ranked by any column
//   transformer-training  figures/transformer.cpp  a Transformer with memory first and one
//                                       with memory all, trained side by side in workers
//   transformer-maps      figures/transformer.cpp  its cross-attention (mean and per head) and
//                                       its encoder's self-attention for one string
//
// Legend: T output length (10), S input length, H width.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "figure.h"
#include "lab.h"
#include "map_view.h"

namespace lb::web {

// --- the figures -------------------------------------------------------------------------------
// The training and sweep figures' settings are the Lab's; their URL tables bind them.
struct TrainingState {
    explicit TrainingState(Lab& lab);
    UrlTable url{"tr."};
};
FigureSpec training_figure(Lab& lab, TrainingState& state);
struct SweepState {
    explicit SweepState(Lab& lab);
    UrlTable url{"sw."};
};
FigureSpec sweep_figure(Lab& lab, SweepState& state);

// The string the alignment and probe figures look at.
struct AlignmentState {
    AlignmentState();
    int example = -1;               // held-out index shown, or -1 for a typed string
    TypedDate typed;                // the string shown when example < 0 (the URL's al.date)
    std::string shown_input;        // the string whose map is shown
    std::string shown_target;       // its right answer ("" when unknown: a typed string)
    bool use_live = false;          // the models trained in the page instead of the shipped
    int selected_output = 0;        // the output row whose bars are shown
    int masked = -1;                // probes: the input position masked (occlusion), or -1
    // Computed for shown_input (refresh_alignment).
    std::string model_label;        // which attention model made the map
    bool two_way = false;           // its encoder reads both ways (Bahdanau's annotations)
    std::string output;             // the attention model's output
    std::vector<float> weights;     // [T, S] its attention weights
    std::string masked_output;      // its output with position `masked` blanked
    std::vector<float> importance;  // [T, S] 1 where blanking input j changes output t
    std::string gradient_target;    // the target the gradient path's loss is taken against
    std::array<std::vector<float>, 2> grad_norms;  // [S] ‖∂loss/∂h_j‖: plain, attention
    std::array<std::vector<float>, 2> direct_norms; // [S] the part that reaches h_j directly
    std::string gradient_note;      // why there is no gradient path ("" = there is one)
    std::string computed_for;       // what the above were computed for
    int computed_mask = -2;
    bool url_applied = false;       // the URL's example or date was shown once
    UrlTable url{"al."};
};
// Recomputes the state's maps when the string, the models or the mask changed.
void refresh_alignment(Lab& lab, AlignmentState& state);
FigureSpec alignment_figure(Lab& lab, AlignmentState& state);
FigureSpec probes_figure(Lab& lab, AlignmentState& state);

struct ResultsState {
    // The table's columns, in order (figures/results.cpp's `columns` describes each).
    enum Column { origin, run, model, width, exact, per_char, parameters, seconds, column_count };
    ResultsState();
    int sort_column = exact;
    bool descending = true;
    std::vector<ResultRow> rows;    // in the shown order
    UrlTable url{"rs."};
};
FigureSpec results_figure(Lab& lab, ResultsState& state);

// The Transformer section: the training pair's settings are the Lab's (tf.*); the maps' own (tm.*).
struct TransformerTrainingState {
    explicit TransformerTrainingState(Lab& lab);
    UrlTable url{"tf."};
};
FigureSpec transformer_training_figure(Lab& lab, TransformerTrainingState& state);

struct TransformerMapsState {
    TransformerMapsState();
    TypedDate typed;                // the string shown (the URL's tm.date)
    bool memory_all = true;         // which Transformer: memory all or first
    bool use_live = false;          // the one trained in the page instead of the shipped
    int head = 0;                   // 0: the mean over heads; h: head h (1-based)
    int selected_output = 0;        // the cross-attention row whose bars are shown
    int selected_input = 0;         // the self-attention row whose bars are shown
    // Computed for `date` (refresh in figures/transformer.cpp).
    std::string model_label;        // which model made the maps
    std::string output;             // its output
    int heads = 0;                  // A
    std::vector<float> cross_mean;  // [T, S] the cross-attention, mean over heads (core's)
    std::vector<float> cross_heads; // [A, T, S] each head's
    std::vector<float> self_mean;   // [S, S] the encoder's self-attention, mean over heads
    std::vector<float> self_heads;  // [A, S, S] each head's
    std::string computed_for;       // what the above were computed for
    UrlTable url{"tm."};
};
FigureSpec transformer_maps_figure(Lab& lab, TransformerMapsState& state);

// The part-2 figures' own state, owned by the app (web/app.cpp) beside the Lab.
struct Lesson2 {
    explicit Lesson2(Lab& lab) : training(lab), sweep(lab), transformer_training(lab) {}
    TrainingState training;
    SweepState sweep;
    AlignmentState alignment;
    ResultsState results;
    TransformerTrainingState transformer_training;
    TransformerMapsState transformer_maps;
};

}  // namespace lb::web
