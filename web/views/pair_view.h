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
#include "controls.h"
#include "figure.h"
#include "lab.h"

namespace lb::web {

struct PairLook {
    const char* names[2];  // "plain", "attention"
    ImU32 colors[2];
};

// Whether a run's held-out evaluations score a map (its model has attention) or BLEU (its task's
// tokens are words): the figure's extra chart and columns.
inline bool scores_map(const Run& run) { return model_kind(run.config().model.decoder).read_attention != nullptr; }
inline bool scores_bleu(const Run& run) { return run.config().model.task->output.words; }

// Train (or Resume), Pause, Step (one batch each, then pause) and Reset; true when Reset was
// clicked (the figure makes a new pair).
inline bool ShowPairButtons(RunPair& pair) {
    ImGui::BeginDisabled(pair.running() || pair.finished());
    if (Button(pair[0]->steps() > 0 ? "Resume###train" : "Train###train", "train")) pair.play();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!pair.running());
    if (Button("Pause", "pause")) pair.pause();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(pair.running() || pair.finished());
    if (Button("Step", "step", "Step one batch")) pair.step();
    ImGui::EndDisabled();
    ImGui::SameLine();
    return Button("Reset", "reset");
}

// Where the pair's training is: "Training.", "Paused.", "Done after 12 epochs.", for the figure's
// text alternative and, when it changes, a screen reader. Training lasts until the last epoch's
// held-out strings are decoded.
inline std::string pair_status(const RunPair& pair) {
    const bool evaluating = pair[0]->evaluating() || pair[1]->evaluating();
    if (pair.running() || (pair.finished() && evaluating)) return "Training.";
    if (pair.finished()) {
        if (pair[0]->failed() || pair[1]->failed()) return "Stopped.";
        const int epochs = pair[0]->config().epochs;
        return "Done after " + std::to_string(epochs) + (epochs == 1 ? " epoch." : " epochs.");
    }
    return pair[0]->steps() > 0 ? "Paused." : "Not started.";
}

// Said once for a screen reader when both runs finish an epoch: "epoch 3 of 12: plain 0.0000
// exact, attention 0.9100 exact"; and the start, pause and end of training (aria-busy alone is
// not spoken).
inline void AnnouncePairEpochs(const RunPair& pair, const PairLook& look) {
    if (pair.running() || pair[0]->evaluating() || pair[1]->evaluating()) mark_busy();
    if (const size_t done = std::min(pair[0]->epochs().size(), pair[1]->epochs().size()); done > 0) {
        std::string text = "epoch " + std::to_string(done) + " of " + std::to_string(pair[0]->config().epochs) + ":";
        for (int k = 0; k < 2; ++k)
            text += std::string(k ? ", " : " ") + look.names[k] + " " + fixed(pair[size_t(k)]->epochs()[done - 1].exact, 4) + " exact";
        announce_shown("epochs", text);
    }
    announce_shown("status", pair_status(pair), true);
}

inline std::string pair_progress_text(const RunPair& pair, double fraction) {
    const Run& b = *pair[1];
    const long examples = pair[0]->examples_seen() + b.examples_seen();
    std::string text = "epoch " + std::to_string(std::min(b.epoch() + 1, b.config().epochs)) + " of " +
                       std::to_string(b.config().epochs) + " \u00b7 " + std::to_string(int(fraction * 100)) + "%";
    if (pair.clock.ms() > 500 && examples > 0) {
        const double seconds = pair.clock.ms() / 1000;
        text += " \u00b7 " + grouped(long(examples / seconds)) + " examples/s";
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
    // For a screen reader, in whole percents: its value does not change with every batch.
    const int percent = int(fraction * 100);
    const int epochs = pair[1]->config().epochs, epoch = std::min(pair[1]->epoch() + 1, epochs);
    describe({.id = "progress", .role = Role::progressbar, .name = "training progress",
              .value_text = fraction >= 1 ? "done" : "epoch " + std::to_string(epoch) + " of " + std::to_string(epochs) + ", " +
                                                        std::to_string(percent) + "%",
              .value = double(percent), .min = 0, .max = 100});
}

// The loss per step, exact and per-character per epoch, and a line per run.
inline void ShowPairCharts(const RunPair& pair, const PairLook& look) {
    AnnouncePairEpochs(pair, look);
    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 560;
    const Run &a = *pair[0], &b = *pair[1];
    // Loss per step: cross-entropy starts near ln V, a guess among the task's output symbols.
    float top = 0.5f;
    for (const Run* run : {&a, &b})
        for (float l : run->losses()) top = std::max(top, std::ceil(l * 2) / 2);
    const Series losses[] = {{a.losses(), look.colors[0], look.names[0]}, {b.losses(), look.colors[1], look.names[1]}};
    const int steps = int(std::max(a.steps(), b.steps()));
    const int steps_total = a.config().epochs * batches_per_epoch(a.config().model.task->train_size, a.config().batch_size);
    LinePlot("loss", {width, narrow ? 150.0f : 170.0f}, losses, std::max(steps, std::min(steps_total, 50)), 0, top,
             narrow ? "training loss, every batch" : "training loss (cross-entropy per token), every batch", "step");
    record_rect("loss-plot");

    std::vector<float> exact[2], per_char[2], aer[2], bleu[2];
    for (int k = 0; k < 2; ++k)
        for (const EpochRecord& e : pair[size_t(k)]->epochs())
            exact[k].push_back(e.exact), per_char[k].push_back(e.per_char), aer[k].push_back(e.aer), bleu[k].push_back(e.bleu);
    const int epochs = a.config().epochs;
    const Series exact_series[] = {{exact[0], look.colors[0], look.names[0], true}, {exact[1], look.colors[1], look.names[1], true}};
    const Series char_series[] = {{per_char[0], look.colors[0], look.names[0], true}, {per_char[1], look.colors[1], look.names[1], true}};
    const float plot_w = narrow ? width : (width - gap) / 2;
    const char* exact_title = "held-out exact match";
    const char* char_title = b.config().model.task->output.words ? "held-out per-word accuracy" : "held-out per-character accuracy";
    const bool apart = !narrow && (!legend_fits(plot_w, exact_title, std::span<const Series>(exact_series)) ||
                                   !legend_fits(plot_w, char_title, std::span<const Series>(char_series)));
    LinePlot("exact", {plot_w, 140}, exact_series, epochs, 0, 1, exact_title, "epoch", apart);
    record_rect("exact-plot");
    if (!narrow) ImGui::SameLine();
    LinePlot("per-char", {plot_w, 140}, char_series, epochs, 0, 1, char_title, "epoch", apart);
    record_rect("per-char-plot");
    // Where the maps look, against the alignment the task knows (lower is better), and BLEU for words.
    std::vector<Series> aer_series, bleu_series;
    for (int k = 0; k < 2; ++k) {
        if (scores_map(*pair[size_t(k)])) aer_series.push_back({aer[k], look.colors[k], look.names[k], true});
        if (scores_bleu(*pair[size_t(k)])) bleu_series.push_back({bleu[k], look.colors[k], look.names[k], true});
    }
    const float second_w = aer_series.empty() || bleu_series.empty() ? width : plot_w;
    if (!aer_series.empty()) {
        LinePlot("aer", {second_w, 140}, std::span<const Series>(aer_series), epochs, 0, 1,
                 "held-out alignment error rate (AER, lower is better)", "epoch", apart);
        record_rect("aer-plot");
    }
    if (!bleu_series.empty()) {
        if (!narrow && !aer_series.empty()) ImGui::SameLine();
        LinePlot("bleu", {second_w, 140}, std::span<const Series>(bleu_series), epochs, 0, 1, "held-out BLEU", "epoch", apart);
        record_rect("bleu-plot");
    }

    for (int k = 0; k < 2; ++k) {
        const Run& run = *pair[size_t(k)];
        std::string line = std::string(look.names[k]) + " (" + grouped(parameter_count(run.config().model)) +
                           " parameters): step " + grouped(run.steps());
        if (run.steps() > 0) line += ", loss " + fixed(run.losses().back(), 3);
        if (!run.epochs().empty()) {
            const EpochRecord& e = run.epochs().back();
            line += ", exact " + fixed(e.exact, 4) + (scores_bleu(run) ? ", per-word " : ", per-char ") + fixed(e.per_char, 4);
            if (scores_bleu(run)) line += ", BLEU " + fixed(e.bleu, 4);
            if (scores_map(run)) line += ", AER " + fixed(e.aer, 4);
        }
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
        epochs.push_back({{"epoch", e.epoch}, {"loss", e.train_loss}, {"exact", e.exact}, {"per_char", e.per_char},
                          {"aer", std::isnan(e.aer) ? nlohmann::json(nullptr) : nlohmann::json(e.aer)},
                          {"bleu", std::isnan(e.bleu) ? nlohmann::json(nullptr) : nlohmann::json(e.bleu)}});
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
    // Each run's columns: loss, exact, per-token, then BLEU and AER where it has them.
    const auto columns = [](const Run& run) { return 3 + scores_bleu(run) + scores_map(run); };
    std::string html = "<table><thead><tr><th scope=\"col\">epoch</th>";
    for (int k = 0; k < 2; ++k) {
        const Run& run = *pair[size_t(k)];
        const std::string name = look.names[k];
        html += "<th scope=\"col\">" + name + " loss</th><th scope=\"col\">" + name + " exact</th><th scope=\"col\">" + name +
                (scores_bleu(run) ? " per-word" : " per-char") + "</th>";
        if (scores_bleu(run)) html += "<th scope=\"col\">" + name + " BLEU</th>";
        if (scores_map(run)) html += "<th scope=\"col\">" + name + " AER</th>";
    }
    html += "</tr></thead><tbody>";
    const auto &p = pair[0]->epochs(), &a = pair[1]->epochs();
    for (size_t i = 0; i < std::max(p.size(), a.size()); ++i) {
        html += "<tr><th scope=\"row\">" + std::to_string(i + 1) + "</th>";
        for (int k = 0; k < 2; ++k) {
            const Run& run = *pair[size_t(k)];
            const auto& list = run.epochs();
            if (i >= list.size()) {
                for (int c = 0; c < columns(run); ++c) html += "<td></td>";
                continue;
            }
            const EpochRecord& e = list[i];
            html += "<td>" + fixed(e.train_loss, 3) + "</td><td>" + fixed(e.exact, 4) + "</td><td>" + fixed(e.per_char, 4) + "</td>";
            if (scores_bleu(run)) html += "<td>" + fixed(e.bleu, 4) + "</td>";
            if (scores_map(run)) html += "<td>" + fixed(e.aer, 4) + "</td>";
        }
        html += "</tr>";
    }
    return html + "</tbody></table>";
}

}  // namespace lb::web
