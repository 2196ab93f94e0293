// Counterfactual decoding (core/models/counterfactual.h): a model's own weights given back change
// nothing, for every kind with attention; an edit's context is the weighted sum of the states it
// weighs; on a model set by hand to copy the digit it attends to, an edit's effect on the context
// and on the output is computed here without the model; the shipped date model, moved from a day
// digit onto the year, writes another character; every refusal names what is wrong.
#include <doctest/doctest.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <xtensor/xview.hpp>

#include "data/dataset.h"
#include "io/safetensors.h"
#include "models/counterfactual.h"
#include "models/model.h"
#include "models/registry.h"
#include "test_helpers.h"

using namespace lb;
using doctest::Approx;
using doctest::Contains;

namespace {

std::vector<int> date_tokens(const std::string& text) {
    std::string error;
    const std::vector<int> tokens = encode_user_input(date_task(), text, error);
    REQUIRE(error.empty());
    return tokens;
}

std::vector<float> map_row(const xt::xtensor<float, 2>& map, int t) {
    std::vector<float> row(map.shape(1));
    for (size_t j = 0; j < row.size(); ++j) row[j] = map(size_t(t), j);
    return row;
}

std::vector<float> head_row(const xt::xtensor<float, 3>& heads, int h, int t) {
    std::vector<float> row(heads.shape(2));
    for (size_t j = 0; j < row.size(); ++j) row[j] = heads(size_t(h), size_t(t), j);
    return row;
}

// --- a model that copies the digit it attends to, set by hand ---------------------------------
// The lesson's attention model at width 4 (D = 16 + 4 decoder inputs), zero but for:
//   encoder   x_j[0] = v(src_j), v = 0.1 + 0.1·d for a digit d, 0 for any other character;
//             n-gate weight 1 from x_j[0] into unit 0, z-gate bias −30: h_j = (tanh v_j, 0, 0, 0)
//             (the state forgets h_{j−1} but for σ(−30) ≈ 1e-13 of it)
//   attention zero scorer weights: every score is 0, so α_tj = 1/L
//   decoder   n-gate weight 1 from c_t[0] into unit 0, z-gate bias −30: s_t = (tanh c_t0, 0, 0, 0),
//             whatever came before (zero embeddings, no recurrent weights)
//   output    logit of digit d = 2 μ_d s_t0 − μ_d², μ_d = tanh(tanh v(d)): the digit whose μ_d is
//             nearest to s_t0 is written; '-' has bias −100 and is never written.
constexpr int copy_width = 4;
double digit_value(int d) { return 0.1 + 0.1 * d; }
double digit_mu(int d) { return std::tanh(std::tanh(digit_value(d))); }
// tanh v of an input character: the encoder state's unit 0.
double state_of(char c) { return c >= '0' && c <= '9' ? std::tanh(digit_value(c - '0')) : 0.0; }
// The digit the output layer writes for a context c_t0.
char copied_digit(double context) {
    const double s = std::tanh(context);
    int best = 0;
    for (int d = 1; d < 10; ++d)
        if (std::fabs(s - digit_mu(d)) < std::fabs(s - digit_mu(best))) best = d;
    return char('0' + best);
}

Model copy_model() {
    ModelConfig config;  // attention, additive
    config.H = copy_width;
    Model m = make_model(config);
    Params& p = m.params;
    const Task& task = date_task();
    const int H = copy_width, z = H, n = 2 * H, context = decoder_embedding_width;
    for (char c = '0'; c <= '9'; ++c) p.enc_embedding(size_t(task.input.id(c)), 0) = float(digit_value(c - '0'));
    p.enc_gru.weight_ih(size_t(n), 0) = 1;
    p.dec_gru.weight_ih(size_t(n), size_t(context)) = 1;
    for (int i = 0; i < H; ++i) {
        p.enc_gru.bias_ih(size_t(z + i)) = -30;
        p.dec_gru.bias_ih(size_t(z + i)) = -30;
    }
    for (int d = 0; d < 10; ++d) {
        const size_t id = size_t(task.output.id(char('0' + d)));
        p.out_weight(id, 0) = float(2 * digit_mu(d));
        p.out_bias(id) = float(-digit_mu(d) * digit_mu(d));
    }
    p.out_bias(size_t(task.output.id('-'))) = -100;
    return m;
}

// The context c_t [H] of the last decoding of the lesson's model (its decoder input's last H columns).
const float* lesson_context(const Activations& a, int t) {
    return a.dec_x.data() + size_t(t) * (decoder_embedding_width + a.config.H) + decoder_embedding_width;
}

bool shipped(const char* name, Model& model) {
    const std::string path = std::string(LOOKBACK_WEIGHTS_DIR) + "/" + name;
    if (!std::ifstream(path)) {
        FAIL(path << " is missing: build the native target shipped_models");
        return false;
    }
    model = load_model(path);
    return true;
}

}  // namespace

TEST_CASE("counterfactual: the copying model, by hand — uniform weights, an edit's context, the digit it reads") {
    const Model model = copy_model();
    const std::string text = "19/3/1994";
    const std::vector<int> tokens = date_tokens(text);
    const int L = int(text.size()), T = output_length;
    double mean = 0;
    for (char c : text) mean += state_of(c) / L;
    const char own = copied_digit(mean);

    // Its own decoding: every step weighs 1/L everywhere and writes the digit nearest the mean.
    const Decoded d = decode_tokens(tokens, model);
    CHECK(d.output == std::string(size_t(T), own));
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < L; ++j) CHECK(d.attention(size_t(t), size_t(j)) == Approx(1.0 / L));

    // Step 8 weighs 0.25 on position 1 ('9') and 0.75 on position 3 ('3'): c_8 = (0.25 tanh v(9)
    // + 0.75 tanh v(3), 0, 0, 0); the other steps keep the mean.
    std::vector<float> weights(size_t(L), 0.0f);
    weights[1] = 0.25f;
    weights[3] = 0.75f;
    const AttentionOverride edit{0, 8, every_head, weights.data()};
    Activations a;
    greedy_decode_batch(a, tokens.data(), &L, 1, L, model, AttentionOverrides(&edit, 1));
    const double edited = 0.25 * state_of('9') + 0.75 * state_of('3');
    CHECK(lesson_context(a, 8)[0] == Approx(edited).epsilon(1e-6));
    for (int i = 1; i < copy_width; ++i) CHECK(lesson_context(a, 8)[i] == 0.0f);
    for (int t : {0, 7, 9}) CHECK(lesson_context(a, t)[0] == Approx(mean).epsilon(1e-6));

    // Through the entry point: step 8 moved wholly onto each digit writes that digit, and only
    // step 8 changes (no later step reads what step 8 wrote: zero embeddings, no recurrence).
    for (int j = 0; j < L; ++j) {
        if (!std::isdigit(static_cast<unsigned char>(text[size_t(j)]))) continue;
        CAPTURE(j);
        const Counterfactual cf = decode_counterfactual(model, tokens, {attention_on(8, j, L)});
        std::string expected(size_t(T), own);
        expected[8] = text[size_t(j)];
        CHECK(cf.original.output == d.output);
        CHECK(cf.edited.output == expected);
        CHECK(cf.changed_steps == (text[size_t(j)] == own ? std::vector<int>{} : std::vector<int>{8}));
        for (int k = 0; k < L; ++k) CHECK(cf.edited.attention(8, size_t(k)) == (k == j ? 1.0f : 0.0f));
        CHECK(cf.edited.attention(9, 0) == Approx(1.0 / L));  // the next step weighs freely again
    }
}

TEST_CASE("counterfactual: every kind with attention reproduces itself from its own weights") {
    const std::vector<int> tokens = date_tokens("monday 19 september 1977");
    const int T = output_length;
    for (DecoderKind kind : model_kinds())
        for (const ModelConfig& config : model_variants(kind, 8)) {
            CAPTURE(model_label(config));
            const Model model = testing::random_model(config, 11);
            if (!model_kind(kind).read_attention) {
                CHECK_THROWS_WITH_AS(decode_counterfactual(model, tokens, {}), Contains("has no attention to edit"),
                                     std::invalid_argument);
                continue;
            }
            const Decoded own = decode_tokens(tokens, model);
            std::vector<AttentionEdit> edits;
            const int heads = int(own.heads.shape(0));
            for (int t = 0; t < T; ++t) {
                if (heads == 0) edits.push_back({t, map_row(own.attention, t)});
                for (int h = 0; h < heads; ++h) edits.push_back({t, head_row(own.heads, h, t), h});
            }
            const Counterfactual cf = decode_counterfactual(model, tokens, edits);
            CHECK(cf.edited.output == own.output);
            CHECK(cf.edited.attention == own.attention);
            CHECK(cf.edited.heads == own.heads);
            CHECK(cf.changed_steps.empty());
        }
}

TEST_CASE("counterfactual: an edit's context is the state it weighs, and nothing before the edited step moves") {
    // Moved wholly onto position j, a step's context is exactly the state at j (its annotation for
    // bahdanau, the head's value row for a Transformer), read from the model's own buffers. The
    // last step is edited, so the Transformer's one-step context buffer still holds it.
    const std::string text = "monday 19 september 1977";
    const std::vector<int> tokens = date_tokens(text);
    const int L = int(tokens.size()), T = output_length, t = T - 1;
    for (DecoderKind kind : model_kinds())
        for (const ModelConfig& config : model_variants(kind, 8)) {
            if (!model_kind(kind).read_attention) continue;
            CAPTURE(model_label(config));
            const Model model = testing::random_model(config, 5);
            const int H = config.H, A = config.heads, K = H / A;
            const bool transformer = kind == DecoderKind::transformer;
            const int last = transformer && config.memory == Memory::first ? 0 : L - 1;
            for (int j : {0, last})
                for (int head = transformer ? 0 : every_head; head < (transformer ? A : 0); ++head) {
                    CAPTURE(j);
                    CAPTURE(head);
                    const AttentionEdit edit = attention_on(t, j, L, head);
                    const AttentionOverride o{0, t, head, edit.weights.data()};
                    Activations a;
                    greedy_decode_batch(a, tokens.data(), &L, 1, L, model, AttentionOverrides(&o, 1));
                    const float *context = nullptr, *state = nullptr;
                    int width = H;
                    if (kind == DecoderKind::attention) {
                        context = lesson_context(a, t), state = a.enc_h.data() + size_t(j) * H;
                    } else if (kind == DecoderKind::bahdanau) {
                        width = 2 * H;
                        const int E = decoder_embedding_width;
                        context = a.bahdanau.dec_x.data() + size_t(t) * (E + width) + E;
                        state = a.bahdanau.annotations.data() + size_t(j) * width;
                    } else if (is_luong(kind)) {
                        context = a.luong.combine_in.data() + size_t(t) * 2 * H;
                        state = a.luong.enc_h.data() + size_t(j) * H;
                    } else {
                        REQUIRE(transformer);
                        width = K;
                        context = a.transformer.step_ctx.data() + size_t(head) * K;
                        state = a.transformer.cross_attn.kv.data() + size_t(j) * 2 * H + H + size_t(head) * K;
                    }
                    for (int i = 0; i < width; ++i) CHECK(context[i] == state[i]);
                    const Counterfactual cf = decode_counterfactual(model, tokens, {edit});
                    CHECK(cf.edited.output.substr(0, size_t(t)) == cf.original.output.substr(0, size_t(t)));
                    for (int s = 0; s < t; ++s)
                        for (int k = 0; k < L; ++k)
                            CHECK(cf.edited.attention(size_t(s), size_t(k)) == cf.original.attention(size_t(s), size_t(k)));
                    const xt::xtensor<float, 2> edited_row =
                        transformer ? xt::xtensor<float, 2>(xt::view(cf.edited.heads, head, xt::range(t, t + 1), xt::all()))
                                    : xt::xtensor<float, 2>(xt::view(cf.edited.attention, xt::range(t, t + 1), xt::all()));
                    for (int k = 0; k < L; ++k) CHECK(edited_row(0, size_t(k)) == (k == j ? 1.0f : 0.0f));
                }
        }
}

TEST_CASE("counterfactual: a Transformer's edit of every head is the same edit of each head") {
    const std::vector<int> tokens = date_tokens("19/3/1994");
    const int L = int(tokens.size());
    ModelConfig config;
    config.decoder = DecoderKind::transformer;
    config.H = 8;
    config.heads = 2;
    const Model model = testing::random_model(config, 3);
    std::vector<float> weights(size_t(L), 0.0f);
    weights[2] = 0.4f, weights[6] = 0.6f;
    const Counterfactual every = decode_counterfactual(model, tokens, {{4, weights}});
    const Counterfactual each = decode_counterfactual(model, tokens, {{4, weights, 0}, {4, weights, 1}});
    CHECK(every.edited.output == each.edited.output);
    CHECK(every.edited.heads == each.edited.heads);
    CHECK(every.edited.attention == each.edited.attention);
    for (int j = 0; j < L; ++j) CHECK(every.edited.attention(4, size_t(j)) == Approx(weights[size_t(j)]));
}

TEST_CASE("counterfactual: refusals name what is wrong") {
    const std::string text = "19/3/1994";
    const std::vector<int> tokens = date_tokens(text);
    const int L = int(tokens.size());
    const Model attention = make_model(ModelConfig{});
    auto refused = [&](const Model& model, std::vector<AttentionEdit> edits, const char* message) {
        CAPTURE(message);
        CHECK_THROWS_WITH_AS(decode_counterfactual(model, tokens, edits), Contains(message), std::invalid_argument);
    };
    auto row = [&](std::vector<float> head) {
        head.resize(size_t(L), 0.0f);
        return head;
    };

    // padding: a position past the input, as a position or as a longer row
    CHECK_THROWS_WITH_AS(attention_on(8, L, L), Contains("input position 9 is outside the input's 9 positions (0 to 8)"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(attention_on(8, -1, L), Contains("padding"), std::invalid_argument);
    std::vector<float> longer(size_t(L) + 3, 0.0f);
    longer[0] = 1;
    refused(attention, {{8, longer}}, "output step 8 has weights for 12 positions, but the input has 9: positions 9 to 11 are padding");
    refused(attention, {{8, {1.0f}}}, "output step 8 has weights for 1 positions, but the input has 9");
    // weights: negative, not finite, not summing to one within 1e-4
    refused(attention, {{8, row({-0.5f, 1.5f})}}, "output step 8's weight at position 0 is -0.5: weights must be finite and not negative");
    refused(attention, {{8, row({NAN, 1.0f})}}, "position 0 is nan");
    refused(attention, {{8, row({INFINITY})}}, "position 0 is inf");
    refused(attention, {{8, row({0.5f, 0.4f})}}, "output step 8's weights sum to 0.9: they must sum to one within 0.0001");
    refused(attention, {{8, row({0.5f, 0.5002f})}}, "sum to 1.0002");
    CHECK_NOTHROW(decode_counterfactual(attention, tokens, {{8, row({0.5f, 0.50005f})}}));
    // steps and heads
    refused(attention, {attention_on(10, 0, L)}, "output step 10 is outside the attention additive model's 10 output steps (0 to 9)");
    refused(attention, {attention_on(-1, 0, L)}, "output step -1 is outside");
    refused(attention, {attention_on(3, 0, L, 0)}, "the attention additive model has one attention map, not heads: head 0 applies to a Transformer only");
    refused(attention, {attention_on(3, 0, L), attention_on(3, 1, L)}, "output step 3 is edited twice");
    // a model without attention
    ModelConfig plain;
    plain.decoder = DecoderKind::plain;
    refused(make_model(plain), {attention_on(3, 0, L)}, "the plain model has no attention to edit");
    // a Transformer's heads; its memory `first` reads position 0 only
    ModelConfig transformer;
    transformer.decoder = DecoderKind::transformer;
    transformer.H = 8;
    transformer.heads = 2;
    const Model all = make_model(transformer);
    refused(all, {attention_on(3, 0, L, 2)}, "head 2 is outside the transformer (memory all, 2 heads) model's 2 heads (0 to 1)");
    refused(all, {attention_on(3, 0, L, -2)}, "head -2 is outside");
    refused(all, {attention_on(3, 0, L, 1), attention_on(3, 2, L)}, "output step 3 is edited twice (also as output step 3 (head 1))");
    CHECK_NOTHROW(decode_counterfactual(all, tokens, {attention_on(3, 0, L, 0), attention_on(3, 2, L, 1)}));
    transformer.memory = Memory::first;
    const Model first = make_model(transformer);
    refused(first, {attention_on(3, 4, L)}, "the transformer (memory first, 2 heads) model attends to input position 0 only: output step 3 weighs position 4");
    CHECK_NOTHROW(decode_counterfactual(first, tokens, {attention_on(3, 0, L)}));
    // luong-local's own rows sum to at most one: so may an edit's, and no more
    ModelConfig local;
    local.decoder = DecoderKind::luong_local;
    local.scorer = Scorer::general;
    const Model windowed = make_model(local);
    CHECK_NOTHROW(decode_counterfactual(windowed, tokens, {{2, row({0.25f, 0.25f})}}));
    refused(windowed, {{2, row({0.5f, 0.6f})}}, "sum to 1.1: they must sum to at most one, as the luong-local general model's own do, within 0.0001");
    // tokens decoding refuses
    CHECK_THROWS_AS(decode_counterfactual(attention, {}, {}), std::invalid_argument);
    CHECK_THROWS_AS(decode_counterfactual(attention, {1, 2, 99}, {}), std::invalid_argument);
}

TEST_CASE("counterfactual: the shipped date model, a day digit moved onto the year, writes another character") {
    // Measured on the shipped attention model (width 64, 12 epochs, seed 1), which writes
    // 1977-09-19: the day's units (step 9) moved wholly onto the year's '1' (position 20) or '7'
    // (23) writes that digit, and nothing else changes; onto the year's '9' (21), its own digit,
    // nothing changes. The day's tens (step 8) moved onto the year's '7' (23), a tens digit no day
    // has, changes too, alone (to '0').
    Model model;
    if (!shipped("attention-64.safetensors", model)) return;
    const std::string text = "monday 19 september 1977";
    const std::vector<int> tokens = date_tokens(text);
    const int L = int(tokens.size());
    for (int year_digit : {20, 23}) {
        CAPTURE(year_digit);
        const Counterfactual cf = decode_counterfactual(model, tokens, {attention_on(9, year_digit, L)});
        CHECK(cf.original.output == "1977-09-19");
        std::string read = "1977-09-19";
        read[9] = text[size_t(year_digit)];
        CHECK(cf.edited.output == read);
        CHECK(cf.changed_steps == std::vector<int>{9});
    }
    CHECK(decode_counterfactual(model, tokens, {attention_on(9, 21, L)}).changed_steps.empty());
    const Counterfactual tens = decode_counterfactual(model, tokens, {attention_on(8, 23, L)});
    CHECK(tens.changed_steps == std::vector<int>{8});
    CHECK(tens.edited.output[8] != '7');
}
