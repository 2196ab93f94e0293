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

// The lesson's split sizes: every run of the CLI, the workers and the page uses them.
constexpr int train_split_size = 6000;
constexpr int held_out_split_size = 1200;

// Deterministic for a seed, on every platform. Example i of a split has format
// i % 6, so each format gets exactly a sixth when the size is a multiple of 6.
// Every string is distinct, within a split and across the two (a date that was
// already drawn in that format is drawn again), so no held-out string is in train.
Splits make_date_splits(uint64_t seed, int train_size = train_split_size,
                            int held_out_size = held_out_split_size);

// Writes one date in one format; the date is (year, month 1..12, day 1..31). Its alignment:
// the year's four digits one to one (sure); no link for the dashes; a month or day written in
// two digits one to one (sure); written in one digit, that digit carries the output's second
// digit (sure) and its leading zero (possible); a month's name (or its first three letters)
// carries both digits, every letter a possible link. The weekday and the ordinal suffix carry
// nothing the output needs.
Example format_date(int year, int month, int day, int format);

// The calendar (proleptic Gregorian), in whole days.
constexpr int first_year = 1950, last_year = 2049;  // the generator's range, inclusive
int64_t days_from_civil(int year, int month, int day);  // 1970-01-01 is day 0
int weekday(int year, int month, int day);              // 0 = Monday … 6 = Sunday
int days_in_month(int year, int month);

// The format names, for tables ("d/m/yyyy", "weekday d month yyyy", ...).
const char* format_name(int format);

}  // namespace lb
