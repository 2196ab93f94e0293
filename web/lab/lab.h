// web/lab/lab.h — the experiment the page runs (docs/dataset.md): training runs that live in
// Web Workers, the shipped models and the native sweep from assets/, and every result as rows.
// One Lab, owned by the app (web/app.cpp) and handed to the figures that read it.
//
//   runs.cpp      Run and the worker client (web/worker/client.js through Module.lookbackRuns):
//                 the GRU pair, the Transformer pair, the sweep's cells, what the workers report
//   assets.cpp    what the build shipped (assets/shipped.json: the trained models, each task's
//                 alignment sweep), assets/sweep.json and published.json; each task's record
//   results.cpp   the source's, the native and the page's results as rows, and as CSV
//   analysis.h    everything the map and probe figures show of one string, for one model, kept
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
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "data/dataset.h"
#include "data/metrics.h"
#include "data/pairs.h"
#include "io/worker_codec.h"
#include "lesson/published.h"
#include "models/model.h"
#include "analysis.h"
#include "settings/run_settings.h"

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

// --- a training run in a worker, as the page knows it ------------------------------------------
class Run {
public:
    explicit Run(const RunSettings& config);  // asks the worker client for the run (not started)
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
    const RunSettings& config() const { return config_; }
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
    RunSettings config_;
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
// `want_run`), else the shipped model; `model` is null while the shipped one loads (ModelRead:
// analysis.h).
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

// --- what the build shipped ------------------------------------------------------------------------
// A model the build trained (CMake's shipped models), as assets/shipped.json lists it (the site
// build writes the list from the files' own metadata) and the page loads it.
struct ShippedModel {
    std::string file;               // "assets/attention-64.safetensors"
    ModelConfig config;             // what the list says it holds: its task, kind, memory, ...
    std::optional<Model> model;     // once loaded and found to be that
    std::string info;               // "width 64, 12 epochs, seed 1; natively: exact 1.0000" (its metadata)
    std::string error;              // why it could not be loaded, or its check failed
    double native_exact = NAN;      // the held-out exact match `lookback train` measured
    bool checked = false;           // a worker decodes the held-out split with it (the lesson's pair)
    std::optional<Metrics> metrics; // what that decoding measured
    bool checking() const { return checked && model && !metrics && error.empty(); }  // that decoding is under way
};
// "attention model", "Transformer (all states)", "attention model for reversal": for messages.
std::string shipped_label(const ModelConfig& config);

// What the Lab holds of one task, made when first asked: any task of the table, one added at
// run time too.
struct TaskRecord {
    std::vector<Example> held_out;          // data seed 1, drawn when first asked
    std::optional<AlignmentSweep> alignment;  // assets/alignment-TASK.json once read (or refused)
};

// A file of the site as it arrived: its bytes, or why it did not (bytes empty then).
using AssetArrived = std::function<void(const uint8_t* bytes, size_t size, const char* error)>;

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
    void build(RunPair& pair, const std::array<RunSettings, 2>& configs);

    // The width sweep run in the page, a run for each cell (lesson/published.h's SweepCell).
    std::array<std::unique_ptr<Run>, sweep_cell_count> sweep;
    bool sweep_running = false;
    Stopwatch sweep_clock;
    Redraws sweep_progress;        // who redraws on a report of a cell that finished no epoch
    void run_sweep(int epochs);    // starts (or resumes) the cells, largest first, a worker each;
                                   // cells not yet made train `epochs` epochs
    void pause_sweep();
    void clear_sweep();

    // How training runs in this browser.
    // The client's pool (web/worker/client.js), asked each time: it grows once the client has
    // counted the cores.
    int worker_count() const;
    std::string training_note;     // set when training falls back to the main thread

    // What the build shipped, in assets/shipped.json's order (a deque: the figures keep pointers
    // to what it holds); `shipped_list_note` says why the list is missing, "" once it is read.
    std::deque<ShippedModel> shipped;
    std::string shipped_list_note = "loading\u2026";
    // The shipped model of `task` of this kind (a Transformer's of this memory), listed or not
    // (null); its model, while it loads or once it failed null too.
    const ShippedModel* find_shipped(const Task& task, DecoderKind kind, Memory memory = Memory::all) const;
    const Model* shipped_model(const Task& task, DecoderKind kind, Memory memory = Memory::all) const;
    // Its info once loaded, why it is missing, or "" while it loads.
    std::string shipped_note(const Task& task, DecoderKind kind, Memory memory = Memory::all) const;
    // Why the shipped models of `task` of these kinds (a Transformer: both memories) are not there
    // to read: each one's error, or that none was shipped; "" while they load.
    std::string shipped_errors(const Task& task, std::initializer_list<DecoderKind> kinds) const;
    bool checking_shipped() const; // a worker is decoding the held-out split with a shipped model
    bool shipped_listed() const { return listed_; }  // assets/shipped.json was read, or refused
    // The native sweep (assets/sweep.json), then the published designs' means (published.json).
    std::vector<ResultRow> native_rows;
    std::string native_note;       // "12 epochs, seed 1", or why there is none
    std::string published_note;    // why assets/published.json's rows are missing, or ""

    // A task's held-out split (data seed 1), built when a figure first asks: the strings a map
    // can show. Training builds its own copy in the worker.
    const std::vector<Example>& held_out(const Task& task = date_task());
    // Whether that split comes with a known alignment (a reader's pairs may give none).
    bool knows_alignment(const Task& task);
    // A task's shipped attention model (the checked figure's), and what the native alignment
    // sweep measured of every model on it (assets/alignment-TASK.json).
    const Model* attention_model(const Task& task) const;  // null while loading or when missing
    std::string attention_model_note(const Task& task) const;  // its settings, or why it is missing
    const AlignmentSweep& alignment_sweep(const Task& task) const;

    // The reader's own task (docs/own-pairs.md), in the table while held here, and what makes the
    // same one: the workers are given it (as io/worker_codec.h's JSON), the page exports it as a
    // file or a link (io/task_file.h). The figures put a new one in place (figures/own_pairs.cpp's
    // use_own_pairs); null while there is none.
    std::unique_ptr<PairsTask> own_task;
    PairsTaskSource own_task_source;
    // Its link's value once made (nothing until then; "" when too long for a link): compressed once.
    std::optional<std::string> own_task_link;
    // Makes the reader's task again from `source` (replace_pairs_task: in the table in the old
    // one's place, or a refusal that changes nothing): the old one's runs and record go
    // (forget_task), and the worker client is given the source once, to send each worker before
    // its first run of the task rather than with every run. Returns the old task, for the caller
    // to free once no figure points at it.
    std::unique_ptr<PairsTask> replace_own_task(PairsTaskSource source);
    // Lets go of everything the Lab holds of `task` before it leaves the table: the runs of any
    // pair or sweep cell trained on it (a pair loses both runs: it is rebuilt by its figure) and
    // its record (held-out split, sweep). Nothing that reads the task is left.
    void forget_task(const Task& task);

    // The figures' analyses of the strings they show, kept (analysis.h).
    Analyses analyses;
    // The reader asked for BLEU on a task of words that is not the translation (the training
    // figure's tr.bleu; data/metrics.h's reports_bleu): the page's rows then carry it.
    bool bleu_asked = false;

    // The weights the results figure saves for a side of the pair (the kind's pair_slot): its run,
    // on whichever task the training figure chose, once it has an epoch, else the shipped model
    // of that task and kind; null when there is neither (read_model's rule).
    const Model* saved_model(DecoderKind kind, std::string* label = nullptr) const;
    // What the date task's figures read of a side of the pair: the run's held-out scores while
    // the pair learns the dates, else the shipped model's.
    const Metrics* current_metrics(DecoderKind kind, std::string* label = nullptr) const;
    std::vector<ResultRow> results() const;  // source, native, page: every row we have
    static std::string results_csv(const std::vector<ResultRow>& rows);  // the rows a table shows
    bool busy() const;             // a run is training or the shipped models are being checked

    // From the worker client and the asset fetches (runs.cpp, assets.cpp).
    Run* find_run(int id);
    void run_reported(int id, const std::string& json);
    void run_state(int id, const std::string& state, const std::string& message);
    void run_weights(int id, const uint8_t* bytes, size_t size);
    void shipped_evaluated(int k, const std::string& json);   // k: the model's place in `shipped`
    void asset_fetched(int request, const uint8_t* bytes, size_t size, const char* error);
    // Reads assets/shipped.json and what it lists, sweep.json and published.json (once the page
    // is idle). Each file is asked of `read_asset` if set (a test's own files), else fetched.
    void start_loading();
    std::function<void(const std::string& path, AssetArrived done)> read_asset;
    Redraws changes;               // who redraws when results change (an epoch, weights, a state)
    void changed() { changes.now(); }

private:
    void schedule_sweep();
    int sweep_epochs_ = 12;        // of the cells run_sweep makes
    void read(const std::string& path, AssetArrived done);
    void take_shipped_list(const uint8_t* bytes, size_t size);
    void take_shipped(ShippedModel& m, const uint8_t* bytes, size_t size);
    std::map<int, AssetArrived> fetching_;  // by the request's id, until it arrives
    int next_request_ = 1;
    bool listed_ = false;          // assets/shipped.json was read, or refused
    std::map<const Task*, TaskRecord> tasks_;
};

}  // namespace lb::web
