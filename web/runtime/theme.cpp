// web/runtime/theme.cpp — one theme for every figure: the lesson's palette (theme.h), the ImGui
// style of the page's light or dark theme, the figures' font, and text wrapped with it.
#include "theme.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "dejavu_sans.h"
#include "host.h"
#include "page_text.h"

namespace lb::web {

void WrappedText(const char* format, ...) {
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    std::string text(std::max(0, std::vsnprintf(nullptr, 0, format, args)), '\0');
    std::vsnprintf(text.data(), text.size() + 1, format, again);
    va_end(again);
    va_end(args);
    const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    const std::string lines = break_lines(text, width, [](std::string_view piece) {
        return ImGui::CalcTextSize(piece.data(), piece.data() + piece.size()).x;
    });
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
}

const LessonColors& lesson_colors() {
    static const LessonColors light = {
        IM_COL32(37, 99, 170, 255),   IM_COL32(37, 99, 170, 38),
        IM_COL32(184, 80, 10, 255),   IM_COL32(20, 130, 80, 255),
        IM_COL32(0, 0, 0, 22),        IM_COL32(0, 0, 0, 140),
        IM_COL32(255, 214, 120, 150), IM_COL32(160, 200, 240, 110),
        IM_COL32(232, 236, 242, 255), IM_COL32(37, 99, 170, 255),
        IM_COL32(244, 246, 250, 255), IM_COL32(120, 130, 145, 255),
        IM_COL32(160, 160, 165, 255),
        IM_COL32(28, 28, 31, 255),    IM_COL32(105, 105, 115, 255),
        ImVec4(0.75f, 0.10f, 0.10f, 1.0f),
        IM_COL32(0, 90, 200, 255),
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
        IM_COL32(255, 200, 60, 255),
    };
    return page_is_dark() ? night : light;
}

}  // namespace lb::web

//-----------------------------------------------------------------------------------------------
// The ImGui style and the font of every figure
//-----------------------------------------------------------------------------------------------

namespace lb::web::detail {

// The light style, and for a dark page the colours that differ from it.
void apply_style(ImGuiStyle& style, bool dark) {
    ImGui::StyleColorsLight(&style);
    style.WindowPadding = {12, 10};
    style.WindowRounding = 0;
    style.WindowBorderSize = 0;
    style.FrameRounding = 3;
    style.FramePadding = {8, 4.5f};  // a frame 24 px high at the 15 px font: WCAG 2.2's smallest pointer target
    style.ItemSpacing = {8, 6};
    style.CellPadding = {8, 3};
    style.GrabRounding = 3;
    // Every button and field has an edge of 3:1 against the figure (WCAG 1.4.11), as have the
    // marks that show a value (tests/web/test_contrast.cpp).
    style.FrameBorderSize = 1;
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = {1.0f, 1.0f, 1.0f, 1.0f};
    c[ImGuiCol_Text] = {0.11f, 0.11f, 0.12f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.42f, 0.42f, 0.45f, 1.0f};
    c[ImGuiCol_Button] = {0.86f, 0.90f, 0.95f, 1.0f};
    c[ImGuiCol_ButtonHovered] = {0.76f, 0.84f, 0.93f, 1.0f};
    c[ImGuiCol_ButtonActive] = {0.64f, 0.76f, 0.90f, 1.0f};
    c[ImGuiCol_FrameBg] = {0.94f, 0.95f, 0.96f, 1.0f};
    c[ImGuiCol_TableHeaderBg] = {0.94f, 0.94f, 0.93f, 1.0f};
    c[ImGuiCol_TableBorderStrong] = {0.80f, 0.80f, 0.80f, 1.0f};
    c[ImGuiCol_TableBorderLight] = {0.88f, 0.88f, 0.88f, 1.0f};
    c[ImGuiCol_Border] = {0.50f, 0.50f, 0.53f, 1.0f};
    c[ImGuiCol_CheckMark] = {0.10f, 0.40f, 0.80f, 1.0f};
    c[ImGuiCol_SliderGrab] = {0.10f, 0.40f, 0.80f, 1.0f};
    c[ImGuiCol_SliderGrabActive] = {0.06f, 0.30f, 0.65f, 1.0f};
    if (!dark) return;
    c[ImGuiCol_WindowBg] = {0.106f, 0.114f, 0.129f, 1.0f};  // #1b1d21, the figure frame in style.css
    c[ImGuiCol_Text] = {0.90f, 0.90f, 0.92f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.58f, 0.59f, 0.63f, 1.0f};
    c[ImGuiCol_Border] = {0.43f, 0.45f, 0.49f, 1.0f};
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

// DejaVu Sans at the canvas's devicePixelRatio, shown at 15 CSS px. The glyph ranges, the
// article's notation, are CMakeLists.txt's LOOKBACK_FONT_RANGES: the embedded font is a subset
// holding just those.
ImFontAtlas& shared_font_atlas() {
    static ImFontAtlas atlas;
    return atlas;
}

namespace {
float atlas_dpr = 0;  // the ratio the shared atlas was rasterised at (0: never)
int atlas_version = 0;
}  // namespace

void build_font(Host& h) {
    static const ImWchar ranges[] = {LOOKBACK_FONT_RANGES, 0};
    constexpr float css_size = 15.0f;
    ImFontAtlas& atlas = shared_font_atlas();
    if (atlas_dpr != h.dpr) {
        atlas.Clear();
        ImFontConfig config;
        config.FontDataOwnedByAtlas = false;     // the bytes are the module's: the atlas copies them
        config.OversampleH = config.OversampleV = 1;
        config.PixelSnapH = true;                // whole-pixel advances: glyphs land on pixels
        void* ttf = const_cast<unsigned char*>(embedded::dejavu_sans_ttf);
        atlas.AddFontFromMemoryTTF(ttf, sizeof embedded::dejavu_sans_ttf, css_size * h.dpr, &config, ranges);
        atlas.Build();
        atlas.SetTexID(GlRenderer::shared_font_texture);
        atlas_dpr = h.dpr;
        ++atlas_version;
    }
    if (h.font_version != atlas_version) {
        h.renderer.upload_fonts(atlas);
        h.font_version = atlas_version;
    }
    ImGui::GetIO().FontGlobalScale = 1.0f / h.dpr;
}

}  // namespace lb::web::detail
