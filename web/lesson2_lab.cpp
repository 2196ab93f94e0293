// web/lesson2_lab.cpp — the experiment's engine in the page (web/lesson2.h): lb::Trainer's work
// sliced to fit frames, the frame budget, the shipped models and the native sweep fetched from
// assets/, the results as rows and CSV, and the small page helpers (URL, downloads).
//
// [SECTION] Small helpers
// [SECTION] SlicedRun: a training run in frame-sized slices
// [SECTION] The Lab: runs, shipped models, the frame budget
// [SECTION] Loading assets/ (fetch, from the page's own origin)
// [SECTION] Results as rows and CSV
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "lesson2.h"
#include "safetensors.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Small helpers
//-----------------------------------------------------------------------------------------------

namespace {

// A file the reader saves: bytes from the module's memory, as a Blob (nothing leaves the page).
EM_JS(void, lesson2_download, (const char* file, const char* mime, const void* data, int size), {
    const bytes = HEAPU8.slice(data, data + size);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([bytes], {type: UTF8ToString(mime)}));
    link.download = UTF8ToString(file);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
});
// Fetches a file of the site; calls lb2_fetched(tag, bytes, size, error) when it arrives.
EM_JS(void, lesson2_fetch, (const char* path, int tag), {
    const done = (bytes, error) => {
        const data = bytes ? _malloc(Math.max(1, bytes.length)) : 0;
        if (bytes) HEAPU8.set(bytes, data);
        let message = 0;
        if (error) {
            const size = lengthBytesUTF8(error) + 1;
            message = _malloc(size);
            stringToUTF8(error, message, size);
        }
        _lb2_fetched(tag, data, bytes ? bytes.length : 0, message);
        if (data) _free(data);
        if (message) _free(message);
    };
    const url = UTF8ToString(path);
    fetch(url)
        .then((response) => {
            if (!response.ok) throw new Error(url + " answered HTTP " + response.status);
            return response.arrayBuffer();
        })
        .then((buffer) => done(new Uint8Array(buffer), null), (error) => done(null, String(error.message || error)));
});

double now_ms() { return emscripten_get_now(); }

}  // namespace

void download_bytes(const std::string& file, const std::string& mime, const void* data, size_t size) {
    lesson2_download(file.c_str(), mime.c_str(), data, int(size));
}

std::string fixed(double value, int digits) {
    if (std::isnan(value)) return "\u2013";
    char text[40];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}
std::string minutes_seconds(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "\u2013";
    const long s = std::lround(seconds);
    char text[32];
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

const char* origin_name(Origin origin) {
    switch (origin) {
        case Origin::source: return "source (TensorFlow)";
        case Origin::native: return "lookback sweep (native)";
        case Origin::page: return "this page";
    }
    return "?";
}

//-----------------------------------------------------------------------------------------------
// [SECTION] SlicedRun: a training run in frame-sized slices
//-----------------------------------------------------------------------------------------------

namespace {

// Rows that fit in `left_ms` at the measured cost, or 0 if not even `least` fit. An unmeasured
// cost (0) gives a small probe chunk.
int rows_that_fit(double left_ms, double ms_per_row, int least, int most) {
    if (most <= 0) return 0;
    least = std::min(least, most);
    if (ms_per_row <= 0) return least;
    const int fit = int(left_ms / (1.25 * ms_per_row));  // a margin: the last chunk must not overrun
    return fit < least ? 0 : std::min(fit, most);
}

void measure(double& ms_per_row, double ms, int rows) {
    const double sample = ms / std::max(rows, 1);
    ms_per_row = ms_per_row <= 0 ? sample : 0.7 * ms_per_row + 0.3 * sample;
}

constexpr int least_train_rows = 4;   // smaller chunks waste more than they save
constexpr double min_budget_ms = 6, max_budget_ms = 14;
constexpr int least_eval_rows = 8;

}  // namespace

double SlicedRun::examples_per_second() const {
    return train_ms_ > 0 ? double(trainer_.examples_seen()) / (train_ms_ / 1000) : NAN;
}

double SlicedRun::work_until(double deadline, bool at_least_one, long stop_at_step) {
    const double start = now_ms();
    bool first = true;
    while (!done()) {
        const bool training = !evaluating();
        if (stop_at_step >= 0 && training && trainer_.rows_into_batch() == 0 && steps() >= stop_at_step) break;
        double& ms_per_row = training ? ms_per_train_row_ : ms_per_eval_row_;
        const int least = training ? least_train_rows : least_eval_rows;
        const int remaining = training ? trainer_.rows_left() : std::min(trainer_.rows_left(), 256);
        int rows = rows_that_fit(deadline - now_ms(), ms_per_row, least, remaining);
        if (rows == 0 && first && at_least_one) rows = std::min(least, remaining);
        if (rows == 0) break;
        const double t0 = now_ms();
        trainer_.work(rows);
        const double ms = now_ms() - t0;
        measure(ms_per_row, ms, rows);
        if (training) train_ms_ += ms;
        first = false;
    }
    return now_ms() - start;
}

//-----------------------------------------------------------------------------------------------
// [SECTION] The Lab: runs, shipped models, the frame budget
//-----------------------------------------------------------------------------------------------

namespace {
const char* const dependent_figures[] = {"training", "sweep", "alignment", "probes", "results"};
}  // namespace

Lab& lab() {
    static Lab instance;
    return instance;
}

std::vector<FigureSpec> lesson2_figures(Lesson2& state) {
    Lab& l = lab();
    return {training_figure(l), sweep_figure(l), alignment_figure(l, state.alignment), probes_figure(l, state.alignment),
            results_figure(l, state.results)};
}

void Lab::bump() {
    ++version;
    for (const char* name : dependent_figures) request_redraw(name);
}

namespace {
EM_BOOL lab_frame(double, void*) {
    Lab& l = lab();
    l.frame_requested = false;
    if (l.work()) l.wake();
    return EM_FALSE;
}
}  // namespace

void Lab::wake() {
    if (frame_requested) return;
    frame_requested = true;
    emscripten_request_animation_frame(lab_frame, nullptr);
}

static TrainerConfig trainer_config(DecoderKind kind, Scorer scorer, int width, int epochs, int seed) {
    TrainerConfig c;
    c.model.decoder = kind;
    c.model.scorer = scorer;
    c.model.H = width;
    c.epochs = epochs;
    c.seed = uint64_t(seed);
    return c;
}

void Lab::build_live() {
    live_running = false;
    live_stop_at_step = {-1, -1};
    live_wall_ms = 0;
    for (int k = 0; k < 2; ++k)
        live[k] = std::make_unique<SlicedRun>(
            trainer_config(k ? DecoderKind::attention : DecoderKind::plain, scorer, width, epochs, seed), data);
    bump();
}

void Lab::build_sweep() {
    sweep_running = false;
    sweep_current = -1;
    for (auto& run : sweep) run.reset();
    bump();
}

bool Lab::busy() const {
    for (const SlicedEval& e : shipped_eval)
        if (e.model && !e.held_out.done()) return true;
    return live_running || sweep_running;
}

// One frame's work: the shipped models' evaluation first (the page's figures need it), then
// the training figure's pair and the sweep, whichever is further behind.
bool Lab::work() {
    const double start = now_ms();
    if (!busy()) {
        last_work_start = 0;
        return false;
    }
    // Adapt the budget to the frame interval. Frames slower than 30 per second take budget away,
    // frames near the display's 60 give some back. The floor keeps training moving when frames
    // are slow for another reason (a busy GPU process: then less work would not help).
    if (last_work_start > 0) {
        const double interval = start - last_work_start;
        if (interval < 250) {
            if (live_running) live_wall_ms += interval;
            if (sweep_running) sweep_wall_ms += interval;
            frame_ms_average = 0.9 * frame_ms_average + 0.1 * interval;
            if (interval > 34) budget_ms = std::max(min_budget_ms, budget_ms - 1.0);
            else if (interval < 20) budget_ms = std::min(max_budget_ms, budget_ms + 0.25);
        }
    }
    last_work_start = start;
    const double deadline = start + budget_ms;
    bool changed = false;

    bool worked = false;  // at least one chunk per frame, whatever the estimate says
    for (SlicedEval& e : shipped_eval) {
        if (!e.model || e.held_out.done()) continue;
        while (now_ms() < deadline || !worked) {
            const int remaining = e.held_out.rows_total() - e.held_out.rows_done();
            int rows = rows_that_fit(deadline - now_ms(), e.ms_per_row, least_eval_rows, std::min(remaining, 256));
            if (rows == 0 && !worked) rows = std::min(least_eval_rows, remaining);
            if (rows == 0) break;
            worked = true;
            const double t0 = now_ms();
            e.held_out.work(*e.model, rows);
            measure(e.ms_per_row, now_ms() - t0, rows);
            if (e.held_out.done()) {
                changed = true;
                break;
            }
        }
        if (now_ms() >= deadline) break;
    }

    // The active runs; the one furthest behind gets the rest of this frame.
    SlicedRun* next = nullptr;
    long stop = -1;
    if (live_running) {
        for (size_t k = 0; k < 2; ++k) {
            SlicedRun* run = live[k].get();
            const long until = live_stop_at_step[k];
            if (run && !run->done() && (until < 0 || run->steps() < until || run->evaluating()) &&
                (!next || run->fraction_done() < next->fraction_done()))
                next = run, stop = until;
        }
        if (!next) {  // both finished, or the Step is done
            live_running = false;
            live_stop_at_step = {-1, -1};
            changed = true;
        }
    }
    if (sweep_running) {
        if (sweep_current < 0 || !sweep[size_t(sweep_current)] || sweep[size_t(sweep_current)]->done()) {
            if (sweep_current >= 0) changed = true;
            sweep_current = -1;
            for (int i = 0; i < int(sweep.size()); ++i) {
                if (sweep[size_t(i)] && sweep[size_t(i)]->done()) continue;
                if (!sweep[size_t(i)])
                    sweep[size_t(i)] = std::make_unique<SlicedRun>(
                        trainer_config(i % 2 ? DecoderKind::attention : DecoderKind::plain, Scorer::additive,
                                       sweep_widths[size_t(i / 2)], sweep_epochs, 1), data);
                sweep_current = i;
                break;
            }
            if (sweep_current < 0) sweep_running = false;
        }
        SlicedRun* run = sweep_current >= 0 ? sweep[size_t(sweep_current)].get() : nullptr;
        if (run && (!next || run->fraction_done() < next->fraction_done())) {
            next = run;
            stop = -1;
        }
    }
    if (next) {
        const int epochs_before = next->epoch();
        next->work_until(deadline, !worked, stop);  // at least one chunk: progress on every frame
        if (next->epoch() != epochs_before) changed = true;
    }

    const double spent = now_ms() - start;
    work_ms_average = busy_frames == 0 ? spent : 0.95 * work_ms_average + 0.05 * spent;
    ++busy_frames;
    // Results changed: every figure redraws. Progress only: the moving figures, ten times a second.
    if (changed) {
        bump();
        last_progress_redraw = now_ms();
    } else if (now_ms() - last_progress_redraw > 100) {
        if (live_running) request_redraw("training");
        if (sweep_running) request_redraw("sweep");
        last_progress_redraw = now_ms();
    }
    return busy();
}

const Model* Lab::current_model(DecoderKind kind, std::string* label) const {
    const int k = kind == DecoderKind::attention;
    if (live[size_t(k)] && live[size_t(k)]->epoch() > 0) {
        if (label) *label = "trained in this page";
        return &live[size_t(k)]->model();
    }
    if (shipped[size_t(k)]) {
        if (label) *label = "shipped";
        return &*shipped[size_t(k)];
    }
    return nullptr;
}

const Metrics* Lab::current_metrics(DecoderKind kind, std::string* label) const {
    const int k = kind == DecoderKind::attention;
    if (live[size_t(k)] && live[size_t(k)]->metrics()) {
        const SlicedRun& run = *live[size_t(k)];
        if (label)
            *label = "trained in this page, width " + std::to_string(run.config().model.H) + ", epoch " +
                     std::to_string(run.epoch());
        return &*run.metrics();
    }
    if (shipped_eval[size_t(k)].held_out.metrics()) {
        if (label) *label = "shipped, width 64, 12 epochs";
        return &*shipped_eval[size_t(k)].held_out.metrics();
    }
    return nullptr;
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Loading assets/ (fetch, from the page's own origin)
//-----------------------------------------------------------------------------------------------

namespace {

enum FetchTag { fetch_plain = 0, fetch_attention = 1, fetch_sweep = 2 };

void load_shipped(Lab& lab, int k, const uint8_t* bytes, size_t size) {
    try {
        Model model = load_model(bytes, size);
        const DecoderKind want = k ? DecoderKind::attention : DecoderKind::plain;
        if (model.config.decoder != want) throw SafetensorsError("the file holds the other model");
        lab.shipped[size_t(k)] = std::move(model);
        SlicedEval& eval = lab.shipped_eval[size_t(k)];
        eval.model = &*lab.shipped[size_t(k)];
        eval.held_out.restart();
        eval.ms_per_row = 0;
        const SafetensorsContent content = decode_safetensors(bytes, size);
        auto meta = [&](const char* key) {
            const auto found = content.metadata.find(key);
            return found == content.metadata.end() ? std::string("?") : found->second;
        };
        lab.shipped_native_exact[size_t(k)] = std::strtod(meta("exact").c_str(), nullptr);
        lab.shipped_info[size_t(k)] = "width " + meta("width") + ", " + meta("epochs") + " epochs, seed " + meta("seed") +
                                      "; natively: exact " + meta("exact").substr(0, 6);
    } catch (const std::exception& e) {
        lab.shipped_error += std::string(k ? "attention" : "plain") + " model: " + e.what() + ". ";
    }
}

void load_sweep(Lab& lab, const uint8_t* bytes, size_t size) {
    try {
        const nlohmann::json sweep = nlohmann::json::parse(bytes, bytes + size);
        lab.native_rows.clear();
        for (const auto& run : sweep.at("runs")) {
            const std::string model = run.at("model");
            lab.native_rows.push_back({Origin::native, "lookback sweep",
                                       model == "plain" ? DecoderKind::plain : DecoderKind::attention,
                                       run.at("width").get<int>(), run.at("exact").get<double>(),
                                       run.at("per_char").get<double>(), run.at("parameters").get<long>(),
                                       run.value("train_seconds", NAN)});
        }
        lab.native_note = std::to_string(sweep.value("epochs", 0)) + " epochs, seed " +
                          std::to_string(sweep.value("seed", 0));
    } catch (const std::exception& e) {
        lab.native_rows.clear();
        lab.native_note = std::string("assets/sweep.json could not be read: ") + e.what();
    }
}

}  // namespace

void Lab::start_loading() {
    static bool started = false;
    if (started) return;
    started = true;
    native_note = "loading assets/sweep.json\u2026";
    lesson2_fetch("assets/plain-64.safetensors", fetch_plain);
    lesson2_fetch("assets/attention-64.safetensors", fetch_attention);
    lesson2_fetch("assets/sweep.json", fetch_sweep);
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Results as rows and CSV
//-----------------------------------------------------------------------------------------------

std::vector<ResultRow> Lab::results() const {
    // The source's table (lesson-brief §4), quoted as figures.
    static const double source_exact[2][4] = {{0.0000, 0.0000, 0.0008, 0.0017}, {0.0000, 0.0133, 0.9042, 1.0000}};
    static const double source_char[2][4] = {{0.1432, 0.5524, 0.6467, 0.7277}, {0.4995, 0.7450, 0.9871, 1.0000}};
    std::vector<ResultRow> rows;
    for (int k = 0; k < 2; ++k)
        for (int w = 0; w < 4; ++w) {
            ModelConfig c;
            c.decoder = k ? DecoderKind::attention : DecoderKind::plain;
            c.H = sweep_widths[size_t(w)];
            rows.push_back({Origin::source, "the source's run", c.decoder, c.H, source_exact[k][w], source_char[k][w],
                            parameter_count(c), w == 3 ? (k ? 83.5 : 43.6) : NAN});
        }
    rows.insert(rows.end(), native_rows.begin(), native_rows.end());
    auto page_row = [&](const SlicedRun& run, const std::string& label) {
        const ModelConfig& c = run.config().model;
        rows.push_back({Origin::page, label + " (" + std::to_string(run.epoch()) + "/" + std::to_string(run.config().epochs) + " ep.)",
                        c.decoder, c.H, run.metrics()->exact, run.metrics()->per_char, parameter_count(c),
                        run.seconds_training()});
    };
    for (const auto& run : sweep)
        if (run && run->metrics()) page_row(*run, "sweep");
    for (const auto& run : live)
        if (run && run->metrics())
            page_row(*run, std::string("training") +
                               (run->config().model.decoder == DecoderKind::attention
                                    ? ", " + std::string(scorer_name(run->config().model.scorer))
                                    : std::string()));
    for (int k = 0; k < 2; ++k)
        if (const auto& m = shipped_eval[size_t(k)].held_out.metrics()) {
            ModelConfig c = shipped[size_t(k)]->config;
            rows.push_back({Origin::page, "shipped weights", c.decoder, c.H, m->exact, m->per_char,
                            parameter_count(c), NAN});
        }
    return rows;
}

std::string Lab::results_csv() const {
    std::string csv = "origin,run,model,width,exact,per_char,parameters,train_seconds\n";
    for (const ResultRow& r : results()) {
        std::string label = r.label;
        std::replace(label.begin(), label.end(), ',', ';');
        csv += std::string(origin_name(r.origin)) + "," + label + "," +
               (r.model == DecoderKind::plain ? "plain" : "attention") + "," + std::to_string(r.width) + "," +
               fixed(r.exact, 4) + "," + fixed(r.per_char, 4) + "," + std::to_string(r.parameters) + "," +
               (std::isnan(r.seconds) ? "" : fixed(r.seconds, 1)) + "\n";
    }
    return csv;
}

}  // namespace lb::web

// Called by lesson2_fetch when a file of assets/ has arrived (or failed).
extern "C" EMSCRIPTEN_KEEPALIVE void lb2_fetched(int tag, const uint8_t* bytes, int size, const char* error) {
    using namespace lb::web;
    Lab& l = lab();
    if (tag == fetch_plain || tag == fetch_attention) {
        if (error) l.shipped_error += std::string(tag ? "attention" : "plain") + " model: " + error + ". ";
        else load_shipped(l, tag, bytes, size_t(size));
        l.shipped_pending--;
    } else if (tag == fetch_sweep) {
        if (error) l.native_note = std::string("no native sweep was shipped (") + error + ")";
        else load_sweep(l, bytes, size_t(size));
    }
    l.bump();
    l.wake();
}
