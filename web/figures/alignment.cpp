// web/figures/alignment.cpp — figure "alignment": the attention weights of one string, output
// characters down, input characters across, coloured by the heatmap shader. The reader picks a
// held-out string or types a date (a refused one keeps the last map and says why); hovering a
// cell shows its weight; clicking an output character draws its weights over the input as bars
// with the peak marked; a table gives every output's peak position and the character there,
// computed from the matrix. Beside it, the two guards that make such a map evidence.
// The URL keeps the string (al.ex or al.date) and the selected output (al.row).
//
// refresh_alignment (shared with probes.cpp) recomputes the map, the occlusion matrix and
// the gradient path when the string or the models change.
//
// Legend: T output characters (10), S input characters.
//
// [SECTION] Computing the maps
// [SECTION] The URL
// [SECTION] Drawing
// [SECTION] State JSON and text alternative
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include <imgui.h>

#include "charts.h"
#include "lesson2.h"
#include "map_view.h"
#include "lesson/probes.h"
#include "text/text.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Computing the maps
//-----------------------------------------------------------------------------------------------

namespace {

// The models the figure reads: the page's pair once it has finished an epoch (if asked for),
// else the shipped pair.
const Model* model_for(const Lab& lab, DecoderKind kind, bool live) {
    const int k = kind == DecoderKind::attention;
    if (live && lab.live[size_t(k)] && lab.live[size_t(k)]->epoch() > 0 && lab.live[size_t(k)]->model())
        return lab.live[size_t(k)]->model();
    return lab.shipped[size_t(k)] ? &*lab.shipped[size_t(k)] : nullptr;
}
bool live_available(const Lab& lab) {
    return lab.live[0] && lab.live[1] && lab.live[0]->model() && lab.live[1]->model() && lab.live[0]->epoch() > 0 &&
           lab.live[1]->epoch() > 0;
}

}  // namespace

namespace {
// The lesson's own example, written the way our generator writes it, with its true weekday.
Example lesson_example() { return format_date(1977, 9, 19, 1); }
void show_example(Lab& lab, AlignmentState& st, int index);
bool show_typed(AlignmentState& st, const std::string& text);
}  // namespace

void refresh_alignment(Lab& lab, AlignmentState& st) {
    if (!st.url_applied) {  // the link's string, once: the held-out split is built when first needed
        st.url_applied = true;
        if (st.example >= 0) show_example(lab, st, st.example);
        else if (st.typed.date != st.shown_input) show_typed(st, st.typed.date);
    }
    if (st.use_live && !live_available(lab)) st.use_live = false;
    const Model* attention = model_for(lab, DecoderKind::attention, st.use_live);
    const Model* plain = model_for(lab, DecoderKind::plain, st.use_live);
    if (!attention || st.shown_input.empty()) return;
    // What the maps depend on: the string, which models (and how far the live ones are), the mask.
    std::string key = st.shown_input + "|" + st.shown_target + "|" + (st.use_live ? "live" : "shipped") + "|" +
                      std::to_string(reinterpret_cast<uintptr_t>(attention)) + "|" +
                      std::to_string(reinterpret_cast<uintptr_t>(plain));
    if (st.use_live) key += "|" + std::to_string(lab.live[0]->epoch()) + "," + std::to_string(lab.live[1]->epoch());
    if (key == st.computed_for && st.masked == st.computed_mask) return;
    const bool string_changed = key != st.computed_for;
    st.computed_for = key;
    st.computed_mask = st.masked;

    const int T = output_length;
    if (string_changed) {
        const Decoded d = decode_tokens(encode_input(st.shown_input), *attention);
        st.output = d.output;
        st.weights.assign(d.attention.begin(), d.attention.end());
        st.model_label = st.use_live ? "the " + model_label(attention->config) + " model trained in this page (epoch " +
                                           std::to_string(lab.live[1]->epoch()) + ")"
                                     : "the shipped attention model (width 64, 12 epochs)";
        st.two_way = attention->config.decoder == DecoderKind::bahdanau;
        st.importance = occlusion(*attention, st.shown_input).changed;
        st.gradient_target = st.shown_target.empty() ? st.output : st.shown_target;
        const Model* models[2] = {plain, attention};
        const bool measurable = has_gradient_path(attention->config.decoder);
        st.gradient_note = measurable ? "" : "The gradient path is drawn for the lesson's own attention model; pick it in "
                                              "Figure 3 (model: attention) to see it for a model trained here.";
        for (int k = 0; k < 2; ++k) {
            st.grad_norms[size_t(k)].clear();
            st.direct_norms[size_t(k)].clear();
            if (!models[k] || !measurable) continue;
            GradientPath path = gradient_path(*models[k], st.shown_input, st.gradient_target);
            st.grad_norms[size_t(k)] = std::move(path.total);
            st.direct_norms[size_t(k)] = std::move(path.direct);
        }
    }
    st.masked_output.clear();
    if (st.masked >= 0 && st.masked < int(st.shown_input.size()))
        st.masked_output = occluded_output(*attention, st.shown_input, st.masked);
    st.selected_output = std::clamp(st.selected_output, 0, T - 1);
    request_redraw("alignment");  // the two figures share these numbers
    request_redraw("probes");
}

namespace {

Peak peak_of(const AlignmentState& st, int t) {
    const size_t S = st.shown_input.size();
    return row_peak(std::span<const float>(st.weights).subspan(size_t(t) * S, S));
}

//-----------------------------------------------------------------------------------------------
// [SECTION] The URL
//-----------------------------------------------------------------------------------------------

void show_example(Lab& lab, AlignmentState& st, int index) {
    const std::vector<Example>& held_out = lab.held_out();
    const int n = int(held_out.size());
    st.example = ((index % n) + n) % n;
    st.shown_input = held_out[size_t(st.example)].input;
    st.shown_target = held_out[size_t(st.example)].target;
    st.typed.date = lesson_example().input;
    st.typed.message.clear();
    st.masked = -1;
}

// A typed string: shown if the model accepts it, else refused with the reason (the map stays).
bool show_typed(AlignmentState& st, const std::string& text) {
    if (!st.typed.take(text, "The map below is still the last one.")) return false;
    st.shown_input = st.typed.date;
    st.shown_target.clear();  // a typed string's answer is not known to the page
    st.example = -1;
    st.masked = -1;
    return true;
}

}  // namespace

AlignmentState::AlignmentState() : typed(lesson_example().input) {
    const Example lesson = lesson_example();
    shown_input = lesson.input;
    shown_target = lesson.target;
    url.integer("ex", example, 0, held_out_split_size - 1);
    typed.bind(url);
    url.integer("row", selected_output, 0, output_length - 1)
        .choice("model", use_live, {{"shipped", false}, {"page", true}});
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

void ShowPicker(Lab& lab, AlignmentState& st) {
    const int n = int(lab.held_out().size());
    if (ImGui::Button("\u2190")) show_example(lab, st, st.example < 0 ? 0 : st.example - 1);
    record_rect("previous");
    ImGui::SameLine();
    if (ImGui::Button("\u2192")) show_example(lab, st, st.example < 0 ? 0 : st.example + 1);
    record_rect("next");
    ImGui::SameLine();
    if (ImGui::Button("random")) show_example(lab, st, int((st.example + 1) * 7919L % n));
    record_rect("random");
    ImGui::SameLine();
    if (st.example >= 0) ImGui::TextDisabled("held-out string %d of %d", st.example + 1, n);
    else ImGui::TextDisabled(st.shown_input == lesson_example().input ? "the lesson's example" : "your date");

    const float avail = ImGui::GetContentRegionAvail().x;
    if (st.typed.ShowField(avail)) show_typed(st, st.typed.field);
    if (avail > 560) ImGui::SameLine();
    ImGui::BeginDisabled(!live_available(lab));
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

void ShowMap(AlignmentState& st, float width) {
    ShowWeightMap({"map", "out-", "output"}, st.output, st.shown_input, st.weights, st.selected_output, width);
}

void ShowPeakTable(AlignmentState& st) {
    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("peaks", 4, flags)) return;
    ImGui::TableSetupColumn("output");
    ImGui::TableSetupColumn("peak at");
    ImGui::TableSetupColumn("input there");
    ImGui::TableSetupColumn("weight");
    ImGui::TableHeadersRow();
    for (int t = 0; t < output_length; ++t) {
        const Peak p = peak_of(st, t);
        ImGui::TableNextRow();
        if (t == st.selected_output) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, lesson_colors().highlight);
        ImGui::TableSetColumnIndex(0);
        ImGui::Text("%d  %c", t, st.output[size_t(t)]);
        ImGui::TableSetColumnIndex(1);
        ImGui::Text("%d", p.position);
        ImGui::TableSetColumnIndex(2);
        ImGui::Text("%s", quoted(st.shown_input[size_t(p.position)]).c_str());
        ImGui::TableSetColumnIndex(3);
        ImGui::Text("%.3f", p.weight);
    }
    ImGui::EndTable();
}

void ShowBars(AlignmentState& st, float width) {
    const int S = int(st.shown_input.size()), t = st.selected_output;
    const Peak peak = peak_of(st, t);
    float sum = 0;
    for (int j = 0; j < S; ++j) sum += st.weights[size_t(t * S + j)];
    WrappedText("Output %d, '%c': its weights over the input (they sum to %.4f); the peak is input %d, %s, at %.3f.", t,
                st.output[size_t(t)], sum, peak.position, quoted(st.shown_input[size_t(peak.position)]).c_str(), peak.weight);
    ShowWeightBars("bars", st.shown_input, std::span<const float>(st.weights).subspan(size_t(t * S), size_t(S)), width);
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
    if (st.weights.empty()) {
        ImGui::TextDisabled("%s", lab.shipped_error.empty() ? "Loading the shipped models\u2026" : lab.shipped_error.c_str());
        return;
    }
    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 620;
    const float map_w = narrow ? width : std::min(width - 300 - gap, 26.0f * st.shown_input.size() + 18);
    WrappedText("%s writes %s%s.", st.model_label.c_str(), st.output.c_str(),
                       st.shown_target.empty() ? "" : (st.output == st.shown_target ? " (right)" : " (the answer is " + st.shown_target + ")").c_str());
    ImGui::BeginGroup();
    ShowMap(st, map_w);
    ImGui::EndGroup();
    if (!narrow) ImGui::SameLine(0, gap * 3);
    ImGui::BeginGroup();
    ShowPeakTable(st);
    ImGui::EndGroup();
    ShowBars(st, narrow ? width : map_w);
    ShowGuards(st);
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

nlohmann::json state_json(Lab& lab, AlignmentState& st) {
    refresh_alignment(lab, st);
    const int S = int(st.shown_input.size());
    nlohmann::json rows = nlohmann::json::array(), peaks = nlohmann::json::array();
    if (!st.weights.empty())
        for (int t = 0; t < output_length; ++t) {
            rows.push_back(std::vector<float>(st.weights.begin() + t * S, st.weights.begin() + (t + 1) * S));
            const Peak p = peak_of(st, t);
            peaks.push_back({{"output", std::string(1, st.output[size_t(t)])}, {"position", p.position},
                             {"input", std::string(1, st.shown_input[size_t(p.position)])}, {"weight", p.weight}});
        }
    return {
        {"input", st.shown_input}, {"target", st.shown_target}, {"output", st.output}, {"example", st.example},
        {"message", st.typed.message}, {"model", st.use_live ? "page" : "shipped"}, {"model_label", st.model_label},
        {"selected_output", st.selected_output},
        {"weights", rows}, {"bars", rows.empty() ? nlohmann::json(nullptr) : rows[size_t(st.selected_output)]},
        {"peaks", peaks},
    };
}

std::string text_alternative(AlignmentState& st) {
    if (st.weights.empty()) return "<p>The shipped models are loading.</p>";
    std::string html = "<p>" + html_escape(st.model_label) + " reads \u201c" + html_escape(st.shown_input) + "\u201d and writes " +
                       st.output + ". Where each output character puts most of its weight:</p><table><thead><tr>"
                       "<th scope=\"col\">output</th><th scope=\"col\">peak position</th><th scope=\"col\">input there</th>"
                       "<th scope=\"col\">weight</th></tr></thead><tbody>";
    for (int t = 0; t < output_length; ++t) {
        const Peak p = peak_of(st, t);
        html += "<tr><th scope=\"row\">" + std::to_string(t) + " \u2018" + st.output[size_t(t)] + "\u2019</th><td>" +
                std::to_string(p.position) + "</td><td>" + html_escape(quoted(st.shown_input[size_t(p.position)])) + "</td><td>" +
                fixed(p.weight, 3) + "</td></tr>";
    }
    return html + "</tbody></table>" + (st.typed.message.empty() ? "" : "<p>" + html_escape(st.typed.message) + "</p>");
}

}  // namespace

FigureSpec alignment_figure(Lab& lab, AlignmentState& st) {
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
