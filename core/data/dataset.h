// core/data/dataset.h — the date-normalisation task (docs/dataset.md), its two
// vocabularies, and padded batches.
//
// Legend: B batch size, S padded source length (longest input in the batch),
// T output length (10: YYYY-MM-DD). Token ids are int32.
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

int input_token(char c);    // -1 if c is not in the input vocabulary
char input_char(int token); // '\0' for pad or out of range
int output_token(char c);   // -1 if c is not an output character
// The most likely real character of one step's logits [13] (never pad or
// start): what greedy decoding emits.
int greedy_character(const float* logits);
char output_char(int token);// '\0' for pad/start or out of range

// The date task as a row of the task table (task.h): Example::group is the format, 0..5.
const Task& date_task();

// The lesson's split sizes: every run of the CLI, the workers and the page uses them.
constexpr int train_split_size = 6000;
constexpr int held_out_split_size = 1200;

using DateSplits = Splits;  // train_split_size and held_out_split_size, a sixth in each format

// Deterministic for a seed, on every platform. Example i of a split has format
// i % 6, so each format gets exactly a sixth when the size is a multiple of 6.
// Every string is distinct, within a split and across the two (a date that was
// already drawn in that format is drawn again), so no held-out string is in train.
DateSplits make_date_splits(uint64_t seed, int train_size = train_split_size,
                            int held_out_size = held_out_split_size);

// Writes one date in one format; the date is (year, month 1..12, day 1..31).
Example format_date(int year, int month, int day, int format);

// The calendar (proleptic Gregorian), in whole days.
constexpr int first_year = 1950, last_year = 2049;  // the generator's range, inclusive
int64_t days_from_civil(int year, int month, int day);  // 1970-01-01 is day 0
int weekday(int year, int month, int day);              // 0 = Monday … 6 = Sunday
int days_in_month(int year, int month);

// The format names, for tables ("d/m/yyyy", "weekday d month yyyy", ...).
const char* format_name(int format);

// A user's own input: lowercased and trimmed, then checked. On success returns
// the tokens; on refusal returns an empty vector and sets `error` to a message
// naming the problem (empty, too long, which character at which position).
std::vector<int> encode_user_input(std::string_view text, std::string& error,
                                   int max_length = max_input_length);


// Tokens of a string already known to be valid (generated data); throws
// std::invalid_argument on a character outside the vocabulary.
std::vector<int> encode_input(std::string_view text);
std::vector<int> encode_output(std::string_view text);
// Output tokens back to text: stops at pad, skips start. The one way from
// output tokens to text (greedy decoding's [T] rows use the pointer form).
std::string decode_output(const std::vector<int>& tokens);
std::string decode_output(const int32_t* tokens, int count);

// A padded batch of examples[indices[b]] (task.h's make_batch for the date task).
Batch make_batch(const std::vector<Example>& examples, const std::vector<int>& indices);

}  // namespace lb
