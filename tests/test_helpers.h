// tests/test_helpers.h — what several test files share, kept in one place so
// that they check alike: the central-difference gradient check (the header of
// test_gradients.cpp explains its step and tolerances), a hand-made ragged
// batch, randomised and briefly trained models, the padding and greedy-path
// checks that every model family passes.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>
#ifndef __EMSCRIPTEN__
#include <unistd.h>
#endif

#include "data/dataset.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "training/trainer.h"

namespace lb::testing {

constexpr double step = 1e-2;
constexpr double rtol = 1e-2;
constexpr double atol_fraction = 1e-3;
// A whole model's loss sums 30 cross-entropies of float logits: its rounding
// noise is ~3e-7, which a difference quotient with h = 1e-2 turns into
// ~1.5e-5 (measured).
constexpr double whole_model_noise_floor = 1e-4;

inline std::vector<float> random_vector(size_t n, Rng& rng, float scale = 1.0f) {
    std::vector<float> v(n);
    for (float& x : v) x = rng.uniform(-scale, scale);
    return v;
}

// L = Σ w_i y_i in double: a layer's output reduced to one number.
inline double weighted_sum(const float* y, const std::vector<float>& w) {
    double sum = 0;
    for (size_t i = 0; i < w.size(); ++i) sum += double(w[i]) * y[i];
    return sum;
}

// Compares analytic[i] with the central difference of loss() in x[i], for every i.
// A loss of NaN marks a step that crossed a kink of a piecewise function (local
// attention's window, which moves in whole positions): that element is not
// compared, and such elements must stay rare (at most 1 in 20).
inline void check_gradient(const std::string& name, float* x, const float* analytic, size_t n,
                           const std::function<double()>& loss, double noise_floor = 1e-6) {
    const std::vector<float> want(analytic, analytic + n);  // backward may reuse the buffer
    double largest = 0;
    for (float g : want) largest = std::max(largest, double(std::fabs(g)));
    INFO("tensor ", name, ", max |analytic| = ", largest);
    REQUIRE(largest > 10 * noise_floor);  // else an all-zero gradient would pass vacuously
    const double atol = atol_fraction * largest + noise_floor;
    int failures = 0;
    size_t kinks = 0;
    size_t worst = 0;
    double worst_excess = -1, worst_numeric = 0;
    for (size_t i = 0; i < n; ++i) {
        const float saved = x[i];
        x[i] = float(saved + step);
        const double up = loss();
        x[i] = float(saved - step);
        const double down = loss();
        x[i] = saved;
        if (std::isnan(up) || std::isnan(down)) {
            ++kinks;
            continue;
        }
        // the step actually taken in float
        const double numeric = (up - down) / (double(float(saved + step)) - double(float(saved - step)));
        const double error = std::fabs(numeric - want[i]);
        const double bound = atol + rtol * std::fabs(want[i]);
        if (error > bound) ++failures;
        if (error / bound > worst_excess) {
            worst_excess = error / bound;
            worst = i;
            worst_numeric = numeric;
        }
    }
    INFO("worst element ", worst, ": numeric ", worst_numeric, " analytic ", want[worst],
         " (error/bound ", worst_excess, ")");
    CHECK(failures == 0);
    CHECK(kinks * 20 <= n);
}

// A hand-made ragged batch: B = 3 rows of lengths 6, 3, 5 (S = 6).
inline Batch ragged_batch(Rng& rng) {
    Batch batch;
    batch.B = 3;
    batch.S = 6;
    batch.src_len = {6, 3, 5};
    batch.src = xt::zeros<int32_t>({size_t(3), size_t(6)});
    batch.dec_in = xt::zeros<int32_t>({size_t(3), size_t(output_length)});
    batch.dec_out = xt::zeros<int32_t>({size_t(3), size_t(output_length)});
    for (int b = 0; b < 3; ++b) {
        for (int j = 0; j < batch.src_len[size_t(b)]; ++j)
            batch.src(b, j) = 1 + int(rng.below(input_vocab_size - 1));
        batch.dec_in(b, 0) = start_token;
        for (int t = 0; t < output_length; ++t) {
            batch.dec_out(b, t) = 2 + int(rng.below(output_vocab_size - 2));
            if (t + 1 < output_length) batch.dec_in(b, t + 1) = batch.dec_out(b, t);
        }
    }
    return batch;
}

// The sum (not the mean) over the batch's B·T tokens of the cross-entropies,
// in double from the logits [B, T, 13]: the float mean model_forward returns
// is quantised to ~4e-6, too coarse for a difference quotient.
inline double summed_loss(const float* logits, const Batch& batch) {
    const int N = batch.B * output_length, V = output_vocab_size;
    double sum = 0;
    for (int n = 0; n < N; ++n) {
        const float* z = logits + size_t(n) * V;
        double max = z[0], exps = 0;
        for (int v = 1; v < V; ++v) max = std::max(max, double(z[v]));
        for (int v = 0; v < V; ++v) exps += std::exp(double(z[v]) - max);
        sum += std::log(exps) + max - z[batch.dec_out.data()[n]];
    }
    return sum;
}

// Every parameter tensor of model against grads, what model_backward gave for
// the MEAN over n tokens; loss() is their SUM, so the gradients are scaled by
// n first. skip: a tensor the caller checks its own way.
inline void check_model_gradients(Model& model, const Params& grads, int n,
                                  const std::function<double()>& loss, const std::string& skip = "") {
    std::vector<NamedTensor> params = named_tensors(model.params);
    const std::vector<ConstNamedTensor> dparams = named_tensors(grads);
    REQUIRE(params.size() == dparams.size());
    for (size_t k = 0; k < params.size(); ++k) {
        if (params[k].name == skip) continue;
        std::vector<float> scaled(dparams[k].data, dparams[k].data + dparams[k].size);
        for (float& g : scaled) g *= float(n);
        check_gradient(params[k].name, params[k].data, scaled.data(), params[k].size, loss,
                       whole_model_noise_floor);
    }
}

// init_params' weights, and biases (zero after init) given values so that they matter.
inline Model random_model(const ModelConfig& config, uint64_t seed) {
    Model model = make_model(config);
    Rng rng(seed);
    init_params(model.params, rng);
    for (NamedTensor& t : named_tensors(model.params))
        if (t.name.find("bias") != std::string::npos)
            for (size_t i = 0; i < t.size; ++i) t.data[i] = rng.uniform(-0.3f, 0.3f);
    return model;
}

// Three inputs of very different lengths (9, 27 and 19 characters).
inline std::vector<Example> three_examples() {
    return {format_date(1994, 3, 19, 0), format_date(1953, 9, 30, 1), format_date(1977, 9, 19, 4)};
}

// Three epochs on 600 strings: enough to write date-like strings.
inline Model briefly_trained(const ModelConfig& config) {
    const Splits data = make_date_splits(5, 600, 6);
    TrainerConfig tc;
    tc.model = config;
    tc.learning_rate = 3e-3f;
    tc.epochs = 3;
    tc.evaluate_each_epoch = false;
    Trainer trainer(tc, data);
    trainer.step(1000);
    return trainer.model();
}

// The mean's gradient is linear in the rows: with mixed = alone's row among
// others' rows, 3·g(mixed) − 2·g(others) = g(alone), to float rounding of the
// batch gradients amplified ×3 by the subtraction.
inline void check_gradient_linear_in_rows(const Model& model, const Batch& alone, const Batch& mixed,
                                          const Batch& others) {
    Activations a1, a3, a2;
    model_forward(a1, alone, model);
    model_forward(a3, mixed, model);
    model_forward(a2, others, model);
    Params g1 = make_params(model.config), g3 = make_params(model.config), g2 = make_params(model.config);
    zero_params(g1);
    zero_params(g3);
    zero_params(g2);
    model_backward(g1, a1, alone, model);
    model_backward(g3, a3, mixed, model);
    model_backward(g2, a2, others, model);
    const auto t1 = named_tensors(g1), t3 = named_tensors(g3), t2 = named_tensors(g2);
    for (size_t k = 0; k < t1.size(); ++k) {
        CAPTURE(t1[k].name);
        double largest = 0, worst = 0;
        for (size_t i = 0; i < t1[k].size; ++i) {
            const double want = t1[k].data[i];
            const double got = 3.0 * t3[k].data[i] - 2.0 * t2[k].data[i];
            largest = std::max(largest, std::fabs(want));
            worst = std::max(worst, std::fabs(got - want));
        }
        CHECK(worst <= 1e-4 * largest + 1e-7);
    }
}

// The argmax over the real characters of one step's logits [13], written
// out again here (the core's is greedy_character).
inline int argmax_character(const float* row) {
    int best = start_token + 1;
    for (int v = best + 1; v < output_vocab_size; ++v)
        if (row[v] > row[best]) best = v;
    return best;
}

// Four dates in four formats: the greedy-path tests' inputs.
inline std::vector<Example> four_examples() {
    return {format_date(1994, 3, 19, 0), format_date(1953, 9, 30, 1), format_date(1977, 9, 19, 4),
            format_date(2003, 8, 4, 2)};
}

// Greedy decoding of batch into decoding; then the batch's targets and
// previous characters become what it wrote, so that teacher forcing follows
// the greedy path. Returns how many different characters it wrote.
inline size_t follow_greedy_path(Batch& batch, Activations& decoding, const Model& model) {
    greedy_decode_batch(decoding, batch.src.data(), batch.src_len.data(), batch.B, batch.S, model);
    std::vector<int> distinct;
    for (int r = 0; r < batch.B; ++r) {
        batch.dec_in(r, 0) = start_token;
        for (int t = 0; t < output_length; ++t) {
            const int token = decoding.tokens[size_t(r) * output_length + t];
            batch.dec_out(r, t) = token;
            if (t + 1 < output_length) batch.dec_in(r, t + 1) = token;
            if (std::find(distinct.begin(), distinct.end(), token) == distinct.end())
                distinct.push_back(token);
        }
    }
    return distinct.size();
}

// What a command printed. Natively stdout and stderr point at files while it runs; the wasm suite
// cannot point them anywhere (emscripten's dup reopens a descriptor by its path, and the standard
// streams have none), so there only the exit code is kept and `captured` is false.
struct Printed {
    int code = 0;
    std::string out, err;
    bool captured = false;
};
inline Printed printed_by(const std::function<int()>& command) {
    Printed printed;
#ifdef __EMSCRIPTEN__
    printed.code = command();
#else
    std::fflush(stdout);
    std::fflush(stderr);
    FILE* files[2] = {std::tmpfile(), std::tmpfile()};
    REQUIRE(files[0]);
    REQUIRE(files[1]);
    const int saved[2] = {dup(1), dup(2)};
    dup2(fileno(files[0]), 1);
    dup2(fileno(files[1]), 2);
    printed.code = command();
    std::fflush(stdout);
    std::fflush(stderr);
    dup2(saved[0], 1);
    dup2(saved[1], 2);
    for (int k = 0; k < 2; ++k) {
        close(saved[k]);
        std::rewind(files[k]);
        std::string& text = k == 0 ? printed.out : printed.err;
        char buffer[4096];
        for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, files[k])) > 0;) text.append(buffer, n);
        std::fclose(files[k]);
    }
    printed.captured = true;
#endif
    return printed;
}

}  // namespace lb::testing
