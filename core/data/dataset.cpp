// core/data/dataset.cpp — the date generator, the vocabularies and padded batches
// (docs/dataset.md). Only lb::Rng's integers decide what is drawn, so the
// strings are the same on every platform.
#include "data/dataset.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <type_traits>

#include "data/draw.h"
#include "text/text.h"

namespace lb {

// --- vocabularies ------------------------------------------------------------
// Input: pad, then a–z, 0–9, space, '/', ',' (40 tokens). Output: pad, start, then 0–9 and '-'
// (13 tokens). The ids are those of docs/dataset.md's table.

namespace {
Vocabulary character_vocabulary(std::vector<std::string> specials, const std::string& characters) {
    Vocabulary v(false, std::move(specials));
    for (char c : characters) v.add(std::string(1, c));
    return v;
}
}  // namespace

// --- the calendar ------------------------------------------------------------

namespace {
int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
bool is_leap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }
}  // namespace

int days_in_month(int year, int month) {
    static const int lengths[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap(year) ? 29 : lengths[month - 1];
}

int64_t days_from_civil(int year, int month, int day) {
    // Years that start in March put the leap day last, so the days before a
    // month are the same every year: 0, 31, 61, 92, … = (153·m + 2) / 5.
    const int64_t y = month <= 2 ? year - 1 : year;
    const int month_from_march = (month + 9) % 12;
    const int64_t day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    const int64_t days_before_year =
        365 * y + floor_div(y, 4) - floor_div(y, 100) + floor_div(y, 400);
    return days_before_year + day_of_year - 719468;  // 719468: 0000-03-01 to 1970-01-01
}

int weekday(int year, int month, int day) {
    // 1970-01-01 was a Thursday (3 when Monday is 0).
    const int64_t w = (days_from_civil(year, month, day) + 3) % 7;
    return int(w < 0 ? w + 7 : w);
}

// --- the six formats ---------------------------------------------------------

namespace {

const char* const month_names[12] = {"january", "february", "march",     "april",
                                     "may",     "june",     "july",      "august",
                                     "september", "october", "november", "december"};
const char* const weekday_names[7] = {"monday", "tuesday",  "wednesday", "thursday",
                                      "friday", "saturday", "sunday"};

std::string first3(const char* name) { return std::string(name, 3); }

const char* ordinal_suffix(int day) {
    if (day % 100 >= 11 && day % 100 <= 13) return "th";
    switch (day % 10) {
        case 1: return "st";
        case 2: return "nd";
        case 3: return "rd";
        default: return "th";
    }
}

// Where a formatted date's fields sit in its input, in characters.
struct Field {
    int start = 0, length = 0;
};

// What one format writes: its fields' own characters and the words around them. The same
// layout writes a date and, with placeholders for the texts, the format's name.
struct Pieces {
    std::string opening;                 // the weekday, first in every order: "monday ", "mon, "
    std::string day, month, year;        // the fields
    std::string before_day, after_day;   // format 2's "the ", format 4's ordinal suffix
};

Pieces pieces(int format, const std::string& d, const std::string& dd, const std::string& m,
              const std::string& mm, const std::string& month_word, const std::string& weekday_word,
              const std::string& yyyy, const std::string& suffix) {
    switch (format) {
        case 0: return {"", d, m, yyyy, "", ""};
        case 1: return {weekday_word + " ", d, month_word, yyyy, "", ""};
        case 2: return {"", d, month_word, yyyy, "the ", ""};
        case 3: return {first3(weekday_word.c_str()) + ", ", d, first3(month_word.c_str()), yyyy, "", ""};
        case 4: return {"", d, month_word, yyyy, "", suffix};
        default: return {"", dd, mm, yyyy, "", ""};
    }
}

// What joins field a to the field b after it: the format's one separator, but in format 2 the
// year is set off by a comma and a day is joined to a month after it by "of" ("the 4 of august,
// 2003", "august the 4, 2003", "2003, august the 4").
std::string join(int format, char a, char b) {
    if (format == 0) return "/";
    if (format == 2) return a == 'y' || b == 'y' ? ", " : a == 'd' && b == 'm' ? " of " : " ";
    return " ";
}

// The pieces in `order`; where each field's own characters went (day, month, year).
std::string lay_out(int format, std::string_view order, const Pieces& p, Field (&fields)[3]) {
    std::string text = p.opening;
    for (size_t k = 0; k < order.size(); ++k) {
        if (k > 0) text += join(format, order[k - 1], order[k]);
        const char f = order[k];
        if (f == 'd') text += p.before_day;
        const std::string& own = f == 'd' ? p.day : f == 'm' ? p.month : p.year;
        fields[f == 'd' ? 0 : f == 'm' ? 1 : 2] = {int(text.size()), int(own.size())};
        text += own;
        if (f == 'd') text += p.after_day;
    }
    return text;
}

}  // namespace

std::string format_name(int format, std::string_view order) {
    if (format < 0 || format >= format_count || !valid_field_order(order)) return "?";
    Field fields[3];
    return lay_out(format, order, pieces(format, "d", "dd", "m", "mm", format == 3 ? "mon" : "month",
                                         format == 3 ? "wkd" : "weekday", "yyyy", "th"),
                   fields);
}

bool valid_field_order(std::string_view order) {
    return order.size() == 3 && std::is_permutation(order.begin(), order.end(), std::string_view("dmy").begin());
}

bool parse_formats(std::string_view text, std::vector<int>& formats) {
    std::vector<int> read;
    for (size_t i = 0; i <= text.size(); i += 2) {  // a digit, then a comma or the end
        if (i >= text.size() || text[i] < '0' || text[i] >= '0' + format_count) return false;
        if (i + 1 < text.size() && text[i + 1] != ',') return false;
        read.push_back(text[i] - '0');
    }
    std::sort(read.begin(), read.end());
    if (std::adjacent_find(read.begin(), read.end()) != read.end()) return false;
    formats = read;
    return true;
}

std::string formats_text(const std::vector<int>& formats) {
    std::string text;
    for (int f : formats) text += (text.empty() ? "" : ",") + std::to_string(f);
    return text;
}

namespace {

// Output characters t0 and t0 + 1 of YYYY-MM-DD (a month or a day) written from `field`: two
// digits one to one (sure); one digit carries the second output digit (sure) and the leading
// zero it implies (possible); a month's name carries both only as a whole (possible: no one
// character of "september" is the 9).
void link_two_digits(std::vector<AlignmentLink>& links, int t0, Field field, bool word) {
    for (int t = t0; t < t0 + 2; ++t) {
        if (word) {
            for (int j = field.start; j < field.start + field.length; ++j) links.push_back({t, j, false});
        } else if (field.length == 2) {
            links.push_back({t, field.start + (t - t0), true});
        } else {
            links.push_back({t, field.start, t == t0 + 1});
        }
    }
}

void check_dial(const DateDial& dial) {
    std::vector<int> parsed;
    if (!parse_formats(formats_text(dial.formats), parsed) || parsed != dial.formats || !valid_field_order(dial.order))
        throw std::invalid_argument("the date task's dial: formats must be ascending numbers 0 to 5, each once, and "
                                    "the field order d, m and y, each once");
}

}  // namespace

Example format_date(int year, int month, int day, int format, std::string_view order) {
    if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 ||
        day > days_in_month(year, month) || format < 0 || format >= format_count || !valid_field_order(order))
        throw std::invalid_argument("format_date: no such date, format or field order");
    char yyyy[16], dd[16], mm[16];
    std::snprintf(yyyy, sizeof yyyy, "%04d", year);
    std::snprintf(dd, sizeof dd, "%02d", day);
    std::snprintf(mm, sizeof mm, "%02d", month);

    Example ex;
    ex.group = format;
    ex.target = std::string(yyyy) + "-" + mm + "-" + dd;
    Field fields[3];  // day, month, year
    ex.input = lay_out(format, order,
                       pieces(format, std::to_string(day), dd, std::to_string(month), mm, month_names[month - 1],
                              weekday_names[weekday(year, month, day)], yyyy, ordinal_suffix(day)),
                       fields);
    const bool month_is_word = format >= 1 && format <= 4;
    // YYYY-MM-DD: the year's digits one to one, the dashes from nothing, then month and day.
    for (int t = 0; t < 4; ++t) ex.alignment.push_back({t, fields[2].start + t, true});
    link_two_digits(ex.alignment, 5, fields[1], month_is_word);
    link_two_digits(ex.alignment, 8, fields[0], false);
    return ex;
}

// --- the task's rows -----------------------------------------------------------

namespace {

// A row of the date task for a dial that check_dial has passed.
Task date_row(const DateDial& dial) {
    Task t;
    t.name = "dates";
    t.summary = "a date as people type it, in ISO form (YYYY-MM-DD)";
    t.input = character_vocabulary({""}, "abcdefghijklmnopqrstuvwxyz0123456789 /,");
    t.output = character_vocabulary({"", "<s>"}, "0123456789-");
    t.max_input_tokens = max_input_length;  // another order writes no string longer (docs/dataset.md)
    t.output_steps = output_length;
    t.train_size = train_split_size;
    t.held_out_size = held_out_split_size;
    for (int f : dial.formats) t.group_names.push_back(format_name(f, dial.order));
    t.example_input = format_date(1994, 3, 19, dial.formats.front(), dial.order).input;  // "19/3/1994"
    t.make_splits = [dial](uint64_t seed, int train_size, int held_out_size) {
        return make_date_splits(seed, train_size, held_out_size, dial);
    };
    return t;
}

// Every row made, by dial; std::map keeps each row where it is, so a Task* stays valid.
struct DateRows {
    std::mutex lock;
    std::map<std::string, std::pair<DateDial, Task>> rows;  // by "0,1,2,3,4,5 dmy"
};
DateRows& date_rows() {
    static DateRows rows;
    return rows;
}

}  // namespace

const Task& date_task(const DateDial& dial) {
    check_dial(dial);
    DateRows& all = date_rows();
    const std::lock_guard<std::mutex> hold(all.lock);
    const std::string key = formats_text(dial.formats) + " " + dial.order;
    auto found = all.rows.find(key);
    if (found == all.rows.end()) found = all.rows.emplace(key, std::make_pair(dial, date_row(dial))).first;
    return found->second.second;
}

const Task& date_task() {
    static const Task& task = date_task(DateDial{});
    return task;
}

const DateDial* date_dial(const Task& task) {
    DateRows& all = date_rows();
    const std::lock_guard<std::mutex> hold(all.lock);
    for (const auto& [key, row] : all.rows)
        if (&row.second == &task) return &row.first;
    return nullptr;
}

// --- the splits --------------------------------------------------------------

namespace {

// Day `index` counted from first_year-01-01, as (year, month, day).
void civil_from_index(int64_t index, int& year, int& month, int& day) {
    year = first_year;
    while (index >= (is_leap(year) ? 366 : 365)) index -= is_leap(year) ? 366 : 365, ++year;
    month = 1;
    while (index >= days_in_month(year, month)) index -= days_in_month(year, month), ++month;
    day = int(index) + 1;
}

}  // namespace

Splits make_date_splits(uint64_t seed, int train_size, int held_out_size, const DateDial& dial) {
    check_dial(dial);
    const int64_t day_count =
        days_from_civil(last_year, 12, 31) - days_from_civil(first_year, 1, 1) + 1;
    if (int64_t(train_size) + held_out_size > day_count)  // each format has day_count strings
        throw std::invalid_argument("make_date_splits: more strings than dates");
    const int n = int(dial.formats.size());
    // A string already drawn is drawn again (rare: 36,525 dates per format).
    return draw_distinct_splits(seed, train_size, held_out_size, "make_date_splits", [&](Rng& rng, int i) {
        int y, m, d;
        civil_from_index(int64_t(rng.below(uint64_t(day_count))), y, m, d);
        Example ex = format_date(y, m, d, dial.formats[size_t(i % n)], dial.order);
        ex.group = i % n;  // the format itself when all six are drawn
        return ex;
    });
}

}  // namespace lb
