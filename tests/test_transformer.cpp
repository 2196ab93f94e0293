// The one-layer Transformer (transformer.h): its parameter count, hand-worked
// positions and layer norm, finite-difference checks of every backward over
// ragged padded batches, padding invariance, the causal mask, and greedy
// decoding with cached keys and values against the teacher-forced model.
//
// Gradient checks work as test_gradients.cpp's (its header explains the step
// h = 1e-2 and the tolerance): the output is reduced with a fixed random
// weighting, L = Σ w_i y_i, and every element of every parameter and float
// input is compared with the central difference of L. The feed-forward
// block's ReLU has a kink: a central difference that straddles it is wrong by
// O(1), so the whole-model check sets the feed-forward weights to keep every
// pre-activation far from 0 (keep_away_from_relu_kinks); the layer's own check
// has both signs of pre-activation and passes as drawn.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "data/dataset.h"
#include "layers/layers.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "io/safetensors.h"
#include "training/trainer.h"
#include "test_helpers.h"
#include "models/transformer.h"
#include "layers/transformer_layers.h"

using namespace lb;
using namespace lb::testing;
using doctest::Approx;

namespace {

void randomise(MultiheadAttentionParams& p, Rng& rng) {
    for (float& x : p.in_proj_weight) x = rng.uniform(-0.6f, 0.6f);
    for (float& x : p.in_proj_bias) x = rng.uniform(-0.3f, 0.3f);
    for (float& x : p.out_proj_weight) x = rng.uniform(-0.6f, 0.6f);
    for (float& x : p.out_proj_bias) x = rng.uniform(-0.3f, 0.3f);
}

// The buffers of a MultiheadAttentionCache for [B, Tq] queries over [B, Tk] keys.
struct AttentionStore {
    std::vector<float> q, kv, alpha, ctx, dq, dkv, dctx, dalpha;
    AttentionStore(int B, int Tq, int Tk, int D, int A)
        : q(size_t(B) * Tq * D), kv(size_t(B) * Tk * 2 * D), alpha(size_t(B) * A * Tq * Tk),
          ctx(size_t(B) * Tq * D), dq(q.size()), dkv(kv.size()), dctx(ctx.size()),
          dalpha(size_t(Tq) * Tk) {}
    MultiheadAttentionCache view() {
        return {q.data(), kv.data(), alpha.data(), ctx.data(),
                dq.data(), dkv.data(), dctx.data(), dalpha.data()};
    }
};

ModelConfig transformer(int H, int heads, Memory memory, int ffn = 0) {
    ModelConfig c;
    c.decoder = DecoderKind::transformer;
    c.H = H;
    c.heads = heads;
    c.memory = memory;
    c.ffn = ffn;
    return c;
}

Model random_transformer(const ModelConfig& config, uint64_t seed, float scale = 0.5f) {
    Model model = make_model(config);
    Rng rng(seed);
    for (NamedTensor& t : named_tensors(model.params)) {
        const bool gamma = t.name.find(".norm") != std::string::npos &&
                           t.name.size() > 7 && t.name.compare(t.name.size() - 7, 7, ".weight") == 0;
        for (size_t i = 0; i < t.size; ++i)
            t.data[i] = gamma ? rng.uniform(0.5f, 1.5f) : rng.uniform(-scale, scale);
    }
    return model;
}

// The feed-forward blocks' pre-activations W_1 x + b_1 far from ReLU's kink
// at 0, where a central difference would straddle it: small W_1 (|W_1 x| stays
// well under 1 for the unit-variance x a LayerNorm writes) and biases of
// magnitude 1 to 1.5, each unit either always on or always off, half and half.
void keep_away_from_relu_kinks(Model& model, uint64_t seed) {
    Rng rng(seed);
    for (FeedForwardParams* f : {&model.params.transformer.enc_ffn, &model.params.transformer.dec_ffn}) {
        for (float& w : f->linear1_weight) w = rng.uniform(-0.15f, 0.15f);
        for (size_t i = 0; i < f->linear1_bias.size(); ++i)
            f->linear1_bias[i] = (i % 2 ? 1.0f : -1.0f) * rng.uniform(1.0f, 1.5f);
    }
}

// The same rows with `extra` more padding columns.
Batch widen(const Batch& batch, int extra) {
    Batch wide = batch;
    wide.S = batch.S + extra;
    wide.src = xt::zeros<int32_t>({size_t(batch.B), size_t(wide.S)});
    for (int b = 0; b < batch.B; ++b)
        for (int j = 0; j < batch.S; ++j) wide.src(b, j) = batch.src(b, j);
    return wide;
}

}  // namespace

TEST_CASE("transformer: parameter count by formula, and against the allocated tensors") {
    // d_model 64, 4 heads, feed-forward 128: PyTorch's nn.TransformerEncoderLayer +
    // nn.TransformerDecoderLayer of these sizes with the embeddings and output layer
    CHECK(parameter_count(transformer(64, 4, Memory::all)) == 87949);
    CHECK(parameter_count(transformer(64, 4, Memory::first)) == 87949);
    struct Size { int D, heads, F; };
    for (Size s : {Size{64, 4, 128}, Size{8, 2, 16}, Size{12, 4, 7}, Size{16, 8, 40}, Size{5, 1, 3},
                   Size{32, 1, 0}}) {
        CAPTURE(s.D);
        CAPTURE(s.heads);
        CAPTURE(s.F);
        const ModelConfig config = transformer(s.D, s.heads, Memory::all, s.F);
        const long D = s.D, F = s.F > 0 ? s.F : 2 * D;
        // embeddings 53·D; encoder: in_proj 3D·D + 3D, out_proj D·D + D, linear1 F·D + F,
        // linear2 D·F + D, two norms 2·2D; decoder: two attentions, the same FFN, three
        // norms; output 13·D + 13
        const long formula = 53 * D + (4 * D * D + 4 * D + 2 * D * F + F + D + 4 * D) +
                             (8 * D * D + 8 * D + 2 * D * F + F + D + 6 * D) + 13 * D + 13;
        CHECK(parameter_count(config) == formula);
        Model model = make_model(config);
        long allocated = 0;
        const std::vector<NamedTensor> tensors = named_tensors(model.params);
        for (const NamedTensor& t : tensors) allocated += long(t.size);
        CHECK(allocated == formula);
        CHECK(tensors.size() == size_t(transformer_tensor_count));
        long spans = 0;
        for (const TensorSpan& t : tensor_spans(model.params)) spans += long(t.size);
        CHECK(spans == formula);
    }
    CHECK_THROWS_AS(make_model(transformer(64, 3, Memory::all)), std::invalid_argument);
    CHECK_THROWS_AS(make_model(transformer(12, 8, Memory::all)), std::invalid_argument);
}

TEST_CASE("transformer: tensor names and shapes are PyTorch's") {
    const Model model = make_model(transformer(8, 2, Memory::all, 12));
    std::vector<std::pair<std::string, std::vector<size_t>>> got;
    for (const ConstNamedTensor& t : named_tensors(model.params)) got.push_back({t.name, t.shape});
    REQUIRE(got.size() == 34);
    using Row = std::pair<std::string, std::vector<size_t>>;
    CHECK(got[0] == Row{"encoder.embedding.weight", {40, 8}});
    CHECK(got[1] == Row{"encoder.layers.0.self_attn.in_proj_weight", {24, 8}});
    CHECK(got[2] == Row{"encoder.layers.0.self_attn.in_proj_bias", {24}});
    CHECK(got[3] == Row{"encoder.layers.0.self_attn.out_proj.weight", {8, 8}});
    CHECK(got[5] == Row{"encoder.layers.0.linear1.weight", {12, 8}});
    CHECK(got[7] == Row{"encoder.layers.0.linear2.weight", {8, 12}});
    CHECK(got[12] == Row{"encoder.layers.0.norm2.bias", {8}});
    CHECK(got[13] == Row{"decoder.embedding.weight", {13, 8}});
    CHECK(got[18] == Row{"decoder.layers.0.multihead_attn.in_proj_weight", {24, 8}});
    CHECK(got[31] == Row{"decoder.layers.0.norm3.bias", {8}});
    CHECK(got[32] == Row{"decoder.out.weight", {13, 8}});
    CHECK(got[33] == Row{"decoder.out.bias", {13}});
}

TEST_CASE("transformer: sinusoidal positions, hand-worked") {
    const int T = 3, D = 4;
    std::vector<float> pe(size_t(T) * D);
    sinusoid_positions(pe.data(), T, D);
    // position 0: sin 0 = 0 in even columns, cos 0 = 1 in odd ones
    CHECK(pe[0] == 0.0f);
    CHECK(pe[1] == 1.0f);
    CHECK(pe[2] == 0.0f);
    CHECK(pe[3] == 1.0f);
    // position 1: columns 0, 1 at frequency 1; columns 2, 3 at 1/10000^(2/4) = 0.01
    CHECK(pe[4] == Approx(0.8414710));   // sin 1
    CHECK(pe[5] == Approx(0.5403023));   // cos 1
    CHECK(pe[6] == Approx(0.0099998));   // sin 0.01
    CHECK(pe[7] == Approx(0.9999500));   // cos 0.01
    // position 2
    CHECK(pe[8] == Approx(0.9092974));   // sin 2
    CHECK(pe[11] == Approx(0.9998000));  // cos 0.02
}

TEST_CASE("transformer: layer norm, hand-worked") {
    // x = (1, 2, 3, 4): μ = 2.5, σ² = 1.25, so x̂ = (x − 2.5)/√1.25005
    const float x[4] = {1, 2, 3, 4}, gamma[4] = {1, 1, 2, 1}, beta[4] = {0, 0, 0, 0.5f};
    float y[4], xhat[4], rstd[1];
    layer_norm_forward(y, xhat, rstd, x, gamma, beta, 1, 4);
    CHECK(rstd[0] == Approx(0.8944236));
    CHECK(y[0] == Approx(-1.3416355));
    CHECK(y[1] == Approx(-0.4472118));
    CHECK(y[2] == Approx(2 * 0.4472118));
    CHECK(y[3] == Approx(1.3416355 + 0.5));
}

TEST_CASE("gradient check: layer norm") {
    Rng rng(21);
    const int N = 5, D = 6;
    std::vector<float> x = random_vector(size_t(N) * D, rng, 2.0f);
    std::vector<float> gamma = random_vector(size_t(D), rng), beta = random_vector(size_t(D), rng);
    std::vector<float> y(x.size()), xhat(x.size()), rstd(static_cast<size_t>(N));
    const std::vector<float> w = random_vector(y.size(), rng);
    auto loss = [&] {
        layer_norm_forward(y.data(), xhat.data(), rstd.data(), x.data(), gamma.data(),
                           beta.data(), N, D);
        return weighted_sum(y.data(), w);
    };
    loss();
    std::vector<float> dx(x.size(), 0.0f), dgamma(size_t(D), 0.0f), dbeta(size_t(D), 0.0f);
    layer_norm_backward(dx.data(), dgamma.data(), dbeta.data(), w.data(), xhat.data(), rstd.data(),
                        gamma.data(), N, D);
    check_gradient("layer norm x", x.data(), dx.data(), x.size(), loss);
    check_gradient("layer norm weight", gamma.data(), dgamma.data(), gamma.size(), loss);
    check_gradient("layer norm bias", beta.data(), dbeta.data(), beta.size(), loss);
}

TEST_CASE("gradient check: feed-forward") {
    Rng rng(22);
    const int N = 4, D = 5, F = 7;
    FeedForwardParams p = make_feed_forward_params(D, F);
    for (auto* t : {&p.linear1_weight, &p.linear2_weight})
        for (float& v : *t) v = rng.uniform(-0.8f, 0.8f);
    for (auto* t : {&p.linear1_bias, &p.linear2_bias})
        for (float& v : *t) v = rng.uniform(-0.3f, 0.3f);
    std::vector<float> x = random_vector(size_t(N) * D, rng);
    std::vector<float> y(x.size()), hidden(size_t(N) * F), dhidden(hidden.size());
    const std::vector<float> w = random_vector(y.size(), rng);
    auto loss = [&] {
        feed_forward_forward(y.data(), hidden.data(), x.data(), p, N, D, F);
        return weighted_sum(y.data(), w);
    };
    loss();
    int active = 0;
    for (float h : hidden) active += h > 0;
    CHECK(active > 0);                     // both sides of the ReLU are exercised
    CHECK(active < int(hidden.size()));
    FeedForwardParams dp = make_feed_forward_params(D, F);
    std::vector<float> dx(x.size(), 0.0f);
    feed_forward_backward(dx.data(), dp, dhidden.data(), w.data(), x.data(), hidden.data(), p, N,
                          D, F);
    check_gradient("ffn x", x.data(), dx.data(), x.size(), loss);
    check_gradient("linear1.weight", p.linear1_weight.data(), dp.linear1_weight.data(),
                   p.linear1_weight.size(), loss);
    check_gradient("linear1.bias", p.linear1_bias.data(), dp.linear1_bias.data(),
                   p.linear1_bias.size(), loss);
    check_gradient("linear2.weight", p.linear2_weight.data(), dp.linear2_weight.data(),
                   p.linear2_weight.size(), loss);
    check_gradient("linear2.bias", p.linear2_bias.data(), dp.linear2_bias.data(),
                   p.linear2_bias.size(), loss);
}

TEST_CASE("gradient check: multi-head attention, causal self-attention and padded cross-attention") {
    struct Case { const char* name; bool self, causal; int Tq, Tk, A; std::vector<int> key_len; };
    for (const Case& c : {Case{"self, key padding", true, false, 5, 5, 2, {5, 2, 4}},
                          Case{"self, causal + key padding", true, true, 5, 5, 2, {5, 2, 4}},
                          Case{"cross, key padding", false, false, 3, 6, 4, {6, 1, 4}},
                          Case{"cross, one head", false, false, 4, 5, 1, {2, 5, 3}}}) {
        CAPTURE(c.name);
        Rng rng(23);
        const int B = 3, D = 8, Tq = c.Tq, Tk = c.Tk, A = c.A;
        MultiheadAttentionParams p = make_multihead_attention_params(D);
        randomise(p, rng);
        std::vector<float> xq = random_vector(size_t(B) * Tq * D, rng);
        std::vector<float> xkv = c.self ? std::vector<float>{} : random_vector(size_t(B) * Tk * D, rng);
        float* kv_source = c.self ? xq.data() : xkv.data();
        std::vector<float> out(size_t(B) * Tq * D);
        const std::vector<float> w = random_vector(out.size(), rng);
        AttentionStore store(B, Tq, Tk, D, A);
        MultiheadAttentionCache cache = store.view();
        auto loss = [&] {
            multihead_attention_forward(out.data(), cache, xq.data(), kv_source, c.key_len.data(),
                                        c.causal, p, B, Tq, Tk, D, A);
            return weighted_sum(out.data(), w);
        };
        loss();
        // every row of α sums to 1 over its allowed keys and is 0 elsewhere
        for (int b = 0; b < B; ++b)
            for (int a = 0; a < A; ++a)
                for (int i = 0; i < Tq; ++i) {
                    const float* row = store.alpha.data() + ((size_t(b) * A + a) * Tq + i) * Tk;
                    const int allowed = std::min(c.key_len[size_t(b)], c.causal ? i + 1 : Tk);
                    double sum = 0;
                    for (int j = 0; j < Tk; ++j) {
                        if (j >= allowed) CHECK(row[j] == 0.0f);
                        sum += row[j];
                    }
                    CHECK(sum == Approx(1.0).epsilon(1e-5));
                }
        MultiheadAttentionParams dp = make_multihead_attention_params(D);
        std::vector<float> dxq(xq.size(), 0.0f), dxkv(xkv.size(), 0.0f);
        float* dkv_target = c.self ? dxq.data() : dxkv.data();
        multihead_attention_backward(dxq.data(), dkv_target, dp, cache, w.data(), xq.data(),
                                     kv_source, c.key_len.data(), c.causal, p, B, Tq, Tk, D, A);
        check_gradient("queries", xq.data(), dxq.data(), xq.size(), loss);
        if (!c.self) {
            check_gradient("keys and values", xkv.data(), dxkv.data(), xkv.size(), loss);
            // padded key positions get exactly zero gradient
            for (int b = 0; b < B; ++b)
                for (int j = c.key_len[size_t(b)]; j < Tk; ++j)
                    for (int i = 0; i < D; ++i) CHECK(dxkv[(size_t(b) * Tk + j) * D + i] == 0.0f);
        }
        check_gradient("in_proj_weight", p.in_proj_weight.data(), dp.in_proj_weight.data(),
                       p.in_proj_weight.size(), loss);
        check_gradient("in_proj_bias", p.in_proj_bias.data(), dp.in_proj_bias.data(),
                       p.in_proj_bias.size(), loss);
        check_gradient("out_proj.weight", p.out_proj_weight.data(), dp.out_proj_weight.data(),
                       p.out_proj_weight.size(), loss);
        check_gradient("out_proj.bias", p.out_proj_bias.data(), dp.out_proj_bias.data(),
                       p.out_proj_bias.size(), loss);
    }
}

TEST_CASE("gradient check: embedding with positions") {
    Rng rng(24);
    const int B = 2, T = 3, D = 4, V = 5;
    std::vector<float> weight = random_vector(size_t(V) * D, rng), pe(size_t(T) * D);
    sinusoid_positions(pe.data(), T, D);
    const std::vector<int32_t> ids = {3, 0, 3, 4, 1, 3};  // repeated ids must accumulate
    std::vector<float> out(size_t(B) * T * D);
    const std::vector<float> w = random_vector(out.size(), rng);
    auto loss = [&] {
        embed_positions_forward(out.data(), ids.data(), weight.data(), pe.data(), 2.0f, B, T, D);
        return weighted_sum(out.data(), w);
    };
    loss();
    CHECK(out[5] == Approx(2 * weight[size_t(0) * D + 1] + pe[size_t(1) * D + 1]));
    std::vector<float> dweight(weight.size(), 0.0f);
    embed_positions_backward(dweight.data(), w.data(), ids.data(), 2.0f, B, T, D);
    check_gradient("embedding.weight", weight.data(), dweight.data(), weight.size(), loss);
    for (int e = 0; e < D; ++e) CHECK(dweight[size_t(2) * D + e] == 0.0f);  // id 2 unused
}

TEST_CASE("gradient check: whole transformer, both memories") {
    for (Memory memory : {Memory::all, Memory::first}) {
        CAPTURE(memory_name(memory));
        const ModelConfig config = transformer(8, 2, memory, 12);
        Model model = random_transformer(config, 25);
        keep_away_from_relu_kinks(model, 25);
        Rng rng(26);
        const Batch batch = ragged_batch(rng);
        Activations acts;
        auto loss = [&] {
            model_forward(acts, batch, model);
            return summed_loss(acts.transformer.logits.data(), batch);
        };
        loss();
        Params grads = make_params(config);
        zero_params(grads);
        model_backward(grads, acts, batch, model);
        // first: only position 0 reaches the decoder, so the embeddings of
        // tokens that never sit there may have no gradient at all
        const std::string skip = memory == Memory::first ? "encoder.embedding.weight" : "";
        for (const ConstNamedTensor& t : named_tensors(std::as_const(grads)))
            if (t.name == skip) CHECK(*std::max_element(t.data, t.data + t.size) != 0.0f);
        check_model_gradients(model, grads, batch.B * output_length, loss, skip);
    }
}

TEST_CASE("transformer: padding does not change a row's outputs") {
    for (Memory memory : {Memory::all, Memory::first}) {
        CAPTURE(memory_name(memory));
        const Model model = random_transformer(transformer(8, 2, memory, 12), 27);
        Rng rng(28);
        const Batch batch = ragged_batch(rng);
        const Batch wide = widen(batch, 4);
        // the same rows again, each alone (no padding at all)
        Activations a, b, c;
        const float loss = model_forward(a, batch, model);
        const float wide_loss = model_forward(b, wide, model);
        CHECK(wide_loss == Approx(loss).epsilon(1e-6));
        const size_t per_row = size_t(output_length) * output_vocab_size;
        for (int r = 0; r < batch.B; ++r) {
            CAPTURE(r);
            const std::vector<Example> one = {{std::string(), "1977-09-19", 0}};
            Batch alone;
            alone.B = 1;
            alone.S = batch.src_len[size_t(r)];
            alone.src_len = {alone.S};
            alone.src = xt::zeros<int32_t>({size_t(1), size_t(alone.S)});
            for (int j = 0; j < alone.S; ++j) alone.src(0, j) = batch.src(r, j);
            alone.dec_in = xt::zeros<int32_t>({size_t(1), size_t(output_length)});
            alone.dec_out = xt::zeros<int32_t>({size_t(1), size_t(output_length)});
            for (int t = 0; t < output_length; ++t) {
                alone.dec_in(0, t) = batch.dec_in(r, t);
                alone.dec_out(0, t) = batch.dec_out(r, t);
            }
            model_forward(c, alone, model);
            for (size_t i = 0; i < per_row; ++i) {
                const float want = a.transformer.logits[size_t(r) * per_row + i];
                CHECK(b.transformer.logits[size_t(r) * per_row + i] == Approx(want).epsilon(1e-5));
                CHECK(c.transformer.logits[i] == Approx(want).epsilon(1e-5));
            }
        }
    }
}

TEST_CASE("transformer: the decoder's causal mask hides later inputs") {
    const Model model = random_transformer(transformer(8, 4, Memory::all, 12), 29);
    Rng rng(30);
    const Batch batch = ragged_batch(rng);
    Activations a, b;
    model_forward(a, batch, model);
    const int changed = 6;
    Batch later = batch;
    for (int r = 0; r < batch.B; ++r) later.dec_in(r, changed) = 2 + (batch.dec_in(r, changed) - 1) % 11;
    model_forward(b, later, model);
    const int V = output_vocab_size;
    for (int r = 0; r < batch.B; ++r)
        for (int t = 0; t < output_length; ++t) {
            CAPTURE(r);
            CAPTURE(t);
            const float* x = a.transformer.logits.data() + (size_t(r) * output_length + t) * V;
            const float* y = b.transformer.logits.data() + (size_t(r) * output_length + t) * V;
            double difference = 0;
            for (int v = 0; v < V; ++v) difference += std::fabs(double(x[v]) - y[v]);
            if (t < changed) CHECK(difference == 0.0);  // bit for bit: masked weights are 0
            else CHECK(difference > 1e-3);              // the change does reach t ≥ 6
        }
}

TEST_CASE("transformer: cached greedy decoding equals the teacher-forced model fed its own outputs") {
    for (Memory memory : {Memory::all, Memory::first}) {
        CAPTURE(memory_name(memory));
        // briefly trained, so that the outputs vary from step to step as dates do
        const Model model = briefly_trained(transformer(16, 4, memory));
        Batch batch = make_batch(date_task(), four_examples(), {0, 1, 2, 3});
        Activations decoding;
        // teacher forcing with the decoder's own outputs as the previous characters; not one
        // character repeated: a real test of the path
        CHECK(follow_greedy_path(batch, decoding, model) >= 3);
        Activations forced;
        model_forward(forced, batch, model);
        const int V = output_vocab_size;
        for (int r = 0; r < batch.B; ++r)
            for (int t = 0; t < output_length; ++t) {
                CAPTURE(r);
                CAPTURE(t);
                const size_t at = (size_t(r) * output_length + t) * V;
                CHECK(argmax_character(forced.transformer.logits.data() + at) ==
                      decoding.tokens[size_t(r) * output_length + t]);
                for (int v = 0; v < V; ++v)
                    CHECK(decoding.transformer.logits[at + size_t(v)] ==
                          Approx(forced.transformer.logits[at + size_t(v)]).epsilon(1e-4));
                // and the same cross-attention weights
                for (int h = 0; h < 4; ++h)
                    for (int j = 0; j < batch.S; ++j) {
                        const size_t k = ((size_t(r) * 4 + h) * output_length + t) * batch.S + j;
                        CHECK(decoding.transformer.cross_attn.alpha[k] ==
                              Approx(forced.transformer.cross_attn.alpha[k]).epsilon(1e-4));
                    }
            }
    }
}

TEST_CASE("transformer: decoding returns the cross-attention map, mean and per head") {
    for (Memory memory : {Memory::all, Memory::first}) {
        CAPTURE(memory_name(memory));
        const Model model = random_transformer(transformer(16, 4, memory), 32, 1.0f);
        std::string error;
        const std::string text = "monday 19 september 1977";
        const std::vector<int> tokens = encode_user_input(date_task(), text, error);
        REQUIRE(!tokens.empty());
        const Decoded d = decode_tokens(tokens, model);
        const size_t T = output_length, L = text.size();
        REQUIRE(d.output.size() == T);
        REQUIRE(d.attention.shape()[0] == T);
        REQUIRE(d.attention.shape()[1] == L);
        REQUIRE(d.heads.shape()[0] == 4);
        REQUIRE(d.heads.shape()[1] == T);
        REQUIRE(d.heads.shape()[2] == L);
        for (size_t t = 0; t < T; ++t) {
            double row = 0;
            for (size_t j = 0; j < L; ++j) {
                double mean = 0;
                for (size_t h = 0; h < 4; ++h) mean += d.heads(h, t, j) / 4.0;
                CHECK(d.attention(t, j) == Approx(mean).epsilon(1e-5));
                row += d.attention(t, j);
            }
            CHECK(row == Approx(1.0).epsilon(1e-5));
            if (memory == Memory::first) CHECK(d.attention(t, 0) == Approx(1.0));
        }
        // the encoder's self-attention: each head's rows sum to 1 over the L positions
        REQUIRE(d.encoder_self_attention.shape()[0] == 4);
        REQUIRE(d.encoder_self_attention.shape()[1] == L);
        REQUIRE(d.encoder_self_attention.shape()[2] == L);
        for (size_t h = 0; h < 4; ++h)
            for (size_t i = 0; i < L; ++i) {
                double row = 0;
                for (size_t j = 0; j < L; ++j) row += d.encoder_self_attention(h, i, j);
                CHECK(row == Approx(1.0).epsilon(1e-5));
            }
        // the same through decode_examples, in a batch with a longer string
        const std::vector<Example> examples = {{text, "1977-09-19", 1}, format_date(1953, 9, 30, 1)};
        const std::vector<Decoded> batch = decode_examples(examples, model);
        CHECK(batch[0].output == d.output);
        REQUIRE(batch[0].attention.shape()[1] == L);
        for (size_t t = 0; t < T; ++t)
            for (size_t j = 0; j < L; ++j)
                CHECK(batch[0].attention(t, j) == Approx(d.attention(t, j)).epsilon(1e-5));
        for (size_t i = 0; i < L; ++i)
            for (size_t j = 0; j < L; ++j)
                CHECK(batch[0].encoder_self_attention(1, i, j) ==
                      Approx(d.encoder_self_attention(1, i, j)).epsilon(1e-5));
    }
}

TEST_CASE("gradient check: whole transformer with dropout (the masks held fixed)") {
    ModelConfig config = transformer(8, 2, Memory::all, 12);
    config.dropout = 0.25f;
    Model model = random_transformer(config, 35);
    keep_away_from_relu_kinks(model, 35);
    Rng rng(36);
    const Batch batch = ragged_batch(rng);
    Activations acts;
    // the same generator state on every call draws the same masks
    auto loss = [&] {
        Rng masks(37);
        model_forward(acts, batch, model, &masks);
        return summed_loss(acts.transformer.logits.data(), batch);
    };
    const double with_dropout = loss();
    // some units really are dropped: without the generator the loss differs
    Activations plain;
    model_forward(plain, batch, model);
    CHECK(std::fabs(summed_loss(plain.transformer.logits.data(), batch) - with_dropout) > 1e-3);
    Params grads = make_params(config);
    zero_params(grads);
    model_backward(grads, acts, batch, model);
    check_model_gradients(model, grads, batch.B * output_length, loss);
}

TEST_CASE("transformer: a short fixed-seed training run lowers the loss, deterministically") {
    const Splits data = make_date_splits(3, 600, 60);
    for (float dropout : {0.0f, 0.1f}) {
        CAPTURE(dropout);
        TrainerConfig config;
        config.model = transformer(16, 2, Memory::all);
        config.model.dropout = dropout;
        config.epochs = 2;
        config.evaluate_each_epoch = false;
        Trainer first(config, data), second(config, data);
        first.step(1000);
        second.step(1000);
        REQUIRE(first.loss_history().size() == 20);
        CHECK(first.loss_history() == second.loss_history());
        float early = 0, late = 0;
        for (int i = 0; i < 3; ++i) early += first.loss_history()[size_t(i)];
        for (int i = 17; i < 20; ++i) late += first.loss_history()[size_t(i)];
        CHECK(late < 0.8f * early);
    }
}

TEST_CASE("transformer: weights round-trip through safetensors with their configuration") {
    ModelConfig config = transformer(16, 2, Memory::first, 24);
    const Model model = random_transformer(config, 34);
    const SafetensorsContent content = model_to_safetensors(model, {{"seed", "7"}});
    CHECK(content.metadata.at("model") == "transformer");
    CHECK(content.metadata.at("memory") == "first");
    CHECK(content.metadata.at("heads") == "2");
    CHECK(content.metadata.at("ffn") == "24");
    CHECK(content.metadata.at("width") == "16");
    REQUIRE(content.tensors.size() == 34);
    CHECK(content.find("decoder.layers.0.multihead_attn.out_proj.weight") != nullptr);
    const std::vector<uint8_t> bytes = encode_safetensors(content);
    const Model back = load_model(bytes.data(), bytes.size());
    CHECK(back.config.decoder == DecoderKind::transformer);
    CHECK(back.config.memory == Memory::first);
    CHECK(back.config.heads == 2);
    CHECK(transformer_config(back.config).F == 24);
    const std::vector<ConstNamedTensor> a = named_tensors(model.params), b = named_tensors(back.params);
    REQUIRE(a.size() == b.size());
    for (size_t k = 0; k < a.size(); ++k) {
        CAPTURE(a[k].name);
        CHECK(a[k].name == b[k].name);
        CHECK(std::equal(a[k].data, a[k].data + a[k].size, b[k].data));
    }
    // the default feed-forward width reads back as the default (ffn = 0 → 2H)
    const Model default_ffn = make_model(transformer(16, 2, Memory::all));
    const std::vector<uint8_t> default_bytes = encode_safetensors(model_to_safetensors(default_ffn));
    CHECK(load_model(default_bytes.data(), default_bytes.size()).config.ffn == 0);
    // into a model of another configuration: refused, and nothing changes
    Model other = make_model(transformer(16, 4, Memory::first, 24));
    CHECK_THROWS_AS(load_weights_into(other, content), SafetensorsError);
    SafetensorsContent garbled = content;
    garbled.metadata["memory"] = "last";
    CHECK_THROWS_WITH_AS(model_from_safetensors(garbled), doctest::Contains("must be all or first, not 'last'"),
                         SafetensorsError);
    garbled = content;
    garbled.metadata["heads"] = "3";
    CHECK_THROWS_AS(model_from_safetensors(garbled), SafetensorsError);
}
