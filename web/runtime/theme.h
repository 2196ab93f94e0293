// web/runtime/theme.h — the colours the lesson's figures draw with, for the page's light or dark
// theme (the runtime's page_is_dark(), web/runtime/figure.h: it also gives every figure the matching
// ImGui style and redraws them when the reader's theme changes).
//
// The three roles keep one colour each across figures and prose: encoder states (blue), the
// decoder state (orange) and the context (green).
#pragma once
#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

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

// Puts the next item beside the last, `spacing` after it (the style's item spacing if negative),
// if the line has room for `width` (a control's frame and label together, a group), else at the
// start of the next line: a row of settings wraps to a phone.
inline void SameLineIfRoom(float width, float spacing = -1) {
    ImGui::SameLine(0, spacing);
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// --- glyphs beyond the figures' font ------------------------------------------------------------
// The figures draw with a subset of DejaVu Sans baked into the module (CMakeLists.txt's
// LOOKBACK_FONT_RANGES). A reader's task may use any character, so the site ships fuller fonts
// beside the module (CMakeLists.txt's LOOKBACK_SHIPPED_FONTS) that the page fetches only for a
// task that needs one; the shared atlas then holds the baked ranges plus exactly the task's other
// code points. A character with no glyph is drawn as □, never as a '?' that a task might hold.
struct GlyphNeed {
    std::vector<char32_t> missing;      // the code points asked for that the baked font lacks
    std::vector<std::string> fonts;     // the site's fonts (paths) holding some of them, not loaded yet
    std::vector<char32_t> unavailable;  // in no font the site ships, or past U+FFFF (ImGui keys glyphs
                                        // by 16 bits): drawn as □
    std::string drawing_note;           // drawing_note of the code points asked for
};
// Those of `code_points` (ascending) that the baked font lacks.
std::vector<char32_t> missing_from_baked_font(const std::vector<char32_t>& code_points);
// From the next frame on the atlas holds `code_points` besides the baked ranges (replacing the
// last call's; none: the baked font alone). Each is taken from the first font in the site's order
// (LOOKBACK_SHIPPED_FONTS) that has it, unless every code point so given to a font is also in
// another the task needs: that font is then not asked for (a Bengali task's danda, also in the
// Devanagari font, comes with the Bengali one). The atlas takes them from the task's fonts first,
// then from any other loaded one.
GlyphNeed want_glyphs(const std::vector<char32_t>& code_points);
// A shipped font's bytes as the page fetched them (`file` its path in the site); the atlas is
// rebuilt at the next frame. Throws std::invalid_argument for a path the site does not ship or
// bytes that are not that font.
void add_font(std::string_view file, std::vector<unsigned char> bytes);
// "2 characters have no glyph in the figures' font and show as □: '𝔸' (U+1D538) and 'ꙮ'
// (U+A66E)." (the first 8 named, then how many more), or "" for none: said once to the reader.
std::string no_glyph_note(const std::vector<char32_t>& unavailable);
// What the reader should know of how the figures draw these code points, said once with the
// task: that right-to-left text is drawn in stored order, left to right, and that each character
// is drawn by itself (ImGui shapes nothing: no conjuncts, no reordered vowel signs, no joined
// Arabic letters; a lone mark sits on a dotted circle, page_text.h's token_for_drawing); "" for
// text that needs neither.
std::string drawing_note(const std::vector<char32_t>& code_points);
// The characters of `text` (UTF-8) that the atlas last built has no glyph for, each once.
std::vector<char32_t> missing_glyphs(std::string_view text);

}  // namespace lb::web
