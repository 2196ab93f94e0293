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

#include "controls.h"
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
    changed |= ComboOf("task", "task", st.task, tasks(), [](const Task* t) { return t->name; });
    // The date task's dial: which formats are drawn (at least one) and the order of the fields.
    ImGui::BeginDisabled(st.task != &date_task());
    SameLineIfRoom(labelled(120, "formats"));
    ImGui::SetNextItemWidth(120);
    // A format is drawn or not; the last one drawn stays.
    const auto toggle = [&st, &changed](int f) {
        const auto at = std::find(st.dial.formats.begin(), st.dial.formats.end(), f);
        if (at == st.dial.formats.end()) st.dial.formats.insert(std::upper_bound(st.dial.formats.begin(), st.dial.formats.end(), f), f);
        else if (st.dial.formats.size() > 1) st.dial.formats.erase(at);
        changed = true;
    };
    const auto format_label = [&st](int f) { return std::to_string(f) + "  " + format_name(f, st.dial.order); };
    if (ImGui::BeginCombo("formats", formats_text(st.dial.formats).c_str())) {
        for (int f = 0; f < format_count; ++f) {
            bool used = std::find(st.dial.formats.begin(), st.dial.formats.end(), f) != st.dial.formats.end();
            ImGui::BeginDisabled(used && st.dial.formats.size() == 1);
            if (ImGui::Checkbox(format_label(f).c_str(), &used)) toggle(f);
            ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    record_rect("formats");
    // For the keyboard, the popup's checkboxes are described over the combo, one per format.
    for (int f = 0; f < format_count; ++f) {
        const bool used = std::find(st.dial.formats.begin(), st.dial.formats.end(), f) != st.dial.formats.end();
        const std::string id = "format-" + std::to_string(f);
        const bool last = used && st.dial.formats.size() == 1;
        describe({.id = id, .role = Role::checkbox, .name = "format " + format_label(f), .checked = used, .disabled = last});
        if (take_action(id, Action::press) && st.task == &date_task() && !last) toggle(f);
    }
    SameLineIfRoom(labelled(70, "order"));
    ImGui::SetNextItemWidth(70);
    const std::string orders[] = {"dmy", "dym", "mdy", "myd", "ydm", "ymd"};
    changed |= ComboOf("order", "order", st.dial.order, orders, [](const std::string& o) { return o; }, "order of the fields");
    ImGui::EndDisabled();
    SameLineIfRoom(labelled(70, "width"));
    ImGui::SetNextItemWidth(70);
    changed |= ComboOf("width", "width", st.width, sweep_widths, [](int w) { return std::to_string(w); });
    SameLineIfRoom(labelled(110, "model"));
    ImGui::SetNextItemWidth(110);
    const DecoderKind design = st.design;
    if (ComboOf("model", "model", st.design, designs, [](DecoderKind k) { return std::string(decoder_name(k)); }) && st.design != design) {
        changed = true;
        if (!takes_scorer(st.design, st.scorer)) st.scorer = default_scorer(st.design);
        st.input_feeding &= is_luong(st.design);
    }
    SameLineIfRoom(labelled(90, "scorer"));
    ImGui::SetNextItemWidth(90);
    ImGui::BeginDisabled(st.design == DecoderKind::bahdanau);  // the paper's additive score only
    std::vector<Scorer> taken;
    for (Scorer s : scorers)
        if (takes_scorer(st.design, s)) taken.push_back(s);
    changed |= ComboOf("scorer", "scorer", st.scorer, taken, [&st](Scorer s) { return std::string(model_scorer_name(st.design, s)); });
    ImGui::EndDisabled();
    SameLineIfRoom(labelled(ImGui::GetFrameHeight(), "input feeding"));
    ImGui::BeginDisabled(!is_luong(st.design));
    changed |= Checkbox("input feeding", "input-feeding", &st.input_feeding);
    ImGui::EndDisabled();
    SameLineIfRoom(labelled(110, "seed"));
    ImGui::SetNextItemWidth(110);
    const int seed = st.seed;
    changed |= InputInt("seed", "seed", &st.seed, 0, 2147483647) && st.seed != seed;
    SameLineIfRoom(labelled(120, "epochs"));
    ImGui::SetNextItemWidth(120);
    const int epochs = st.epochs;
    changed |= SliderInt("epochs", "epochs", &st.epochs, 1, max_epochs) && st.epochs != epochs;
    SameLineIfRoom(labelled(80, "learning rate"));
    ImGui::SetNextItemWidth(80);
    const auto rate_text = [](double rate) {
        char shown[32];
        std::snprintf(shown, sizeof shown, "%g", rate);
        return std::string(shown);
    };
    changed |= ComboOf("learning rate", "learning-rate", st.learning_rate, learning_rates, rate_text);
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
