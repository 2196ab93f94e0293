// What a model wrote on the held-out split: the token error rate (Levenshtein distance in the
// task's tokens over the target tokens), the predictions as rows and CSV, and the commands that
// print and write them (`lookback train --predictions`, `lookback eval`). Every expected number is
// worked out by hand in the comments, or recomputed here by another method (a recursive edit
// distance; the CSV read back by a small RFC 4180 reader of the test's own).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "data/dataset.h"
#include "data/pairs_examples.h"
#include "data/metrics.h"
#include "data/reversal.h"
#include "data/translation.h"
#include "io/metrics_json.h"
#include "io/predictions_csv.h"
#include "io/safetensors.h"
#include "io/worker_codec.h"
#include "models/model.h"
#include "training/trainer.h"
#include "test_helpers.h"

using namespace lb;
using doctest::Approx;

namespace {

const Vocabulary& characters() { return reversal_task().output; }
const Vocabulary& words() { return translation_task().output; }

// Levenshtein distance by the recursion on the last tokens, memoised: another method than the
// core's rolling row, for sequences of a few dozen tokens.
int recursive_distance(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
    std::vector<std::vector<int>> memo(a.size() + 1, std::vector<int>(b.size() + 1, -1));
    std::function<int(size_t, size_t)> d = [&](size_t i, size_t j) -> int {
        if (i == 0) return int(j);
        if (j == 0) return int(i);
        int& known = memo[i][j];
        if (known < 0)
            known = std::min({d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] == b[j - 1] ? 0 : 1)});
        return known;
    };
    return d(a.size(), b.size());
}

// RFC 4180 read by a state machine: fields split at commas outside quotes, "" inside quotes a quote.
std::vector<std::vector<std::string>> read_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false, was_quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c != '"') field += c;
            else if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
            else quoted = false;
        } else if (c == '"') {
            REQUIRE(field.empty());  // a quote opens a field or is doubled inside one
            quoted = was_quoted = true;
        } else if (c == ',' || c == '\n') {
            rows.back().push_back(field);
            field.clear();
            was_quoted = false;
            if (c == '\n') rows.emplace_back();
        } else {
            REQUIRE_FALSE(was_quoted);  // nothing after a closing quote but a separator
            field += c;
        }
    }
    REQUIRE(field.empty());
    REQUIRE(rows.back().empty());  // the text ends with a line end
    rows.pop_back();
    return rows;
}

}  // namespace

TEST_CASE("token edit distance: characters (code points) and words, counted by hand") {
    // kitten -> sitting: k->s, e->i, and g appended.
    CHECK(token_edit_distance(characters(), "kitten", "sitting") == 3);
    CHECK(token_edit_distance(characters(), "sitting", "kitten") == 3);
    CHECK(token_edit_distance(characters(), "abc", "abc") == 0);
    // An empty output is the target's length away: every token inserted.
    CHECK(token_edit_distance(characters(), "", "2000-01-01") == 10);
    CHECK(token_edit_distance(characters(), "2000-01-01", "") == 10);
    // One dropped character is one edit, though every position after it differs.
    CHECK(token_edit_distance(characters(), "2000-1-01", "2000-01-01") == 1);
    CHECK(token_edit_distance(characters(), "2000-001-01", "2000-01-01") == 1);  // one inserted
    // ё and е differ in both their UTF-8 bytes (d1 91, d0 b5), but they are one code point each.
    CHECK(token_edit_distance(characters(), "объём", "объем") == 1);
    CHECK(token_edit_distance(characters(), "щи", "") == 2);
    // Words: a word replaced, dropped or added is one edit whatever its length.
    CHECK(token_edit_distance(words(), "the cat sat", "the cat sat on the mat") == 3);
    CHECK(token_edit_distance(words(), "a b c d", "a c d") == 1);
    CHECK(token_edit_distance(words(), "one two three", "three two one") == 2);  // both ends replaced
    CHECK(token_edit_distance(words(), "le chat", "le chien") == 1);
    CHECK(token_edit_distance(words(), "", "4 5") == 2);
    // The same text in characters: chat -> chien is h kept, a->i, t->e, n added.
    CHECK(token_edit_distance(characters(), "le chat", "le chien") == 3);
}

TEST_CASE("token error rate: edits over target tokens, where per-token accuracy counts positions") {
    // Dates: one exact, one with a dropped '0' (5 positions right, 1 edit), one empty (10 edits).
    const std::vector<Example> dates = {{"1/1/2000", "2000-01-01", 0, {}}, {"1/1/2000", "2000-01-01", 0, {}},
                                        {"2/1/2000", "2000-01-02", 0, {}}};
    const Metrics m = evaluate_predictions(date_task(), dates, {"2000-01-01", "2000-1-01", ""});
    CHECK(m.per_char == Approx((10 + 5 + 0) / 30.0));
    CHECK(m.token_error_rate == Approx((0 + 1 + 10) / 30.0));

    // Words: "a dog" lacks one word of "a dog runs" (1 edit); "the cat sat on the mat" has one of
    // "the cat sat on a mat"'s six replaced (1 edit): 2 edits over 9 target words.
    const std::vector<Example> sentences = {{"x", "a dog runs", 0, {}}, {"y", "the cat sat on a mat", 0, {}}};
    const Metrics w = evaluate_predictions(translation_task(), sentences, {"a dog", "the cat sat on the mat"});
    CHECK(w.token_error_rate == Approx(2.0 / 9));
    CHECK(w.per_char == Approx(7.0 / 9));

    // More edits than target tokens: four words written for one (one replaced, three added).
    const std::vector<Example> one = {{"x", "a", 0, {}}};
    CHECK(evaluate_predictions(translation_task(), one, {"w x y z"}).token_error_rate == Approx(4.0));
    CHECK(std::isnan(Metrics{}.token_error_rate));  // not evaluated
}

TEST_CASE("token error rate: each epoch's record holds the held-out rate, recomputed here") {
    const Splits data = make_date_splits(4, 50, 30);
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::dot, 8};
    config.batch_size = 16;
    config.epochs = 1;
    Trainer trainer(config, data);
    while (!trainer.done()) trainer.step(4);
    REQUIRE(trainer.epoch_history().size() == 1);
    const std::vector<Decoded> decoded = decode_examples(data.held_out, trainer.model(), false);
    long edits = 0, tokens = 0;
    for (size_t i = 0; i < decoded.size(); ++i) {
        const Vocabulary& dates = date_task().output;
        const auto output = dates.split(decoded[i].output), target = dates.split(data.held_out[i].target);
        edits += recursive_distance(output, target);
        tokens += long(target.size());
    }
    CHECK(tokens == 300);
    CHECK(trainer.epoch_history()[0].token_error_rate == Approx(double(edits) / double(tokens)));
    // Without the held-out evaluation there is nothing to report.
    config.evaluate_each_epoch = false;
    Trainer unevaluated(config, data);
    while (!unevaluated.done()) unevaluated.step(4);
    CHECK(std::isnan(unevaluated.epoch_history()[0].token_error_rate));
}

TEST_CASE("token error rate: carried by the metrics JSON and the worker's reports; older messages read as none") {
    Metrics m;
    m.per_length_bucket = {1, 1, 1, 1};
    m.token_error_rate = 0.375;
    const nlohmann::json json = metrics_to_json(m);
    CHECK(json.at("token_error_rate") == 0.375);
    CHECK(json.at("per_char") == 0.0);  // the positional score keeps its name
    CHECK(metrics_from_json(nlohmann::json::parse(json.dump())).token_error_rate == 0.375);
    nlohmann::json older = json;
    older.erase("token_error_rate");
    CHECK(std::isnan(metrics_from_json(older).token_error_rate));

    WorkerReport r;
    r.epochs = {EpochRecord{1, 2.5f, 0.25f, 0.5f}, EpochRecord{2, 2.0f, 0.5f, 0.75f, NAN, NAN, 1.25f}};
    const nlohmann::json report = worker_report_to_json(r);
    CHECK(report.at("epochs")[0].at("token_error_rate").is_null());
    CHECK(report.at("epochs")[1].at("token_error_rate") == 1.25);
    const WorkerReport back = worker_report_from_json(nlohmann::json::parse(report.dump()));
    CHECK(std::isnan(back.epochs[0].token_error_rate));
    CHECK(back.epochs[1].token_error_rate == 1.25f);
    CHECK(back.epochs[1].per_char == 0.75f);
    nlohmann::json before = report;
    before["epochs"][1].erase("token_error_rate");
    CHECK(std::isnan(worker_report_from_json(before).epochs[1].token_error_rate));
    nlohmann::json wrong = report;
    wrong["epochs"][1]["token_error_rate"] = "low";
    CHECK_THROWS(worker_report_from_json(wrong));
}

TEST_CASE("prediction rows: exact, edit distance and marks, by hand") {
    const std::vector<Example> dates = {{"19/9/1977", "1977-09-19", 0, {}},
                                        {"19/9/1977", "1977-09-19", 0, {}},
                                        {"19/9/1977", "1977-09-19", 0, {}},
                                        {"19/9/1977", "1977-09-19", 0, {}}};
    const std::vector<PredictionRow> rows =
        prediction_rows(date_task(), dates, {"1977-09-19", "1977-9-19", "1977-09-199", ""});
    REQUIRE(rows.size() == 4);
    CHECK(rows[0].exact);
    CHECK(rows[0].edit_distance == 0);
    CHECK(rows[0].marks == "==========");
    // "1977-9-19" against "1977-09-19": "1977-" in place, then '9' '-' '1' '9' under '0' '9' '-' '1',
    // and nothing under the last '9'; one edit.
    CHECK_FALSE(rows[1].exact);
    CHECK(rows[1].edit_distance == 1);
    CHECK(rows[1].marks == "=====xxxxx");
    CHECK(rows[2].marks == "==========+");
    CHECK(rows[2].edit_distance == 1);
    CHECK(rows[3].marks == "xxxxxxxxxx");
    CHECK(rows[3].edit_distance == 10);
    CHECK(rows[3].input == "19/9/1977");
    CHECK(rows[3].target == "1977-09-19");
    CHECK(rows[3].output.empty());

    // Words: "le chien noir est" against "le chat noir": chien for chat, est past the end.
    const std::vector<PredictionRow> worded = prediction_rows(translation_task(), {{"the black cat", "le chat noir", 0, {}}},
                                                              {"le chien noir est"});
    CHECK(worded[0].marks == "=x=+");
    CHECK(worded[0].edit_distance == 2);
    CHECK_THROWS_AS(prediction_rows(date_task(), dates, {"1977-09-19"}), std::invalid_argument);
}

TEST_CASE("predictions CSV: RFC 4180, read back by the test's own reader") {
    std::vector<PredictionRow> rows = {
        {"mon, 19 sep 1977", "1977-09-19", "1977-09-19", true, 0, "=========="},
        {"he said \"hi\"", "say \"\"", "say", false, 3, "==="},
        {" padded ", "a\nb", "", false, 3, "xxx"},
        {"щи", "shchi", "shchi", true, 0, "====="},
    };
    const std::string csv = predictions_csv(rows);
    // The quoting itself, written out: a comma, quotes doubled, a space at an end, a line end.
    CHECK(csv.rfind("input,target,output,exact,edit_distance,token_marks\n"
                    "\"mon, 19 sep 1977\",1977-09-19,1977-09-19,1,0,==========\n"
                    "\"he said \"\"hi\"\"\",\"say \"\"\"\"\",say,0,3,===\n",
                    0) == 0);
    CHECK(csv.find('\r') == std::string::npos);
    const auto table = read_csv(csv);
    REQUIRE(table.size() == 5);
    CHECK(table[0] == std::vector<std::string>{"input", "target", "output", "exact", "edit_distance", "token_marks"});
    for (size_t i = 0; i < rows.size(); ++i) {
        CAPTURE(i);
        const std::vector<std::string> want = {rows[i].input, rows[i].target, rows[i].output,
                                               rows[i].exact ? "1" : "0", std::to_string(rows[i].edit_distance),
                                               rows[i].marks};
        CHECK(table[i + 1] == want);
    }
    CHECK(predictions_csv({}) == "input,target,output,exact,edit_distance,token_marks\n");
}

namespace {

using lb::testing::Printed;
using lb::testing::printed_by;

std::string text_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The line of `text` that starts with `start` ("" when none does).
std::string line_starting(const std::string& text, const std::string& start) {
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find('\n', at), text.size());
        if (text.compare(at, start.size(), start) == 0) return text.substr(at, end - at);
        at = end + 1;
    }
    return "";
}

// What no output of a reader's task may show: a number that is not one, a count of nothing.
void check_every_value_given(const Printed& printed) {
    CAPTURE(printed.out);
    CHECK(printed.out.find("nan") == std::string::npos);
    CHECK(printed.out.find("0 of 0") == std::string::npos);
    CHECK(printed.out.find("  \n") == std::string::npos);  // a label with its value missing
}

std::vector<std::string_view> words_of(const std::string& text) {
    std::vector<std::string_view> words;
    for (size_t at = 0; at < text.size();) {
        const size_t end = std::min(text.find(' ', at), text.size());
        words.push_back(std::string_view(text).substr(at, end - at));
        at = end + 1;
    }
    return words;
}

// The rows of a predictions file of a task of words, each checked against its own strings: exact,
// the edit distance recomputed, a mark a target word (and a '+' a word past it). Returns the
// split's word error rate from them.
double check_rows(const std::string& csv, size_t held_out) {
    const auto table = read_csv(csv);
    REQUIRE(table.size() == held_out + 1);
    long edits = 0, words = 0;
    for (size_t i = 1; i < table.size(); ++i) {
        CAPTURE(i);
        const std::vector<std::string>& row = table[i];
        REQUIRE(row.size() == 6);
        const auto output = words_of(row[2]), target = words_of(row[1]);
        CHECK(row[3] == (row[2] == row[1] ? "1" : "0"));
        const int distance = recursive_distance(output, target);
        CHECK(row[4] == std::to_string(distance));
        std::string marks;
        for (size_t t = 0; t < target.size(); ++t) marks += t < output.size() && output[t] == target[t] ? '=' : 'x';
        for (size_t t = target.size(); t < output.size(); ++t) marks += '+';
        CHECK(row[5] == marks);
        edits += distance;
        words += long(target.size());
    }
    return double(edits) / double(words);
}

}  // namespace

TEST_CASE("train --predictions and eval on a reader's pairs, with and without alignments: every value given") {
    using lb::cli::train;
    const std::string folder = std::filesystem::temp_directory_path().string() + "/lookback_held_out_predictions";
    std::filesystem::create_directories(folder);
    // 300 sentences of 3 to 8 words, each to its words reversed (30 held out), with the output word
    // t linked to input word n-1-t; and the same pairs without that column.
    const std::string aligned_pairs = lb::reversed_words_pairs(4, 300);
    std::string unaligned_pairs;
    for (size_t at = 0; at < aligned_pairs.size();) {
        const size_t end = aligned_pairs.find('\n', at);
        const std::string line = aligned_pairs.substr(at, end - at);
        unaligned_pairs += line.substr(0, line.find('\t', line.find('\t') + 1)) + "\n";
        at = end == std::string::npos ? aligned_pairs.size() : end + 1;
    }
    REQUIRE(unaligned_pairs.find("0-") == std::string::npos);
    const std::string aligned = folder + "/aligned.tsv", unaligned = folder + "/unaligned.tsv";
    std::ofstream(aligned) << aligned_pairs;
    std::ofstream(unaligned) << unaligned_pairs;

    for (const std::string& pairs : {unaligned, aligned}) {
        CAPTURE(pairs);
        const std::string weights = pairs + ".safetensors", json = pairs + ".json", csv = pairs + ".csv",
                          eval_csv = pairs + ".eval.csv", eval_json = pairs + ".eval.json";
        const Printed trained = printed_by([&] {
            return train({"--task-file", pairs, "--tokens", "words", "--model", "attention", "--width", "16", "--epochs",
                          "3", "--save", weights, "--json", json, "--predictions", csv});
        });
        REQUIRE(trained.code == 0);
        const nlohmann::json run = nlohmann::json::parse(std::ifstream(json));
        const size_t held_out = run.at("held_out_size").get<size_t>();
        CHECK(held_out > 0);
        const double rate = check_rows(text_of(csv), held_out);
        CHECK(run.at("token_error_rate").get<double>() == Approx(rate));

        const Printed evaluated = printed_by([&] {
            return lb::cli::eval({"--weights", weights, "--task-file", pairs, "--tokens", "words", "--predictions", eval_csv,
                                  "--json", eval_json});
        });
        REQUIRE(evaluated.code == 0);
        CHECK(text_of(eval_csv) == text_of(csv));  // the same split, decoded to the same outputs
        const nlohmann::json scored = nlohmann::json::parse(std::ifstream(eval_json));
        for (const char* key : {"held_out_size", "exact", "per_char", "token_error_rate", "task"}) {
            CAPTURE(key);
            CHECK(scored.at(key) == run.at(key));
        }
        CHECK(scored.contains("aer") == (pairs == aligned));
        if (pairs == aligned) CHECK(scored.at("aer") == run.at("aer"));
        if (!trained.captured) continue;
        for (const Printed* printed : {&trained, &evaluated}) {
            check_every_value_given(*printed);
            CHECK(printed->out.find("output position") == std::string::npos);  // targets of many lengths
            CHECK(printed->out.find("BLEU") == std::string::npos);             // not a translation
            const bool has_map = pairs == aligned;
            CHECK((printed->out.find("no alignments given") != std::string::npos) == !has_map);
            CHECK((printed->out.find("AER ") != std::string::npos) == has_map);
        }
        // The numbers eval prints are train's, line for line.
        for (const char* label : {"  exact match ", "  per-token accuracy ", "  token error rate ", "  alignment "}) {
            CAPTURE(label);
            CHECK_FALSE(line_starting(trained.out, label).empty());
            CHECK(line_starting(evaluated.out, label) == line_starting(trained.out, label));
        }
        char rate_text[16];
        std::snprintf(rate_text, sizeof rate_text, "%.4f", rate);
        CHECK(line_starting(trained.out, "  token error rate ").find(rate_text) != std::string::npos);
        // Asked for, BLEU is printed for these words too: the value the JSON holds (corpus_bleu's own
        // tests check it against hand counts).
        const Printed with_bleu = printed_by([&] {
            return lb::cli::eval({"--weights", weights, "--task-file", pairs, "--tokens", "words", "--bleu"});
        });
        REQUIRE(with_bleu.code == 0);
        char bleu_text[16];
        std::snprintf(bleu_text, sizeof bleu_text, "%.4f", scored.at("bleu").get<double>());
        CHECK(line_starting(with_bleu.out, "  BLEU ").find(bleu_text) != std::string::npos);
        CHECK(trained.out.find("predictions of the " + std::to_string(held_out) + " held-out strings written to") !=
              std::string::npos);
    }
    std::filesystem::remove_all(folder);
}

TEST_CASE("eval: weights of a built-in task scored on its split; per-position table and BLEU where they mean something") {
    const std::string dir = LOOKBACK_WEIGHTS_DIR;
    const std::string folder = std::filesystem::temp_directory_path().string() + "/lookback_eval_builtin";
    std::filesystem::create_directories(folder);
    const std::string dates = dir + "/attention-64.safetensors", csv = folder + "/dates.csv";
    const Printed printed = printed_by([&] { return lb::cli::eval({"--weights", dates, "--task", "dates", "--predictions", csv}); });
    REQUIRE(printed.code == 0);
    const auto table = read_csv(text_of(csv));
    CHECK(table.size() == size_t(date_task().held_out_size) + 1);
    // Exact match from the rows, against the one the native train recorded in the file (to six
    // decimals); as wasm the sums run in another order, and a near-tie may flip a string or two.
    long exact = 0;
    for (size_t i = 1; i < table.size(); ++i) exact += table[i][3] == "1";
    const double recorded = std::stod(read_safetensors_file(dates).metadata.at("exact"));
#ifdef __EMSCRIPTEN__
    const double flipped = 2;
#else
    const double flipped = 0;
#endif
    CHECK(std::abs(double(exact) - recorded * double(table.size() - 1)) <= flipped + 0.01);
    if (printed.captured) {
        check_every_value_given(printed);
        CHECK(printed.out.find("character error rate") != std::string::npos);
        CHECK(printed.out.find("output position") != std::string::npos);  // ten characters, every date
        CHECK(printed.out.find("AER ") != std::string::npos);
        CHECK(printed.out.find("BLEU") == std::string::npos);
    }
    // BLEU counts word n-grams: asked for on the dates' characters, it is refused, and nothing scored.
    const Printed refused = printed_by([&] { return lb::cli::eval({"--weights", dates, "--task", "dates", "--bleu"}); });
    CHECK(refused.code != 0);
    if (refused.captured) {
        CHECK(refused.err.find("--bleu needs a task whose outputs are words") != std::string::npos);
        CHECK(refused.out.find("exact match") == std::string::npos);
    }
    const Printed translated = printed_by([&] {
        return lb::cli::eval({"--weights", dir + "/attention-translation-64.safetensors", "--task", "translation"});
    });
    CHECK(translated.code == 0);
    if (translated.captured) {
        check_every_value_given(translated);
        CHECK(translated.out.find("  BLEU ") != std::string::npos);
        CHECK(translated.out.find("word error rate") != std::string::npos);
    }
    std::filesystem::remove_all(folder);
}

TEST_CASE("eval: refusals name the problem; nothing is scored") {
    using lb::cli::eval;
    using lb::cli::parse_eval_args;
    using lb::cli::UsageError;
    CHECK(eval({}) == 2);
    CHECK_THROWS_WITH_AS(parse_eval_args({"--weights", "w"}), doctest::Contains("--task-file FILE"), UsageError);
    CHECK_THROWS_AS(parse_eval_args({"--weights", "w", "--task", "dates", "--task-file", "p.tsv"}), UsageError);
    CHECK_THROWS_WITH_AS(parse_eval_args({"--weights", "w", "--task", "dates", "--tokens", "words"}),
                         "--tokens applies to a --task-file only", UsageError);
    CHECK_THROWS_WITH_AS(parse_eval_args({"--weights", "w", "--task", "french"}), doctest::Contains("'french'"), UsageError);
    CHECK(parse_eval_args({"--weights", "w", "--task", "reversal"}).task == &reversal_task());

    const std::string folder = std::filesystem::temp_directory_path().string() + "/lookback_eval_refusals";
    std::filesystem::create_directories(folder);
    const std::string pairs = folder + "/sentences.tsv", others = folder + "/others.tsv", weights = folder + "/w.safetensors";
    std::ofstream(pairs) << lb::reversed_words_pairs(4, 300);
    std::string other_words;  // 150 pairs of three of ten words the sentences never use, reversed
    for (int i = 0; i < 150; ++i) {
        const std::string a = "q" + std::to_string(i % 10), b = "q" + std::to_string(i / 10 % 10), c = "q" + std::to_string(i / 100);
        other_words += a + " " + b + " " + c + "\t" + c + " " + b + " " + a + "\n";
    }
    std::ofstream(others) << other_words;
    REQUIRE(printed_by([&] {
                return lb::cli::train({"--task-file", pairs, "--tokens", "words", "--width", "8", "--epochs", "1", "--save", weights});
            }).code == 0);
    const std::string dates = std::string(LOOKBACK_WEIGHTS_DIR) + "/attention-64.safetensors";

    const struct {
        lb::cli::Args args;
        const char* says;
    } refused[] = {
        {{"--weights", folder + "/missing.safetensors", "--task", "dates"}, "cannot use the weights"},
        {{"--weights", weights, "--task-file", folder + "/missing.tsv", "--tokens", "words"}, "not a file that can be read"},
        {{"--weights", weights, "--task-file", others, "--tokens", "words"}, "input vocabularies differ"},
        {{"--weights", weights, "--task-file", others}, "the file's tokens are characters, the weights' words"},
        {{"--weights", weights, "--task", "reversal"}, "give the pairs they were trained on with --task-file"},
        {{"--weights", dates, "--task-file", pairs, "--tokens", "words"}, "weights of the built-in task 'dates'"},
        {{"--weights", dates, "--task", "reversal"}, "weights of the task 'dates', not 'reversal'"},
        {{"--weights", dates, "--task", "dates", "--predictions", folder + "/no/such/folder.csv"}, "cannot write"},
    };
    for (const auto& r : refused) {
        CAPTURE(r.says);
        const Printed printed = printed_by([&] { return eval(r.args); });
        CHECK(printed.code == 1);
        if (printed.captured) {
            CHECK(printed.err.find(r.says) != std::string::npos);
            CHECK(printed.out.find("exact match") == std::string::npos);
        }
    }
    // train checks where its predictions go before it trains.
    CHECK(lb::cli::train({"--width", "8", "--epochs", "1", "--predictions", folder + "/no/such/folder.csv"}) == 1);
    CHECK(lb::cli::parse_train_args({"--predictions", "p.csv"}).predictions_path == "p.csv");
    CHECK_THROWS_AS(lb::cli::parse_train_args({"--predictions", ""}), UsageError);
    std::filesystem::remove_all(folder);
}
