// cli/options.cpp — what every `lookback` command shares: usage errors and
// option parsing (commands.h).
#include <algorithm>
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

std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
        parts.push_back(text.substr(start, comma - start));
    parts.push_back(text.substr(start));
    return parts;
}

std::vector<int> parse_widths(const std::string& text) {
    const SettingField& width = *find_setting("width");
    std::vector<int> widths;
    for (const std::string& w : split_commas(text))
        widths.push_back(int(parse_integer("--widths", w, (long long)width.lo, (long long)width.hi)));
    return widths;
}

bool take_file_option(const Args& args, size_t& i, const char* name, std::string& path, const char* or_else) {
    std::string v;
    if (!take_option(args, i, name, v)) return false;
    if (v.empty()) throw UsageError(std::string(name) + " needs a file name" + or_else);
    path = v;
    return true;
}

bool take_tokens_option(const Args& args, size_t& i, std::optional<PairsTokens>& tokens) {
    std::string v;
    if (!take_option(args, i, "--tokens", v)) return false;
    if (v != "chars" && v != "words") throw UsageError("--tokens must be chars or words, not " + shown(v));
    tokens = v == "words" ? PairsTokens::words : PairsTokens::characters;
    return true;
}

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

namespace {
std::string flag_name(const SettingField& field) { return field.flag; }
// The one choice that is a list of numbers, not a word: --formats 0,2,5.
bool is_list(const SettingField& field) { return std::string_view(field.key) == "formats"; }
}  // namespace

bool take_setting(const Args& args, size_t& i, const std::vector<std::string>& keys, GivenSettings& given) {
    const std::string& a = args[i];
    const SettingField* field = find_setting_flag(std::string_view(a).substr(0, a.find('=')));
    if (!field || std::find(keys.begin(), keys.end(), field->key) == keys.end()) return false;
    if (field->type == SettingType::flag) {  // the flag alone: --input-feeding
        if (a != field->flag) return false;
        given.emplace_back(field, "1");
        ++i;
        return true;
    }
    std::string value;
    if (!take_option(args, i, field->flag, value)) return false;
    given.emplace_back(field, value);
    return true;
}

RunSettings read_setting_flags(const GivenSettings& given) {
    try {
        return read_run_settings(given, flag_name);
    } catch (const SettingError& e) {
        throw UsageError(e.what());
    }
}

std::string settings_usage(const std::vector<std::string>& keys) {
    std::string text;
    for (const std::string& key : keys) {
        const SettingField& field = *find_setting(key);
        const char* value = field.type == SettingType::flag      ? ""
                            : is_list(field)                     ? " LIST"
                            : field.type == SettingType::choice  ? " WORD"
                            : field.type == SettingType::integer ? " N"
                                                                 : " X";
        char line[40];
        std::snprintf(line, sizeof line, "    %-20s", (std::string(field.flag) + value).c_str());
        text += line + setting_usage(field) + "\n";
    }
    return text;
}

}  // namespace lb::cli
