// web/runtime/page_text.cpp — see page_text.h.
#include "page_text.h"

#include <cstring>

#include "text/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lb::web {

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}


std::string minutes_seconds(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "\u2013";
    const long s = std::lround(seconds);
    char text[32];
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

namespace {

// The longest run of whole characters from the start of `word` that fits `width` (one at least).
size_t fitting_prefix(std::string_view word, float width, const std::function<float(std::string_view)>& measure) {
    size_t end = 0;
    while (end < word.size()) {
        const size_t length = std::max<size_t>(1, lb::utf8_char_length(word, end));
        if (end > 0 && measure(word.substr(0, end + length)) > width) break;
        end += length;
    }
    return end;
}

// One paragraph (no '\n') broken into lines, appended to `out`.
void break_paragraph(std::string_view text, float width, const std::function<float(std::string_view)>& measure,
                     std::string& out) {
    size_t start = 0;  // of the current line
    while (true) {
        // The longest run of whole words from `start` that fits.
        size_t end = start;
        for (size_t next = start;;) {
            const size_t space = text.find(' ', next);
            const size_t word_end = space == std::string_view::npos ? text.size() : space;
            if (word_end > start && measure(text.substr(start, word_end - start)) > width) break;
            end = word_end;
            if (space == std::string_view::npos) break;
            next = space + 1;
        }
        if (end == start) {  // the first word alone is too wide: cut it
            const size_t space = text.find(' ', start);
            const std::string_view word = text.substr(start, space == std::string_view::npos ? text.npos : space - start);
            end = start + fitting_prefix(word, width, measure);
        }
        out.append(text.substr(start, end - start));
        start = end;
        while (start < text.size() && text[start] == ' ') ++start;
        if (start >= text.size()) return;
        out += '\n';
    }
}

}  // namespace

std::string break_lines(std::string_view text, float width, const std::function<float(std::string_view)>& measure) {
    std::string out;
    for (size_t start = 0;;) {
        const size_t newline = text.find('\n', start);
        break_paragraph(text.substr(start, newline == std::string_view::npos ? text.npos : newline - start), width,
                        measure, out);
        if (newline == std::string_view::npos) return out;
        out += '\n';
        start = newline + 1;
    }
}

std::string token_for_drawing(std::string_view token) {
    const size_t length = token.empty() ? 0 : lb::utf8_char_length(token, 0);
    if (length == 0 || !lb::is_combining_mark(lb::utf8_code_point(token, 0, length))) return std::string(token);
    return "\u25CC" + std::string(token);
}

void copy_utf8(char* out, size_t capacity, std::string_view text) {
    if (capacity == 0) return;
    const std::string_view fits = lb::utf8_prefix(text, capacity - 1);
    std::memcpy(out, fits.data(), fits.size());
    out[fits.size()] = 0;
}

}  // namespace lb::web
