// The probes (core/lesson/probes.h): occlusion on hand-built models whose answer is
// known before decoding, and the gradient path against central differences of
// an independent double-precision forward pass in which a perturbation δ is
// added to one encoder state h_j.
//
// Legend: T output characters (10), S input characters, H width.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "models/model.h"
#include "lesson/probes.h"
#include "kernels/rng.h"
#include "training/trainer.h"

using namespace lb;
using doctest::Approx;

namespace {

// Hand-built models, H = 2. The encoder has no recurrence (W_hh = 0) and its update
// gate shut (b_iz = −20, z ≈ 0), so h_j = n_j = tanh(W_in x_j) depends on x_j alone:
// h_j ≈ (0, 1) where the input character is '1' and (0, 0) elsewhere (pad included).
// The output layer writes '1' when the decoder state's unit u is near 1, else '0':
// logit('1') = 5·s[u], logit('0') = 2.5, every other logit 0.
Model marker_model(DecoderKind decoder) {
    constexpr int H = 2;
    Model m = make_model({decoder, Scorer::additive, H});
    Params& p = m.params;
    p.enc_embedding(size_t(date_task().input.id('1')), 0) = 1;
    p.enc_gru.weight_ih(2 * H + 1, 0) = 5;  // n[1] = tanh(5·x[0])
    for (int i = 0; i < H; ++i) p.enc_gru.bias_ih(size_t(H + i)) = -20;  // z ≈ 0
    if (decoder == DecoderKind::plain) {
        // Update gate open (z ≈ 1): s_t = s_0 = h_{len−1} at every step; read unit 1.
        for (int i = 0; i < H; ++i) p.dec_gru.bias_ih(size_t(H + i)) = 20;
        p.out_weight(size_t(date_task().output.id('1')), 1) = 5;
    } else {
        // Additive scores e_j = v·tanh(W_e h_j + W_d s) with W_d = 0: e_j ≈ 20·tanh(20)
        // where the character is '1', 0 elsewhere, whatever the decoder state. So c_t ≈ (0, 1)
        // when the input has a '1' anywhere, (0, 0) when it has none.
        p.attention.W_e(0, 1) = 20;
        p.attention.v(0) = 20;
        // Decoder: z ≈ 0, s_t = n_t = tanh(5·c_t[1]) in unit 0 (c_t's columns follow y_t's 16).
        for (int i = 0; i < H; ++i) p.dec_gru.bias_ih(size_t(H + i)) = -20;
        p.dec_gru.weight_ih(2 * H + 0, decoder_embedding_width + 1) = 5;
        p.out_weight(size_t(date_task().output.id('1')), 0) = 5;
    }
    p.out_bias(size_t(date_task().output.id('0'))) = 2.5;
    return m;
}

// The columns of an occlusion's [T, S] matrix that are all ones; every other entry must be 0.
std::vector<int> changed_columns(const Occlusion& o) {
    std::vector<int> columns;
    for (int j = 0; j < o.S; ++j) {
        int ones = 0;
        for (int t = 0; t < o.T; ++t) {
            const float v = o.changed[size_t(t) * o.S + j];
            CHECK((v == 0.0f || v == 1.0f));
            ones += v == 1.0f;
        }
        CHECK((ones == 0 || ones == o.T));  // these models write one character ten times
        if (ones == o.T) columns.push_back(j);
    }
    return columns;
}

}  // namespace

TEST_CASE("occlusion: the plain decoder depends on the last position only") {
    const Model plain = marker_model(DecoderKind::plain);
    SUBCASE("a '1' at the end: blanking it, and only it, changes every output") {
        const Occlusion o = occlusion(plain, "ab1c1");
        CHECK(o.S == 5);
        CHECK(o.reference == "1111111111");
        CHECK(changed_columns(o) == std::vector<int>{4});  // not 2, though it is a '1' too
        CHECK(o.outputs[4] == "0000000000");
        CHECK(o.outputs[2] == "1111111111");
        CHECK(occluded_output(plain, "ab1c1", 4) == "0000000000");
    }
    SUBCASE("a '1' the plain decoder never sees: nothing changes") {
        const Occlusion o = occlusion(plain, "a1bc");
        CHECK(o.reference == "0000000000");
        CHECK(changed_columns(o).empty());
    }
}

TEST_CASE("occlusion: the attention decoder depends on the position it attends to") {
    const Model attention = marker_model(DecoderKind::attention);
    const Occlusion o = occlusion(attention, "a1bc");
    CHECK(o.reference == "1111111111");
    CHECK(changed_columns(o) == std::vector<int>{1});
    CHECK(occluded_output(attention, "a1bc", 1) == "0000000000");
    CHECK(occluded_output(attention, "a1bc", 3) == "1111111111");
    // The attention map agrees: every row peaks at the '1'.
    const Decoded d = decode_tokens(date_task().input.encode("a1bc"), attention);
    for (int t = 0; t < output_length; ++t) CHECK(d.attention(size_t(t), 1) > 0.99f);
}

TEST_CASE("probes refuse what the model cannot take") {
    const Model m = marker_model(DecoderKind::attention);
    CHECK_THROWS_AS(occlusion(m, ""), std::invalid_argument);
    CHECK_THROWS_AS(occlusion(m, "19/3/1994!"), std::invalid_argument);  // '!' is not in the vocabulary
    CHECK_THROWS_AS(occlusion(m, "Monday"), std::invalid_argument);      // nor are capitals
    CHECK_THROWS_AS(occluded_output(m, "a1bc", 4), std::invalid_argument);
    CHECK_THROWS_AS(occluded_output(m, "a1bc", -1), std::invalid_argument);
    CHECK_THROWS_AS(gradient_path(m, "19/3/1994", "1994-03"), std::invalid_argument);
    CHECK_THROWS_AS(gradient_path(m, "", "1994-03-19"), std::invalid_argument);
    // Designs whose encoder states live in other caches are refused, not measured wrongly.
    for (DecoderKind other : {DecoderKind::bahdanau, DecoderKind::luong}) {
        ModelConfig c = m.config;
        c.decoder = other;
        c.scorer = default_scorer(other);
        CHECK_THROWS_AS(gradient_path(make_model(c), "19/3/1994", "1994-03-19"), std::invalid_argument);
    }
    try {
        occlusion(m, "19/3/1994!");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("outside the vocabulary") != std::string::npos);
    }
}

// --- the gradient path against finite differences ----------------------------------------
namespace {

using Vecd = std::vector<double>;

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// One GRU step in double, as gru.h writes it (gate rows r, z, n; reset after W_hn).
Vecd gru_step(const GruParams& p, const Vecd& x, const Vecd& h) {
    const size_t H = h.size();
    auto row = [&](size_t r, const Vecd& in, const xt::xtensor<float, 2>& W, const xt::xtensor<float, 1>& b) {
        double sum = b(r);
        for (size_t k = 0; k < in.size(); ++k) sum += double(W(r, k)) * in[k];
        return sum;
    };
    Vecd out(H);
    for (size_t i = 0; i < H; ++i) {
        const double r = sigmoid(row(i, x, p.weight_ih, p.bias_ih) + row(i, h, p.weight_hh, p.bias_hh));
        const double z = sigmoid(row(H + i, x, p.weight_ih, p.bias_ih) + row(H + i, h, p.weight_hh, p.bias_hh));
        const double n = std::tanh(row(2 * H + i, x, p.weight_ih, p.bias_ih) + r * row(2 * H + i, h, p.weight_hh, p.bias_hh));
        out[i] = (1 - z) * n + z * h[i];
    }
    return out;
}

// The teacher-forced mean loss of input → target (model.h's formulas, additive or plain),
// with δ added to h_J: through_recurrence = true adds it where the encoder's next step and
// the decoder both read h_J; false only in the decoder's view of the encoder states.
double reference_loss(const Model& m, const std::string& input, const std::string& target, int J,
                      const Vecd& delta, bool through_recurrence) {
    const int H = m.config.H, S = int(input.size());
    const Params& p = m.params;
    REQUIRE((m.config.decoder == DecoderKind::plain || m.config.scorer == Scorer::additive));
    std::vector<Vecd> hs;
    Vecd h(static_cast<size_t>(H), 0.0);
    for (int j = 0; j < S; ++j) {
        const int token = date_task().input.id(input[size_t(j)]);
        Vecd x(encoder_embedding_width);
        for (int e = 0; e < encoder_embedding_width; ++e) x[size_t(e)] = p.enc_embedding(size_t(token), size_t(e));
        h = gru_step(p.enc_gru, x, h);
        if (j == J && through_recurrence)
            for (int i = 0; i < H; ++i) h[size_t(i)] += delta[size_t(i)];
        hs.push_back(h);
    }
    if (!through_recurrence)
        for (int i = 0; i < H; ++i) hs[size_t(J)][size_t(i)] += delta[size_t(i)];
    Vecd s = hs.back();  // s_0 = h_{len−1}
    double loss = 0;
    for (int t = 0; t < output_length; ++t) {
        const int previous = t == 0 ? start_token : date_task().output.id(target[size_t(t - 1)]);
        Vecd x(decoder_embedding_width);
        for (int e = 0; e < decoder_embedding_width; ++e) x[size_t(e)] = p.dec_embedding(size_t(previous), size_t(e));
        if (m.config.decoder == DecoderKind::attention) {
            // e_j = vᵀ tanh(W_e h_j + W_d s_{t−1}); α = softmax(e); c = Σ α_j h_j
            Vecd e(static_cast<size_t>(S), 0.0);
            for (int j = 0; j < S; ++j)
                for (int a = 0; a < H; ++a) {
                    double u = 0;
                    for (int k = 0; k < H; ++k)
                        u += double(p.attention.W_e(size_t(a), size_t(k))) * hs[size_t(j)][size_t(k)] +
                             double(p.attention.W_d(size_t(a), size_t(k))) * s[size_t(k)];
                    e[size_t(j)] += double(p.attention.v(size_t(a))) * std::tanh(u);
                }
            double top = e[0], sum = 0;
            for (double v : e) top = std::max(top, v);
            for (double& v : e) sum += v = std::exp(v - top);
            for (int k = 0; k < H; ++k) {
                double c = 0;
                for (int j = 0; j < S; ++j) c += e[size_t(j)] / sum * hs[size_t(j)][size_t(k)];
                x.push_back(c);
            }
        }
        s = gru_step(p.dec_gru, x, s);
        // −log softmax(W_out s + b_out)[target_t]
        Vecd logits(output_vocab_size);
        double top = -1e300, sum = 0;
        for (int v = 0; v < output_vocab_size; ++v) {
            logits[size_t(v)] = p.out_bias(size_t(v));
            for (int k = 0; k < H; ++k) logits[size_t(v)] += double(p.out_weight(size_t(v), size_t(k))) * s[size_t(k)];
            top = std::max(top, logits[size_t(v)]);
        }
        for (double l : logits) sum += std::exp(l - top);
        loss += std::log(sum) + top - logits[size_t(date_task().output.id(target[size_t(t)]))];
    }
    return loss / output_length;
}

// ‖∂loss/∂δ‖ at position J by central differences of reference_loss, component by component.
double numeric_norm(const Model& m, const std::string& input, const std::string& target, int J,
                    bool through_recurrence) {
    const double step = 1e-5;
    Vecd delta(static_cast<size_t>(m.config.H), 0.0);
    double sum = 0;
    for (size_t i = 0; i < delta.size(); ++i) {
        delta[i] = step;
        const double up = reference_loss(m, input, target, J, delta, through_recurrence);
        delta[i] = -step;
        const double down = reference_loss(m, input, target, J, delta, through_recurrence);
        delta[i] = 0;
        const double g = (up - down) / (2 * step);
        sum += g * g;
    }
    return std::sqrt(sum);
}

Model random_model(DecoderKind decoder, uint64_t seed) {
    Model m = make_model({decoder, Scorer::additive, 6});
    Rng rng(seed);
    init_params(m.params, rng);
    for (NamedTensor& t : named_tensors(m.params))  // biases too, and larger than the init
        for (size_t i = 0; i < t.size; ++i) t.data[i] = rng.uniform(-0.8f, 0.8f);
    return m;
}

}  // namespace

TEST_CASE("gradient path: ‖∂loss/∂h_j‖ against central differences, total and direct") {
    const std::string input = "19/3/1994", target = "1994-03-19";
    const int S = int(input.size());
    for (DecoderKind decoder : {DecoderKind::plain, DecoderKind::attention}) {
        CAPTURE(int(decoder));
        const Model m = random_model(decoder, 3);
        const GradientPath g = gradient_path(m, input, target);
        REQUIRE(int(g.total.size()) == S);
        REQUIRE(int(g.direct.size()) == S);
        // The reference computes the same function as the model (float vs double).
        CHECK(g.loss == Approx(reference_loss(m, input, target, 0, Vecd(6, 0.0), true)).epsilon(1e-5));
        for (int j = 0; j < S; ++j) {
            CAPTURE(j);
            const double total = numeric_norm(m, input, target, j, true);
            const double direct = numeric_norm(m, input, target, j, false);
            CHECK(total > 1e-5);  // every position matters in total, or the check proves nothing
            CHECK(g.total[size_t(j)] == Approx(total).epsilon(2e-3).scale(1e-4));
            CHECK(g.direct[size_t(j)] == Approx(direct).epsilon(2e-3).scale(1e-4));
        }
        // At the last state nothing comes back through the recurrence: total = direct.
        CHECK(g.total[size_t(S - 1)] == Approx(g.direct[size_t(S - 1)]).epsilon(1e-6));
        if (decoder == DecoderKind::plain) {
            // The plain decoder reads only h_{len−1}.
            for (int j = 0; j < S - 1; ++j) CHECK(g.direct[size_t(j)] == 0.0f);
            CHECK(g.direct[size_t(S - 1)] > 1e-3f);
        } else {
            for (int j = 0; j < S; ++j) CHECK(g.direct[size_t(j)] > 1e-4f);
        }
    }
}
