// web/figures/training.cpp — figure "training": the plain encoder–decoder and the attention one
// trained side by side, from scratch, in the page. The reader picks the width, the scorer, the
// seed and the number of epochs; Train, Pause, Step (one batch) and Reset. The loss of every
// step, the held-out exact match and per-character accuracy after every epoch, and a progress
// bar with the examples per second and the time left. Settings live in the URL (tr.*).
//
// Both runs train in Web Workers (web/lab/runs.cpp); this figure draws what they report.
//
// [SECTION] Settings and the URL
// [SECTION] Drawing
// [SECTION] State JSON and text alternative
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "lesson2.h"
#include "pair_view.h"
#include "published.h"

namespace lb::web {
namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Settings and the URL
//-----------------------------------------------------------------------------------------------

const Scorer scorers[] = {Scorer::additive, Scorer::dot, Scorer::general};
constexpr int max_epochs = 30;
// The learning rate's range: from too slow to learn in 12 epochs to far past where Adam diverges,
// so a reader can watch a run go non-finite and stop (the trainer keeps its last sound weights).
constexpr double min_learning_rate = 1e-5, max_learning_rate = 10;
const double learning_rates[] = {1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 0.1, 1, 10};

}  // namespace

TrainingState::TrainingState(Lab& lab) {
    std::vector<int> widths(sweep_widths.begin(), sweep_widths.end());
    url.integer_in("width", lab.width, widths)
        .choice("scorer", lab.scorer, {{"additive", Scorer::additive}, {"dot", Scorer::dot}, {"general", Scorer::general}})
        .integer("seed", lab.seed, 0, 1000000)
        .integer("epochs", lab.epochs, 1, max_epochs)
        .number("lr", lab.learning_rate, min_learning_rate, max_learning_rate);
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

void ShowSettings(Lab& lab) {
    bool changed = false;
    const bool narrow = ImGui::GetContentRegionAvail().x < 560;
    ImGui::SetNextItemWidth(70);
    if (ImGui::BeginCombo("width", std::to_string(lab.width).c_str())) {
        for (int w : sweep_widths)
            if (ImGui::Selectable(std::to_string(w).c_str(), w == lab.width)) changed |= w != lab.width, lab.width = w;
        ImGui::EndCombo();
    }
    record_rect("width");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(100);
    if (ImGui::BeginCombo("scorer", std::string(scorer_name(lab.scorer)).c_str())) {
        for (Scorer s : scorers)
            if (ImGui::Selectable(std::string(scorer_name(s)).c_str(), s == lab.scorer)) changed |= s != lab.scorer, lab.scorer = s;
        ImGui::EndCombo();
    }
    record_rect("scorer");
    if (!narrow) ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    int seed = lab.seed;
    if (ImGui::InputInt("seed", &seed, 1, 10) && seed >= 0 && seed != lab.seed) lab.seed = seed, changed = true;
    record_rect("seed");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(narrow ? 110 : 130);
    int epochs = lab.epochs;
    if (ImGui::SliderInt("epochs", &epochs, 1, max_epochs) && epochs != lab.epochs) lab.epochs = epochs, changed = true;
    record_rect("epochs");
    // Beside the epochs if the line has room for it, else on a line of its own.
    constexpr float rate_width = 80;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < rate_width + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("learning rate").x)
        ImGui::NewLine();
    ImGui::SetNextItemWidth(rate_width);
    char shown[32];
    std::snprintf(shown, sizeof shown, "%g", lab.learning_rate);
    if (ImGui::BeginCombo("learning rate", shown)) {
        for (double rate : learning_rates) {
            std::snprintf(shown, sizeof shown, "%g", rate);
            if (ImGui::Selectable(shown, rate == lab.learning_rate)) changed |= rate != lab.learning_rate, lab.learning_rate = rate;
        }
        ImGui::EndCombo();
    }
    record_rect("learning-rate");
    if (changed) lab.build_live();  // new settings start new runs
}

// Made each time: the colours follow the page's theme.
PairLook look() { return {{"plain", "attention"}, {plain_color(), attention_color()}}; }

void ShowTraining(Lab& lab) {
    if (!lab.live.built()) lab.build_live();
    ShowSettings(lab);
    if (ShowPairButtons(lab.live)) lab.build_live();
    ShowPairProgress(lab.live);
    ShowPairCharts(lab.live, look());
    // Always one line here, so the figure keeps its height.
    if (!lab.training_note.empty())
        ImGui::TextWrapped("%s", lab.training_note.c_str());
    else if (lab.worker_count == 1)
        DimTextWrapped("Both models train in a Web Worker, a slice each in turn; the page only draws.");
    else
        DimTextWrapped("Both models train in Web Workers, one each; the page only draws.");
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

nlohmann::json state_json(Lab& lab) {
    if (!lab.live.built()) lab.build_live();
    const long examples = lab.live[0]->examples_seen() + lab.live[1]->examples_seen();
    return {
        {"running", lab.live.running()},
        {"width", lab.width},
        {"scorer", std::string(scorer_name(lab.scorer))},
        {"seed", lab.seed},
        {"epochs", lab.epochs},
        {"learning_rate", lab.learning_rate},
        {"runs", {pair_run_json(*lab.live[0], "plain"), pair_run_json(*lab.live[1], "attention")}},
        {"wall_seconds", lab.live.clock.ms() / 1000},
        {"examples_per_second", lab.live.clock.ms() > 0 ? examples / (lab.live.clock.ms() / 1000) : 0.0},
        {"workers", lab.worker_count},
        {"training_note", lab.training_note},
        {"shipped_error", lab.shipped_error},
    };
}

std::string text_alternative(Lab& lab) {
    if (!lab.live.built()) return "";
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", lab.learning_rate);
    std::string html = "<p>Width " + std::to_string(lab.width) + ", " + std::string(scorer_name(lab.scorer)) +
                       " scorer, seed " + std::to_string(lab.seed) + ", " + std::to_string(lab.epochs) + " epochs, learning rate " +
                       rate + ". " +
                       (lab.live.running() ? "Training." : lab.live[0]->steps() ? "Paused." : "Not started.") + "</p>";
    return html + pair_epochs_table(lab.live, look());
}

}  // namespace

FigureSpec training_figure(Lab& lab, TrainingState& state) {
    return {
        .name = "training",
        .show = [&lab] { ShowTraining(lab); },
        .state = [&lab] { return state_json(lab); },
        .text_alternative = [&lab] { return text_alternative(lab); },
        .fit_height = true,
        .url = &state.url,
    };
}

}  // namespace lb::web
