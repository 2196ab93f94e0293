// web/figures/own_pairs.cpp — a reader's own pairs made into the page's task (lesson2.h's
// use_own_pairs; docs/own-pairs.md). The text comes from the page's "Your own pairs" block
// (web/page/own_pairs.js, through web/app.cpp's export lb_use_pairs); the task is made by
// core/data/pairs.h, replaces the reader's previous one everywhere the page held it, and reaches
// the training workers as its text and options (Lab::replace_own_task). The same task leaves the page
// as a task file or a link (io/task_file.h) and comes back through use_own_pairs or a link's
// `pairs.task` (use_pairs_link). Whether links carry it decides whether the figures may name it
// in the address (url_setting.h's own_pairs_in_links).
#include <new>

#include "figure.h"
#include "io/task_file.h"
#include "io/worker_codec.h"
#include "lesson2.h"
#include "text/text.h"
#include "url_setting.h"
#include "url_state.h"

namespace lb::web {

namespace {

// Every figure's state that points at `old` points at `now` instead (or the date task).
void repoint_figures(Lesson2& lesson, const Task* old, const Task& now) {
    lesson.training.run.model.task = &now;  // the training figure takes the new task, selected
    if (lesson.transformer_training.run.model.task == old) lesson.transformer_training.run.model.task = &now;  // new pairs, same figure
    CheckedState& checked = lesson.checked;  // the map shows the new task's held-out pairs
    checked.task = &now;
    checked.example = 0;
    checked.typed_text.clear();
    checked.field[0] = 0;
    checked.message.clear();
    checked.source = CheckedState::Source::shipped;
    checked.map = nullptr;
    checked.outlines.clear();
    if (lesson.results.rows_task == old) lesson.results.rows_task = &now;
    lesson.results.rows.clear();  // rows of the old task's runs, made again when drawn
}

}  // namespace

PairsOutcome use_own_pairs(Lab& lab, Lesson2& lesson, std::string_view text, PairsOptions options, bool select) {
    PairsOutcome out;
    try {
        PairsTaskSource source{std::string(text), options};
        if (is_task_file(text)) {  // it brings its own options, and its pairs are shown
            source = read_task_file(text);
            out.text = source.text;
        }
        source.options.name = own_pairs_name;
        const bool drawn = lab.live.built();  // else the training figure builds its pair when it first draws
        std::unique_ptr<PairsTask> old = lab.replace_own_task(std::move(source));
        // From here nothing refuses: the new task is in the table in the old one's place.
        select = select || old;  // no figure may keep pointing at the old task
        if (select) repoint_figures(lesson, old ? &old->task : nullptr, lab.own_task->task);
        old.reset();
        out.message = describe_pairs(lab.own_task->summary);
        out.tokens = lab.own_task_source.options.tokens == PairsTokens::words ? "words" : "characters";
        out.ok = true;
        out.task = own_pairs_name;
        if (select) {
            // Before the figure's first frame (a link's task), from the settings the link gives it then.
            if (drawn) lab.build(lab.live, lesson.training.configs());
            for (const char* figure : {"training", "transformer-training", "checked", "results"}) request_redraw(figure);
        }
        // Whether links can carry the new task, now: the figures that name it in the address
        // (drawn or not) leave it out at once when they cannot.
        try {
            own_pairs_link(lab);
        } catch (...) {  // out of memory: no link, and the task stays made
            own_pairs_in_links = false;
        }
        write_urls();
    } catch (const PairsError& e) {
        out.message = e.what();
        out.line = e.line;
    } catch (const std::bad_alloc&) {
        out.message = "The pairs took more memory than this page has.";
    } catch (const std::exception& e) {
        out.message = sanitize_utf8(e.what());
    } catch (...) {
        out.message = "The pairs could not be read.";
    }
    if (!out.ok) out.text.clear();
    return out;
}

PairsOutcome use_pairs_link(Lab& lab, Lesson2& lesson, std::string_view query, std::string_view fragment, bool& absent) {
    std::string value;
    PairsTaskSource source;
    UrlTable table("pairs.");
    table.text("task", value, task_link_max_chars, [&source](const std::string& given) {
        try {
            source = read_task_link(given);
            return std::string();
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
    });
    // The fragment's anchor ("own-pairs") is no key of the table's, so it is passed over.
    table.read(fragment);
    absent = value.empty() && table.messages().empty();
    if (absent) {  // a link made before the fragment held the pairs
        table.read(query);
        absent = value.empty() && table.messages().empty();
    }
    if (!table.messages().empty()) return {.message = table.messages().front()};
    if (absent) return {};
    PairsOutcome out = use_own_pairs(lab, lesson, source.text, source.options);
    if (out.ok) out.text = source.text;
    return out;
}

std::string own_pairs_file(const Lab& lab) { return lab.own_task ? task_file_text(lab.own_task_source) : std::string(); }

PairsLink own_pairs_link(Lab& lab) {
    if (!lab.own_task) return {.refusal = "There are no pairs of yours to link to."};
    if (!lab.own_task_link) {
        lab.own_task_link = task_link_value(lab.own_task_source).value_or("");
        own_pairs_in_links = !lab.own_task_link->empty();
    }
    if (lab.own_task_link->empty())
        return {.refusal = "No link for these pairs: compressed, they pass the " + grouped(long(task_link_max_bytes)) +
                           " bytes a link holds. Save as a file and send that instead: it opens here by Open a file, "
                           "or dropped on this block."};
    return {.value = *lab.own_task_link, .long_link = lab.own_task_link->size() > task_link_mail_chars};
}

void forget_own_pairs_link() {
    own_pairs_in_links = false;
    write_urls();
}

}  // namespace lb::web
