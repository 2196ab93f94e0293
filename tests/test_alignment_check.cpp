// tests/test_alignment_check.cpp — a model's maps scored against the task's known alignment
// (core/models/alignment_check.h), on a model whose attention is known by hand; and one
// example's forced map, against the greedy decoding that feeds the decoder the same tokens.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "data/dataset.h"
#include "models/alignment_check.h"
#include "training/trainer.h"
#include "test_helpers.h"

using namespace lb;

TEST_CASE("alignment check: a model of zero weights attends uniformly, and scores as counted by hand") {
    // Zero weights: every encoder state is 0, so every additive score is v·tanh(0) = 0 and each
    // step's weights are 1/9 over "19/3/1994"; the peak is the lowest position, 0 (the day's '1').
    ModelConfig config;  // the lesson's attention model
    const Model model = make_model(config);
    const std::vector<Example> one = {format_date(1994, 3, 19, 0)};
    const auto check = check_alignment(model, one);
    REQUIRE(check);
    const AlignmentScores& s = check->map;
    // Scored steps: the eight output characters that are not dashes. Links (docs/tasks.md):
    // year 0..3 ↔ 5..8 sure; month: step 5 ↔ 3 possible, step 6 ↔ 3 sure; day: 8 ↔ 0, 9 ↔ 1 sure.
    CHECK(s.totals.steps == 8);
    CHECK(s.peak_hit_rate() == doctest::Approx(1.0 / 8));   // only step 8's peak, 0, is linked
    CHECK(s.peak_near_rate() == doctest::Approx(2.0 / 8));  // and step 9's link, 1, is next to 0
    CHECK(s.mean_linked_mass() == doctest::Approx(1.0 / 9)); // one linked position a step
    // A = 8 links (t, 0); |S| = 7; A∩S = A∩P = {(8, 0)}: AER = 1 − 2 / 15.
    CHECK(s.aer() == doctest::Approx(13.0 / 15));
    CHECK(check->heads.empty());
}

TEST_CASE("alignment check: a model without attention has no map to score") {
    ModelConfig config;
    config.decoder = DecoderKind::plain;
    CHECK_FALSE(check_alignment(make_model(config), {format_date(1994, 3, 19, 0)}));
    std::vector<Example> one = {format_date(1994, 3, 19, 0)};
    SplitEvaluator plain(one);
    plain.work(make_model(config), 10);
    REQUIRE(plain.metrics());
    CHECK_FALSE(plain.metrics()->alignment);
}

TEST_CASE("alignment check: the held-out evaluator scores each row's map as counted by hand, a row at a time or all at once") {
    // The zero-weight model of the first case, on the same date twice: twice its counts.
    const Model model = make_model(ModelConfig{});
    const std::vector<Example> two = {format_date(1994, 3, 19, 0), format_date(1994, 3, 19, 0)};
    for (int rows : {1, 2}) {
        SplitEvaluator evaluator(two);
        while (!evaluator.done()) evaluator.work(model, rows);
        REQUIRE(evaluator.metrics());
        REQUIRE(evaluator.metrics()->alignment);
        const AlignmentScores& s = *evaluator.metrics()->alignment;
        CHECK(s.totals.examples == 2);
        CHECK(s.totals.steps == 16);
        CHECK(s.peak_hit_rate() == doctest::Approx(1.0 / 8));
        CHECK(s.aer() == doctest::Approx(26.0 / 30));  // 1 − (2 + 2) / (16 + 14)
    }
}

TEST_CASE("alignment check: a Transformer is scored per head and as the mean of its heads") {
    ModelConfig config;
    config.decoder = DecoderKind::transformer;
    config.scorer = default_scorer(config.decoder);
    config.H = 8;
    config.heads = 2;
    const auto check = check_alignment(make_model(config), {format_date(1994, 3, 19, 0)});
    REQUIRE(check);
    REQUIRE(check->heads.size() == 2);
    // Zero weights: every query and key is 0, so every head attends uniformly, as the mean does.
    for (const AlignmentScores& head : check->heads) {
        CHECK(head.totals.steps == 8);
        CHECK(head.aer() == doctest::Approx(13.0 / 15));
    }
    CHECK(check->map.aer() == doctest::Approx(13.0 / 15));
}

namespace {

// The example a model's own greedy decoding makes of `input`: its target is what the model wrote
// (its first `output_steps − 1` tokens at most, so that a task that ends has room for the end
// token), and its links are made up, one sure and one possible a step, inside the input. Teacher
// forcing on this target feeds the decoder what greedy decoding fed it, so the forced map's rows
// are the greedy decoding's, which decode_tokens reads by another path.
Example own_target(const Model& model, const std::string& input, Decoded& greedy) {
    const Task& task = *model.config.task;
    greedy = decode_tokens(task.input.encode(input), model);
    const std::vector<std::string_view> written = task.output.split(greedy.output);
    const size_t room = size_t(task.output_steps - (task.ends ? 1 : 0));
    Example ex{input, "", 0, {}};
    const int L = int(task.input.split(input).size());
    for (size_t t = 0; t < std::min(written.size(), room); ++t) {
        ex.target += (t && task.output.words ? " " : "") + std::string(written[t]);
        ex.alignment.push_back({int(t), int(t) % L, true});
        if (L - 1 - int(t) % L != int(t) % L) ex.alignment.push_back({int(t), L - 1 - int(t) % L, false});
    }
    return ex;
}

}  // namespace

TEST_CASE("alignment check: one example's forced map is its own target's rows, and scores as check_alignment does") {
    for (const Task* task : tasks()) {
        for (const DecoderKind kind : {DecoderKind::attention, DecoderKind::transformer}) {
            ModelConfig config;
            config.task = task;
            config.decoder = kind;
            config.scorer = default_scorer(kind);
            config.H = 8;
            config.heads = kind == DecoderKind::transformer ? 2 : 1;
            Model model = lb::testing::random_model(config, 11);
            // A model that never writes the end token: its own target is as long as a target gets.
            for (NamedTensor& t : named_tensors(model.params))
                if (t.name == "decoder.out.bias" && task->ends) t.data[task->end_token()] = -50;
            // Three held-out inputs of the task, of three lengths (the groups cycle).
            const std::vector<Example> drawn = task->make_splits(1, 0, 3).held_out;
            std::vector<Example> examples;
            AlignmentScores summed;
            for (const Example& d : drawn) {
                INFO(task->name, " ", model_label(config), ": ", d.input);
                Decoded greedy;
                examples.push_back(own_target(model, d.input, greedy));
                const Example& ex = examples.back();
                const size_t T = task->output.split(ex.target).size(), L = task->input.split(ex.input).size();
                REQUIRE(T >= 2);  // else the rows compared below say little
                const auto map = forced_map(model, ex);
                REQUIRE(map);
                // The target's rows only: no end token's step, no padding.
                REQUIRE(map->attention.shape(0) == T);
                REQUIRE(map->attention.shape(1) == L);
                for (size_t t = 0; t < T; ++t)
                    for (size_t j = 0; j < L; ++j) CHECK(map->attention(t, j) == doctest::Approx(greedy.attention(t, j)).epsilon(1e-4));
                const size_t A = greedy.heads.shape(0);
                REQUIRE(map->heads.shape(0) == A);
                CHECK(A == (kind == DecoderKind::transformer ? 2u : 0u));
                for (size_t h = 0; h < A; ++h)
                    for (size_t t = 0; t < T; ++t)
                        for (size_t j = 0; j < L; ++j)
                            CHECK(map->heads(h, t, j) == doctest::Approx(greedy.heads(h, t, j)).epsilon(1e-4));
                // The example scored from the greedy rows, against check_alignment of it alone.
                const AlignmentCounts want = score_alignment(greedy.attention.data(), int(T), int(greedy.attention.shape(1)),
                                                             int(L), ex.alignment);
                const auto alone = check_alignment(model, {ex});
                REQUIRE(alone);
                CHECK(alone->map.totals.steps == int(T));
                CHECK(alone->map.totals.steps == want.steps);
                CHECK(alone->map.totals.peak_hits == want.peak_hits);
                CHECK(alone->map.totals.peak_near_hits == want.peak_near_hits);
                CHECK(alone->map.totals.hard_on_sure == want.hard_on_sure);
                CHECK(alone->map.totals.hard_on_possible == want.hard_on_possible);
                CHECK(alone->map.totals.sure_links == int(T));
                CHECK(alone->map.totals.linked_mass == doctest::Approx(want.linked_mass).epsilon(1e-4));
                CHECK(alone->map.aer() == doctest::Approx(alignment_error_rate(want)).epsilon(1e-9));
                summed.add(want);
            }
            // Together, two rows a batch (lengths differ, so rows are padded): the same sums.
            const auto together = check_alignment(model, examples, 2);
            REQUIRE(together);
            CHECK(together->map.totals.examples == 3);
            CHECK(together->map.totals.steps == summed.totals.steps);
            CHECK(together->map.totals.peak_hits == summed.totals.peak_hits);
            CHECK(together->map.totals.hard_on_possible == summed.totals.hard_on_possible);
            CHECK(together->map.totals.linked_mass == doctest::Approx(summed.totals.linked_mass).epsilon(1e-4));
        }
    }
}

TEST_CASE("alignment check: the forced map of a reversal by a model of zero weights is uniform, the end step left out") {
    ModelConfig config;
    config.task = &find_task("reversal");
    const Model model = make_model(config);
    // "abcdefgh" → "hgfedcba": 8 target letters, then the end token's step (not kept).
    const Example ex{"abcdefgh", "hgfedcba", 0, {}};
    const auto map = forced_map(model, ex);
    REQUIRE(map);
    REQUIRE(map->attention.shape(0) == 8);
    REQUIRE(map->attention.shape(1) == 8);
    for (size_t t = 0; t < 8; ++t)
        for (size_t j = 0; j < 8; ++j) CHECK(map->attention(t, j) == doctest::Approx(1.0 / 8));
    CHECK(map->heads.shape(0) == 0);
    config.decoder = DecoderKind::plain;
    CHECK_FALSE(forced_map(make_model(config), ex));
}
