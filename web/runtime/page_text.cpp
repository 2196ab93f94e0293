// web/runtime/page_text.cpp — see page_text.h.
#include "page_text.h"

#include <cstring>

#include "text.h"  // core/text.h

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

void copy_utf8(char* out, size_t capacity, std::string_view text) {
    if (capacity == 0) return;
    const std::string_view fits = lb::utf8_prefix(text, capacity - 1);
    std::memcpy(out, fits.data(), fits.size());
    out[fits.size()] = 0;
}

}  // namespace lb::web
