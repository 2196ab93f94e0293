// The date dataset (docs/dataset.md): formats, true weekdays, splits,
// vocabularies, refused user input and padded batches. The checks parse the
// generated strings back by hand and compute weekdays with Zeller's congruence,
// independently of the generator's own calendar code.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

#include "data/dataset.h"

using namespace lb;

namespace {

// Zeller's congruence for the Gregorian calendar, shifted so 0 = Monday.
int zeller_weekday(int year, int month, int day) {
    if (month < 3) month += 12, year -= 1;
    const int K = year % 100, J = year / 100;
    const int h = (day + 13 * (month + 1) / 5 + K + K / 4 + J / 4 + 5 * J) % 7;  // 0 = Saturday
    return (h + 5) % 7;
}

const char* const months[12] = {"january", "february", "march", "april", "may", "june",
                                "july", "august", "september", "october", "november",
                                "december"};
const char* const weekdays[7] = {"monday", "tuesday", "wednesday", "thursday",
                                 "friday", "saturday", "sunday"};

int month_index(const std::string& word, bool abbreviated) {
    for (int i = 0; i < 12; ++i)
        if (abbreviated ? word == std::string(months[i], 3) : word == months[i]) return i + 1;
    return -1;
}
int weekday_index(const std::string& word, bool abbreviated) {
    for (int i = 0; i < 7; ++i)
        if (abbreviated ? word == std::string(weekdays[i], 3) : word == weekdays[i]) return i;
    return -1;
}

// Parses a generated string in its format, checks its own pattern details,
// and returns the date it writes (or fails a check).
struct Date { int y = 0, m = 0, d = 0; };
Date parse(const Example& ex) {
    Date date;
    char w1[16] = {}, w2[16] = {}, suffix[3] = {};
    int n = 0, consumed = 0;
    const char* s = ex.input.c_str();
    switch (ex.group) {
        case 0:
            n = std::sscanf(s, "%d/%d/%d%n", &date.d, &date.m, &date.y, &consumed);
            CHECK(n == 3);
            CHECK(s[0] != '0');  // no zero padding
            CHECK(std::strchr(s, '/')[1] != '0');
            break;
        case 1:
            n = std::sscanf(s, "%15[a-z] %d %15[a-z] %d%n", w1, &date.d, w2, &date.y, &consumed);
            CHECK(n == 4);
            date.m = month_index(w2, false);
            CHECK(weekday_index(w1, false) == zeller_weekday(date.y, date.m, date.d));
            break;
        case 2:
            n = std::sscanf(s, "the %d of %15[a-z], %d%n", &date.d, w2, &date.y, &consumed);
            CHECK(n == 3);
            date.m = month_index(w2, false);
            break;
        case 3:
            n = std::sscanf(s, "%3[a-z], %d %3[a-z] %d%n", w1, &date.d, w2, &date.y, &consumed);
            CHECK(n == 4);
            date.m = month_index(w2, true);
            CHECK(weekday_index(w1, true) == zeller_weekday(date.y, date.m, date.d));
            break;
        case 4: {
            n = std::sscanf(s, "%d%2[a-z] %15[a-z] %d%n", &date.d, suffix, w2, &date.y, &consumed);
            CHECK(n == 4);
            date.m = month_index(w2, false);
            const int last = date.d % 10;
            const bool teen = date.d >= 11 && date.d <= 13;
            const char* want = teen ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th";
            CHECK(std::string(suffix) == want);
            break;
        }
        case 5:
            n = std::sscanf(s, "%2d %2d %4d%n", &date.d, &date.m, &date.y, &consumed);
            CHECK(n == 3);
            CHECK(ex.input.size() == 10);  // "dd mm yyyy", both zero padded
            break;
        default: FAIL("format out of range: " << ex.group);
    }
    CHECK(size_t(consumed) == ex.input.size());  // nothing after the year: the year is last
    CHECK(ex.input.substr(ex.input.size() - 4) == std::to_string(date.y));
    return date;
}

std::string iso(const Date& d) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", d.y, d.m, d.d);
    return buf;
}

bool real_date(const Date& d) {
    static const int len[13] = {0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (d.y % 4 == 0 && d.y % 100 != 0) || d.y % 400 == 0;
    if (d.m < 1 || d.m > 12 || d.d < 1) return false;
    return d.d <= len[d.m] + (d.m == 2 && leap ? 1 : 0);
}

}  // namespace

TEST_CASE("dataset: the examples of docs/dataset.md, with true weekdays") {
    CHECK(format_date(1994, 3, 19, 0).input == "19/3/1994");
    CHECK(format_date(1977, 9, 19, 1).input == "monday 19 september 1977");
    CHECK(format_date(2003, 8, 4, 2).input == "the 4 of august, 2003");
    CHECK(format_date(1977, 9, 19, 3).input == "mon, 19 sep 1977");
    CHECK(format_date(1977, 9, 19, 4).input == "19th september 1977");
    CHECK(format_date(2003, 8, 4, 5).input == "04 08 2003");
    CHECK(format_date(2003, 8, 4, 5).target == "2003-08-04");
    CHECK(format_date(1994, 3, 19, 0).target == "1994-03-19");
    // The longest string of the generator's range.
    const Example longest = format_date(1953, 9, 30, 1);
    CHECK(longest.input == "wednesday 30 september 1953");
    CHECK(longest.input.size() == 27);
    // Ordinals.
    const int days[] = {1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31};
    const char* want[] = {"1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "31st"};
    for (int i = 0; i < 11; ++i)
        CHECK(format_date(2001, 1, days[i], 4).input == std::string(want[i]) + " january 2001");
    CHECK_THROWS_AS(format_date(2001, 2, 29, 0), std::invalid_argument);  // not a leap year
    CHECK_THROWS_AS(format_date(2000, 1, 1, 6), std::invalid_argument);
    CHECK_NOTHROW(format_date(2000, 2, 29, 0));                             // a leap year
}

TEST_CASE("dataset: weekdays against Zeller's congruence and known dates") {
    CHECK(weekday(1977, 9, 19) == 0);   // Monday: the lesson's example
    CHECK(weekday(1970, 1, 1) == 3);    // Thursday
    CHECK(weekday(2000, 1, 1) == 5);    // Saturday
    CHECK(weekday(1969, 7, 20) == 6);   // Sunday, the Moon landing
    CHECK(weekday(1950, 1, 1) == 6);    // Sunday
    CHECK(weekday(2049, 12, 31) == 4);  // Friday
    CHECK(days_from_civil(1970, 1, 1) == 0);
    CHECK(days_from_civil(2000, 3, 1) - days_from_civil(2000, 2, 28) == 2);  // Feb 29 exists
    CHECK(days_from_civil(1900, 3, 1) - days_from_civil(1900, 2, 28) == 1);  // not in 1900
    // Every day of the range: consecutive day numbers, weekday agrees with Zeller.
    int64_t previous = days_from_civil(1949, 12, 31);
    int mismatches = 0;
    for (int y = first_year; y <= last_year; ++y)
        for (int m = 1; m <= 12; ++m)
            for (int d = 1; d <= days_in_month(y, m); ++d) {
                const int64_t n = days_from_civil(y, m, d);
                if (n != previous + 1 || weekday(y, m, d) != zeller_weekday(y, m, d)) ++mismatches;
                previous = n;
            }
    CHECK(mismatches == 0);
    CHECK(previous - days_from_civil(1950, 1, 1) + 1 == 36525);  // 100 years, 25 leap days
}

TEST_CASE("dataset: no string of the range is longer than 27 characters, in any field order") {
    for (const char* order : {"dmy", "dym", "mdy", "myd", "ydm", "ymd"}) {
        CAPTURE(order);
        size_t longest = 0;
        for (int y = first_year; y <= last_year; ++y)
            for (int m = 1; m <= 12; ++m)
                for (int f : {1, 2})  // the two long formats; the others are at most 19
                    for (int d = 1; d <= days_in_month(y, m); ++d)
                        longest = std::max(longest, format_date(y, m, d, f, order).input.size());
        CHECK(longest == 27);  // format 1's "wednesday 30 september 1953" moves but keeps its length
    }
    // The short formats' bounds, by hand: "30/12/2000" 10, "wed, 30 sep 2000" 16,
    // "30th september 2000" 19, "30 12 2000" 10.
    CHECK(format_date(2000, 9, 30, 4).input.size() == 19);
    CHECK(format_date(2000, 9, 27, 3).input.size() == 16);
}

TEST_CASE("dataset: the splits") {
    const Splits splits = make_date_splits(1);
    REQUIRE(splits.train.size() == 6000);
    REQUIRE(splits.held_out.size() == 1200);

    std::set<std::string> train_inputs;
    for (const auto* split : {&splits.train, &splits.held_out}) {
        int per_format[format_count] = {};
        for (const Example& ex : *split) {
            REQUIRE(ex.group >= 0);
            REQUIRE(ex.group < format_count);
            ++per_format[ex.group];
            CHECK(ex.input.size() <= size_t(max_input_length));
            for (char c : ex.input) CHECK(date_task().input.id(c) > 0);
            const Date date = parse(ex);
            CHECK(real_date(date));
            CHECK(ex.target == iso(date));
            CHECK(date.y >= 1950);
            CHECK(date.y <= 2049);
        }
        for (int f = 0; f < format_count; ++f) CHECK(per_format[f] * 6 == int(split->size()));
    }
    for (const Example& ex : splits.train) train_inputs.insert(ex.input);
    CHECK(train_inputs.size() == splits.train.size());  // distinct within train
    int shared = 0;
    std::set<std::string> held;
    for (const Example& ex : splits.held_out) {
        shared += int(train_inputs.count(ex.input));
        held.insert(ex.input);
    }
    CHECK(shared == 0);
    CHECK(held.size() == splits.held_out.size());

    // Uniform over 100 years: 7,200 dates, 720 per decade expected, standard
    // deviation about 25; allow ±5 sd. Months: 600 expected each (sd ~ 23).
    int per_decade[10] = {}, per_month[12] = {};
    for (const auto* split : {&splits.train, &splits.held_out})
        for (const Example& ex : *split) {
            const int y = std::stoi(ex.target.substr(0, 4)), m = std::stoi(ex.target.substr(5, 2));
            ++per_decade[(y - 1950) / 10];
            ++per_month[m - 1];
        }
    for (int k = 0; k < 10; ++k) CHECK(std::abs(per_decade[k] - 720) < 125);
    for (int k = 0; k < 12; ++k) CHECK(std::abs(per_month[k] - 600) < 115);
}

TEST_CASE("dataset: deterministic for a seed") {
    const Splits a = make_date_splits(7, 600, 120), b = make_date_splits(7, 600, 120);
    const Splits c = make_date_splits(8, 600, 120);
    int same_as_b = 0, same_as_c = 0;
    for (size_t i = 0; i < a.train.size(); ++i) {
        same_as_b += a.train[i].input == b.train[i].input;
        same_as_c += a.train[i].input == c.train[i].input;
    }
    CHECK(same_as_b == 600);
    CHECK(same_as_c < 10);
    // The held-out strings do not depend on the training size.
    const Splits d = make_date_splits(7, 60, 120);
    for (size_t i = 0; i < a.held_out.size(); ++i) CHECK(a.held_out[i].input == d.held_out[i].input);

    // A pin of the default splits, so the native and WASM runs of this suite
    // prove they draw the same strings: FNV-1a over every input and target.
    // (The value was recorded from the native build; WASM must agree.)
    const Splits full = make_date_splits(1);
    uint64_t hash = 1469598103934665603ULL;
    for (const auto* split : {&full.train, &full.held_out})
        for (const Example& ex : *split)
            for (char ch : ex.input + "|" + ex.target + "\n") hash = (hash ^ uint8_t(ch)) * 1099511628211ULL;
    CHECK(hash == 3221812439414938734ULL);
}

TEST_CASE("dataset: vocabularies") {
    std::set<int> tokens;
    const std::string chars = "abcdefghijklmnopqrstuvwxyz0123456789 /,";
    REQUIRE(chars.size() == 39);
    for (char c : chars) {
        const int t = date_task().input.id(c);
        CHECK(t >= 1);
        CHECK(t < input_vocab_size);
        CHECK(date_task().input.character(t) == c);
        tokens.insert(t);
    }
    CHECK(tokens.size() == 39);  // distinct, and 0 is left for padding
    CHECK(date_task().input.id('A') == -1);
    CHECK(date_task().input.id('.') == -1);
    CHECK(date_task().input.character(pad_token) == '\0');
    CHECK(date_task().input.character(40) == '\0');

    tokens.clear();
    for (char c : std::string("0123456789-")) {
        const int t = date_task().output.id(c);
        CHECK(t >= 2);
        CHECK(t < output_vocab_size);
        CHECK(date_task().output.character(t) == c);
        tokens.insert(t);
    }
    CHECK(tokens.size() == 11);  // 0 pad and 1 start left over: 13 in all
    CHECK(date_task().output.character(start_token) == '\0');
    CHECK(date_task().output.decode({start_token, date_task().output.id('1'), date_task().output.id('-'), pad_token, date_task().output.id('9')}) == "1-");
    const int32_t row[] = {date_task().output.id('2'), date_task().output.id('0'), date_task().output.id('1')};
    CHECK(date_task().output.decode(row, 2) == "20");  // a row of greedy decoding: count characters at most
}

TEST_CASE("dataset: a user's own input") {
    std::string error;
    SUBCASE("lowercased and trimmed") {
        const auto t = encode_user_input(date_task(), "  Monday 19 SEPTEMBER 1977\t\n", error);
        CHECK(error.empty());
        REQUIRE(t.size() == 24);
        CHECK(t[0] == date_task().input.id('m'));
        CHECK(t[7] == date_task().input.id('1'));
        CHECK(t[23] == date_task().input.id('7'));
        CHECK(normalise_user_input("  Monday 19 SEPTEMBER 1977\t\n") == "monday 19 september 1977");
    }
    SUBCASE("empty") {
        CHECK(encode_user_input(date_task(), "   \t ", error).empty());
        CHECK(error.find("empty") != std::string::npos);
    }
    SUBCASE("a character outside the vocabulary: named, with its position") {
        CHECK(encode_user_input(date_task(), "19.3.1994", error).empty());
        CHECK(error.find("'.'") != std::string::npos);
        CHECK(error.find("position 3") != std::string::npos);
        // A two-byte UTF-8 character is shown whole and counted as one.
        CHECK(encode_user_input(date_task(), "1 févr 2001", error).empty());
        CHECK(error.find("'\xc3\xa9'") != std::string::npos);
        CHECK(error.find("position 4") != std::string::npos);
        CHECK(encode_user_input(date_task(), "19/3/1994\xff", error).empty());  // not UTF-8
        CHECK(error.find("byte 0xff") != std::string::npos);
        CHECK(error.find("position 10") != std::string::npos);
        CHECK(encode_user_input(date_task(), "19\t3 1994", error).empty());
        CHECK(error.find("tab") != std::string::npos);
        CHECK(error.find("position 3") != std::string::npos);
    }
    SUBCASE("too long") {
        CHECK(encode_user_input(date_task(), "wednesday 30 september 19533", error).empty());  // 28
        CHECK(error.find("28") != std::string::npos);
        CHECK(error.find("27") != std::string::npos);
        CHECK(encode_user_input(date_task(), "wednesday 30 september 1953", error).size() == 27);
    }
}

TEST_CASE("dataset: a padded batch") {
    const std::vector<Example> examples = {
        {"19/3/1994", "1994-03-19", 0},
        {"04 08 2003", "2003-08-04", 5},
        {"1/1/2000", "2000-01-01", 0},
    };
    const Batch batch = make_batch(date_task(), examples, {2, 1});
    CHECK(batch.B == 2);
    CHECK(batch.S == 10);  // the longer of 8 and 10
    CHECK(batch.src_len == std::vector<int>{8, 10});
    // "1/1/2000" then two pads
    CHECK(batch.src(0, 0) == 28);  // '1' is token 27 + 1
    CHECK(batch.src(0, 1) == 38);  // '/'
    CHECK(batch.src(0, 7) == 27);  // '0'
    CHECK(batch.src(0, 8) == pad_token);
    CHECK(batch.src(0, 9) == pad_token);
    CHECK(batch.src(1, 2) == 37);  // ' '
    // decoder: start, then the target shifted right by one
    CHECK(batch.dec_in(1, 0) == start_token);
    CHECK(batch.dec_in(1, 1) == 2 + 2);     // '2'
    CHECK(batch.dec_out(1, 0) == 2 + 2);    // '2'
    CHECK(batch.dec_out(1, 4) == 12);       // '-'
    CHECK(batch.dec_in(1, 5) == 12);
    CHECK(batch.dec_out(1, 9) == 2 + 4);    // '4'
    CHECK(batch.dec_in(1, 9) == 2 + 0);     // the '0' before it
    CHECK(batch.src.shape()[1] == 10);
    CHECK(batch.dec_in.shape()[1] == 10);
    CHECK_THROWS_AS(make_batch(date_task(), examples, {}), std::invalid_argument);
    CHECK_THROWS_AS(make_batch(date_task(), examples, {3}), std::invalid_argument);
    CHECK_THROWS_AS(make_batch(date_task(), {{"19.3.1994", "1994-03-19", 0}}, {0}), std::invalid_argument);
    CHECK_THROWS_AS(make_batch(date_task(), {{"19/3/1994", "1994-3-19", 0}}, {0}), std::invalid_argument);
}

TEST_CASE("dataset: each string's known alignment, by hand") {
    using L = AlignmentLink;
    SUBCASE("monday 19 september 1977: the year and day one to one, the month's name possible") {
        const Example ex = format_date(1977, 9, 19, 1);
        REQUIRE(ex.input == "monday 19 september 1977");
        // m o n d a y _ 1 9 _ s e p t e m b e r _ 1 9 7 7
        // 0 1 2 3 4 5 6 7 8 9 10.......... 18 19 20 21 22 23
        std::vector<L> expected = {{0, 20, true}, {1, 21, true}, {2, 22, true}, {3, 23, true}};
        for (int t : {5, 6})
            for (int j = 10; j <= 18; ++j) expected.push_back({t, j, false});
        expected.push_back({8, 7, true});
        expected.push_back({9, 8, true});
        CHECK(ex.alignment == expected);
    }
    SUBCASE("19/3/1994: a one-digit month carries its digit (sure) and its leading zero (possible)") {
        const Example ex = format_date(1994, 3, 19, 0);
        REQUIRE(ex.input == "19/3/1994");
        const std::vector<L> expected = {{0, 5, true}, {1, 6, true}, {2, 7, true}, {3, 8, true},
                                         {5, 3, false}, {6, 3, true}, {8, 0, true}, {9, 1, true}};
        CHECK(ex.alignment == expected);
    }
    SUBCASE("every string of a split: links inside the input, on the right characters") {
        const Splits splits = make_date_splits(3, 600, 120);
        for (const Example& ex : splits.train) {
            for (const AlignmentLink& link : ex.alignment) {
                REQUIRE(link.input >= 0);
                REQUIRE(link.input < int(ex.input.size()));
                const char out = ex.target[size_t(link.output)], in = ex.input[size_t(link.input)];
                CHECK(link.output != 4);  // the dashes copy nothing
                CHECK(link.output != 7);
                // A sure link copies its character; a possible one reads a letter or a digit.
                if (link.sure) CHECK(in == out);
                else CHECK(((in >= 'a' && in <= 'z') || (in >= '1' && in <= '9')));
            }
        }
    }
}

// --- the dial: formats drawn and the fields' order ------------------------------------------------

TEST_CASE("dataset: the dial's field orders, by hand") {
    // 19 September 1977, a Monday, in every format with the year read first.
    const char* ymd[] = {"1977/9/19", "monday 1977 september 19", "1977, september the 19",
                         "mon, 1977 sep 19", "1977 september 19th", "1977 09 19"};
    for (int f = 0; f < format_count; ++f) {
        const Example ex = format_date(1977, 9, 19, f, "ymd");
        CHECK(ex.input == ymd[f]);
        CHECK(ex.target == "1977-09-19");
        CHECK(ex.group == f);
    }
    // Format 2 in the other orders: "of" joins a day to a month after it, a comma sets off the year.
    CHECK(format_date(1977, 9, 19, 2, "mdy").input == "september the 19, 1977");
    CHECK(format_date(1977, 9, 19, 2, "ydm").input == "1977, the 19 of september");
    CHECK(format_date(1977, 9, 19, 2, "dym").input == "the 19, 1977, september");
    CHECK(format_date(1977, 9, 19, 2, "myd").input == "september, 1977, the 19");
    CHECK(format_date(1977, 9, 19, 2, "dmy").input == "the 19 of september, 1977");
    CHECK(format_date(1994, 3, 4, 0, "mdy").input == "3/4/1994");
    CHECK(format_date(1994, 3, 4, 4, "myd").input == "march 1994 4th");
    CHECK(format_date(1994, 3, 4, 3, "dym").input == "fri, 4 1994 mar");
    // The names, written by the same rule; the default order's are the table's.
    const char* names[] = {"d/m/yyyy", "weekday d month yyyy", "the d of month, yyyy",
                           "wkd, d mon yyyy", "dth month yyyy", "dd mm yyyy"};
    const char* ymd_names[] = {"yyyy/m/d", "weekday yyyy month d", "yyyy, month the d",
                               "wkd, yyyy mon d", "yyyy month dth", "yyyy mm dd"};
    for (int f = 0; f < format_count; ++f) {
        CHECK(format_name(f) == names[f]);
        CHECK(format_name(f, "ymd") == ymd_names[f]);
    }
    CHECK(format_name(6) == "?");
    CHECK(format_name(0, "dd") == "?");
    // The known alignment follows the fields: "1977, september the 19"
    //  1 9 7 7 , _ s e p t e m b e r _ t h e _ 1  9
    //  0 1 2 3 4 5 6 . . . . . . . 14 15 . . 19 20 21
    using L = AlignmentLink;
    std::vector<L> expected = {{0, 0, true}, {1, 1, true}, {2, 2, true}, {3, 3, true}};
    for (int t : {5, 6})
        for (int j = 6; j <= 14; ++j) expected.push_back({t, j, false});
    expected.push_back({8, 20, true});
    expected.push_back({9, 21, true});
    CHECK(format_date(1977, 9, 19, 2, "ymd").alignment == expected);
    // "9/4/1994" in mdy: the month's one digit first, the day's next.
    CHECK(format_date(1994, 9, 4, 0, "mdy").alignment ==
          std::vector<L>{{0, 4, true}, {1, 5, true}, {2, 6, true}, {3, 7, true}, {5, 0, false}, {6, 0, true},
                         {8, 2, false}, {9, 2, true}});
    for (const char* bad : {"", "dm", "dmd", "dmyy", "DMY", "dmx"})
        CHECK_THROWS_AS(format_date(1977, 9, 19, 0, bad), std::invalid_argument);
}

TEST_CASE("dataset: the dial's settings as text") {
    std::vector<int> formats = {1};
    CHECK(parse_formats("0,2,5", formats));
    CHECK(formats == std::vector<int>{0, 2, 5});
    CHECK(parse_formats("5,0", formats));  // any order, kept ascending
    CHECK(formats == std::vector<int>{0, 5});
    CHECK(parse_formats("3", formats));
    CHECK(formats == std::vector<int>{3});
    for (const char* bad : {"", "6", "0,0", "5,3,5", "0,,1", "01", "0,", ",0", " 0", "-1", "0;1", "a", "0,1,2,3,4,5,6"}) {
        CHECK_FALSE(parse_formats(bad, formats));
        CHECK(formats == std::vector<int>{3});  // unchanged
    }
    CHECK(formats_text({0, 2, 5}) == "0,2,5");
    CHECK(formats_text(DateDial{}.formats) == "0,1,2,3,4,5");
    for (const char* order : {"dmy", "dym", "mdy", "myd", "ydm", "ymd"}) CHECK(valid_field_order(order));
    for (const char* order : {"", "dmd", "yy", "dmyy", "Dmy", "mdy "}) CHECK_FALSE(valid_field_order(order));
}

TEST_CASE("dataset: a dial's row of the date task") {
    CHECK(&date_task(DateDial{}) == &date_task());
    REQUIRE(date_dial(date_task()) != nullptr);
    CHECK(*date_dial(date_task()) == DateDial{});
    const DateDial one{{5}, "ymd"};
    const Task& task = date_task(one);
    CHECK(&task != &date_task());
    CHECK(&date_task(one) == &task);  // made once
    REQUIRE(date_dial(task) != nullptr);
    CHECK(*date_dial(task) == one);
    CHECK(task.name == "dates");
    CHECK(task.group_names == std::vector<std::string>{"yyyy mm dd"});
    CHECK(task.example_input == "1994 03 19");
    CHECK(task.max_input_tokens == 27);
    CHECK(task.output_steps == 10);
    CHECK(task.input.tokens() == date_task().input.tokens());
    CHECK(task.output.tokens() == date_task().output.tokens());
    CHECK(date_task(DateDial{{0, 5}, "dmy"}).group_names == std::vector<std::string>{"d/m/yyyy", "dd mm yyyy"});
    CHECK(date_dial(*tasks()[1]) == nullptr);  // the reversal has no dial
    for (const DateDial& bad : {DateDial{{}, "dmy"}, DateDial{{6}, "dmy"}, DateDial{{2, 0}, "dmy"},
                                DateDial{{0, 0}, "dmy"}, DateDial{{0}, "ddy"}})
        CHECK_THROWS_AS(date_task(bad), std::invalid_argument);
    CHECK_THROWS_AS(make_date_splits(1, 6, 6, DateDial{{0}, "yyy"}), std::invalid_argument);
}

namespace {

// A string of any format and field order read back by rules of its own: the weekday that opens
// formats 1 and 3, then numbers and words, leaving out "the", "of" and an ordinal suffix. Returns
// where each field stands (day, month, year: first character and length) and checks the fields
// come in `order` and the weekday and suffix are right.
struct ReadBack {
    Date date;
    int start[3] = {}, length[3] = {};  // day, month, year
    bool month_word = false;
};
ReadBack read_back(const std::string& s, int format, const std::string& order) {
    ReadBack r;
    size_t i = 0;
    std::string weekday_word;
    if (format == 1 || format == 3) {
        while (i < s.size() && s[i] >= 'a' && s[i] <= 'z') weekday_word += s[i++];
        CHECK(s.substr(i, format == 3 ? 2 : 1) == (format == 3 ? ", " : " "));
        i += format == 3 ? 2 : 1;
    }
    std::string seen;  // the fields' letters in the order found
    std::string suffix;
    while (i < s.size()) {
        const size_t from = i;
        const bool digits = s[i] >= '0' && s[i] <= '9', letters = s[i] >= 'a' && s[i] <= 'z';
        while (i < s.size() && (digits ? (s[i] >= '0' && s[i] <= '9') : letters ? (s[i] >= 'a' && s[i] <= 'z') : false)) ++i;
        if (!digits && !letters) {  // a separator: a space, '/', ','
            ++i;
            continue;
        }
        const std::string token = s.substr(from, i - from);
        if (letters && (token == "the" || token == "of")) continue;
        if (letters && from > 0 && s[from - 1] >= '0' && s[from - 1] <= '9') {  // "19th"
            suffix = token;
            continue;
        }
        int field;  // 0 day, 1 month, 2 year
        if (letters) {
            field = 1;
            r.month_word = true;
            r.date.m = month_index(token, format == 3);
        } else if (token.size() == 4) {
            field = 2;
            r.date.y = std::stoi(token);
        } else {  // a day or a numeric month: the order says which comes first
            const bool day_first = order.find('d') < order.find('m');
            const bool month_taken = r.length[1] > 0, day_taken = r.length[0] > 0;
            field = format == 0 || format == 5 ? (day_first ? (day_taken ? 1 : 0) : (month_taken ? 0 : 1)) : 0;
            (field == 0 ? r.date.d : r.date.m) = std::stoi(token);
        }
        r.start[field] = int(from), r.length[field] = int(token.size());
        seen += "dmy"[field];
    }
    CHECK(seen == order);
    if (format == 1 || format == 3) CHECK(weekday_index(weekday_word, format == 3) == zeller_weekday(r.date.y, r.date.m, r.date.d));
    if (format == 4) {
        const int last = r.date.d % 10;
        const bool teen = r.date.d >= 11 && r.date.d <= 13;
        CHECK(suffix == (teen ? "th" : last == 1 ? "st" : last == 2 ? "nd" : last == 3 ? "rd" : "th"));
    }
    if (format == 5) CHECK((r.length[0] == 2 && r.length[1] == 2));
    if (format == 0) CHECK((s[size_t(r.start[0])] != '0' && s[size_t(r.start[1])] != '0'));
    return r;
}

// docs/tasks.md's rule for a date's known alignment, from the fields' places.
std::vector<AlignmentLink> expected_links(const ReadBack& r) {
    std::vector<AlignmentLink> links;
    for (int t = 0; t < 4; ++t) links.push_back({t, r.start[2] + t, true});
    auto two = [&](int t0, int field, bool word) {
        for (int t = t0; t < t0 + 2; ++t)
            if (word)
                for (int j = 0; j < r.length[field]; ++j) links.push_back({t, r.start[field] + j, false});
            else if (r.length[field] == 2)
                links.push_back({t, r.start[field] + t - t0, true});
            else
                links.push_back({t, r.start[field], t == t0 + 1});
    };
    two(5, 1, r.month_word);
    two(8, 0, false);
    return links;
}

}  // namespace

TEST_CASE("dataset: every order's splits, read back, with alignments consistent with their strings") {
    const Splits dmy = make_date_splits(3, 600, 120);
    for (const char* order : {"dmy", "dym", "mdy", "myd", "ydm", "ymd"}) {
        CAPTURE(order);
        const Splits splits = make_date_splits(3, 600, 120, DateDial{DateDial{}.formats, order});
        std::set<std::string> inputs;
        for (const auto* split : {&splits.train, &splits.held_out})
            for (size_t i = 0; i < split->size(); ++i) {
                const Example& ex = (*split)[i];
                CAPTURE(ex.input);
                CHECK(ex.group == int(i % 6));
                CHECK(ex.input.size() <= size_t(max_input_length));
                for (char c : ex.input) CHECK(date_task().input.id(c) > 0);
                const ReadBack r = read_back(ex.input, ex.group, order);
                CHECK(real_date(r.date));
                CHECK(ex.target == iso(r.date));
                CHECK(ex.alignment == expected_links(r));
                inputs.insert(ex.input);
            }
        CHECK(inputs.size() == 720);  // distinct within and across the splits
        // The same dates as the default order's: only the strings change.
        for (size_t i = 0; i < dmy.train.size(); ++i) CHECK(splits.train[i].target == dmy.train[i].target);
        for (size_t i = 0; i < dmy.held_out.size(); ++i) CHECK(splits.held_out[i].target == dmy.held_out[i].target);
    }
}

TEST_CASE("dataset: a dial of fewer formats draws only those, each an equal share") {
    const Splits two = make_date_splits(2, 600, 120, DateDial{{0, 5}, "dmy"});
    for (const auto* split : {&two.train, &two.held_out})
        for (size_t i = 0; i < split->size(); ++i) {
            const Example& ex = (*split)[i];
            CHECK(ex.group == int(i % 2));
            const int format = ex.group == 0 ? 0 : 5;  // the dial's formats, in its order
            CHECK((ex.input.find('/') != std::string::npos) == (format == 0));
            CHECK(ex.target == iso(read_back(ex.input, format, "dmy").date));
        }
    // One format: every string "yyyy mm dd", all 7,200 distinct.
    const Splits one = date_task(DateDial{{5}, "ymd"}).make_splits(1, 6000, 1200);
    std::set<std::string> inputs;
    for (const auto* split : {&one.train, &one.held_out})
        for (const Example& ex : *split) {
            CHECK(ex.group == 0);
            CHECK(ex.input.size() == 10);
            CHECK(ex.input.substr(0, 4) == ex.target.substr(0, 4));
            CHECK(ex.input.substr(5, 2) == ex.target.substr(5, 2));
            CHECK(ex.input.substr(8, 2) == ex.target.substr(8, 2));
            inputs.insert(ex.input);
        }
    CHECK(inputs.size() == 7200);
}
