// core/data/dataset.cpp — the date generator, the vocabularies and padded batches
// (docs/dataset.md). Only lb::Rng's integers decide what is drawn, so the
// strings are the same on every platform.
#include "data/dataset.h"

#include <algorithm>
#include <cstdio>
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

}  // namespace

const char* format_name(int format) {
    static const char* const names[format_count] = {
        "d/m/yyyy",         "weekday d month yyyy", "the d of month, yyyy",
        "wkd, d mon yyyy",  "dth month yyyy",       "dd mm yyyy"};
    return format >= 0 && format < format_count ? names[format] : "?";
}

namespace {

// Where a formatted date's fields sit in its input, in characters.
struct Field {
    int start = 0, length = 0;
};

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

}  // namespace

Example format_date(int year, int month, int day, int format) {
    if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 ||
        day > days_in_month(year, month) || format < 0 || format >= format_count)
        throw std::invalid_argument("format_date: no such date or format");
    const std::string d = std::to_string(day), m = std::to_string(month);
    char yyyy[16], dd[16], mm[16];
    std::snprintf(yyyy, sizeof yyyy, "%04d", year);
    std::snprintf(dd, sizeof dd, "%02d", day);
    std::snprintf(mm, sizeof mm, "%02d", month);
    const std::string month_word = month_names[month - 1];
    const std::string weekday_word = weekday_names[weekday(year, month, day)];

    Example ex;
    ex.group = format;
    ex.target = std::string(yyyy) + "-" + mm + "-" + dd;
    Field day_field, month_field, year_field;
    auto put = [&](const std::string& text) { ex.input += text; };
    auto field = [&](Field& f, const std::string& text) {
        f = {int(ex.input.size()), int(text.size())};
        ex.input += text;
    };
    bool month_is_word = false;
    switch (format) {
        case 0: field(day_field, d); put("/"); field(month_field, m); put("/"); break;
        case 1:
            put(weekday_word + " "); field(day_field, d); put(" ");
            field(month_field, month_word); put(" ");
            month_is_word = true;
            break;
        case 2:
            put("the "); field(day_field, d); put(" of ");
            field(month_field, month_word); put(", ");
            month_is_word = true;
            break;
        case 3:
            put(first3(weekday_word.c_str()) + ", "); field(day_field, d); put(" ");
            field(month_field, first3(month_word.c_str())); put(" ");
            month_is_word = true;
            break;
        case 4:
            field(day_field, d); put(std::string(ordinal_suffix(day)) + " ");
            field(month_field, month_word); put(" ");
            month_is_word = true;
            break;
        case 5: field(day_field, dd); put(" "); field(month_field, mm); put(" "); break;
    }
    field(year_field, yyyy);  // the year is the last field of every format
    // YYYY-MM-DD: the year's digits one to one, the dashes from nothing, then month and day.
    for (int t = 0; t < 4; ++t) ex.alignment.push_back({t, year_field.start + t, true});
    link_two_digits(ex.alignment, 5, month_field, month_is_word);
    link_two_digits(ex.alignment, 8, day_field, false);
    return ex;
}

// --- the task's row ----------------------------------------------------------

const Task& date_task() {
    static const Task task = [] {
        Task t;
        t.name = "dates";
        t.summary = "a date as people type it, in ISO form (YYYY-MM-DD)";
        t.input = character_vocabulary({""}, "abcdefghijklmnopqrstuvwxyz0123456789 /,");
        t.output = character_vocabulary({"", "<s>"}, "0123456789-");
        t.max_input_tokens = max_input_length;
        t.output_steps = output_length;
        t.train_size = train_split_size;
        t.held_out_size = held_out_split_size;
        for (int f = 0; f < format_count; ++f) t.group_names.push_back(format_name(f));
        t.example_input = "19/3/1994";
        t.make_splits = make_date_splits;
        return t;
    }();
    return task;
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

Splits make_date_splits(uint64_t seed, int train_size, int held_out_size) {
    const int64_t day_count =
        days_from_civil(last_year, 12, 31) - days_from_civil(first_year, 1, 1) + 1;
    if (int64_t(train_size) + held_out_size > day_count)  // each format has day_count strings
        throw std::invalid_argument("make_date_splits: more strings than dates");
    // A string already drawn is drawn again (rare: 36,525 dates per format).
    return draw_distinct_splits(seed, train_size, held_out_size, "make_date_splits", [&](Rng& rng, int i) {
        int y, m, d;
        civil_from_index(int64_t(rng.below(uint64_t(day_count))), y, m, d);
        return format_date(y, m, d, i % format_count);
    });
}

}  // namespace lb
