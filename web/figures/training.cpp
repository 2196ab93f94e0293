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
#include "io/worker_codec.h"
#include "lesson/published.h"
#include "models/registry.h"
#include "text/text.h"

namespace lb::web {
namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Settings and the URL
//-----------------------------------------------------------------------------------------------

// The attention designs the second run can be: every registered kind with one map per output
// step (models/registry.h's rows), but the Transformer, which has a section of its own.
const std::vector<DecoderKind>& designs() {
    static const std::vector<DecoderKind> kinds = [] {
        std::vector<DecoderKind> found;
        for (DecoderKind kind : model_kinds())
            if (model_kind(kind).alignment && !model_kind(kind).transformer_options) found.push_back(kind);
        return found;
    }();
    return kinds;
}
bool offered(DecoderKind kind) { return std::find(designs().begin(), designs().end(), kind) != designs().end(); }
constexpr int max_epochs = 30;
// The learning rates offered: from too slow to learn in 12 epochs to far past where Adam diverges,
// so a reader can watch a run go non-finite and stop (the trainer keeps its last sound weights).
const float learning_rates[] = {1e-4f, 3e-4f, 1e-3f, 3e-3f, 1e-2f, 0.1f, 1, 10};

}  // namespace

TrainingState::TrainingState() {
    url_setting(url, "task", run, "task");
    url_setting(url, "formats", run, "formats");  // after the task: they are the dates'
    url_setting(url, "order", run, "field_order");
    std::vector<int> widths(sweep_widths.begin(), sweep_widths.end());
    url.integer_in("width", run.model.H, widths);
    // The second run's design, its scorer and its input feeding in the schema's words and checks
    // (settings/run_settings.h); the design is one of the page's.
    const SettingField* scorer_field = find_setting("scorer");
    const SettingField* feeding_field = find_setting("input_feeding");
    std::vector<std::string> design_names;
    std::string scorers_taken;
    for (DecoderKind d : designs()) {
        RunSettings s;
        s.model.decoder = d;
        design_names.emplace_back(decoder_name(d));
        scorers_taken += (scorers_taken.empty() ? "" : "; ") + design_names.back() + ": " + setting_expected(*scorer_field, s);
    }
    url.entry("model", "one of " + list_text(design_names),
              [this] { return std::string(decoder_name(run.model.decoder)); },
              [this](const std::string& text) {  // a design starts with its own default scorer
                  const auto kind = parse_decoder(text);
                  if (!kind || !offered(*kind)) return false;
                  run.model.decoder = *kind, run.model.scorer = default_scorer(*kind);
                  return true;
              })
        .entry("scorer", "a scorer the model takes (" + scorers_taken + ")",
               [this, scorer_field] { return setting_text(*scorer_field, run); },
               [this, scorer_field](const std::string& text) { return try_set_setting(run, *scorer_field, text); })
        .entry("feeding", setting_expected(*feeding_field, RunSettings{}) + ", and 1 for " + kinds_text(*feeding_field) + " only",
               [this, feeding_field] { return setting_text(*feeding_field, run); },
               [this, feeding_field](const std::string& text) {
                   RunSettings s = run;
                   if (!try_set_setting(s, *feeding_field, text)) return false;
                   if (s.model.input_feeding && !applies_to(*feeding_field, s.model.decoder)) return false;
                   return run = s, true;
               });
    // A run's settings: the schema's bounds and words, epochs up to the slider's.
    url_setting(url, "seed", run, "seed");
    url_setting(url, "epochs", run, "epochs", max_epochs);
    url_setting(url, "lr", run, "learning_rate");
    url.choice("bleu", bleu_asked, {{"0", false}, {"1", true}});
}

std::array<RunSettings, 2> TrainingState::configs() const {
    RunSettings plain = run;
    plain.model.decoder = DecoderKind::plain;
    plain.model.scorer = default_scorer(DecoderKind::plain);
    plain.model.input_feeding = false;
    return {plain, run};
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

// The date task's dial: which formats are drawn (at least one) and the order of the fields;
// true when it changed (model.task is then the dial's task).
bool ShowDateDial(ModelConfig& model) {
    bool changed = false;
    DateDial dial = *date_dial(*model.task);
    const auto set_dial = [&] {
        model.task = &date_task(dial);
        changed = true;
    };
    SameLineIfRoom(labelled(120, "formats"));
    ImGui::SetNextItemWidth(120);
    // A format is drawn or not; the last one drawn stays.
    const auto toggle = [&](int f) {
        const auto at = std::find(dial.formats.begin(), dial.formats.end(), f);
        if (at == dial.formats.end()) dial.formats.insert(std::upper_bound(dial.formats.begin(), dial.formats.end(), f), f);
        else if (dial.formats.size() > 1) dial.formats.erase(at);
        set_dial();
    };
    const auto format_label = [&dial](int f) { return std::to_string(f) + "  " + format_name(f, dial.order); };
    if (ImGui::BeginCombo("formats", formats_text(dial.formats).c_str())) {
        for (int f = 0; f < format_count; ++f) {
            bool used = std::find(dial.formats.begin(), dial.formats.end(), f) != dial.formats.end();
            ImGui::BeginDisabled(used && dial.formats.size() == 1);
            if (ImGui::Checkbox(format_label(f).c_str(), &used)) toggle(f);
            ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    record_rect("formats");
    // For the keyboard, the popup's checkboxes are described over the combo, one per format.
    for (int f = 0; f < format_count; ++f) {
        const bool used = std::find(dial.formats.begin(), dial.formats.end(), f) != dial.formats.end();
        const std::string id = "format-" + std::to_string(f);
        const bool last = used && dial.formats.size() == 1;
        describe({.id = id, .role = Role::checkbox, .name = "format " + format_label(f), .checked = used, .disabled = last});
        if (take_action(id, Action::press) && !last) toggle(f);
    }
    SameLineIfRoom(labelled(70, "order"));
    ImGui::SetNextItemWidth(70);
    const std::string orders[] = {"dmy", "dym", "mdy", "myd", "ydm", "ymd"};
    if (ComboOf("order", "order", dial.order, orders, [](const std::string& o) { return o; }, "order of the fields")) set_dial();
    return changed;
}

// The settings' widgets: true when one changed (new settings start new runs).
bool ShowSettings(TrainingState& st) {
    bool changed = false;
    RunSettings& run = st.run;
    ModelConfig& model = run.model;
    // The date task with any dial is "dates" in the task list; picking it starts from the lesson's dial.
    const DateDial* task_dial = date_dial(*model.task);
    const Task* listed = task_dial ? &date_task() : model.task;
    ImGui::SetNextItemWidth(110);
    if (ComboOf("task", "task", listed, tasks(), [](const Task* t) { return t->name; }) &&
        listed != (task_dial ? &date_task() : model.task)) {
        model.task = listed;
        changed = true;
    }
    if (date_dial(*model.task)) changed |= ShowDateDial(model);
    // BLEU is the translation's; on other words (phonemes, digits) its n-grams may mean nothing, so
    // it is the reader's to ask for. Only shown: every run of words computes it.
    if (model.task->output.words && model.task != &translation_task()) {
        SameLineIfRoom(labelled(ImGui::GetFrameHeight(), "BLEU too"));
        Checkbox("BLEU too", "bleu", &st.bleu_asked, "score BLEU too (for pairs that are translations)");
    }
    SameLineIfRoom(labelled(70, "width"));
    ImGui::SetNextItemWidth(70);
    changed |= ComboOf("width", "width", model.H, sweep_widths, [](int w) { return std::to_string(w); });
    SameLineIfRoom(labelled(110, "model"));
    ImGui::SetNextItemWidth(110);
    const DecoderKind design = model.decoder;
    if (ComboOf("model", "model", model.decoder, designs(), [](DecoderKind k) { return std::string(decoder_name(k)); }) &&
        model.decoder != design) {
        changed = true;
        if (!takes_scorer(model.decoder, model.scorer)) model.scorer = default_scorer(model.decoder);
        model.input_feeding &= model_kind(model.decoder).input_feeding;
    }
    // The scorers and input feeding the design's row takes (Bahdanau's: the paper's additive score only).
    const ModelKind& row = model_kind(model.decoder);
    SameLineIfRoom(labelled(90, "scorer"));
    ImGui::SetNextItemWidth(90);
    ImGui::BeginDisabled(row.scorers.size() < 2);
    std::vector<Scorer> taken;
    for (const ScorerChoice& choice : row.scorers) taken.push_back(choice.scorer);
    changed |= ComboOf("scorer", "scorer", model.scorer, taken,
                       [&model](Scorer s) { return std::string(model_scorer_name(model.decoder, s)); });
    ImGui::EndDisabled();
    SameLineIfRoom(labelled(ImGui::GetFrameHeight(), "input feeding"));
    ImGui::BeginDisabled(!row.input_feeding);
    changed |= Checkbox("input feeding", "input-feeding", &model.input_feeding);
    ImGui::EndDisabled();
    SameLineIfRoom(labelled(110, "seed"));
    ImGui::SetNextItemWidth(110);
    int seed = int(run.seed);  // the schema's seeds fit an int (0 to 2^31 - 1)
    if (InputInt("seed", "seed", &seed, 0, 2147483647) && uint64_t(seed) != run.seed) {
        run.seed = uint64_t(seed);
        changed = true;
    }
    SameLineIfRoom(labelled(120, "epochs"));
    ImGui::SetNextItemWidth(120);
    const int epochs = run.epochs;
    changed |= SliderInt("epochs", "epochs", &run.epochs, 1, max_epochs) && run.epochs != epochs;
    SameLineIfRoom(labelled(80, "learning rate"));
    ImGui::SetNextItemWidth(80);
    changed |= ComboOf("learning rate", "learning-rate", run.learning_rate, learning_rates,
                       [](float rate) { return number_text(rate); });
    return changed;
}

// Made each time: the colours follow the page's theme; the second run is named by its model
// (`second` holds the name the look points at).
PairLook look(Lab& lab, const TrainingState& st, std::string& second) {
    second = model_label(lab.live[1]->config().model);
    return {{"plain", second.c_str()}, {plain_color(), attention_color()}, lab.knows_alignment(*lab.live[1]->config().model.task),
            st.bleu_asked};
}

// The pair is made here, when the figure first draws (its URL read), and again on new settings
// or Reset.
void ShowTraining(Lab& lab, TrainingState& st) {
    lab.bleu_asked = st.bleu_asked;
    if (!lab.live.built()) lab.build(lab.live, st.configs());
    if (ShowSettings(st)) lab.build(lab.live, st.configs());
    if (ShowPairButtons(lab.live)) lab.build(lab.live, st.configs());
    ShowPairProgress(lab.live);
    std::string second;
    ShowPairCharts(lab.live, look(lab, st, second));
    // Always one line here, so the figure keeps its height.
    if (!lab.training_note.empty())
        WrappedText("%s", lab.training_note.c_str());
    else if (lab.worker_count() == 1)
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
        {"task", st.run.model.task->name},
        {"formats", setting_text(*find_setting("formats"), st.run)},
        {"order", setting_text(*find_setting("field_order"), st.run)},
        {"width", st.run.model.H},
        {"model", std::string(decoder_name(st.run.model.decoder))},
        {"scorer", std::string(model_scorer_name(st.run.model.decoder, st.run.model.scorer))},
        {"input_feeding", st.run.model.input_feeding},
        {"bleu_asked", st.bleu_asked},
        {"seed", st.run.seed},
        {"epochs", st.run.epochs},
        {"learning_rate", std::stod(setting_text(*find_setting("learning_rate"), st.run))},  // 0.001, not the float's 0.0010000000474
        {"runs", built ? nlohmann::json{pair_run_json(*lab.live[0], "plain"),
                                        pair_run_json(*lab.live[1], model_label(lab.live[1]->config().model).c_str())}
                       : nlohmann::json::array()},
        // What each worker was given, and the groups of the held-out split it evaluated on.
        {"worker_configs", built ? nlohmann::json{run_settings_to_json(lab.live[0]->config()),
                                                   run_settings_to_json(lab.live[1]->config())}
                                 : nlohmann::json::array()},
        {"held_out_groups", built && lab.live[1]->metrics() ? nlohmann::json(lab.live[1]->metrics()->examples_per_format)
                                                            : nlohmann::json::array()},
        {"wall_seconds", lab.live.clock.ms() / 1000},
        {"examples_per_second", lab.live.clock.ms() > 0 ? examples / (lab.live.clock.ms() / 1000) : 0.0},
        {"workers", lab.worker_count()},
        {"training_note", lab.training_note},
        {"shipped_error", lab.shipped_errors(date_task(), {DecoderKind::plain, DecoderKind::attention})},
    };
}

std::string text_alternative(Lab& lab, const TrainingState& st) {
    if (!lab.live.built()) return "";
    const RunSettings& run = st.run;
    const std::string rate = setting_text(*find_setting("learning_rate"), run);
    std::string second;
    const PairLook shown = look(lab, st, second);
    const DateDial* dial = date_dial(*run.model.task);
    const std::string dial_text =
        dial ? " (formats " + formats_text(dial->formats) + ", fields in the order " + dial->order + ")" : "";
    std::string html = "<p>Plain against " + second + " on the " + run.model.task->name + " task" + dial_text + " (" +
                       grouped(run.model.task->held_out_size) + " held-out pairs), width " +
                       std::to_string(run.model.H) + ", seed " + std::to_string(run.seed) + ", " +
                       std::to_string(run.epochs) + " epochs, learning rate " + rate + ". " + pair_status(lab.live) + "</p>";
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
