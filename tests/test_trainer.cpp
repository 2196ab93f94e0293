// Initialisation, Adam, and the incremental trainer: bounded steps, epochs,
// determinism, and a short fixed-seed run whose loss must fall.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "data/dataset.h"
#include "data/metrics.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "training/trainer.h"

using namespace lb;
using doctest::Approx;

namespace {
// Held-out metrics by another path than the trainer's SplitEvaluator: decode_examples decodes
// every string, evaluate_predictions scores them.
Metrics held_out_metrics(const Model& model, const std::vector<Example>& examples) {
    std::vector<std::string> predictions;
    for (const Decoded& d : decode_examples(examples, model, false)) predictions.push_back(d.output);
    return evaluate_predictions(date_task(), examples, predictions);
}

double mean(const std::vector<float>& v, size_t first, size_t count) {
    return std::accumulate(v.begin() + long(first), v.begin() + long(first + count), 0.0) /
           double(count);
}
}  // namespace

TEST_CASE("initialisation: Keras-style and deterministic") {
    const ModelConfig config{DecoderKind::attention, Scorer::additive, 16};
    Params a = make_params(config), b = make_params(config), c = make_params(config);
    Rng r1(5), r2(5), r3(6);
    init_params(a, r1);
    init_params(b, r2);
    init_params(c, r3);
    const auto ta = named_tensors(a), tb = named_tensors(b), tc = named_tensors(c);
    bool any_differs = false;
    for (size_t k = 0; k < ta.size(); ++k) {
        CAPTURE(ta[k].name);
        for (size_t i = 0; i < ta[k].size; ++i) {
            CHECK(ta[k].data[i] == tb[k].data[i]);  // same seed, same numbers
            any_differs |= ta[k].data[i] != tc[k].data[i];
        }
    }
    CHECK(any_differs);

    const size_t H = 16, G = 48;
    for (float x : a.enc_embedding) CHECK(std::fabs(x) <= 0.05f);
    for (float x : a.dec_embedding) CHECK(std::fabs(x) <= 0.05f);
    for (float x : a.enc_gru.bias_ih) CHECK(x == 0.0f);
    for (float x : a.out_bias) CHECK(x == 0.0f);
    // Glorot: |w| ≤ √(6 / (fan_in + fan_out)), and the range is actually used
    const float limit_ih = std::sqrt(6.0f / float(32 + G));
    float largest = 0;
    for (float x : a.enc_gru.weight_ih) largest = std::max(largest, std::fabs(x));
    CHECK(largest <= limit_ih);
    CHECK(largest > 0.9f * limit_ih);
    for (float x : a.attention.W_e) CHECK(std::fabs(x) <= std::sqrt(6.0f / float(2 * H)));
    // orthogonal recurrent kernels: weight_hh [3H, H] has orthonormal columns
    for (const GruParams* gru : {&a.enc_gru, &a.dec_gru})
        for (size_t i = 0; i < H; ++i)
            for (size_t j = 0; j < H; ++j) {
                double dot = 0;
                for (size_t r = 0; r < G; ++r) dot += double(gru->weight_hh(r, i)) * gru->weight_hh(r, j);
                CHECK(dot == Approx(i == j ? 1.0 : 0.0).epsilon(1e-5).scale(1.0));
            }
}

TEST_CASE("Adam: the first step moves each weight by about lr against its gradient; clipping") {
    const ModelConfig config{DecoderKind::plain, Scorer::additive, 4};
    Params params = make_params(config), grads = make_params(config);
    Rng rng(3);
    for (const TensorSpan& g : tensor_spans(grads))
        for (size_t i = 0; i < g.size; ++i) g.data[i] = rng.uniform(-1.0f, 1.0f);
    const Params before_grads = grads;
    AdamState state = make_adam_state(config);
    AdamConfig adam;
    adam_update(params, state, grads, adam);
    // m = (1−β1)g, v = (1−β2)g², lr_t = lr·√(1−β2)/(1−β1): Δ = −lr·g/(|g| + ε/√(1−β2))
    const auto p = tensor_spans(params);
    const auto g = tensor_spans(const_cast<Params&>(before_grads));
    for (int k = 0; k < tensor_slots; ++k)
        for (size_t i = 0; i < p[k].size; ++i) {
            const double gi = g[k].data[i];
            const double want = -1e-3 * gi / (std::fabs(gi) + 1e-7 / std::sqrt(1e-3));
            CHECK(p[k].data[i] == Approx(want).epsilon(1e-4).scale(1e-6));
        }
    CHECK(state.t == 1);

    adam.clip_norm = 0.5f;
    CHECK(global_norm(grads) > 1.0f);
    adam_update(params, state, grads, adam);
    CHECK(global_norm(grads) == Approx(0.5f).epsilon(1e-4));  // clipped in place
}

TEST_CASE("trainer: bounded steps, epochs, history, evaluation") {
    const Splits data = make_date_splits(1, 60, 12);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::dot, 8};
    config.batch_size = 16;
    config.epochs = 2;
    Trainer trainer(config, data);
    CHECK(trainer.batches_per_epoch() == 4);  // 16 + 16 + 16 + 12
    CHECK(trainer.step(3) == 3);
    CHECK(trainer.loss_history().size() == 3);
    CHECK(trainer.epoch() == 0);
    CHECK(trainer.batch_in_epoch() == 3);
    CHECK(trainer.step(1) == 1);  // ends the epoch: a record with held-out accuracy
    CHECK(trainer.epoch() == 1);
    CHECK(trainer.examples_seen() == 60);
    REQUIRE(trainer.epoch_history().size() == 1);
    const EpochRecord& record = trainer.epoch_history()[0];
    CHECK(record.epoch == 1);
    CHECK(record.train_loss == Approx(mean(trainer.loss_history(), 0, 4)));
    CHECK(record.exact >= 0.0f);
    CHECK(record.per_char >= 0.0f);
    CHECK(record.per_char <= 1.0f);
    CHECK(trainer.step(100) == 4);  // stops when the configured epochs are done
    CHECK(trainer.done());
    CHECK(trainer.step(1) == 0);
    const Metrics held_out = held_out_metrics(trainer.model(), data.held_out);
    CHECK(held_out.per_char == Approx(trainer.epoch_history()[1].per_char));
    // Each epoch also scores the maps against the known alignment, as the check does in one go;
    // the date task's tokens are characters: no BLEU.
    const auto check = check_alignment(trainer.model(), data.held_out);
    REQUIRE(check);
    CHECK(trainer.epoch_history()[1].aer == Approx(check->map.aer()));
    REQUIRE(trainer.metrics()->alignment);
    CHECK(trainer.metrics()->alignment->totals.steps == check->map.totals.steps);
    CHECK(trainer.metrics()->alignment->mean_linked_mass() == Approx(check->map.mean_linked_mass()));
    CHECK(std::isnan(trainer.epoch_history()[1].bleu));
}

TEST_CASE("trainer: same seed, same numbers; another seed, others") {
    const Splits data = make_date_splits(2, 96, 12);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::additive, 8};
    config.batch_size = 16;
    config.clip_norm = 1.0f;
    Trainer a(config, data), b(config, data);
    a.step(8);
    b.step(5);
    b.step(3);  // the split of the work does not matter
    CHECK(a.loss_history() == b.loss_history());
    config.seed = 2;
    Trainer c(config, data);
    c.step(8);
    CHECK(c.loss_history() != a.loss_history());
}

// A short fixed-seed run (width 16, batches of 16, 300 steps = 4,800 examples,
// lr 1e-2 to make it quick; a fraction of a second natively). The first steps
// sit near ln 13 ≈ 2.56, a uniform guess. Measured (natively): the mean loss of
// the first 20 steps → the last 20 falls 2.19 → 0.12 with additive attention
// (×18) and 2.22 → 0.81 plain (×2.7): attention has already found the
// alignment, plain has learnt the dashes, the year and the frequent digits.
// Required: attention falls by at least ×8, plain by ×2, and attention ends
// below plain — margins for other platforms' rounding, while a broken gradient
// stalls near 2 (the unigram entropy of the targets) and fails both.
TEST_CASE("a short fixed-seed training run: the loss falls") {
    const Splits data = make_date_splits(7, 1200, 6);
    double final_loss[2] = {0, 0};
    for (DecoderKind decoder : {DecoderKind::attention, DecoderKind::plain}) {
        const bool plain = decoder == DecoderKind::plain;
        const std::string name = plain ? "plain" : "attention";
        CAPTURE(name);
        TrainerConfig config;
        config.model = {decoder, Scorer::additive, 16};
        config.batch_size = 16;
        config.epochs = 0;
        config.evaluate_each_epoch = false;
        config.learning_rate = 1e-2f;
        Trainer trainer(config, data);
        CHECK(trainer.step(300) == 300);
        const std::vector<float>& loss = trainer.loss_history();
        const double first = mean(loss, 0, 20), last = mean(loss, 280, 20);
        MESSAGE(name, " loss ", first, " -> ", last);
        CHECK(first > 2.0);
        CHECK(last < first / (plain ? 2.0 : 8.0));
        final_loss[plain] = last;
    }
    CHECK(final_loss[0] < final_loss[1]);
}

// A batch trained in chunks of rows is the same batch: each chunk adds its
// share (rows / B) of the gradient, so after Adam the parameters match one
// whole-batch step up to float summation order. Adam's first step moves a
// weight by −lr·g/(|g| + ε/√(1−β2)): at most lr (1e-3), and by at most
// lr·√(1−β2)/ε ≈ 3e2 per unit of gradient error. The chunks change each
// gradient sum by a few ulps of terms of order 1e-2 (≲ 1e-9), so the weights
// may differ by ≲ 3e-7; we allow 1e-6, a thousandth of a step, where a
// missing or doubly counted chunk moves weights by a good part of lr.
TEST_CASE("trainer: a batch in chunks of rows (5 + 17 + 42) is one whole-batch step") {
    const Splits data = make_date_splits(3, 200, 12);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::additive, 8};
    config.batch_size = 64;
    Trainer whole(config, data), chunked(config, data);
    CHECK(whole.step(1) == 1);
    CHECK(chunked.batch_rows() == 64);
    CHECK(chunked.work(5) == 5);
    CHECK(chunked.rows_into_batch() == 5);
    CHECK(chunked.loss_history().empty());  // no Adam update yet
    CHECK(chunked.work(17) == 17);
    CHECK(chunked.examples_seen() == 22);
    CHECK(chunked.work(1000) == 42);        // never past the batch's end
    CHECK(chunked.rows_into_batch() == 0);
    CHECK(chunked.batch_in_epoch() == 1);
    REQUIRE(chunked.loss_history().size() == 1);
    CHECK(chunked.loss_history()[0] == Approx(whole.loss_history()[0]).epsilon(1e-6));
    const auto a = named_tensors(whole.model().params), b = named_tensors(chunked.model().params);
    double largest = 0;
    for (size_t k = 0; k < a.size(); ++k)
        for (size_t i = 0; i < a[k].size; ++i)
            largest = std::max(largest, std::fabs(double(a[k].data[i]) - b[k].data[i]));
    MESSAGE("largest difference after Adam: ", largest);
    CHECK(largest <= 1e-6);
}

TEST_CASE("trainer: work() across an epoch boundary gives step()'s epoch record") {
    const Splits data = make_date_splits(4, 50, 30);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::dot, 8};
    config.batch_size = 16;  // 16 + 16 + 16 + 2
    config.epochs = 2;
    Trainer by_step(config, data), by_work(config, data);
    CHECK(by_step.step(4) == 4);
    REQUIRE(by_step.epoch_history().size() == 1);

    for (int b = 0; b < 4; ++b) by_work.work(1000);  // whole batches: the same numbers
    CHECK(by_work.phase() == Trainer::Phase::evaluating);
    CHECK(by_work.epoch() == 0);
    CHECK(by_work.epoch_history().empty());
    CHECK(!by_work.metrics());
    CHECK(by_work.fraction_done() == Approx(50.0 / 160));
    int rows = 0;
    while (by_work.phase() == Trainer::Phase::evaluating) {
        const int done = by_work.work(7);
        CHECK(done <= 7);
        rows += done;
    }
    CHECK(rows == 30);
    CHECK(by_work.epoch() == 1);
    CHECK(by_work.loss_history() == by_step.loss_history());
    REQUIRE(by_work.epoch_history().size() == 1);
    const EpochRecord &want = by_step.epoch_history()[0], &got = by_work.epoch_history()[0];
    CHECK(got.train_loss == want.train_loss);
    CHECK(got.exact == want.exact);
    CHECK(got.per_char == want.per_char);
    REQUIRE(by_work.metrics());
    CHECK(by_work.metrics()->count == 30);
    CHECK(float(by_work.metrics()->per_char) == got.per_char);
    const Metrics held_out = held_out_metrics(by_step.model(), data.held_out);
    CHECK(got.exact == float(held_out.exact));
    CHECK(got.per_char == float(held_out.per_char));

    // step() finishes what work() left half done: the batch, then the epoch's evaluation
    CHECK(by_work.work(3) == 3);
    CHECK(by_work.step(4) == 4);
    CHECK(by_work.done());
    CHECK(by_work.fraction_done() == 1.0);
    CHECK(by_work.epoch_history().size() == 2);
    CHECK(by_work.work(10) == 0);
}

TEST_CASE("trainer: a seed gives the same run however the work is split") {
    const Splits data = make_date_splits(5, 70, 10);
    TrainerConfig config;
    config.model = {DecoderKind::plain, Scorer::additive, 8};
    config.batch_size = 16;
    config.epochs = 2;
    Trainer a(config, data), b(config, data), c(config, data);
    a.step(100);
    while (!b.done()) b.work(1000);  // batch by batch: bit for bit
    while (!c.done()) c.work(7);     // chunks that straddle nothing but rows
    CHECK(b.loss_history() == a.loss_history());
    CHECK(b.examples_seen() == a.examples_seen());
    CHECK(c.examples_seen() == a.examples_seen());
    REQUIRE(c.loss_history().size() == a.loss_history().size());
    for (size_t i = 0; i < a.loss_history().size(); ++i)
        CHECK(c.loss_history()[i] == Approx(a.loss_history()[i]).epsilon(1e-5));
    REQUIRE(c.epoch_history().size() == 2);
    for (size_t e = 0; e < 2; ++e) {
        CHECK(b.epoch_history()[e].exact == a.epoch_history()[e].exact);
        CHECK(b.epoch_history()[e].per_char == a.epoch_history()[e].per_char);
        CHECK(c.epoch_history()[e].train_loss == Approx(a.epoch_history()[e].train_loss).epsilon(1e-5));
    }
}

TEST_CASE("trainer: a step that goes non-finite stops the run and keeps the last finite weights") {
    const Splits data = make_date_splits(6, 128, 12);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::additive, 8};
    config.batch_size = 16;
    config.epochs = 50;  // 400 steps, if nothing stopped it
    config.learning_rate = 1e30f;  // each step moves every weight by about 1e30
    Trainer trainer(config, data);
    const auto all_finite = [](const Params& params) {
        for (const ConstNamedTensor& t : named_tensors(params))
            for (size_t i = 0; i < t.size; ++i)
                if (!std::isfinite(t.data[i])) return false;
        return true;
    };
    int steps = 0;
    while (!trainer.done() && steps < 400) trainer.step(1), ++steps;
    CHECK(all_finite(trainer.model().params));
    for (float loss : trainer.loss_history()) CHECK(std::isfinite(loss));
    CHECK(trainer.done());
    CHECK(trainer.epoch() < 50);
    CHECK(trainer.failure().find("not finite") != std::string::npos);
    CHECK(trainer.failure().find("learning rate") != std::string::npos);
    CHECK(trainer.step(1) == 0);  // stays stopped
    CHECK(trainer.work(10) == 0);

    config.learning_rate = 1e-3f;  // the same run at a sane rate never trips the guard
    config.epochs = 1;
    Trainer sane(config, data);
    sane.step(100);
    CHECK(sane.done());
    CHECK(sane.failure().empty());
}

// A done trainer lets go of what only training needs (so a worker's next run reuses the memory);
// what a finished run is asked for afterwards stays: its weights decode the held-out split to the
// metrics its last evaluation recorded, computed again here from those weights alone.
TEST_CASE("trainer: a finished run keeps its weights, histories and last metrics") {
    const Splits data = make_date_splits(4, 96, 40);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::additive, 8};
    config.batch_size = 32;
    config.epochs = 2;
    Trainer trainer(config, data);
    CHECK(trainer.step(100) == 6);  // 3 batches an epoch
    REQUIRE(trainer.done());
    CHECK(trainer.work(64) == 0);
    CHECK(trainer.loss_history().size() == 6);
    REQUIRE(trainer.epoch_history().size() == 2);
    REQUIRE(trainer.metrics().has_value());
    std::vector<std::string> outputs;
    for (const Decoded& d : decode_examples(data.held_out, trainer.model(), false)) outputs.push_back(d.output);
    const Metrics again = evaluate_predictions(date_task(), data.held_out, outputs);
    CHECK(again.count == 40);
    CHECK(again.exact == trainer.metrics()->exact);
    CHECK(again.per_char == trainer.metrics()->per_char);
}
