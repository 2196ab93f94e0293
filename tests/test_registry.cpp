// The generic tests of registry.h's table: every row, every variant its options
// allow, checked alike — names and options, parameter count against the
// tensors, whole-model gradients against central differences, padding
// invariance, greedy decoding against teacher forcing, the safetensors round
// trip. A toy kind registered here, in the test build only, shows that a new
// row is checked the moment it exists.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "io/safetensors.h"
#include "kernels/buffers.h"
#include "kernels/rng.h"
#include "layers/layers.h"
#include "models/model.h"
#include "models/registry.h"
#include "test_helpers.h"

using namespace lb;
using namespace lb::testing;
using doctest::Approx;

namespace {

constexpr int T = output_length, V = output_vocab_size;
constexpr int E_in = encoder_embedding_width, E_out = decoder_embedding_width;
constexpr int Z = E_in + E_out;  // the toy's output layer reads [mean of x ; y_t]

// The toy: no recurrence, no attention. m = the mean of the input's embeddings,
// logits_t = W_out [m ; 10 y_t] + b_out (the previous character's embedding scaled
// up, so that it sways the output from the start). Its tensors are four of Params' slots.
constexpr float toy_y_scale = 10.0f;
void scale_y(float* z_rows, int N, float by) {
    for (int n = 0; n < N; ++n)
        for (int e = 0; e < E_out; ++e) z_rows[size_t(n) * Z + E_in + e] *= by;
}
Params toy_params(const ModelConfig&) {
    Params p;
    p.enc_embedding = xt::zeros<float>({size_t(input_vocab_size), size_t(E_in)});
    p.dec_embedding = xt::zeros<float>({size_t(V), size_t(E_out)});
    p.out_weight = xt::zeros<float>({size_t(V), size_t(Z)});
    p.out_bias = xt::zeros<float>({size_t(V)});
    return p;
}

void toy_reserve(Activations& a, const ModelConfig&, int B, int) {
    grow(a.dec_x, size_t(B) * T * Z);
    grow(a.logits, size_t(B) * T * V);
    grow(a.probs, size_t(B) * T * V);
    grow(a.dlogits, size_t(B) * T * V);
    grow(a.ddec_x, size_t(B) * T * Z);
}

// dec_x[b, t, :32] = the mean of row b's input embeddings.
void toy_encode(Activations& a, const int32_t* src, const int* len, int B, int S, const Params& p) {
    for (int b = 0; b < B; ++b) {
        float* m = a.dec_x.data() + size_t(b) * T * Z;
        std::fill(m, m + E_in, 0.0f);
        for (int j = 0; j < len[b]; ++j)
            for (int e = 0; e < E_in; ++e) m[e] += p.enc_embedding(size_t(src[b * S + j]), size_t(e)) / len[b];
        for (int t = 1; t < T; ++t) std::memcpy(m + size_t(t) * Z, m, sizeof(float) * E_in);
    }
}

float toy_forward(Activations& a, const Batch& batch, const Model& m, Rng*) {
    const Params& p = m.params;
    const int B = batch.B;
    toy_encode(a, batch.src.data(), batch.src_len.data(), B, batch.S, p);
    embedding_forward(a.dec_x.data() + E_in, batch.dec_in.data(), p.dec_embedding.data(), B * T, E_out, Z);
    scale_y(a.dec_x.data(), B * T, toy_y_scale);
    dense_forward(a.logits.data(), a.dec_x.data(), p.out_weight.data(), p.out_bias.data(), B * T, Z, V);
    return softmax_cross_entropy_forward(a.probs.data(), a.logits.data(), batch.dec_out.data(), B * T, V);
}

void toy_backward(Params& g, Activations& a, const Batch& batch, const Model& m) {
    const int B = a.B, S = a.S;
    zero(a.dlogits, size_t(B) * T * V);
    zero(a.ddec_x, size_t(B) * T * Z);
    softmax_cross_entropy_backward(a.dlogits.data(), a.probs.data(), batch.dec_out.data(), B * T, V);
    dense_backward(a.ddec_x.data(), g.out_weight.data(), g.out_bias.data(), a.dlogits.data(),
                   a.dec_x.data(), m.params.out_weight.data(), B * T, Z, V);
    scale_y(a.ddec_x.data(), B * T, toy_y_scale);
    embedding_backward(g.dec_embedding.data(), a.ddec_x.data() + E_in, batch.dec_in.data(), B * T, E_out, Z);
    for (int b = 0; b < B; ++b) {
        const int L = batch.src_len[size_t(b)];
        for (int t = 0; t < T; ++t) {
            const float* dm = a.ddec_x.data() + (size_t(b) * T + t) * Z;
            for (int j = 0; j < L; ++j)
                for (int e = 0; e < E_in; ++e)
                    g.enc_embedding(size_t(batch.src(b, j)), size_t(e)) += dm[e] / L;
        }
    }
    (void)S;
}

// The toy has no attention: it never reads overrides.
void toy_greedy(Activations& a, const int32_t* src, const int* len, int B, int S, const Model& m,
                AttentionOverrides) {
    const Params& p = m.params;
    toy_encode(a, src, len, B, S, p);
    for (int t = 0; t < T; ++t)
        for (int b = 0; b < B; ++b) {
            const int previous = t == 0 ? start_token : a.tokens[size_t(b) * T + t - 1];
            float* z = a.dec_x.data() + (size_t(b) * T + t) * Z;
            std::memcpy(z + E_in, p.dec_embedding.data() + size_t(previous) * E_out, sizeof(float) * E_out);
            scale_y(z, 1, toy_y_scale);
            float* logits = a.logits.data() + (size_t(b) * T + t) * V;
            dense_forward(logits, z, p.out_weight.data(), p.out_bias.data(), 1, Z, V);
            a.tokens[size_t(b) * T + t] = date_task().greedy_token(logits);
        }
}

ModelKind toy_row() {
    ModelKind row;
    row.name = "toy-mean-embedding";
    row.make_params = toy_params;
    row.parameter_count = [](const ModelConfig&) { return long(input_vocab_size * E_in + V * E_out + V * Z + V); };
    row.reserve = toy_reserve;
    row.forward = toy_forward;
    row.backward = toy_backward;
    row.greedy_decode = toy_greedy;
    row.logits = [](const Activations& a) -> const float* { return a.logits.data(); };
    // Its one product: the output layer, [V, Z] on each of the T steps.
    row.forward_flops = [](const ModelConfig&, double) { return 2.0 * T * V * Z; };
    return row;
}

// Registered before any test runs, as a new row of the table would be.
const DecoderKind toy_kind = register_model_kind(toy_row());

std::string name_of(const ModelConfig& c) {
    // A Transformer's label names its width already.
    return model_label(c) + (model_kind(c.decoder).transformer_options ? "" : ", width " + std::to_string(c.H));
}

// Every kind's every variant at width H.
std::vector<ModelConfig> every_variant(int H) {
    std::vector<ModelConfig> all;
    for (DecoderKind kind : model_kinds())
        for (const ModelConfig& c : model_variants(kind, H)) all.push_back(c);
    return all;
}

}  // namespace

TEST_CASE("registry: the test's own kind is a row like the others") {
    const std::vector<DecoderKind> kinds = model_kinds();
    REQUIRE(kinds.size() == 7);  // six built-in rows and the toy
    CHECK(kinds.back() == toy_kind);
    CHECK(parse_decoder("toy-mean-embedding") == toy_kind);
    CHECK(decoder_choices() ==
          "plain, attention, transformer, bahdanau, luong, luong-local or toy-mean-embedding");
    CHECK_THROWS_AS(register_model_kind(toy_row()), std::invalid_argument);  // the name is taken
    CHECK_THROWS_AS(model_kind(DecoderKind(99)), std::invalid_argument);
}

TEST_CASE("registry: the questions asked of a kind are answered by its row") {
    CHECK(toy_kind == DecoderKind::first_registered);  // the id after the built-in rows'
    // Which side of the lesson's pair: without attention the plain side, with it the other.
    CHECK(pair_slot(DecoderKind::plain) == 0);
    for (DecoderKind kind : {DecoderKind::attention, DecoderKind::transformer, DecoderKind::bahdanau, DecoderKind::luong,
                             DecoderKind::luong_local})
        CHECK(pair_slot(kind) == 1);
    CHECK(pair_slot(toy_kind) == 0);  // the toy reads no attention
    // Heads and the memory choice are the Transformer's alone.
    CHECK(kind_names([](const ModelKind& k) { return k.has_heads(); }) == "transformer");
    CHECK(kind_names([](const ModelKind& k) { return k.has_memory_choice(); }) == "transformer");
    CHECK(kind_names([](const ModelKind& k) { return k.input_feeding; }) == "luong and luong-local");
    CHECK(kind_names([](const ModelKind& k) { return !k.has_attention(); }) == "plain and toy-mean-embedding");
    CHECK(memory_choices(DecoderKind::transformer) == std::vector{Memory::first, Memory::all});
    CHECK(memory_choices(DecoderKind::attention) == std::vector{Memory::all});
    ModelConfig c;
    c.decoder = DecoderKind::transformer;
    c.memory = Memory::first;
    CHECK_FALSE(reads_every_state(c));
    c.memory = Memory::all;
    CHECK(reads_every_state(c));
    c.decoder = DecoderKind::attention;
    c.memory = Memory::first;  // a memory its kind does not choose: it reads every state
    CHECK(reads_every_state(c));
}

TEST_CASE("registry: a sweep's name of a model is its kind's, with the memory where the kind has one") {
    ModelConfig transformer_first;
    transformer_first.decoder = DecoderKind::transformer;
    transformer_first.memory = Memory::first;
    CHECK(sweep_name(transformer_first) == "transformer-first");
    ModelConfig luong_local;
    luong_local.decoder = DecoderKind::luong_local;
    CHECK(sweep_name(luong_local) == "luong-local");
    // The names the shipped alignment sweeps use (assets/alignment-*.json) read back.
    const std::optional<ModelConfig> all = parse_sweep_name("transformer-all");
    REQUIRE(all);
    CHECK(all->decoder == DecoderKind::transformer);
    CHECK(all->memory == Memory::all);
    const std::optional<ModelConfig> local = parse_sweep_name("luong-local");
    REQUIRE(local);
    CHECK(local->decoder == DecoderKind::luong_local);
    CHECK_FALSE(parse_sweep_name("transformer"));     // a Transformer's name says its memory
    CHECK_FALSE(parse_sweep_name("attention-all"));   // a kind without a memory choice has none
}

TEST_CASE("registry: every kind's names and options round-trip, and what it does not take is refused") {
    for (DecoderKind kind : model_kinds()) {
        const ModelKind& row = model_kind(kind);
        CAPTURE(row.name);
        CHECK(parse_decoder(row.name) == kind);
        CHECK(decoder_name(kind) == row.name);
        for (const ScorerChoice& choice : row.scorers) {
            CHECK(parse_model_scorer(kind, choice.name) == choice.scorer);
            CHECK(model_scorer_name(kind, choice.scorer) == choice.name);
        }
        if (!row.scorers.empty()) {
            CHECK(takes_scorer(kind, row.default_scorer));
            for (Scorer s : {Scorer::dot, Scorer::general, Scorer::additive}) {
                ModelConfig c = model_variants(kind, 8).front();
                c.scorer = s;
                const bool listed = std::any_of(row.scorers.begin(), row.scorers.end(),
                                                [&](const ScorerChoice& x) { return x.scorer == s; });
                if (listed) CHECK_NOTHROW(check_model_config(c));
                else CHECK_THROWS_WITH_AS(check_model_config(c),
                                          doctest::Contains(model_scorer_choices(kind).c_str()),
                                          std::invalid_argument);
            }
        }
        ModelConfig feeding = model_variants(kind, 8).front();
        feeding.input_feeding = true;
        if (row.input_feeding) CHECK_NOTHROW(check_model_config(feeding));
        else CHECK_THROWS_WITH_AS(check_model_config(feeding), doctest::Contains("luong and luong-local"),
                                  std::invalid_argument);
        for (const ModelConfig& c : model_variants(kind, 8)) CHECK_NOTHROW(check_model_config(c));
    }
}

TEST_CASE("registry: every variant's parameter count by formula equals the tensors allocated") {
    for (int H : {4, 8, 12, 64}) {
        for (const ModelConfig& config : every_variant(H)) {
            CAPTURE(name_of(config));
            long allocated = 0;
            for (const ConstNamedTensor& t : named_tensors(make_params(config))) allocated += long(t.size);
            CHECK(allocated == parameter_count(config));
            // tensor_spans holds the same tensors, in every slot
            Params p = make_params(config);
            long spanned = 0;
            for (const TensorSpan& s : tensor_spans(p)) spanned += long(s.size);
            CHECK(spanned == allocated);
        }
    }
}

TEST_CASE("registry: the list of tensors counts itself: tensor_spans has a place for every one") {
    // The counts are the lists' lengths (params.h, transformer.h): a tensor added to a list raises
    // them, so tensor_spans' array never has fewer places than the visit has tensors.
    Params p;
    const Params& c = p;
    std::vector<std::string> names, const_names;
    visit_tensors(p, [&](const char* name, auto&) { names.emplace_back(name); });
    visit_tensors(c, [&](const char* name, const auto&) { const_names.emplace_back(name); });
    CHECK(names.size() == size_t(tensor_slots));
    CHECK(const_names == names);
    CHECK(tensor_spans(p).size() == names.size());
    // Each family's names are its own: no name twice within one (the Transformer reuses four of
    // the GRU family's, as PyTorch's modules name them).
    const std::vector<std::string> gru(names.begin(), names.begin() + gru_family_tensor_count),
        transformer(names.begin() + gru_family_tensor_count, names.end());
    CHECK(transformer.size() == size_t(transformer_tensor_count));
    for (const std::vector<std::string>* family : {&gru, &transformer}) {
        std::vector<std::string> sorted = *family;
        std::sort(sorted.begin(), sorted.end());
        CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }
    CHECK(names.front() == "encoder.embedding.weight");
    CHECK(transformer.front() == "encoder.embedding.weight");
    CHECK(transformer[1] == "encoder.layers.0.self_attn.in_proj_weight");
    CHECK(names.back() == "decoder.out.bias");
}

TEST_CASE("registry: every kind states its FLOP model, and it counts the products of its own tensors") {
    for (DecoderKind kind : model_kinds()) {
        CAPTURE(model_kind(kind).name);
        CHECK(bool(model_kind(kind).forward_flops));
    }
    // Multiply-adds of one forward pass, counted here from the tensors each model holds: a
    // [R, C] matrix applied to one vector is R·C of them, n(name). The performance model's
    // conventions (docs/design.md): only the matrix products; a GRU decoder counted for T + 1
    // steps, without its output layer; scores and weighted sums H (or a value's width) per source
    // position and step. The lesson's attention model leaves out its keys, S·n(attention.W_e),
    // as the model BENCHMARKS.md quotes does (3.97 MFLOP per example at width 64).
    const double S = 15.8;  // the date task's mean training input length
    for (const Task* task : tasks())
        for (int H : {8, 64})
            for (DecoderKind kind : model_kinds()) {
                ModelConfig config;
                config.decoder = kind;
                config.scorer = default_scorer(kind);
                config.H = H;
                config.task = task;
                std::vector<ModelConfig> configs = {config};
                if (model_kind(kind).transformer_options) {  // a feed-forward width of its own
                    configs.push_back(config);
                    configs.back().ffn = 3 * H;
                }
                for (const ModelConfig& c : configs) {
                    CAPTURE(name_of(c));
                    CAPTURE(task->name);
                    const Params params = make_params(c);
                    auto n = [&](const std::string& name) {
                        for (const ConstNamedTensor& t : named_tensors(params))
                            if (t.name == name) return double(t.size);
                        return 0.0;
                    };
                    auto gru = [&](const std::string& part, const std::string& end = "") {
                        return n(part + ".gru.weight_ih_l0" + end) + n(part + ".gru.weight_hh_l0" + end);
                    };
                    const double T = task->output_steps, U = T + 1, h = c.H;
                    const std::string name(model_kind(kind).name);
                    double macs = -1;
                    if (name == "plain") {
                        macs = S * gru("encoder") + U * gru("decoder");
                    } else if (name == "attention") {
                        macs = S * gru("encoder") + U * (gru("decoder") + n("attention.W_d") + 2 * S * h);
                    } else if (name == "bahdanau") {  // scores H wide, the annotations 2H
                        macs = S * (gru("encoder") + gru("encoder", "_reverse")) + S * n("attention.W_e") +
                               U * (gru("decoder") + n("attention.W_d") + S * h + S * 2 * h);
                    } else if (name == "luong" || name == "luong-local") {  // general: keys W h_j
                        macs = S * gru("encoder") + S * n("attention.W") +
                               U * (gru("decoder") + n("decoder.combine.weight") + 2 * S * h + n("attention.W_p"));
                    } else if (name == "transformer") {
                        auto layer = [&](const std::string& prefix) {
                            return n(prefix + "linear1.weight") + n(prefix + "linear2.weight");
                        };
                        const std::string enc = "encoder.layers.0.", dec = "decoder.layers.0.";
                        const double cross = n(dec + "multihead_attn.in_proj_weight");  // q, k, v: a third each
                        macs = S * (n(enc + "self_attn.in_proj_weight") + n(enc + "self_attn.out_proj.weight") +
                                    layer(enc)) +
                               2 * S * S * h +
                               T * (n(dec + "self_attn.in_proj_weight") + n(dec + "self_attn.out_proj.weight") +
                                    cross / 3 + n(dec + "multihead_attn.out_proj.weight") + layer(dec) +
                                    n("decoder.out.weight")) +
                               S * cross * 2 / 3 + 2 * T * T * h + 2 * T * S * h;
                    } else if (name == "toy-mean-embedding") {
                        if (task != &date_task()) continue;  // the toy knows the dates only
                        macs = T * n("decoder.out.weight");
                    }
                    if (macs < 0) {
                        FAIL_CHECK("no count for the kind " << name << " here: add one from its tensors");
                        continue;
                    }
                    CHECK(forward_flops(c, S) == Approx(2 * macs).epsilon(1e-12));
                }
            }
}

TEST_CASE("registry: every variant's gradients agree with central differences") {
    std::vector<ModelConfig> variants;
    for (DecoderKind kind : model_kinds())  // width 4; a Transformer's 8, so that each of 2 heads is 4 wide
        for (const ModelConfig& c : model_variants(kind, model_kind(kind).transformer_options ? 8 : 4))
            variants.push_back(c);
    for (const ModelConfig& config : variants) {
        CAPTURE(name_of(config));
        Rng rng(15);
        Model model = make_model(config);
        // random parameters, biases included, large enough to leave the linear regime;
        // the additive scorer's larger, or W_d's gradient would sink into the noise floor;
        // a layer norm's gain near 1, as a trained one is, or it would shrink what passes;
        // a feed-forward's pre-activations W_1 x + b_1 far from ReLU's kink (small W_1 against
        // biases of ±1 to 1.5, each unit always on or always off), so that few steps cross one
        auto ends_with = [](const std::string& name, const std::string& end) {
            return name.size() >= end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
        };
        for (NamedTensor& t : named_tensors(model.params)) {
            const bool gain = t.name.find(".norm") != std::string::npos && ends_with(t.name, ".weight");
            const float scale = t.name == "attention.v" ? 2.0f : t.name == "attention.W_d" ? 1.0f
                                : ends_with(t.name, "linear1.weight")                   ? 0.15f : 0.5f;
            for (size_t i = 0; i < t.size; ++i)
                t.data[i] = gain ? rng.uniform(0.5f, 1.5f)
                            : ends_with(t.name, "linear1.bias") ? (i % 2 ? 1.0f : -1.0f) * rng.uniform(1.0f, 1.5f)
                                                                : rng.uniform(-scale, scale);
        }
        const Batch batch = ragged_batch(rng);
        Activations acts;
        // L = the sum of the B·T token cross-entropies; a piecewise kind's choices are
        // those of the unperturbed model, and a step that changes one is a kink (NaN, skipped)
        const auto piecewise = model_kind(config.decoder).piecewise_choices;
        std::vector<int> choices;
        auto loss = [&] {
            model_forward(acts, batch, model);
            if (piecewise) {
                const std::vector<int> now = piecewise(acts);
                if (choices.empty()) choices = now;
                if (now != choices) return std::nan("");
            }
            return summed_loss(model_logits(acts), batch);
        };
        loss();
        Params grads = make_params(config);
        zero_params(grads);
        model_backward(grads, acts, batch, model);
        check_model_gradients(model, grads, batch.B * T, loss);
    }
}

TEST_CASE("registry: a row's outputs do not change when other rows make the batch longer") {
    const std::vector<Example> examples = three_examples();
    for (const ModelConfig& config : every_variant(8)) {
        CAPTURE(name_of(config));
        const Model model = random_model(config, 21);
        const Batch alone = make_batch(date_task(), examples, {0});        // length 9, S = 9
        const Batch mixed = make_batch(date_task(), examples, {1, 0, 2});  // the same row padded to 27
        REQUIRE(mixed.S == 27);
        const int L = alone.S;
        Activations a1, a3;
        model_forward(a1, alone, model);
        model_forward(a3, mixed, model);
        for (int i = 0; i < T * V; ++i)
            CHECK(model_logits(a3)[size_t(T * V + i)] == Approx(model_logits(a1)[size_t(i)]).epsilon(1e-5).scale(1.0));
        if (const float* three = alignment_map(a3)) {
            const float* one = alignment_map(a1);
            for (int t = 0; t < T; ++t) {
                double sum = 0;
                for (int j = 0; j < 27; ++j) {
                    const float w = three[(size_t(1) * T + t) * 27 + j];
                    if (j < L) CHECK(w == Approx(one[size_t(t) * L + j]).epsilon(1e-5));
                    else CHECK(w == 0.0f);  // padding gets no weight
                    CHECK(w >= 0.0f);
                    sum += w;
                }
                // a softmax sums to 1; local-p's Gaussian, not renormalised, makes it less
                if (model_kind(config.decoder).windowed_attention) CHECK(sum <= 1.0 + 1e-6);
                else CHECK(sum == Approx(1.0).epsilon(1e-5));
            }
        }
        check_gradient_linear_in_rows(model, alone, mixed, make_batch(date_task(), examples, {1, 2}));
    }
}

TEST_CASE("registry: greedy decoding equals the teacher-forced argmax path") {
    for (DecoderKind kind : model_kinds()) {
        const ModelConfig config = model_variants(kind, 8).front();
        CAPTURE(name_of(config));
        const Model model = briefly_trained(config);
        const std::vector<Example> examples = four_examples();
        Batch batch = make_batch(date_task(), examples, {0, 1, 2, 3});
        Activations decoding;
        // not one character repeated: the fed-back inputs differ
        CHECK(follow_greedy_path(batch, decoding, model) >= 2);
        const std::vector<int32_t> tokens(decoding.tokens.begin(), decoding.tokens.begin() + batch.B * T);
        const size_t map_size = size_t(batch.B) * T * batch.S;
        const std::vector<float> decoded_map =
            alignment_map(decoding) ? std::vector<float>(alignment_map(decoding), alignment_map(decoding) + map_size)
                                    : std::vector<float>();
        Activations forced;
        model_forward(forced, batch, model);
        for (int r = 0; r < batch.B; ++r)
            for (int t = 0; t < T; ++t) {
                CAPTURE(r);
                CAPTURE(t);
                CHECK(argmax_character(model_logits(forced) + (size_t(r) * T + t) * V) == tokens[size_t(r) * T + t]);
            }
        // and the map of each step, where the kind has one
        for (size_t k = 0; k < decoded_map.size(); ++k)
            CHECK(alignment_map(forced)[k] == Approx(decoded_map[k]).epsilon(1e-4).scale(1e-6));
        // decode_tokens (one string, the page's path) agrees with the batch
        std::string error;
        const Decoded one = decode_tokens(encode_user_input(date_task(), examples[1].input, error), model);
        CHECK(one.output == date_task().output.decode(tokens.data() + T, T));
        if (model_kind(kind).read_attention) CHECK(one.attention.shape(1) == examples[1].input.size());
        else CHECK(one.attention.size() == 0);
    }
}

TEST_CASE("registry: every variant's weights round-trip through safetensors with their configuration") {
    for (const ModelConfig& config : every_variant(8)) {
        CAPTURE(name_of(config));
        const Model model = random_model(config, 33);
        const std::vector<uint8_t> bytes = encode_safetensors(model_to_safetensors(model));
        const Model back = load_model(bytes.data(), bytes.size());
        CHECK(back.config == model.config);
        const auto a = named_tensors(model.params), b = named_tensors(back.params);
        REQUIRE(a.size() == b.size());
        for (size_t k = 0; k < a.size(); ++k) {
            CHECK(a[k].name == b[k].name);
            CHECK(std::equal(a[k].data, a[k].data + a[k].size, b[k].data));
        }
        CHECK(decode_examples(three_examples(), back)[1].output ==
              decode_examples(three_examples(), model)[1].output);
    }
}

namespace {
template <class A>
float largest_difference(const A& a, const A& b) {
    float largest = 0;
    for (size_t k = 0; k < a.size(); ++k) largest = std::max(largest, std::fabs(a.data()[k] - b.data()[k]));
    return largest;
}
}  // namespace

// The held-out split is decoded a slice of rows at a time (decode_batch_rows, small so that a
// training worker's evaluation holds little memory): a row's string must not depend on the
// slice it was decoded in, nor its maps beyond rounding (a slice pads to its longest input, and
// the masked softmax then sums in another order).
TEST_CASE("registry: every variant decodes a row alike alone and in slices of any size") {
    const std::vector<Example> examples = make_date_splits(5, 8, 70).held_out;
    for (const ModelConfig& config : every_variant(16)) {
        CAPTURE(name_of(config));
        const Model model = random_model(config, 41);
        const std::vector<Decoded> alone = decode_examples(examples, model, true, 1);
        for (int rows : {decode_batch_rows, 7, 256}) {
            CAPTURE(rows);
            const std::vector<Decoded> sliced = decode_examples(examples, model, true, rows);
            REQUIRE(sliced.size() == alone.size());
            for (size_t i = 0; i < alone.size(); ++i) {
                CHECK(sliced[i].output == alone[i].output);
                REQUIRE(sliced[i].attention.shape() == alone[i].attention.shape());
                REQUIRE(sliced[i].heads.shape() == alone[i].heads.shape());
                CHECK(largest_difference(sliced[i].attention, alone[i].attention) <= 1e-6f);
                CHECK(largest_difference(sliced[i].heads, alone[i].heads) <= 1e-6f);
            }
        }
    }
}
