// web/figures/bottleneck.cpp — figure "bottleneck": where the information flows in the plain
// encoder–decoder and in the attention one, drawn side by side (stacked on a phone).
//
// Plain: x → h₁ → … → h₄ → s₀ → s₁ → …; only the last encoder state reaches the decoder, the
// others are drawn faded because nothing reads them. Attention: every hⱼ is scored against the
// decoder's previous state, the scores go through a softmax, the weights mix the hⱼ into a
// context that enters the decoder cell. Every box is a button: clicking it shows what the box
// does, under the diagrams and in the text alternative. The softmax's bars are real weights,
// computed by lb::attention_step on a small fixed example (not measured, just illustrative).
//
// Legend: T source positions drawn (4).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>

#include "controls.h"
#include "lesson1.h"
#include "theme.h"

namespace lb::web {
namespace {

constexpr int T = 4;
const char* const sub[] = {"\u2080", "\u2081", "\u2082", "\u2083", "\u2084"};

struct Explanation {
    const char* box;
    const char* title;
    const char* text;
};
// What each box does, in the order a reader would meet them.
const Explanation explanations[] = {
    {"plain-x", "Input symbols x\u2081 \u2026 x\u2084",
     "The source, one character per step, read from left to right."},
    {"plain-h", "Encoder states h\u2081 \u2026 h\u2083",
     "Each state folds one more symbol into the running summary and hands it to the next step. After that "
     "nothing reads it again: the decoder never sees these states."},
    {"plain-last", "The last encoder state h\u2084 (h_S)",
     "The only thing the decoder receives. Everything about the input has to fit into these H numbers, and "
     "the symbols read first have been overwritten the most times."},
    {"plain-s", "Decoder states s\u2080 \u2026 s\u2083",
     "s\u2080 starts from the encoder's last state. After that each step sees only its own previous state and "
     "the symbol it wrote last, so every output symbol comes from the same one summary."},
    {"plain-y", "Outputs y\u2081 \u2026 y\u2083", "The symbols the decoder writes, one per step."},
    {"attn-x", "Input symbols x\u2081 \u2026 x\u2084", "The same source, read the same way."},
    {"attn-h", "Encoder states h\u2081 \u2026 h\u2084",
     "All of them are kept. Each is scored against the decoder's state and mixed into the context."},
    {"attn-query", "The decoder's previous state s\u209c\u208b\u2081",
     "It stands for what the decoder needs at this step and is compared with every encoder state. (Later "
     "papers call it the query.)"},
    {"attn-score", "Scores",
     "One number per source position, score(s\u209c\u208b\u2081, h): how well that position fits what the decoder "
     "needs now. Dot, general or additive: see the section on scoring functions."},
    {"attn-softmax", "Softmax",
     "Turns the scores into weights \u03b1 that are positive and add up to 1: a distribution over the source "
     "positions, drawn here as bars."},
    {"attn-context", "Context c\u209c = \u03a3 \u03b1\u00b7h",
     "The encoder states mixed in proportion to their weights: a new summary of the source, made again at "
     "every output step."},
    {"attn-s", "The decoder's new state s\u209c",
     "Its cell reads the symbol written last together with the context (Bahdanau's arrangement); from it "
     "the next symbol is predicted."},
    {"attn-y", "Output y\u209c", "The symbol written at this step. Then the whole round runs again for the next one."},
};
const Explanation* find_explanation(const std::string& box) {
    for (const Explanation& e : explanations)
        if (box == e.box) return &e;
    return nullptr;
}

void Arrow(ImDrawList& draw, ImVec2 from, ImVec2 to, ImU32 color, float thickness = 1.5f) {
    const float dx = to.x - from.x, dy = to.y - from.y, length = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
    const float ux = dx / length, uy = dy / length, head = 7;
    const ImVec2 base = {to.x - ux * head, to.y - uy * head};
    draw.AddLine(from, base, color, thickness);
    draw.AddTriangleFilled(to, {base.x - uy * head * 0.5f, base.y + ux * head * 0.5f},
                           {base.x + uy * head * 0.5f, base.y - ux * head * 0.5f}, color);
}

// A clickable box with centred text; `group` is the explanation key shared by a row of boxes.
void Box(Bottleneck& st, const std::string& id, const char* group, ImVec2 min, ImVec2 max, const std::string& text,
         ImU32 accent, bool faded = false) {
    const LessonColors& col = lesson_colors();
    ImGui::SetCursorScreenPos(min);
    if (ImGui::InvisibleButton(id.c_str(), {max.x - min.x, max.y - min.y})) st.selected = group;
    record_rect(id);
    // For the keyboard, one button per group of boxes (over its first box): Tab meets each
    // explanation once, not each of the thirty boxes.
    static int frame = -1;
    static std::vector<std::string> described;
    if (frame != ImGui::GetFrameCount()) frame = ImGui::GetFrameCount(), described.clear();
    if (std::find(described.begin(), described.end(), group) == described.end()) {
        described.push_back(group);
        const Explanation* e = find_explanation(group);
        // Not a model kind: the drawing's box groups are named after the diagram they sit in.
        const std::string model = std::string(group).starts_with("plain") ? "plain model: " : "attention model: ";
        describe({.id = group, .role = Role::button, .name = model + (e ? e->title : text), .pressed = st.selected == group});
        if (take_action(group, Action::press)) st.selected = group;
    }
    const bool hovered = ImGui::IsItemHovered(), selected = st.selected == group;
    if (hovered) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    draw.AddRectFilled(min, max, col.box, 4);
    draw.AddRect(min, max, faded ? col.faded : accent, 4, 0, selected ? 3.0f : hovered ? 2.0f : 1.2f);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    draw.AddText({(min.x + max.x - size.x) / 2, (min.y + max.y - size.y) / 2}, faded ? col.faded : col.text, text.c_str());
}

// Rows of both panels, as offsets from the panel's top (CSS px).
constexpr float row_y = 28, row_ctx = 80, row_softmax = 134, row_score = 196, row_h = 248, row_x = 296;
constexpr float box_h = 30, panel_h = 330;

void PlainPanel(Bottleneck& st, ImVec2 o, float width) {
    const LessonColors& col = lesson_colors();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    draw.AddText(o, col.text, "Plain encoder\u2013decoder");
    const float cw = width / T, bw = std::min(64.0f, cw - 10);
    auto cell = [&](int c, float y, float h = box_h) {
        const float cx = o.x + cw * (c + 0.5f);
        return std::pair<ImVec2, ImVec2>{{cx - bw / 2, o.y + y}, {cx + bw / 2, o.y + y + h}};
    };
    for (int j = 0; j < T; ++j) {  // x -> h, and h -> h
        const auto [xa, xb] = cell(j, row_x, 24);
        const auto [ha, hb] = cell(j, row_h);
        const bool last = j == T - 1;
        Arrow(draw, {(xa.x + xb.x) / 2, xa.y}, {(ha.x + hb.x) / 2, hb.y}, last ? col.encoder : col.faded);
        if (j > 0) Arrow(draw, {cell(j - 1, row_h).second.x, (ha.y + hb.y) / 2}, {ha.x, (ha.y + hb.y) / 2}, col.faded);
    }
    const auto [sa, sb] = cell(0, row_ctx);
    const auto [la, lb] = cell(T - 1, row_h);
    Arrow(draw, {(la.x + lb.x) / 2, la.y}, {(sa.x + sb.x) / 2 + 8, sb.y}, col.encoder, 2.5f);  // h_S -> s_0
    draw.AddText({o.x + cw * 0.9f, o.y + row_score - 6}, col.text_dim, "h\u2081 \u2026 h\u2083: dropped");
    for (int k = 1; k < T; ++k) {  // s -> s, s -> y
        const auto [a, b] = cell(k, row_ctx);
        const auto [ya, yb] = cell(k, row_y, 24);
        Arrow(draw, {cell(k - 1, row_ctx).second.x, (a.y + b.y) / 2}, {a.x, (a.y + b.y) / 2}, col.decoder);
        Arrow(draw, {(a.x + b.x) / 2, a.y}, {(ya.x + yb.x) / 2, yb.y}, col.decoder);
    }
    for (int j = 0; j < T; ++j) {
        const auto [xa, xb] = cell(j, row_x, 24);
        Box(st, "plain-x" + std::to_string(j + 1), "plain-x", xa, xb, "x" + std::string(sub[j + 1]), col.text_dim);
        const auto [ha, hb] = cell(j, row_h);
        const bool last = j == T - 1;
        Box(st, "plain-h" + std::to_string(j + 1), last ? "plain-last" : "plain-h", ha, hb, "h" + std::string(sub[j + 1]),
            col.encoder, !last);
        const auto [a, b] = cell(j, row_ctx);
        Box(st, "plain-s" + std::to_string(j), "plain-s", a, b, "s" + std::string(sub[j]), col.decoder);
        if (j > 0) {
            const auto [ya, yb] = cell(j, row_y, 24);
            Box(st, "plain-y" + std::to_string(j), "plain-y", ya, yb, "y" + std::string(sub[j]), col.decoder);
        }
    }
}

void AttentionPanel(Bottleneck& st, ImVec2 o, float width, const AttentionStep& example) {
    const LessonColors& col = lesson_colors();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    draw.AddText(o, col.text, "With attention (one decoder step t)");
    const float cw = width / (T + 1), bw = std::min(64.0f, cw - 10);
    auto cell = [&](int c, float y, float h = box_h) {  // column 0: the decoder; 1..T: the source
        const float cx = o.x + cw * (c + 0.5f);
        return std::pair<ImVec2, ImVec2>{{cx - bw / 2, o.y + y}, {cx + bw / 2, o.y + y + h}};
    };
    auto span = [&](float y, float h) {  // a box across the source columns
        return std::pair<ImVec2, ImVec2>{{cell(1, y).first.x, o.y + y}, {cell(T, y).second.x, o.y + y + h}};
    };
    const float softmax_h = 44;
    const auto [ma, mb] = span(row_softmax, softmax_h);
    const auto [ca, cb] = span(row_ctx, box_h);
    const auto [qa, qb] = cell(0, row_score);
    const auto [sa, sb] = cell(0, row_ctx);
    const auto [ya, yb] = cell(0, row_y, 24);

    // Flow first, boxes on top.
    Arrow(draw, {qb.x, (qa.y + qb.y) / 2}, {cell(T, row_score).second.x + 2, (qa.y + qb.y) / 2}, col.decoder);  // query bus
    for (int j = 1; j <= T; ++j) {
        const auto [xa, xb] = cell(j, row_x, 24);
        const auto [ha, hb] = cell(j, row_h);
        const auto [ea, eb] = cell(j, row_score);
        const float cx = (ha.x + hb.x) / 2;
        Arrow(draw, {cx, xa.y}, {cx, hb.y}, col.encoder);
        if (j > 1) Arrow(draw, {cell(j - 1, row_h).second.x, (ha.y + hb.y) / 2}, {ha.x, (ha.y + hb.y) / 2}, col.encoder);
        Arrow(draw, {cx, ha.y}, {cx, eb.y}, col.encoder);
        Arrow(draw, {cx, ea.y}, {cx, mb.y}, col.text_dim);
    }
    Arrow(draw, {(ma.x + mb.x) / 2, ma.y}, {(ma.x + mb.x) / 2, cb.y}, col.text_dim);
    Arrow(draw, {ca.x, (ca.y + cb.y) / 2}, {sb.x, (sa.y + sb.y) / 2}, col.context, 2.5f);
    Arrow(draw, {(qa.x + qb.x) / 2, qa.y}, {(sa.x + sb.x) / 2, sb.y}, col.decoder);
    Arrow(draw, {(sa.x + sb.x) / 2, sa.y}, {(ya.x + yb.x) / 2, yb.y}, col.decoder);

    for (int j = 1; j <= T; ++j) {
        const auto [xa, xb] = cell(j, row_x, 24);
        Box(st, "attn-x" + std::to_string(j), "attn-x", xa, xb, "x" + std::string(sub[j]), col.text_dim);
        const auto [ha, hb] = cell(j, row_h);
        Box(st, "attn-h" + std::to_string(j), "attn-h", ha, hb, "h" + std::string(sub[j]), col.encoder);
        const auto [ea, eb] = cell(j, row_score);
        Box(st, "attn-score" + std::to_string(j), "attn-score", ea, eb, "e" + std::string(sub[j]), col.text_dim);
    }
    Box(st, "attn-query", "attn-query", qa, qb, "s\u209c\u208b\u2081", col.decoder);
    Box(st, "attn-softmax", "attn-softmax", ma, mb, "", col.text_dim);
    draw.AddText({ma.x + 6, ma.y + 3}, col.text, "softmax \u2192 \u03b1");
    for (int j = 1; j <= T; ++j) {  // the weights as bars inside the softmax box
        const auto [ha, hb] = cell(j, row_h);
        const float bar = 18 * float(example.weights[j - 1]) / 0.6f;
        draw.AddRectFilled({ha.x + 10, mb.y - 4 - bar}, {hb.x - 10, mb.y - 4}, col.bar);
    }
    Box(st, "attn-context", "attn-context", ca, cb, "c\u209c = \u03a3 \u03b1\u00b7h", col.context);
    Box(st, "attn-s", "attn-s", sa, sb, "s\u209c", col.decoder);
    Box(st, "attn-y", "attn-y", ya, yb, "y\u209c", col.decoder);
}

void ShowBottleneck(Bottleneck& st, const AttentionStep& example) {
    const float width = ImGui::GetContentRegionAvail().x;
    const bool wide = width >= 640;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float gap = 28, pw = wide ? (width - gap) / 2 : width;
    PlainPanel(st, o, pw);
    if (wide) AttentionPanel(st, {o.x + pw + gap, o.y}, pw, example);
    else AttentionPanel(st, {o.x, o.y + panel_h + 12}, pw, example);
    ImGui::SetCursorScreenPos({o.x, o.y + (wide ? panel_h : 2 * panel_h + 12)});

    ImGui::PushTextWrapPos(0);
    if (const Explanation* e = find_explanation(st.selected)) {
        ImGui::TextUnformatted(e->title);
        ImGui::TextUnformatted(e->text);
    } else {
        ImGui::TextDisabled("Click any box to read what it does.");
    }
    ImGui::PopTextWrapPos();
    record_rect("explanation");
}

std::string text_alternative(const Bottleneck& st) {
    std::string html =
        "<p>Two diagrams. The first, the plain encoder\u2013decoder: inputs x\u2081 to x\u2084 feed encoder states h\u2081 to "
        "h\u2084, each passing its state to the next; only h\u2084 is passed to the decoder, which starts from it as s\u2080 "
        "and writes y\u2081, y\u2082, y\u2083; h\u2081 to h\u2083 are drawn faded because nothing reads them. The second, one "
        "step t of the attention model: the decoder's previous state s\u209c\u208b\u2081 is scored against every encoder "
        "state, the scores go through a softmax into weights \u03b1, the weights mix the encoder states into the "
        "context c\u209c, and c\u209c enters the decoder's new state s\u209c, which predicts y\u209c.</p>";
    if (const Explanation* e = find_explanation(st.selected))
        html += "<p><strong>" + html_escape(e->title) + ".</strong> " + html_escape(e->text) + "</p>";
    return html;
}

}  // namespace

FigureSpec bottleneck_figure(Bottleneck& st) {
    // Illustrative weights for the softmax box: s against four states in the plane.
    static const AttentionStep example =
        attention_step(Scorer::dot, {1.2, 0.4}, {{0.2, 0.9}, {1.0, 0.1}, {0.6, 0.6}, {0.1, 0.2}});
    return {
        .name = "bottleneck",
        .show = [&st] { ShowBottleneck(st, example); },
        .state = [&st] {
            const Explanation* e = find_explanation(st.selected);
            return nlohmann::json{{"selected", st.selected}, {"explanation", e ? e->text : ""}};
        },
        .text_alternative = [&st] { return text_alternative(st); },
        .fit_height = true,
    };
}

}  // namespace lb::web
