// web/lab/url_setting.h — a figure's URL entry for one of a run's settings (tr.seed, tf.epochs,
// tr.lr, tr.formats ...), bound to the field of the figure's RunSettings: the settings schema
// (settings/run_settings.h) reads, checks and writes the value and words the refusal, so the page
// takes what the command line and the worker take. `page_hi`, when given, is the figure's own
// narrower top (its slider's), stated in the schema's words. A figure's choice of task (ck.task,
// rs.task), and the reader's own task in links. And a moved step's attention (al.move, tm.move), which the alignment and
// Transformer-maps figures read alike.
#pragma once
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "analysis.h"
#include "settings/run_settings.h"
#include "url_state.h"

namespace lb::web {

// The reader's own task (docs/own-pairs.md, "Keep and share"): the name it takes in the table,
// and whether the page's links carry its pairs. While they do not (too large for a link, or
// forgotten from the address: figures/own_pairs.cpp sets it), a figure's choice of it is left out
// of the address, and so of every link copied from it: no link names pairs it does not bring.
constexpr const char* own_pairs_name = "your-pairs";
inline bool own_pairs_in_links = true;

// For a figure's task entry, the last added to `url`: its choice of the reader's task is left out
// of links that do not carry the pairs, and a link that chose the task without bringing them is
// refused saying so, rather than as an unknown task.
inline void own_pairs_entry(UrlTable& url) {
    url.left_out_when([](const std::string& name) { return name == own_pairs_name && !own_pairs_in_links; })
        .refused_as([](const std::string& key, const std::string& name) {
            if (name != own_pairs_name || task_named(name)) return std::string();
            return "This link chose the sender's own pairs (" + key + "=" + name +
                   "), but did not carry them (they were too large for a link, or the link was cut): ask the sender "
                   "for the task file (Save as a file in \u201cYour own pairs\u201d). Until then the figure shows its default.";
        });
}

inline void url_setting(UrlTable& url, const std::string& key, RunSettings& run, const char* setting,
                        double page_hi = INFINITY) {
    SettingField schema = *find_setting(setting);
    if (page_hi < schema.hi) schema.hi = page_hi;
    // A field of one task (the date task's dial) is refused while the run is of another.
    const std::string only = schema.task ? std::string(", for the ") + schema.task + " task only" : "";
    url.entry(key, [schema, only] { return setting_expected(schema, RunSettings{}) + only; },
              [&run, schema] { return setting_text(schema, run); },
              [&run, schema](const std::string& text) {
                  RunSettings checked = run;
                  if (!applies_to(schema, checked.model) || !try_set_setting(checked, schema, text)) return false;
                  run = checked;
                  return true;
              });
    if (std::string_view(setting) == "task") own_pairs_entry(url);
}

// A figure's task (ck.task, rs.task) by its name, looked up in the table of tasks when the link is
// read or written, so that a task added after the figure was made (a reader's pairs) goes in a
// link as the lesson's do. `none`, if given, is the word for no task: the field null (rs.task=all).
inline void url_task(UrlTable& url, const std::string& key, const Task*& field, const char* none = nullptr) {
    const std::string none_word = none ? none : "";
    url.entry(key, [none_word] { return "one of " + (none_word.empty() ? "" : none_word + ", ") + task_names_text(); },
              [&field, none_word] { return field ? field->name : none_word; },
              [&field, none_word](const std::string& text) {
                  if (!none_word.empty() && text == none_word) return field = nullptr, true;
                  const Task* task = task_named(text);
                  if (task) field = task;
                  return task != nullptr;
              });
    own_pairs_entry(url);
}

// A move of one output step's attention (analysis.h) as "STEP:POSITION" or "STEP:FIRST-LAST": an
// output step of the dates and input positions a date can have, digits only. Which head moves is
// the figure's own setting, so the entry keeps move.head as it is.
inline void url_move(UrlTable& url, const std::string& key, Move& move) {
    url.entry(key, "STEP:POSITION or STEP:FIRST-LAST (an output step 0\u2013" + std::to_string(output_length - 1) +
                       ", input positions from 0, first \u2264 last)",
              [&move] {
                  if (move.step < 0) return std::string();
                  return std::to_string(move.step) + ":" + std::to_string(move.first) +
                         (move.last != move.first ? "-" + std::to_string(move.last) : "");
              },
              [&move](const std::string& text) {
                  // At most "9:26-26": a longer number would overflow sscanf's int.
                  if (text.empty() || text.size() > 8 || text.find_first_not_of("0123456789:-") != std::string::npos) return false;
                  int step = 0, first = 0, last = 0, used = 0;
                  const bool span = std::sscanf(text.c_str(), "%d:%d-%d%n", &step, &first, &last, &used) == 3;
                  if (!span && std::sscanf(text.c_str(), "%d:%d%n", &step, &first, &used) == 2) last = first;
                  else if (!span) return false;
                  if (size_t(used) != text.size()) return false;
                  if (step < 0 || step >= output_length || first < 0 || last < first || last >= max_input_length) return false;
                  move.step = step, move.first = first, move.last = last;
                  return true;
              });
}

}  // namespace lb::web
