// web/runtime/text.h — text the figures put on the page: HTML for text alternatives, numbers
// written for readers.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace lb::web {

// Escapes text for the HTML of a text alternative.
std::string html_escape(std::string_view text);
// A count with thousands separators: 12345 -> "12,345".
std::string thousands(long value);
// A number with `digits` decimals; "–" for NaN.
std::string fixed(double value, int digits);
// Seconds as "1:05"; "–" when unknown.
std::string minutes_seconds(double seconds);

// Text that is valid UTF-8: every byte of a broken sequence becomes U+FFFD. Messages that quote a
// reader's input go through it, so nothing the page shows or hands to JSON is malformed.
std::string valid_utf8(std::string_view text);
// Copies text into a fixed buffer (an ImGui text field), cut on a character boundary.
void copy_utf8(char* out, size_t capacity, std::string_view text);

}  // namespace lb::web
