// tests/test_page_text.cpp — the figures' line breaking (web/runtime/page_text.h): lines break at
// spaces only, so a number keeps its decimal point ("0.460" was drawn as "0." and "460"), and a
// word too wide for a line is cut between characters, never inside one.
#include <doctest/doctest.h>

#include <cstdio>
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

namespace {
std::string code(char32_t c) {
    char text[12];
    std::snprintf(text, sizeof text, "U+%04X", unsigned(c));
    return text;
}
}  // namespace

// Expected values are Unicode's categories as its code charts give them, written out by hand.
TEST_CASE("a combining mark is told from a letter by Unicode's categories, read at build time") {
    // Marks: Devanagari vowel sign I (Mc) and virama (Mn), Arabic fatha (Mn), Hebrew hiriq (Mn),
    // Tamil vowel sign AA (Mc), Thai sara i (Mn), the combining acute (Mn), the enclosing circle (Me).
    for (char32_t mark : {U'\u093F', U'\u094D', U'\u064E', U'\u05B4', U'\u0BBE', U'\u0E34', U'\u0301', U'\u20DD'})
        CHECK_MESSAGE(lb::is_combining_mark(mark), code(mark));
    // Not marks: Latin a, Devanagari KA and danda, Arabic alef, Thai sara aa (a letter), the dotted
    // circle itself, a space, and the first code point past the last mark of the Combining
    // Diacritical Marks block.
    for (char32_t other : {U'a', U'\u0915', U'\u0964', U'\u0627', U'\u0E32', U'\u25CC', U' ', U'\u0370'})
        CHECK_MESSAGE(!lb::is_combining_mark(other), code(other));
}

TEST_CASE("right-to-left letters are Hebrew's and Arabic's, not their marks or digits") {
    for (char32_t letter : {U'\u05D0', U'\u05EA', U'\u0627', U'\u06D2', U'\u0710', U'\u07CA'})
        CHECK_MESSAGE(lb::is_right_to_left(letter), code(letter));
    // Latin, Devanagari, a European digit, the Arabic fatha (a mark: class NSM) and Arabic-Indic digit one (AN).
    for (char32_t other : {U'a', U'\u0915', U'1', U'\u064E', U'\u0661'})
        CHECK_MESSAGE(!lb::is_right_to_left(other), code(other));
}

TEST_CASE("a lone combining mark is drawn on a dotted circle; other tokens as they are") {
    using lb::web::token_for_drawing;
    CHECK(token_for_drawing("\u093F") == "\u25CC\u093F");            // ि alone: ◌ि
    CHECK(token_for_drawing("\u064E") == "\u25CC\u064E");            // fatha alone
    CHECK(token_for_drawing("\u094D\u0937") == "\u25CC\u094D\u0937");  // a word token opening with a virama
    CHECK(token_for_drawing("\u0915\u093F") == "\u0915\u093F");      // कि: the sign has its letter
    CHECK(token_for_drawing("\u0915") == "\u0915");
    CHECK(token_for_drawing("a") == "a");
    CHECK(token_for_drawing("") == "");
    CHECK(token_for_drawing("\xff") == "\xff");  // not UTF-8: left for the font's fallback glyph
}
