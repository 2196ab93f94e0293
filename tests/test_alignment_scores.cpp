// The alignment scores and BLEU (core/data/alignment_scores.h, docs/tasks.md "Scores") on small
// cases computed by hand: every expected number below is counted in the comments, not read back
// from the code.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/alignment_scores.h"
#include "data/reversal.h"
#include "data/translation.h"

using namespace lb;

namespace {

std::vector<std::string_view> tokens(const std::string& text) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == ' ') {
            if (i > start) out.push_back(std::string_view(text).substr(start, i - start));
            start = i + 1;
        }
    return out;
}

// Sentences kept alive while their tokens (views) are in use.
struct Corpus {
    std::vector<std::string> candidates, references;
    BleuCounts counts() const {
        BleuCounts c;
        for (size_t i = 0; i < candidates.size(); ++i) c.add(tokens(candidates[i]), tokens(references[i]));
        return c;
    }
};

}  // namespace

// --- alignment ------------------------------------------------------------------

TEST_CASE("alignment scores: two steps, a sure and a possible link") {
    // Input length 3, row stride 4: the fourth column is padding, made large to show it is not read.
    const float map[] = {0.7f, 0.2f, 0.1f, 9.0f,   // step 0: peak at 0
                         0.1f, 0.3f, 0.6f, 9.0f};  // step 1: peak at 2
    const std::vector<AlignmentLink> links = {{0, 0, true}, {1, 1, true}, {1, 2, false}};
    const AlignmentCounts c = score_alignment(map, 2, 4, 3, links);
    CHECK(c.examples == 1);
    CHECK(c.steps == 2);
    CHECK(c.peak_hits == 2);       // 0 is sure-linked; 2 is possible-linked
    CHECK(c.peak_near_hits == 2);  // a hit is within one position
    CHECK(c.linked_mass == doctest::Approx(0.7 + (0.3 + 0.6)));
    // A = {(0,0), (1,2)}, S = {(0,0), (1,1)}, P = S ∪ {(1,2)}:
    // |A∩S| = 1, |A∩P| = 2, AER = 1 − (1 + 2)/(2 + 2) = 0.25.
    CHECK(c.hard_links == 2);
    CHECK(c.sure_links == 2);
    CHECK(c.hard_on_sure == 1);
    CHECK(c.hard_on_possible == 2);
    CHECK(alignment_error_rate(c) == doctest::Approx(0.25));
}

TEST_CASE("alignment scores: a step with no link, a tie, a near miss") {
    const float map[] = {0.25f, 0.25f, 0.25f, 0.25f,  // step 0: a four-way tie, peak at 0
                         0.0f,  0.0f,  1.0f,  0.0f,   // step 1: no link (a date's dash)
                         0.0f,  0.1f,  0.2f,  0.7f};  // step 2: peak at 3
    const std::vector<AlignmentLink> links = {{0, 1, true}, {2, 0, true}};
    const AlignmentCounts c = score_alignment(map, 3, 4, 4, links);
    CHECK(c.steps == 2);           // step 1 is left out
    CHECK(c.peak_hits == 0);       // 0 is not 1; 3 is not 0
    CHECK(c.peak_near_hits == 1);  // |0 − 1| = 1 is near; |3 − 0| = 3 is not
    CHECK(c.linked_mass == doctest::Approx(0.25 + 0.0));
    // A = {(0,0), (2,3)} (step 1 abstains), S = {(0,1), (2,0)}: nothing shared, AER = 1 − 0/4 = 1.
    CHECK(c.hard_links == 2);
    CHECK(c.sure_links == 2);
    CHECK(c.hard_on_sure == 0);
    CHECK(c.hard_on_possible == 0);
    CHECK(alignment_error_rate(c) == doctest::Approx(1.0));

    // A tie between positions 1 and 2 goes to 1, the lower.
    const float tie[] = {0.1f, 0.45f, 0.45f};
    CHECK(score_alignment(tie, 1, 3, 3, {{0, 1, true}}).peak_hits == 1);
    CHECK(score_alignment(tie, 1, 3, 3, {{0, 2, true}}).peak_hits == 0);
    // A NaN is never the peak: the peak of {NaN, 0.2, 0.8} is 2.
    const float with_nan[] = {std::nanf(""), 0.2f, 0.8f};
    CHECK(score_alignment(with_nan, 1, 3, 3, {{0, 2, true}}).peak_hits == 1);
}

TEST_CASE("alignment scores: edge cases") {
    const float map[] = {0.5f, 0.5f};
    // No links: nothing scored, and every rate is NaN (0/0), AER included (|A| + |S| = 0).
    const AlignmentCounts none = score_alignment(map, 1, 2, 2, {});
    CHECK(none.steps == 0);
    CHECK(none.hard_links == 0);
    CHECK(std::isnan(alignment_error_rate(none)));
    AlignmentScores empty;
    empty.add(none);
    CHECK(empty.totals.examples == 1);
    CHECK(std::isnan(empty.peak_hit_rate()));
    CHECK(std::isnan(empty.peak_near_rate()));
    CHECK(std::isnan(empty.mean_linked_mass()));
    CHECK(std::isnan(empty.aer()));
    // Only possible links: the step counts in A but S is empty; peak 0 is possible-linked:
    // AER = 1 − (0 + 1)/(1 + 0) = 0.
    const AlignmentCounts possible = score_alignment(map, 1, 2, 2, {{0, 0, false}});
    CHECK(possible.hard_links == 1);
    CHECK(possible.sure_links == 0);
    CHECK(alignment_error_rate(possible) == doctest::Approx(0.0));
    // A link listed twice counts once, as its strongest kind.
    const AlignmentCounts twice = score_alignment(map, 1, 2, 2, {{0, 1, false}, {0, 1, true}});
    CHECK(twice.sure_links == 1);
    CHECK(twice.linked_mass == doctest::Approx(0.5));
    // Links outside the map, and bad shapes, are refused.
    CHECK_THROWS_AS(score_alignment(map, 1, 2, 2, {{1, 0, true}}), std::invalid_argument);
    CHECK_THROWS_AS(score_alignment(map, 1, 2, 2, {{0, 2, true}}), std::invalid_argument);
    CHECK_THROWS_AS(score_alignment(map, 1, 2, 2, {{0, -1, true}}), std::invalid_argument);
    CHECK_THROWS_AS(score_alignment(map, 1, 1, 2, {}), std::invalid_argument);
    CHECK_THROWS_AS(score_alignment(map, 1, 2, 0, {}), std::invalid_argument);
}

TEST_CASE("alignment scores: a split pools its examples (micro-average)") {
    // Example 1: the first case above (steps 2, hits 2, near 2, mass 1.6, |A| 2, |S| 2, A∩S 1, A∩P 2).
    const float map1[] = {0.7f, 0.2f, 0.1f, 9.0f, 0.1f, 0.3f, 0.6f, 9.0f};
    // Example 2: one step, peak at 0 on its sure link (steps 1, hits 1, near 1, mass 1,
    // |A| 1, |S| 1, A∩S 1, A∩P 1): its own AER is 0.
    const float map2[] = {1.0f, 0.0f};
    AlignmentScores split;
    split.add(score_alignment(map1, 2, 4, 3, {{0, 0, true}, {1, 1, true}, {1, 2, false}}));
    split.add(score_alignment(map2, 1, 2, 2, {{0, 0, true}}));
    CHECK(split.totals.examples == 2);
    CHECK(split.totals.steps == 3);
    CHECK(split.peak_hit_rate() == doctest::Approx(3.0 / 3.0));
    CHECK(split.peak_near_rate() == doctest::Approx(1.0));
    CHECK(split.mean_linked_mass() == doctest::Approx((0.7 + 0.9 + 1.0) / 3.0));
    // Pooled: 1 − (1 + 1 + 2 + 1)/(2 + 1 + 2 + 1) = 1 − 5/6; the mean of the two AERs would be
    // (0.25 + 0)/2 = 0.125 instead.
    CHECK(split.aer() == doctest::Approx(1.0 / 6.0));
}

TEST_CASE("alignment scores: the known alignments score perfectly on their own maps") {
    // A map that puts all its weight on each step's sure link (the lowest, if several) scores
    // hit rate 1, mass 1 for one-link steps and AER 0, for every example of both tasks.
    std::vector<Example> examples = make_reversal_splits(5, 40, 0).train;
    for (const Example& ex : make_translation_splits(5, 40, 0).train) examples.push_back(ex);
    for (const Example& ex : examples) {
        const Task& task = ex.input.find(' ') == std::string::npos ? reversal_task() : translation_task();
        const int S = int(task.input.split(ex.input).size()), T = int(task.output.split(ex.target).size());
        std::vector<float> map(size_t(T * S), 0.0f);
        std::vector<bool> placed(size_t(T), false);
        for (const AlignmentLink& link : ex.alignment)
            if (link.sure && !placed[size_t(link.output)]) {
                map[size_t(link.output * S + link.input)] = 1.0f;
                placed[size_t(link.output)] = true;
            }
        AlignmentScores scores;
        scores.add(score_alignment(map.data(), T, S, S, ex.alignment));
        CHECK(scores.totals.steps == T);
        CHECK(scores.peak_hit_rate() == 1.0);
        CHECK(scores.mean_linked_mass() == 1.0);
        CHECK(scores.aer() == 0.0);
    }
}

TEST_CASE("alignment scores: the diagonal guess, counted by hand") {
    // "abcde" → "edcba": the guess looks at t, the truth at 4 − t; only t = 2 hits (and is near).
    // "abcdefg" → "cba" (links 0→2, 1→1 sure, 2→0 possible): the guess looks at 0, round(6/2) = 3
    // and 6; none hits, none is within one. "ab" → "a" (0→1 sure): one output, the guess looks at 0,
    // a neighbour of 1. Steps 5 + 3 + 1 = 9, hits 1, near 1 + 0 + 1 = 2; |A| = 9,
    // |S| = 5 + 2 + 1 = 8, |A∩S| = |A∩P| = 1: AER = 1 − 2/17.
    std::vector<Example> examples(3);
    examples[0].input = "abcde", examples[0].target = "edcba";
    for (int t = 0; t < 5; ++t) examples[0].alignment.push_back({t, 4 - t, true});
    examples[1].input = "abcdefg", examples[1].target = "cba";
    examples[1].alignment = {{0, 2, true}, {1, 1, true}, {2, 0, false}};
    examples[2].input = "ab", examples[2].target = "a";
    examples[2].alignment = {{0, 1, true}};
    const AlignmentScores guess = diagonal_guess_scores(reversal_task(), examples);
    CHECK(guess.totals.steps == 9);
    CHECK(guess.peak_hit_rate() == doctest::Approx(1.0 / 9));
    CHECK(guess.peak_near_rate() == doctest::Approx(2.0 / 9));
    CHECK(guess.mean_linked_mass() == doctest::Approx(1.0 / 9));
    CHECK(guess.aer() == doctest::Approx(15.0 / 17));
    examples[2].alignment = {{0, 2, true}};  // outside "ab"
    CHECK_THROWS_AS(diagonal_guess_scores(reversal_task(), examples), std::invalid_argument);
}

// --- BLEU -----------------------------------------------------------------------

TEST_CASE("bleu: a two-sentence corpus counted by hand") {
    Corpus corpus;
    corpus.candidates = {"the cat sat on the mat", "a dog"};
    corpus.references = {"the cat sat on a mat", "a dog runs"};
    const BleuCounts c = corpus.counts();
    // Sentence 1 (6 tokens each side):
    //   1-grams: the×2 (clipped to the reference's 1), cat, sat, on, mat → 5 of 6
    //   2-grams: the cat, cat sat, sat on match; on the, the mat do not → 3 of 5
    //   3-grams: the cat sat, cat sat on match; sat on the, on the mat do not → 2 of 4
    //   4-grams: the cat sat on matches; cat sat on the, sat on the mat do not → 1 of 3
    // Sentence 2 (2 tokens, reference 3): a, dog → 2 of 2; a dog → 1 of 1; no 3- or 4-grams.
    // Pooled: p1 = 7/8, p2 = 4/6, p3 = 2/4, p4 = 1/3; c = 8, r = 9.
    CHECK(c.matches == std::array<int64_t, 4>{7, 4, 2, 1});
    CHECK(c.totals == std::array<int64_t, 4>{8, 6, 4, 3});
    CHECK(c.candidate_length == 8);
    CHECK(c.reference_length == 9);
    CHECK(c.precision(1) == doctest::Approx(7.0 / 8.0));
    CHECK(c.precision(4) == doctest::Approx(1.0 / 3.0));
    // BP = exp(1 − 9/8) = exp(−1/8); the geometric mean is (7/8 · 2/3 · 1/2 · 1/3)^(1/4) = (7/72)^(1/4).
    CHECK(c.brevity_penalty() == doctest::Approx(std::exp(-0.125)));
    CHECK(c.bleu() == doctest::Approx(std::exp(-0.125) * std::pow(7.0 / 72.0, 0.25)));  // ≈ 0.4928
    CHECK(corpus_bleu(translation_task().output, corpus.candidates, corpus.references) ==
          doctest::Approx(std::exp(-0.125) * std::pow(7.0 / 72.0, 0.25)));
}

TEST_CASE("bleu: clipping, the brevity penalty and zero precisions") {
    // Papineni et al.'s example: seven "the" against a reference holding two → 2/7.
    Corpus clipped;
    clipped.candidates = {"the the the the the the the"};
    clipped.references = {"the cat is on the mat"};
    CHECK(clipped.counts().precision(1) == doctest::Approx(2.0 / 7.0));
    CHECK(clipped.counts().precision(2) == 0.0);  // "the the" is not in the reference
    CHECK(clipped.counts().bleu() == 0.0);        // a zero precision: no smoothing

    // Identical sentences: every precision 1, c = r so BP = exp(0) = 1.
    Corpus same;
    same.candidates = {"a b c d e"};
    same.references = {"a b c d e"};
    CHECK(same.counts().brevity_penalty() == 1.0);
    CHECK(same.counts().bleu() == doctest::Approx(1.0));

    // Short: "a b c d" against "a b c d e": every precision 1 (4/4, 3/3, 2/2, 1/1), c = 4, r = 5,
    // BLEU = BP = exp(1 − 5/4) = exp(−0.25).
    Corpus short_one;
    short_one.candidates = {"a b c d"};
    short_one.references = {"a b c d e"};
    CHECK(short_one.counts().bleu() == doctest::Approx(std::exp(-0.25)));

    // Long: "a b c d e f" against "a b c d e": c = 6 > r = 5 so BP = 1; precisions 5/6, 4/5,
    // 3/4, 2/3, geometric mean (5/6 · 4/5 · 3/4 · 2/3)^(1/4) = (1/3)^(1/4).
    Corpus long_one;
    long_one.candidates = {"a b c d e f"};
    long_one.references = {"a b c d e"};
    CHECK(long_one.counts().brevity_penalty() == 1.0);
    CHECK(long_one.counts().bleu() == doctest::Approx(std::pow(1.0 / 3.0, 0.25)));

    // Half the length: c = 2, r = 4, BP = exp(1 − 2) = exp(−1); but no 3-grams at all, so p3 = 0
    // and BLEU is 0.
    Corpus too_short;
    too_short.candidates = {"a b"};
    too_short.references = {"a b c d"};
    CHECK(too_short.counts().brevity_penalty() == doctest::Approx(std::exp(-1.0)));
    CHECK(too_short.counts().precision(3) == 0.0);
    CHECK(too_short.counts().bleu() == 0.0);

    // Empty candidates: c = 0, BP = 0 and BLEU 0; an empty corpus scores 0 too.
    Corpus empty;
    empty.candidates = {""};
    empty.references = {"a b c d"};
    CHECK(empty.counts().brevity_penalty() == 0.0);
    CHECK(empty.counts().bleu() == 0.0);
    CHECK(BleuCounts{}.bleu() == 0.0);
    CHECK(corpus_bleu(translation_task().output, {""}, {"le chat"}) == 0.0);
    CHECK_THROWS_AS(corpus_bleu(translation_task().output, {"le"}, {}), std::invalid_argument);
    CHECK_THROWS_AS(BleuCounts{}.precision(5), std::invalid_argument);
}

TEST_CASE("bleu: character tokens") {
    // The reversal's tokens are characters: "abcde" against "abcdf" matches a, b, c, d (4/5),
    // ab, bc, cd (3/4), abc, bcd (2/3), abcd (1/2); c = r = 5, BP = 1:
    // BLEU = (4/5 · 3/4 · 2/3 · 1/2)^(1/4) = (1/5)^(1/4).
    CHECK(corpus_bleu(reversal_task().output, {"abcde"}, {"abcdf"}) ==
          doctest::Approx(std::pow(0.2, 0.25)));
}
