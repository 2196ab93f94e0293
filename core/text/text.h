// core/text/text.h — untrusted text (typed answers and dates, URL values,
// command-line arguments, names read from a file) made safe to put in a message.
//
// Every message the core builds must be valid UTF-8 (the page turns messages
// into JSON, which refuses anything else) and must not carry control bytes (a
// terminal obeys an escape sequence it is sent). UTF-8 here is RFC 3629's: no
// overlong forms, no surrogates (U+D800–DFFF), nothing above U+10FFFF.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lb {

// Bytes (1–4) of the well-formed UTF-8 character that starts at text[i], or 0
// if none starts there (a stray continuation byte, a truncated or overlong
// sequence, a surrogate, a byte that never occurs in UTF-8). i < text.size().
size_t utf8_char_length(std::string_view text, size_t i);
// The code point of the character at text[i], whose length was checked.
char32_t utf8_code_point(std::string_view text, size_t i, size_t length);
bool is_valid_utf8(std::string_view text);

// text with each byte that is not part of a well-formed character replaced by
// U+FFFD, the replacement character: valid UTF-8 whatever came in.
std::string sanitize_utf8(std::string_view text);

// The longest prefix of at most max_bytes bytes that does not end inside a
// well-formed multi-byte character (a URL value cut to fit a buffer).
std::string_view utf8_prefix(std::string_view text, size_t max_bytes);

// Whether a character shows as itself: false for control characters (C0, DEL,
// C1), and for spaces and marks that cannot be seen (no-break space, zero-width
// space, bidirectional overrides, byte order mark, ...).
bool is_visible(char32_t c);

// Whether a character is a combining mark (general category Mn, Mc or Me: a vowel sign, virama,
// haraka, niqqud or accent), drawn on the character before it; and whether it is written right to
// left (bidirectional class R or AL: Hebrew, Arabic, Syriac, ...). Both from Unicode's
// UnicodeData.txt, turned into tables by the build (unicode_tables.cmake).
bool is_combining_mark(char32_t c);
bool is_right_to_left(char32_t c);

// One character of text for a message, at text[i] with length bytes (0 for a
// byte that is not UTF-8): "'é' (U+00E9)", "'.'", "a tab", "a no-break space
// (U+00A0)", "the byte 0xff". Always valid UTF-8, never a control byte.
std::string describe_char(std::string_view text, size_t i, size_t length);

// Untrusted text in single quotes for a message: visible characters as they
// are, the rest escaped (\t \n \r, \x1b for a control byte or a byte that is
// not UTF-8, \u{a0} for an invisible code point, \\ and \' for the quote
// itself); after max_chars characters the text is cut on a character boundary
// and its length follows: 'aaaa…' (10000 bytes).
std::string quote_untrusted(std::string_view text, size_t max_chars = 60);

// The text without the UTF-8 byte order mark it may open with.
std::string_view without_byte_order_mark(std::string_view text);

// 50000 → "50,000": counts read as the docs and the page write them (n >= 0).
std::string grouped(long n);
// A number with `digits` decimals, for a table or a sentence; "–" for NaN.
std::string fixed(double value, int digits = 4);
// The shortest text that reads back as the same float: "0.001", not "0.00100000005"; a whole
// number without exponent ("10", not "1e+01").
std::string number_text(double value);

// Words for a message: "a, b or c" (`last` joins the last two: "or", "and"); "" for none.
std::string list_text(const std::vector<std::string>& items, const char* last = "or");

}  // namespace lb
