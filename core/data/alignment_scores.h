// core/data/alignment_scores.h — how well attention finds a task's known alignment, and BLEU
// (docs/tasks.md, "Scores"). Pure functions of plain numbers and token strings: no model in here.
//
// Attention maps are read as plain floats: row t holds output step t's weights over the input
// positions 0..S-1 (`row_stride` floats apart), of which the first `input_length` are the
// example's real tokens; the rest (padding) are never read. The rows given are the steps that
// write the target's tokens: not the end token's step, not padding.
//
// Which steps count: a step whose output token has no link (a date's dash: it copies nothing)
// cannot abstain under softmax, so it is left out of the hard alignment A and of the peak and
// mass scores. Every step with at least one link, sure or possible, counts. A row's peak is its
// largest weight, the lowest position on a tie (a NaN weight is never the peak).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "data/task.h"

namespace lb {

// One example's counts, or a split's sums of them.
struct AlignmentCounts {
    int examples = 0;
    int steps = 0;              // steps scored: output tokens with at least one link
    int peak_hits = 0;          // the step's peak is on a linked (sure or possible) position
    int peak_near_hits = 0;     // the peak is at most one position from a linked one
    double linked_mass = 0;     // Σ over steps of the attention weight on linked positions
    int hard_links = 0;         // |A|: one (step, peak) link a scored step
    int sure_links = 0;         // |S|
    int hard_on_sure = 0;       // |A ∩ S|
    int hard_on_possible = 0;   // |A ∩ P|, P ⊇ S
};

// One example: `attention` has `steps` rows (the target's tokens), `row_stride` floats apart,
// real over its first `input_length` columns; `links` its known alignment. Throws
// std::invalid_argument for a link outside the map, input_length < 1 or row_stride <
// input_length.
AlignmentCounts score_alignment(const float* attention, int steps, int row_stride,
                                int input_length, const std::vector<AlignmentLink>& links);

// A split's scores, micro-averaged: every scored step weighs the same, and AER pools the link
// sets of all examples (as the NMT literature reports it). A score with nothing to count is NaN.
struct AlignmentScores {
    AlignmentCounts totals;
    void add(const AlignmentCounts& example);
    double peak_hit_rate() const;       // peak_hits / steps
    double peak_near_rate() const;      // peak_near_hits / steps
    double mean_linked_mass() const;    // linked_mass / steps
    // Alignment error rate (Och and Ney 2003): 1 − (|A∩S| + |A∩P|) / (|A| + |S|); NaN when
    // |A| + |S| = 0 (no links at all).
    double aer() const;
};
double alignment_error_rate(const AlignmentCounts& counts);  // the same formula, one example

// The scores of a map no model made, the floor a model's map is read against: output token t of
// n (0-based) puts all its weight on input position round(t·(m−1)/(n−1)) of the input's m tokens
// (position 0 when n = 1), the monotone diagonal an eye expects of a map. Throws
// std::invalid_argument for an example its task cannot split or whose links fall outside.
AlignmentScores diagonal_guess_scores(const Task& task, const std::vector<Example>& examples);

// Corpus BLEU (Papineni et al. 2002) on token sequences, one reference a sentence: n-grams up
// to 4, each precision clipped by the reference's counts and pooled over the corpus, their
// geometric mean times the brevity penalty BP = 1 if c > r else exp(1 − r/c) (c, r the corpus's
// candidate and reference lengths). No smoothing: when some precision is 0 (no n-gram of that
// order matches anywhere, or the candidates have none) BLEU is 0, as in the paper; so is a corpus
// with no candidate tokens.
constexpr int bleu_max_order = 4;
struct BleuCounts {
    std::array<int64_t, bleu_max_order> matches{};  // clipped n-gram matches, n = 1..4
    std::array<int64_t, bleu_max_order> totals{};   // candidate n-grams
    int64_t candidate_length = 0, reference_length = 0;

    void add(const std::vector<std::string_view>& candidate,
             const std::vector<std::string_view>& reference);
    double precision(int n) const;   // matches / totals for n-grams, 0 when there are none
    double brevity_penalty() const;  // 0 when c = 0
    double bleu() const;
};

// The texts split into the vocabulary's tokens (an empty text has none), then scored as a corpus.
// Throws std::invalid_argument when the counts differ.
double corpus_bleu(const Vocabulary& vocab, const std::vector<std::string>& candidates,
                   const std::vector<std::string>& references);

}  // namespace lb
