// web/app.cpp — the page module: the app owns every figure's state and the Lab, and registers
// the figures. The runtime (web/runtime/) attaches them to their canvases when the page glue
// (web/page/lookback.js) finds them, and draws them from then on. Training is not here: it runs
// in Web Workers (web/worker/), and the Lab shows what they report.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "data/pairs.h"
#include "lab.h"
#include "lesson1.h"
#include "io/task_file.h"
#include "lesson2.h"
#include "text/text.h"
#include "theme.h"
#include "url_setting.h"

namespace {

struct App {
    lb::web::WorkedExample worked_example;     // lesson part 1 (figures/lesson1.h)
    lb::web::Bottleneck bottleneck;
    lb::web::Lab lab;                          // lesson part 2, the experiment (lab/lab.h)
    lb::web::Lesson2 lesson2;                  // its figures' own state (figures/lesson2.h)
};

App* app_made = nullptr;  // main's, for the exports below

}  // namespace

extern "C" {

// The page's "Your own pairs" block (web/page/own_pairs.js). Each answer is JSON text, valid
// until the next call; no exception leaves, and a refusal changes nothing.
namespace {
// The glyphs the reader's task just used needs beyond the figures' font (runtime/theme.h).
lb::web::GlyphNeed own_task_glyphs() { return lb::web::want_glyphs(lb::task_code_points(app_made->lab.own_task->task)); }

std::string pairs_answer(const lb::web::PairsOutcome& out, const lb::web::GlyphNeed& glyphs, bool absent = false) {
    return nlohmann::json{{"ok", out.ok},     {"message", out.message}, {"line", out.line}, {"task", out.task},
                          {"tokens", out.tokens}, {"text", out.text},   {"absent", absent},
                          {"fonts", glyphs.fonts}, {"no_glyph", lb::web::no_glyph_note(glyphs.unavailable)},
                          {"drawing_note", glyphs.drawing_note}}
        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
}  // namespace

// The most bytes of a text or file the page hands lb_use_pairs: one past it is enough for the
// core to refuse where a text passes its limit (io/task_file.h: a task file may be larger than
// pairs), so a 20 MB file does not grow the module's memory by 20 MB.
EMSCRIPTEN_KEEPALIVE int lb_pairs_max_bytes() { return int(lb::task_file_max_bytes); }

// `text` is the reader's pairs or a task file the page exported, `size` bytes on the heap as they
// came (NUL bytes too: the core refuses them by line), `options` JSON {"tokens":
// "characters"|"words", "split_seed": n, "held_out": n, "drop_duplicates": bool, "select": bool
// (false: only into the table, for a task kept from the last visit)}, any subset. Makes the task
// and puts it in place (figures/own_pairs.cpp), or refuses. Returns {"ok", "message", "line",
// "task", "tokens", "text" (a task file's pairs), "fonts" (the site's fonts to fetch and hand
// lb_add_font for the task's characters), "no_glyph" (its characters no font has) and
// "drawing_note" (how its right-to-left text and marks are drawn), each said once}.
EMSCRIPTEN_KEEPALIVE const char* lb_use_pairs(const char* text, int size, const char* options) {
    static std::string answer;
    lb::web::PairsOutcome out;
    lb::web::GlyphNeed glyphs;
    try {
        const nlohmann::json given = nlohmann::json::parse(options);
        lb::PairsOptions o;
        if (!given.is_object()) throw std::invalid_argument("the options must be a JSON object");
        const std::string tokens = given.value("tokens", std::string("characters"));
        if (tokens != "characters" && tokens != "words") throw std::invalid_argument("tokens must be characters or words");
        o.tokens = tokens == "words" ? lb::PairsTokens::words : lb::PairsTokens::characters;
        o.split_seed = given.value("split_seed", uint64_t(1));
        o.held_out_size = given.value("held_out", 0);
        o.drop_duplicates = given.value("drop_duplicates", true);
        const bool select = given.value("select", true);
        if (!app_made) throw std::logic_error("the page has not started");
        out = lb::web::use_own_pairs(app_made->lab, app_made->lesson2, std::string_view(text, size_t(std::max(size, 0))), o,
                                     select);
        if (out.ok) glyphs = own_task_glyphs();
    } catch (const std::exception& e) {
        out.message = lb::sanitize_utf8(e.what());
    } catch (...) {
        out.message = "the pairs could not be read";
    }
    answer = pairs_answer(out, glyphs);
    return answer.c_str();
}

// A task sent in a link: `fragment` is the page's address's fragment without its '#'
// ("own-pairs&pairs.task=..."), `query` its query ("?tr.width=16", or "?pairs.task=..." in a link
// made before the fragment held the pairs). The same answer as lb_use_pairs, with "absent": true
// when the address holds no task.
EMSCRIPTEN_KEEPALIVE const char* lb_use_pairs_link(const char* query, const char* fragment) {
    static std::string answer;
    lb::web::PairsOutcome out;
    lb::web::GlyphNeed glyphs;
    bool absent = false;
    try {
        if (!app_made) throw std::logic_error("the page has not started");
        out = lb::web::use_pairs_link(app_made->lab, app_made->lesson2, query, fragment, absent);
        if (out.ok) glyphs = own_task_glyphs();
    } catch (const std::exception& e) {
        out.message = lb::sanitize_utf8(e.what());
    } catch (...) {
        out.message = "the link's pairs could not be read";
    }
    answer = pairs_answer(out, glyphs, absent);
    return answer.c_str();
}

// The reader's task as a task file's text ("" when there is none), and as a link's value:
// {"value": "...", "long": longer than some mail and chat programs pass whole} or {"refusal":
// "No link for these pairs: ..."}.
EMSCRIPTEN_KEEPALIVE const char* lb_pairs_file() {
    static std::string answer;
    try {
        answer = app_made ? lb::web::own_pairs_file(app_made->lab) : std::string();
    } catch (...) {
        answer.clear();  // the page says it could not save
    }
    return answer.c_str();
}
EMSCRIPTEN_KEEPALIVE const char* lb_pairs_link() {
    static std::string answer;
    lb::web::PairsLink link;
    try {
        link = app_made ? lb::web::own_pairs_link(app_made->lab) : lb::web::PairsLink{.refusal = "the page has not started"};
    } catch (const std::exception& e) {
        link.refusal = lb::sanitize_utf8(e.what());
    }
    answer = link.refusal.empty() ? nlohmann::json{{"value", link.value}, {"long", link.long_link}}.dump()
                                  : nlohmann::json{{"refusal", link.refusal}}.dump();
    return answer.c_str();
}
// Forget my pairs: the figures' choices of the reader's task leave the address too.
EMSCRIPTEN_KEEPALIVE void lb_pairs_forget() { lb::web::forget_own_pairs_link(); }
// The name the reader's task takes ("your-pairs"), which the page looks for in its address.
EMSCRIPTEN_KEEPALIVE const char* lb_own_pairs_name() { return lb::web::own_pairs_name; }

// What the page holds of its shipped models, so that a test knows when the page has finished
// loading them (a reload before that cancels their transfers): {"listed": assets/shipped.json was
// read, "models": [{"file", "label", "loaded", "error", "checking": a worker decodes its held-out
// split}]}.
EMSCRIPTEN_KEEPALIVE const char* lb_shipped() {
    static std::string answer;
    nlohmann::json report{{"listed", false}, {"models", nlohmann::json::array()}};
    if (app_made) {
        const lb::web::Lab& lab = app_made->lab;
        report["listed"] = lab.shipped_listed();
        for (const lb::web::ShippedModel& m : lab.shipped)
            report["models"].push_back({{"file", m.file}, {"label", lb::web::shipped_label(m.config)}, {"loaded", m.model.has_value()},
                                        {"error", m.error}, {"checking", m.checking()}});
    }
    answer = report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return answer.c_str();
}

}  // extern "C"

int main() {
    using namespace lb::web;
    static App app;  // made here, not at load: the Lab asks the page how many workers it has
    app_made = &app;
    register_figure(worked_example_figure(app.worked_example));
    register_figure(bottleneck_figure(app.bottleneck));
    start_selfcheck();
    register_figure(training_figure(app.lab, app.lesson2.training));
    register_figure(sweep_figure(app.lab, app.lesson2.sweep));
    register_figure(alignment_figure(app.lab, app.lesson2.alignment));
    register_figure(checked_figure(app.lab, app.lesson2.checked));
    register_figure(probes_figure(app.lab, app.lesson2.alignment));
    register_figure(results_figure(app.lab, app.lesson2.results));
    register_figure(transformer_training_figure(app.lab, app.lesson2.transformer_training));
    register_figure(transformer_maps_figure(app.lab, app.lesson2.transformer_maps));
    return 0;  // the runtime stays alive: figures are drawn from browser callbacks
}
