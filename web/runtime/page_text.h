// web/runtime/page_text.h — text the figures put on the page: HTML for text alternatives, numbers
// written for readers, lines broken to a width. (Untrusted text made safe is core/text/text.h's.)
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "text/text.h"  // grouped and fixed: numbers as the page writes them

namespace lb::web {

// Escapes text for the HTML of a text alternative.
std::string html_escape(std::string_view text);
// Seconds as "1:05"; "–" when unknown.
std::string minutes_seconds(double seconds);

// `text` with a line break wherever its next word would pass `width`, as `measure` (the width
// of a piece of text) says: breaks at spaces only (the space is dropped), so "0.460" or
// "2026-12-01" stays whole, and keeps the text's own line breaks. A word wider than a line alone
// is cut between characters.
std::string break_lines(std::string_view text, float width, const std::function<float(std::string_view)>& measure);

// A token as the figures draw it: one that opens with a combining mark (a vowel sign, virama or
// haraka alone as a character token) gets the dotted circle U+25CC as the base it lacks, the
// convention for a mark shown alone; ImGui would otherwise draw the mark over nothing, or over
// the character drawn before it. Any other text as it is. For drawing only: text alternatives and
// figure state keep the token itself.
std::string token_for_drawing(std::string_view token);

// Copies text into a fixed buffer (an ImGui text field), cut on a character boundary.
void copy_utf8(char* out, size_t capacity, std::string_view text);

}  // namespace lb::web
