// tests/test_page_text.cpp — the figures' line breaking (web/runtime/page_text.h): lines break at
// spaces only, so a number keeps its decimal point ("0.460" was drawn as "0." and "460"), and a
// word too wide for a line is cut between characters, never inside one.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "page_text.h"

using lb::web::break_lines;

namespace {

// Every character one unit wide (UTF-8 continuation bytes add nothing).
float characters(std::string_view text) {
    float n = 0;
    for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

}  // namespace

TEST_CASE("lines break at spaces only, never after a decimal point or a comma") {
    // Width 12: "the peak is" (11) fits and "the peak is input" (17) does not; "input 7," (8)
    // then "at 0.460." (9). ImGui's own wrapping would also break after "0." or ",".
    CHECK(break_lines("the peak is input 7, at 0.460.", 12, characters) == "the peak is\ninput 7, at\n0.460.");
    CHECK(break_lines("exact 1.0000) writes 1977-09-19.", 14, characters) == "exact 1.0000)\nwrites\n1977-09-19.");
}

TEST_CASE("text that fits is left alone, and the text's own line breaks are kept") {
    CHECK(break_lines("a short line", 40, characters) == "a short line");
    CHECK(break_lines("one\ntwo three", 5, characters) == "one\ntwo\nthree");
    CHECK(break_lines("", 5, characters) == "");
    CHECK(break_lines("line\n", 10, characters) == "line\n");
}

TEST_CASE("the spaces at a break go, a line is exactly as wide as allowed") {
    CHECK(break_lines("abc  def", 3, characters) == "abc\ndef");
    CHECK(break_lines("abcd efgh", 4, characters) == "abcd\nefgh");
    CHECK(break_lines("abcd efgh", 9, characters) == "abcd efgh");
}

TEST_CASE("a word wider than a line is cut between characters, a multi-byte one kept whole") {
    CHECK(break_lines("abcdefgh ij", 3, characters) == "abc\ndef\ngh\nij");
    // α and β are two bytes each: cut after whole characters.
    CHECK(break_lines("\u03b1\u03b2\u03b1\u03b2\u03b1", 2, characters) == "\u03b1\u03b2\n\u03b1\u03b2\n\u03b1");
    // Narrower than one character: one per line, still progressing.
    CHECK(break_lines("ab", 0.5f, characters) == "a\nb");
}
