// web/lab/url_setting.h — a figure's URL entry for one of a run's settings (tr.seed, tf.epochs,
// tr.lr, tr.formats ...): the settings schema (io/run_settings.h) checks the value and words the
// refusal, so the page takes what the command line and the worker take. `page_hi`, when given, is the
// figure's own narrower top (its slider's), stated in the schema's words. And a moved step's
// attention (al.move, tm.move), which the alignment and Transformer-maps figures read alike.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#include "analysis.h"
#include "io/run_settings.h"
#include "url_state.h"

namespace lb::web {

template <typename T>
void url_setting(UrlTable& url, const std::string& key, T& field, const char* setting, double page_hi = INFINITY) {
    SettingField schema = *find_setting(setting);
    schema.hi = std::min(schema.hi, page_hi);
    url.entry(key, setting_expected(schema, RunSettings{}),
              [&field] {
                  if constexpr (std::is_integral_v<T>) {
                      return std::to_string(field);
                  } else {  // the shortest text that reads back as the field: "0.003"
                      char text[32];
                      for (int digits = 1; digits <= 17; ++digits) {
                          std::snprintf(text, sizeof text, "%.*g", digits, double(field));
                          if (std::strtod(text, nullptr) == double(field)) break;
                      }
                      return std::string(text);
                  }
              },
              [&field, schema](const std::string& text) {
                  RunSettings checked;
                  if (!try_set_setting(checked, schema, text)) return false;
                  field = T(std::strtod(text.c_str(), nullptr));  // as typed: the schema took it
                  return true;
              });
}

// One part of the date task's dial (tr.formats, tr.order; data/dataset.h) as a URL entry: the
// schema's words and refusal, and refused while `task` is another task, which has no dial.
inline void url_dial_setting(UrlTable& url, const std::string& key, DateDial& dial, const Task* const& task,
                             const char* setting) {
    const SettingField& schema = *find_setting(setting);
    url.entry(key, setting_expected(schema, RunSettings{}) + ", for the " + schema.task + " task only",
              [&dial, &schema] {
                  RunSettings s;
                  s.model.task = &date_task(dial);
                  return setting_text(schema, s);
              },
              [&dial, &task, &schema](const std::string& text) {
                  RunSettings s;
                  s.model.task = &date_task(dial);
                  if (task->name != schema.task || !try_set_setting(s, schema, text)) return false;
                  dial = *date_dial(*s.model.task);
                  return true;
              });
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
