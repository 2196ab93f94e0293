// web/figures/probes.cpp — figure "probes": two more ways to ask the models about the string of the
// alignment figure (they share its state, lesson2.h's AlignmentState).
//
// Occlusion: blank one input character (its token becomes padding) and decode again. Every
// position is blanked in turn to make a second map, output × input, marking which outputs
// change; it is drawn beside the attention map, so where attention peaked and what the output
// depends on can be compared. Clicking a character shows that one case in full.
//
// Gradient path: for the teacher-forced loss of the string, the norm of ∂loss/∂h_j at every
// encoder position, plain versus attention, on a log scale. In the plain model the gradient
// enters at the last state only and must flow back through the recurrence; with attention it
// reaches every h_j directly through the weighted sum.
//
// Both are computed here, when this figure draws (or its state is read), for the string the
// alignment figure shows: a date typed there costs only its map until this figure is on screen.
//
// Legend: T output characters (10), S input characters.
#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "controls.h"
#include "heatmap.h"
#include "charts.h"
#include "lesson2.h"
#include "map_view.h"

namespace lb::web {
namespace {

// The probes of the string shown (refresh_alignment's), computed when first asked and kept by the
// Lab: the attention model's occlusion; both models' gradient paths where the attention model
// has one, taken against the same target. False while the shipped models load.
bool refresh_probes(Lab& lab, AlignmentState& st) {
    refresh_alignment(lab, st);
    if (!st.analysis || st.task != &date_task()) return false;
    const std::array<ModelRead, 2> models = alignment_models(lab, st);
    st.occlusion = lab.analyses.occlusion(models[1], st.shown);
    st.gradient_target = st.shown_target.empty() ? st.analysis->output : st.shown_target;
    st.gradient = {};
    if (st.gradient_measured)
        for (size_t k = 0; k < 2; ++k)
            if (models[k].model) st.gradient[k] = lab.analyses.gradient_path(models[k], st.shown, st.gradient_target);
    st.probed = st.analysis;
    return true;
}
// Why nothing is probed while the alignment figure shows another task's model ("" on the dates):
// the probes are the date models' (the gradient path is measured for the lesson's pair).
std::string elsewhere_note(const AlignmentState& st) {
    return st.task == &date_task() ? ""
                                   : "The probes read the date models: Figure 5 now shows the model trained in Figure 3 on its own "
                                     "task. Pick \u201cshipped model\u201d there to probe a date again.";
}
// Whether the probes held are of the string and model shown (a text alternative computes nothing).
bool probes_current(const AlignmentState& st) { return st.analysis && st.probed == st.analysis && st.occlusion; }

// What the figure reads: the attention model's output and map, and the probes.
const Analysis& attention(const AlignmentState& st) { return *st.analysis; }
const std::string& masked_output(const AlignmentState& st) {
    static const std::string none;
    return st.masked >= 0 && st.masked < int(st.occlusion->outputs.size()) ? st.occlusion->outputs[size_t(st.masked)] : none;
}
const std::vector<float>& gradient(const AlignmentState& st, int k, bool direct = false) {
    static const std::vector<float> none;
    const auto& g = st.gradient[size_t(k)];
    if (!st.gradient_measured || !g) return none;
    return direct ? g->direct : g->total;
}
std::string gradient_note(const AlignmentState& st) {
    return st.gradient_measured ? "" : "The gradient path is drawn for the lesson's own attention model; pick it in "
                                       "Figure 3 (model: attention) to see it for a model trained here.";
}

// Output text with the characters that differ from `reference` in the error colour.
void DiffText(const std::string& text, const std::string& reference) {
    const LessonColors& col = lesson_colors();
    for (size_t i = 0; i < text.size(); ++i) {
        const bool differs = i >= reference.size() || text[i] != reference[i];
        ImGui::PushStyleColor(ImGuiCol_Text, differs ? col.error : ImGui::ColorConvertU32ToFloat4(col.text));
        ImGui::TextUnformatted(&text[i], &text[i] + 1);
        ImGui::PopStyleColor();
        ImGui::SameLine(0, 1);
    }
    ImGui::NewLine();
}

// The attention map and the occlusion map side by side (stacked when narrow), same cells.
void ShowProbeMaps(AlignmentState& st, float width) {
    const int S = int(st.shown.text.size()), T = output_length;
    const std::vector<float>& changed = st.occlusion->changed;
    check_map_shape("attention-map", attention(st).attention.size(), T, S);
    check_map_shape("occlusion-map", changed.size(), T, S);
    const bool narrow = width < 560;
    const float map_w = narrow ? width : (width - 24) / 2, cw = std::min(20.0f, map_w / S), ch = 14;
    ImGui::BeginGroup();
    ImGui::TextDisabled("attention weight");
    const ImVec2 attention_min = ImGui::GetCursorScreenPos();
    Heatmap("attention-map", attention(st).attention, T, S, {cw * S, ch * T}, Colormap::sequential, 0, 1);
    const auto& out = attention(st).output;
    const auto& in = st.shown.text;
    const auto cell_of = [&](int t, int j) {
        return "output " + std::to_string(t) + ", " + quoted(out[size_t(t)]) + "; input " + std::to_string(j) + ", " + quoted(in[size_t(j)]);
    };
    if (out.size() == size_t(T))
        Grid("attention-map", "attention map", T, S, attention_min, {cw, ch},
             [&](int t, int j) { return cell_of(t, j) + "; weight " + fixed(attention(st).attention[size_t(t * S + j)], 2); });
    ImGui::EndGroup();
    if (!narrow) ImGui::SameLine(0, 24);
    ImGui::BeginGroup();
    ImGui::TextDisabled("changes when that input is blanked");
    const ImVec2 occlusion_min = ImGui::GetCursorScreenPos();
    const HeatmapHit hit = Heatmap("occlusion-map", changed, T, S, {cw * S, ch * T}, Colormap::sequential, 0, 1);
    record_rect("occlusion-map");
    if (hit.clicked) st.masked = hit.col, keep_awake();  // the lines above show it next frame
    if (out.size() == size_t(T)) {
        const auto blanked = Grid("occlusion-map", "what blanking each input changes; Enter blanks that input", T, S, occlusion_min, {cw, ch},
                                  [&](int t, int j) {
                                      return cell_of(t, j) + (changed[size_t(t * S + j)] > 0 ? "; changes when blanked" : "; stays when blanked");
                                  });
        if (blanked) st.masked = blanked->col, keep_awake();
    }
    if (hit.row >= 0)
        ImGui::SetTooltip("output %d with input %d blanked: %s", hit.row, hit.col,
                          changed[size_t(hit.row * S + hit.col)] > 0 ? "changes" : "stays");
    ImGui::EndGroup();
}

void ShowOcclusion(AlignmentState& st, float width) {
    const LessonColors& col = lesson_colors();
    const int S = int(st.shown.text.size()), T = output_length;
    // Each a 24 × 24 target (WCAG 2.2, 2.5.8), wrapped onto more lines where a row has no room.
    const float cell = 24, gap = 1;
    const int per_line = std::max(1, int((width + gap) / (cell + gap)));
    WrappedText("Click an input character to blank it:");
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, {gap, 4});
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, {0, 3});
    for (int j = 0; j < S; ++j) {
        ImGui::PushID(j);
        const bool on = st.masked == j;
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::ColorConvertU32ToFloat4(col.decoder));
        const std::string name = "blank input " + std::to_string(j) + ", " + quoted(st.shown.text[size_t(j)]);
        if (ToggleButton(shown_char(st.shown.text[size_t(j)]).c_str(), "in-" + std::to_string(j), on, name.c_str(), {cell, cell}))
            st.masked = on ? -1 : j;
        if (on) ImGui::PopStyleColor();
        ImGui::PopID();
        if (j + 1 < S && (j + 1) % per_line != 0) ImGui::SameLine();
    }
    ImGui::PopStyleVar(2);

    ImGui::Text("As read:");
    ImGui::SameLine();
    DiffText(attention(st).output, attention(st).output);
    if (st.masked >= 0 && !masked_output(st).empty()) {
        const char c = st.shown.text[size_t(st.masked)];
        ImGui::Text("Input %d (%s) blanked:", st.masked, c == ' ' ? "a space" : ("'" + std::string(1, c) + "'").c_str());
        ImGui::SameLine();
        DiffText(masked_output(st), attention(st).output);
        // Said once for a screen reader when the blanked input or its output changes.
        announce_shown("blank-announced", "input " + std::to_string(st.masked) + " blanked: the output reads " + masked_output(st));
        std::string peaked, changed;
        for (int t = 0; t < T; ++t) {
            int peak = 0;
            for (int j = 1; j < S; ++j)
                if (attention(st).attention[size_t(t * S + j)] > attention(st).attention[size_t(t * S + peak)]) peak = j;
            if (peak == st.masked) peaked += (peaked.empty() ? "" : ", ") + std::to_string(t);
            if (masked_output(st)[size_t(t)] != attention(st).output[size_t(t)]) changed += (changed.empty() ? "" : ", ") + std::to_string(t);
        }
        WrappedText("Outputs whose attention peaked here: %s. Outputs that changed: %s.", peaked.empty() ? "none" : peaked.c_str(),
                           changed.empty() ? "none" : changed.c_str());
    } else {
        ImGui::TextDisabled("Nothing blanked.");
    }

    ShowMapOrError("occlusion-map", [&] { ShowProbeMaps(st, width); });
}

// ‖∂loss/∂h_j‖ as bars on a log axis, plain and attention side by side per position.
void ShowGradientPath(AlignmentState& st, float width) {
    const LessonColors& col = lesson_colors();
    const int S = int(st.shown.text.size());
    const auto& plain = gradient(st, 0);
    const auto& attention = gradient(st, 1);
    if (!st.gradient_measured) DimTextWrapped(gradient_note(st).c_str());
    if (int(plain.size()) != S || int(attention.size()) != S) return;
    float hi = 1e-30f, lo = 1e30f;
    for (const auto* v : {&plain, &attention})
        for (float x : *v)
            if (x > 0) hi = std::max(hi, x), lo = std::min(lo, x);
    const float top = std::ceil(std::log10(hi)), bottom = std::max(std::floor(std::log10(lo)), top - 8);
    WrappedText("Gradient path: the size of \u2202loss/\u2202h at each encoder position (log scale), for the loss of "
                       "writing %s.", st.gradient_target.c_str());
    const float line = ImGui::GetTextLineHeight(), height = 120;
    ImGui::InvisibleButton("gradient", {width, height + line * 2 + 6});
    record_rect("gradient");
    const ImVec2 min = ImGui::GetItemRectMin();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float axis_w = 40, group = (width - axis_w) / S, base = min.y + line + height;
    auto y_of = [&](float v) {
        const float l = v > 0 ? std::log10(v) : bottom;
        return base - height * std::clamp((l - bottom) / std::max(top - bottom, 1.0f), 0.0f, 1.0f);
    };
    for (float e = bottom; e <= top; e += 1) {
        const float y = base - height * (e - bottom) / std::max(top - bottom, 1.0f);
        draw.AddLine({min.x + axis_w, y}, {min.x + width, y}, col.grid);
        char text[16];
        std::snprintf(text, sizeof text, "1e%d", int(e));
        draw.AddText({min.x, y - line / 2}, col.text_dim, text);
    }
    int hovered = -1;
    if (ImGui::IsItemHovered()) hovered = int((ImGui::GetIO().MousePos.x - min.x - axis_w) / group);
    for (int j = 0; j < S; ++j) {
        const float x = min.x + axis_w + j * group, bw = std::max(1.0f, (group - 2) / 2);
        draw.AddRectFilled({x + 1, y_of(plain[size_t(j)])}, {x + 1 + bw, base}, plain_color());
        draw.AddRectFilled({x + 1 + bw, y_of(attention[size_t(j)])}, {x + 1 + 2 * bw, base}, attention_color());
        const std::string c = shown_char(st.shown.text[size_t(j)]);
        draw.AddText({x + (group - ImGui::CalcTextSize(c.c_str()).x) / 2, base + 2}, col.text_dim, c.c_str());
    }
    const char* legend[] = {"plain", "attention"};
    float lx = min.x + width;
    for (int k = 1; k >= 0; --k) {
        lx -= ImGui::CalcTextSize(legend[k]).x;
        draw.AddText({lx, min.y}, k ? attention_color() : plain_color(), legend[k]);
        lx -= 14;
        draw.AddRectFilled({lx, min.y + 3}, {lx + 10, min.y + line - 3}, k ? attention_color() : plain_color());
        lx -= 10;
    }
    if (hovered >= 0 && hovered < S)
        ImGui::SetTooltip("input %d, %s\nplain: %.3g\nattention: %.3g", hovered, shown_char(st.shown.text[size_t(hovered)]).c_str(),
                          plain[size_t(hovered)], attention[size_t(hovered)]);
    // The last position against the first, the ratio the prose states: how much more gradient
    // the state read last gets than the state read first.
    const double p_ratio = plain[size_t(S - 1)] / std::max(plain[0], 1e-30f);
    const double a_ratio = attention[size_t(S - 1)] / std::max(attention[0], 1e-30f);
    auto times = [](double r) { return r >= 1e5 ? fixed(r / 1e6, 1) + " million" : fixed(r, 2); };
    WrappedText("The last input position gets %s times the first one's gradient in the plain model, %s times with "
                "attention.", times(p_ratio).c_str(), times(a_ratio).c_str());
}

void ShowProbes(Lab& lab, AlignmentState& st) {
    const bool ready = refresh_probes(lab, st);
    if (!elsewhere_note(st).empty()) {
        DimTextWrapped(elsewhere_note(st).c_str());
        record_rect("elsewhere");
        return;
    }
    if (!ready) {
        ImGui::TextDisabled("Loading the shipped models\u2026");
        return;
    }
    WrappedText("The string of the figure above: \u201c%s\u201d.", st.shown.text.c_str());
    const float width = ImGui::GetContentRegionAvail().x;
    ShowOcclusion(st, width);
    ImGui::Spacing();
    ShowGradientPath(st, width);
}

nlohmann::json state_json(Lab& lab, AlignmentState& st) {
    const int S = int(st.shown.text.size());
    nlohmann::json importance = nlohmann::json::array();
    if (!refresh_probes(lab, st))  // before the shipped models load
        return {{"input", st.shown.text}, {"masked", st.masked}, {"output", ""}, {"masked_output", ""},
                {"importance", importance}, {"gradient_target", ""},
                {"grad_norms", {{"plain", importance}, {"attention", importance}}},
                {"direct_norms", {{"plain", importance}, {"attention", importance}}}, {"gradient_note", ""},
                {"elsewhere", elsewhere_note(st)}};
    const std::vector<float>& changed = st.occlusion->changed;
    for (int t = 0; t < output_length; ++t)
        importance.push_back(std::vector<float>(changed.begin() + t * S, changed.begin() + (t + 1) * S));
    return {{"input", st.shown.text}, {"masked", st.masked}, {"output", attention(st).output}, {"masked_output", masked_output(st)},
            {"importance", importance}, {"gradient_target", st.gradient_target},
            {"grad_norms", {{"plain", gradient(st, 0)}, {"attention", gradient(st, 1)}}},
            {"direct_norms", {{"plain", gradient(st, 0, true)}, {"attention", gradient(st, 1, true)}}},
            {"gradient_note", gradient_note(st)}, {"elsewhere", ""}};
}

std::string text_alternative(const AlignmentState& st) {
    const int S = int(st.shown.text.size());
    if (!elsewhere_note(st).empty()) return "<p>" + html_escape(elsewhere_note(st)) + "</p>";
    if (!st.analysis) return "<p>The shipped models are loading.</p>";
    if (!probes_current(st))
        return "<p>Occlusion and the gradient path of \u201c" + html_escape(st.shown.text) +
               "\u201d are computed when this figure is next drawn.</p>";
    if (!st.gradient_measured) return "<p>" + html_escape(gradient_note(st)) + "</p>";
    if (!st.gradient[0]) return "<p>The shipped plain model is loading.</p>";
    std::string html = "<p>Norm of the loss gradient at each encoder state of \u201c" + html_escape(st.shown.text) +
                       "\u201d:</p><table><thead><tr><th scope=\"col\">position</th><th scope=\"col\">input</th>"
                       "<th scope=\"col\">plain</th><th scope=\"col\">attention</th><th scope=\"col\">outputs that change when blanked</th></tr></thead><tbody>";
    for (int j = 0; j < S; ++j) {
        char p[32], a[32];
        std::snprintf(p, sizeof p, "%.3g", gradient(st, 0)[size_t(j)]);
        std::snprintf(a, sizeof a, "%.3g", gradient(st, 1)[size_t(j)]);
        std::string changed;
        for (int t = 0; t < output_length; ++t)
            if (st.occlusion->changed[size_t(t * S + j)] > 0) changed += (changed.empty() ? "" : " ") + std::to_string(t);
        html += "<tr><th scope=\"row\">" + std::to_string(j) + "</th><td>" + html_escape(shown_char(st.shown.text[size_t(j)])) + "</td><td>" +
                p + "</td><td>" + a + "</td><td>" + (changed.empty() ? "none" : changed) + "</td></tr>";
    }
    return html + "</tbody></table>";
}

}  // namespace

FigureSpec probes_figure(Lab& lab, AlignmentState& st) {
    lab.changes.subscribe([] { request_redraw("probes"); });
    return {
        .name = "probes",
        .show = [&lab, &st] { ShowProbes(lab, st); },
        .state = [&lab, &st] { return state_json(lab, st); },
        .text_alternative = [&st] { return text_alternative(st); },
        .fit_height = true,
    };
}

}  // namespace lb::web
