// Hostile inputs that used to get through. Weights that load but overflow when decoded, a
// learning rate that a float rounds to 0, and a probe the model kind has no answer for: each is
// refused with a message (decoding stops, decoding_check.h; the option is a usage error). Then
// five more: a reader's task made where a freed one lived, a number past double's range in
// a task file, '</s>' written as a word, a held-out split larger than asked, and a control
// character a weights file's header brings into a refusal.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "data/dataset.h"
#include "data/pairs.h"
#include "io/safetensors.h"
#include "io/task_file.h"
#include "models/decoding_check.h"
#include "models/model.h"
#include "text/deflate.h"
#include "text/text.h"
#include "training/trainer.h"
#include "test_helpers.h"

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

// --- a reader's task, a task file, a word, a split, a header ----------------------------

namespace {

// A task made at run time as a reader's is: input letters a to e, `letters` output letters (a,
// b, ...) after pad, start and end, and `steps` output steps.
Task letters_task(int steps, int letters) {
    Task t;
    t.name = "replaced";
    t.input = Vocabulary(false, {""});
    t.output = Vocabulary(false, {"", "<s>", "</s>"});
    for (char c = 'a'; c <= 'e'; ++c) t.input.add(std::string(1, c));
    for (int k = 0; k < letters; ++k) t.output.add(std::string(1, char('a' + k)));
    t.max_input_tokens = 8;
    t.output_steps = steps;
    t.ends = true;
    return t;
}

std::string temporary_file(const char* name, const std::string& bytes) {
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

TEST_CASE("a task made where a freed one lived, with more steps and tokens: decoding's reused buffers grow for it") {
    std::optional<Task> slot;  // one storage: the second task has the first one's address
    for (const ModelConfig& kind : every_kind(8)) {
        INFO(model_label(kind));
        ModelConfig config = kind;
        slot.emplace(letters_task(3, 2));  // 3 steps of 5 output tokens
        const Task* first = &*slot;
        config.task = first;
        Activations reserved;
        reserve_activations(reserved, config, 1, 4);
        TransformerCache cache;
        if (kind.decoder == DecoderKind::transformer) transformer_reserve(cache, transformer_config(config), 1, 4);
        const Model small = testing::random_model(config, 1);
        CHECK(decode_tokens({1, 2, 3, 4}, small).output.size() <= 3);  // decode_tokens keeps its buffers

        slot.reset();
        slot.emplace(letters_task(65, 26));  // 65 steps of 29 output tokens
        REQUIRE(&*slot == first);
        config.task = &*slot;
        // Sized for 1 row of 65 steps of 29 tokens: 1,885 logits.
        reserve_activations(reserved, config, 1, 4);
        CHECK(reserved.T == 65);
        CHECK(reserved.V == 29);
        if (kind.decoder == DecoderKind::plain || kind.decoder == DecoderKind::attention) {
            CHECK(reserved.logits.size() >= 1885);
            CHECK(reserved.dec_h.size() >= 65 * 8);
        }
        if (kind.decoder == DecoderKind::transformer) {
            CHECK(reserved.transformer.logits.size() >= 1885);
            transformer_reserve(cache, transformer_config(config), 1, 4);
            CHECK(cache.logits.size() >= 1885);
        }
        // decode_tokens' buffers (under ASan, a write past them stops the test) give what fresh ones give.
        const Model large = testing::random_model(config, 2);
        const Decoded reused = decode_tokens({1, 2, 3, 4}, large);
        const Decoded fresh = decode_examples({{"abcd", "a", 0, {}}}, large, true).front();
        CHECK(reused.output == fresh.output);
        CHECK(reused.attention == fresh.attention);
        CHECK(reused.output.size() <= 65);
    }
}

TEST_CASE("a task file or link with a number past double's range is refused by name, as task_file.h promises") {
    const std::string file =
        "{\"lookback\": \"pairs task\", \"text\": \"a\\tb\\n\", \"tokens\": \"characters\", \"split_seed\": 1e999}";
    CHECK_THROWS_WITH_AS(read_task_file(file), "the task file cannot be read as JSON: 'number overflow parsing \\'1e999\\''",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(read_task_link(base64url_encode(deflate_raw(file))),
                         "the link's task cannot be read as JSON: 'number overflow parsing \\'1e999\\''",
                         std::invalid_argument);
    // lookback train --task-file F: the file refused by name (exit 1), not "stopped by an unexpected error".
    const std::string path = temporary_file("lookback_split_seed_1e999.json", file);
    CHECK_THROWS_WITH_AS(cli::read_pairs_file(path, std::nullopt),
                         "the task file cannot be read as JSON: 'number overflow parsing \\'1e999\\''",
                         std::invalid_argument);
    CHECK(cli::train({"--task-file", path, "--width", "8", "--epochs", "1"}) == 1);
    std::filesystem::remove(path);
}

TEST_CASE("'</s>' as a reader's word: decoding stops at the end token's id, and the readers refuse the word by line") {
    // A vocabulary whose own token is written "</s>" (as one made before the readers refused it):
    // that token is a word; id 2, the end token, ends the text; pad does too; start is skipped.
    Vocabulary words(true, {"", "<s>", "</s>"});
    for (const char* w : {"x", "</s>", "y"}) words.add(w);  // ids 3, 4, 5
    CHECK(words.decode(std::vector<int>{1, 3, 4, 5, 2, 3}) == "x </s> y");
    CHECK(words.decode(std::vector<int>{3, 0, 5}) == "x");
    Vocabulary digits(false, {"", "<s>"});  // the dates' output: no end token, so id 2 is a digit
    digits.add("7");
    CHECK(digits.decode(std::vector<int>{1, 2, 2}) == "77");

    // The pairs' reader, either side, by line and word.
    CHECK_THROWS_WITH_AS(read_pairs("a b\tc\nx </s> y\tz\n", PairsTokens::words),
                         "line 2: word 2 of the input is '</s>', the text of the end token: no word may be written "
                         "as '<s>' or '</s>', which mark where an output starts and ends",
                         PairsError);
    CHECK_THROWS_WITH_AS(read_pairs("a\tb\nc\td\ne\t<s> f\n", PairsTokens::words),
                         "line 3: word 1 of the output is '<s>', the text of the start token: no word may be written "
                         "as '<s>' or '</s>', which mark where an output starts and ends",
                         PairsError);
    CHECK(read_pairs("a</s>\tb<s>\n", PairsTokens::characters).pairs.size() == 1);  // characters, each its own token

    // A task file's pairs, read as `lookback train --task-file` reads them.
    PairsTaskSource source{"one\ttwo\nthree\tfour </s>\n", {}};
    source.options.tokens = PairsTokens::words;
    const std::string path = temporary_file("lookback_end_token_word.json", task_file_text(source));
    CHECK_THROWS_WITH_AS(cli::read_pairs_file(path, std::nullopt),
                         "line 2: word 2 of the output is '</s>', the text of the end token: no word may be written "
                         "as '<s>' or '</s>', which mark where an output starts and ends",
                         PairsError);
    std::filesystem::remove(path);

    // A weights file's task: its vocabularies are refused the same texts.
    CarriedTask carried{"carried", PairsTokens::words, {"x"}, {"x", "</s>"}, 1, 2, "x"};
    CHECK_THROWS_WITH_AS(task_from_carried(carried), "the output token '</s>' is the text of the end token",
                         std::invalid_argument);
}

namespace {

// 101 pairs of digits: 60 share the input 0123456789 (outputs 000 to 059), and 41 inputs 100 to
// 140 have one each (the input reversed). Every digit is in the 60, which always train, so no
// held-out pair is set aside.
std::string one_large_input() {
    std::string text;
    for (int i = 0; i < 60; ++i) {
        const std::string out = std::to_string(1000 + i).substr(1);  // 000 ... 059
        text += "0123456789\t" + out + "\n";
    }
    for (int i = 100; i <= 140; ++i) {
        const std::string in = std::to_string(i);
        text += in + "\t" + std::string(in.rbegin(), in.rend()) + "\n";
    }
    return text;
}

}  // namespace

TEST_CASE("a held-out split never passes its share: an input whose pairs would take it past trains") {
    const std::string text = one_large_input();
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        INFO("split seed ", seed);
        PairsOptions options;
        options.name = "digits";
        options.split_seed = seed;
        const PairsTask made = make_pairs_task(text, options);
        // 10 % of 101 is 10: ten of the 41 single inputs; the 60 train with the other 31.
        CHECK(made.summary.held_out_size == 10);
        CHECK(made.summary.train_size == 91);
        CHECK(made.summary.set_aside == 0);
        CHECK(describe_pairs(made.summary) ==
              "101 pairs read; 91 to train, 10 held out; 10 input and 10 output characters; no alignments.");
        const Splits splits = made.task.make_splits(1, 91, 10);
        for (const Example& ex : splits.held_out) CHECK(ex.input != "0123456789");
    }
    // No valid split: two inputs of 50 pairs each (outputs 0 to 99), and 10 asked. Half the
    // pairs, 50, takes one of them.
    std::string halves;
    for (int i = 0; i < 100; ++i) halves += std::string(i < 50 ? "ab" : "ba") + "\t" + std::to_string(i) + "\n";
    PairsOptions options;
    options.name = "halves";
    CHECK_THROWS_WITH_AS(make_pairs_task(halves, options),
                         "line 1: no input's pairs fit a held-out split of 10 pairs: the fewest that share an input "
                         "are 50, with 'ab' (a held-out input must not be trained on); ask for 50 or more held out",
                         PairsError);
    options.held_out_size = 50;
    const PairsTask split = make_pairs_task(halves, options);
    CHECK(split.summary.held_out_size == 50);  // either input's outputs hold every digit the other's do
    CHECK(split.summary.train_size == 50);
}

TEST_CASE("a weights file's header with a DEL or a C1 control: the refusal quotes it escaped") {
    // An unclosed key holding U+009B, an 8-bit CSI: with "2J" after it a terminal clears its screen.
    const std::pair<std::string, const char*> headers[] = {{"{\"\xc2\x9b" "2J", "\\u{9b}2J"},
                                                           {"{\"\x7f" "[2J", "\\x7f[2J"}};
    for (const auto& [header, escaped] : headers) {
        std::string bytes(8, '\0');
        bytes[0] = char(header.size());
        bytes += header;
        std::string message;
        try {
            decode_safetensors(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
        } catch (const SafetensorsError& e) {
            message = e.what();
        }
        INFO(quote_untrusted(message, 300));
        CHECK(message.rfind("the header is not valid JSON: 'parse error at line 1", 0) == 0);
        CHECK(message.find("missing closing quote") != std::string::npos);
        CHECK(message.find(escaped) != std::string::npos);
        CHECK(is_valid_utf8(message));
        for (size_t i = 0; i < message.size(); ++i) {  // no C0, DEL or C1 byte or character
            const unsigned char c = static_cast<unsigned char>(message[i]);
            CHECK((c >= 0x20 && c != 0x7f));
            if (c == 0xc2 && i + 1 < message.size())
                CHECK_FALSE((static_cast<unsigned char>(message[i + 1]) >= 0x80 &&
                             static_cast<unsigned char>(message[i + 1]) <= 0x9f));
        }
    }
}
