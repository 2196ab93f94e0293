// web/views/charts.h — the small charts of the experiment's figures: a line plot (loss per step,
// accuracy per epoch) and grouped bars (per position, per length bucket, per input character).
// Each is one ImGui item (an InvisibleButton) drawn with the window's ImDrawList; a chart only
// draws the numbers it is handed. Inline: used by several fig_*.cpp files.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

#include "theme.h"

namespace lb::web {

// A wrapped line in the style's dim text colour: notes under a figure that must fit a phone.
inline void DimTextWrapped(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    WrappedText("%s", text);
    ImGui::PopStyleColor();
}

// The width of a control whose frame is `frame` wide, with its label after it (SameLineIfRoom's,
// theme.h).
inline float labelled(float frame, const char* label) {
    return frame + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
}

// The two models keep one colour each in every chart of the experiment.
inline ImU32 plain_color() { return page_is_dark() ? IM_COL32(170, 170, 180, 255) : IM_COL32(110, 110, 120, 255); }
inline ImU32 attention_color() { return lesson_colors().context; }
inline ImU32 with_alpha(ImU32 color, int alpha) { return (color & 0x00FFFFFFu) | (ImU32(alpha) << 24); }

struct Series {
    std::span<const float> values;  // NaN: a gap
    ImU32 color;
    const char* label;
    bool dots = false;              // a dot on every value (few points: per epoch)
};

inline std::string tick_text(double v) {
    char text[32];
    if (std::fabs(v) >= 100 || v == std::floor(v)) std::snprintf(text, sizeof text, "%.0f", v);
    else std::snprintf(text, sizeof text, "%.2f", v);
    return text;
}

// Whether a chart `width` wide has room for its legend beside its title.
template <class S>
bool legend_fits(float width, const char* title, std::span<const S> series) {
    float legend_w = 0;
    for (const S& s : series) legend_w += ImGui::CalcTextSize(s.label).x + 24;
    return ImGui::CalcTextSize(title).x + legend_w + 12 <= width;
}

// Where a chart's legend goes: beside the title if both fit on one line and the caller does not
// want it `apart` (charts side by side put all legends apart if one must be, so that their plots
// start at one height), else on a line of its own under it. Returns the y where the plot may start.
template <class S>
float legend_row(ImVec2 min, ImVec2 max, const char* title, std::span<const S> series, bool apart, float& legend_y) {
    const float line = ImGui::GetTextLineHeight();
    legend_y = !apart && legend_fits(max.x - min.x, title, series) ? min.y : min.y + line + 2;
    return legend_y + line + 4;
}

inline std::string fixed_tip(float v) {
    if (std::isnan(v)) return "\u2013";
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", v);
    return text;
}

// A line plot of `series` over x = 1..x_count, y in [lo, hi]; `x_label` names the axis. Hovering
// shows every series' value at that x.
inline void LinePlot(const char* id, ImVec2 size, std::span<const Series> series, int x_count, float lo, float hi,
                     const char* title, const char* x_label, bool legend_apart = false) {
    const LessonColors& col = lesson_colors();
    ImGui::InvisibleButton(id, size);
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float line = ImGui::GetTextLineHeight();
    float legend_y = 0;
    const float top = legend_row(min, max, title, series, legend_apart, legend_y);
    const ImVec2 a = {min.x + 34, top}, b = {max.x - 6, max.y - line - 4};  // plot area
    draw.AddText(min, col.text, title);
    draw.AddRectFilled(a, b, col.box);
    for (int k = 0; k <= 4; ++k) {  // horizontal grid, five ticks
        const float v = lo + (hi - lo) * k / 4, y = b.y - (b.y - a.y) * k / 4;
        draw.AddLine({a.x, y}, {b.x, y}, col.grid);
        const std::string text = tick_text(v);
        draw.AddText({a.x - 4 - ImGui::CalcTextSize(text.c_str()).x, y - line / 2}, col.text_dim, text.c_str());
    }
    const int n = std::max(x_count, 2);
    auto x_of = [&](int i) { return a.x + (b.x - a.x) * float(i) / float(n - 1); };
    auto y_of = [&](float v) { return b.y - (b.y - a.y) * std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f); };
    const std::string right = std::to_string(x_count);
    draw.AddText({a.x, b.y + 2}, col.text_dim, "1");
    draw.AddText({b.x - ImGui::CalcTextSize(right.c_str()).x, b.y + 2}, col.text_dim, right.c_str());
    draw.AddText({(a.x + b.x - ImGui::CalcTextSize(x_label).x) / 2, b.y + 2}, col.text_dim, x_label);
    draw.PushClipRect(a, b, true);
    for (const Series& s : series) {
        // Many points: one vertex per horizontal pixel at most (the min..max of the bucket).
        const int count = int(s.values.size());
        const float pixels = b.x - a.x;
        if (count > pixels * 1.5f) {
            const int buckets = int(pixels);
            std::vector<ImVec2> points;
            for (int p = 0; p < buckets; ++p) {
                const int from = int(double(p) * count / buckets), to = std::max(from + 1, int(double(p + 1) * count / buckets));
                float sum = 0;
                int used = 0;
                for (int i = from; i < to && i < count; ++i)
                    if (!std::isnan(s.values[size_t(i)])) sum += s.values[size_t(i)], used++;
                if (used) points.push_back({x_of(int((from + to) / 2)), y_of(sum / used)});
            }
            draw.AddPolyline(points.data(), int(points.size()), s.color, 0, 1.5f);
        } else {
            ImVec2 previous{};
            bool have = false;
            for (int i = 0; i < count; ++i) {
                const float v = s.values[size_t(i)];
                if (std::isnan(v)) { have = false; continue; }
                const ImVec2 p = {x_of(i), y_of(v)};
                if (have) draw.AddLine(previous, p, s.color, 1.8f);
                if (s.dots) draw.AddCircleFilled(p, 3, s.color);
                previous = p;
                have = true;
            }
        }
    }
    draw.PopClipRect();
    // Legend, top right.
    float x = max.x - 6;
    for (auto s = series.rbegin(); s != series.rend(); ++s) {
        x -= ImGui::CalcTextSize(s->label).x;
        draw.AddText({x, legend_y}, s->color, s->label);
        x -= 14;
        draw.AddRectFilled({x, legend_y + line / 2 - 1.5f}, {x + 10, legend_y + line / 2 + 1.5f}, s->color);
        x -= 10;
    }
    if (ImGui::IsItemHovered() && x_count > 0) {
        const float mx = ImGui::GetIO().MousePos.x;
        const int i = std::clamp(int(std::lround((mx - a.x) / (b.x - a.x) * (n - 1))), 0, x_count - 1);
        draw.AddLine({x_of(i), a.y}, {x_of(i), b.y}, col.axis);
        std::string tip = std::string(x_label) + " " + std::to_string(i + 1);
        for (const Series& s : series)
            if (i < int(s.values.size())) tip += std::string("\n") + s.label + ": " + fixed_tip(s.values[size_t(i)]);
        ImGui::SetTooltip("%s", tip.c_str());
    }
}

// Bars: groups along x (one label each), one bar per series in a group, values in [0, hi]. A
// `mark` series is a level, not a bar: a line across its whole group (a baseline to read the
// bars against).
struct BarSeries {
    std::span<const double> values;  // one per group; NaN: no bar
    ImU32 color;
    const char* label;
    bool mark = false;
};
inline void GroupedBars(const char* id, ImVec2 size, std::span<const BarSeries> series,
                        std::span<const std::string> groups, double hi, const char* title, bool legend_apart = false) {
    const LessonColors& col = lesson_colors();
    ImGui::InvisibleButton(id, size);
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float line = ImGui::GetTextLineHeight();
    float legend_y = 0;
    const float top = legend_row(min, max, title, series, legend_apart, legend_y);
    const ImVec2 a = {min.x + 34, top}, b = {max.x - 4, max.y - line - 4};
    draw.AddText(min, col.text, title);
    for (int k = 0; k <= 4; ++k) {
        const float y = b.y - (b.y - a.y) * k / 4;
        draw.AddLine({a.x, y}, {b.x, y}, col.grid);
        const std::string text = tick_text(hi * k / 4);
        draw.AddText({a.x - 4 - ImGui::CalcTextSize(text.c_str()).x, y - line / 2}, col.text_dim, text.c_str());
    }
    const int n = int(groups.size());
    const int m = int(std::count_if(series.begin(), series.end(), [](const BarSeries& s) { return !s.mark; }));
    if (n == 0 || m == 0) return;
    const float group_w = (b.x - a.x) / n, bar_w = std::max(2.0f, (group_w - 6) / m);
    auto y_of = [&](double v) { return b.y - (b.y - a.y) * float(std::clamp(v / hi, 0.0, 1.0)); };
    int hovered_group = -1;
    if (ImGui::IsItemHovered()) hovered_group = std::clamp(int((ImGui::GetIO().MousePos.x - a.x) / group_w), 0, n - 1);
    for (int g = 0; g < n; ++g) {
        const float gx = a.x + g * group_w + 3;
        if (g == hovered_group) draw.AddRectFilled({gx - 3, a.y}, {gx - 3 + group_w, b.y}, col.highlight);
        int slot = 0;
        for (const BarSeries& s : series) {
            const double v = g < int(s.values.size()) ? s.values[size_t(g)] : NAN;
            if (!s.mark && !std::isnan(v))
                draw.AddRectFilled({gx + slot * bar_w, y_of(v)}, {gx + (slot + 1) * bar_w - 1, b.y}, s.color);
            slot += !s.mark;
        }
        for (const BarSeries& s : series) {  // levels over the bars
            const double v = g < int(s.values.size()) ? s.values[size_t(g)] : NAN;
            if (s.mark && !std::isnan(v)) draw.AddLine({gx - 2, y_of(v)}, {gx - 4 + group_w, y_of(v)}, s.color, 2.0f);
        }
        const ImVec2 ts = ImGui::CalcTextSize(groups[size_t(g)].c_str());
        draw.AddText({gx - 3 + (group_w - ts.x) / 2, b.y + 2}, col.text_dim, groups[size_t(g)].c_str());
    }
    float x = max.x - 4;
    for (auto s = series.rbegin(); s != series.rend(); ++s) {
        x -= ImGui::CalcTextSize(s->label).x;
        draw.AddText({x, legend_y}, s->color, s->label);
        x -= 14;
        if (s->mark)
            draw.AddLine({x, legend_y + line / 2}, {x + 10, legend_y + line / 2}, s->color, 2.0f);
        else
            draw.AddRectFilled({x, legend_y + 3}, {x + 10, legend_y + line - 3}, s->color);
        x -= 10;
    }
    if (hovered_group >= 0) {
        std::string tip = groups[size_t(hovered_group)];
        for (const BarSeries& s : series) {
            const double v = hovered_group < int(s.values.size()) ? s.values[size_t(hovered_group)] : NAN;
            tip += std::string("\n") + s.label + ": " + fixed_tip(float(v));
        }
        ImGui::SetTooltip("%s", tip.c_str());
    }
}

}  // namespace lb::web
