// The shipped 64-unit attention model (trained by the native build's
// `shipped_models` target into build/assets/, see CMakeLists.txt): where its attention looks for
// "monday 19 september 1977", and its held-out accuracy.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include "data/dataset.h"
#include "models/model.h"
#include "io/safetensors.h"

using namespace lb;

namespace {
const std::string weights_dir = LOOKBACK_WEIGHTS_DIR;

bool shipped_model(const char* name, Model& model) {
    const std::string path = weights_dir + "/" + name;
    if (!std::ifstream(path)) {
        FAIL(path << " is missing: build the native target shipped_models "
                    "(cmake --build build/native --target shipped_models)");
        return false;
    }
    model = load_model(path);
    return true;
}

// The input position where row t of the attention matrix peaks.
int peak(const xt::xtensor<float, 2>& attention, int t) {
    int best = 0;
    for (int j = 1; j < int(attention.shape(1)); ++j)
        if (attention(t, j) > attention(t, best)) best = j;
    return best;
}
}  // namespace

TEST_CASE("shipped attention model looks at the year, the month word and the day, in that order") {
    Model model;
    if (!shipped_model("attention-64.safetensors", model)) return;
    //                        0         1         2
    //                        012345678901234567890123
    const std::string text = "monday 19 september 1977";
    std::string error;
    const std::vector<int> tokens = encode_user_input(date_task(), text, error);
    REQUIRE(error.empty());
    const Decoded d = decode_tokens(tokens, model);
    CHECK(d.output == "1977-09-19");
    REQUIRE(d.attention.shape(0) == 10);
    REQUIRE(d.attention.shape(1) == text.size());
    // Spans, widened by one position each side ("in or next to"): the day
    // number 7–8, the month word 10–18, the year 20–23.
    for (int t : {0, 1, 2, 3}) {
        INFO("year digit " << t << " peaks at " << peak(d.attention, t));
        CHECK(peak(d.attention, t) >= 19);
        CHECK(peak(d.attention, t) <= 23);
    }
    for (int t : {5, 6}) {
        INFO("month digit " << t << " peaks at " << peak(d.attention, t));
        CHECK(peak(d.attention, t) >= 9);
        CHECK(peak(d.attention, t) <= 19);
    }
    for (int t : {8, 9}) {
        INFO("day digit " << t << " peaks at " << peak(d.attention, t));
        CHECK(peak(d.attention, t) >= 6);
        CHECK(peak(d.attention, t) <= 9);
    }
}

TEST_CASE("shipped models on the held-out split: attention ≥ 0.99 exact, plain ≤ 0.05 exact") {
    const Splits data = make_date_splits(1);
    Model attention, plain;
    if (!shipped_model("attention-64.safetensors", attention)) return;
    if (!shipped_model("plain-64.safetensors", plain)) return;
    auto exact = [&](const Model& m) {
        int right = 0;
        const std::vector<Decoded> out = decode_examples(data.held_out, m, false);
        for (size_t i = 0; i < out.size(); ++i) right += out[i].output == data.held_out[i].target;
        return double(right) / double(out.size());
    };
    CHECK(exact(attention) >= 0.99);
    CHECK(exact(plain) <= 0.05);
}
