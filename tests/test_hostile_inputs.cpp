// Three hostile inputs that used to get through: weights that load but overflow when
// decoded, a learning rate that a float rounds to 0, and a probe the model kind has no answer for.
// Each is refused with a message: decoding stops (decoding_check.h), the option is a usage error.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "data/dataset.h"
#include "io/safetensors.h"
#include "models/decoding_check.h"
#include "models/model.h"
#include "text/text.h"
#include "training/trainer.h"

using namespace lb;

namespace {

const std::string weights_dir = LOOKBACK_WEIGHTS_DIR;
const char* const date = "monday 19 september 1977";

std::vector<ModelConfig> every_kind(int H) {
    std::vector<ModelConfig> configs;
    for (DecoderKind kind : {DecoderKind::plain, DecoderKind::attention, DecoderKind::transformer,
                             DecoderKind::bahdanau, DecoderKind::luong, DecoderKind::luong_local}) {
        ModelConfig c;
        c.decoder = kind;
        c.scorer = default_scorer(kind);
        c.H = H;
        configs.push_back(c);
    }
    return configs;
}

// Finite but huge: ±3e38 alternating, so every sum of two products overflows.
void fill_alternating(float* data, size_t size) {
    for (size_t i = 0; i < size; ++i) data[i] = i % 2 ? -3e38f : 3e38f;
}

// The file the fuzzer found: a width-2 luong-local model, every weight 0 except the decoder's
// embedding (10) and its GRU's input weights (±3e38).
Model luong_local_overflowing() {
    ModelConfig c;
    c.decoder = DecoderKind::luong_local;
    c.scorer = default_scorer(c.decoder);
    c.H = 2;
    Model m = make_model(c);
    m.params.dec_embedding.fill(10.0f);
    fill_alternating(m.params.dec_gru.weight_ih.data(), m.params.dec_gru.weight_ih.size());
    return m;
}

std::string temporary_weights(const Model& model, const char* name) {
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    save_model(path, model);
    return path;
}

}  // namespace

TEST_CASE("weights that load but overflow: decoding stops with a message naming the model and the step") {
    const std::vector<uint8_t> bytes = encode_safetensors(model_to_safetensors(luong_local_overflowing()));
    const Model loaded = load_model(bytes.data(), bytes.size());  // every weight is finite: it loads
    std::string error;
    const std::vector<int> tokens = encode_user_input(date_task(), date, error);
    REQUIRE(!tokens.empty());
    // Once p_t was NaN, its integer window edge was undefined behaviour, and the model printed
    // 0000000000 with attention rows of zeros.
    CHECK_THROWS_WITH_AS(decode_tokens(tokens, loaded), doctest::Contains("luong-local general model"),
                         DecodingError);
    CHECK_THROWS_WITH_AS(decode_tokens(tokens, loaded), doctest::Contains("step 1 of 10"), DecodingError);
    // The batch paths reach the same check, on the same string. (Whether a sum of ±3e38 products
    // overflows depends on where the compiler fuses multiply-adds, so other strings, or this one
    // in a wider batch, may decode soundly under another compiler: clang's did.)
    std::vector<Example> one;
    for (int format = 0; format < format_count; ++format)
        if (format_date(1977, 9, 19, format).input == date) one.push_back(format_date(1977, 9, 19, format));
    REQUIRE(one.size() == 1);
    CHECK_THROWS_AS(decode_examples(one, loaded, false), DecodingError);
    SplitEvaluator evaluator(one);  // the trainer's metrics
    CHECK_THROWS_AS(evaluator.work(loaded, 64), DecodingError);
}

// What decoding promises for any weights that load: 10 characters with attention rows that are
// finite and sum to 1 (luong-local: at most 1), or a DecodingError naming the model.
bool keeps_the_promise(const Model& model, const std::vector<int>& tokens, bool& refused) {
    refused = false;
    try {
        const Decoded d = decode_tokens(tokens, model);
        if (d.output.size() != 10) return false;
        for (size_t t = 0; t < d.attention.shape()[0]; ++t) {
            double sum = 0;
            for (size_t j = 0; j < d.attention.shape()[1]; ++j) {
                if (!std::isfinite(d.attention(t, j)) || d.attention(t, j) < 0) return false;
                sum += d.attention(t, j);
            }
            if (model.config.decoder == DecoderKind::luong_local ? sum > 1 + 1e-5 : std::fabs(sum - 1) > 1e-5)
                return false;
        }
        return true;
    } catch (const DecodingError& e) {
        refused = true;
        return std::string(e.what()).find(model_label(model.config)) != std::string::npos;
    }
}

TEST_CASE("every model kind: decoding gives sound numbers or refuses, whatever finite weights it loads") {
    std::string error;
    const std::vector<int> tokens = encode_user_input(date_task(), date, error);
    for (const ModelConfig& config : every_kind(8)) {
        INFO(model_label(config));
        Model model = make_model(config);
        Rng rng(1);
        init_params(model.params, rng);
        bool refused = true;
        CHECK(keeps_the_promise(model, tokens, refused));
        CHECK_FALSE(refused);  // sound weights decode

        // Alternating ±3e38 saturates the GRU models' gates into finite states (they keep the
        // promise by decoding); the Transformer's and Bahdanau's sums overflow (they refuse).
        for (const NamedTensor& t : named_tensors(model.params)) fill_alternating(t.data, t.size);
        const std::vector<uint8_t> bytes = encode_safetensors(model_to_safetensors(model));
        const Model loaded = load_model(bytes.data(), bytes.size());
        CHECK(keeps_the_promise(loaded, tokens, refused));
        if (config.decoder == DecoderKind::transformer || config.decoder == DecoderKind::bahdanau) CHECK(refused);
        // Weights drawn anywhere in ±3e38.
        for (const NamedTensor& t : named_tensors(model.params))
            for (size_t i = 0; i < t.size; ++i) t.data[i] = float((rng.uniform() * 2 - 1) * 3e38);
        CHECK(keeps_the_promise(model, tokens, refused));
    }
}

TEST_CASE("lookback predict refuses overflowing weights with exit 1, not an output of zeros") {
    const std::string path = temporary_weights(luong_local_overflowing(), "lookback_overflowing.safetensors");
    CHECK(cli::predict({"--weights", path, date}) == 1);
    CHECK(cli::predict({"--json", "--weights", path, date}) == 1);
    std::filesystem::remove(path);
}

TEST_CASE("numeric options are checked as the type they are stored in: --lr 1e-50 is 0 as a float") {
    CHECK(1e-50 > 0);
    CHECK(float(1e-50) == 0.0f);  // what the check on the double let through
    CHECK_THROWS_WITH_AS(cli::parse_train_args({"--lr", "1e-50"}), doctest::Contains("--lr"), cli::UsageError);
    CHECK_THROWS_WITH_AS(cli::parse_train_args({"--lr", "1e-50"}), doctest::Contains("holds as 0"),
                         cli::UsageError);
    CHECK_THROWS_AS(cli::parse_sweep_args({"--lr=1e-46"}), cli::UsageError);
    CHECK(cli::train({"--lr", "1e-50"}) == 2);
    CHECK(cli::sweep({"--lr", "1e-50"}) == 2);
    // The smallest float above 0 is about 1.4e-45: a rate that small is stored as itself.
    CHECK(cli::parse_train_args({"--lr", "1e-44"}).run.learning_rate > 0);
    CHECK(cli::parse_train_args({"--model", "transformer", "--dropout", "0"}).run.model.dropout == 0);
    CHECK_THROWS_WITH_AS(cli::parse_train_args({"--model", "transformer", "--dropout", "1e-50"}),
                         doctest::Contains("--dropout"), cli::UsageError);
}

TEST_CASE("predict: an option the weights' model kind does not take is a usage error naming both") {
    for (const ModelConfig& config : every_kind(8)) {
        INFO(model_label(config));
        const std::string refusal = "not to a " + std::string(decoder_name(config.decoder)) + " model's";
        const cli::PredictArgs gradient = cli::parse_predict_args({"--weights", "w", "--gradient-path", "1977-09-19", "x"});
        if (config.decoder == DecoderKind::plain || config.decoder == DecoderKind::attention) {
            CHECK_NOTHROW(cli::check_predict_model(gradient, config));
        } else {
            CHECK_THROWS_WITH_AS(cli::check_predict_model(gradient, config), doctest::Contains("--gradient-path"),
                                 cli::UsageError);
            CHECK_THROWS_WITH_AS(cli::check_predict_model(gradient, config), doctest::Contains(refusal.c_str()),
                                 cli::UsageError);
        }
        const cli::PredictArgs per_head = cli::parse_predict_args({"--weights", "w", "--per-head", "x"});
        if (config.decoder == DecoderKind::transformer) CHECK_NOTHROW(cli::check_predict_model(per_head, config));
        else CHECK_THROWS_WITH_AS(cli::check_predict_model(per_head, config), doctest::Contains("--per-head"),
                                  cli::UsageError);
    }
    // The gradient path takes a date: any setting of the date task's dial, no other task.
    const cli::PredictArgs gradient = cli::parse_predict_args({"--weights", "w", "--gradient-path", "1977-09-19", "x"});
    ModelConfig dial;
    dial.task = &date_task(DateDial{{5}, "ymd"});
    CHECK_NOTHROW(cli::check_predict_model(gradient, dial));
    dial.task = tasks()[1];
    CHECK_THROWS_WITH_AS(cli::check_predict_model(gradient, dial), doctest::Contains("not of the reversal task"),
                         cli::UsageError);
    // The command: a usage error (exit 2), not "stopped by an unexpected error" (exit 1).
    const std::string transformer = weights_dir + "/transformer-all-64.safetensors";
    REQUIRE_MESSAGE(std::filesystem::exists(transformer), "missing: build the native target shipped_models");
    CHECK(cli::predict({"--gradient-path", "1977-09-19", "--weights", transformer, date}) == 2);
    CHECK(cli::predict({"--per-head", "--weights", weights_dir + "/attention-64.safetensors", date}) == 2);
}
