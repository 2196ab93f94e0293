// Hand-computed cases of one attention step: the lesson's worked example and
// the self-check computations (lesson-brief §2 and §9).
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include "attention_step.h"

using namespace lb;
using doctest::Approx;

TEST_CASE("worked example: h1=(1,0) h2=(0,1) h3=(1,1), s=(0.9,0.2), dot score") {
    const Mat hs = {{1, 0}, {0, 1}, {1, 1}};
    const AttentionStep step = attention_step(Scorer::dot, {0.9, 0.2}, hs);
    // By hand: e = s·h_i; exp(0.9) = 2.4596, exp(0.2) = 1.2214, exp(1.1) = 3.0042.
    CHECK(step.scores[0] == Approx(0.9));
    CHECK(step.scores[1] == Approx(0.2));
    CHECK(step.scores[2] == Approx(1.1));
    CHECK(step.exps[0] == Approx(2.460).epsilon(0.0005));
    CHECK(step.exps[1] == Approx(1.221).epsilon(0.0005));
    CHECK(step.exps[2] == Approx(3.004).epsilon(0.0005));
    CHECK(step.denominator == Approx(6.685).epsilon(0.0005));
    CHECK(step.weights[0] == Approx(0.368).epsilon(0.001));
    CHECK(step.weights[1] == Approx(0.183).epsilon(0.002));
    CHECK(step.weights[2] == Approx(0.449).epsilon(0.001));
    // c = α1 h1 + α2 h2 + α3 h3 = (α1 + α3, α2 + α3)
    CHECK(step.context[0] == Approx(0.817).epsilon(0.001));
    CHECK(step.context[1] == Approx(0.632).epsilon(0.001));
}

TEST_CASE("softmax weights are positive and sum to one, even for huge scores") {
    const AttentionStep step = attention_step(Scorer::dot, {1000, 0}, {{1, 0}, {0.999, 0}, {0, 1}});
    double sum = 0;
    for (double a : step.weights) { CHECK(a >= 0); sum += a; }
    CHECK(sum == Approx(1.0));
    CHECK(std::isinf(step.exps[0]));          // exp(1000) overflows for display...
    CHECK(step.weights[0] == Approx(1 / (1 + std::exp(-1.0))));  // ...the weights do not
}

TEST_CASE("self-check computations") {
    SUBCASE("context from weights: h = 2, 4, 6 with α = 0.1, 0.3, 0.6 gives 5.0") {
        // Scores log α give exactly those weights.
        const AttentionStep step = attention_step(
            Scorer::dot, {1.0}, {{std::log(0.1)}, {std::log(0.3)}, {std::log(0.6)}});
        CHECK(step.weights[2] == Approx(0.6));
        double c = 0.1 * 2 + 0.3 * 4 + 0.6 * 6;
        CHECK(c == Approx(5.0));
    }
    SUBCASE("softmax(1,2,3)_3 ≈ 0.67") {
        const AttentionStep step = attention_step(Scorer::dot, {1.0}, {{1}, {2}, {3}});
        CHECK(step.weights[2] == Approx(0.6652).epsilon(0.0005));
    }
    SUBCASE("dot score (1,2,3)·(4,0,1) = 7") {
        CHECK(score(Scorer::dot, {1, 2, 3}, {4, 0, 1}, {}) == Approx(7));
    }
    SUBCASE("bilinear score s=(1,1), h=(2,1), W=diag(2,3) gives 7") {
        ScorerParams p;
        p.W = {{2, 0}, {0, 3}};
        CHECK(score(Scorer::general, {1, 1}, {2, 1}, p) == Approx(7));
    }
    SUBCASE("additive score by hand: v=(1,-1), W1=I, W2=2I") {
        ScorerParams p;
        p.W1 = {{1, 0}, {0, 1}};
        p.W2 = {{2, 0}, {0, 2}};
        p.v = {1, -1};
        // tanh(0.5 + 2·0.25) - tanh(-0.5 + 2·1) = tanh(1) - tanh(1.5)
        CHECK(score(Scorer::additive, {0.5, -0.5}, {0.25, 1}, p) ==
              Approx(0.7615941559557649 - 0.9051482536448664));
    }
}

TEST_CASE("bad shapes are refused") {
    CHECK_THROWS_AS(attention_step(Scorer::dot, {1, 2}, {}), std::invalid_argument);
    CHECK_THROWS_AS(attention_step(Scorer::dot, {1, 2}, {{1, 2, 3}}), std::invalid_argument);
    ScorerParams p;
    p.W = {{1}};
    CHECK_THROWS_AS(score(Scorer::general, {1, 2}, {1, 2}, p), std::invalid_argument);
}

TEST_CASE("scorer parameter counts") {
    CHECK(scorer_parameter_count(Scorer::dot, 64) == 0);
    CHECK(scorer_parameter_count(Scorer::general, 64) == 64 * 64);
    CHECK(scorer_parameter_count(Scorer::additive, 64) == 2 * 64 * 64 + 64);  // W_e, W_d, v
}
