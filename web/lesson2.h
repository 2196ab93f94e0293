// web/lesson2.h — the lesson's second part, the experiment (lesson-brief §4–5), run in the page:
// its shared state (the Lab, owned by the app in web/main.cpp) and its figures.
//
//   training    web/fig_training.cpp   plain and attention trained side by side, live
//   sweep       web/fig_sweep.cpp      widths 8–64 × two models; per-position and length views
//   alignment   web/fig_alignment.cpp  the attention map of one string; click a row for its bars
//   probes      web/fig_probes.cpp     occlusion and the gradient path of the same string
//   results     web/fig_results.cpp    every result in one table, ranked by any column
//
// Training never blocks a frame: lb::Trainer trains a batch of 64 in chunks of rows whose
// gradients add up to the batch's own (Trainer::work), and the Lab spends a measured time
// budget per animation frame on whichever runs are active (web/lesson2_lab.cpp). The Lab keeps
// its own requestAnimationFrame loop rather than a figure's `work` hook, because a hook redraws
// its figure on every frame: under software WebGL each redraw of a canvas costs the GPU process
// more than the training does, so the Lab redraws the moving figures ten times a second and
// the page keeps its frame rate.
//
// Legend: B batch rows (64), S source length, T output length (10), H width.
#pragma once
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dataset.h"
#include "figure.h"
#include "metrics.h"
#include "model.h"
#include "trainer.h"

namespace lb::web {

// --- a training run, in slices that fit a frame ----------------------------------------------
// lb::Trainer does the work (Trainer::work: part of a batch, or part of the held-out evaluation);
// a SlicedRun only decides how many rows fit in a frame's time budget, from the measured cost of
// a training row and of a decoded row. The accessors are the Trainer's, as the figures read them.
class SlicedRun {
public:
    SlicedRun(const TrainerConfig& config, const DateSplits& data) : trainer_(config, data) {}
    // Trains or evaluates chunk after chunk until the clock (ms, emscripten_get_now) would pass
    // `deadline`; at least one chunk if `at_least_one`. Stops early at `stop_at_step` (a step is
    // one batch; -1 = no limit). Returns the milliseconds spent.
    double work_until(double deadline, bool at_least_one, long stop_at_step = -1);
    bool done() const { return trainer_.done(); }

    const Trainer& trainer() const { return trainer_; }
    const TrainerConfig& config() const { return trainer_.config(); }
    const Model& model() const { return trainer_.model(); }
    const std::vector<float>& losses() const { return trainer_.loss_history(); }       // one per step
    const std::vector<EpochRecord>& epochs() const { return trainer_.epoch_history(); }  // finished epochs
    const std::optional<Metrics>& metrics() const { return trainer_.metrics(); }  // of the last evaluation
    long steps() const { return long(losses().size()); }
    long examples_seen() const { return trainer_.examples_seen(); }
    int epoch() const { return trainer_.epoch(); }       // finished epochs
    bool evaluating() const { return trainer_.phase() == Trainer::Phase::evaluating; }
    double fraction_done() const { return trainer_.fraction_done(); }  // 0..1
    double seconds_training() const { return train_ms_ / 1000; }  // busy time, not wall time
    double examples_per_second() const;                  // while busy

private:
    Trainer trainer_;
    double train_ms_ = 0, ms_per_train_row_ = 0, ms_per_eval_row_ = 0;  // measured
};

// --- evaluating a given model (the shipped ones) on the held-out split, over frames ----------
struct SlicedEval {
    explicit SlicedEval(const std::vector<Example>& examples) : held_out(examples) {}
    const Model* model = nullptr;
    SplitEvaluator held_out;  // its metrics() once every string is decoded
    double ms_per_row = 0;
};

// --- one row of the results ------------------------------------------------------------------
enum class Origin { source, native, page };  // the paper's TensorFlow run, `lookback sweep`, this page
const char* origin_name(Origin origin);
struct ResultRow {
    Origin origin;
    std::string label;          // "sweep", "figure 3", "shipped" ...
    DecoderKind model;
    int width;
    double exact, per_char;
    long parameters;
    double seconds;             // training time (NaN if unknown)
};

constexpr std::array<int, 4> sweep_widths = {8, 16, 32, 64};

// --- the Lab: data, shipped models, runs, and the frame budget ---------------------------------
struct Lab {
    DateSplits data = make_date_splits(1);

    // Settings of the training figure (and the URL's tr.*).
    int width = 64;
    Scorer scorer = Scorer::additive;
    int seed = 1;
    int epochs = 12;
    // The training figure's pair: [0] plain, [1] attention. Null until first built.
    std::array<std::unique_ptr<SlicedRun>, 2> live;
    bool live_running = false;
    std::array<long, 2> live_stop_at_step = {-1, -1};  // Step: each run's last step, then pause
    double live_wall_ms = 0;       // wall clock while running (frame intervals), for rates

    // The width sweep run in the page: index w * 2 + (attention ? 1 : 0).
    int sweep_epochs = 12;
    std::array<std::unique_ptr<SlicedRun>, 8> sweep;
    bool sweep_running = false;
    int sweep_current = -1;        // the run being trained, or -1
    double sweep_wall_ms = 0;

    // The shipped 64-unit models (assets/*-64.safetensors, trained natively by the build).
    std::array<std::optional<Model>, 2> shipped;
    std::array<SlicedEval, 2> shipped_eval{SlicedEval(data.held_out), SlicedEval(data.held_out)};
    std::array<std::string, 2> shipped_info;  // seed, epochs, native exact, from the metadata
    std::array<double, 2> shipped_native_exact = {NAN, NAN};  // what `lookback train` measured
    std::string shipped_error;
    int shipped_pending = 2;       // files still being fetched
    // The native sweep (assets/sweep.json): rows with origin native; empty if not shipped.
    std::vector<ResultRow> native_rows;
    std::string native_note;       // "12 epochs, seed 1", or why there is none

    // Frame budget: milliseconds of training per animation frame, adapted to keep frames short.
    double budget_ms = 10;
    double last_work_start = 0;
    double last_progress_redraw = 0;
    bool frame_requested = false;
    double frame_ms_average = 16.7;  // interval between work calls while busy
    double work_ms_average = 0;
    long busy_frames = 0;

    // What the other figures read.
    int version = 0;               // bumped whenever a result or a model changes
    void bump();

    void build_live();             // (re)creates the pair from the settings, not running
    void build_sweep();            // clears the page's sweep
    const Model* current_model(DecoderKind kind, std::string* label = nullptr) const;
    const Metrics* current_metrics(DecoderKind kind, std::string* label = nullptr) const;
    std::vector<ResultRow> results() const;  // source, native, page: every row we have
    std::string results_csv() const;

    bool work();                   // one frame's work; true while there is more
    void wake();                   // runs work() on the next animation frame (once)
    void start_loading();          // fetches the shipped weights and sweep.json (once)
    bool busy() const;
};

Lab& lab();  // the one Lab of the page (defined in web/lesson2_lab.cpp)

// --- the figures -------------------------------------------------------------------------------
FigureSpec training_figure(Lab& lab);
FigureSpec sweep_figure(Lab& lab);

// The string the alignment and probe figures look at.
struct AlignmentState {
    int example = -1;               // held-out index shown, or -1 for a typed string
    char typed[64] = "";            // the text field
    std::string shown_input;        // the string whose map is shown
    std::string shown_target;       // its right answer ("" when unknown: a typed string)
    std::string message;            // why a typed string was refused ("" = fine)
    bool use_live = false;          // the models trained in the page instead of the shipped
    int selected_output = 0;        // the output row whose bars are shown
    int masked = -1;                // probes: the input position masked (occlusion), or -1
    // Computed for shown_input (refresh_alignment).
    std::string model_label;        // which attention model made the map
    std::string output;             // the attention model's output
    std::vector<float> weights;     // [T, S] its attention weights
    std::string masked_output;      // its output with position `masked` blanked
    std::vector<float> importance;  // [T, S] 1 where blanking input j changes output t
    std::string gradient_target;    // the target the gradient path's loss is taken against
    std::array<std::vector<float>, 2> grad_norms;  // [S] ‖∂loss/∂h_j‖: plain, attention
    std::array<std::vector<float>, 2> direct_norms; // [S] the part that reaches h_j directly
    int computed_version = -1;      // lab.version the above were computed for
    std::string computed_for;
    bool computed_live = false;
    int computed_mask = -2;
    std::string url_written;
};
// Recomputes the state's maps when the string, the models or the mask changed.
void refresh_alignment(Lab& lab, AlignmentState& state);
FigureSpec alignment_figure(Lab& lab, AlignmentState& state);
FigureSpec probes_figure(Lab& lab, AlignmentState& state);

struct ResultsState {
    int sort_column = 4;            // see fig_results.cpp's columns (4: exact)
    bool descending = true;
    std::vector<ResultRow> rows;    // in the shown order
};
FigureSpec results_figure(Lab& lab, ResultsState& state);

// The part-2 figures' own state, owned by the app (web/main.cpp); the Lab is lab().
struct Lesson2 {
    AlignmentState alignment;
    ResultsState results;
};
// Every figure of part 2, for register_figure (web/lesson2_lab.cpp).
std::vector<FigureSpec> lesson2_figures(Lesson2& state);

// --- shared helpers (web/lesson2_lab.cpp) ---------------------------------------------------
void download_bytes(const std::string& file, const std::string& mime, const void* data, size_t size);
std::string fixed(double value, int digits);   // "–" for NaN
std::string minutes_seconds(double seconds);   // "1:05"

}  // namespace lb::web
