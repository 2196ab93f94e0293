// Finite-difference checks of every backward pass: embedding, dense + softmax
// cross-entropy, the masked softmax (with hand-worked rows), the GRU over
// ragged padded sequences, each attention scorer (values as wide as the
// decoder state or twice as wide), and the whole GRU models.
//
// How: the layer's output is reduced to one number with a fixed random
// weighting, L = Σ w_i y_i (w ~ U(−1, 1)), so every output element matters and
// errors cannot cancel by symmetry. For each element x of every parameter and
// every float input, the analytic ∂L/∂x from backward is compared with the
// central difference (L(x + h) − L(x − h)) / 2h, with L summed in double.
//
// Step and tolerance. Everything runs in float32. h = 1e-2: the truncation
// error of a central difference is h²/6·L''' ≈ 2e-5 for these smooth O(1)
// functions, and the rounding error is about ε_float·|terms of L| / h ≈ 1e-5 to
// 1e-4; a smaller h would trade truncation for more rounding. An element passes
// when |numeric − analytic| ≤ atol + rtol·|analytic| with rtol = 1e-2 and atol
// = 1e-3·max|analytic| of that tensor + a noise floor (1e-6 for single layers,
// 1e-4 for whole models, whose loss is larger: see whole_model_noise_floor);
// the bounds sit several times above the discrepancies measured natively
// (FMA) and in WASM (no FMA). The check itself is check_gradient in
// test_helpers.h, which test_transformer.cpp shares.
//
// Why it can fail: a wrong backward is wrong by O(the gradient itself) — a
// dropped term such as z ⊙ dh in the GRU, a missing (1 − u²) in the additive
// scorer, a sign flip or a transposed weight changes typical entries by tens
// of percent, far above 1 % + 0.1 % of the tensor's largest gradient. And a
// backward that forgot a tensor altogether (all zeros) fails the check that
// each tensor's gradient stands clear of the noise (max|analytic| > 10× the
// floor) before any element is compared.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "layers/attention.h"
#include "layers/gru.h"
#include "layers/layers.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "test_helpers.h"

using namespace lb;
using namespace lb::testing;
using doctest::Approx;

TEST_CASE("gradient check: embedding") {
    Rng rng(11);
    const int V = 7, E = 5, N = 6, ld = 8;  // output rows wider than E: a slice of a wider tensor
    std::vector<float> weight = random_vector(size_t(V) * E, rng);
    const std::vector<int32_t> ids = {3, 0, 3, 6, 2, 3};  // repeated ids must accumulate
    std::vector<float> out(size_t(N) * ld, 0.0f);
    std::vector<float> w = random_vector(out.size(), rng);
    for (int n = 0; n < N; ++n)
        for (int e = E; e < ld; ++e) w[size_t(n) * ld + e] = 0;  // columns not written
    auto loss = [&] {
        embedding_forward(out.data(), ids.data(), weight.data(), N, E, ld);
        return weighted_sum(out.data(), w);
    };
    std::vector<float> dweight(weight.size(), 0.0f);
    embedding_backward(dweight.data(), w.data(), ids.data(), N, E, ld);
    check_gradient("embedding.weight", weight.data(), dweight.data(), weight.size(), loss);
    // rows no id reads get no gradient
    for (int e = 0; e < E; ++e) CHECK(dweight[size_t(1) * E + e] == 0.0f);
}

TEST_CASE("gradient check: dense + softmax cross-entropy") {
    Rng rng(12);
    const int N = 5, H = 6, V = 4;
    std::vector<float> in = random_vector(size_t(N) * H, rng);
    std::vector<float> weight = random_vector(size_t(V) * H, rng);
    std::vector<float> bias = random_vector(size_t(V), rng);
    const std::vector<int32_t> targets = {0, 3, 1, 1, 2};
    std::vector<float> logits(size_t(N) * V), probs(size_t(N) * V);
    auto loss = [&] {  // already a scalar: the mean cross-entropy
        dense_forward(logits.data(), in.data(), weight.data(), bias.data(), N, H, V);
        return double(softmax_cross_entropy_forward(probs.data(), logits.data(), targets.data(), N, V));
    };
    loss();
    std::vector<float> dlogits(logits.size(), 0.0f), din(in.size(), 0.0f),
        dweight(weight.size(), 0.0f), dbias(bias.size(), 0.0f);
    softmax_cross_entropy_backward(dlogits.data(), probs.data(), targets.data(), N, V);
    dense_backward(din.data(), dweight.data(), dbias.data(), dlogits.data(), in.data(),
                   weight.data(), N, H, V);
    check_gradient("dense input", in.data(), din.data(), in.size(), loss);
    check_gradient("dense weight", weight.data(), dweight.data(), weight.size(), loss);
    check_gradient("dense bias", bias.data(), dbias.data(), bias.size(), loss);
}

TEST_CASE("softmax cross-entropy leaves a padded step's target unscored") {
    // Two rows; the first's target is the pad token, so the loss is the second row's alone:
    // log(e^1 + e^2 + e^0) − 2, by hand; the gradient of the first row is 0, the second's p − onehot.
    const std::vector<float> logits = {5.0f, -1.0f, 0.5f, 1.0f, 2.0f, 0.0f};
    const std::vector<int32_t> targets = {0, 1};
    std::vector<float> probs(6), dlogits(6, 0.0f);
    const float loss = softmax_cross_entropy_forward(probs.data(), logits.data(), targets.data(), 2, 3);
    const double sum = std::exp(1.0) + std::exp(2.0) + 1.0;
    CHECK(loss == doctest::Approx(std::log(sum) - 2.0));
    softmax_cross_entropy_backward(dlogits.data(), probs.data(), targets.data(), 2, 3);
    for (int v = 0; v < 3; ++v) CHECK(dlogits[size_t(v)] == 0.0f);
    CHECK(dlogits[3] == doctest::Approx(std::exp(1.0) / sum));
    CHECK(dlogits[4] == doctest::Approx(std::exp(2.0) / sum - 1.0));
    CHECK(dlogits[5] == doctest::Approx(1.0 / sum));
    // Every target unscored: no loss and no gradient.
    const std::vector<int32_t> none = {0, 0};
    CHECK(softmax_cross_entropy_forward(probs.data(), logits.data(), none.data(), 2, 3) == 0.0f);
}

TEST_CASE("gradient check: GRU over ragged padded sequences") {
    Rng rng(13);
    const int B = 3, T = 5, E = 4, H = 3;
    const std::vector<int> lengths = {5, 2, 4};
    GruParams p = make_gru_params(E, H);
    for (auto* t : {&p.weight_ih, &p.weight_hh})
        for (float& x : *t) x = rng.uniform(-0.8f, 0.8f);
    for (auto* t : {&p.bias_ih, &p.bias_hh})
        for (float& x : *t) x = rng.uniform(-0.5f, 0.5f);
    std::vector<float> x = random_vector(size_t(B) * T * E, rng);
    std::vector<float> h0 = random_vector(size_t(B) * H, rng, 0.5f);
    std::vector<float> h(size_t(B) * T * H);
    const std::vector<float> w = random_vector(h.size(), rng);
    GruCache cache;
    auto loss = [&] {
        gru_forward(h.data(), cache, x.data(), h0.data(), lengths.data(), p, B, T, E, H);
        return weighted_sum(h.data(), w);
    };
    loss();
    GruParams dp = make_gru_params(E, H);
    std::vector<float> dx(x.size(), 0.0f), dh0(h0.size(), 0.0f);
    gru_backward(dx.data(), dh0.data(), dp, cache, w.data(), x.data(), lengths.data(), p, B, T, E, H);
    check_gradient("gru input x", x.data(), dx.data(), x.size(), loss);
    check_gradient("gru h0", h0.data(), dh0.data(), h0.size(), loss);
    check_gradient("gru weight_ih", p.weight_ih.data(), dp.weight_ih.data(), p.weight_ih.size(), loss);
    check_gradient("gru weight_hh", p.weight_hh.data(), dp.weight_hh.data(), p.weight_hh.size(), loss);
    check_gradient("gru bias_ih", p.bias_ih.data(), dp.bias_ih.data(), p.bias_ih.size(), loss);
    check_gradient("gru bias_hh", p.bias_hh.data(), dp.bias_hh.data(), p.bias_hh.size(), loss);
    // padded inputs get exactly zero gradient
    for (int b = 0; b < B; ++b)
        for (int t = lengths[size_t(b)]; t < T; ++t)
            for (int e = 0; e < E; ++e) CHECK(dx[(size_t(b) * T + t) * E + e] == 0.0f);
}

TEST_CASE("masked softmax: hand-worked rows") {
    SUBCASE("softmax(0, ln 3) = (1/4, 3/4); the masked positions are exactly 0") {
        float row[4] = {0.0f, std::log(3.0f), 5.0f, -2.0f};  // the last two are masked
        masked_softmax_forward(row, 2, 4);
        CHECK(row[0] == Approx(0.25).epsilon(1e-6));
        CHECK(row[1] == Approx(0.75).epsilon(1e-6));
        CHECK(row[2] == 0.0f);
        CHECK(row[3] == 0.0f);
    }
    SUBCASE("the scale multiplies the scores first: softmax(0.5 · (0, 2 ln 3)) = (1/4, 3/4)") {
        float row[2] = {0.0f, 2 * std::log(3.0f)};
        masked_softmax_forward(row, 2, 2, 0.5f);
        CHECK(row[0] == Approx(0.25).epsilon(1e-6));
        CHECK(row[1] == Approx(0.75).epsilon(1e-6));
    }
    SUBCASE("huge scores do not overflow: only their differences count") {
        float row[3] = {1000.0f, 1000.0f + std::log(3.0f), 1000.0f};
        masked_softmax_forward(row, 3, 3);
        CHECK(row[0] == Approx(0.2).epsilon(1e-4));
        CHECK(row[1] == Approx(0.6).epsilon(1e-4));
        CHECK(row[2] == Approx(0.2).epsilon(1e-4));
    }
    SUBCASE("a row of one position has weight exactly 1 and no gradient") {
        float row[3] = {-7.5f, 2.0f, 3.0f};
        masked_softmax_forward(row, 1, 3);
        CHECK(row[0] == 1.0f);
        CHECK(row[1] == 0.0f);
        CHECK(row[2] == 0.0f);
        const float dalpha[3] = {0.7f, -2.0f, 4.0f};
        float de[3];
        masked_softmax_backward(de, row, dalpha, 1, 3);
        CHECK(de[0] == 0.0f);  // α (dα − α dα) with α = 1
        CHECK(de[1] == 0.0f);
        CHECK(de[2] == 0.0f);
    }
    SUBCASE("backward by hand: α = (1/4, 3/4, masked), dα = (1, 0, 7)") {
        // Σ α dα = 1/4; de = (1/4 · 3/4, 3/4 · (−1/4), 0) = (3/16, −3/16, 0), times the scale
        const float alpha[3] = {0.25f, 0.75f, 0.0f};
        const float dalpha[3] = {1.0f, 0.0f, 7.0f};
        for (float scale : {1.0f, 0.5f}) {
            CAPTURE(scale);
            float de[3] = {9.0f, 9.0f, 9.0f};  // written, not added to
            masked_softmax_backward(de, alpha, dalpha, 2, 3, scale);
            CHECK(de[0] == Approx(0.1875 * scale).epsilon(1e-6));
            CHECK(de[1] == Approx(-0.1875 * scale).epsilon(1e-6));
            CHECK(de[2] == 0.0f);
        }
    }
}

TEST_CASE("gradient check: masked softmax") {
    // L = Σ_j w_j α_j over rows of width 6 whose first len positions are real;
    // every score is perturbed, the masked ones too (their gradient must be 0).
    const int width = 6;
    for (int len : {6, 4, 2})
        for (float scale : {1.0f, 0.35f}) {
            CAPTURE(len);
            CAPTURE(scale);
            Rng rng(uint64_t(20 + len));
            std::vector<float> scores = random_vector(width, rng, 2.0f);
            const std::vector<float> w = random_vector(width, rng);
            std::vector<float> alpha(width);
            auto loss = [&] {
                alpha = scores;
                masked_softmax_forward(alpha.data(), len, width, scale);
                return weighted_sum(alpha.data(), w);
            };
            loss();
            std::vector<float> dscores(width);
            masked_softmax_backward(dscores.data(), alpha.data(), w.data(), len, width, scale);
            check_gradient("scores", scores.data(), dscores.data(), scores.size(), loss);
            for (int j = len; j < width; ++j) CHECK(dscores[size_t(j)] == 0.0f);
            // the form that takes dα_j from the caller, one j at a time in order, agrees
            loss();  // α of the unperturbed scores again
            std::vector<float> fused(width);
            int next = 0;
            masked_softmax_backward(fused.data(), alpha.data(), len, width, scale, [&](int j) {
                CHECK(j == next++);
                return w[size_t(j)];
            });
            CHECK(next == len);
            for (int j = 0; j < width; ++j)  // equal up to rounding (a fused multiply-add or not)
                CHECK(fused[size_t(j)] == Approx(dscores[size_t(j)]).epsilon(1e-6));
        }
}

TEST_CASE("gradient check: attention scorers with masked softmax") {
    // A = 2H: encoder states (values) twice as wide as the decoder state, as
    // Bahdanau's annotations (general and additive; dot needs A = H)
    for (Scorer scorer : {Scorer::dot, Scorer::general, Scorer::additive})
    for (int A : {4, 8}) {
        if (scorer == Scorer::dot && A != 4) continue;
        CAPTURE(scorer_name(scorer));
        CAPTURE(A);
        Rng rng(14);
        const int B = 3, S = 5, T = 3, H = 4;
        const std::vector<int> src_len = {5, 2, 4};
        AttentionParams p = make_attention_params(scorer, H, A);
        for (auto* t : {&p.W_e, &p.W_d, &p.W})
            for (float& x : *t) x = rng.uniform(-0.8f, 0.8f);
        for (float& x : p.v) x = rng.uniform(-1.0f, 1.0f);
        std::vector<float> enc = random_vector(size_t(B) * S * A, rng);
        std::vector<float> s_prev = random_vector(size_t(B) * T * H, rng);
        std::vector<float> ctx(size_t(B) * T * A);
        const std::vector<float> w = random_vector(ctx.size(), rng);
        AttentionCache cache;
        attention_reserve(cache, scorer, B, S, T, H);
        auto loss = [&] {
            attention_keys_forward(cache, enc.data(), p, scorer, B, S, H);
            for (int t = 0; t < T; ++t)
                attention_step_forward(ctx.data() + size_t(t) * A, T * A, cache,
                                       s_prev.data() + size_t(t) * H, T * H, enc.data(),
                                       src_len.data(), p, scorer, t, B, S, T, H);
            return weighted_sum(ctx.data(), w);
        };
        loss();
        AttentionParams dp = make_attention_params(scorer, H, A);
        std::vector<float> denc(enc.size(), 0.0f), ds_prev(s_prev.size(), 0.0f);
        attention_zero_grads(cache, scorer, B, S, T, H);
        for (int t = T - 1; t >= 0; --t)
            attention_step_backward(ds_prev.data() + size_t(t) * H, T * H, denc.data(), cache,
                                    w.data() + size_t(t) * A, T * A, s_prev.data() + size_t(t) * H,
                                    T * H, enc.data(), src_len.data(), p, scorer, t, B, S, T, H);
        attention_keys_backward(denc.data(), dp, cache, enc.data(), s_prev.data(), p, scorer, B, S,
                                T, H);
        check_gradient("encoder states", enc.data(), denc.data(), enc.size(), loss);
        check_gradient("decoder states", s_prev.data(), ds_prev.data(), s_prev.size(), loss);
        if (scorer == Scorer::general)
            check_gradient("W", p.W.data(), dp.W.data(), p.W.size(), loss);
        if (scorer == Scorer::additive) {
            check_gradient("W_e", p.W_e.data(), dp.W_e.data(), p.W_e.size(), loss);
            check_gradient("W_d", p.W_d.data(), dp.W_d.data(), p.W_d.size(), loss);
            check_gradient("v", p.v.data(), dp.v.data(), p.v.size(), loss);
        }
        // padded encoder states get exactly zero gradient
        for (int b = 0; b < B; ++b)
            for (int j = src_len[size_t(b)]; j < S; ++j)
                for (int i = 0; i < A; ++i) CHECK(denc[(size_t(b) * S + j) * A + i] == 0.0f);
    }
}

// The whole models, every kind and variant, are checked in test_registry.cpp.
