// core/data/metrics.cpp — exact match, per-character, per-position, per-length-
// bucket and per-format accuracy of predicted strings (see metrics.h).
#include "data/metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace lb {

int LengthBuckets::bucket_of(int length) const {
    int k = 0;
    while (k < 3 && length > quartiles[size_t(k)]) ++k;
    return k;
}

int LengthBuckets::lowest_length(int bucket) const {
    return bucket == 0 ? shortest : quartiles[size_t(bucket - 1)] + 1;
}

int LengthBuckets::highest_length(int bucket) const {
    return bucket == 3 ? longest : quartiles[size_t(bucket)];
}

LengthBuckets length_quartiles(const std::vector<Example>& reference) {
    if (reference.empty()) throw std::invalid_argument("length_quartiles: no examples");
    std::vector<int> lengths;
    lengths.reserve(reference.size());
    for (const Example& ex : reference) lengths.push_back(int(ex.input.size()));
    std::sort(lengths.begin(), lengths.end());
    const size_t n = lengths.size();
    LengthBuckets b;
    for (size_t k = 1; k <= 3; ++k) {
        const size_t rank = (k * n + 3) / 4;  // ceil(k·n/4) >= 1
        b.quartiles[k - 1] = lengths[rank - 1];
    }
    b.shortest = lengths.front();
    b.longest = lengths.back();
    return b;
}

Metrics evaluate_predictions(const std::vector<Example>& examples,
                             const std::vector<std::string>& predictions) {
    return evaluate_predictions(examples, predictions, length_quartiles(examples));
}

Metrics evaluate_predictions(const std::vector<Example>& examples,
                             const std::vector<std::string>& predictions,
                             const LengthBuckets& buckets) {
    if (examples.empty()) throw std::invalid_argument("evaluate_predictions: no examples");
    if (examples.size() != predictions.size())
        throw std::invalid_argument("evaluate_predictions: " + std::to_string(predictions.size()) +
                                    " predictions for " + std::to_string(examples.size()) +
                                    " examples");
    Metrics m;
    m.count = int(examples.size());
    m.buckets = buckets;
    long right_total = 0, exact_total = 0;
    std::array<long, output_length> right_at{};
    std::array<long, length_bucket_count> right_in_bucket{};
    std::array<long, format_count> right_in_format{}, exact_in_format{};

    for (size_t i = 0; i < examples.size(); ++i) {
        const Example& ex = examples[i];
        const std::string& pred = predictions[i];
        if (ex.group < 0 || ex.group >= format_count)
            throw std::invalid_argument("evaluate_predictions: format out of range");
        int right = 0;
        for (int t = 0; t < output_length; ++t) {
            const bool ok = size_t(t) < pred.size() && size_t(t) < ex.target.size() &&
                            pred[size_t(t)] == ex.target[size_t(t)];
            right += ok;
            right_at[size_t(t)] += ok;
        }
        const bool exact = pred == ex.target;
        right_total += right;
        exact_total += exact;
        const int k = buckets.bucket_of(int(ex.input.size()));
        right_in_bucket[size_t(k)] += right;
        ++m.bucket_count[size_t(k)];
        right_in_format[size_t(ex.group)] += right;
        exact_in_format[size_t(ex.group)] += exact;
        ++m.examples_per_format[size_t(ex.group)];
    }

    const double n = double(m.count);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    m.exact = double(exact_total) / n;
    m.per_char = double(right_total) / (n * output_length);
    for (int t = 0; t < output_length; ++t) m.per_position[size_t(t)] = double(right_at[size_t(t)]) / n;
    for (size_t k = 0; k < length_bucket_count; ++k)
        m.per_length_bucket[k] = m.bucket_count[k] == 0
                                     ? nan
                                     : double(right_in_bucket[k]) / (m.bucket_count[k] * double(output_length));
    for (size_t f = 0; f < format_count; ++f) {
        const double c = m.examples_per_format[f];
        m.per_format[f] = c == 0 ? nan : double(right_in_format[f]) / (c * output_length);
        m.per_format_exact[f] = c == 0 ? nan : double(exact_in_format[f]) / c;
    }
    return m;
}

ChanceBaselines chance_baselines(const std::vector<Example>& examples) {
    if (examples.empty()) throw std::invalid_argument("chance_baselines: no examples");
    std::array<std::array<long, 256>, output_length> counts{};
    for (const Example& ex : examples) {
        if (ex.target.size() != size_t(output_length))
            throw std::invalid_argument("chance_baselines: a target is not 10 characters");
        for (int t = 0; t < output_length; ++t) ++counts[size_t(t)][static_cast<unsigned char>(ex.target[size_t(t)])];
    }
    const double n = double(examples.size());
    ChanceBaselines b;
    for (size_t t = 0; t < output_length; ++t) {
        const auto most = std::max_element(counts[t].begin(), counts[t].end());  // first of a tie
        b.majority_char[t] = char(most - counts[t].begin());
        b.majority_share[t] = double(*most) / n;
    }
    // Month and day are positions 5, 6, 8, 9 of YYYY-MM-DD; the year and the dashes are copied.
    constexpr std::array<size_t, 4> guessed = {5, 6, 8, 9};
    double guessed_share = 0;
    for (size_t t : guessed) guessed_share += b.majority_share[t];
    b.year_and_dashes_per_char = (output_length - double(guessed.size()) + guessed_share) / output_length;
    long all_four = 0;
    for (const Example& ex : examples)
        all_four += std::all_of(guessed.begin(), guessed.end(), [&](size_t t) { return ex.target[t] == b.majority_char[t]; });
    b.year_and_dashes_exact = double(all_four) / n;
    return b;
}

}  // namespace lb
