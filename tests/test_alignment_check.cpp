// tests/test_alignment_check.cpp — a model's maps scored against the task's known alignment
// (core/lesson/alignment_check.h), on a model whose attention is known by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "data/dataset.h"
#include "lesson/alignment_check.h"

using namespace lb;

TEST_CASE("alignment check: a model of zero weights attends uniformly, and scores as counted by hand") {
    // Zero weights: every encoder state is 0, so every additive score is v·tanh(0) = 0 and each
    // step's weights are 1/9 over "19/3/1994"; the peak is the lowest position, 0 (the day's '1').
    ModelConfig config;  // the lesson's attention model
    const Model model = make_model(config);
    const std::vector<Example> one = {format_date(1994, 3, 19, 0)};
    const auto check = check_alignment(model, one);
    REQUIRE(check);
    const AlignmentScores& s = check->map;
    // Scored steps: the eight output characters that are not dashes. Links (docs/tasks.md):
    // year 0..3 ↔ 5..8 sure; month: step 5 ↔ 3 possible, step 6 ↔ 3 sure; day: 8 ↔ 0, 9 ↔ 1 sure.
    CHECK(s.totals.steps == 8);
    CHECK(s.peak_hit_rate() == doctest::Approx(1.0 / 8));   // only step 8's peak, 0, is linked
    CHECK(s.peak_near_rate() == doctest::Approx(2.0 / 8));  // and step 9's link, 1, is next to 0
    CHECK(s.mean_linked_mass() == doctest::Approx(1.0 / 9)); // one linked position a step
    // A = 8 links (t, 0); |S| = 7; A∩S = A∩P = {(8, 0)}: AER = 1 − 2 / 15.
    CHECK(s.aer() == doctest::Approx(13.0 / 15));
    CHECK(check->heads.empty());
}

TEST_CASE("alignment check: a model without attention has no map to score") {
    ModelConfig config;
    config.decoder = DecoderKind::plain;
    CHECK_FALSE(check_alignment(make_model(config), {format_date(1994, 3, 19, 0)}));
}

TEST_CASE("alignment check: a Transformer is scored per head and as the mean of its heads") {
    ModelConfig config;
    config.decoder = DecoderKind::transformer;
    config.scorer = default_scorer(config.decoder);
    config.H = 8;
    config.heads = 2;
    const auto check = check_alignment(make_model(config), {format_date(1994, 3, 19, 0)});
    REQUIRE(check);
    REQUIRE(check->heads.size() == 2);
    // Zero weights: every query and key is 0, so every head attends uniformly, as the mean does.
    for (const AlignmentScores& head : check->heads) {
        CHECK(head.totals.steps == 8);
        CHECK(head.aer() == doctest::Approx(13.0 / 15));
    }
    CHECK(check->map.aer() == doctest::Approx(13.0 / 15));
}
