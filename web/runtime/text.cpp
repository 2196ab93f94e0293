// web/runtime/text.cpp — see text.h.
#include "text.h"

#include <cmath>
#include <cstdio>

namespace lb::web {

std::string thousands(long value) {
    std::string digits = std::to_string(value), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

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


std::string fixed(double value, int digits) {
    if (std::isnan(value)) return "\u2013";
    char text[40];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string minutes_seconds(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "\u2013";
    const long s = std::lround(seconds);
    char text[32];
    std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

namespace {
// The length of the valid UTF-8 sequence at text[i], or 0.
size_t sequence_length(std::string_view text, size_t i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const size_t n = byte < 0x80 ? 1 : (byte >> 5) == 6 ? 2 : (byte >> 4) == 14 ? 3 : (byte >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) return 0;
    return n;
}
}  // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size();) {
        if (const size_t n = sequence_length(text, i)) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            out += "\uFFFD";
            i += 1;
        }
    }
    return out;
}

void copy_utf8(char* out, size_t capacity, std::string_view text) {
    if (capacity == 0) return;
    size_t used = 0;
    for (size_t i = 0; i < text.size();) {
        const size_t n = sequence_length(text, i);
        if (n == 0 || used + n >= capacity) break;
        for (size_t k = 0; k < n; ++k) out[used++] = text[i + k];
        i += n;
    }
    out[used] = 0;
}

}  // namespace lb::web
