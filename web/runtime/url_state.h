// web/runtime/url_state.h — a figure's settings in the page's URL: one table of typed entries
// (key, the field it binds, what values it takes, its default), read once when the figure
// attaches and written back when the figure is idle, so that a link shows what the reader saw.
//
//     struct Training { int width = 64; Scorer scorer = Scorer::additive; UrlTable url{"tr."}; };
//     t.url.integer_in("width", t.width, {8, 16, 32, 64})
//          .choice("scorer", t.scorer, {{"dot", Scorer::dot}, {"additive", Scorer::additive}});
//
// Every refusal is treated the same way: the field keeps its default and messages() names the
// key, the value (shown safely) and what it takes; the runtime shows that line under the figure
// until the reader changes that setting.
// Only values that differ from their defaults are written, so an untouched figure adds nothing.
// No browser in here (host.cpp does the reading and writing): the parsing is tested natively.
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::web {

class UrlTable {
public:
    explicit UrlTable(std::string prefix) : prefix_(std::move(prefix)) {}  // "tr."

    UrlTable& integer(const std::string& key, int& field, int lo, int hi);
    // The same with a top that can change (the chosen task's examples), asked when it is read.
    UrlTable& integer(const std::string& key, int& field, int lo, std::function<int()> hi);
    UrlTable& integer_in(const std::string& key, int& field, std::vector<int> allowed);
    UrlTable& number(const std::string& key, double& field, double lo, double hi);
    // `count` comma-separated numbers in [lo, hi] each (a point, a matrix); the field's size.
    UrlTable& numbers(const std::string& key, std::vector<double>& field, double lo, double hi);
    UrlTable& flag(const std::string& key, bool& field);  // "1" or "0"
    // Free text of at most max_bytes UTF-8 bytes; `check` returns why a value is refused, or "".
    UrlTable& text(const std::string& key, std::string& field, size_t max_bytes,
                   std::function<std::string(const std::string&)> check = {});
    template <typename E>
    UrlTable& choice(const std::string& key, E& field, std::vector<std::pair<std::string, E>> names) {
        std::vector<std::string> words;
        for (const auto& n : names) words.push_back(n.first);
        return entry(key, "one of " + join(words),
                   [&field, names] {
                       for (const auto& [name, value] : names)
                           if (value == field) return name;
                       return std::string();
                   },
                   [&field, names](const std::string& text) {
                       for (const auto& [name, value] : names)
                           if (name == text) return field = value, true;
                       return false;
                   });
    }

    // Any other kind: `get` writes the field as URL text, `set` parses and stores it, or returns
    // false and leaves the field alone; `expected` says what it takes, for the refusal.
    UrlTable& entry(const std::string& key, std::string expected, std::function<std::string()> get,
                    std::function<bool(const std::string&)> set);
    // The same, with what it takes worded when a refusal is (a choice among tasks that can be
    // added at run time).
    UrlTable& entry(const std::string& key, std::function<std::string()> expected, std::function<std::string()> get,
                    std::function<bool(const std::string&)> set);

    // The last entry added is left out of query(), as a default is, while `unlinked(value)` holds:
    // a value naming what the page's links do not carry (the reader's task, too large for a link)
    // is never written, so no link names it; the figure goes on using it.
    UrlTable& left_out_when(std::function<bool(const std::string&)> unlinked);
    // The last entry's refusal of a value is worded by `why(key, value)` when it returns a
    // sentence (else the table's own words): a value that names what another page had and this one
    // lacks says so. `key` is with the prefix.
    UrlTable& refused_as(std::function<std::string(const std::string&, const std::string&)> why);

    // Reads this table's keys from a URL query ("a=1&tr.width=32", with or without '?');
    // percent-encoding and '+' are decoded. Keys of other tables are ignored, unknown keys with
    // this table's prefix are refused by name. Replaces messages().
    void read(std::string_view query);
    // This table's part of the query: "tr.width=32&tr.seed=7", URL-encoded, defaults left out.
    std::string query() const;
    // Whether query() now leaves out a value the figure uses (left_out_when).
    bool leaves_out() const;
    const std::string& prefix() const { return prefix_; }
    // The last read's refusals that still hold: one about a key goes once the reader has changed
    // what the figure uses for it (it would name a value the figure no longer shows).
    std::vector<std::string> messages() const;
    // Every key, for tests: "tr.width", ...
    std::vector<std::string> keys() const;

    // "0.9,0.2": exactly `count` finite numbers in [lo, hi], or nothing.
    static std::optional<std::vector<double>> parse_numbers(const std::string& text, size_t count, double lo, double hi);
    static std::string join(const std::vector<std::string>& words);  // "a, b or c"
    static std::string decode(std::string_view text);  // percent-encoding and '+'; bad escapes stay
    static std::string encode(std::string_view text);  // all but unreserved characters escaped

private:
    struct Entry {
        std::string key;                          // without the prefix
        std::function<std::string()> expected;    // "a whole number from 1 to 30", for messages
        std::function<std::string()> get;         // the field as URL text
        std::function<bool(const std::string&)> set;  // parses and stores; false: refused, untouched
        std::string fallback;                     // get() when registered: the default
        std::function<bool(const std::string&)> unlinked;  // left out of query() (left_out_when)
        std::function<std::string(const std::string&, const std::string&)> refusal;  // refused_as
    };
    std::string prefix_;
    std::vector<Entry> entries_;
    struct Message {
        std::string text;
        int entry = -1;     // the entry it is about (-1: an unknown key, always shown)
        std::string after;  // that entry's value when the link had been read
    };
    std::vector<Message> messages_;
    int entry_index(const std::string& key) const;
};

}  // namespace lb::web
