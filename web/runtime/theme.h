// web/runtime/theme.h — the colours the lesson's figures draw with, for the page's light or dark
// theme (the runtime's page_is_dark(), web/runtime/figure.h: it also gives every figure the matching
// ImGui style and redraws them when the reader's theme changes).
//
// The three roles keep one colour each across figures and prose: encoder states (blue), the
// decoder state (orange) and the context (green).
#pragma once
#include <imgui.h>

#include "figure.h"

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
    ImU32 focus;                   // the ring around the control the keyboard is on
};

// The figure colours for the page's theme.
const LessonColors& lesson_colors();

// Text wrapped to the space left on the line, as ImGui::TextWrapped but broken at spaces only
// (page_text.h's break_lines): ImGui also breaks after '.' and ',', which splits a number.
void WrappedText(const char* format, ...) IM_FMTARGS(1);

}  // namespace lb::web
