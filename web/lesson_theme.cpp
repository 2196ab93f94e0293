// web/lesson_theme.cpp — see lesson_theme.h. The runtime's ImGui style is light; the dark one
// here is applied per ImGui context (one per figure) only when the page asks for it, and the
// light colours the runtime chose are put back when the reader switches back.
#include <emscripten/emscripten.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "figure.h"
#include "lesson_theme.h"

namespace lb::web {
namespace {

// The page's theme: read once, then kept current by a matchMedia listener that calls back.
EM_JS(int, js_watch_color_scheme, (), {
    const query = matchMedia("(prefers-color-scheme: dark)");
    query.addEventListener("change", (event) => Module._lb_color_scheme_changed(event.matches ? 1 : 0));
    return query.matches ? 1 : 0;
});
EM_JS(void, js_set_canvas_height, (const char* name, float css_px), {
    const canvas = document.querySelector('canvas[data-figure="' + UTF8ToString(name) + '"]');
    if (canvas) canvas.style.height = css_px + "px";
});

int dark = -1;  // -1: not read yet
std::vector<std::string> watchers;

struct Themed {
    bool dark = false;
    ImVec4 light[ImGuiCol_COUNT];  // the runtime's colours, to put back
};
std::map<ImGuiContext*, Themed> contexts;

void apply_dark(ImGuiStyle& style) {
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = {0.106f, 0.114f, 0.129f, 1.0f};  // #1b1d21, the figure frame in style.css
    c[ImGuiCol_Text] = {0.90f, 0.90f, 0.92f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.58f, 0.59f, 0.63f, 1.0f};
    c[ImGuiCol_Border] = {0.30f, 0.31f, 0.35f, 1.0f};
    c[ImGuiCol_FrameBg] = {0.17f, 0.18f, 0.21f, 1.0f};
    c[ImGuiCol_FrameBgHovered] = {0.22f, 0.25f, 0.30f, 1.0f};
    c[ImGuiCol_FrameBgActive] = {0.25f, 0.30f, 0.38f, 1.0f};
    c[ImGuiCol_Button] = {0.19f, 0.25f, 0.34f, 1.0f};
    c[ImGuiCol_ButtonHovered] = {0.24f, 0.33f, 0.46f, 1.0f};
    c[ImGuiCol_ButtonActive] = {0.29f, 0.41f, 0.58f, 1.0f};
    c[ImGuiCol_CheckMark] = {0.50f, 0.72f, 1.0f, 1.0f};
    c[ImGuiCol_SliderGrab] = {0.43f, 0.62f, 0.90f, 1.0f};
    c[ImGuiCol_SliderGrabActive] = {0.50f, 0.72f, 1.0f, 1.0f};
    c[ImGuiCol_Header] = {0.22f, 0.30f, 0.42f, 1.0f};
    c[ImGuiCol_HeaderHovered] = {0.26f, 0.36f, 0.50f, 1.0f};
    c[ImGuiCol_HeaderActive] = {0.30f, 0.42f, 0.58f, 1.0f};
    c[ImGuiCol_TableHeaderBg] = {0.15f, 0.16f, 0.19f, 1.0f};
    c[ImGuiCol_TableBorderStrong] = {0.32f, 0.33f, 0.37f, 1.0f};
    c[ImGuiCol_TableBorderLight] = {0.25f, 0.26f, 0.29f, 1.0f};
    c[ImGuiCol_TextSelectedBg] = {0.30f, 0.45f, 0.70f, 0.5f};
    c[ImGuiCol_ScrollbarBg] = {0.10f, 0.10f, 0.12f, 1.0f};
    c[ImGuiCol_ScrollbarGrab] = {0.30f, 0.31f, 0.35f, 1.0f};
}

}  // namespace

bool page_is_dark() {
    if (dark < 0) dark = js_watch_color_scheme();
    return dark == 1;
}

const LessonColors& lesson_colors() {
    static const LessonColors light = {
        IM_COL32(37, 99, 170, 255),   IM_COL32(37, 99, 170, 38),
        IM_COL32(205, 96, 20, 255),   IM_COL32(20, 130, 80, 255),
        IM_COL32(0, 0, 0, 22),        IM_COL32(0, 0, 0, 80),
        IM_COL32(255, 214, 120, 150), IM_COL32(160, 200, 240, 110),
        IM_COL32(232, 236, 242, 255), IM_COL32(37, 99, 170, 255),
        IM_COL32(244, 246, 250, 255), IM_COL32(120, 130, 145, 255),
        IM_COL32(160, 160, 165, 255),
        IM_COL32(28, 28, 31, 255),    IM_COL32(105, 105, 115, 255),
        ImVec4(0.75f, 0.10f, 0.10f, 1.0f),
    };
    static const LessonColors night = {
        IM_COL32(110, 170, 240, 255), IM_COL32(110, 170, 240, 40),
        IM_COL32(250, 150, 70, 255),  IM_COL32(90, 205, 140, 255),
        IM_COL32(255, 255, 255, 22),  IM_COL32(255, 255, 255, 90),
        IM_COL32(150, 110, 20, 150),  IM_COL32(40, 80, 130, 150),
        IM_COL32(48, 52, 60, 255),    IM_COL32(110, 170, 240, 255),
        IM_COL32(36, 40, 48, 255),    IM_COL32(120, 130, 150, 255),
        IM_COL32(100, 102, 110, 255),
        IM_COL32(230, 230, 235, 255), IM_COL32(160, 160, 170, 255),
        ImVec4(1.0f, 0.45f, 0.45f, 1.0f),
    };
    return page_is_dark() ? night : light;
}

void figure_begin() {
    ImGuiContext* context = ImGui::GetCurrentContext();
    ImGuiStyle& style = ImGui::GetStyle();
    auto [entry, is_new] = contexts.try_emplace(context);
    Themed& themed = entry->second;
    if (is_new)
        for (int i = 0; i < ImGuiCol_COUNT; ++i) themed.light[i] = style.Colors[i];
    const bool want_dark = page_is_dark();
    if (themed.dark != want_dark) {
        if (want_dark) apply_dark(style);
        else for (int i = 0; i < ImGuiCol_COUNT; ++i) style.Colors[i] = themed.light[i];
        themed.dark = want_dark;
    }
    // The window's background was drawn before `show` ran, in last frame's colours: paint over it.
    const ImVec2 min = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    ImGui::GetWindowDrawList()->AddRectFilled(min, {min.x + size.x, min.y + size.y},
                                              ImGui::GetColorU32(ImGuiCol_WindowBg));
}

void figure_end(std::string_view name) {
    const float content = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + ImGui::GetStyle().WindowPadding.y;
    const float shown = ImGui::GetIO().DisplaySize.y;
    if (std::fabs(std::ceil(content) - shown) >= 1.0f) js_set_canvas_height(std::string(name).c_str(), std::ceil(content));
}

void redraw_on_theme_change(std::string_view name) { watchers.emplace_back(name); }

}  // namespace lb::web

extern "C" EMSCRIPTEN_KEEPALIVE void lb_color_scheme_changed(int is_dark) {
    lb::web::dark = is_dark ? 1 : 0;
    for (const std::string& name : lb::web::watchers) lb::web::request_redraw(name);
}
