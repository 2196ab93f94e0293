// core/data/dataset.h — the date-normalisation task (docs/dataset.md): its calendar, its six
// formats, its generator with each string's known alignment, and its row of the task table.
//
// Legend: T output length (10: YYYY-MM-DD).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include <xtensor/xtensor.hpp>

#include "data/task.h"

namespace lb {

// Input: pad = 0, then 'a'..'z', '0'..'9', ' ', '/', ',' (40 tokens).
// Output: pad = 0, start = 1, then '0'..'9', '-' (13 tokens).
constexpr int input_vocab_size = 40;
constexpr int output_vocab_size = 13;
constexpr int output_length = 10;      // T
constexpr int max_input_length = 27;   // the longest string the generator writes
constexpr int format_count = 6;

// The date task as a row of the task table (task.h): Example::group is the format, 0..5.
const Task& date_task();

// The difficulty dial (docs/dataset.md, "The dial"): which formats are drawn and the order of the
// fields in the input. The defaults are the lesson's task, date_task().
struct DateDial {
    std::vector<int> formats = {0, 1, 2, 3, 4, 5};  // ascending, each once
    std::string order = "dmy";                      // the fields as read, first to last
    bool operator==(const DateDial&) const = default;
};
// "0,2,5" (any order; stored ascending): false, with `formats` unchanged, unless it is format
// numbers 0 to 5 separated by commas, each once.
bool parse_formats(std::string_view text, std::vector<int>& formats);
std::string formats_text(const std::vector<int>& formats);  // "0,2,5"
bool valid_field_order(std::string_view order);              // d, m and y, each once
// The date task drawn with a dial: date_task() for the defaults, else a row made once and kept
// (named "dates" too; its dial is what tells it apart). Its groups are the formats used, in
// ascending order, named in its field order. Throws std::invalid_argument for a dial that is
// not valid.
const Task& date_task(const DateDial& dial);
// The dial a date task's row was made with, or nullptr for another task's row.
const DateDial* date_dial(const Task& task);

// The lesson's split sizes: every run of the CLI, the workers and the page uses them.
constexpr int train_split_size = 6000;
constexpr int held_out_split_size = 1200;

// Deterministic for a seed, on every platform. Example i of a split has the dial's format
// i % n of its n (group i % n), so each gets exactly an n-th when the size is a multiple of n.
// Every string is distinct, within a split and across the two (a date that was
// already drawn in that format is drawn again), so no held-out string is in train.
// The dates drawn depend on the seed and the sizes only, not on the field order.
Splits make_date_splits(uint64_t seed, int train_size = train_split_size,
                        int held_out_size = held_out_split_size, const DateDial& dial = {});

// Writes one date in one format, its fields in `order`; the date is (year, month 1..12, day
// 1..31). Its alignment: the year's four digits one to one (sure); no link for the dashes; a
// month or day written in two digits one to one (sure); written in one digit, that digit carries
// the output's second digit (sure) and its leading zero (possible); a month's name (or its first
// three letters) carries both digits, every letter a possible link. The weekday and the words
// around the fields carry nothing the output needs.
Example format_date(int year, int month, int day, int format, std::string_view order = "dmy");

// The calendar (proleptic Gregorian), in whole days.
constexpr int first_year = 1950, last_year = 2049;  // the generator's range, inclusive
int64_t days_from_civil(int year, int month, int day);  // 1970-01-01 is day 0
int weekday(int year, int month, int day);              // 0 = Monday … 6 = Sunday
int days_in_month(int year, int month);

// The format names, for tables ("d/m/yyyy", "weekday d month yyyy", ...): the format written
// in `order` with placeholders for its texts ("yyyy/m/d"); "?" for no format.
std::string format_name(int format, std::string_view order = "dmy");

}  // namespace lb
