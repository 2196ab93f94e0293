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

#include "charts.h"
#include "lesson2.h"
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
constexpr int batches_per_epoch = (6000 + 63) / 64;  // the training split in batches of 64

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

void ShowButtons(Lab& lab) {
    const auto over = [](const Run& r) { return r.done() || r.failed(); };
    const bool finished = over(*lab.live[0]) && over(*lab.live[1]);
    ImGui::BeginDisabled(lab.live_running() || finished);
    if (ImGui::Button(lab.live[0]->steps() > 0 ? "Resume" : "Train")) lab.play_live();
    record_rect("train");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!lab.live_running());
    if (ImGui::Button("Pause")) lab.pause_live();
    record_rect("pause");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(lab.live_running() || finished);
    if (ImGui::Button("Step")) lab.step_live();  // one more batch for each model, then pause
    record_rect("step");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Reset")) lab.build_live();
    record_rect("reset");
}

std::string progress_text(const Lab& lab, double fraction) {
    const Run& a = *lab.live[1];
    const long examples = lab.live[0]->examples_seen() + a.examples_seen();
    std::string text = "epoch " + std::to_string(std::min(a.epoch() + 1, a.config().epochs)) + " of " +
                       std::to_string(a.config().epochs) + " \u00b7 " + std::to_string(int(fraction * 100)) + "%";
    if (lab.live_clock.ms() > 500 && examples > 0) {
        const double seconds = lab.live_clock.ms() / 1000;
        text += " \u00b7 " + thousands(long(examples / seconds)) + " examples/s";
        if (fraction > 0.002 && fraction < 1) text += " \u00b7 " + minutes_seconds(seconds * (1 - fraction) / fraction) + " left";
    }
    if (fraction >= 1) text += " \u00b7 done";
    return text;
}

void ShowTraining(Lab& lab) {
    if (!lab.live[0]) lab.build_live();
    const LessonColors& col = lesson_colors();
    ShowSettings(lab);
    ShowButtons(lab);
    if (ImGui::GetContentRegionAvail().x >= 560) ImGui::SameLine();  // a phone: a line of its own
    const double fraction = (lab.live[0]->fraction_done() + lab.live[1]->fraction_done()) / 2;
    ImGui::ProgressBar(float(fraction), {-1, 0}, progress_text(lab, fraction).c_str());
    record_rect("progress");

    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 560;
    const Run &plain = *lab.live[0], &attention = *lab.live[1];
    // Loss per step: cross-entropy starts near ln 13 ≈ 2.56 (a guess among 13 symbols).
    float top = 0.5f;
    for (const Run* run : {&plain, &attention})
        for (float l : run->losses()) top = std::max(top, std::ceil(l * 2) / 2);
    const Series losses[] = {{plain.losses(), plain_color(), "plain"}, {attention.losses(), attention_color(), "attention"}};
    const int steps = int(std::max(plain.steps(), attention.steps()));
    const int steps_total = plain.config().epochs * batches_per_epoch;
    LinePlot("loss", {width, narrow ? 150.0f : 170.0f}, losses, std::max(steps, std::min(steps_total, 50)), 0, top,
             narrow ? "training loss, every batch" : "training loss (cross-entropy per character), every batch", "step");
    record_rect("loss-plot");

    std::vector<float> exact[2], per_char[2];
    for (int k = 0; k < 2; ++k)
        for (const EpochRecord& e : lab.live[size_t(k)]->epochs()) exact[k].push_back(e.exact), per_char[k].push_back(e.per_char);
    const int epochs = plain.config().epochs;
    const Series exact_series[] = {{exact[0], plain_color(), "plain", true}, {exact[1], attention_color(), "attention", true}};
    const Series char_series[] = {{per_char[0], plain_color(), "plain", true}, {per_char[1], attention_color(), "attention", true}};
    const float plot_w = narrow ? width : (width - gap) / 2;
    LinePlot("exact", {plot_w, 140}, exact_series, epochs, 0, 1, "held-out exact match", "epoch");
    record_rect("exact-plot");
    if (!narrow) ImGui::SameLine();
    LinePlot("per-char", {plot_w, 140}, char_series, epochs, 0, 1, "held-out per-character accuracy", "epoch");
    record_rect("per-char-plot");

    for (int k = 0; k < 2; ++k) {
        const Run& run = *lab.live[size_t(k)];
        const ModelConfig& c = run.config().model;
        std::string line = std::string(k ? "attention" : "plain") + " (" + thousands(parameter_count(c)) + " parameters): step " +
                           thousands(run.steps());
        if (run.steps() > 0) line += ", loss " + fixed(run.losses().back(), 3);
        if (!run.epochs().empty())
            line += ", exact " + fixed(run.epochs().back().exact, 4) + ", per-char " + fixed(run.epochs().back().per_char, 4);
        if (run.evaluating()) line += " (decoding the held-out strings)";
        if (run.failed()) line += ". Stopped: " + run.message();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(k ? attention_color() : col.text));
        ImGui::TextWrapped("%s", line.c_str());
        ImGui::PopStyleColor();
    }
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

nlohmann::json run_json(const Run& run) {
    const auto& l = run.losses();
    auto mean = [&](size_t from, size_t to) {
        double s = 0;
        for (size_t i = from; i < to; ++i) s += l[i];
        return to > from ? s / double(to - from) : NAN;
    };
    const size_t n = l.size(), k = std::min<size_t>(5, n);
    nlohmann::json epochs = nlohmann::json::array();
    for (const EpochRecord& e : run.epochs())
        epochs.push_back({{"epoch", e.epoch}, {"loss", e.train_loss}, {"exact", e.exact}, {"per_char", e.per_char}});
    return {
        {"model", run.config().model.decoder == DecoderKind::plain ? "plain" : "attention"},
        {"width", run.config().model.H},
        {"steps", run.steps()},
        {"examples", run.examples_seen()},
        {"epoch", run.epoch()},
        {"done", run.done()},
        {"fraction", run.fraction_done()},
        {"loss_first", mean(0, k)},      // mean of the first five steps
        {"loss_recent", mean(n - k, n)}, // mean of the last five
        {"epochs", epochs},
        {"busy_examples_per_second", run.examples_per_second()},
        {"failed", run.failed() ? nlohmann::json(run.message()) : nlohmann::json(nullptr)},
    };
}

nlohmann::json state_json(Lab& lab) {
    if (!lab.live[0]) lab.build_live();
    const long examples = lab.live[0]->examples_seen() + lab.live[1]->examples_seen();
    return {
        {"running", lab.live_running()},
        {"width", lab.width},
        {"scorer", std::string(scorer_name(lab.scorer))},
        {"seed", lab.seed},
        {"epochs", lab.epochs},
        {"learning_rate", lab.learning_rate},
        {"runs", {run_json(*lab.live[0]), run_json(*lab.live[1])}},
        {"wall_seconds", lab.live_clock.ms() / 1000},
        {"examples_per_second", lab.live_clock.ms() > 0 ? examples / (lab.live_clock.ms() / 1000) : 0.0},
        {"workers", lab.worker_count},
        {"training_note", lab.training_note},
        {"shipped_error", lab.shipped_error},
    };
}

std::string text_alternative(Lab& lab) {
    if (!lab.live[0]) return "";
    char rate[32];
    std::snprintf(rate, sizeof rate, "%g", lab.learning_rate);
    std::string html = "<p>Width " + std::to_string(lab.width) + ", " + std::string(scorer_name(lab.scorer)) +
                       " scorer, seed " + std::to_string(lab.seed) + ", " + std::to_string(lab.epochs) + " epochs, learning rate " +
                       rate + ". " +
                       (lab.live_running() ? "Training." : lab.live[0]->steps() ? "Paused." : "Not started.") + "</p>";
    html += "<table><thead><tr><th scope=\"col\">epoch</th><th scope=\"col\">plain loss</th><th scope=\"col\">plain exact</th>"
            "<th scope=\"col\">plain per-char</th><th scope=\"col\">attention loss</th><th scope=\"col\">attention exact</th>"
            "<th scope=\"col\">attention per-char</th></tr></thead><tbody>";
    const auto &p = lab.live[0]->epochs(), &a = lab.live[1]->epochs();
    for (size_t i = 0; i < std::max(p.size(), a.size()); ++i) {
        html += "<tr><th scope=\"row\">" + std::to_string(i + 1) + "</th>";
        for (const auto* list : {&p, &a}) {
            if (i < list->size())
                html += "<td>" + fixed((*list)[i].train_loss, 3) + "</td><td>" + fixed((*list)[i].exact, 4) + "</td><td>" +
                        fixed((*list)[i].per_char, 4) + "</td>";
            else
                html += "<td></td><td></td><td></td>";
        }
        html += "</tr>";
    }
    return html + "</tbody></table>";
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
