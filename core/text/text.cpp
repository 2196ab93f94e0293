// core/text/text.cpp — see text.h. Decoding is RFC 3629's table, checked byte by
// byte: a message is built from whatever a reader, a URL or a file sends.
#include "text/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "unicode_tables.h"  // generated at build time

namespace lb {

size_t utf8_char_length(std::string_view text, size_t i) {
    const unsigned char lead = static_cast<unsigned char>(text[i]);
    if (lead < 0x80) return 1;
    size_t n;
    char32_t lowest;  // below it the sequence is overlong (a longer form of a shorter character)
    if (lead >= 0xc2 && lead <= 0xdf) n = 2, lowest = 0x80;
    else if (lead >= 0xe0 && lead <= 0xef) n = 3, lowest = 0x800;
    else if (lead >= 0xf0 && lead <= 0xf4) n = 4, lowest = 0x10000;
    else return 0;  // a continuation byte, 0xc0/0xc1 (always overlong) or 0xf5..0xff
    if (text.size() - i < n) return 0;
    char32_t c = lead & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
        const unsigned char b = static_cast<unsigned char>(text[i + k]);
        if ((b & 0xc0) != 0x80) return 0;
        c = c << 6 | (b & 0x3f);
    }
    if (c < lowest || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
    return n;
}

char32_t utf8_code_point(std::string_view text, size_t i, size_t length) {
    if (length <= 1) return static_cast<unsigned char>(text[i]);
    char32_t c = static_cast<unsigned char>(text[i]) & (0x7f >> length);
    for (size_t k = 1; k < length; ++k) c = c << 6 | (static_cast<unsigned char>(text[i + k]) & 0x3f);
    return c;
}

bool is_valid_utf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_char_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string sanitize_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8_char_length(text, i);
        if (n == 0) out += "\xef\xbf\xbd", i += 1;
        else out.append(text.substr(i, n)), i += n;
    }
    return out;
}

std::string_view utf8_prefix(std::string_view text, size_t max_bytes) {
    size_t end = 0;
    while (end < text.size()) {
        const size_t n = std::max<size_t>(1, utf8_char_length(text, end));  // a stray byte cuts anywhere
        if (end + n > max_bytes) break;
        end += n;
    }
    return text.substr(0, end);
}

bool is_visible(char32_t c) {
    if (c < 0x20 || (c >= 0x7f && c <= 0xa0)) return false;  // C0, DEL, C1, no-break space
    const struct { char32_t first, last; } invisible[] = {
        {0x00ad, 0x00ad},    // soft hyphen
        {0x034f, 0x034f},    // combining grapheme joiner
        {0x061c, 0x061c},    // Arabic letter mark
        {0x115f, 0x1160},    // Hangul fillers
        {0x1680, 0x1680},    // Ogham space
        {0x180e, 0x180e},    // Mongolian vowel separator
        {0x2000, 0x200f},    // spaces, zero-width characters, direction marks
        {0x2028, 0x202f},    // line/paragraph separators, bidirectional embeddings, narrow no-break space
        {0x205f, 0x206f},    // medium space, word joiner, invisible operators, bidirectional isolates
        {0x3000, 0x3000},    // ideographic space
        {0x3164, 0x3164},    // Hangul filler
        {0xfe00, 0xfe0f},    // variation selectors
        {0xfeff, 0xfeff},    // byte order mark
        {0xfff9, 0xfffb},    // interlinear annotation
        {0xe0000, 0xe0fff},  // tags, variation selectors supplement
    };
    for (const auto& r : invisible)
        if (c >= r.first && c <= r.last) return false;
    return true;
}

namespace {
bool in_spans(std::span<const unicode_data::CodePointSpan> spans, char32_t c) {
    const auto after = std::upper_bound(spans.begin(), spans.end(), c,
                                        [](char32_t v, const unicode_data::CodePointSpan& s) { return v < s.first; });
    return after != spans.begin() && c <= (after - 1)->last;
}
}  // namespace

bool is_combining_mark(char32_t c) { return in_spans(unicode_data::combining_marks, c); }
bool is_right_to_left(char32_t c) { return in_spans(unicode_data::right_to_left, c); }

namespace {

std::string hex(const char* format, unsigned long value) {
    char buf[32];
    std::snprintf(buf, sizeof buf, format, value);
    return buf;
}

}  // namespace

std::string describe_char(std::string_view text, size_t i, size_t length) {
    if (length == 0) return hex("the byte 0x%02lx", static_cast<unsigned char>(text[i]));
    const char32_t c = utf8_code_point(text, i, length);
    if (c == '\t') return "a tab";
    if (c == '\n') return "a line break";
    if (c == '\r') return "a carriage return";
    if (c < 0x80 && !is_visible(c)) return hex("the byte 0x%02lx", c);
    const std::string code = hex("U+%04lX", c);
    if (c == 0xa0) return "a no-break space (" + code + ")";
    if (!is_visible(c)) return "an invisible character (" + code + ")";
    std::string quoted(1, '\'');  // built in steps: gcc 12 misreads "'" + string as overlap
    quoted.append(text.substr(i, length));
    quoted += '\'';
    return c < 0x80 ? quoted : quoted + " (" + code + ")";
}

std::string list_text(const std::vector<std::string>& items, const char* last) {
    std::string text;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) text += i + 1 == items.size() ? std::string(" ") + last + " " : ", ";
        text += items[i];
    }
    return text;
}

std::string quote_untrusted(std::string_view text, size_t max_chars) {
    std::string out(1, '\'');
    size_t i = 0;
    for (size_t chars = 0; i < text.size() && chars < max_chars; ++chars) {
        const size_t n = utf8_char_length(text, i);
        const char32_t c = n ? utf8_code_point(text, i, n) : 0;
        if (n == 0) out += hex("\\x%02lx", static_cast<unsigned char>(text[i]));
        else if (c == '\\' || c == '\'') out += '\\', out += char(c);
        else if (c == '\t') out += "\\t";
        else if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (!is_visible(c)) out += hex(c < 0x80 ? "\\x%02lx" : "\\u{%lx}", c);
        else out.append(text.substr(i, n));
        i += n ? n : 1;
    }
    if (i == text.size()) return out + '\'';
    return out + "\xe2\x80\xa6' (" + std::to_string(text.size()) + " bytes)";  // U+2026 …
}

std::string_view without_byte_order_mark(std::string_view text) {
    return text.substr(0, 3) == "\xef\xbb\xbf" ? text.substr(3) : text;
}

std::string fixed(double value, int digits) {
    if (std::isnan(value)) return "\u2013";
    char text[40];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string number_text(double value) {
    char text[32];
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        std::snprintf(text, sizeof text, "%.0f", value);
        return text;
    }
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (float(std::strtod(text, nullptr)) == float(value)) break;
    }
    return text;
}

std::string grouped(long n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

}  // namespace lb
