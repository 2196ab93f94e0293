// web/figures/alignment.cpp — figure "alignment": the attention weights of one string, output
// characters down, input characters across, coloured by the heatmap shader. The reader picks a
// held-out string or types a date (a refused one keeps the last map and says why); hovering a
// cell shows its weight; clicking an output character draws its weights over the input as bars
// with the peak marked; a table gives every output's peak position and the character there,
// computed from the matrix. Beside it, the two guards that make such a map evidence.
// The URL keeps the string (al.ex or al.date) and the selected output (al.row).
//
// refresh_alignment (shared with probes.cpp) reads the string's map from the Lab's analyses
// (web/lab/analysis.h); the probes figure reads its occlusion and gradient paths itself.
//
// Legend: T output characters (10), S input characters.
//
// [SECTION] Reading the maps
// [SECTION] The URL
// [SECTION] Drawing
// [SECTION] State JSON and text alternative
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include <imgui.h>

#include "controls.h"
#include "charts.h"
#include "lesson2.h"
#include "map_view.h"
#include "text/text.h"
#include "url_setting.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Reading the maps
//-----------------------------------------------------------------------------------------------

namespace {

// The reader may pick the page's pair once both have finished an epoch of the date task.
bool live_available(const Lab& lab) { return trained(lab.live[0]) && trained(lab.live[1]); }

// The lesson's own example, written the way our generator writes it, with its true weekday.
Example lesson_example() { return format_date(1977, 9, 19, 1); }
void show_example(Lab& lab, AlignmentState& st, int index);
void show_typed(AlignmentState& st);
}  // namespace

void refresh_alignment(Lab& lab, AlignmentState& st) {
    if (!st.url_applied) {  // the link's string, once: the held-out split is built when first needed
        st.url_applied = true;
        const Move linked = st.move;  // the link's move is of the link's string
        if (st.example >= 0) show_example(lab, st, st.example);
        else if (st.typed.input.text != st.shown.text) show_typed(st);
        st.move = linked;
    }
    const ModelRead attention = alignment_models(lab, st)[1];
    if (!attention.model) return;
    const auto a = lab.analyses.analyse(attention, st.shown);
    st.selected_output = std::clamp(st.selected_output, 0, output_length - 1);
    const auto moved = st.move.step >= 0 ? lab.analyses.what_if(attention, st.shown, st.move) : nullptr;
    if (a == st.analysis && moved == st.what_if) return;
    st.analysis = a;
    st.what_if = moved;
    st.model_label = attention.run ? "the " + model_label(attention.model->config) + " model trained in this page (epoch " +
                                         std::to_string(attention.run->epoch()) + ")"
                                   : "the shipped attention model (width 64, 12 epochs)";
    st.two_way = model_kind(attention.model->config.decoder).two_way_encoder;
    st.gradient_measured = has_gradient_path(attention.model->config.decoder);  // the models whose rows measure it
    request_redraw("alignment");  // the two figures share these numbers
    request_redraw("probes");
}

std::array<ModelRead, 2> alignment_models(const Lab& lab, AlignmentState& st) {
    if (st.use_live && !live_available(lab)) st.use_live = false;
    std::array<ModelRead, 2> read;
    for (size_t k = 0; k < pair_slots; ++k)
        read[k] = read_model(lab.live[k], lab.shipped_model(date_task(), lesson_pair[k]), date_task(), st.use_live);
    return read;
}

namespace {

const std::vector<float>& weights(const AlignmentState& st) { return st.analysis->attention; }
const std::string& output(const AlignmentState& st) { return st.analysis->output; }

Peak peak_of(const AlignmentState& st, int t) {
    const size_t S = st.shown.text.size();
    return row_peak(std::span<const float>(weights(st)).subspan(size_t(t) * S, S));
}

//-----------------------------------------------------------------------------------------------
// [SECTION] The URL
//-----------------------------------------------------------------------------------------------

void show_example(Lab& lab, AlignmentState& st, int index) {
    const std::vector<Example>& held_out = lab.held_out();
    const int n = int(held_out.size());
    st.example = ((index % n) + n) % n;
    st.shown = generated_input(held_out[size_t(st.example)].input);
    st.shown_target = held_out[size_t(st.example)].target;
    st.typed.date = lesson_example().input;  // the link forgets a typed date
    st.typed.message.clear();
    st.masked = -1;
    st.move = {};  // a move belongs to its string
}

// The typed string, taken (checked) by the field or the link.
void show_typed(AlignmentState& st) {
    st.shown = st.typed.input;
    st.shown_target.clear();  // a typed string's answer is not known to the page
    st.example = -1;
    st.masked = -1;
    st.move = {};
}

}  // namespace

AlignmentState::AlignmentState() : typed(lesson_example().input) {
    const Example lesson = lesson_example();
    shown = generated_input(lesson.input);
    shown_target = lesson.target;
    url.integer("ex", example, 0, held_out_split_size - 1);
    typed.bind(url);
    url.integer("row", selected_output, 0, output_length - 1)
        .choice("model", use_live, {{"shipped", false}, {"page", true}});
    url_move(url, "move", move);
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

void ShowPicker(Lab& lab, AlignmentState& st) {
    const int n = int(lab.held_out().size());
    if (Button("\u2190", "previous", "previous held-out string")) show_example(lab, st, st.example < 0 ? 0 : st.example - 1);
    ImGui::SameLine();
    if (Button("\u2192", "next", "next held-out string")) show_example(lab, st, st.example < 0 ? 0 : st.example + 1);
    ImGui::SameLine();
    if (Button("random", "random", "random held-out string")) show_example(lab, st, int((st.example + 1) * 7919L % n));
    ImGui::SameLine();
    if (st.example >= 0) ImGui::TextDisabled("held-out string %d of %d", st.example + 1, n);
    else ImGui::TextDisabled(st.shown.text == lesson_example().input ? "the lesson's example" : "your date");

    const float avail = ImGui::GetContentRegionAvail().x;
    if (st.typed.ShowField(avail) && st.typed.take(st.typed.field, "The map below is still the last one.")) show_typed(st);
    if (avail > 560) ImGui::SameLine();
    ShowModelSource(st.use_live, live_available(lab));
    st.typed.ShowMessage();
}

void ShowMap(AlignmentState& st, float width) {
    ShowMapOrError("map", [&] {
        ShowWeightMap({"map", "out-", "output"}, output(st), st.shown.text, weights(st), st.selected_output, width,
                      "attention map of " + st.model_label + ": output characters in rows, input characters in columns; "
                      "Enter picks a row");
    });
}

// Every output's peak (map_view.h), drawn with the selected output's row highlighted.
FigureTable peaks(const AlignmentState& st) {
    return peak_table("peaks", "each output's peak", char_tokens(output(st)), char_tokens(st.shown.text), weights(st));
}

void ShowPeakTable(const AlignmentState& st) { ShowTable(peaks(st), {.highlighted_row = st.selected_output}); }

void ShowBars(AlignmentState& st, float width) {
    const int S = int(st.shown.text.size()), t = st.selected_output;
    const Peak peak = peak_of(st, t);
    float sum = 0;
    for (int j = 0; j < S; ++j) sum += weights(st)[size_t(t * S + j)];
    WrappedText("Output %d, '%c': its weights over the input (they sum to %.4f); the peak is input %d, %s, at %.3f. "
                "Click a bar, or drag across several, to move this step's attention there and decode again.", t,
                output(st)[size_t(t)], sum, peak.position, quoted(st.shown.text[size_t(peak.position)]).c_str(), peak.weight);
    std::optional<std::pair<int, int>> chosen;
    ShowWeightBars("bars", st.shown.text, std::span<const float>(weights(st)).subspan(size_t(t * S), size_t(S)), width,
                   "weights of output " + std::to_string(t) + " over the input; Enter moves its attention onto one", &chosen);
    if (chosen) {
        st.move = {t, chosen->first, chosen->second};
        request_redraw("alignment");  // decoded again before the next frame draws it
    }
}

// The move's result under the map (map_view.h); Reset puts the attention back.
void ShowMove(AlignmentState& st, float map_w) {
    if (st.move.step < 0 || !st.what_if) return;
    if (ShowMoveResult(st.shown.text, st.move, *st.what_if, st.what_if->attention, "", map_w)) st.move = {};
}

void ShowGuards(const AlignmentState& st) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lesson_colors().text_dim));
    WrappedText("Two guards before reading a story into this map. First, we know the right alignment in advance: the year's "
                       "digits are in the year, the month's in the month word or number, the day's in the day. Second, %s",
                       st.two_way ? "this model's encoder reads both ways: each annotation holds what comes before and after its "
                                    "position, so a peak on a space or inside a word can stand for characters on either side, not "
                                    "only the one under the peak."
                                  : "an encoder state has read everything to its left: a peak on a space or inside a word is "
                                    "attention to a state that already holds what comes before it, not to the one character "
                                    "under the peak.");
    ImGui::PopStyleColor();
}

void ShowAlignment(Lab& lab, AlignmentState& st) {

    ShowPicker(lab, st);
    refresh_alignment(lab, st);
    if (!st.analysis) {
        const std::string missing = lab.shipped_errors(date_task(), {DecoderKind::attention});
        ImGui::TextDisabled("%s", missing.empty() ? "Loading the shipped models\u2026" : missing.c_str());
        return;
    }
    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 620;
    const float map_w = narrow ? width : std::min(width - 300 - gap, 26.0f * st.shown.text.size() + 18);
    const std::string writes = st.model_label + " writes " + output(st) +
                               (st.shown_target.empty() ? "" : output(st) == st.shown_target ? " (right)" : " (the answer is " + st.shown_target + ")");
    WrappedText("%s.", writes.c_str());
    announce_shown("writes", writes, true);  // another string or model: said (the first one is the figure's to read)
    ImGui::BeginGroup();
    ShowMap(st, map_w);
    ImGui::EndGroup();
    if (!narrow) ImGui::SameLine(0, gap * 3);
    ImGui::BeginGroup();
    ShowPeakTable(st);
    ImGui::EndGroup();
    ShowBars(st, narrow ? width : map_w);
    ShowMove(st, map_w);
    ShowGuards(st);
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

// The move's decoding for window.lookback.state: its output, changed steps and map, or why not.
nlohmann::json moved_json(const AlignmentState& st) {
    if (st.move.step < 0 || !st.what_if) return nullptr;
    const WhatIf& w = *st.what_if;
    const size_t S = st.shown.text.size();
    nlohmann::json rows = nlohmann::json::array();
    for (size_t t = 0; S > 0 && t < w.attention.size() / S; ++t)
        rows.push_back(std::vector<float>(w.attention.begin() + long(t * S), w.attention.begin() + long((t + 1) * S)));
    return {{"output", w.output}, {"changed", w.changed}, {"weights", rows}, {"error", w.error}};
}

nlohmann::json state_json(Lab& lab, AlignmentState& st) {
    refresh_alignment(lab, st);
    const int S = int(st.shown.text.size());
    nlohmann::json rows = nlohmann::json::array(), peaks = nlohmann::json::array();
    if (st.analysis)
        for (int t = 0; t < output_length; ++t) {
            rows.push_back(std::vector<float>(weights(st).begin() + t * S, weights(st).begin() + (t + 1) * S));
            const Peak p = peak_of(st, t);
            peaks.push_back({{"output", std::string(1, output(st)[size_t(t)])}, {"position", p.position},
                             {"input", std::string(1, st.shown.text[size_t(p.position)])}, {"weight", p.weight}});
        }
    return {
        {"input", st.shown.text}, {"target", st.shown_target}, {"output", st.analysis ? output(st) : ""}, {"example", st.example},
        {"message", st.typed.message}, {"model", st.use_live ? "page" : "shipped"}, {"model_label", st.model_label},
        {"selected_output", st.selected_output},
        {"weights", rows}, {"bars", rows.empty() ? nlohmann::json(nullptr) : rows[size_t(st.selected_output)]},
        {"peaks", peaks},
        {"move", st.move.step < 0 ? nlohmann::json(nullptr)
                                  : nlohmann::json{{"step", st.move.step}, {"first", st.move.first}, {"last", st.move.last}}},
        {"moved", moved_json(st)},
    };
}

std::string text_alternative(AlignmentState& st) {
    if (!st.analysis) return "<p>The shipped models are loading.</p>";
    std::string html = "<p>" + html_escape(st.model_label) + " reads \u201c" + html_escape(st.shown.text) + "\u201d and writes " +
                       output(st) + ". Where each output character puts most of its weight:</p>" + table_html(peaks(st));
    if (st.move.step >= 0 && st.what_if) html += move_html(st.shown.text, st.move, *st.what_if, "");
    return html + (st.typed.message.empty() ? "" : "<p>" + html_escape(st.typed.message) + "</p>");
}

}  // namespace

FigureSpec alignment_figure(Lab& lab, AlignmentState& st) {
    lab.changes.subscribe([] { request_redraw("alignment"); });
    return {
        .name = "alignment",
        .show = [&lab, &st] { ShowAlignment(lab, st); },
        .state = [&lab, &st] { return state_json(lab, st); },
        .text_alternative = [&st] { return text_alternative(st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
