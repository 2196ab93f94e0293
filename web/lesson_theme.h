// web/lesson_theme.h — what the lesson's figures share about their look: the page's light or
// dark theme, the colours they draw with, and a canvas as tall as the figure's content.
//
// The theme comes from the reader's prefers-color-scheme (web/lesson_theme.cpp watches it and
// redraws the figures that use it). Each figure calls figure_begin() first in its `show` and
// figure_end() last:
//
//     void ShowSomething(State& st) {
//         figure_begin();
//         ...
//         figure_end("something");
//     }
//
// The three roles keep one colour each across figures and prose: encoder states (blue), the
// decoder state (orange) and the context (green).
#pragma once
#include <string_view>

#include <imgui.h>

namespace lb::web {

struct LessonColors {
    ImU32 encoder, encoder_fill;   // h_i: points, the triangle, plain-model boxes
    ImU32 decoder;                 // s
    ImU32 context;                 // c
    ImU32 grid, axis;              // the plane
    ImU32 highlight;               // table cells of the current step
    ImU32 source;                  // table cells its numbers come from
    ImU32 bar_track, bar;          // weight bars
    ImU32 box, box_border;         // diagram boxes
    ImU32 faded;                   // computed, but not used by the model (h_1..h_{T-1} in plain)
    ImU32 text, text_dim;
    ImVec4 error;                  // messages about bad input
};

// Whether the page is dark now (prefers-color-scheme).
bool page_is_dark();
inline bool lesson_dark() { return page_is_dark(); }
// The figure colours for the page's theme.
const LessonColors& lesson_colors();

// First call in a figure's `show`: gives the current ImGui context the page's theme (the
// runtime's light style, or a dark one) and paints this frame's background accordingly.
void figure_begin();
// Last call in a figure's `show`: makes the canvas of figure `name` as tall as what was drawn,
// so the figure never scrolls inside itself (its width decides its layout, never its height).
void figure_end(std::string_view name);
// Figures to redraw when the reader's theme changes (call from the figure's registration).
void redraw_on_theme_change(std::string_view name);

}  // namespace lb::web
