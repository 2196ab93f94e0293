// The Lab's plain C++ (web/lab/), natively and as wasm. Its analyses (analysis.h's Analyses, one
// per test here, as the Lab owns one): asked again, the same object comes back and nothing is
// computed again; two models are told apart, and the probes are computed only when asked. "What if
// the decoder had looked elsewhere?" (Analyses::what_if): a Transformer's move of one head replaces
// that head's row of the moved step and no other's, the mean map follows, the steps before it and
// what changed agree with the model's own decoding (analyse); under the mean every head moves; a
// move the core refuses (a first-state Transformer off position 0, a head it lacks, positions past
// the input, the plain model) comes back as the core's message, never thrown. A page run's dial
// label (lab.h) names what differs from the lesson's task, and nothing for the defaults.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../web/lab/analysis.h"
#include "../web/lab/lab.h"
#include "test_helpers.h"

using namespace lb;
using doctest::Approx;
using web::Move;

namespace {

Model transformer(Memory memory) {
    ModelConfig config;
    config.decoder = DecoderKind::transformer;
    config.H = 8;
    config.heads = 2;
    config.memory = memory;
    return testing::random_model(config, 3);
}

// `message` holds `part`; said with the message when not.
void check_says(const std::string& message, const std::string& part) {
    INFO(message);
    CHECK(message.find(part) != std::string::npos);
}

float at(const std::vector<float>& map, int T, int S, int head, int t, int j) {
    return map[size_t((head * T + t) * S + j)];
}

}  // namespace

TEST_CASE("Analyses: kept and found again, two models told apart, probes computed only when asked") {
    web::Analyses analyses;
    const Model first = transformer(Memory::all), second = transformer(Memory::first);
    const web::ModelInput input = web::generated_input("19/3/1994");
    const auto a = analyses.analyse({&first}, input);
    CHECK(analyses.analyse({&first}, input) == a);
    CHECK(analyses.analyse({&second}, input) != a);
    CHECK(analyses.analyse({&first, nullptr, 1}, input) != a);  // the next weights of the same model
    CHECK(analyses.computed().analyses == 3);
    CHECK(analyses.computed().occlusions == 0);  // a map costs no probe
    CHECK(analyses.computed().gradient_paths == 0);

    ModelConfig plain_config;
    plain_config.decoder = DecoderKind::plain;
    plain_config.H = 8;
    const Model plain = testing::random_model(plain_config, 3);
    const auto blanked = analyses.occlusion({&plain}, input);
    CHECK(blanked->outputs.size() == input.tokens.size());
    CHECK(analyses.occlusion({&plain}, input) == blanked);
    const auto path = analyses.gradient_path({&plain}, input, "1994-03-19");
    CHECK(path->total.size() == input.tokens.size());
    CHECK(analyses.gradient_path({&plain}, input, "1994-03-19") == path);
    CHECK(analyses.gradient_path({&plain}, input, "1994-03-20") != path);  // another target
    CHECK(analyses.computed().occlusions == 1);
    CHECK(analyses.computed().gradient_paths == 2);
}

TEST_CASE("what_if: a Transformer's head moved is that head's row alone; under the mean every head moves") {
    web::Analyses analyses;
    const Model model = transformer(Memory::all);
    const web::ModelRead read{&model};
    const web::ModelInput input = web::generated_input("19/3/1994");
    const int S = int(input.tokens.size()), T = output_length, step = 4;
    const auto own = analyses.analyse(read, input);
    const auto w = analyses.what_if(read, input, {step, 2, 3, 1});
    REQUIRE(w->error == "");
    REQUIRE(w->heads == 2);
    REQUIRE(w->head_attention.size() == size_t(2 * T * S));
    for (int j = 0; j < S; ++j) {
        CHECK(at(w->head_attention, T, S, 1, step, j) == Approx(j == 2 || j == 3 ? 0.5 : 0));  // the weights given
        CHECK(at(w->head_attention, T, S, 0, step, j) == at(own->head_attention, T, S, 0, step, j));  // the other head's own
        CHECK(w->attention[size_t(step * S + j)] ==
              Approx((at(w->head_attention, T, S, 0, step, j) + at(w->head_attention, T, S, 1, step, j)) / 2));
        for (int t = 0; t < step; ++t)  // the steps before the move never see it
            for (int h = 0; h < 2; ++h) CHECK(at(w->head_attention, T, S, h, t, j) == at(own->head_attention, T, S, h, t, j));
    }
    CHECK(w->output.substr(0, size_t(step)) == own->output.substr(0, size_t(step)));
    std::vector<int> differs;
    for (int t = 0; t < T; ++t)
        if (w->output[size_t(t)] != own->output[size_t(t)]) differs.push_back(t);
    CHECK(w->changed == differs);

    const auto every = analyses.what_if(read, input, {step, 6, 6});
    REQUIRE(every->error == "");
    for (int h = 0; h < 2; ++h)
        for (int j = 0; j < S; ++j) CHECK(at(every->head_attention, T, S, h, step, j) == (j == 6 ? 1.0f : 0.0f));
    CHECK(analyses.what_if(read, input, {step, 6, 6}) == every);  // kept: asked again, not decoded again
    CHECK(analyses.computed().what_ifs == 2);
}

TEST_CASE("what_if: a move the core refuses comes back as its message") {
    web::Analyses analyses;
    const web::ModelInput input = web::generated_input("19/3/1994");  // positions 0-8
    const Model first = transformer(Memory::first);
    const web::ModelRead first_read{&first};
    const auto off_zero = analyses.what_if(first_read, input, {3, 5, 5});
    check_says(off_zero->error, "attends to input position 0 only");
    CHECK(off_zero->output.empty());
    CHECK(off_zero->head_attention.empty());
    const auto on_zero = analyses.what_if(first_read, input, {3, 0, 0, 1});  // where it already is: nothing changes
    CHECK(on_zero->error == "");
    CHECK(on_zero->changed.empty());

    const Model all = transformer(Memory::all);
    const web::ModelRead all_read{&all};
    check_says(analyses.what_if(all_read, input, {3, 0, 0, 2})->error, "head 2 is outside");
    check_says(analyses.what_if(all_read, input, {3, 7, 12})->error, "not inside the input's 0\u20138");
    check_says(analyses.what_if(all_read, input, {10, 0, 0})->error, "output step 10 is outside");

    ModelConfig plain_config;
    plain_config.decoder = DecoderKind::plain;
    plain_config.H = 8;
    const Model plain = testing::random_model(plain_config, 3);
    check_says(analyses.what_if({&plain}, input, {3, 0, 0})->error, "no attention to edit");
}

TEST_CASE("dial_label: what differs from the lesson's task, and nothing for the defaults") {
    CHECK(web::dial_label(date_task()) == "");
    CHECK(web::dial_label(*tasks()[1]) == "");  // the reversal has no dial
    CHECK(web::dial_label(date_task({{0}, "ymd"})) == "formats 0 \u00b7 order ymd");
    CHECK(web::dial_label(date_task({{0, 2, 5}, "dmy"})) == "formats 0,2,5");
    CHECK(web::dial_label(date_task({DateDial{}.formats, "mdy"})) == "order mdy");
}
