// web/lab/lab.h — the experiment the page runs (docs/dataset.md): training runs that live in
// Web Workers, the shipped models and the native sweep from assets/, and every result as rows.
// One Lab, owned by the app (web/app.cpp) and handed to the figures that read it.
//
//   runs.cpp      Run and the worker client (web/worker/client.js through Module.lookbackRuns):
//                 the GRU pair, the Transformer pair, the sweep's cells, what the workers report
//   assets.cpp    the shipped weights (labels from their metadata), assets/sweep.json, each task's
//                 attention model and its alignment sweep (assets/alignment-TASK.json)
//   results.cpp   the source's, the native and the page's results as rows, and as CSV
//   analysis.h    everything the map and probe figures show of one string, for one model
//
// The Lab names no figure: a figure's settings live in its own state (web/figures/lesson2.h),
// the Lab takes a run's config, and the figures subscribe their redraws (Redraws).
//
// The page's module never trains: a run here is a view of a run in a worker, filled in by its
// reports (losses, epochs, metrics, progress) and by the weights it sends after every epoch.
//
// Legend: H width; a step is one batch of 64 = one Adam update.
#pragma once
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/dataset.h"
#include "data/metrics.h"
#include "models/model.h"
#include "training/trainer.h"

namespace lb::web {

// A clock that runs while something is running, in milliseconds.
struct Stopwatch {
    double started = -1, total = 0;
    void start();
    void stop();
    double ms() const;
};

// --- who redraws when something changes --------------------------------------------------------
// Each figure that shows what the Lab holds subscribes its own redraw.
class Redraws {
public:
    void subscribe(std::function<void()> redraw) { redraws_.push_back(std::move(redraw)); }
    void now();    // every subscriber, at once
    void soon();   // progress only: at most four a second (runs.cpp says why)
private:
    static void later(void* self);
    std::vector<std::function<void()>> redraws_;
    double last_ms_ = 0;
    bool pending_ = false;
};

// The settings of a run: its model, width, epochs, seed and Adam's learning rate; the date task
// unless the figure sets another.
TrainerConfig trainer_config(DecoderKind kind, Scorer scorer, int width, int epochs, int seed, double learning_rate = 1e-3);

// A run's config as the worker reads it, written by the codec the worker reads it with
// (io/worker_codec.h).
nlohmann::json worker_config(const TrainerConfig& config);

// --- a training run in a worker, as the page knows it ------------------------------------------
class Run {
public:
    Run(const TrainerConfig& config);  // asks the worker client for the run (not started)
    ~Run();                            // and lets it go
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    enum class Status { ready, playing, paused, done, failed };
    void play(long stop_at_step = -1);   // until done, or paused before step stop_at_step
    void pause();

    int id() const { return id_; }
    Status status() const { return status_; }
    bool playing() const { return status_ == Status::playing; }
    bool done() const { return status_ == Status::done; }
    bool failed() const { return status_ == Status::failed; }
    const std::string& message() const { return message_; }   // why it failed
    const TrainerConfig& config() const { return config_; }
    const std::vector<float>& losses() const { return losses_; }       // one per step
    const std::vector<EpochRecord>& epochs() const { return epochs_; }  // finished epochs
    const std::optional<Metrics>& metrics() const { return metrics_; }  // of the last evaluation
    const Model* model() const { return model_ ? &*model_ : nullptr; }  // the weights last sent
    long weights_taken() const { return weights_taken_; }               // how many times they came
    long steps() const { return long(losses_.size()); }
    long examples_seen() const { return examples_; }
    int epoch() const { return int(epochs_.size()); }
    bool evaluating() const { return evaluating_; }
    double fraction_done() const { return fraction_; }
    double seconds_training() const { return train_seconds_; }  // the worker's busy time
    double examples_per_second() const;                         // while busy, in the worker

    // From the worker client (runs.cpp's exports).
    bool take_report(const std::string& json);  // true when an epoch finished
    void take_state(const std::string& state, const std::string& message);
    void take_weights(const uint8_t* bytes, size_t size);

private:
    int id_;
    TrainerConfig config_;
    Status status_ = Status::ready;
    std::string message_;
    std::vector<float> losses_;
    std::vector<EpochRecord> epochs_;
    std::optional<Metrics> metrics_;
    std::optional<Model> model_;
    long weights_taken_ = 0;
    long examples_ = 0;
    bool evaluating_ = false;
    double fraction_ = 0, train_seconds_ = 0;
};

// --- which model a figure reads -----------------------------------------------------------------
// A run of `task` once it has finished an epoch and sent its weights, else null.
const Run* trained(const std::unique_ptr<Run>& run, const Task& task = date_task());
// The one rule: the run trained in the page once it has an epoch of the figure's task (when
// `want_run`), else the shipped model; `model` is null while the shipped one loads. `version`
// tells one set of weights from the next: the run's weights arrive into the same Model after
// every epoch.
struct ModelRead {
    const Model* model = nullptr;
    const Run* run = nullptr;      // the run read, or null: the shipped model
    long version = 0;
};
ModelRead read_model(const std::unique_ptr<Run>& run, const Model* shipped, const Task& task, bool want_run = true);

// --- two runs trained side by side, as one figure shows them ----------------------------------
struct RunPair {
    std::array<std::unique_ptr<Run>, 2> runs;
    Stopwatch clock;               // wall time while the pair trains
    Redraws progress;              // who redraws on a report that finished no epoch
    std::unique_ptr<Run>& operator[](size_t k) { return runs[k]; }
    const std::unique_ptr<Run>& operator[](size_t k) const { return runs[k]; }
    bool built() const { return runs[0] && runs[1]; }
    void play();
    void pause();
    void step();                   // one more batch each, then pause
    bool running() const;
    bool finished() const;         // both done or failed
    bool has(const Run* run) const { return run && (runs[0].get() == run || runs[1].get() == run); }
};

// --- one row of the results --------------------------------------------------------------------
enum class Origin { source, native, page };  // the paper's TensorFlow run, `lookback sweep`, this page
// An origin's names: its key in the figures' state, its label for readers, and the label in a
// narrow table.
struct OriginNames {
    const char* key;     // "source", "native", "page"
    const char* label;   // "source (TensorFlow)", ...
    const char* narrow;  // "TF", ...
};
const OriginNames& origin_names(Origin origin);
constexpr const char* native_sweep_label = "lookback sweep";  // the native rows of assets/sweep.json
struct ResultRow {
    Origin origin;
    std::string label;          // "sweep", "figure 3", "shipped" ...
    ModelConfig model;          // named by model_label: "attention additive", "luong general" ...; its task
    double exact, per_char;     // per_char: per token (a word, for translation)
    long parameters;
    double seconds;             // training time (NaN if unknown)
    double aer = NAN;           // the maps against the task's known alignment (NaN: no map, or not measured)
    double bleu = NAN;          // a task of words only
};
// What sets a row of the date task apart from the lesson's, for a page run's label: the parts of
// its dial that are not the defaults, "formats 0 · order ymd"; "" for the defaults or another task.
inline std::string dial_label(const Task& task) {
    const DateDial* dial = date_dial(task);
    const DateDial lesson;
    std::string label;
    if (dial && dial->formats != lesson.formats) label = "formats " + formats_text(dial->formats);
    if (dial && dial->order != lesson.order) label += (label.empty() ? "" : " \u00b7 ") + std::string("order ") + dial->order;
    return label;
}

// --- maps checked against a task's known alignment ---------------------------------------------
// One map's scores in assets/alignment-TASK.json (`lookback sweep --alignment`): the mean over
// the sweep's seeds. NaN where the file has null (nothing to count).
struct AlignmentSweepRow {
    std::string model;              // the sweep's name: "attention", "bahdanau", ..., "diagonal guess"
    double aer = NAN, peak_hit = NAN, peak_near = NAN, mass = NAN;
};
struct AlignmentSweep {
    std::vector<AlignmentSweepRow> rows;  // the models with a map, in the file's order, then the diagonal guess
    std::vector<ResultRow> results;       // every model's row for the results table, the means over seeds
    int epochs = 0, seeds = 0, held_out = 0;
    std::string note = "loading\u2026";   // why there are no rows, or "" once read
};
// A task's shipped attention model other than the date task's (assets/attention-TASK-64.safetensors).
struct TaskModel {
    std::optional<Model> model;
    std::string info;               // "width 64, 30 epochs, seed 1", from its metadata
    std::string error;              // why it could not be loaded
};

// --- the Lab ---------------------------------------------------------------------------------------
struct Lab {
    Lab();
    ~Lab();

    // The GRU pair trained in the page, [0] plain, [1] an attention design: the lesson's model,
    // Bahdanau's or Luong's (core/models/model.h's rules).
    RunPair live;
    // The Transformer pair, [0] memory first, [1] memory all.
    RunPair transformers;
    // (Re)creates a pair from its runs' configs, not running.
    void build(RunPair& pair, const std::array<TrainerConfig, 2>& configs);

    // The width sweep run in the page: index w * 2 + (attention ? 1 : 0), widths sweep_widths.
    std::array<std::unique_ptr<Run>, 8> sweep;
    bool sweep_running = false;
    Stopwatch sweep_clock;
    Redraws sweep_progress;        // who redraws on a report of a cell that finished no epoch
    void run_sweep(int epochs);    // starts (or resumes) the cells, largest first, a worker each;
                                   // cells not yet made train `epochs` epochs
    void pause_sweep();
    void clear_sweep();

    // How training runs in this browser.
    int worker_count = 1;          // the client's pool: a core for each but the page's
    std::string training_note;     // set when training falls back to the main thread

    // The shipped 64-unit models (assets/*-64.safetensors, trained natively by the build), their
    // held-out metrics (a worker decodes the split), and the native sweep (assets/sweep.json).
    std::array<std::optional<Model>, 2> shipped;
    std::array<std::optional<Metrics>, 2> shipped_metrics;
    std::array<std::string, 2> shipped_info;  // seed, epochs, native exact, from the metadata
    std::array<double, 2> shipped_native_exact = {NAN, NAN};  // what `lookback train` measured
    std::string shipped_error;
    // The shipped 64-wide Transformers (assets/transformer-{first,all}-64.safetensors), [0] first, [1] all.
    std::array<std::optional<Model>, 2> shipped_transformers;
    std::array<std::string, 2> shipped_transformer_info;  // from the metadata, as shipped_info
    std::string shipped_transformer_error;
    std::vector<ResultRow> native_rows;  // assets/sweep.json's, then assets/published.json's means
    std::string native_note;       // "12 epochs, seed 1", or why there is none
    std::string published_note;    // why assets/published.json's rows are missing, or ""

    // The held-out split (data seed 1), built when a figure first asks: the strings a map can
    // show. Training builds its own copy in the worker.
    const std::vector<Example>& held_out();
    const std::vector<Example>& held_out(const Task& task);  // any task's, likewise

    // Each task's shipped attention model (dates: shipped[1]; the others task_models) and what
    // the native alignment sweep measured of every model on it (assets/alignment-TASK.json).
    std::array<TaskModel, 2> task_models;          // reversal, translation
    std::array<AlignmentSweep, 3> alignment_sweeps; // in tasks()' order
    const Model* attention_model(const Task& task) const;  // null while loading or when it failed
    std::string attention_model_note(const Task& task) const;  // its settings, or why it is missing
    const AlignmentSweep& alignment_sweep(const Task& task) const;

    // What the date task's figures read: DecoderKind::plain is the pair's plain run, ::attention
    // its attention run of whichever design, while the pair learns the dates (read_model's rule).
    const Model* current_model(DecoderKind kind, std::string* label = nullptr) const;
    const Metrics* current_metrics(DecoderKind kind, std::string* label = nullptr) const;
    std::vector<ResultRow> results() const;  // source, native, page: every row we have
    static std::string results_csv(const std::vector<ResultRow>& rows);  // the rows a table shows
    bool busy() const;             // a run is training or the shipped models are being checked

    // From the worker client and the asset fetches (runs.cpp, assets.cpp).
    Run* find_run(int id);
    void run_reported(int id, const std::string& json);
    void run_state(int id, const std::string& state, const std::string& message);
    void run_weights(int id, const uint8_t* bytes, size_t size);
    void shipped_evaluated(int k, const std::string& json);
    void asset_fetched(int tag, const uint8_t* bytes, size_t size, const char* error);
    Redraws changes;               // who redraws when results change (an epoch, weights, a state)
    void changed() { changes.now(); }

private:
    void start_loading();          // fetches the shipped weights, sweep.json and published.json
    void schedule_sweep();
    int sweep_epochs_ = 12;        // of the cells run_sweep makes
    std::optional<Splits> data_;
    std::array<std::vector<Example>, 3> task_held_out_;  // in tasks()' order, built when asked
};

}  // namespace lb::web
