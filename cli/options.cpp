// cli/options.cpp — what every `lookback` command shares: usage errors and
// option parsing (commands.h).
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"
#include "text/text.h"

namespace lb::cli {

int usage_error(const std::string& message, const char* usage) {
    std::fprintf(stderr, "lookback: %s\nusage: %s\n", message.c_str(), usage);
    return 2;
}

bool take_option(const Args& args, size_t& i, const char* name, std::string& value) {
    const std::string& a = args[i];
    const std::string flag = name;
    if (a == flag) {
        if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
        value = args[i + 1];
        i += 2;
        return true;
    }
    if (a.size() > flag.size() && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
        value = a.substr(flag.size() + 1);
        i += 1;
        return true;
    }
    return false;
}

std::string shown(const std::string& text) { return quote_untrusted(text, 40); }

long long parse_integer(const char* flag, const std::string& text, long long lo, long long hi) {
    // Digits only (no sign, no spaces); from_chars reports a value beyond long
    // long instead of throwing as std::stoll does.
    long long v = 0;
    const char* end = text.data() + text.size();
    bool ok = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    if (ok) {
        const auto [stop, error] = std::from_chars(text.data(), end, v);
        ok = error == std::errc() && stop == end;
    }
    if (!ok || v < lo || v > hi)
        throw UsageError(std::string(flag) + " must be an integer from " + std::to_string(lo) +
                         " to " + std::to_string(hi) + ", not " + shown(text));
    return v;
}

double parse_decimal(const char* flag, const std::string& text, double lo, double hi) {
    // A plain decimal or exponent form ("0.003", "3e-3"): strtod alone would
    // also take leading spaces, "inf", "nan" and hexadecimal.
    bool ok = !text.empty() && text.size() <= 40 &&
              text.find_first_not_of("0123456789.eE+-") == std::string::npos;
    char* stop = nullptr;
    const double v = ok ? std::strtod(text.c_str(), &stop) : 0;
    ok = ok && stop == text.c_str() + text.size() && std::isfinite(v);
    if (!ok || !(v > lo && v <= hi)) {
        char range[96];
        std::snprintf(range, sizeof range, " must be a number above %g and at most %g, not ", lo, hi);
        throw UsageError(std::string(flag) + range + shown(text));
    }
    return v;
}

float parse_float(const char* flag, const std::string& text, float lo, float hi) {
    // Checked again as the float it is stored as: 1e-50 is above 0 as a double but 0 as a float.
    const float v = float(parse_decimal(flag, text, lo, hi));
    if (!(v > lo && v <= hi)) {
        char range[96], stored[48];
        std::snprintf(range, sizeof range, " must be a number above %g and at most %g, not ", double(lo), double(hi));
        std::snprintf(stored, sizeof stored, ", which a float holds as %g", double(v));
        throw UsageError(std::string(flag) + range + shown(text) + stored);
    }
    return v;
}

float parse_learning_rate(const std::string& text) { return parse_float("--lr", text, 0, 10); }

}  // namespace lb::cli
