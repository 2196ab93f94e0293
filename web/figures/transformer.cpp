// web/figures/transformer.cpp — the Transformer section's two figures.
//
// "transformer-training": one-layer Transformers whose decoder reads only the first encoder
// state (memory first) or every one (memory all), trained side by side from scratch in workers,
// with the training figure's controls and charts (pair_view.h). The reader picks the width, the
// heads, the seed and the epochs; both use the trainer's one setting (Adam at 1e-3). URL: tf.*.
//
// "transformer-maps": for the lesson's date or a typed one, the cross-attention of the shipped
// Transformer (or the one trained above) as the GRU alignment figure draws it (map_view.h): mean
// over heads or one head, click an output character for its bars, hover for a weight; below it
// the encoder's self-attention over the same string, each input position's weights over the
// others. URL: tm.*.
//
// Legend: T output characters (10), S input characters, A heads.
//
// [SECTION] Training: settings, URL, drawing, state
// [SECTION] Maps: computing, URL, drawing, state
#include <algorithm>
#include <cstdio>
#include <span>
#include <string>

#include <imgui.h>

#include "lesson2.h"
#include "map_view.h"
#include "pair_view.h"
#include "url_setting.h"
#include "text/text.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Training: settings, URL, drawing, state
//-----------------------------------------------------------------------------------------------

namespace {

const int transformer_widths[] = {16, 32, 64};  // 8 heads need a width of 8 at least; 8 units learn nothing
const int transformer_head_counts[] = {1, 2, 4, 8};
constexpr int max_transformer_epochs = 30;

// Made each time: the colours follow the page's theme. First is the bottleneck, drawn as the
// plain GRU model is; all as the attention model.
PairLook transformer_look() { return {{"first state", "all states"}, {plain_color(), attention_color()}}; }

}  // namespace

TransformerTrainingState::TransformerTrainingState(Lab& lab) {
    url.integer_in("width", lab.transformer_width, {std::begin(transformer_widths), std::end(transformer_widths)})
        .integer_in("heads", lab.transformer_heads, {std::begin(transformer_head_counts), std::end(transformer_head_counts)})
;
    // A run's settings: the schema's bounds and words (io/run_settings.h), epochs up to the slider's.
    url_setting(url, "seed", lab.transformer_seed, "seed");
    url_setting(url, "epochs", lab.transformer_epochs, "epochs", max_transformer_epochs);
}

namespace {

void ShowTransformerSettings(Lab& lab) {
    bool changed = false;
    ImGui::SetNextItemWidth(70);
    if (ImGui::BeginCombo("width", std::to_string(lab.transformer_width).c_str())) {
        for (int w : transformer_widths)
            if (ImGui::Selectable(std::to_string(w).c_str(), w == lab.transformer_width))
                changed |= w != lab.transformer_width, lab.transformer_width = w;
        ImGui::EndCombo();
    }
    record_rect("width");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(60);
    if (ImGui::BeginCombo("heads", std::to_string(lab.transformer_heads).c_str())) {
        for (int h : transformer_head_counts)
            if (ImGui::Selectable(std::to_string(h).c_str(), h == lab.transformer_heads))
                changed |= h != lab.transformer_heads, lab.transformer_heads = h;
        ImGui::EndCombo();
    }
    record_rect("heads");
    if (ImGui::GetContentRegionAvail().x >= 560) ImGui::SameLine();
    ImGui::SetNextItemWidth(90);
    int seed = lab.transformer_seed;
    if (ImGui::InputInt("seed", &seed, 1, 10) && seed >= 0 && seed != lab.transformer_seed)
        lab.transformer_seed = seed, changed = true;
    record_rect("seed");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    int epochs = lab.transformer_epochs;
    if (ImGui::SliderInt("epochs", &epochs, 1, max_transformer_epochs) && epochs != lab.transformer_epochs)
        lab.transformer_epochs = epochs, changed = true;
    record_rect("epochs");
    if (changed) lab.build_transformers();  // new settings start new runs
}

void ShowTransformerTraining(Lab& lab) {
    if (!lab.transformers.built()) lab.build_transformers();
    ShowTransformerSettings(lab);
    if (ShowPairButtons(lab.transformers)) lab.build_transformers();
    ShowPairProgress(lab.transformers);
    ShowPairCharts(lab.transformers, transformer_look());
    if (!lab.training_note.empty()) WrappedText("%s", lab.training_note.c_str());
    else DimTextWrapped("Both Transformers train in Web Workers with Adam at a learning rate of 0.001, as the GRU models do.");
}

nlohmann::json training_state_json(Lab& lab) {
    if (!lab.transformers.built()) lab.build_transformers();
    return {
        {"running", lab.transformers.running()},
        {"width", lab.transformer_width},
        {"heads", lab.transformer_heads},
        {"seed", lab.transformer_seed},
        {"epochs", lab.transformer_epochs},
        {"runs", {pair_run_json(*lab.transformers[0], "transformer-first"), pair_run_json(*lab.transformers[1], "transformer-all")}},
        {"wall_seconds", lab.transformers.clock.ms() / 1000},
    };
}

std::string training_text(Lab& lab) {
    if (!lab.transformers.built()) return "";
    return "<p>Width " + std::to_string(lab.transformer_width) + ", " + std::to_string(lab.transformer_heads) + " heads, seed " +
           std::to_string(lab.transformer_seed) + ", " + std::to_string(lab.transformer_epochs) + " epochs. " +
           (lab.transformers.running() ? "Training." : lab.transformers[0]->steps() ? "Paused." : "Not started.") + "</p>" +
           pair_epochs_table(lab.transformers, transformer_look());
}

}  // namespace

FigureSpec transformer_training_figure(Lab& lab, TransformerTrainingState& state) {
    return {
        .name = "transformer-training",
        .show = [&lab] { ShowTransformerTraining(lab); },
        .state = [&lab] { return training_state_json(lab); },
        .text_alternative = [&lab] { return training_text(lab); },
        .fit_height = true,
        .url = &state.url,
    };
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Maps: computing, URL, drawing, state
//-----------------------------------------------------------------------------------------------

namespace {

std::string lesson_date() { return format_date(1977, 9, 19, 1).input; }  // the lesson's example

// The trained-here Transformer once it has finished an epoch, if asked for; else the shipped.
const Run* live_run(const Lab& lab, bool memory_all) {
    const Run* run = lab.transformers.built() ? lab.transformers[memory_all ? 1 : 0].get() : nullptr;
    return run && run->epoch() > 0 && run->model() ? run : nullptr;
}
const Model* maps_model(const Lab& lab, const TransformerMapsState& st) {
    if (st.use_live) return live_run(lab, st.memory_all)->model();
    const auto& shipped = lab.shipped_transformers[st.memory_all ? 1 : 0];
    return shipped ? &*shipped : nullptr;
}

void refresh_maps(Lab& lab, TransformerMapsState& st) {
    if (normalise_user_input(st.typed.date) != st.typed.date) st.typed.take(st.typed.date, "");  // a link's date
    if (st.use_live && !live_run(lab, st.memory_all)) st.use_live = false;
    const Model* model = maps_model(lab, st);
    if (!model) return;
    const Run* live = st.use_live ? live_run(lab, st.memory_all) : nullptr;
    const std::string key = st.typed.date + "|" + std::to_string(reinterpret_cast<uintptr_t>(model)) + "|" +
                            (live ? std::to_string(live->epoch()) : "shipped");
    if (key == st.computed_for) return;
    st.computed_for = key;
    const Decoded d = decode_tokens(encode_input(st.typed.date), *model);
    const int A = int(d.heads.shape()[0]), T = output_length, S = int(st.typed.date.size());
    st.output = d.output;
    st.heads = A;
    st.cross_mean.assign(d.attention.begin(), d.attention.end());
    st.cross_heads.assign(d.heads.begin(), d.heads.end());
    st.self_heads.assign(d.encoder_self_attention.begin(), d.encoder_self_attention.end());
    st.self_mean.assign(size_t(S * S), 0.0f);
    for (int h = 0; h < A; ++h)
        for (int i = 0; i < S * S; ++i) st.self_mean[size_t(i)] += st.self_heads[size_t(h * S * S + i)] / float(A);
    const std::string memory = st.memory_all ? "all states" : "the first state only";
    st.model_label = live ? "the Transformer reading " + memory + " trained in this page (epoch " + std::to_string(live->epoch()) + ")"
                          : "the shipped Transformer reading " + memory + " (" + lab.shipped_transformer_info[st.memory_all ? 1 : 0] + ")";
    st.head = std::clamp(st.head, 0, A);
    st.selected_output = std::clamp(st.selected_output, 0, T - 1);
    st.selected_input = std::clamp(st.selected_input, 0, S - 1);
}

// The matrix shown for the chosen head: [rows, S] of the mean or of head st.head.
std::span<const float> shown(const TransformerMapsState& st, const std::vector<float>& mean, const std::vector<float>& heads) {
    if (st.head == 0) return mean;
    return std::span<const float>(heads).subspan(size_t(st.head - 1) * mean.size(), mean.size());
}
std::span<const float> row_of(std::span<const float> matrix, int row, int S) { return matrix.subspan(size_t(row * S), size_t(S)); }

}  // namespace

TransformerMapsState::TransformerMapsState() : typed(lesson_date()) {
    typed.bind(url);
    url.choice("memory", memory_all, {{"all", true}, {"first", false}})
        .choice("model", use_live, {{"shipped", false}, {"page", true}})
        .integer("head", head, 0, 8)
        .integer("row", selected_output, 0, output_length - 1)
        .integer("in", selected_input, 0, int(sizeof typed.field) - 2);
}

namespace {

void ShowMapsPicker(Lab& lab, TransformerMapsState& st) {
    const char* stays = "The maps below are still the last ones.";
    const float avail = ImGui::GetContentRegionAvail().x;
    if (st.typed.ShowField(avail)) st.typed.take(st.typed.field, stays);
    const char* lesson_label = "lesson's date";
    SameLineIfRoom(ImGui::CalcTextSize(lesson_label).x + 2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Button(lesson_label)) st.typed.take(lesson_date(), stays);
    record_rect("lesson-date");

    int memory = st.memory_all ? 1 : 0;
    ImGui::RadioButton("all states", &memory, 1);
    record_rect("memory-all");
    ImGui::SameLine();
    ImGui::RadioButton("first state", &memory, 0);
    record_rect("memory-first");
    st.memory_all = memory == 1;
    if (avail >= 560) ImGui::SameLine(0, 24);
    ImGui::BeginDisabled(!live_run(lab, st.memory_all));
    int source = st.use_live ? 1 : 0;
    ImGui::RadioButton("shipped model", &source, 0);
    record_rect("model-shipped");
    ImGui::SameLine();
    ImGui::RadioButton("trained here", &source, 1);
    record_rect("model-live");
    ImGui::EndDisabled();
    st.use_live = source == 1;
    st.typed.ShowMessage();
}

void ShowHeadPicker(TransformerMapsState& st) {
    ImGui::TextUnformatted("heads:");
    ImGui::SameLine();
    for (int h = 0; h <= st.heads; ++h) {
        if (h > 0) ImGui::SameLine();
        const std::string label = h == 0 ? "mean" : std::to_string(h);
        ImGui::RadioButton(label.c_str(), &st.head, h);
        record_rect("head-" + std::to_string(h));
    }
}

void ShowMaps(Lab& lab, TransformerMapsState& st) {
    ShowMapsPicker(lab, st);
    refresh_maps(lab, st);
    if (st.output.empty()) {
        ImGui::TextDisabled("%s", lab.shipped_transformer_error.empty() ? "Loading the shipped Transformers\u2026"
                                                                        : lab.shipped_transformer_error.c_str());
        return;
    }
    const int S = int(st.typed.date.size());
    const float width = ImGui::GetContentRegionAvail().x;
    const float map_w = std::min(width, 26.0f * float(S) + map_label_w);
    const auto cross = shown(st, st.cross_mean, st.cross_heads);
    const auto self = shown(st, st.self_mean, st.self_heads);
    WrappedText("%s writes %s.", st.model_label.c_str(), st.output.c_str());
    ShowHeadPicker(st);

    WrappedText("Cross-attention: each output character (down) over the input (across)");
    ShowWeightMap({"map", "out-", "output"}, st.output, st.typed.date, cross, st.selected_output, map_w);
    const auto bars = row_of(cross, st.selected_output, S);
    const Peak peak = row_peak(bars);
    float sum = 0;
    for (float w : bars) sum += w;
    WrappedText("Output %d, '%c' (its query carries %s): weights over the input sum to %.4f; the peak is input %d, %s, at %.3f.",
                       st.selected_output, st.output[size_t(st.selected_output)],
                       st.selected_output == 0 ? "the start token" : ("'" + std::string(1, st.output[size_t(st.selected_output - 1)]) + "'").c_str(),
                       sum, peak.position, quoted(st.typed.date[size_t(peak.position)]).c_str(), peak.weight);
    ShowWeightBars("bars", st.typed.date, bars, map_w);

    ImGui::Spacing();
    WrappedText("The encoder's self-attention: each input character (down) over the input (across)");
    ShowWeightMap({"self-map", "in-", "input"}, st.typed.date, st.typed.date, self, st.selected_input, map_w);
    const auto self_bars = row_of(self, st.selected_input, S);
    const Peak self_peak = row_peak(self_bars);
    WrappedText("Input %d, %s: the peak is input %d, %s, at %.3f.", st.selected_input,
                       quoted(st.typed.date[size_t(st.selected_input)]).c_str(), self_peak.position,
                       quoted(st.typed.date[size_t(self_peak.position)]).c_str(), self_peak.weight);
    ShowWeightBars("self-bars", st.typed.date, self_bars, map_w);
}

nlohmann::json rows_json(std::span<const float> matrix, int rows, int S) {
    nlohmann::json out = nlohmann::json::array();
    for (int r = 0; r < rows && !matrix.empty(); ++r) {
        const auto row = row_of(matrix, r, S);
        out.push_back(std::vector<float>(row.begin(), row.end()));
    }
    return out;
}

nlohmann::json maps_state_json(Lab& lab, TransformerMapsState& st) {
    refresh_maps(lab, st);
    const int S = int(st.typed.date.size()), T = output_length;
    nlohmann::json cross_heads = nlohmann::json::array(), self_heads = nlohmann::json::array();
    for (int h = 0; h < st.heads && !st.output.empty(); ++h) {
        cross_heads.push_back(rows_json(std::span<const float>(st.cross_heads).subspan(size_t(h * T * S), size_t(T * S)), T, S));
        self_heads.push_back(rows_json(std::span<const float>(st.self_heads).subspan(size_t(h * S * S), size_t(S * S)), S, S));
    }
    const bool ready = !st.output.empty();
    return {
        {"input", st.typed.date}, {"output", st.output}, {"message", st.typed.message}, {"memory", st.memory_all ? "all" : "first"},
        {"model", st.use_live ? "page" : "shipped"}, {"label", st.model_label}, {"heads", st.heads}, {"head", st.head},
        {"selected_output", st.selected_output}, {"selected_input", st.selected_input},
        {"cross_mean", rows_json(st.cross_mean, ready ? T : 0, S)}, {"cross_heads", cross_heads},
        {"self_mean", rows_json(st.self_mean, ready ? S : 0, S)}, {"self_heads", self_heads},
        {"bars", ready ? rows_json(row_of(shown(st, st.cross_mean, st.cross_heads), st.selected_output, S), 1, S)[0] : nlohmann::json(nullptr)},
        {"self_bars", ready ? rows_json(row_of(shown(st, st.self_mean, st.self_heads), st.selected_input, S), 1, S)[0] : nlohmann::json(nullptr)},
        {"shipped_error", lab.shipped_transformer_error},
    };
}

std::string maps_text(Lab& lab, TransformerMapsState& st) {
    refresh_maps(lab, st);
    if (st.output.empty()) return "<p>" + html_escape(lab.shipped_transformer_error.empty() ? "The shipped Transformers are loading."
                                                                                          : lab.shipped_transformer_error) + "</p>";
    const int S = int(st.typed.date.size());
    const auto cross = shown(st, st.cross_mean, st.cross_heads);
    std::string html = "<p>" + html_escape(st.model_label) + " reads \u201c" + html_escape(st.typed.date) + "\u201d and writes " + st.output +
                       ". Where each output character's cross-attention (" +
                       (st.head == 0 ? std::string("mean over heads") : "head " + std::to_string(st.head)) +
                       ") peaks:</p><table><thead><tr><th scope=\"col\">output</th><th scope=\"col\">peak position</th>"
                       "<th scope=\"col\">input there</th><th scope=\"col\">weight</th></tr></thead><tbody>";
    for (int t = 0; t < output_length; ++t) {
        const Peak p = row_peak(row_of(cross, t, S));
        html += "<tr><th scope=\"row\">" + std::to_string(t) + " \u2018" + st.output[size_t(t)] + "\u2019</th><td>" +
                std::to_string(p.position) + "</td><td>" + html_escape(quoted(st.typed.date[size_t(p.position)])) + "</td><td>" +
                fixed(p.weight, 3) + "</td></tr>";
    }
    return html + "</tbody></table>" + (st.typed.message.empty() ? "" : "<p>" + html_escape(st.typed.message) + "</p>");
}

}  // namespace

FigureSpec transformer_maps_figure(Lab& lab, TransformerMapsState& st) {
    return {
        .name = "transformer-maps",
        .show = [&lab, &st] { ShowMaps(lab, st); },
        .state = [&lab, &st] { return maps_state_json(lab, st); },
        .text_alternative = [&lab, &st] { return maps_text(lab, st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
