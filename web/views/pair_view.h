// web/views/pair_view.h — two runs trained side by side (lab.h's RunPair), as the training
// figure and the Transformer figure show them: Train/Pause/Step/Reset, a progress bar with the
// examples per second and the time left, the loss of every step, the held-out exact match and
// per-character accuracy after every epoch, one line per run; and the same as state JSON and
// as a text table. Each figure names and colours its two runs (PairLook). Inline: used by
// several figure files.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "charts.h"
#include "figure.h"
#include "lab.h"

namespace lb::web {

struct PairLook {
    const char* names[2];  // "plain", "attention"
    ImU32 colors[2];
};

// Steps in one epoch: the training split in batches (the last one partial).
inline int batches_per_epoch(const TrainerConfig& config) {
    return (train_split_size + config.batch_size - 1) / config.batch_size;
}

// Train (or Resume), Pause, Step (one batch each, then pause) and Reset; true when Reset was
// clicked (the figure makes a new pair).
inline bool ShowPairButtons(RunPair& pair) {
    ImGui::BeginDisabled(pair.running() || pair.finished());
    if (ImGui::Button(pair[0]->steps() > 0 ? "Resume" : "Train")) pair.play();
    record_rect("train");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!pair.running());
    if (ImGui::Button("Pause")) pair.pause();
    record_rect("pause");
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(pair.running() || pair.finished());
    if (ImGui::Button("Step")) pair.step();
    record_rect("step");
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool reset = ImGui::Button("Reset");
    record_rect("reset");
    return reset;
}

inline std::string pair_progress_text(const RunPair& pair, double fraction) {
    const Run& b = *pair[1];
    const long examples = pair[0]->examples_seen() + b.examples_seen();
    std::string text = "epoch " + std::to_string(std::min(b.epoch() + 1, b.config().epochs)) + " of " +
                       std::to_string(b.config().epochs) + " \u00b7 " + std::to_string(int(fraction * 100)) + "%";
    if (pair.clock.ms() > 500 && examples > 0) {
        const double seconds = pair.clock.ms() / 1000;
        text += " \u00b7 " + thousands(long(examples / seconds)) + " examples/s";
        if (fraction > 0.002 && fraction < 1) text += " \u00b7 " + minutes_seconds(seconds * (1 - fraction) / fraction) + " left";
    }
    if (fraction >= 1) text += " \u00b7 done";
    return text;
}

// The progress bar, beside the buttons when the line has room.
inline void ShowPairProgress(const RunPair& pair) {
    if (ImGui::GetContentRegionAvail().x >= 560) ImGui::SameLine();  // a phone: a line of its own
    const double fraction = (pair[0]->fraction_done() + pair[1]->fraction_done()) / 2;
    ImGui::ProgressBar(float(fraction), {-1, 0}, pair_progress_text(pair, fraction).c_str());
    record_rect("progress");
}

// The loss per step, exact and per-character per epoch, and a line per run.
inline void ShowPairCharts(const RunPair& pair, const PairLook& look) {
    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 560;
    const Run &a = *pair[0], &b = *pair[1];
    // Loss per step: cross-entropy starts near ln 13 ≈ 2.56 (a guess among 13 symbols).
    float top = 0.5f;
    for (const Run* run : {&a, &b})
        for (float l : run->losses()) top = std::max(top, std::ceil(l * 2) / 2);
    const Series losses[] = {{a.losses(), look.colors[0], look.names[0]}, {b.losses(), look.colors[1], look.names[1]}};
    const int steps = int(std::max(a.steps(), b.steps()));
    const int steps_total = a.config().epochs * batches_per_epoch(a.config());
    LinePlot("loss", {width, narrow ? 150.0f : 170.0f}, losses, std::max(steps, std::min(steps_total, 50)), 0, top,
             narrow ? "training loss, every batch" : "training loss (cross-entropy per character), every batch", "step");
    record_rect("loss-plot");

    std::vector<float> exact[2], per_char[2];
    for (int k = 0; k < 2; ++k)
        for (const EpochRecord& e : pair[size_t(k)]->epochs()) exact[k].push_back(e.exact), per_char[k].push_back(e.per_char);
    const int epochs = a.config().epochs;
    const Series exact_series[] = {{exact[0], look.colors[0], look.names[0], true}, {exact[1], look.colors[1], look.names[1], true}};
    const Series char_series[] = {{per_char[0], look.colors[0], look.names[0], true}, {per_char[1], look.colors[1], look.names[1], true}};
    const float plot_w = narrow ? width : (width - gap) / 2;
    const char* exact_title = "held-out exact match";
    const char* char_title = "held-out per-character accuracy";
    const bool apart = !narrow && (!legend_fits(plot_w, exact_title, std::span<const Series>(exact_series)) ||
                                   !legend_fits(plot_w, char_title, std::span<const Series>(char_series)));
    LinePlot("exact", {plot_w, 140}, exact_series, epochs, 0, 1, exact_title, "epoch", apart);
    record_rect("exact-plot");
    if (!narrow) ImGui::SameLine();
    LinePlot("per-char", {plot_w, 140}, char_series, epochs, 0, 1, char_title, "epoch", apart);
    record_rect("per-char-plot");

    for (int k = 0; k < 2; ++k) {
        const Run& run = *pair[size_t(k)];
        std::string line = std::string(look.names[k]) + " (" + thousands(parameter_count(run.config().model)) +
                           " parameters): step " + thousands(run.steps());
        if (run.steps() > 0) line += ", loss " + fixed(run.losses().back(), 3);
        if (!run.epochs().empty())
            line += ", exact " + fixed(run.epochs().back().exact, 4) + ", per-char " + fixed(run.epochs().back().per_char, 4);
        if (run.evaluating()) line += " (decoding the held-out strings)";
        if (run.failed()) line += ". Stopped: " + run.message();
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(look.colors[k]));
        WrappedText("%s", line.c_str());
        ImGui::PopStyleColor();
    }
}

// One run for window.lookback.state: the first and last five losses, every epoch.
inline nlohmann::json pair_run_json(const Run& run, const char* name) {
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
        {"model", name},
        {"width", run.config().model.H},
        {"parameters", parameter_count(run.config().model)},
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

// Every finished epoch of both runs as an HTML table (the figures' text alternatives).
inline std::string pair_epochs_table(const RunPair& pair, const PairLook& look) {
    std::string html = "<table><thead><tr><th scope=\"col\">epoch</th>";
    for (const char* name : look.names)
        html += std::string("<th scope=\"col\">") + name + " loss</th><th scope=\"col\">" + name + " exact</th><th scope=\"col\">" +
                name + " per-char</th>";
    html += "</tr></thead><tbody>";
    const auto &p = pair[0]->epochs(), &a = pair[1]->epochs();
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

}  // namespace lb::web
