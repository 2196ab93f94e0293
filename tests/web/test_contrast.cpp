// Contrast inside the canvases, which no page checker can see: every colour the figures draw
// text, control edges, meaningful chart lines and the focus ring with, against the background
// it is drawn on, in the light and the dark theme (WCAG 2.x: 4.5:1 for text, 3:1 for the rest).
// The ratio is computed here from its definition, not by the runtime.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include <imgui.h>

#include "charts.h"
#include "host.h"
#include "theme.h"

namespace {

// WCAG 2.x relative luminance of an sRGB colour (components 0–1).
double luminance(ImVec4 c) {
    const auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(c.x) + 0.7152 * linear(c.y) + 0.0722 * linear(c.z);
}
// A colour with alpha, as drawn over `under`.
ImVec4 over(ImVec4 c, ImVec4 under) {
    return {c.x * c.w + under.x * (1 - c.w), c.y * c.w + under.y * (1 - c.w), c.z * c.w + under.z * (1 - c.w), 1};
}
double contrast(ImVec4 a, ImVec4 b) {
    const double la = luminance(over(a, b)), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
ImVec4 u32(ImU32 c) { return ImGui::ColorConvertU32ToFloat4(c); }

struct Theme {
    bool dark;
    ImGuiStyle style;
    explicit Theme(bool d) : dark(d) {
        lb::web::detail::page_dark = d;  // lesson_colors() and the charts' colours follow it
        lb::web::detail::apply_style(style, d);
    }
    ~Theme() { lb::web::detail::page_dark = false; }
    ImVec4 operator[](ImGuiCol c) const { return style.Colors[c]; }
};

}  // namespace

TEST_CASE("the contrast formula: black on white is 21:1, #777 on white 4.48:1, a colour on itself 1:1") {
    CHECK(contrast({0, 0, 0, 1}, {1, 1, 1, 1}) == doctest::Approx(21.0));
    CHECK(contrast({119 / 255.0f, 119 / 255.0f, 119 / 255.0f, 1}, {1, 1, 1, 1}) == doctest::Approx(4.478).epsilon(0.001));
    CHECK(contrast({0.3f, 0.5f, 0.7f, 1}, {0.3f, 0.5f, 0.7f, 1}) == doctest::Approx(1.0));
}

TEST_CASE("figure colours meet WCAG contrast in the light and the dark theme") {
    for (const bool dark : {false, true}) {
        const Theme t(dark);
        const lb::web::LessonColors& col = lb::web::lesson_colors();
        const ImVec4 window = t[ImGuiCol_WindowBg];
        CAPTURE(dark);
        // Text: the style's, the figures' own, the dimmed notes, the refusals, the coloured legends
        // and lines of text (encoder, decoder, context, the plain run's grey, the attention run's).
        CHECK(contrast(t[ImGuiCol_Text], window) >= 4.5);
        CHECK(contrast(t[ImGuiCol_TextDisabled], window) >= 4.5);
        CHECK(contrast(u32(col.text), window) >= 4.5);
        CHECK(contrast(u32(col.text_dim), window) >= 4.5);
        CHECK(contrast(col.error, window) >= 4.5);
        for (const ImU32 ink : {col.encoder, col.decoder, col.context, lb::web::plain_color(), lb::web::attention_color()})
            CHECK(contrast(u32(ink), window) >= 4.5);
        // Text on controls: buttons, fields, the header of a table.
        for (const ImGuiCol bg : {ImGuiCol_Button, ImGuiCol_ButtonHovered, ImGuiCol_FrameBg, ImGuiCol_TableHeaderBg, ImGuiCol_Header})
            CHECK(contrast(t[ImGuiCol_Text], over(t[bg], window)) >= 4.5);
        // A control's edge against the figure: buttons and fields carry a border.
        CHECK(t.style.FrameBorderSize >= 1.0f);
        CHECK(contrast(t[ImGuiCol_Border], window) >= 3.0);
        // What shows a control's value: a checkbox's mark, a slider's grab, on the field.
        const ImVec4 field = over(t[ImGuiCol_FrameBg], window);
        CHECK(contrast(t[ImGuiCol_CheckMark], field) >= 3.0);
        CHECK(contrast(t[ImGuiCol_SliderGrab], field) >= 3.0);
        // The focus ring, 2.5 px, outside the control: against the figure and any control beside it.
        for (const ImGuiCol bg : {ImGuiCol_WindowBg, ImGuiCol_Button, ImGuiCol_FrameBg})
            CHECK(contrast(u32(col.focus), over(t[bg], window)) >= 3.0);
        // Chart lines that carry meaning: the two runs' curves and the axes.
        CHECK(contrast(u32(lb::web::plain_color()), window) >= 3.0);
        CHECK(contrast(u32(lb::web::attention_color()), window) >= 3.0);
        CHECK(contrast(u32(col.axis), window) >= 3.0);
    }
}
