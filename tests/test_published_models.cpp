// The published attention models (bahdanau.h, luong.h): parameter counts by
// formula, tensor names, the bidirectional encoder's two directions, local-p's
// window recomputed by hand, their metadata in safetensors, training. Gradients,
// padding invariance and greedy decoding are test_registry.cpp's, for every kind.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "io/safetensors.h"
#include "test_helpers.h"
#include "training/trainer.h"

using namespace lb;
using namespace lb::testing;
using doctest::Approx;

namespace {

ModelConfig published(DecoderKind kind, Scorer scorer, int H, bool feeding = false) {
    ModelConfig c{kind, scorer, H};
    c.input_feeding = feeding;
    return c;
}

const std::vector<ModelConfig> published_configs = {
    published(DecoderKind::bahdanau, Scorer::additive, 8),
    published(DecoderKind::luong, Scorer::dot, 8),
    published(DecoderKind::luong, Scorer::general, 8),
    published(DecoderKind::luong, Scorer::additive, 8, true),
    published(DecoderKind::luong_local, Scorer::general, 8),
    published(DecoderKind::luong_local, Scorer::dot, 8, true),
};

std::string name_of(const ModelConfig& c) {
    return std::string(decoder_name(c.decoder)) + " " + std::string(model_scorer_name(c.decoder, c.scorer)) +
           (c.input_feeding ? " + input feeding" : "");
}

}  // namespace

TEST_CASE("published models: parameter count by formula, and against the allocated tensors") {
    for (int H : {1, 4, 16, 64, 100}) {
        CAPTURE(H);
        const long h = H, G = 3 * h;
        auto gru = [&](long E) { return G * E + G * h + 2 * G; };
        const long embeddings = 40 * 32 + 13 * 16;
        // Bahdanau: two encoder GRUs (32 → H), decoder GRU on [y ; c] (16 + 2H),
        // s_0 = tanh(W_s ←h + b_s), W_e [H, 2H], W_d [H, H], v [H], deep output [13, 3H + 16] + 13
        const long bahdanau = embeddings + 2 * gru(32) + gru(16 + 2 * h) + (h * h + h) +
                              (2 * h * h + h * h + h) + 13 * (3 * h + 16) + 13;
        // Luong: encoder GRU, decoder GRU on y (or [y ; h̃]), scorer, W_c [H, 2H], output [13, H] + 13
        auto luong = [&](long scorer, bool feeding, bool local) {
            return embeddings + gru(32) + gru(16 + (feeding ? h : 0)) + scorer + 2 * h * h + 13 * h + 13 +
                   (local ? h * h + h : 0);
        };
        struct Case {
            ModelConfig config;
            long want;
        };
        const std::vector<Case> cases = {
            {published(DecoderKind::bahdanau, Scorer::additive, H), bahdanau},
            {published(DecoderKind::luong, Scorer::dot, H), luong(0, false, false)},
            {published(DecoderKind::luong, Scorer::general, H, true), luong(h * h, true, false)},
            {published(DecoderKind::luong, Scorer::additive, H), luong(2 * h * h + h, false, false)},
            {published(DecoderKind::luong_local, Scorer::general, H), luong(h * h, false, true)},
            {published(DecoderKind::luong_local, Scorer::dot, H, true), luong(0, true, true)},
        };
        for (const Case& c : cases) {
            CAPTURE(name_of(c.config));
            CHECK(parameter_count(c.config) == c.want);
            long allocated = 0;
            for (const ConstNamedTensor& t : named_tensors(make_params(c.config))) allocated += long(t.size);
            CHECK(allocated == c.want);
        }
    }
    // at width 64, worked by hand: 19H² + 299H + 1,709 and the plain model's 36,893 + 2H² + H²
    CHECK(parameter_count(published(DecoderKind::bahdanau, Scorer::additive, 64)) == 98669);
    CHECK(parameter_count(published(DecoderKind::luong, Scorer::general, 64)) == 36893 + 3 * 4096);
}

TEST_CASE("published models: tensor names and shapes are PyTorch's") {
    const int H = 8;
    auto shapes = [](const ModelConfig& c) {
        std::vector<std::pair<std::string, std::vector<size_t>>> out;
        for (const ConstNamedTensor& t : named_tensors(make_params(c))) out.push_back({t.name, t.shape});
        return out;
    };
    auto has = [](const auto& list, const std::string& name, std::vector<size_t> shape) {
        return std::find(list.begin(), list.end(), std::make_pair(name, shape)) != list.end();
    };
    const auto b = shapes(published(DecoderKind::bahdanau, Scorer::additive, H));
    CHECK(b.size() == 21);
    CHECK(has(b, "encoder.gru.weight_ih_l0", {24, 32}));
    CHECK(has(b, "encoder.gru.weight_ih_l0_reverse", {24, 32}));
    CHECK(has(b, "encoder.gru.weight_hh_l0_reverse", {24, 8}));
    CHECK(has(b, "encoder.gru.bias_ih_l0_reverse", {24}));
    CHECK(has(b, "encoder.gru.bias_hh_l0_reverse", {24}));
    CHECK(has(b, "decoder.gru.weight_ih_l0", {24, 16 + 16}));
    CHECK(has(b, "decoder.init.weight", {8, 8}));
    CHECK(has(b, "decoder.init.bias", {8}));
    CHECK(has(b, "attention.W_e", {8, 16}));
    CHECK(has(b, "attention.W_d", {8, 8}));
    CHECK(has(b, "attention.v", {8}));
    CHECK(has(b, "decoder.out.weight", {13, 3 * 8 + 16}));
    const auto l = shapes(published(DecoderKind::luong, Scorer::general, H, true));
    CHECK(l.size() == 14);
    CHECK(has(l, "decoder.gru.weight_ih_l0", {24, 16 + 8}));
    CHECK(has(l, "attention.W", {8, 8}));
    CHECK(has(l, "decoder.combine.weight", {8, 16}));
    CHECK(has(l, "decoder.out.weight", {13, 8}));
    const auto p = shapes(published(DecoderKind::luong_local, Scorer::dot, H));
    CHECK(p.size() == 15);
    CHECK(has(p, "decoder.gru.weight_ih_l0", {24, 16}));
    CHECK(has(p, "attention.W_p", {8, 8}));
    CHECK(has(p, "attention.v_p", {8}));
    // what no model of these takes is refused by name
    CHECK_THROWS(make_model(published(DecoderKind::luong_local, Scorer::additive, H)));
    CHECK_THROWS(make_model(published(DecoderKind::bahdanau, Scorer::dot, H)));
    CHECK_THROWS(make_model(published(DecoderKind::attention, Scorer::dot, H, true)));
}

TEST_CASE("bahdanau: the forward half of an annotation has read the left, the backward half the right") {
    const ModelConfig config = published(DecoderKind::bahdanau, Scorer::additive, 8);
    const Model model = random_model(config, 31);
    const std::vector<Example> base = {{"monday 19 september 1977", "1977-09-19", 0}};
    std::vector<Example> changed = base;
    changed[0].input[20] = '8';  // "…1987": position 20 of 24
    Activations a, b;
    model_forward(a, make_batch(date_task(), base, {0}), model);
    model_forward(b, make_batch(date_task(), changed, {0}), model);
    const int H = 8, A = 2 * H;
    auto differs = [&](int j, int from, int to) {
        double d = 0;
        for (int i = from; i < to; ++i)
            d += std::fabs(double(a.bahdanau.annotations[size_t(j) * A + i]) - b.bahdanau.annotations[size_t(j) * A + i]);
        return d;
    };
    for (int j = 0; j < 24; ++j) {
        CAPTURE(j);
        // →h_j changes only from position 20 on, ←h_j only up to position 20 (bit for bit
        // where it must not; the change fades with distance where it must, so any change counts)
        if (j < 20) CHECK(differs(j, 0, H) == 0.0);
        else CHECK(differs(j, 0, H) > 0.0);
        if (j > 20) CHECK(differs(j, H, A) == 0.0);
        else CHECK(differs(j, H, A) > 0.0);
    }
    // s_0 = tanh(W_s ←h_0 + b_s), by hand from the first annotation's backward half
    for (int i = 0; i < H; ++i) {
        double pre = model.params.bahdanau.init_bias[size_t(i)];
        for (int k = 0; k < H; ++k) pre += model.params.bahdanau.init_weight(i, k) * a.bahdanau.annotations[size_t(H + k)];
        CHECK(a.bahdanau.s0[size_t(i)] == Approx(std::tanh(pre)).epsilon(1e-5));
    }
}

TEST_CASE("luong-local: p_t, the window and the Gaussian, recomputed by hand") {
    const ModelConfig config = published(DecoderKind::luong_local, Scorer::general, 8);
    Model model = random_model(config, 32);
    // v_p large enough that the centres move over the whole row
    for (size_t i = 0; i < 8; ++i) model.params.luong.position_v[i] *= 6.0f;
    const std::vector<Example> examples = three_examples();
    const Batch batch = make_batch(date_task(), examples, {1, 2, 0});  // 27, 19, 9 characters
    Activations acts;
    model_forward(acts, batch, model);
    const LuongCache& c = acts.luong;
    const int H = 8, T = output_length, S = batch.S, D = local_half_width;
    const double sigma = D / 2.0;
    int cut = 0;
    for (int b = 0; b < batch.B; ++b)
        for (int t = 0; t < T; ++t) {
            CAPTURE(b);
            CAPTURE(t);
            const int L = batch.src_len[size_t(b)];
            const float* s = c.dec_h.data() + (size_t(b) * T + t) * H;
            // p_t = L σ(v_pᵀ tanh(W_p s_t))
            double z = 0;
            for (int i = 0; i < H; ++i) {
                double u = 0;
                for (int k = 0; k < H; ++k) u += model.params.luong.position_weight(i, k) * s[k];
                z += model.params.luong.position_v[size_t(i)] * std::tanh(u);
            }
            const double p = L / (1.0 + std::exp(-z));
            REQUIRE(c.centre[size_t(b) * T + t] == Approx(p).epsilon(1e-4));
            // scores s_t · W h_j over the positions with |j − p| ≤ D (and j < L), their softmax
            std::vector<double> e(size_t(S), 0.0);
            double max = -1e30, sum = 0;
            for (int j = 0; j < L; ++j)
                if (std::fabs(j - p) <= D) {
                    const float* h = c.enc_h.data() + (size_t(b) * S + j) * H;
                    for (int i = 0; i < H; ++i)
                        for (int k = 0; k < H; ++k) e[size_t(j)] += s[i] * model.params.attention.W(i, k) * h[k];
                    max = std::max(max, e[size_t(j)]);
                }
            int inside = 0;
            for (int j = 0; j < L; ++j)
                if (std::fabs(j - p) <= D) sum += std::exp(e[size_t(j)] - max), ++inside;
            if (inside < std::min(L, 2 * D + 1)) ++cut;
            const float* a = alignment_map(acts) + (size_t(b) * T + t) * S;
            for (int j = 0; j < S; ++j) {
                CAPTURE(j);
                const double want = j < L && std::fabs(j - p) <= D
                                        ? std::exp(e[size_t(j)] - max) / sum *
                                              std::exp(-(j - p) * (j - p) / (2 * sigma * sigma))
                                        : 0.0;
                CHECK(a[j] == Approx(want).epsilon(1e-4).scale(1e-6));
            }
        }
    // the test saw windows cut by the row's ends
    CHECK(cut > 0);
}

TEST_CASE("published models: their configuration in safetensors metadata, and a file of another refused") {
    for (const ModelConfig& config : published_configs) {
        CAPTURE(name_of(config));
        const SafetensorsContent content = model_to_safetensors(random_model(config, 33), {{"seed", "3"}});
        CHECK(content.metadata.at("model") == decoder_name(config.decoder));
        CHECK(content.metadata.at("scorer") == model_scorer_name(config.decoder, config.scorer));
        if (is_luong(config.decoder))
            CHECK(content.metadata.at("input_feeding") == (config.input_feeding ? "1" : "0"));
    }
    // a file of one configuration does not load into another
    const Model feeding = random_model(published(DecoderKind::luong, Scorer::general, 8, true), 34);
    Model plain_luong = make_model(published(DecoderKind::luong, Scorer::general, 8));
    CHECK_THROWS_AS(load_weights_into(plain_luong, model_to_safetensors(feeding)), SafetensorsError);
    SafetensorsContent garbled = model_to_safetensors(feeding);
    garbled.metadata["scorer"] = "additive";  // luong spells it concat
    CHECK_THROWS_WITH_AS(model_from_safetensors(garbled), doctest::Contains("dot, general or concat"),
                         SafetensorsError);
    garbled = model_to_safetensors(feeding);
    garbled.metadata["input_feeding"] = "yes";
    CHECK_THROWS_AS(model_from_safetensors(garbled), SafetensorsError);
}

TEST_CASE("published models: each trains (the loss falls), with the trainer's Adam and batch 64") {
    const Splits data = make_date_splits(5, 640, 64);
    for (const ModelConfig& c : published_configs) {
        CAPTURE(name_of(c));
        TrainerConfig tc;
        tc.model = c;
        tc.model.H = 16;
        tc.epochs = 0;
        tc.evaluate_each_epoch = false;
        Trainer trainer(tc, data);
        trainer.step(30);
        const std::vector<float>& losses = trainer.loss_history();
        REQUIRE(losses.size() == 30);
        const float early = (losses[0] + losses[1] + losses[2]) / 3;
        const float late = (losses[27] + losses[28] + losses[29]) / 3;
        CHECK(late < 0.95f * early);  // from ln 13 ≈ 2.56 in 30 steps of Adam at 1e-3
    }
}
