// web/figures/training.cpp — figure "training": the plain encoder–decoder and an attention one
// trained side by side, from scratch, in the page. The reader picks the width, the attention
// design (the lesson's model, Bahdanau's or Luong's global or local-p), its scorer and input
// feeding where the design has them, the task and, for the dates, the formats drawn and the
// order of the fields (the difficulty dial), the seed and the number of epochs; Train, Pause, Step (one
// batch) and Reset. The loss of every step, the held-out exact match and per-character accuracy
// after every epoch, and a progress bar with the examples per second and the time left. Settings
// live in the URL (tr.*).
//
// Both runs train in Web Workers (web/lab/runs.cpp); this figure draws what they report.
//
// [SECTION] Settings and the URL
// [SECTION] Drawing
// [SECTION] State JSON and text alternative
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "lesson2.h"
#include "pair_view.h"
#include "url_setting.h"
#include "lesson/published.h"
#include "text/text.h"

namespace lb::web {
namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Settings and the URL
//-----------------------------------------------------------------------------------------------

// The attention designs the second run can be, and every scorer any of them takes (the registry
// says which takes which).
const DecoderKind designs[] = {DecoderKind::attention, DecoderKind::bahdanau, DecoderKind::luong, DecoderKind::luong_local};
const Scorer scorers[] = {Scorer::additive, Scorer::dot, Scorer::general};
constexpr int max_epochs = 30;
// The learning rates offered: from too slow to learn in 12 epochs to far past where Adam diverges,
// so a reader can watch a run go non-finite and stop (the trainer keeps its last sound weights).
const double learning_rates[] = {1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 0.1, 1, 10};

}  // namespace

TrainingState::TrainingState() {
    std::vector<std::pair<std::string, const Task*>> task_names;
    for (const Task* t : tasks()) task_names.push_back({t->name, t});
    url.choice("task", task, task_names);
    url_dial_setting(url, "formats", dial, task, "formats");  // after the task: they are the dates'
    url_dial_setting(url, "order", dial, task, "field_order");
    std::vector<int> widths(sweep_widths.begin(), sweep_widths.end());
    url.integer_in("width", width, widths);
    // The second run's design, its scorer and its input feeding in the schema's words and checks
    // (io/run_settings.h); the design is one of the page's.
    const SettingField* scorer_field = find_setting("scorer");
    const SettingField* feeding_field = find_setting("input_feeding");
    std::vector<std::string> design_names;
    std::string scorers_taken;
    for (DecoderKind d : designs) {
        RunSettings s;
        s.model.decoder = d;
        design_names.emplace_back(decoder_name(d));
        scorers_taken += (scorers_taken.empty() ? "" : "; ") + design_names.back() + ": " + setting_expected(*scorer_field, s);
    }
    url.entry("model", "one of " + list_text(design_names),
              [this] { return std::string(decoder_name(design)); },
              [this](const std::string& text) {  // a design starts with its own default scorer
                  const auto kind = parse_decoder(text);
                  if (!kind || std::find(std::begin(designs), std::end(designs), *kind) == std::end(designs)) return false;
                  design = *kind, scorer = default_scorer(*kind);
                  return true;
              })
        .entry("scorer", "a scorer the model takes (" + scorers_taken + ")",
               [this] { return std::string(model_scorer_name(design, scorer)); },
               [this, scorer_field](const std::string& text) {
                   RunSettings s;
                   s.model.decoder = design;
                   if (!try_set_setting(s, *scorer_field, text)) return false;
                   return scorer = s.model.scorer, true;
               })
        .entry("feeding", setting_expected(*feeding_field, RunSettings{}) + ", and 1 for " + kinds_text(*feeding_field) + " only",
               [this] { return std::string(input_feeding ? "1" : "0"); },
               [this, feeding_field](const std::string& text) {
                   RunSettings s;
                   if (!try_set_setting(s, *feeding_field, text)) return false;
                   if (s.model.input_feeding && !applies_to(*feeding_field, design)) return false;
                   return input_feeding = s.model.input_feeding, true;
               });
    // A run's settings: the schema's bounds and words (io/run_settings.h), epochs up to the slider's.
    url_setting(url, "seed", seed, "seed");
    url_setting(url, "epochs", epochs, "epochs", max_epochs);
    url_setting(url, "lr", learning_rate, "learning_rate");
}

std::array<TrainerConfig, 2> TrainingState::configs() const {
    std::array<TrainerConfig, 2> c = {trainer_config(DecoderKind::plain, scorer, width, epochs, seed, learning_rate),
                                      trainer_config(design, scorer, width, epochs, seed, learning_rate)};
    c[1].model.input_feeding = input_feeding;
    for (TrainerConfig& config : c) config.model.task = task == &date_task() ? &date_task(dial) : task;
    return c;
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

// The settings' widgets: true when one changed (new settings start new runs).
bool ShowSettings(TrainingState& st) {
    bool changed = false;
    ImGui::SetNextItemWidth(110);
    if (ImGui::BeginCombo("task", st.task->name.c_str())) {
        for (const Task* t : tasks())
            if (ImGui::Selectable(t->name.c_str(), t == st.task)) changed |= t != st.task, st.task = t;
        ImGui::EndCombo();
    }
    record_rect("task");
    // The date task's dial: which formats are drawn (at least one) and the order of the fields.
    ImGui::BeginDisabled(st.task != &date_task());
    SameLineIfRoom(labelled(120, "formats"));
    ImGui::SetNextItemWidth(120);
    if (ImGui::BeginCombo("formats", formats_text(st.dial.formats).c_str())) {
        for (int f = 0; f < format_count; ++f) {
            const auto at = std::find(st.dial.formats.begin(), st.dial.formats.end(), f);
            bool used = at != st.dial.formats.end();
            ImGui::BeginDisabled(used && st.dial.formats.size() == 1);
            const std::string label = std::to_string(f) + "  " + format_name(f, st.dial.order);
            if (ImGui::Checkbox(label.c_str(), &used)) {
                if (used) st.dial.formats.insert(std::upper_bound(st.dial.formats.begin(), st.dial.formats.end(), f), f);
                else st.dial.formats.erase(at);
                changed = true;
            }
            ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    record_rect("formats");
    SameLineIfRoom(labelled(70, "order"));
    ImGui::SetNextItemWidth(70);
    if (ImGui::BeginCombo("order", st.dial.order.c_str())) {
        for (const char* order : {"dmy", "dym", "mdy", "myd", "ydm", "ymd"})
            if (ImGui::Selectable(order, st.dial.order == order) && st.dial.order != order) st.dial.order = order, changed = true;
        ImGui::EndCombo();
    }
    record_rect("order");
    ImGui::EndDisabled();
    SameLineIfRoom(labelled(70, "width"));
    ImGui::SetNextItemWidth(70);
    if (ImGui::BeginCombo("width", std::to_string(st.width).c_str())) {
        for (int w : sweep_widths)
            if (ImGui::Selectable(std::to_string(w).c_str(), w == st.width)) changed |= w != st.width, st.width = w;
        ImGui::EndCombo();
    }
    record_rect("width");
    SameLineIfRoom(labelled(110, "model"));
    ImGui::SetNextItemWidth(110);
    if (ImGui::BeginCombo("model", std::string(decoder_name(st.design)).c_str())) {
        for (DecoderKind kind : designs)
            if (ImGui::Selectable(std::string(decoder_name(kind)).c_str(), kind == st.design) && kind != st.design) {
                st.design = kind, changed = true;
                if (!takes_scorer(kind, st.scorer)) st.scorer = default_scorer(kind);
                st.input_feeding &= is_luong(kind);
            }
        ImGui::EndCombo();
    }
    record_rect("model");
    SameLineIfRoom(labelled(90, "scorer"));
    ImGui::SetNextItemWidth(90);
    ImGui::BeginDisabled(st.design == DecoderKind::bahdanau);  // the paper's additive score only
    if (ImGui::BeginCombo("scorer", std::string(model_scorer_name(st.design, st.scorer)).c_str())) {
        for (Scorer s : scorers)
            if (takes_scorer(st.design, s) &&
                ImGui::Selectable(std::string(model_scorer_name(st.design, s)).c_str(), s == st.scorer))
                changed |= s != st.scorer, st.scorer = s;
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    record_rect("scorer");
    SameLineIfRoom(labelled(ImGui::GetFrameHeight(), "input feeding"));
    ImGui::BeginDisabled(!is_luong(st.design));
    changed |= ImGui::Checkbox("input feeding", &st.input_feeding);
    ImGui::EndDisabled();
    record_rect("input-feeding");
    SameLineIfRoom(labelled(110, "seed"));
    ImGui::SetNextItemWidth(110);
    int seed = st.seed;
    if (ImGui::InputInt("seed", &seed, 1, 10) && seed >= 0 && seed != st.seed) st.seed = seed, changed = true;
    record_rect("seed");
    SameLineIfRoom(labelled(120, "epochs"));
    ImGui::SetNextItemWidth(120);
    int epochs = st.epochs;
    if (ImGui::SliderInt("epochs", &epochs, 1, max_epochs) && epochs != st.epochs) st.epochs = epochs, changed = true;
    record_rect("epochs");
    SameLineIfRoom(labelled(80, "learning rate"));
    ImGui::SetNextItemWidth(80);
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", st.learning_rate);
    if (ImGui::BeginCombo("learning rate", shown)) {
        for (double rate : learning_rates) {
            std::snprintf(shown, sizeof shown, "%g", rate);
            if (ImGui::Selectable(shown, rate == st.learning_rate)) changed |= rate != st.learning_rate, st.learning_rate = rate;
        }
        ImGui::EndCombo();
    }
    record_rect("learning-rate");
    return changed;
}

// Made each time: the colours follow the page's theme; the second run is named by its model
// (`second` holds the name the look points at).
PairLook look(const RunPair& pair, std::string& second) {
    second = model_label(pair[1]->config().model);
    return {{"plain", second.c_str()}, {plain_color(), attention_color()}};
}

// The pair is made here, when the figure first draws (its URL read), and again on new settings
// or Reset.
void ShowTraining(Lab& lab, TrainingState& st) {
    if (!lab.live.built()) lab.build(lab.live, st.configs());
    if (ShowSettings(st)) lab.build(lab.live, st.configs());
    if (ShowPairButtons(lab.live)) lab.build(lab.live, st.configs());
    ShowPairProgress(lab.live);
    std::string second;
    ShowPairCharts(lab.live, look(lab.live, second));
    // Always one line here, so the figure keeps its height.
    if (!lab.training_note.empty())
        WrappedText("%s", lab.training_note.c_str());
    else if (lab.worker_count == 1)
        DimTextWrapped("Both models train in a Web Worker, a slice each in turn; the page only draws.");
    else
        DimTextWrapped("Both models train in Web Workers, one each; the page only draws.");
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

nlohmann::json state_json(const Lab& lab, const TrainingState& st) {
    const bool built = lab.live.built();  // before the figure first draws: its settings, no runs
    const long examples = built ? lab.live[0]->examples_seen() + lab.live[1]->examples_seen() : 0;
    return {
        {"running", lab.live.running()},
        {"task", st.task->name},
        {"formats", formats_text(st.dial.formats)},
        {"order", st.dial.order},
        {"width", st.width},
        {"model", std::string(decoder_name(st.design))},
        {"scorer", std::string(model_scorer_name(st.design, st.scorer))},
        {"input_feeding", st.input_feeding},
        {"seed", st.seed},
        {"epochs", st.epochs},
        {"learning_rate", st.learning_rate},
        {"runs", built ? nlohmann::json{pair_run_json(*lab.live[0], "plain"),
                                        pair_run_json(*lab.live[1], model_label(lab.live[1]->config().model).c_str())}
                       : nlohmann::json::array()},
        // What each worker was given, and the groups of the held-out split it evaluated on.
        {"worker_configs", built ? nlohmann::json{worker_config(lab.live[0]->config()), worker_config(lab.live[1]->config())}
                                 : nlohmann::json::array()},
        {"held_out_groups", built && lab.live[1]->metrics() ? nlohmann::json(lab.live[1]->metrics()->examples_per_format)
                                                            : nlohmann::json::array()},
        {"wall_seconds", lab.live.clock.ms() / 1000},
        {"examples_per_second", lab.live.clock.ms() > 0 ? examples / (lab.live.clock.ms() / 1000) : 0.0},
        {"workers", lab.worker_count},
        {"training_note", lab.training_note},
        {"shipped_error", lab.shipped_error},
    };
}

std::string text_alternative(const Lab& lab, const TrainingState& st) {
    if (!lab.live.built()) return "";
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", st.learning_rate);
    std::string second;
    const PairLook shown = look(lab.live, second);
    const std::string dial = st.task == &date_task() ? " (formats " + formats_text(st.dial.formats) + ", fields in the order " +
                                                           st.dial.order + ")"
                                                     : "";
    std::string html = "<p>Plain against " + second + " on the " + st.task->name + " task" + dial + ", width " + std::to_string(st.width) + ", seed " +
                       std::to_string(st.seed) + ", " + std::to_string(st.epochs) + " epochs, learning rate " + rate + ". " +
                       (lab.live.running() ? "Training." : lab.live[0]->steps() ? "Paused." : "Not started.") + "</p>";
    return html + pair_epochs_table(lab.live, shown);
}

}  // namespace

FigureSpec training_figure(Lab& lab, TrainingState& state) {
    const auto redraw = [] { request_redraw("training"); };
    lab.changes.subscribe(redraw);
    lab.live.progress.subscribe(redraw);
    return {
        .name = "training",
        .show = [&lab, &state] { ShowTraining(lab, state); },
        .state = [&lab, &state] { return state_json(lab, state); },
        .text_alternative = [&lab, &state] { return text_alternative(lab, state); },
        .fit_height = true,
        .url = &state.url,
    };
}

}  // namespace lb::web
