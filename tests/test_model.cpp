// The seq2seq models: parameter counts, padding invariance, the attention
// weights, greedy decoding.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "models/model.h"
#include "lesson/published.h"
#include "kernels/rng.h"
#include "test_helpers.h"
#include "training/trainer.h"

using namespace lb;
using namespace lb::testing;
using doctest::Approx;

namespace {

const std::vector<ModelConfig> all_configs = {{DecoderKind::plain, Scorer::additive, 8},
                                              {DecoderKind::attention, Scorer::dot, 8},
                                              {DecoderKind::attention, Scorer::general, 8},
                                              {DecoderKind::attention, Scorer::additive, 8}};

}  // namespace

TEST_CASE("the width sweep's cells: every width with each side of the lesson's pair, in one order") {
    static_assert(sweep_cell_count == 8);
    // Cell i is width sweep_widths[i / 2], plain at even i and attention at odd, worked out by hand.
    const int widths[8] = {8, 8, 16, 16, 32, 32, 64, 64};
    for (size_t i = 0; i < sweep_cell_count; ++i) {
        CAPTURE(i);
        const SweepCell cell = SweepCell::at(i);
        CHECK(cell.width() == widths[i]);
        CHECK(cell.kind() == (i % 2 ? DecoderKind::attention : DecoderKind::plain));
        CHECK(cell.index() == i);
        CHECK(pair_slot(cell.kind()) == cell.slot);  // the pair's kind at a slot fills that slot
    }
    CHECK(SweepCell{3, attention_slot}.index() == 7);
}

TEST_CASE("parameter counts match the source's, and the formula at every width") {
    const ModelConfig plain{DecoderKind::plain, Scorer::additive, 64};
    const ModelConfig additive{DecoderKind::attention, Scorer::additive, 64};
    CHECK(parameter_count(plain) == 36893);
    CHECK(parameter_count(additive) == 57437);
    // published.h quotes the same counts as the source published, per model and at the sweep's widest
    CHECK(source_figures.of(DecoderKind::plain).parameters_64 == 36893);
    CHECK(source_figures.of(DecoderKind::attention).parameters_64 == 57437);
    CHECK(sweep_widths.back() == 64);
    for (int H : {1, 8, 16, 32, 64, 100}) {
        CAPTURE(H);
        const long h = H, G = 3 * h;
        // encoder: embedding 40×32 + GRU(32 → H); decoder: embedding 13×16 + GRU(16 → H),
        // dense 13×H + 13; each GRU 3H·E + 3H·H + 6H (two bias vectors)
        const long plain_formula = 40 * 32 + (G * 32 + G * h + 2 * G) + 13 * 16 +
                                   (G * 16 + G * h + 2 * G) + 13 * h + 13;
        for (Scorer scorer : {Scorer::dot, Scorer::general, Scorer::additive}) {
            CAPTURE(scorer_name(scorer));
            const ModelConfig p{DecoderKind::plain, scorer, H};
            const ModelConfig a{DecoderKind::attention, scorer, H};
            // attention: the decoder GRU's input widens by the H-wide context (+3H·H),
            // plus the scorer's own parameters
            const long scorer_params = scorer == Scorer::dot       ? 0
                                       : scorer == Scorer::general ? h * h
                                                                   : 2 * h * h + h;
            CHECK(parameter_count(p) == plain_formula);
            CHECK(parameter_count(a) == plain_formula + G * h + scorer_params);
            // and the tensors actually allocated agree with the formula
            for (const ModelConfig& config : {p, a}) {
                const Params params = make_params(config);
                long allocated = 0;
                for (const ConstNamedTensor& t : named_tensors(params)) allocated += long(t.size);
                CHECK(allocated == parameter_count(config));
            }
        }
    }
}

TEST_CASE("tensor names and shapes map onto PyTorch") {
    const Params params = make_params({DecoderKind::attention, Scorer::additive, 64});
    const std::vector<ConstNamedTensor> list = named_tensors(params);
    const std::vector<std::pair<std::string, std::vector<size_t>>> want = {
        {"encoder.embedding.weight", {40, 32}}, {"encoder.gru.weight_ih_l0", {192, 32}},
        {"encoder.gru.weight_hh_l0", {192, 64}}, {"encoder.gru.bias_ih_l0", {192}},
        {"encoder.gru.bias_hh_l0", {192}},       {"decoder.embedding.weight", {13, 16}},
        {"decoder.gru.weight_ih_l0", {192, 80}}, {"decoder.gru.weight_hh_l0", {192, 64}},
        {"decoder.gru.bias_ih_l0", {192}},       {"decoder.gru.bias_hh_l0", {192}},
        {"decoder.out.weight", {13, 64}},        {"decoder.out.bias", {13}},
        {"attention.W_e", {64, 64}},             {"attention.W_d", {64, 64}},
        {"attention.v", {64}}};
    REQUIRE(list.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        CHECK(list[i].name == want[i].first);
        CHECK(list[i].shape == want[i].second);
    }
    const Params general = make_params({DecoderKind::attention, Scorer::general, 8});
    CHECK(named_tensors(general).back().name == "attention.W");
    CHECK(named_tensors(make_params({DecoderKind::plain, Scorer::general, 8})).size() == 12);
}

TEST_CASE("padding invariance: a sequence alone and in a padded batch") {
    const std::vector<Example> examples = three_examples();
    const int T = output_length, V = output_vocab_size;
    for (const ModelConfig& config : all_configs) {
        const std::string name(config.decoder == DecoderKind::plain ? "plain" : scorer_name(config.scorer));
        CAPTURE(name);
        const Model model = random_model(config, 21);
        const Batch alone = make_batch(date_task(), examples, {0});   // length 9, S = 9
        const Batch mixed = make_batch(date_task(), examples, {1, 0, 2});  // row 1 padded from 9 to 27
        const Batch others = make_batch(date_task(), examples, {1, 2});
        REQUIRE(mixed.S == 27);
        const int L = alone.S;

        Activations a1, a3, a2;
        const float loss_alone = model_forward(a1, alone, model);
        const float loss_mixed = model_forward(a3, mixed, model);
        const float loss_others = model_forward(a2, others, model);
        // the mean over 3 rows = (row 0 + 2 × mean of the others) / 3
        CHECK(loss_mixed == Approx((loss_alone + 2 * loss_others) / 3).epsilon(1e-5));

        // outputs: the row's probabilities and encoder states agree
        for (int i = 0; i < T * V; ++i)
            CHECK(a3.probs[size_t(T * V) + size_t(i)] == Approx(a1.probs[size_t(i)]).epsilon(1e-5));
        for (int j = 0; j < L; ++j)
            for (int i = 0; i < config.H; ++i)
                CHECK(a3.enc_h[(size_t(27) + j) * config.H + i] ==
                      Approx(a1.enc_h[size_t(j) * config.H + i]).epsilon(1e-5));
        if (config.decoder == DecoderKind::attention)
            for (int t = 0; t < T; ++t)
                for (int j = 0; j < 27; ++j) {
                    const float in_batch = a3.att.alpha[(size_t(1) * T + t) * 27 + j];
                    if (j < L)
                        CHECK(in_batch == Approx(a1.att.alpha[size_t(t) * L + j]).epsilon(1e-5));
                    else
                        CHECK(in_batch == 0.0f);  // padding gets no weight
                }

        // gradients: the mean is linear in the rows, so 3·g(mixed) − 2·g(others) = g(alone)
        check_gradient_linear_in_rows(model, alone, mixed, others);
    }
}

TEST_CASE("attention weights: rows sum to 1, zero on padding") {
    const std::vector<Example> examples = three_examples();
    for (Scorer scorer : {Scorer::dot, Scorer::general, Scorer::additive}) {
        CAPTURE(scorer_name(scorer));
        const Model model = random_model({DecoderKind::attention, scorer, 8}, 22);
        const Batch batch = make_batch(date_task(), examples, {0, 1, 2});
        Activations acts;
        model_forward(acts, batch, model);
        for (int b = 0; b < batch.B; ++b)
            for (int t = 0; t < output_length; ++t) {
                const float* row = acts.att.alpha.data() + (size_t(b) * output_length + t) * batch.S;
                double sum = 0;
                for (int j = 0; j < batch.S; ++j) {
                    CHECK(row[j] >= 0.0f);
                    if (j >= batch.src_len[size_t(b)]) CHECK(row[j] == 0.0f);
                    sum += row[j];
                }
                CHECK(sum == Approx(1.0).epsilon(1e-5));
            }
    }
}

TEST_CASE("workspaces are reused across batch shapes without changing results") {
    const std::vector<Example> examples = three_examples();
    const Model model = random_model({DecoderKind::attention, Scorer::additive, 8}, 23);
    const Batch big = make_batch(date_task(), examples, {0, 1, 2});
    const Batch small = make_batch(date_task(), examples, {2, 0});
    Activations fresh, reused;
    const float want = model_forward(fresh, small, model);
    model_forward(reused, big, model);  // grows the buffers first
    CHECK(model_forward(reused, small, model) == Approx(want).epsilon(1e-6));
    CHECK(reused.B_cap == 3);
    CHECK(reused.S_cap == 27);
}

TEST_CASE("greedy decoding: shapes, characters, batched = single") {
    const std::vector<Example> examples = three_examples();
    for (const ModelConfig& config : all_configs) {
        const bool attention = config.decoder == DecoderKind::attention;
        const std::string name(attention ? scorer_name(config.scorer) : "plain");
        CAPTURE(name);
        const Model model = random_model(config, 24);
        const std::vector<Decoded> decoded = decode_examples(examples, model, true, 2);
        REQUIRE(decoded.size() == examples.size());
        for (size_t i = 0; i < examples.size(); ++i) {
            const Decoded& d = decoded[i];
            REQUIRE(d.output.size() == size_t(output_length));
            for (char c : d.output) CHECK(std::string("0123456789-").find(c) != std::string::npos);
            if (attention) {
                REQUIRE(d.attention.shape(0) == size_t(output_length));
                REQUIRE(d.attention.shape(1) == examples[i].input.size());
                for (int t = 0; t < output_length; ++t) {
                    double sum = 0;
                    for (size_t j = 0; j < d.attention.shape(1); ++j) sum += d.attention(t, j);
                    CHECK(sum == Approx(1.0).epsilon(1e-5));
                }
            } else {
                CHECK(d.attention.size() == 0);
            }
            // the single-string entry point (from the user's text) agrees
            std::string error;
            const std::vector<int> tokens = encode_user_input(date_task(), examples[i].input, error);
            REQUIRE(error.empty());
            const Decoded one = decode_tokens(tokens, model);
            CHECK(one.output == d.output);
            REQUIRE(one.attention.shape() == d.attention.shape());
            for (size_t k = 0; k < one.attention.size(); ++k)
                CHECK(one.attention.data()[k] == Approx(d.attention.data()[k]).epsilon(1e-5));
        }
        const std::vector<Decoded> strings_only = decode_examples(examples, model, false);
        CHECK(strings_only[1].output == decoded[1].output);
        CHECK(strings_only[1].attention.size() == 0);
    }
    CHECK_THROWS(decode_tokens({}, random_model(all_configs[0], 1)));
}

TEST_CASE("decoder names: one spelling each way") {
    CHECK(decoder_name(DecoderKind::plain) == "plain");
    CHECK(decoder_name(DecoderKind::attention) == "attention");
    for (DecoderKind kind : {DecoderKind::plain, DecoderKind::attention})
        CHECK(parse_decoder(decoder_name(kind)) == kind);
    CHECK_FALSE(parse_decoder("Plain").has_value());
    CHECK_FALSE(parse_decoder("additive").has_value());  // a scorer, not a decoder
    CHECK_FALSE(parse_decoder("").has_value());
}

TEST_CASE("model labels: each design named with what sets it apart, and the scorers each takes") {
    auto label = [](DecoderKind kind, Scorer scorer, bool feeding = false) {
        ModelConfig c;
        c.decoder = kind;
        c.scorer = scorer;
        c.input_feeding = feeding;
        return model_label(c);
    };
    CHECK(label(DecoderKind::plain, Scorer::additive) == "plain");
    CHECK(label(DecoderKind::attention, Scorer::dot) == "attention dot");
    CHECK(label(DecoderKind::bahdanau, Scorer::additive) == "bahdanau");
    CHECK(label(DecoderKind::luong, Scorer::additive) == "luong concat");  // concat is stored as additive
    CHECK(label(DecoderKind::luong_local, Scorer::general, true) == "luong-local general + input feeding");
    ModelConfig t;
    t.decoder = DecoderKind::transformer;
    t.memory = Memory::first;
    CHECK(model_label(t) == "transformer (memory first, 4 heads)");
    // The command line's rules (model.h): three scorers for attention and luong, two for local, one for bahdanau.
    auto count = [](DecoderKind kind) {
        int n = 0;
        for (Scorer s : {Scorer::dot, Scorer::general, Scorer::additive}) n += takes_scorer(kind, s);
        return n;
    };
    CHECK(count(DecoderKind::attention) == 3);
    CHECK(count(DecoderKind::luong) == 3);
    CHECK(count(DecoderKind::luong_local) == 2);
    CHECK_FALSE(takes_scorer(DecoderKind::luong_local, Scorer::additive));
    CHECK(count(DecoderKind::bahdanau) == 1);
    CHECK(count(DecoderKind::plain) == 0);
}
