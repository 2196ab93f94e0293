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
#include "data/translation.h"

namespace lb::web {

struct PairLook {
    const char* names[2];  // "plain", "attention"
    ImU32 colors[2];
    bool aligned = true;   // the task's held-out pairs come with alignments (Lab::knows_alignment)
    bool bleu_asked = false;  // the reader asked for BLEU on a task of words (metrics.h's reports_bleu)
};

// Whether a run's held-out evaluations score a map (its model has attention and the task knows
// alignments) or BLEU (the translation, or words where the reader asked): the figure's extra
// charts and columns.
inline bool scores_map(const Run& run, const PairLook& look) {
    return look.aligned && model_kind(run.config().model.decoder).read_attention != nullptr;
}
inline bool scores_bleu(const Run& run, const PairLook& look) { return reports_bleu(*run.config().model.task, look.bleu_asked); }

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

    std::vector<float> exact[2], per_char[2], error_rate[2], aer[2], bleu[2];
    for (int k = 0; k < 2; ++k)
        for (const EpochRecord& e : pair[size_t(k)]->epochs()) {
            exact[k].push_back(e.exact), per_char[k].push_back(e.per_char), error_rate[k].push_back(e.token_error_rate);
            aer[k].push_back(e.aer), bleu[k].push_back(e.bleu);
        }
    const int epochs = a.config().epochs;
    const ScoreNames names = score_names(*b.config().model.task);
    const auto both = [&](std::vector<float>* values) {
        return std::vector<Series>{{values[0], look.colors[0], look.names[0], true}, {values[1], look.colors[1], look.names[1], true}};
    };
    // The held-out charts, two a row: exact match and per-token accuracy, the error rate by edit
    // distance, then where the maps look against the alignment the task knows, and BLEU.
    struct Chart {
        const char* id;
        std::string title;
        std::vector<Series> series;
        float top;
    };
    std::vector<Chart> charts = {{"exact", "held-out exact match", both(exact), 1},
                                 {"per-char", std::string("held-out ") + names.per_token + " accuracy (by position)", both(per_char), 1}};
    float top_rate = 1;  // an error rate passes 1 when the outputs hold more edits than the targets tokens
    for (int k = 0; k < 2; ++k)
        for (float r : error_rate[k])
            if (std::isfinite(r)) top_rate = std::max(top_rate, std::ceil(r * 2) / 2);
    charts.push_back({"error-rate", std::string("held-out ") + names.error_rate + " (edits; lower is better)", both(error_rate), top_rate});
    Chart aer_chart{"aer", "held-out alignment error rate (AER, lower is better)", {}, 1}, bleu_chart{"bleu", "held-out BLEU", {}, 1};
    for (int k = 0; k < 2; ++k) {
        if (scores_map(*pair[size_t(k)], look)) aer_chart.series.push_back({aer[k], look.colors[k], look.names[k], true});
        if (scores_bleu(*pair[size_t(k)], look)) bleu_chart.series.push_back({bleu[k], look.colors[k], look.names[k], true});
    }
    for (Chart* extra : {&aer_chart, &bleu_chart})
        if (!extra->series.empty()) charts.push_back(std::move(*extra));
    // Two a row only where every title fits its half: at 200 % zoom they overlapped.
    bool stacked = narrow;
    for (const Chart& c : charts) stacked |= ImGui::CalcTextSize(c.title.c_str()).x > (width - gap) / 2;
    const float plot_w = stacked ? width : (width - gap) / 2;
    bool apart = false;
    for (const Chart& c : charts) apart |= !stacked && !legend_fits(plot_w, c.title.c_str(), std::span<const Series>(c.series));
    for (size_t i = 0; i < charts.size(); ++i) {
        const Chart& c = charts[i];
        const bool alone = i + 1 == charts.size() && i % 2 == 0;  // the last of an odd count takes the row
        if (!stacked && i % 2 == 1) ImGui::SameLine();
        LinePlot(c.id, {alone && !stacked ? width : plot_w, 140}, std::span<const Series>(c.series), epochs, 0, c.top, c.title.c_str(),
                 "epoch", apart);
        record_rect(std::string(c.id) + "-plot");
    }

    for (int k = 0; k < 2; ++k) {
        const Run& run = *pair[size_t(k)];
        std::string line = std::string(look.names[k]) + " (" + grouped(parameter_count(run.config().model)) +
                           " parameters): step " + grouped(run.steps());
        if (run.steps() > 0) line += ", loss " + fixed(run.losses().back(), 3);
        if (!run.epochs().empty()) {
            const EpochRecord& e = run.epochs().back();
            line += ", exact " + fixed(e.exact, 4) + ", " + names.per_token + " " + fixed(e.per_char, 4) + ", " + names.short_rate +
                    " " + fixed(e.token_error_rate, 4);
            if (scores_bleu(run, look)) line += ", BLEU " + fixed(e.bleu, 4);
            if (scores_map(run, look)) line += ", AER " + fixed(e.aer, 4);
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
                          {"token_error_rate", std::isnan(e.token_error_rate) ? nlohmann::json(nullptr) : nlohmann::json(e.token_error_rate)},
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
    // Each run's columns: loss, exact, per-token, the error rate, then BLEU and AER where it has them.
    const auto columns = [&look](const Run& run) { return 4 + scores_bleu(run, look) + scores_map(run, look); };
    const ScoreNames names = score_names(*pair[1]->config().model.task);
    std::string html = "<table><thead><tr><th scope=\"col\">epoch</th>";
    for (int k = 0; k < 2; ++k) {
        const Run& run = *pair[size_t(k)];
        const std::string name = look.names[k];
        html += "<th scope=\"col\">" + name + " loss</th><th scope=\"col\">" + name + " exact</th><th scope=\"col\">" + name +
                " " + names.per_token + "</th><th scope=\"col\">" + name + " " + names.short_rate + "</th>";
        if (scores_bleu(run, look)) html += "<th scope=\"col\">" + name + " BLEU</th>";
        if (scores_map(run, look)) html += "<th scope=\"col\">" + name + " AER</th>";
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
            html += "<td>" + fixed(e.train_loss, 3) + "</td><td>" + fixed(e.exact, 4) + "</td><td>" + fixed(e.per_char, 4) + "</td><td>" +
                    fixed(e.token_error_rate, 4) + "</td>";
            if (scores_bleu(run, look)) html += "<td>" + fixed(e.bleu, 4) + "</td>";
            if (scores_map(run, look)) html += "<td>" + fixed(e.aer, 4) + "</td>";
        }
        html += "</tr>";
    }
    return html + "</tbody></table>";
}

}  // namespace lb::web
