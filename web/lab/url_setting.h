// web/lab/url_setting.h — a figure's URL entry for one of a run's settings (tr.seed, tf.epochs,
// tr.lr, tr.formats ...): the settings schema (io/run_settings.h) checks the value and words the
// refusal, so the page takes what the command line and the worker take. `page_hi`, when given, is the
// figure's own narrower top (its slider's), stated in the schema's words.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

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

}  // namespace lb::web
