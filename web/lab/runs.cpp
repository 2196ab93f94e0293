// web/lab/runs.cpp — training runs in Web Workers, seen from the page (lab.h): a Run asks the
// worker client (web/worker/client.js, as Module.lookbackRuns) for a run, plays and pauses it,
// and takes what the worker reports; the Lab's pairs and sweep are Runs.
//
// [SECTION] Calls into the worker client, and the exports it calls back
// [SECTION] Run
// [SECTION] Redraws, the rule of which model is read, the pairs and the sweep
#include <emscripten/emscripten.h>
#include <emscripten/eventloop.h>

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "figure.h"
#include "lab.h"
#include "lesson/published.h"
#include "io/safetensors.h"
#include "io/worker_codec.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Calls into the worker client, and the exports it calls back
//-----------------------------------------------------------------------------------------------

namespace {

Lab* connected = nullptr;  // the app's Lab: what the workers report goes there
int next_run_id = 1;

EM_JS(void, js_run_create, (int run, const char* config), {
    Module.lookbackRuns.create(run, JSON.parse(UTF8ToString(config)));
});
// A reader's task's source (io/worker_codec.h's JSON), given once: the client sends it to each
// worker before that worker's first run of the task, not with every run (it may be 2 MiB).
EM_JS(void, js_run_task, (const char* name, const char* source), {
    Module.lookbackRuns.task(UTF8ToString(name), UTF8ToString(source));
});
EM_JS(void, js_run_play, (int run, double stop_at_step), { Module.lookbackRuns.play(run, stop_at_step); });
EM_JS(void, js_run_pause, (int run), { Module.lookbackRuns.pause(run); });
EM_JS(void, js_run_dispose, (int run), { Module.lookbackRuns.dispose(run); });
EM_JS(int, js_worker_count, (), { return Module.lookbackRuns.workers; });

double now_ms() { return emscripten_get_now(); }

}  // namespace

void Stopwatch::start() {
    if (started < 0) started = now_ms();
}
void Stopwatch::stop() {
    if (started >= 0) total += now_ms() - started;
    started = -1;
}
double Stopwatch::ms() const { return total + (started >= 0 ? now_ms() - started : 0); }

//-----------------------------------------------------------------------------------------------
// [SECTION] Run
//-----------------------------------------------------------------------------------------------

Run::Run(const RunSettings& config) : id_(next_run_id++), config_(config) {
    js_run_create(id_, run_settings_to_json(config).dump().c_str());
}

Run::~Run() { js_run_dispose(id_); }

void Run::play(long stop_at_step) {
    if (done() || failed()) return;
    status_ = Status::playing;
    js_run_play(id_, double(stop_at_step));
}

// The run counts as playing until the worker says it has stopped: a slice may be under way.
void Run::pause() {
    if (status_ == Status::playing) js_run_pause(id_);
}

double Run::examples_per_second() const {
    return train_seconds_ > 0 ? double(examples_) / train_seconds_ : NAN;
}

bool Run::take_report(const std::string& text) {
    const WorkerReport r = worker_report_from_json(nlohmann::json::parse(text));
    if (r.first_step != losses_.size()) throw std::runtime_error("a report arrived out of order");
    losses_.insert(losses_.end(), r.losses.begin(), r.losses.end());
    epochs_.insert(epochs_.end(), r.epochs.begin(), r.epochs.end());
    if (r.metrics) metrics_ = r.metrics;
    examples_ = r.examples;
    evaluating_ = r.evaluating;
    fraction_ = r.fraction;
    train_seconds_ = r.train_seconds;
    return !r.epochs.empty();  // its weights come with it (web/worker/engine.js)
}

void Run::take_state(const std::string& state, const std::string& message) {
    if (state == "done") status_ = Status::done;
    else if (state == "paused" && status_ == Status::playing) status_ = Status::paused;
    else if (state == "failed") status_ = Status::failed, message_ = message;
}

void Run::take_weights(const uint8_t* bytes, size_t size) {
    model_ = load_model(bytes, size);
    ++weights_taken_;
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Redraws, the rule of which model is read, the pairs and the sweep
//-----------------------------------------------------------------------------------------------

namespace {
// Progress redraws come four times a second at most (a finished epoch redraws at once):
// workers report twenty times a second each, and under software WebGL a redraw costs the page's
// frame rate and the workers' cores more than the report is worth. Measured on the 2-core
// machine of BENCHMARKS.md while a worker trained: 31.6 frames/s at ten redraws a second, 42.3 at
// four, 58.1 with none; the worker's examples/s 1,793, 1,818 and 2,822.
constexpr double progress_redraw_ms = 250;
}  // namespace

void Redraws::now() {
    for (const auto& redraw : redraws_) redraw();
}

void Redraws::soon() {
    if (pending_) return;
    const double wait = last_ms_ + progress_redraw_ms - now_ms();
    if (wait <= 0) {
        later(this);
    } else {
        pending_ = true;
        emscripten_set_timeout(later, wait, this);
    }
}

void Redraws::later(void* self) {  // the Lab's Redraws live as long as the page
    auto& r = *static_cast<Redraws*>(self);
    r.pending_ = false;
    r.last_ms_ = now_ms();
    r.now();
}

const Run* trained(const std::unique_ptr<Run>& run, const Task& task) {
    return run && run->config().model.task == &task && run->epoch() > 0 && run->model() ? run.get() : nullptr;
}

ModelRead read_model(const std::unique_ptr<Run>& run, const Model* shipped, const Task& task, bool want_run) {
    if (const Run* r = want_run ? trained(run, task) : nullptr) return {r->model(), r, r->weights_taken()};
    return {shipped, nullptr, 0};
}

namespace {

// The settings of a cell of the width sweep (published.h's SweepCell): the lesson's other settings.
RunSettings sweep_cell(size_t i, int epochs) {
    const SweepCell cell = SweepCell::at(i);
    RunSettings s;
    s.model.decoder = cell.kind();
    s.model.H = cell.width();
    s.epochs = epochs;
    return s;
}

// The sweep's cells, largest first: they take longest, so they start first.
std::array<size_t, sweep_cell_count> largest_first() {
    std::array<size_t, sweep_cell_count> order{};
    for (size_t i = 0; i < sweep_cell_count; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [](size_t a, size_t b) {
        return parameter_count(sweep_cell(a, 1).model) > parameter_count(sweep_cell(b, 1).model);
    });
    return order;
}

}  // namespace

Lab::Lab() {
    connected = this;
    when_page_idle([this] { start_loading(); });  // not before the first figure has drawn
}
Lab::~Lab() {
    connected = nullptr;
    if (own_task) remove_task(own_task->task);  // the table outlives the Lab (a test's)
}

Run* Lab::find_run(int id) {
    for (RunPair* pair : {&live, &transformers})
        for (auto& r : pair->runs)
            if (r && r->id() == id) return r.get();
    for (auto& r : sweep)
        if (r && r->id() == id) return r.get();
    return nullptr;
}

void RunPair::play() {
    for (auto& r : runs) r->play();
    clock.start();
}
void RunPair::pause() {
    for (auto& r : runs) r->pause();
    clock.stop();
}
void RunPair::step() {
    for (auto& r : runs) r->play(r->steps() + 1);
    clock.start();
}
bool RunPair::running() const { return (runs[0] && runs[0]->playing()) || (runs[1] && runs[1]->playing()); }
bool RunPair::finished() const {
    const auto over = [](const auto& r) { return r && (r->done() || r->failed()); };
    return over(runs[0]) && over(runs[1]);
}

int Lab::worker_count() const { return js_worker_count(); }

void Lab::build(RunPair& pair, const std::array<RunSettings, 2>& configs) {
    pair.clock = {};
    for (size_t k = 0; k < 2; ++k) pair[k] = std::make_unique<Run>(configs[k]);
    changed();
}

std::unique_ptr<PairsTask> Lab::replace_own_task(PairsTaskSource source) {
    std::unique_ptr<PairsTask> made = replace_pairs_task(source.text, source.options, own_task ? &own_task->task : nullptr);
    std::string message;
    try {
        message = pairs_source_to_json(source).dump();  // the text was read as UTF-8: only memory can fail here
    } catch (...) {
        remove_task(made->task);  // the table as it was
        if (own_task) add_task(own_task->task);
        throw;
    }
    std::unique_ptr<PairsTask> old = std::move(own_task);
    own_task = std::move(made);
    own_task_source = std::move(source);
    own_task_link.reset();
    if (old) forget_task(old->task);
    js_run_task(own_task->task.name.c_str(), message.c_str());
    return old;
}

void Lab::forget_task(const Task& task) {
    const auto of_task = [&task](const std::unique_ptr<Run>& r) { return r && r->config().model.task == &task; };
    for (RunPair* pair : {&live, &transformers}) {
        if (of_task(pair->runs[0]) || of_task(pair->runs[1])) {
            for (auto& r : pair->runs) r.reset();
            pair->clock = {};
        }
    }
    for (auto& r : sweep)
        if (of_task(r)) r.reset();
    tasks_.erase(&task);
    changed();
}

void Lab::run_sweep(int epochs) {
    sweep_epochs_ = epochs;
    sweep_running = true;
    sweep_clock.start();
    schedule_sweep();
    changed();
}

void Lab::pause_sweep() {
    sweep_running = false;
    sweep_clock.stop();
    for (auto& r : sweep)
        if (r) r->pause();
    changed();
}

void Lab::clear_sweep() {
    sweep_running = false;
    sweep_clock = {};
    for (auto& r : sweep) r.reset();
    changed();
}

// As many cells train as there are workers; the next starts when one ends.
void Lab::schedule_sweep() {
    if (!sweep_running) return;
    const int workers = worker_count();
    int playing = 0, left = 0;
    for (const auto& r : sweep) {
        playing += r && r->playing();
        left += !r || !(r->done() || r->failed());
    }
    for (size_t i : largest_first()) {
        if (playing >= workers) break;
        auto& cell = sweep[i];
        if (cell && (cell->playing() || cell->done() || cell->failed())) continue;
        if (!cell)
            cell = std::make_unique<Run>(sweep_cell(i, sweep_epochs_));
        cell->play();
        ++playing;
    }
    if (left == 0) {
        sweep_running = false;
        sweep_clock.stop();
    }
}

void Lab::run_reported(int id, const std::string& json) {
    Run* run = find_run(id);
    if (!run) return;  // a run already let go
    const bool new_epoch = run->take_report(json);
    if (new_epoch) changed();
    else if (live.has(run)) live.progress.soon();
    else if (transformers.has(run)) transformers.progress.soon();
    else sweep_progress.soon();
}

void Lab::run_state(int id, const std::string& state, const std::string& message) {
    Run* run = find_run(id);
    if (!run) return;
    run->take_state(state, message);  // a run's last weights came with its last epoch's report
    for (RunPair* pair : {&live, &transformers})
        if (!pair->running()) pair->clock.stop();
    schedule_sweep();
    changed();
}

void Lab::run_weights(int id, const uint8_t* bytes, size_t size) {
    if (Run* run = find_run(id)) {
        run->take_weights(bytes, size);
        changed();
    }
}

bool Lab::busy() const {
    if (checking_shipped()) return true;
    return live.running() || transformers.running() || sweep_running;
}

}  // namespace lb::web

// What the worker client reports (web/worker/client.js). Nothing may throw into JavaScript: a
// report that cannot be read ends its run with the reason.
extern "C" {

EMSCRIPTEN_KEEPALIVE void lb_run_report(int id, const char* json) {
    using namespace lb::web;
    if (!connected) return;
    try {
        connected->run_reported(id, json);
    } catch (const std::exception& e) {
        connected->run_state(id, "failed", std::string("its report could not be read: ") + e.what());
    }
}

EMSCRIPTEN_KEEPALIVE void lb_run_state(int id, const char* state, const char* message) {
    if (lb::web::connected) lb::web::connected->run_state(id, state, message);
}

EMSCRIPTEN_KEEPALIVE void lb_run_weights(int id, const uint8_t* bytes, int size) {
    using namespace lb::web;
    if (!connected) return;
    try {
        connected->run_weights(id, bytes, size_t(size));
    } catch (const std::exception& e) {
        connected->run_state(id, "failed", std::string("its weights could not be read: ") + e.what());
    }
}

// A file of assets/ has arrived (or failed): assets.cpp's js_fetch_asset.
EMSCRIPTEN_KEEPALIVE void lb_asset_fetched(int tag, const uint8_t* bytes, int size, const char* error) {
    if (lb::web::connected) lb::web::connected->asset_fetched(tag, bytes, size_t(size), error);
}

// The held-out metrics of shipped model k, from a worker (assets.cpp's js_evaluate).
EMSCRIPTEN_KEEPALIVE void lb_shipped_evaluated(int k, const char* json) {
    if (lb::web::connected) lb::web::connected->shipped_evaluated(k, json);
}

// Training fell back to the page's main thread (or cannot run at all): one line, said once.
EMSCRIPTEN_KEEPALIVE void lb_training_note(const char* text) {
    if (!lb::web::connected) return;
    lb::web::connected->training_note = text;
    lb::web::connected->changed();
}

}  // extern "C"
