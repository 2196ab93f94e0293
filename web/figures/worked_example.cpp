// web/figures/worked_example.cpp — figure "worked-example": one attention step, taken apart.
//
// Three encoder states h_1..h_3 and a decoder state s on a plane, the triangle the context must
// fall in, and the table of the step (score, exp, weight, denominator, context) with the weights
// as bars. A stepper walks the four steps — score, softmax, weighted sum, predict — and tints
// the cells each step computes and the cells it reads. The reader drags any point, switches the
// scorer (dot, general with an editable W, additive with editable W_d, W_e, v) and sees every
// number recomputed by lb::attention_step. Points, scorer, its parameters and the step live in
// the page's URL (keys "we.*"), so a link shows the same view. Beside each score stand the state's
// length and its cosine with s, since a dot score is their product with |s|; a temperature slider
// divides the scores before the softmax, to show it sharpen and flatten (and the scaled dot's √d).
// The figure follows the experiment's model: s is the decoder's state before the step, s_{t−1}.
//
// Legend: S, the source positions (3); the states and the additive scorer's hidden layer are 2 wide.
//
// [SECTION] Defaults, formatting
// [SECTION] The URL: read once, written when the state settles
// [SECTION] Drawing: stepper, plane, table, scorer, parameter counts
// [SECTION] State JSON and text alternative
#include <algorithm>
#include <optional>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ItemAdd: a point's rectangle for record_rect, without layout

#include "controls.h"

#include "lesson1.h"
#include "theme.h"

namespace lb::web {
namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Defaults, formatting
//-----------------------------------------------------------------------------------------------

constexpr int S = 3;
constexpr double view_lo = -0.6, view_hi = 1.6;   // the plane shows [lo, hi]²; points stay in it
constexpr double coldest = 0.1, hottest = 10;     // the temperature slider's range
const char* const step_names[] = {"score", "softmax", "weighted sum", "predict"};
const char* const sub[] = {"\u2081", "\u2082", "\u2083"};

void reset(WorkedExample& st) {
    st.s = {0.9, 0.2};
    st.hs = {{1, 0}, {0, 1}, {1, 1}};
    st.scorer = Scorer::dot;
    // W = I makes "general" start out equal to "dot"; the additive start is just a readable one.
    st.params.W = {{1, 0}, {0, 1}};
    st.params.W_d = {{1, 0}, {0, 1}};
    st.params.W_e = {{1, 0}, {0, 1}};
    st.params.v = {1, 1};
    st.temperature = 1;
    st.step = 0;
    st.width = 64;
}

std::string fmt(const char* spec, double x) {
    char text[40];
    std::snprintf(text, sizeof text, spec, x == 0 ? 0.0 : x);  // no "-0.00"
    return text;
}
// A cosine, or a dash where a zero vector has no direction.
std::string cosine_text(double cosine) { return std::isnan(cosine) ? "\u2013" : fmt("%.3f", cosine); }
std::string vec_text(const Vec& v, const char* spec) {
    std::string text = "(";
    for (size_t i = 0; i < v.size(); ++i) text += (i ? ", " : "") + fmt(spec, v[i]);
    return text + ")";
}
double snap(double x) { return std::round(std::clamp(x, view_lo, view_hi) * 100) / 100; }

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing: stepper, plane, table, scorer, parameter counts
//-----------------------------------------------------------------------------------------------

// What the current step does, with the current numbers.
std::string step_description(const WorkedExample& st) {
    const AttentionStep& r = st.result;
    switch (st.step) {
        case 0: {
            std::string how = st.scorer == Scorer::dot       ? "the dot product, e = s\u00b7h"
                              : st.scorer == Scorer::general ? "the general score, e = s\u00b7(W h)"
                                                             : "the additive score, e = v\u00b7tanh(W_d s + W_e h)";
            std::string text = "Score: compare the decoder state s (its state before this step, s\u209c\u208b\u2081) "
                               "with every encoder state, here with " + how + ".";
            if (st.scorer == Scorer::dot)
                text += " For h\u2081: " + fmt("%.2f", st.s[0]) + "\u00b7" + fmt("%.2f", st.hs[0][0]) + " + " +
                        fmt("%.2f", st.s[1]) + "\u00b7" + fmt("%.2f", st.hs[0][1]) + " = " + fmt("%.3f", r.scores[0]) +
                        ". A dot score is |s| |h| cos(s, h): a longer state scores higher at the same angle.";
            return text;
        }
        case 1:
            return (st.temperature == 1 ? std::string("Softmax: ")
                                        : "Softmax at temperature \u03c4 = " + fmt("%.2f", st.temperature) +
                                              ": each score is divided by \u03c4 first (below 1 sharpens, above 1 flattens); ") +
                   "exp makes every score positive, and dividing by their sum, " + fmt("%.3f", r.denominator) +
                   ", makes the weights add up to 1.";
        case 2:
            return "Weighted sum: c = " + fmt("%.3f", r.weights[0]) + "\u00b7h\u2081 + " + fmt("%.3f", r.weights[1]) +
                   "\u00b7h\u2082 + " + fmt("%.3f", r.weights[2]) + "\u00b7h\u2083 = " + vec_text(r.context, "%.3f") +
                   ", a point inside the triangle. Nothing is picked: all three are mixed.";
        default:
            return "Predict: c = " + vec_text(r.context, "%.3f") +
                   " joins the character written last as the decoder cell's input; the cell updates s to its new "
                   "state s\u209c, and a softmax over the output symbols, read from s\u209c alone, picks the next one. "
                   "(Luong's convention instead reads [c; s\u209c] through tanh before the softmax.)";
    }
}

void ShowStepper(WorkedExample& st) {
    const bool first = st.step == 0, last = st.step == WorkedExample::steps - 1;
    ImGui::BeginDisabled(first);
    if (Button("\u2190 Previous", "previous", "Previous step")) st.step--;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(last);
    if (Button("Next \u2192", "next", "Next step")) st.step++;
    ImGui::EndDisabled();
    // The title beside the buttons when it fits for every step, else on its own line (a phone),
    // so that Reset stays put while the reader steps.
    const float reset_width = ImGui::CalcTextSize("Reset").x + 2 * ImGui::GetStyle().FramePadding.x;
    const float right = ImGui::GetWindowContentRegionMax().x - reset_width;
    const float longest_title = ImGui::CalcTextSize("Step 4 of 4: weighted sum").x + 2 * ImGui::GetStyle().ItemSpacing.x;
    const bool title_inline = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + longest_title <= right;
    if (title_inline) {
        ImGui::SameLine();
        ImGui::Text("Step %d of 4: %s", st.step + 1, step_names[st.step]);
    }
    ImGui::SameLine(right);
    if (Button("Reset", "reset", "Reset the example")) {
        reset(st);
        st.dragging = -1;
    }
    if (!title_inline) ImGui::Text("Step %d of 4: %s", st.step + 1, step_names[st.step]);

    // ← / → step while the canvas has focus, unless a number field is being typed into.
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput) {
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)) && !first) st.step--;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)) && !last) st.step++;
    }
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(step_description(st).c_str());
    ImGui::PopTextWrapPos();
    record_rect("description");
}

struct Plane {
    ImVec2 min, max;
    ImVec2 to_screen(const Vec& p) const {
        const float u = float((p[0] - view_lo) / (view_hi - view_lo)), v = float((p[1] - view_lo) / (view_hi - view_lo));
        return {min.x + u * (max.x - min.x), max.y - v * (max.y - min.y)};
    }
    Vec to_world(ImVec2 q) const {
        return {view_lo + (q.x - min.x) / (max.x - min.x) * (view_hi - view_lo),
                view_lo + (max.y - q.y) / (max.y - min.y) * (view_hi - view_lo)};
    }
};

void label(ImDrawList& draw, ImVec2 at, ImU32 color, const std::string& text) {
    draw.AddText(at, color, text.c_str());
}

// The plane: grid, triangle, what the current step uses, the points. Points are dragged here.
void ShowPlane(WorkedExample& st, float side) {
    const LessonColors& col = lesson_colors();
    ImGui::InvisibleButton("plane", {side, side});
    record_rect("plane");
    const Plane pl{ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
    const float grab = 17;  // a press this near takes the point: a 24 × 24 target around it (WCAG 2.5.8)

    // Which point is under the mouse: s wins a tie, since it is the one the lesson moves.
    auto nearest = [&](ImVec2 m) {
        int best = -1;
        float best_d = grab * grab;
        for (int i = S; i >= 0; --i) {
            const ImVec2 p = pl.to_screen(i == S ? st.s : st.hs[i]);
            const float d = (p.x - m.x) * (p.x - m.x) + (p.y - m.y) * (p.y - m.y);
            if (d < best_d) best = i, best_d = d;
        }
        return best;
    };
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsItemActivated()) st.dragging = nearest(mouse);
    if (!ImGui::IsItemActive()) st.dragging = -1;
    if (st.dragging >= 0) {
        const Vec w = pl.to_world(mouse);
        (st.dragging == S ? st.s : st.hs[st.dragging]) = {snap(w[0]), snap(w[1])};
        ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
    } else if (ImGui::IsItemHovered() && nearest(mouse) >= 0) {
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    }
    // The step is computed before drawing, so a dragged point and its numbers agree.
    st.result = attention_step(st.scorer, st.s, st.hs, st.params, st.temperature);
    const AttentionStep& r = st.result;

    ImDrawList& draw = *ImGui::GetWindowDrawList();
    draw.PushClipRect(pl.min, pl.max, true);
    for (double g = std::ceil(view_lo * 2) / 2; g <= view_hi; g += 0.5) {
        const ImU32 c = g == 0 ? col.axis : col.grid;
        const ImVec2 a = pl.to_screen({g, view_lo}), b = pl.to_screen({g, view_hi});
        const ImVec2 e = pl.to_screen({view_lo, g}), f = pl.to_screen({view_hi, g});
        draw.AddLine(a, b, c);
        draw.AddLine(e, f, c);
    }
    const float lh = ImGui::GetTextLineHeight();
    for (int g : {0, 1}) {  // tick labels along the bottom and left edges, clear of the points
        const ImVec2 x = pl.to_screen({double(g), view_lo}), y = pl.to_screen({view_lo, double(g)});
        label(draw, {x.x + 3, x.y - lh - 1}, col.text_dim, std::to_string(g));
        label(draw, {y.x + 4, y.y - lh}, col.text_dim, std::to_string(g));
    }

    ImVec2 h[S];
    for (int i = 0; i < S; ++i) h[i] = pl.to_screen(st.hs[i]);
    const ImVec2 s = pl.to_screen(st.s), c = pl.to_screen(r.context);
    draw.AddTriangleFilled(h[0], h[1], h[2], col.encoder_fill);
    draw.AddTriangle(h[0], h[1], h[2], col.encoder, 1.0f);

    if (st.step == 0) {  // score: s against each h_i
        for (int i = 0; i < S; ++i) {
            draw.AddLine(s, h[i], col.decoder, 1.5f);
            label(draw, {h[i].x + 8, h[i].y + 2}, col.text, "e" + std::string(sub[i]) + " = " + fmt("%.3f", r.scores[i]));
        }
    }
    if (st.step >= 1) {  // softmax: each state's weight as a halo
        for (int i = 0; i < S; ++i) {
            draw.AddCircleFilled(h[i], 6 + 22 * float(r.weights[i]), col.encoder_fill, 32);
            if (st.step == 1)
                label(draw, {h[i].x + 8, h[i].y + 2}, col.text, "\u03b1" + std::string(sub[i]) + " = " + fmt("%.3f", r.weights[i]));
        }
    }
    if (st.step >= 2) {  // weighted sum: lines as thick as the weights
        for (int i = 0; i < S; ++i) draw.AddLine(h[i], c, col.context, 1 + 6 * float(r.weights[i]));
    }
    if (st.step == 3) draw.AddLine(s, c, col.decoder, 1.5f);  // the cell reads c, and s as its state

    for (int i = 0; i < S; ++i) {
        draw.AddCircleFilled(h[i], st.dragging == i ? 8 : 6, col.encoder, 24);
        label(draw, {h[i].x - 24, h[i].y - lh - 2}, col.encoder, "h" + std::string(sub[i]));
    }
    const ImU32 context_color = st.step >= 2 ? col.context : col.faded;
    draw.AddCircleFilled(c, 5, context_color, 24);
    label(draw, {c.x + 7, c.y - lh - 1}, context_color, "c");
    draw.AddCircleFilled(s, st.dragging == S ? 8 : 6, col.decoder, 24);
    draw.AddCircle(s, 9, col.decoder, 24, 1.5f);
    label(draw, {s.x + 10, s.y - 4}, col.decoder, "s");
    draw.PopClipRect();
    draw.AddRect(pl.min, pl.max, col.grid);

    // Each point's rectangle, for tests that press real mouse buttons on it; for the keyboard,
    // its two coordinates as sliders over the point (point-s-x, point-s-y, point-h1-x ...).
    for (int i = 0; i <= S; ++i) {
        const ImVec2 p = i == S ? s : h[i];
        ImGui::ItemAdd(ImRect(p.x - 6, p.y - 6, p.x + 6, p.y + 6), 0);
        const std::string id = i == S ? "point-s" : "point-h" + std::to_string(i + 1);
        record_rect(id);
        Vec& point = i == S ? st.s : st.hs[i];
        const std::string who = i == S ? "decoder state s" : "encoder state h" + std::to_string(i + 1);
        for (int axis = 0; axis < 2; ++axis) {
            const std::string axis_id = id + (axis ? "-y" : "-x");
            describe({.id = axis_id, .role = Role::slider, .name = who + (axis ? ", second coordinate" : ", first coordinate"),
                      .value_text = fmt("%.2f", point[size_t(axis)]), .value = point[size_t(axis)], .min = view_lo,
                      .max = view_hi, .step = 0.05, .box_min = {p.x - 12, p.y - 12}, .box_max = {p.x + 12, p.y + 12}});
            if (const auto a = take_action(axis_id, Action::set)) point[size_t(axis)] = snap(a->value);
        }
    }
}

// The step's numbers for each encoder state, described once: the canvas draws them as two
// tables (the step's, and the lengths and cosines that explain its scores), the text alternative
// writes them as one.
enum StepColumn { step_state, step_length, step_cosine, step_score, step_exp, step_weight };
FigureTable step_table(const WorkedExample& st) {
    const AttentionStep& r = st.result;
    FigureTable table{.id = "step", .name = "the attention step for each encoder state",
                      .columns = {{"encoder state"}, {"length |h|"}, {"cos(s, h)"}, {"score e"},
                                  {st.temperature == 1 ? "exp e" : "exp(e/\u03c4)"}, {"weight \u03b1"}}};
    for (int i = 0; i < S; ++i)
        table.rows.push_back({"h" + std::string(sub[i]) + " = " + vec_text(st.hs[i], "%.2f"), fmt("%.3f", r.lengths[i]),
                              cosine_text(r.cosines[i]), fmt("%.3f", r.scores[i]), fmt("%.3f", r.exps[i]), fmt("%.3f", r.weights[i])});
    return table;
}

// Cell tints: what this step computes (highlight) and what it reads (source).
enum Column { col_h, col_e, col_exp, col_alpha, col_bar, columns };
ImU32 tint(int step, int column) {
    const LessonColors& c = lesson_colors();
    static const int computes[4][columns] = {
        {0, 1, 0, 0, 0}, {0, 0, 1, 1, 1}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};
    static const int reads[4][columns] = {
        {1, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 0, 0, 1, 1}, {0, 0, 0, 0, 0}};
    return computes[step][column] ? c.highlight : reads[step][column] ? c.source : 0;
}

void TextRight(const std::string& text, bool dim) {
    const float free = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(text.c_str()).x;
    if (free > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + free);
    if (dim) ImGui::TextDisabled("%s", text.c_str());
    else ImGui::TextUnformatted(text.c_str());
}

void ShowStepTable(const WorkedExample& st) {
    const LessonColors& col = lesson_colors();
    const AttentionStep& r = st.result;
    // Numbers of steps not reached yet are shown, but dimmed: the eye follows the step.
    const bool e_ready = true, exp_ready = st.step >= 1, ctx_ready = st.step >= 2;

    ImGui::AlignTextToFramePadding();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(col.decoder), "s = %s", vec_text(st.s, "%.2f").c_str());
    if (st.step == 0 || st.step == 3) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        ImGui::GetWindowDrawList()->AddRectFilled({a.x - 4, a.y}, {b.x + 4, b.y}, col.source);
    }
    record_rect("s");

    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersOuterH |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoPadOuterX;
    const FigureTable table = step_table(st);
    if (ImGui::BeginTable("step", columns, flags)) {
        for (int c : {step_state, step_score, step_exp, step_weight}) ImGui::TableSetupColumn(table.columns[size_t(c)].label.c_str());
        ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableHeadersRow();
        for (int i = 0; i < S; ++i) {
            ImGui::TableNextRow();
            for (int k = 0; k < columns; ++k)
                if (const ImU32 t = tint(st.step, k)) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, t, k);
            ImGui::TableNextColumn();
            const std::vector<TableCell>& row = table.rows[size_t(i)];
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(col.encoder), "%s", row[step_state].text.c_str());
            ImGui::TableNextColumn();
            TextRight(row[step_score].text, !e_ready);
            record_rect("score-" + std::to_string(i + 1));
            ImGui::TableNextColumn();
            TextRight(row[step_exp].text, !exp_ready);
            ImGui::TableNextColumn();
            TextRight(row[step_weight].text, !exp_ready);
            record_rect("weight-" + std::to_string(i + 1));
            ImGui::TableNextColumn();
            // The weight as a bar: the whole cell is a weight of 1.
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const float w = std::max(ImGui::GetContentRegionAvail().x, 40.0f), lh = ImGui::GetTextLineHeight();
            ImDrawList& draw = *ImGui::GetWindowDrawList();
            draw.AddRectFilled({at.x, at.y + 2}, {at.x + w, at.y + lh - 2}, col.bar_track);
            draw.AddRectFilled({at.x, at.y + 2}, {at.x + w * float(std::clamp(r.weights[i], 0.0, 1.0)), at.y + lh - 2},
                               exp_ready ? col.bar : col.faded);
            ImGui::Dummy({w, lh});
            record_rect("bar-" + std::to_string(i + 1));
        }
        ImGui::TableNextRow();
        if (st.step == 1) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, col.highlight, col_exp);
        ImGui::TableNextColumn();
        ImGui::TextDisabled("sum");
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        TextRight(fmt("%.3f", r.denominator), !exp_ready);
        record_rect("denominator");
        ImGui::TableNextColumn();
        double total = 0;
        for (double a : r.weights) total += a;
        TextRight(fmt("%.3f", total), !exp_ready);
        ImGui::EndTable();
    }
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ctx_ready ? col.context : col.faded), "c = \u03a3 \u03b1h = %s",
                       vec_text(r.context, "%.3f").c_str());
    if (st.step >= 2) {
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        ImGui::GetWindowDrawList()->AddRectFilled({a.x - 4, a.y}, {b.x + 4, b.y}, st.step == 2 ? col.highlight : col.source);
    }
    record_rect("context");
}

// Why the dot scores come out as they do: s·h = |s| |h| cos(s, h), so a state can win by length
// as well as by direction. A small table of its own, so the step's table still fits a phone.
void ShowLengths(const WorkedExample& st) {
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Why: s\u00b7h = |s| |h| cos(s, h), so length counts as well as direction.");
    ImGui::PopTextWrapPos();
    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_NoPadOuterX;
    if (ImGui::BeginTable("lengths", S + 1, flags)) {
        ImGui::TableSetupColumn("");
        for (int i = 0; i < S; ++i) ImGui::TableSetupColumn(("h" + std::string(sub[i])).c_str());
        ImGui::TableHeadersRow();
        ImGui::TableNextRow();
        // The step table's length and cosine columns, turned: a row each, a column per state.
        const FigureTable table = step_table(st);
        for (const auto& [c, handle] : {std::pair{step_length, "length-"}, std::pair{step_cosine, "cosine-"}}) {
            if (c == step_cosine) ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(table.columns[size_t(c)].label.c_str());
            for (int i = 0; i < S; ++i) {
                ImGui::TableNextColumn();
                TextRight(table.rows[size_t(i)][size_t(c)].text, false);
                record_rect(handle + std::to_string(i + 1));
            }
        }
        ImGui::EndTable();
    }
}

// A 2-wide row of a matrix or vector as one drag widget; true when it changed.
// For the keyboard each entry is a spin button named `name` and its column, over its half.
bool EditRow(const char* id, std::vector<double>& row, const std::string& name) {
    float v[2] = {float(row[0]), float(row[1])};
    ImGui::SetNextItemWidth(100);
    bool changed = ImGui::DragFloat2(id, v, 0.01f, -3.0f, 3.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
    if (changed) row = {std::round(v[0] * 100) / 100.0, std::round(v[1] * 100) / 100.0};
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    for (int k = 0; k < 2; ++k) {
        const std::string entry = std::string(id) + "-" + std::to_string(k + 1);
        const float x0 = a.x + (b.x - a.x) * float(k) / 2, x1 = a.x + (b.x - a.x) * float(k + 1) / 2;
        describe({.id = entry, .role = Role::spinbutton, .name = name + ", column " + std::to_string(k + 1),
                  .value = row[size_t(k)], .min = -3, .max = 3, .step = 0.05, .box_min = {x0, a.y}, .box_max = {x1, b.y}});
        if (const auto act = take_action(entry, Action::set)) {
            row[size_t(k)] = std::round(std::clamp(act->value, -3.0, 3.0) * 100) / 100.0;
            changed = true;
        }
    }
    return changed;
}
void EditMatrix(const char* name, Mat& m) {
    ImGui::BeginGroup();
    ImGui::TextUnformatted(name);
    ImGui::PushID(name);
    EditRow("##row1", m[0], std::string(name) + " row 1");
    record_rect(std::string(name) + "-row1");
    EditRow("##row2", m[1], std::string(name) + " row 2");
    record_rect(std::string(name) + "-row2");
    ImGui::PopID();
    ImGui::EndGroup();
}
// The gap between groups of the figure's controls on one line: twice the style's.
float group_gap() { return ImGui::GetStyle().ItemSpacing.x * 2; }

void ShowScorer(WorkedExample& st) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Scorer:");
    ImGui::SameLine();
    const Scorer kinds[] = {Scorer::dot, Scorer::general, Scorer::additive};  // widgets scorer-dot ...
    const std::string names[] = {std::string(scorer_name(kinds[0])), std::string(scorer_name(kinds[1])), std::string(scorer_name(kinds[2]))};
    int chosen = int(std::find(std::begin(kinds), std::end(kinds), st.scorer) - std::begin(kinds));
    if (RadioGroup("scorer", "scorer", chosen, names)) st.scorer = kinds[chosen];
    if (st.scorer == Scorer::general) {
        EditMatrix("W", st.params.W);
    } else if (st.scorer == Scorer::additive) {
        EditMatrix("W_d (on s)", st.params.W_d);
        SameLineIfRoom(100, group_gap());
        EditMatrix("W_e (on h)", st.params.W_e);
        SameLineIfRoom(100, group_gap());
        ImGui::BeginGroup();
        ImGui::TextUnformatted("v");
        EditRow("##v", st.params.v, "v");
        record_rect("v");
        ImGui::EndGroup();
    }
    // The temperature on a logarithmic slider, so 0.1 and 10 sit equally far from 1.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Temperature \u03c4");
    ImGui::SameLine();
    float temperature = float(st.temperature);
    ImGui::SetNextItemWidth(120);
    if (SliderFloat("##T", "temperature", &temperature, float(coldest), float(hottest), 0.01f, "%.2f", "temperature \u03c4",
                    ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp))
        st.temperature = std::clamp(std::round(double(temperature) * 100) / 100, coldest, hottest);
    const char* const sqrt_d = "\u03c4 = \u221ad = \u221a2";
    const ImGuiStyle& style = ImGui::GetStyle();
    SameLineIfRoom(ImGui::CalcTextSize(sqrt_d).x + ImGui::CalcTextSize("\u03c4 = 1").x + 4 * style.FramePadding.x + style.ItemSpacing.x,
                   group_gap());
    if (Button(sqrt_d, "temperature-sqrt-d", "\u03c4 = square root of d = square root of 2"))
        st.temperature = std::sqrt(2.0);  // the scaled dot at width 2
    ImGui::SameLine();
    if (Button("\u03c4 = 1", "temperature-one")) st.temperature = 1;

    // Parameter counts at a width the reader picks: the core's formula, not a table.
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Learned parameters at width H =");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    InputInt("##H", "H", &st.width, 1, 4096, "width H");
    const std::string counts = "dot " + grouped(scorer_parameter_count(Scorer::dot, st.width)) + "   general " +
                               grouped(scorer_parameter_count(Scorer::general, st.width)) + "   additive " +
                               grouped(scorer_parameter_count(Scorer::additive, st.width));
    SameLineIfRoom(ImGui::CalcTextSize(counts.c_str()).x, group_gap());
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(counts.c_str());
    record_rect("parameter-counts");
}

// A step the reader takes, said once for a screen reader with its numbers in one sentence (the
// table holding them is drawn, and its text alternative is not a live region).
void AnnounceStep(const WorkedExample& st) {
    ImGuiStorage& storage = *ImGui::GetStateStorage();
    const ImGuiID id = ImGui::GetID("announced-step");
    const int last = storage.GetInt(id, -1);
    storage.SetInt(id, st.step);
    if (last < 0 || last == st.step) return;  // the first frame's step is what the figure shows, not an event
    const AttentionStep& r = st.result;
    const auto three = [](const Vec& v) { return fmt("%.3f", v[0]) + ", " + fmt("%.3f", v[1]) + " and " + fmt("%.3f", v[2]); };
    std::string values;
    switch (st.step) {
        case 0: values = "scores " + three(r.scores); break;
        case 1: values = "weights " + three(r.weights) + ", from exponentials summing to " + fmt("%.3f", r.denominator); break;
        case 2: values = "context c = " + vec_text(r.context, "%.3f") + ", from weights " + three(r.weights); break;
        default: values = "c = " + vec_text(r.context, "%.3f") + " goes into the decoder cell, which picks the next character"; break;
    }
    announce("Step " + std::to_string(st.step + 1) + " of 4, " + step_names[st.step] + ": " + values + ".");
}

void ShowWorkedExample(WorkedExample& st) {
    ShowStepper(st);
    ImGui::Spacing();

    // Wide: the plane on the left, numbers and controls on the right. Narrow (a phone): stacked.
    const float width = ImGui::GetContentRegionAvail().x;
    const bool wide = width >= 620;
    const float side = wide ? std::min(width * 0.45f, 340.0f) : std::min(width, 340.0f);
    ShowPlane(st, side);
    if (wide) {
        ImGui::SameLine(0, 20);
        ImGui::BeginGroup();
    }
    ShowStepTable(st);
    ImGui::Spacing();
    ShowLengths(st);
    ImGui::Spacing();
    ShowScorer(st);
    if (wide) ImGui::EndGroup();
    // The controls below the plane may have changed the scorer or its parameters this frame:
    // recompute, so the state never pairs one scorer with another's numbers, and draw again.
    const AttentionStep drawn = st.result;
    st.result = attention_step(st.scorer, st.s, st.hs, st.params, st.temperature);
    if (st.result.scores != drawn.scores || st.result.weights != drawn.weights) keep_awake();
    AnnounceStep(st);
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

nlohmann::json state_json(const WorkedExample& st) {
    const AttentionStep& r = st.result;
    return {
        {"step", st.step + 1},
        {"step_name", step_names[st.step]},
        {"scorer", std::string(scorer_name(st.scorer))},
        {"s", st.s},
        {"encoder_states", st.hs},
        {"params", {{"W", st.params.W}, {"W_d", st.params.W_d}, {"W_e", st.params.W_e}, {"v", st.params.v}}},
        {"scores", r.scores},
        {"temperature", r.temperature},
        {"lengths", r.lengths},
        {"cosines", r.cosines},  // NaN, written as null, for a zero vector
        {"exps", r.exps},
        {"denominator", r.denominator},
        {"weights", r.weights},
        {"context", r.context},
        {"H", st.width},
        {"parameter_counts",
         {{"dot", scorer_parameter_count(Scorer::dot, st.width)},
          {"general", scorer_parameter_count(Scorer::general, st.width)},
          {"additive", scorer_parameter_count(Scorer::additive, st.width)}}},
        {"dragging", st.dragging < 0 ? "" : st.dragging == S ? "s" : "h" + std::to_string(st.dragging + 1)},
    };
}

std::string text_alternative(const WorkedExample& st) {
    const AttentionStep& r = st.result;
    std::string html;
    html += "<p>Step " + std::to_string(st.step + 1) + " of 4 (" + step_names[st.step] + "): " +
            html_escape(step_description(st)) + "</p>";
    html += table_html(step_table(st), "Scorer: " + std::string(scorer_name(st.scorer)) + "; decoder state s = " + vec_text(st.s, "%.2f") +
                                           "; softmax temperature \u03c4 = " + fmt("%.2f", st.temperature));
    html += "<p>Denominator " + fmt("%.3f", r.denominator) + "; context c = " +
            vec_text(r.context, "%.3f") + ". Learned parameters at width H = " + std::to_string(st.width) + ": dot " +
            grouped(scorer_parameter_count(Scorer::dot, st.width)) + ", general " +
            grouped(scorer_parameter_count(Scorer::general, st.width)) + ", additive " +
            grouped(scorer_parameter_count(Scorer::additive, st.width)) + ".</p>";
    return html;
}

}  // namespace

// [SECTION] The URL: read once, written when the state settles

namespace {
// A 2 × 2 matrix in the URL as "a,b,c,d", row by row, each within ±3.
UrlTable& matrix(UrlTable& url, const std::string& key, Mat& field) {
    return url.entry(key, "4 numbers from -3 to 3, with commas, row by row",
                     [&field] {
                         return number_text(field[0][0]) + "," + number_text(field[0][1]) + "," +
                                number_text(field[1][0]) + "," + number_text(field[1][1]);
                     },
                     [&field](const std::string& text) {
                         const auto flat = UrlTable::parse_numbers(text, 4, -3, 3);
                         if (!flat) return false;
                         field = {{(*flat)[0], (*flat)[1]}, {(*flat)[2], (*flat)[3]}};
                         return true;
                     });
}
}  // namespace

WorkedExample::WorkedExample() {
    reset(*this);
    url.entry("step", "a whole number from 1 to 4",
              [this] { return std::to_string(step + 1); },
              [this](const std::string& text) {
                  if (text.size() != 1 || text[0] < '1' || text[0] > '4') return false;
                  step = text[0] - '1';
                  return true;
              })
        .choice("scorer", scorer, {{"dot", Scorer::dot}, {"general", Scorer::general}, {"additive", Scorer::additive}})
        .numbers("s", s, view_lo, view_hi);
    for (int i = 0; i < S; ++i) url.numbers("h" + std::to_string(i + 1), hs[size_t(i)], view_lo, view_hi);
    matrix(url, "W", params.W);
    matrix(url, "W_d", params.W_d);
    matrix(url, "W_e", params.W_e);
    url.numbers("v", params.v, -3, 3).integer("H", width, 1, 4096).number("T", temperature, coldest, hottest);
}

FigureSpec worked_example_figure(WorkedExample& st) {
    st.result = attention_step(st.scorer, st.s, st.hs, st.params, st.temperature);
    return {
        .name = "worked-example",
        .show = [&st] { ShowWorkedExample(st); },
        .state = [&st] { return state_json(st); },
        .text_alternative = [&st] { return text_alternative(st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
