// web/runtime/url_state.cpp — see url_state.h.
#include "url_state.h"

#include "text/text.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <cstdlib>

namespace lb::web {
namespace {

// A value from the URL as a message quotes it: escaped, cut, always valid UTF-8 (core/text/text.h).
std::string shown(const std::string& text) { return lb::quote_untrusted(text, 40); }

bool whole_number(const std::string& text, long& out) {
    if (text.empty() || text.size() > 12) return false;
    char* end = nullptr;
    errno = 0;
    out = std::strtol(text.c_str(), &end, 10);
    return errno == 0 && *end == 0 && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-');
}

// Decimal notation only: strtod also reads hex ("0x1"), "nan" and "inf", which no reader means.
bool real_number(const std::string& text, double& out) {
    if (text.empty() || text.size() > 32 ||
        text.find_first_not_of("0123456789+-.eE") != std::string::npos)
        return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return *end == 0 && std::isfinite(out);
}

}  // namespace

std::optional<std::vector<double>> UrlTable::parse_numbers(const std::string& text, size_t count, double lo,
                                                           double hi) {
    std::vector<double> values;
    size_t from = 0;
    while (from <= text.size() && values.size() <= count) {
        const size_t comma = std::min(text.find(',', from), text.size());
        double v = 0;
        if (!real_number(text.substr(from, comma - from), v) || v < lo || v > hi) return std::nullopt;
        values.push_back(v);
        from = comma + 1;
    }
    if (values.size() != count) return std::nullopt;
    return values;
}

std::string UrlTable::join(const std::vector<std::string>& words) {
    std::string out;
    for (size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return out;
}

std::string UrlTable::decode(std::string_view text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '+') {
            out += ' ';
        } else if (text[i] == '%' && i + 2 < text.size() + 0 && std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
            out += char(std::strtol(std::string(text.substr(i + 1, 2)).c_str(), nullptr, 16));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string UrlTable::encode(std::string_view text) {
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~' || c == ',') {
            out += c;
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof escaped, "%%%02X", byte);
            out += escaped;
        }
    }
    return out;
}

UrlTable& UrlTable::entry(const std::string& key, std::string expected, std::function<std::string()> get,
                        std::function<bool(const std::string&)> set) {
    return entry(key, [expected = std::move(expected)] { return expected; }, std::move(get), std::move(set));
}

UrlTable& UrlTable::entry(const std::string& key, std::function<std::string()> expected, std::function<std::string()> get,
                        std::function<bool(const std::string&)> set) {
    std::string fallback = get();
    entries_.push_back({key, std::move(expected), std::move(get), std::move(set), std::move(fallback)});
    return *this;
}

UrlTable& UrlTable::left_out_when(std::function<bool(const std::string&)> unlinked) {
    entries_.back().unlinked = std::move(unlinked);
    return *this;
}

UrlTable& UrlTable::refused_as(std::function<std::string(const std::string&, const std::string&)> why) {
    entries_.back().refusal = std::move(why);
    return *this;
}

UrlTable& UrlTable::integer(const std::string& key, int& field, int lo, int hi) {
    return integer(key, field, lo, [hi] { return hi; });
}

UrlTable& UrlTable::integer(const std::string& key, int& field, int lo, std::function<int()> hi) {
    return entry(key, [lo, hi] { return "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi()); },
               [&field] { return std::to_string(field); },
               [&field, lo, hi](const std::string& text) {
                   long v = 0;
                   if (!whole_number(text, v) || v < lo || v > hi()) return false;
                   field = int(v);
                   return true;
               });
}

UrlTable& UrlTable::integer_in(const std::string& key, int& field, std::vector<int> allowed) {
    std::vector<std::string> words;
    for (int a : allowed) words.push_back(std::to_string(a));
    return entry(key, "one of " + join(words), [&field] { return std::to_string(field); },
               [&field, allowed](const std::string& text) {
                   long v = 0;
                   if (!whole_number(text, v)) return false;
                   for (int a : allowed)
                       if (a == v) return field = a, true;
                   return false;
               });
}

UrlTable& UrlTable::number(const std::string& key, double& field, double lo, double hi) {
    return entry(key, "a number from " + number_text(lo) + " to " + number_text(hi),
               [&field] { return number_text(field); },
               [&field, lo, hi](const std::string& text) {
                   double v = 0;
                   if (!real_number(text, v) || v < lo || v > hi) return false;
                   field = v;
                   return true;
               });
}

UrlTable& UrlTable::numbers(const std::string& key, std::vector<double>& field, double lo, double hi) {
    const size_t count = field.size();
    return entry(key, std::to_string(count) + " numbers from " + number_text(lo) + " to " + number_text(hi) + ", with commas",
               [&field] {
                   std::string out;
                   for (size_t i = 0; i < field.size(); ++i) out += (i ? "," : "") + number_text(field[i]);
                   return out;
               },
               [&field, count, lo, hi](const std::string& text) {
                   const auto values = parse_numbers(text, count, lo, hi);
                   if (!values) return false;
                   field = *values;
                   return true;
               });
}

UrlTable& UrlTable::flag(const std::string& key, bool& field) {
    return entry(key, "1 or 0", [&field] { return std::string(field ? "1" : "0"); },
               [&field](const std::string& text) {
                   if (text != "1" && text != "0") return false;
                   field = text == "1";
                   return true;
               });
}

UrlTable& UrlTable::text(const std::string& key, std::string& field, size_t max_bytes,
                         std::function<std::string(const std::string&)> check) {
    return entry(key, "text of at most " + std::to_string(max_bytes) + " bytes, without control characters", [&field] { return field; },
               [this, key, &field, max_bytes, check](const std::string& text) {
                   if (text.size() > max_bytes || !lb::is_valid_utf8(text)) return false;
                   for (const char c : text)
                       if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;  // control bytes
                   if (check) {
                       if (std::string why = check(text); !why.empty()) {
                           messages_.push_back({"The link's " + prefix_ + key + "=" + shown(text) + " was refused (" +
                                                    lb::sanitize_utf8(why) + "), so the figure shows its default instead.",
                                                entry_index(key)});
                           return true;  // refused with its own reason: no second message
                       }
                   }
                   field = text;
                   return true;
               });
}

// The values are applied in the table's order, so that an entry may depend on one registered
// before it (a model's scorer on the model); unknown keys are refused after them.
void UrlTable::read(std::string_view query) {
    messages_.clear();
    if (!query.empty() && query.front() == '?') query.remove_prefix(1);
    std::vector<std::pair<const Entry*, std::string>> given;
    std::vector<std::string> unknown;
    while (!query.empty()) {
        const size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const size_t eq = pair.find('=');
        const std::string key = decode(pair.substr(0, eq));
        const std::string value = eq == std::string_view::npos ? std::string() : decode(pair.substr(eq + 1));
        if (key.compare(0, prefix_.size(), prefix_) != 0) continue;
        const std::string name = key.substr(prefix_.size());
        const auto entry = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == name; });
        if (entry == entries_.end()) {
            std::vector<std::string> known;
            for (const Entry& e : entries_) known.push_back(prefix_ + e.key);
            unknown.push_back("The link's " + shown(key) + " is not a setting of this figure (it has " +
                                (known.empty() ? std::string("none") : join(known)) + "), so it was ignored.");
            continue;
        }
        given.push_back({&*entry, value});
    }
    for (const Entry& e : entries_)
        for (const auto& [entry, value] : given) {
            if (entry != &e || e.set(value)) continue;
            std::string text = e.refusal ? e.refusal(prefix_ + e.key, value) : std::string();
            if (text.empty())
                text = "The link's " + prefix_ + e.key + "=" + shown(value) + " is not usable (" + prefix_ + e.key + " takes " +
                       e.expected() + "), so the figure uses " + (e.get() == e.fallback ? "its default, " : "") + shown(e.get()) + ".";
            messages_.push_back({std::move(text), int(&e - entries_.data())});
        }
    for (Message& m : messages_)
        if (m.entry >= 0) m.after = entries_[size_t(m.entry)].get();
    for (std::string& text : unknown) messages_.push_back({std::move(text)});
}

std::vector<std::string> UrlTable::messages() const {
    std::vector<std::string> out;
    for (const Message& m : messages_)
        if (m.entry < 0 || entries_[size_t(m.entry)].get() == m.after) out.push_back(m.text);
    return out;
}

int UrlTable::entry_index(const std::string& key) const {
    for (size_t i = 0; i < entries_.size(); ++i)
        if (entries_[i].key == key) return int(i);
    return -1;
}

std::string UrlTable::query() const {
    std::string out;
    for (const Entry& e : entries_) {
        const std::string value = e.get();
        if (value == e.fallback || (e.unlinked && e.unlinked(value))) continue;
        out += (out.empty() ? "" : "&") + encode(prefix_ + e.key) + "=" + encode(value);
    }
    return out;
}

bool UrlTable::leaves_out() const {
    return std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) {
        const std::string value = e.get();
        return value != e.fallback && e.unlinked && e.unlinked(value);
    });
}

std::vector<std::string> UrlTable::keys() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_) out.push_back(prefix_ + e.key);
    return out;
}

}  // namespace lb::web
