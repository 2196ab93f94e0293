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
        if (ex.format < 0 || ex.format >= format_count)
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
        right_in_format[size_t(ex.format)] += right;
        exact_in_format[size_t(ex.format)] += exact;
        ++m.examples_per_format[size_t(ex.format)];
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

}  // namespace lb
