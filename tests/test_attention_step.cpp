// Hand-computed cases of one attention step: the lesson's worked example and
// the self-check computations; and the teaching step
// against the batched attention the models run (attention.h), each scorer, on
// the same weights.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>
#include "layers/attention.h"
#include "lesson/attention_step.h"
#include "kernels/rng.h"

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

TEST_CASE("worked example: h1 points most nearly the way s does, h3 wins by its length") {
    const AttentionStep step = attention_step(Scorer::dot, {0.9, 0.2}, {{1, 0}, {0, 1}, {1, 1}});
    // By hand: |s| = √0.85 = 0.921954; |h3| = √2; cos = s·h / (|s| |h|).
    CHECK(step.lengths[0] == Approx(1));
    CHECK(step.lengths[1] == Approx(1));
    CHECK(step.lengths[2] == Approx(1.414214).epsilon(1e-6));
    CHECK(step.cosines[0] == Approx(0.9 / 0.921954).epsilon(1e-6));           // 0.976
    CHECK(step.cosines[1] == Approx(0.2 / 0.921954).epsilon(1e-6));           // 0.217
    CHECK(step.cosines[2] == Approx(1.1 / (0.921954 * 1.414214)).epsilon(1e-6));  // 0.844
    CHECK(step.cosines[0] > step.cosines[2]);  // closer in direction...
    CHECK(step.scores[2] > step.scores[0]);    // ...and still outscored by the longer state
    // A zero state has no direction.
    CHECK(std::isnan(attention_step(Scorer::dot, {0.9, 0.2}, {{0, 0}}).cosines[0]));
}

TEST_CASE("temperature: the weights are softmax(e / T)") {
    const Mat hs = {{1, 0}, {0, 1}, {1, 1}};
    const Vec s = {0.9, 0.2};
    SUBCASE("T = 0.5 sharpens: e / T = 1.8, 0.4, 2.2") {
        // By hand: exp = 6.049647, 1.491825, 9.025013; sum 16.566486.
        const AttentionStep step = attention_step(Scorer::dot, s, hs, {}, 0.5);
        CHECK(step.temperature == 0.5);
        CHECK(step.scores[2] == Approx(1.1));  // the scores themselves do not change
        CHECK(step.exps[2] == Approx(9.025013).epsilon(1e-6));
        CHECK(step.denominator == Approx(16.566486).epsilon(1e-6));
        CHECK(step.weights[0] == Approx(0.365174).epsilon(1e-5));
        CHECK(step.weights[1] == Approx(0.090051).epsilon(1e-5));
        CHECK(step.weights[2] == Approx(0.544775).epsilon(1e-5));
    }
    SUBCASE("T = √2, the scaled dot product at d = 2, flattens: e / T = 0.6364, 0.1414, 0.7778") {
        const AttentionStep step = attention_step(Scorer::dot, s, hs, {}, std::sqrt(2.0));
        CHECK(step.weights[0] == Approx(0.362123).epsilon(1e-5));
        CHECK(step.weights[1] == Approx(0.220745).epsilon(1e-5));
        CHECK(step.weights[2] == Approx(0.417133).epsilon(1e-5));
    }
    SUBCASE("the limits: T → 0 picks the top score, T → ∞ weighs all alike") {
        const AttentionStep cold = attention_step(Scorer::dot, s, hs, {}, 0.01);
        CHECK(cold.weights[2] == Approx(1).epsilon(1e-8));  // exp(−20) ≈ 2e-9 left for h1
        const AttentionStep hot = attention_step(Scorer::dot, s, hs, {}, 1e6);
        for (double a : hot.weights) CHECK(a == Approx(1.0 / 3).epsilon(1e-5));
    }
    SUBCASE("a temperature that is not a positive number is refused") {
        for (double t : {0.0, -1.0, std::nan(""), double(INFINITY)})
            CHECK_THROWS_AS(attention_step(Scorer::dot, s, hs, {}, t), std::invalid_argument);
    }
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
        // Two-dimensional states: the first coordinate carries the values 2, 4, 6, the
        // second log α, and s = (0, 1) scores only the second, so e_i = log α_i and the
        // weights are exactly 0.1, 0.3, 0.6. By hand, c = 0.1·2 + 0.3·4 + 0.6·6 = 5.0 and
        // c's second coordinate is Σ α log α = 0.1 ln 0.1 + 0.3 ln 0.3 + 0.6 ln 0.6 = −0.8979.
        const AttentionStep step =
            attention_step(Scorer::dot, {0.0, 1.0},
                           {{2, std::log(0.1)}, {4, std::log(0.3)}, {6, std::log(0.6)}});
        CHECK(step.weights[0] == Approx(0.1));
        CHECK(step.weights[1] == Approx(0.3));
        CHECK(step.weights[2] == Approx(0.6));
        CHECK(step.context[0] == Approx(5.0));
        CHECK(step.context[1] == Approx(-0.8979).epsilon(1e-4));
    }
    SUBCASE("softmax(1,2,3)_3 ≈ 0.67") {
        const AttentionStep step = attention_step(Scorer::dot, {1.0}, {{1}, {2}, {3}});
        CHECK(step.weights[2] == Approx(0.6652).epsilon(0.0005));
    }
    SUBCASE("dot score (1,2,3)·(4,0,1) = 7") {
        CHECK(score(Scorer::dot, {1, 2, 3}, {4, 0, 1}, {}) == Approx(7));
    }
    SUBCASE("scaled dot score (1,2,0,-1)·(3,1,2,2)/√4 = 3/2 = 1.5") {
        CHECK(score(Scorer::dot, {1, 2, 0, -1}, {3, 1, 2, 2}, {}) / std::sqrt(4.0) == Approx(1.5));
    }
    SUBCASE("bilinear score s=(1,1), h=(2,1), W=diag(2,3) gives 7") {
        ScorerParams p;
        p.W = {{2, 0}, {0, 3}};
        CHECK(score(Scorer::general, {1, 1}, {2, 1}, p) == Approx(7));
    }
    SUBCASE("additive score by hand: v=(1,-1), W_d=I, W_e=2I") {
        ScorerParams p;
        p.W_d = {{1, 0}, {0, 1}};
        p.W_e = {{2, 0}, {0, 2}};
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

// Legend: B rows, S source positions (padded), T decoder steps, H width.
TEST_CASE("the batched attention equals the one-step version, each scorer, same weights") {
    constexpr int S = 5, T = 3, H = 4;
    for (Scorer scorer : {Scorer::dot, Scorer::general, Scorer::additive})
        for (int B : {1, 3}) {  // one row and a batch take different product paths
            CAPTURE(scorer_name(scorer));
            CAPTURE(B);
            Rng rng(7);
            auto fill = [&](float* x, size_t n) {
                for (size_t i = 0; i < n; ++i) x[i] = rng.uniform(-1.0f, 1.0f);
            };
            AttentionParams p = make_attention_params(scorer, H);
            fill(p.W.data(), p.W.size());
            fill(p.W_e.data(), p.W_e.size());
            fill(p.W_d.data(), p.W_d.size());
            fill(p.v.data(), p.v.size());
            std::vector<float> enc(size_t(B) * S * H), s_prevs(size_t(B) * T * H), ctx(size_t(B) * H);
            fill(enc.data(), enc.size());
            fill(s_prevs.data(), s_prevs.size());
            const std::vector<int> src_len = {5, 3, 1};  // rows 1 and 2 are padded

            // The same weights as the step's matrices.
            auto mat = [](const xt::xtensor<float, 2>& M) {
                Mat out(M.shape(0), Vec(M.shape(1)));
                for (size_t r = 0; r < M.shape(0); ++r)
                    for (size_t c = 0; c < M.shape(1); ++c) out[r][c] = M(r, c);
                return out;
            };
            ScorerParams sp;
            sp.W = mat(p.W);
            sp.W_e = mat(p.W_e);
            sp.W_d = mat(p.W_d);
            sp.v.assign(p.v.begin(), p.v.end());

            AttentionCache cache;
            attention_reserve(cache, scorer, B, S, T, H);
            attention_keys_forward(cache, enc.data(), p, scorer, B, S, H);
            for (int t = 0; t < T; ++t) {
                attention_step_forward(ctx.data(), H, cache, s_prevs.data() + size_t(t) * H, T * H,
                                       enc.data(), src_len.data(), p, scorer, t, B, S, T, H);
                for (int b = 0; b < B; ++b) {
                    const int L = src_len[size_t(b)];
                    const float* s_prev = s_prevs.data() + (size_t(b) * T + t) * H;
                    Mat hs;
                    for (int j = 0; j < L; ++j) {
                        const float* h = enc.data() + (size_t(b) * S + j) * H;
                        hs.emplace_back(h, h + H);
                    }
                    const AttentionStep step = attention_step(scorer, Vec(s_prev, s_prev + H), hs, sp);
                    for (int j = 0; j < S; ++j) {
                        const float alpha = cache.alpha[(size_t(b) * T + t) * S + j];
                        CHECK(alpha == Approx(j < L ? step.weights[size_t(j)] : 0.0).epsilon(1e-5));
                    }
                    for (int i = 0; i < H; ++i)
                        CHECK(ctx[size_t(b) * H + i] == Approx(step.context[size_t(i)]).epsilon(1e-5));
                }
            }
        }
}

// Bahdanau's annotations are twice as wide as the decoder state: W and W_e are
// [H, A] and the context is A wide. The reference is computed in double from
// the one-step scorer (score takes encoder states of any width), a softmax and
// the weighted sum.
TEST_CASE("values wider than the query: the batched attention equals score, softmax and sum") {
    constexpr int S = 5, T = 2, H = 3, A = 2 * H;
    for (Scorer scorer : {Scorer::general, Scorer::additive})
        for (int B : {1, 3}) {
            CAPTURE(scorer_name(scorer));
            CAPTURE(B);
            Rng rng(8);
            auto fill = [&](float* x, size_t n) {
                for (size_t i = 0; i < n; ++i) x[i] = rng.uniform(-1.0f, 1.0f);
            };
            AttentionParams p = make_attention_params(scorer, H, A);
            REQUIRE(attention_value_width(p, scorer, H) == A);
            for (auto* M : {&p.W, &p.W_e, &p.W_d}) fill(M->data(), M->size());
            fill(p.v.data(), p.v.size());
            std::vector<float> enc(size_t(B) * S * A), s_prevs(size_t(B) * T * H), ctx(size_t(B) * A);
            fill(enc.data(), enc.size());
            fill(s_prevs.data(), s_prevs.size());
            const std::vector<int> src_len = {5, 3, 1};
            auto mat = [](const xt::xtensor<float, 2>& M) {
                Mat out(M.shape(0), Vec(M.shape(1)));
                for (size_t r = 0; r < M.shape(0); ++r)
                    for (size_t c = 0; c < M.shape(1); ++c) out[r][c] = M(r, c);
                return out;
            };
            ScorerParams sp;
            sp.W = mat(p.W);
            sp.W_e = mat(p.W_e);
            sp.W_d = mat(p.W_d);
            sp.v.assign(p.v.begin(), p.v.end());

            AttentionCache cache;
            attention_reserve(cache, scorer, B, S, T, H);
            attention_keys_forward(cache, enc.data(), p, scorer, B, S, H);
            for (int t = 0; t < T; ++t) {
                attention_step_forward(ctx.data(), A, cache, s_prevs.data() + size_t(t) * H, T * H,
                                       enc.data(), src_len.data(), p, scorer, t, B, S, T, H);
                for (int b = 0; b < B; ++b) {
                    const int L = src_len[size_t(b)];
                    const float* s = s_prevs.data() + (size_t(b) * T + t) * H;
                    Vec scores, weights, context(A, 0.0);
                    for (int j = 0; j < L; ++j) {
                        const float* h = enc.data() + (size_t(b) * S + j) * A;
                        scores.push_back(score(scorer, Vec(s, s + H), Vec(h, h + A), sp));
                    }
                    double sum = 0;
                    for (double e : scores) sum += std::exp(e);
                    for (int j = 0; j < L; ++j) {
                        weights.push_back(std::exp(scores[size_t(j)]) / sum);
                        for (int i = 0; i < A; ++i)
                            context[size_t(i)] += weights.back() * enc[(size_t(b) * S + j) * A + i];
                    }
                    for (int j = 0; j < S; ++j) {
                        const float alpha = cache.alpha[(size_t(b) * T + t) * S + j];
                        CHECK(alpha == Approx(j < L ? weights[size_t(j)] : 0.0).epsilon(1e-5));
                    }
                    for (int i = 0; i < A; ++i)
                        CHECK(ctx[size_t(b) * A + i] == Approx(context[size_t(i)]).epsilon(1e-5));
                }
            }
        }
}
