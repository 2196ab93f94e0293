// core/data/metrics.cpp — exact match, per-token, per-position, per-length-bucket and
// per-group accuracy of predicted strings (see metrics.h).
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

LengthBuckets length_quartiles(const Task& task, const std::vector<Example>& reference) {
    if (reference.empty()) throw std::invalid_argument("length_quartiles: no examples");
    std::vector<int> lengths;
    lengths.reserve(reference.size());
    for (const Example& ex : reference) lengths.push_back(int(task.input.split(ex.input).size()));
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

int edit_distance(const std::vector<std::string_view>& from, const std::vector<std::string_view>& to) {
    // One row of the dynamic programme at a time: row[j] = distance of from[0, i) to to[0, j).
    std::vector<int> row(to.size() + 1);
    for (size_t j = 0; j <= to.size(); ++j) row[j] = int(j);
    for (size_t i = 1; i <= from.size(); ++i) {
        int diagonal = row[0];  // distance of from[0, i-1) to to[0, j-1)
        row[0] = int(i);
        for (size_t j = 1; j <= to.size(); ++j) {
            const int above = row[j];
            row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (from[i - 1] == to[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row.back();
}

int token_edit_distance(const Vocabulary& vocabulary, std::string_view output, std::string_view target) {
    return edit_distance(vocabulary.split(output), vocabulary.split(target));
}

Metrics evaluate_predictions(const Task& task, const std::vector<Example>& examples,
                             const std::vector<std::string>& predictions) {
    return evaluate_predictions(task, examples, predictions, length_quartiles(task, examples));
}

Metrics evaluate_predictions(const Task& task, const std::vector<Example>& examples,
                             const std::vector<std::string>& predictions,
                             const LengthBuckets& buckets) {
    if (examples.empty()) throw std::invalid_argument("evaluate_predictions: no examples");
    if (examples.size() != predictions.size())
        throw std::invalid_argument("evaluate_predictions: " + std::to_string(predictions.size()) +
                                    " predictions for " + std::to_string(examples.size()) +
                                    " examples");
    const size_t T = size_t(task.output_steps), groups = task.group_names.size();
    Metrics m;
    m.count = int(examples.size());
    m.buckets = buckets;
    long right_total = 0, exact_total = 0, tokens_total = 0, edits_total = 0;
    BleuCounts bleu;  // of a task of words only
    std::vector<long> right_at(T), scored_at(T);
    std::array<long, length_bucket_count> right_in_bucket{}, tokens_in_bucket{};
    std::vector<long> right_in_group(groups), tokens_in_group(groups), exact_in_group(groups);
    m.examples_per_format.assign(groups, 0);

    for (size_t i = 0; i < examples.size(); ++i) {
        const Example& ex = examples[i];
        if (ex.group < 0 || size_t(ex.group) >= groups)
            throw std::invalid_argument("evaluate_predictions: group out of range");
        const auto target = task.output.split(ex.target);
        const auto predicted = task.output.split(predictions[i]);
        if (target.size() > T) throw std::invalid_argument("evaluate_predictions: a target is too long");
        int right = 0;
        for (size_t t = 0; t < target.size(); ++t) {
            const bool ok = t < predicted.size() && predicted[t] == target[t];
            right += ok;
            right_at[t] += ok;
            ++scored_at[t];
        }
        if (task.output.words) bleu.add(predicted, target);
        edits_total += edit_distance(predicted, target);
        const bool exact = predictions[i] == ex.target;
        const long tokens = long(target.size());
        right_total += right;
        exact_total += exact;
        tokens_total += tokens;
        const size_t k = size_t(buckets.bucket_of(int(task.input.split(ex.input).size())));
        right_in_bucket[k] += right;
        tokens_in_bucket[k] += tokens;
        ++m.bucket_count[k];
        const size_t g = size_t(ex.group);
        right_in_group[g] += right;
        tokens_in_group[g] += tokens;
        exact_in_group[g] += exact;
        ++m.examples_per_format[g];
    }

    const double n = double(m.count);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    m.exact = double(exact_total) / n;
    m.per_char = double(right_total) / double(tokens_total);
    m.token_error_rate = double(edits_total) / double(tokens_total);
    m.per_position.assign(T, nan);
    for (size_t t = 0; t < T; ++t)
        if (scored_at[t] > 0) m.per_position[t] = double(right_at[t]) / double(scored_at[t]);
    for (size_t k = 0; k < length_bucket_count; ++k)
        m.per_length_bucket[k] = m.bucket_count[k] == 0 ? nan
                                                        : double(right_in_bucket[k]) / double(tokens_in_bucket[k]);
    m.per_format.assign(groups, nan);
    m.per_format_exact.assign(groups, nan);
    for (size_t g = 0; g < groups; ++g) {
        if (m.examples_per_format[g] == 0) continue;
        m.per_format[g] = double(right_in_group[g]) / double(tokens_in_group[g]);
        m.per_format_exact[g] = double(exact_in_group[g]) / double(m.examples_per_format[g]);
    }
    if (task.output.words) m.bleu = bleu.bleu();
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
