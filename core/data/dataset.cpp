// core/data/dataset.cpp — the date generator, the vocabularies and padded batches
// (docs/dataset.md). Only lb::Rng's integers decide what is drawn, so the
// strings are the same on every platform.
#include "data/dataset.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <type_traits>
#include <unordered_set>

#include "kernels/rng.h"
#include "text/text.h"

namespace lb {

// --- vocabularies ------------------------------------------------------------

int input_token(char c) {
    if (c >= 'a' && c <= 'z') return 1 + (c - 'a');
    if (c >= '0' && c <= '9') return 27 + (c - '0');
    if (c == ' ') return 37;
    if (c == '/') return 38;
    if (c == ',') return 39;
    return -1;
}

char input_char(int token) {
    if (token >= 1 && token <= 26) return char('a' + token - 1);
    if (token >= 27 && token <= 36) return char('0' + token - 27);
    if (token == 37) return ' ';
    if (token == 38) return '/';
    if (token == 39) return ',';
    return '\0';
}

int output_token(char c) {
    if (c >= '0' && c <= '9') return 2 + (c - '0');
    if (c == '-') return 12;
    return -1;
}

int greedy_character(const float* logits) {
    int best = start_token + 1;
    for (int v = best + 1; v < output_vocab_size; ++v)
        if (logits[v] > logits[best]) best = v;
    return best;
}

char output_char(int token) {
    if (token >= 2 && token <= 11) return char('0' + token - 2);
    if (token == 12) return '-';
    return '\0';
}

std::vector<int> encode_input(std::string_view text) {
    std::vector<int> tokens;
    tokens.reserve(text.size());
    for (char c : text) {
        const int t = input_token(c);
        if (t < 0)
            throw std::invalid_argument("'" + std::string(text) +
                                        "' has a character outside the input vocabulary");
        tokens.push_back(t);
    }
    return tokens;
}

std::vector<int> encode_output(std::string_view text) {
    std::vector<int> tokens;
    tokens.reserve(text.size());
    for (char c : text) {
        const int t = output_token(c);
        if (t < 0)
            throw std::invalid_argument("'" + std::string(text) +
                                        "' has a character outside the output vocabulary");
        tokens.push_back(t);
    }
    return tokens;
}

std::string decode_output(const int32_t* tokens, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) {
        if (tokens[i] == pad_token) break;
        if (const char c = output_char(tokens[i])) text += c;
    }
    return text;
}
std::string decode_output(const std::vector<int>& tokens) {
    static_assert(std::is_same_v<int, int32_t>, "token ids are int32");
    return decode_output(tokens.data(), int(tokens.size()));
}

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
    switch (format) {
        case 0: ex.input = d + "/" + m + "/" + yyyy; break;
        case 1: ex.input = weekday_word + " " + d + " " + month_word + " " + yyyy; break;
        case 2: ex.input = "the " + d + " of " + month_word + ", " + yyyy; break;
        case 3:
            ex.input = first3(weekday_word.c_str()) + ", " + d + " " +
                       first3(month_word.c_str()) + " " + yyyy;
            break;
        case 4: ex.input = d + ordinal_suffix(day) + " " + month_word + " " + yyyy; break;
        case 5: ex.input = std::string(dd) + " " + mm + " " + yyyy; break;
    }
    return ex;
}

// --- the task's row ----------------------------------------------------------

const Task& date_task() {
    static const Task task = [] {
        Task t;
        t.name = "dates";
        t.summary = "a date as people type it, in ISO form (YYYY-MM-DD)";
        t.input.tokens = {""};
        for (int k = 1; k < input_vocab_size; ++k) t.input.tokens.push_back(std::string(1, input_char(k)));
        t.output.tokens = {"", "<s>"};
        for (int k = 2; k < output_vocab_size; ++k) t.output.tokens.push_back(std::string(1, output_char(k)));
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

DateSplits make_date_splits(uint64_t seed, int train_size, int held_out_size) {
    if (train_size < 0 || held_out_size < 0)
        throw std::invalid_argument("make_date_splits: negative size");
    const int64_t day_count =
        days_from_civil(last_year, 12, 31) - days_from_civil(first_year, 1, 1) + 1;
    if (int64_t(train_size) + held_out_size > day_count)  // each format has day_count strings
        throw std::invalid_argument("make_date_splits: more strings than dates");

    Rng rng(seed);
    std::unordered_set<std::string> seen;
    auto draw = [&](int count, std::vector<Example>& out) {
        out.reserve(count);
        for (int i = 0; i < count; ++i) {
            for (;;) {  // redraw a string already used (rare: 36,525 dates per format)
                int y, m, d;
                civil_from_index(int64_t(rng.below(uint64_t(day_count))), y, m, d);
                Example ex = format_date(y, m, d, i % format_count);
                if (seen.insert(ex.input).second) {
                    out.push_back(std::move(ex));
                    break;
                }
            }
        }
    };
    // Held-out first: the evaluation strings depend only on the seed and their count.
    DateSplits splits;
    draw(held_out_size, splits.held_out);
    draw(train_size, splits.train);
    return splits;
}

// --- a user's own input ------------------------------------------------------

std::vector<int> encode_user_input(std::string_view text, std::string& error, int max_length) {
    error.clear();
    const std::string clean = normalise_user_input(text);
    if (clean.empty()) {
        error = "the input is empty: type a date such as '19/3/1994'";
        return {};
    }
    int position = 0;  // in characters, counting from 1
    for (size_t i = 0; i < clean.size();) {
        ++position;
        const size_t len = utf8_char_length(clean, i);  // 0: a byte that is not UTF-8
        if (len != 1 || input_token(clean[i]) < 0) {
            error = "character " + describe_char(clean, i, len) +
                    " at position " + std::to_string(position) +
                    " is not accepted: use a-z, 0-9, space, '/' or ','";
            return {};
        }
        ++i;
    }
    if (int(clean.size()) > max_length) {
        error = "the input is " + std::to_string(clean.size()) +
                " characters long; the model accepts at most " + std::to_string(max_length);
        return {};
    }
    return encode_input(clean);
}

// --- batches -----------------------------------------------------------------

Batch make_batch(const std::vector<Example>& examples, const std::vector<int>& indices) {
    if (indices.empty()) throw std::invalid_argument("make_batch: no examples");
    Batch batch;
    batch.B = int(indices.size());
    for (int i : indices) {
        if (i < 0 || size_t(i) >= examples.size())
            throw std::invalid_argument("make_batch: index out of range");
        const Example& ex = examples[size_t(i)];
        if (ex.input.empty()) throw std::invalid_argument("make_batch: empty input");
        if (int(ex.target.size()) != output_length)
            throw std::invalid_argument("make_batch: target '" + ex.target +
                                        "' is not 10 characters");
        batch.S = std::max(batch.S, int(ex.input.size()));
    }
    batch.src = xt::zeros<int32_t>({size_t(batch.B), size_t(batch.S)});  // pad_token is 0
    batch.dec_in = xt::zeros<int32_t>({size_t(batch.B), size_t(output_length)});
    batch.dec_out = xt::zeros<int32_t>({size_t(batch.B), size_t(output_length)});
    batch.src_len.resize(size_t(batch.B));
    for (int b = 0; b < batch.B; ++b) {
        const Example& ex = examples[size_t(indices[size_t(b)])];
        const std::vector<int> src = encode_input(ex.input);
        const std::vector<int> out = encode_output(ex.target);
        batch.src_len[size_t(b)] = int(src.size());
        for (size_t s = 0; s < src.size(); ++s) batch.src(b, s) = src[s];
        batch.dec_in(b, 0) = start_token;
        for (int t = 0; t < output_length; ++t) {
            batch.dec_out(b, t) = out[size_t(t)];
            if (t + 1 < output_length) batch.dec_in(b, t + 1) = out[size_t(t)];
        }
    }
    return batch;
}

}  // namespace lb
