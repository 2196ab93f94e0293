// core/data/alignment_scores.cpp — the alignment scores and BLEU of alignment_scores.h.
#include "data/alignment_scores.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

namespace lb {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
double ratio(double part, double whole) { return whole > 0 ? part / whole : nan; }
}  // namespace

AlignmentCounts score_alignment(const float* attention, int steps, int row_stride,
                                int input_length, const std::vector<AlignmentLink>& links) {
    if (steps < 0 || input_length < 1 || row_stride < input_length)
        throw std::invalid_argument("score_alignment: bad map shape");
    // kind[t][s]: 0 no link, 1 possible, 2 sure (a pair listed twice keeps its strongest kind).
    std::vector<std::vector<int>> kind(size_t(steps), std::vector<int>(size_t(input_length), 0));
    for (const AlignmentLink& link : links) {
        if (link.output < 0 || link.output >= steps || link.input < 0 || link.input >= input_length)
            throw std::invalid_argument("score_alignment: link (" + std::to_string(link.output) +
                                        ", " + std::to_string(link.input) + ") outside the " +
                                        std::to_string(steps) + " x " +
                                        std::to_string(input_length) + " map");
        int& k = kind[size_t(link.output)][size_t(link.input)];
        k = std::max(k, link.sure ? 2 : 1);
    }
    AlignmentCounts counts;
    counts.examples = 1;
    for (int t = 0; t < steps; ++t) {
        const std::vector<int>& linked = kind[size_t(t)];
        counts.sure_links += int(std::count(linked.begin(), linked.end(), 2));
        if (std::count(linked.begin(), linked.end(), 0) == input_length) continue;  // no link
        const float* row = attention + size_t(t) * size_t(row_stride);
        int peak = 0;
        bool found = false;
        for (int s = 0; s < input_length; ++s) {
            if (std::isnan(row[s])) continue;
            if (!found || row[s] > row[peak]) peak = s, found = true;
        }
        ++counts.steps;
        for (int s = 0; s < input_length; ++s)
            if (linked[size_t(s)]) counts.linked_mass += row[s];
        bool near = false;
        for (int s = std::max(0, peak - 1); s <= std::min(input_length - 1, peak + 1); ++s)
            near = near || linked[size_t(s)] != 0;
        counts.peak_hits += linked[size_t(peak)] != 0;
        counts.peak_near_hits += near;
        ++counts.hard_links;
        counts.hard_on_sure += linked[size_t(peak)] == 2;
        counts.hard_on_possible += linked[size_t(peak)] != 0;
    }
    return counts;
}

AlignmentScores diagonal_guess_scores(const Task& task, const std::vector<Example>& examples) {
    AlignmentScores scores;
    for (const Example& e : examples) {
        const int m = int(task.input.split(e.input).size());
        const int n = int(task.output.split(e.target).size());
        std::vector<float> map(size_t(n) * size_t(m), 0.0f);
        for (int t = 0; t < n; ++t) {
            const int s = n == 1 ? 0 : int(std::lround(double(t) * (m - 1) / (n - 1)));
            map[size_t(t) * size_t(m) + size_t(s)] = 1.0f;
        }
        scores.add(score_alignment(map.data(), n, m, m, e.alignment));
    }
    return scores;
}

void AlignmentScores::add(const AlignmentCounts& c) {
    totals.examples += c.examples;
    totals.steps += c.steps;
    totals.peak_hits += c.peak_hits;
    totals.peak_near_hits += c.peak_near_hits;
    totals.linked_mass += c.linked_mass;
    totals.hard_links += c.hard_links;
    totals.sure_links += c.sure_links;
    totals.hard_on_sure += c.hard_on_sure;
    totals.hard_on_possible += c.hard_on_possible;
}

double AlignmentScores::peak_hit_rate() const { return ratio(totals.peak_hits, totals.steps); }
double AlignmentScores::peak_near_rate() const {
    return ratio(totals.peak_near_hits, totals.steps);
}
double AlignmentScores::mean_linked_mass() const { return ratio(totals.linked_mass, totals.steps); }
double AlignmentScores::aer() const { return alignment_error_rate(totals); }

double alignment_error_rate(const AlignmentCounts& c) {
    return 1.0 - ratio(double(c.hard_on_sure) + c.hard_on_possible,
                       double(c.hard_links) + c.sure_links);
}

// --- BLEU ----------------------------------------------------------------------

namespace {
using NGramCounts = std::map<std::vector<std::string_view>, int64_t>;
NGramCounts ngrams(const std::vector<std::string_view>& tokens, int n) {
    NGramCounts counts;
    for (size_t i = 0; i + size_t(n) <= tokens.size(); ++i)
        ++counts[std::vector<std::string_view>(tokens.begin() + long(i),
                                               tokens.begin() + long(i) + n)];
    return counts;
}
}  // namespace

void BleuCounts::add(const std::vector<std::string_view>& candidate,
                     const std::vector<std::string_view>& reference) {
    candidate_length += int64_t(candidate.size());
    reference_length += int64_t(reference.size());
    for (int n = 1; n <= bleu_max_order; ++n) {
        const NGramCounts in_reference = ngrams(reference, n);
        for (const auto& [gram, count] : ngrams(candidate, n)) {
            totals[size_t(n - 1)] += count;
            const auto found = in_reference.find(gram);
            if (found != in_reference.end())
                matches[size_t(n - 1)] += std::min(count, found->second);
        }
    }
}

double BleuCounts::precision(int n) const {
    if (n < 1 || n > bleu_max_order)
        throw std::invalid_argument("BleuCounts::precision: n is 1 to 4");
    const int64_t total = totals[size_t(n - 1)];
    return total > 0 ? double(matches[size_t(n - 1)]) / double(total) : 0.0;
}

double BleuCounts::brevity_penalty() const {
    if (candidate_length == 0) return 0.0;
    if (candidate_length > reference_length) return 1.0;
    return std::exp(1.0 - double(reference_length) / double(candidate_length));
}

double BleuCounts::bleu() const {
    double log_sum = 0;
    for (int n = 1; n <= bleu_max_order; ++n) {
        const double p = precision(n);
        if (p == 0) return 0.0;
        log_sum += std::log(p);
    }
    return brevity_penalty() * std::exp(log_sum / bleu_max_order);
}

double corpus_bleu(const Vocabulary& vocab, const std::vector<std::string>& candidates,
                   const std::vector<std::string>& references) {
    if (candidates.size() != references.size())
        throw std::invalid_argument("corpus_bleu: " + std::to_string(candidates.size()) +
                                    " candidates for " + std::to_string(references.size()) +
                                    " references");
    BleuCounts counts;
    for (size_t i = 0; i < candidates.size(); ++i) counts.add(vocab.split(candidates[i]), vocab.split(references[i]));
    return counts.bleu();
}

}  // namespace lb
