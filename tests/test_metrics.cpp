// Metrics on hand-made predictions (every expected number worked out by hand
// in the comments), the quartile definition, and identities that tie the
// breakdowns to the overall per-character accuracy.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "data/metrics.h"
#include "data/translation.h"
#include "kernels/rng.h"

using namespace lb;
using doctest::Approx;

TEST_CASE("metrics: four hand-made predictions") {
    const std::vector<Example> examples = {
        {"1/1/2000", "2000-01-01", 0},                     // length 8
        {"04 08 2003", "2003-08-04", 5},                   // length 10
        {"mon, 19 sep 1977", "1977-09-19", 3},             // length 16
        {"wednesday 30 september 1953", "1953-09-30", 1},  // length 27
    };
    const std::vector<std::string> predictions = {
        "2000-01-01",  // all 10 right
        "2003-08-05",  // 9 right: the last digit is wrong
        "1977-08-91",  // 7 right: positions 6, 8, 9 wrong
        "1953",        // 4 right: positions 4..9 missing
    };
    const Metrics m = evaluate_predictions(date_task(), examples, predictions);
    CHECK(m.count == 4);
    CHECK(m.exact == Approx(0.25));
    CHECK(m.per_char == Approx(30.0 / 40));
    const double position[10] = {1, 1, 1, 1, 0.75, 0.75, 0.5, 0.75, 0.5, 0.25};
    for (int t = 0; t < 10; ++t) CHECK(m.per_position[size_t(t)] == Approx(position[t]));
    // Quartiles of {8, 10, 16, 27} by nearest rank: ranks 1, 2, 3 -> 8, 10, 16,
    // so each example has a bucket of its own.
    CHECK(m.buckets.quartiles == std::array<int, 3>{8, 10, 16});
    CHECK(m.bucket_count == std::array<int, 4>{1, 1, 1, 1});
    CHECK(m.per_length_bucket[0] == Approx(1.0));
    CHECK(m.per_length_bucket[1] == Approx(0.9));
    CHECK(m.per_length_bucket[2] == Approx(0.7));
    CHECK(m.per_length_bucket[3] == Approx(0.4));
    CHECK(m.per_format[0] == Approx(1.0));
    CHECK(m.per_format[5] == Approx(0.9));
    CHECK(m.per_format[3] == Approx(0.7));
    CHECK(m.per_format[1] == Approx(0.4));
    CHECK(m.per_format_exact[0] == Approx(1.0));
    CHECK(m.per_format_exact[5] == Approx(0.0));
    CHECK(std::isnan(m.per_format[2]));  // no example in that format
    CHECK(m.examples_per_format[2] == 0);
    CHECK(m.examples_per_format[1] == 1);
}

TEST_CASE("metrics: the same buckets applied to another set") {
    const std::vector<Example> reference = {
        {"1/1/2000", "2000-01-01", 0}, {"04 08 2003", "2003-08-04", 5},
        {"mon, 19 sep 1977", "1977-09-19", 3}, {"wednesday 30 september 1953", "1953-09-30", 1}};
    const LengthBuckets b = length_quartiles(date_task(), reference);
    // Lengths 9 and 10 both fall in (8, 10]; 17 in (16, ∞).
    const std::vector<Example> other = {{"10/1/2000", "2000-01-10", 0},
                                        {"19 03 1994", "1994-03-19", 5},
                                        {"19th september 1977", "1977-09-19", 4}};
    const Metrics m = evaluate_predictions(date_task(), other, {"2000-01-10", "1994-03-18", "2222222222"}, b);
    CHECK(m.bucket_count == std::array<int, 4>{0, 2, 0, 1});
    CHECK(m.per_length_bucket[1] == Approx(19.0 / 20));
    CHECK(m.per_length_bucket[3] == Approx(0.0));  // no 2 in "1977-09-19": none right
    CHECK(std::isnan(m.per_length_bucket[0]));
    CHECK(m.exact == Approx(1.0 / 3));
}

TEST_CASE("metrics: ties in the lengths") {
    // Lengths 9, 9, 9, 9, 9, 22 (n = 6): ranks ceil(1.5) = 2, 3, ceil(4.5) = 5
    // are all 9, so buckets 1 and 2 are empty and 22 alone is in bucket 3.
    std::vector<Example> ex(5, Example{"1/10/2000", "2000-10-01", 0});
    ex.push_back({"the 1 of october, 2000", "2000-10-01", 2});
    REQUIRE(ex[5].input.size() == 22);
    const LengthBuckets b = length_quartiles(date_task(), ex);
    CHECK(b.quartiles == std::array<int, 3>{9, 9, 9});
    CHECK(b.bucket_of(9) == 0);
    CHECK(b.bucket_of(10) == 3);
    CHECK(b.bucket_of(22) == 3);
    CHECK(b.lowest_length(0) == 9);
    CHECK(b.highest_length(3) == 22);
    CHECK(b.lowest_length(1) > b.highest_length(1));  // empty range
    const Metrics m = evaluate_predictions(date_task(), ex, std::vector<std::string>(6, "2000-10-01"));
    CHECK(m.bucket_count == std::array<int, 4>{5, 0, 0, 1});
    CHECK(std::isnan(m.per_length_bucket[1]));
    CHECK(m.exact == Approx(1.0));
}

TEST_CASE("metrics: the held-out quartiles satisfy the nearest-rank definition") {
    const Splits splits = make_date_splits(1);
    const auto& held = splits.held_out;
    const LengthBuckets b = length_quartiles(date_task(), held);
    const double n = double(held.size());
    for (int k = 1; k <= 3; ++k) {
        const int q = b.quartiles[size_t(k - 1)];
        int at_most_q = 0, below_q = 0;
        for (const Example& ex : held) {
            at_most_q += int(ex.input.size()) <= q;
            below_q += int(ex.input.size()) < q;
        }
        CHECK(at_most_q >= k * n / 4);  // at least k/4 are no longer than Q_k ...
        CHECK(below_q < k * n / 4);     // ... and no shorter length has that property
    }
    CHECK(b.quartiles[0] < b.quartiles[1]);
    CHECK(b.quartiles[1] < b.quartiles[2]);
}

TEST_CASE("metrics: breakdowns average back to the per-character accuracy") {
    const Splits splits = make_date_splits(3, 0, 600);
    Rng rng(11);
    std::vector<std::string> predictions;
    for (const Example& ex : splits.held_out) {
        std::string p = ex.target;
        for (char& c : p)  // corrupt each character with probability 1/3
            if (rng.below(3) == 0) c = char('0' + rng.below(10));
        predictions.push_back(p);
    }
    const Metrics m = evaluate_predictions(date_task(), splits.held_out, predictions);
    double by_position = 0, by_bucket = 0, by_format = 0;
    int bucketed = 0;
    for (double a : m.per_position) by_position += a / output_length;
    for (size_t k = 0; k < 4; ++k) {
        bucketed += m.bucket_count[k];
        if (m.bucket_count[k]) by_bucket += m.per_length_bucket[k] * m.bucket_count[k] / m.count;
    }
    for (size_t f = 0; f < format_count; ++f) by_format += m.per_format[f] * m.examples_per_format[f] / m.count;
    CHECK(bucketed == 600);
    CHECK(by_position == Approx(m.per_char));
    CHECK(by_bucket == Approx(m.per_char));
    CHECK(by_format == Approx(m.per_char));
    // A digit survives unless corrupted to a different digit: P(wrong) = 1/3 · 9/10
    // for digits, 1/3 for dashes (a digit never equals '-'). 8 digits + 2 dashes:
    // expected per-char = (8 · 0.7 + 2 · 2/3) / 10 = 0.6933; 6,000 characters.
    CHECK(m.per_char == Approx(0.6933).epsilon(0.03));
}

TEST_CASE("metrics: BLEU for a task of words, the corpus counted by hand; none for characters") {
    // test_alignment_scores.cpp counts this corpus: p = 7/8, 4/6, 2/4, 1/3; c = 8, r = 9.
    const std::vector<Example> examples = {{"the cat sat on the mat", "the cat sat on a mat", 0},
                                           {"a dog runs", "a dog runs", 0}};
    const Metrics m = evaluate_predictions(translation_task(), examples, {"the cat sat on the mat", "a dog"});
    CHECK(m.bleu == Approx(std::exp(-0.125) * std::pow(7.0 / 72.0, 0.25)));
    CHECK(m.exact == 0.0);
    const std::vector<Example> date = {{"1/1/2000", "2000-01-01", 0}};
    CHECK(std::isnan(evaluate_predictions(date_task(), date, {"2000-01-01"}).bleu));
}

TEST_CASE("metrics: refusals") {
    const std::vector<Example> one = {{"1/1/2000", "2000-01-01", 0}};
    CHECK_THROWS_AS(evaluate_predictions(date_task(), one, {}), std::invalid_argument);
    CHECK_THROWS_AS(evaluate_predictions(date_task(), {}, {}), std::invalid_argument);
    CHECK_THROWS_AS(length_quartiles(date_task(), {}), std::invalid_argument);
}

TEST_CASE("chance baselines: three hand-made targets") {
    const std::vector<Example> examples = {
        {"5/1/2001", "2001-01-05", 0},
        {"15/2/2001", "2001-02-15", 0},
        {"15/1/1999", "1999-01-15", 0},
    };
    const ChanceBaselines b = chance_baselines(examples);
    // Month "01", "02", "01": '0' everywhere, '1' twice; day "05", "15", "15": '1' twice, '5' everywhere.
    CHECK(b.majority_char[5] == '0');
    CHECK(b.majority_char[6] == '1');
    CHECK(b.majority_char[8] == '1');
    CHECK(b.majority_char[9] == '5');
    CHECK(b.majority_share[5] == Approx(1.0));
    CHECK(b.majority_share[6] == Approx(2.0 / 3));
    CHECK(b.majority_share[8] == Approx(2.0 / 3));
    CHECK(b.majority_share[9] == Approx(1.0));
    CHECK(b.majority_char[4] == '-');
    CHECK(b.majority_share[4] == Approx(1.0));
    CHECK(b.majority_char[0] == '2');  // "2", "2", "1"
    CHECK(b.majority_share[0] == Approx(2.0 / 3));
    // Year and dashes right (6 of 10) plus 1 + 2/3 + 2/3 + 1 at month and day: 9⅓ of 10.
    CHECK(b.year_and_dashes_per_char == Approx((6 + 1 + 2.0 / 3 + 2.0 / 3 + 1) / 10));
    // "01" and "15" at once: only the third target.
    CHECK(b.year_and_dashes_exact == Approx(1.0 / 3));
}

TEST_CASE("chance baselines: a tie goes to the smaller character") {
    const std::vector<Example> examples = {{"1/2/2000", "2000-02-01", 0}, {"1/1/2000", "2000-01-01", 0}};
    const ChanceBaselines b = chance_baselines(examples);
    CHECK(b.majority_char[6] == '1');
    CHECK(b.majority_share[6] == Approx(0.5));
    CHECK_THROWS_AS(chance_baselines({}), std::invalid_argument);
    CHECK_THROWS_AS(chance_baselines({{"1/1/2000", "2000-1-1", 0}}), std::invalid_argument);
}

// On the held-out split the baselines are checked against counts made another way: the month
// and day as numbers, and the evaluator scoring the guesses as if a model had written them.
TEST_CASE("chance baselines: the held-out split, counted independently") {
    const std::vector<Example> held_out = make_date_splits(1).held_out;
    const ChanceBaselines b = chance_baselines(held_out);
    const double n = double(held_out.size());
    long month_below_10 = 0;
    for (const Example& ex : held_out) month_below_10 += std::stoi(ex.target.substr(5, 2)) < 10;
    // Nine months of twelve start with 0: month-1's majority is '0', right for every such month.
    CHECK(b.majority_char[5] == '0');
    CHECK(b.majority_share[5] == Approx(double(month_below_10) / n));
    // Each position's share is the best that any constant string scores there.
    std::array<double, output_length> best{};
    for (const char c : std::string("0123456789-")) {
        const Metrics m = evaluate_predictions(date_task(), held_out, std::vector<std::string>(held_out.size(), std::string(10, c)));
        for (size_t t = 0; t < output_length; ++t) best[t] = std::max(best[t], m.per_position[t]);
    }
    for (size_t t = 0; t < output_length; ++t) CHECK(b.majority_share[t] == Approx(best[t]));
    // One fixed string of the majority characters, scored by the evaluator: its per-character
    // accuracy is the mean of the ten shares (what `lookback chance` writes as constant_per_char).
    const std::string constant(b.majority_char.begin(), b.majority_char.end());
    const Metrics fixed_guess = evaluate_predictions(date_task(), held_out, std::vector<std::string>(held_out.size(), constant));
    double mean_share = 0;
    for (double share : b.majority_share) mean_share += share / output_length;
    CHECK(fixed_guess.per_char == Approx(mean_share));
    // The year-and-dashes guess, written out string by string and scored by the evaluator.
    std::vector<std::string> guesses;
    for (const Example& ex : held_out)
        guesses.push_back(ex.target.substr(0, 5) + b.majority_char[5] + b.majority_char[6] + "-" +
                          b.majority_char[8] + b.majority_char[9]);
    const Metrics guessed = evaluate_predictions(date_task(), held_out, guesses);
    CHECK(b.year_and_dashes_per_char == Approx(guessed.per_char));
    CHECK(b.year_and_dashes_exact == Approx(guessed.exact));
    // Well below what a model that read the whole date scores, and above the 6 of 10 of a guess
    // that writes only the year and the dashes right.
    CHECK(b.year_and_dashes_per_char > 0.6);
    CHECK(b.year_and_dashes_per_char < 0.8);
}
