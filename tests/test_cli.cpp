// The `lookback` commands refuse bad flags and values with a usage error
// (exit 2) and a refused input with exit 1, before doing any work.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "data/pairs_examples.h"
#include "data/reversal.h"
#include "data/translation.h"
#include "io/safetensors.h"
#include "kernels/kernels.h"
#include "io/worker_codec.h"
#include "test_helpers.h"

using namespace lb::cli;

TEST_CASE("option parsing: --name VALUE and --name=VALUE") {
    std::string value;
    size_t i = 0;
    const Args spaced = {"--width", "64", "--seed=7"};
    CHECK(take_option(spaced, i, "--width", value));
    CHECK(value == "64");
    CHECK(i == 2);
    CHECK_FALSE(take_option(spaced, i, "--width", value));  // --seed=7 is not --width
    CHECK(take_option(spaced, i, "--seed", value));
    CHECK(value == "7");
    CHECK(i == 3);
    size_t j = 0;
    CHECK_THROWS_AS(take_option(Args{"--width"}, j, "--width", value), UsageError);
    j = 0;
    CHECK_FALSE(take_option(Args{"--widths=3"}, j, "--width", value));  // a longer name
}

TEST_CASE("integers: digits only, within range") {
    CHECK(parse_integer("--width", "64", 1, 1024) == 64);
    CHECK(parse_integer("--seed", "0", 0, 10) == 0);
    for (const char* bad : {"", "0", "1025", "-3", "abc", "6 4", "1e3", "+5", "99999999999999999999"})
        CHECK_THROWS_AS(parse_integer("--width", bad, 1, 1024), UsageError);
}

TEST_CASE("commands: bad flags and values are usage errors, refused inputs exit 1") {
    CHECK(worked_example({"--nope"}) == 2);
    CHECK(train({"--bogus"}) == 2);
    CHECK(train({"--width", "0"}) == 2);
    CHECK(train({"--width=abc"}) == 2);
    CHECK(train({"--model", "lstm"}) == 2);
    CHECK(train({"--model", "transformer", "--heads", "3"}) == 2);            // not 1, 2, 4 or 8
    CHECK(train({"--model", "transformer", "--width", "12", "--heads", "8"}) == 2);  // 8 ∤ 12
    CHECK(train({"--model", "transformer", "--memory", "last"}) == 2);
    CHECK(train({"--model", "transformer", "--lr", "fast"}) == 2);
    CHECK(train({"--model", "attention", "--memory", "first"}) == 2);  // transformer only
    CHECK(train({"--model", "transformer", "--scorer", "dot"}) == 2);
    CHECK(train({"--model", "attention", "--scorer", "cosine"}) == 2);
    CHECK(train({"--model", "plain", "--scorer", "dot"}) == 2);  // a scorer has no meaning there
    CHECK(train({"--epochs"}) == 2);
    CHECK(sweep({"--out"}) == 2);
    CHECK(sweep({"--widths", "3"}) == 2);
    CHECK(predict({}) == 2);                                            // no --weights
    CHECK(predict({"--weights", "/nonexistent/model.safetensors", "19/3/1994"}) == 1);
    CHECK(predict({"--weights", "m", "--gradient-path", "1977-9-19", "19/3/1994"}) == 2);  // 9 characters
    CHECK(predict({"--weights", "m", "--gradient-path", "1977/09/19", "19/3/1994"}) == 2);
    CHECK(parse_predict_args({"--weights", "m", "--gradient-path", "1977-09-19", "x"}).gradient_target == "1977-09-19");
    CHECK(bench({"--seconds", "-1"}) == 2);
}

TEST_CASE("integers beyond any integer type are usage errors naming the option") {
    CHECK_THROWS_WITH_AS(parse_integer("--seed", "9999999999999999999", 0, INT64_MAX),
                         doctest::Contains("--seed"), UsageError);
    CHECK_THROWS_AS(parse_integer("--width", "18446744073709551616", 1, 1024), UsageError);
    CHECK(parse_integer("--seed", "9223372036854775807", 0, INT64_MAX) == INT64_MAX);
    for (const char* flag : {"--seed", "--width", "--epochs", "--data-seed"})
        CHECK(train({flag, "9999999999999999999"}) == 2);
    CHECK(sweep({"--seed", "9999999999999999999"}) == 2);
    CHECK(sweep({"--data-seed=9999999999999999999"}) == 2);
    CHECK_THROWS_WITH_AS(parse_bench_args({"--widths", "8,9999999999999999999"}),
                         doctest::Contains("--widths"), UsageError);
    CHECK_THROWS_WITH_AS(parse_bench_args({"--seconds", "1e999"}), doctest::Contains("--seconds"),
                         UsageError);
    CHECK_THROWS_WITH_AS(parse_bench_args({"--seconds", "nan"}), doctest::Contains("--seconds"),
                         UsageError);
    CHECK(bench({"--widths", "9999999999999999999"}) == 2);
}

TEST_CASE("bench and sweep --widths: the widths a run takes, 1 to 1024 as train --width") {
    CHECK(parse_bench_args({"--widths", "1,1024"}).widths == std::vector<int>{1, 1024});
    CHECK(parse_sweep_args({"--published", "--widths", "1024"}).widths == std::vector<int>{1024});
    CHECK_THROWS_WITH_AS(parse_bench_args({"--widths", "8,1025"}), doctest::Contains("from 1 to 1024"), UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--published", "--widths", "0"}), doctest::Contains("--widths"), UsageError);
    CHECK_THROWS_AS(parse_bench_args({"--widths", "8,,16"}), UsageError);
}

TEST_CASE("bench --task: a task by name, the date task by default; a bad one refused by name") {
    CHECK(parse_bench_args({}).task == &lb::date_task());
    CHECK(parse_bench_args({"--task", "reversal"}).task == &lb::reversal_task());
    CHECK(parse_bench_args({"--task=translation", "--models", "additive"}).task ==
          &lb::translation_task());
    CHECK_THROWS_WITH_AS(parse_bench_args({"--task", "french"}), doctest::Contains("'french'"),
                         UsageError);
    CHECK_THROWS_WITH_AS(parse_bench_args({"--task", "Dates"}), doctest::Contains("reversal"),
                         UsageError);
    CHECK_THROWS_AS(parse_bench_args({"--task"}), UsageError);
    CHECK_THROWS_AS(parse_bench_args({"--write-split", ""}), UsageError);
    CHECK(bench({"--task", "french"}) == 2);
}

TEST_CASE("bench --write-split: the task's training split as token ids, targets with their end") {
    const std::string path =
        (std::filesystem::temp_directory_path() / "lookback_test_split.json").string();
    REQUIRE(bench({"--task", "reversal", "--write-split", path}) == 0);
    std::ifstream in(path);
    const nlohmann::json split = nlohmann::json::parse(in);
    std::filesystem::remove(path);
    const lb::Task& task = lb::reversal_task();
    CHECK(split["task"] == "reversal");
    CHECK(split["input_vocabulary"] == task.input.size());
    CHECK(split["output_vocabulary"] == task.output.size());
    CHECK(split["output_steps"] == 28);
    CHECK(split["end_token"] == 2);
    REQUIRE(split["inputs"].size() == size_t(task.train_size));
    REQUIRE(split["targets"].size() == size_t(task.train_size));
    const lb::Splits data = task.make_splits(1, task.train_size, task.held_out_size);
    for (size_t i = 0; i < data.train.size(); ++i) {
        const std::vector<int> input = split["inputs"][i], target = split["targets"][i];
        CHECK(input == task.input.encode(data.train[i].input));
        // the target reversed, then the end token; no padding
        REQUIRE(target.size() == input.size() + 1);
        CHECK(target.back() == task.end_token());
        CHECK(task.output.decode(target) == data.train[i].target);
    }
    // The date task has no end token: ten steps, all of them scored.
    const std::string dates = path + ".dates";
    REQUIRE(bench({"--write-split", dates}) == 0);
    std::ifstream in_dates(dates);
    const nlohmann::json date_split = nlohmann::json::parse(in_dates);
    std::filesystem::remove(dates);
    CHECK(date_split["end_token"].is_null());
    CHECK(date_split["targets"][0].size() == 10);
    CHECK(bench({"--write-split", "/nonexistent/folder/split.json"}) == 1);
}

TEST_CASE("bench --json: a peak measured in the run, and every GFLOP/s as a fraction of it") {
    // A short run (natively only: the wasm suite cannot capture what a command prints).
    const lb::testing::Printed printed = lb::testing::printed_by(
        [] { return bench({"--json", "--seconds", "0.2", "--widths", "8", "--models", "additive"}); });
    REQUIRE(printed.code == 0);
    if (!printed.captured) return;
    const nlohmann::json out = nlohmann::json::parse(printed.out);
    const nlohmann::json& peak = out["peak"];
    REQUIRE(peak.is_object());
    CHECK(peak["gflops"].get<double>() > 0);
    CHECK(peak["accumulators"] == lb::kernels::peak_accumulators());
    CHECK(peak["floats"] == lb::kernels::peak_floats());
    CHECK(peak["checksum"] == double(lb::kernels::peak_floats()));  // every lane converged to 1
    CHECK((peak["instruction"] == "fma" || peak["instruction"] == "mul+add"));
    // Each figure's fraction is its GFLOP/s over the peak's, and no kernel or model beats the
    // peak by more than the rounds' noise: a fraction above 1.2 would mean a peak loop that
    // waits (too few accumulators) or a FLOP count that is wrong.
    const auto check_fraction = [&](const nlohmann::json& row) {
        const double fraction = row["fraction_of_peak"];
        INFO(row.dump());
        CHECK(fraction > 0);
        CHECK(fraction <= 1.2);
        CHECK(fraction == doctest::Approx(row["gflops"].get<double>() / peak["gflops"].get<double>()));
    };
    REQUIRE(out["kernels"].size() > 0);
    for (const nlohmann::json& row : out["kernels"]) check_fraction(row);
    REQUIRE(out["results"].size() == 1);
    check_fraction(out["results"][0]);
}

TEST_CASE("decimals: finite, in range, named in the message") {
    CHECK(parse_decimal("--lr", "0.003", 0, 10) == doctest::Approx(0.003));
    CHECK(parse_decimal("--lr", "3e-3", 0, 10) == doctest::Approx(0.003));
    CHECK(parse_decimal("--lr", "10", 0, 10) == 10);
    for (const char* bad : {"", "0", "-1", "10.5", "1e30", "inf", "nan", " 1", "0x1p3", "1,5", "1e999"})
        CHECK_THROWS_WITH_AS(parse_decimal("--lr", bad, 0, 10), doctest::Contains("--lr"), UsageError);
}

TEST_CASE("train --lr: a finite rate above 0 and at most 10; a diverging run exits 1") {
    CHECK(parse_train_args({"--lr", "0.003"}).run.learning_rate == doctest::Approx(0.003f));
    CHECK(parse_train_args({}).run.learning_rate == doctest::Approx(1e-3f));
    CHECK(parse_sweep_args({"--lr=0.01"}).learning_rate == doctest::Approx(0.01f));
    for (const char* bad : {"0", "-0.1", "1e30", "nan", "inf", "abc", ""})
        CHECK(train({"--lr", bad}) == 2);
    CHECK(sweep({"--lr", "11"}) == 2);
    CHECK(parse_sweep_args({"--transformer"}).transformer);
    CHECK_FALSE(parse_sweep_args({}).transformer);
    CHECK(sweep({"--transformer", "--seed", "4"}) == 2);  // its seeds are 1-3
    CHECK(sweep({"--transformer", "--out", "/nonexistent/folder"}) == 1);  // before any training
    // Even lr 10 saturates rather than overflows here, so the guard is reached
    // through the run the commands share, with a rate no flag accepts.
    RunOptions o;
    o.model.H = 8;
    o.epochs = 3;
    o.learning_rate = 1e30f;
    const RunResult r = train_and_evaluate(o, lb::make_date_splits(1, 128, 12));
    CHECK(r.failure.find("not finite") != std::string::npos);
    CHECK(r.history.size() < 3);
}

TEST_CASE("predict shows a refused text escaped and cut, with its length") {
    const std::string escape = refusal_line("\x1b]0;owned\x07\x1b[2J", "why");
    CHECK(escape == "lookback: refused '\\x1b]0;owned\\x07\\x1b[2J': why");
    const std::string long_line = refusal_line(std::string(10000, 'a'), "too long");
    CHECK(long_line.size() < 120);
    CHECK(long_line.find("(10000 bytes)") != std::string::npos);
    CHECK(predict({"--weights", "/nonexistent", "\x1b[2J"}) == 1);
}

TEST_CASE("train: outputs checked and the run's length estimated before any training") {
    const std::string folder = std::filesystem::temp_directory_path().string();
    const std::string json = folder + "/lookback_cli_check.json";
    std::filesystem::remove(json);
    // --save cannot be written: refused before training, so --json is not written either.
    CHECK(train({"--width", "8", "--epochs", "1", "--json", json, "--save",
                 "/nonexistent/folder/model.safetensors"}) == 1);
    CHECK_FALSE(std::filesystem::exists(json));
    CHECK(train({"--width", "8", "--epochs", "1", "--save", folder}) == 1);  // a folder
    CHECK(write_problem(folder) == "it is not a regular file");
    CHECK(write_problem(json).empty());
    CHECK_FALSE(std::filesystem::exists(json));  // the probe leaves nothing behind

    // docs/design.md's FLOP model by hand, attention at width 1024, S = 18, E_in 32, E_out 16:
    // encoder 18·3·1024·1056 = 58,392,576 and decoder 11·(3·1024·2064 + 2·18·1024 + 1024²)
    // = 81,686,528 multiply-adds; ×2 FLOPs ×3 for training = 840,474,624 per example;
    // 10000 epochs of 6000 at 50 GFLOP/s = 1,008,569.55 s, about 12 days.
    // The mean length is the training inputs': 6000 inputs of 18 characters here.
    RunOptions o;
    o.model.H = 1024;
    o.epochs = 10000;
    const std::vector<lb::Example> eighteen(6000, lb::Example{"18 characters long", "2000-01-01", 0, {}});
    CHECK(estimated_train_seconds(o, eighteen) == doctest::Approx(1008569.55).epsilon(1e-7));
    CHECK(train({"--width", "1024", "--epochs", "10000"}) == 1);  // refused at once
    o.model.H = 64;
    o.epochs = 12;
    CHECK(estimated_train_seconds(o, lb::make_date_splits(1).train) < 10);  // the shipped models: seconds
    // The task's own output steps: a reversal writes up to 28 tokens where a date writes 10, so the
    // same inputs cost more to train on.
    RunOptions reversal = o;
    reversal.model.task = &lb::reversal_task();
    CHECK(estimated_train_seconds(reversal, eighteen) > 1.5 * estimated_train_seconds(o, eighteen));
}

TEST_CASE("a held-out evaluation after every epoch changes nothing the run trains") {
    // The sweep's shipped-settings runs evaluate each epoch, the build's shipped
    // models do not: they must be the same model.
    const lb::Splits data = lb::make_date_splits(1, 192, 24);
    RunOptions o;
    o.model.decoder = lb::DecoderKind::transformer;
    o.model.H = 16;
    o.epochs = 2;
    const RunResult quiet = train_and_evaluate(o, data);
    o.evaluate_each_epoch = true;
    const RunResult evaluated = train_and_evaluate(o, data);
    REQUIRE(evaluated.history.size() == 2);
    CHECK(std::isnan(quiet.history.back().exact));
    CHECK(evaluated.history.back().exact == doctest::Approx(evaluated.metrics.exact));
    CHECK(evaluated.history.back().per_char == doctest::Approx(evaluated.metrics.per_char));
    CHECK(evaluated.history.back().train_loss == quiet.history.back().train_loss);
    const auto a = lb::named_tensors(quiet.model.params), b = lb::named_tensors(evaluated.model.params);
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i)
        CHECK(std::equal(a[i].data, a[i].data + a[i].size, b[i].data));
}

TEST_CASE("a run's record reads back as the settings it ran with") {
    // run_json writes a run's settings through the schema, so a row of a sweep's file is a config.
    const lb::Splits data = lb::make_date_splits(1, 96, 12);
    RunOptions luong;
    luong.model.decoder = lb::DecoderKind::luong;
    luong.model.scorer = lb::Scorer::general;
    luong.model.input_feeding = true;
    luong.model.H = 8;
    luong.epochs = 1;
    luong.seed = 7;
    luong.learning_rate = 3e-3f;
    RunOptions transformer;
    transformer.model.decoder = lb::DecoderKind::transformer;
    transformer.model.memory = lb::Memory::first;
    transformer.model.H = 8;
    transformer.model.heads = 2;
    transformer.model.dropout = 0.25f;
    transformer.epochs = 1;
    transformer.warmup_steps = 3;
    for (const RunOptions& o : {luong, transformer}) {
        const nlohmann::json row = run_json(o, train_and_evaluate(o, data));
        const lb::RunSettings back = lb::run_settings_from_record(row);
        CHECK(back.model.decoder == o.model.decoder);
        CHECK(back.model.scorer == o.model.scorer);
        CHECK(back.model.input_feeding == o.model.input_feeding);
        CHECK(back.model.H == o.model.H);
        CHECK(back.model.memory == o.model.memory);
        CHECK(back.model.heads == o.model.heads);
        CHECK(back.model.dropout == o.model.dropout);
        CHECK(back.model.task == o.model.task);
        CHECK(back.epochs == o.epochs);
        CHECK(back.seed == o.seed);
        CHECK(back.learning_rate == o.learning_rate);
        CHECK(back.warmup_steps == o.warmup_steps);
        CHECK(row.at("parameters").get<long>() == lb::parameter_count(o.model));
    }
}

TEST_CASE("train and sweep take the published models, with each model's own scorers") {
    using lb::DecoderKind, lb::ModelConfig, lb::Scorer;
    const ModelConfig bahdanau = parse_train_args({"--model", "bahdanau"}).run.model;
    CHECK(bahdanau.decoder == DecoderKind::bahdanau);
    CHECK(bahdanau.scorer == Scorer::additive);
    const ModelConfig concat =
        parse_train_args({"--scorer", "concat", "--model", "luong", "--input-feeding"}).run.model;
    CHECK(concat.decoder == DecoderKind::luong);
    CHECK(concat.scorer == Scorer::additive);  // concat is the additive function (model.h)
    CHECK(concat.input_feeding);
    const ModelConfig local = parse_train_args({"--model", "luong-local"}).run.model;
    CHECK(local.decoder == lb::DecoderKind::luong_local);
    CHECK(local.scorer == Scorer::general);  // the default for the Luong models
    CHECK(!local.input_feeding);
    CHECK_THROWS_WITH_AS(parse_train_args({"--model", "luong-local", "--scorer", "concat"}),
                         doctest::Contains("dot or general"), UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--model", "luong", "--scorer", "additive"}),
                         doctest::Contains("dot, general or concat"), UsageError);
    CHECK_THROWS_AS(parse_train_args({"--model", "attention", "--scorer", "concat"}), UsageError);
    CHECK_THROWS_AS(parse_train_args({"--model", "bahdanau", "--scorer", "dot"}), UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--input-feeding"}), doctest::Contains("luong"), UsageError);
    CHECK_THROWS_AS(parse_train_args({"--model", "plain", "--scorer", "dot"}), UsageError);
    const SweepArgs sweep_args = parse_sweep_args({"--published", "--widths", "16,64", "--seeds", "2"});
    CHECK(sweep_args.published);
    CHECK(sweep_args.widths == std::vector<int>{16, 64});
    CHECK(sweep_args.seeds == 2);
    CHECK_THROWS_AS(parse_sweep_args({"--widths", "16"}), UsageError);  // --published only
    CHECK_THROWS_AS(parse_sweep_args({"--published", "--widths", "16,0"}), UsageError);
}

TEST_CASE("sweep --alignment takes a task and seeds; the other sweeps take neither a task nor the same seeds") {
    const SweepArgs reversal = parse_sweep_args({"--alignment", "--task", "reversal", "--seeds", "2"});
    CHECK(reversal.alignment);
    CHECK(reversal.task == &lb::find_task("reversal"));
    CHECK(reversal.seeds == 2);
    CHECK(parse_sweep_args({"--alignment"}).task == &lb::date_task());
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--task", "reversal"}), doctest::Contains("--alignment only"), UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--seeds", "2"}), doctest::Contains("--seeds"), UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--alignment", "--transformer"}), doctest::Contains("give one"), UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--alignment", "--task", "french"}), doctest::Contains("--task must be dates, reversal or translation"),
                         UsageError);
    CHECK_THROWS_AS(parse_sweep_args({"--alignment", "--widths", "16"}), UsageError);
}

TEST_CASE("a run's flags are the settings schema's: its bounds, its refusals, in any order") {
    CHECK(parse_train_args({"--seed", "2147483647"}).run.seed == 2147483647u);
    CHECK_THROWS_WITH_AS(parse_train_args({"--seed", "2147483648"}),
                         "--seed must be an integer from 0 to 2147483647, not '2147483648'", UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--model", "attention", "--input-feeding"}),
                         "--input-feeding applies to --model luong and luong-local only, not attention", UsageError);
    const TrainArgs local = parse_train_args({"--input-feeding", "--scorer", "dot", "--model=luong-local", "--width=32"});
    CHECK(local.run.model.decoder == lb::DecoderKind::luong_local);
    CHECK(local.run.model.scorer == lb::Scorer::dot);
    CHECK(local.run.model.input_feeding);
    CHECK(local.run.model.H == 32);
    CHECK_THROWS_AS(parse_train_args({"--input-feeding=1", "--model", "luong"}), UsageError);  // the flag alone
    const SweepArgs sweep_args = parse_sweep_args({"--epochs", "3", "--data-seed", "9"});
    CHECK(sweep_args.epochs == 3);
    CHECK(sweep_args.data_seed == 9u);
    CHECK_THROWS_AS(parse_sweep_args({"--width", "8"}), UsageError);  // not a sweep's setting
    CHECK(chance({"--data-seed", "2147483648"}) == 2);
}

TEST_CASE("train and sweep take the date task's dial: --formats and --field-order") {
    const lb::DateDial want{{0, 2}, "ymd"};
    CHECK(parse_train_args({"--field-order", "ymd", "--formats=2,0"}).run.model.task == &lb::date_task(want));
    CHECK(parse_train_args({"--formats", "5", "--task", "dates"}).run.model.task == &lb::date_task(lb::DateDial{{5}, "dmy"}));
    CHECK(parse_train_args({}).run.model.task == &lb::date_task());
    CHECK_THROWS_WITH_AS(parse_train_args({"--formats", "0,7"}),
                         "--formats must be format numbers from 0 to 5 separated by commas, each once, such as 5 or "
                         "0,2,5, not '0,7'",
                         UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--field-order", "dym", "--field-order", "ymy"}),
                         "--field-order must be dmy, dym, mdy, myd, ydm or ymd, not 'ymy'", UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--task", "reversal", "--formats", "0"}),
                         "--formats applies to --task dates only, not reversal", UsageError);
    CHECK(train({"--formats", "1,1"}) == 2);

    const SweepArgs all = parse_sweep_args({"--dial"});
    CHECK(all.dial);
    CHECK(all.seeds == 3);
    REQUIRE(all.dials.size() == 7);
    CHECK(all.dials[0] == lb::DateDial{{5}, "dmy"});  // one format
    std::vector<std::string> orders;
    for (size_t k = 1; k < all.dials.size(); ++k) {
        CHECK(all.dials[k].formats == lb::DateDial{}.formats);
        orders.push_back(all.dials[k].order);
    }
    std::sort(orders.begin(), orders.end());
    CHECK(orders == std::vector<std::string>{"dmy", "dym", "mdy", "myd", "ydm", "ymd"});
    const SweepArgs one = parse_sweep_args({"--dial", "--field-order", "mdy", "--seeds", "2"});
    CHECK(one.dials == std::vector<lb::DateDial>{{lb::DateDial{}.formats, "mdy"}});
    CHECK(one.seeds == 2);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--formats", "0"}), "--formats and --field-order apply to --dial only", UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--alignment", "--field-order", "ymd"}), doctest::Contains("--dial only"), UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--dial", "--published"}), doctest::Contains("give one"), UsageError);
    CHECK_THROWS_WITH_AS(parse_sweep_args({"--dial", "--task", "reversal"}), doctest::Contains("--alignment only"), UsageError);
    CHECK(sweep({"--dial", "--out", "/nonexistent/folder"}) == 1);  // before any training

    // A model of another setting is not measured on the lesson's dates as if it were one of them.
    lb::ModelConfig config;
    config.H = 4;
    config.task = &lb::date_task(lb::DateDial{{5}, "ymd"});
    const std::string path = std::filesystem::temp_directory_path().string() + "/lookback_dial_model.safetensors";
    lb::save_model(path, lb::make_model(config));
    CHECK(lb::load_model(path).config.task == config.task);
    CHECK(counterfactual({path}) == 2);
    std::filesystem::remove(path);
}

TEST_CASE("sweep --dial: a field right in full, and what guessing its most common value scores") {
    auto ex = [](const char* target) { return lb::Example{"x", target, 0, {}}; };
    const std::vector<lb::Example> examples = {ex("1994-03-19"), ex("2001-03-04"), ex("1994-12-19"), ex("1950-05-04"),
                                               ex("1994-01-01")};
    const std::vector<std::string> predictions = {"1994-03-19", "2001-03-05", "19", "1950-05-14", "1994-10-01"};
    // Years right: 1, 2, 4, 5 (the third is cut short); months: 1, 2, 4; days: 1, 5.
    CHECK(field_right(examples, predictions, 0, 4) == doctest::Approx(0.8));
    CHECK(field_right(examples, predictions, 5, 2) == doctest::Approx(0.6));
    CHECK(field_right(examples, predictions, 8, 2) == doctest::Approx(0.4));
    // 1994 three times of five; 03 twice; 19 and 04 twice each.
    CHECK(field_chance(examples, 0, 4) == doctest::Approx(0.6));
    CHECK(field_chance(examples, 5, 2) == doctest::Approx(0.4));
    CHECK(field_chance(examples, 8, 2) == doctest::Approx(0.4));
    CHECK_THROWS_AS(field_right(examples, {"1994-03-19"}, 0, 4), std::invalid_argument);
    CHECK_THROWS_AS(field_chance({}, 0, 4), std::invalid_argument);
}

TEST_CASE("sweep --dial at one setting: its files, every field no better than its weakest character") {
    const std::string folder = std::filesystem::temp_directory_path().string() + "/lookback_dial";
    std::filesystem::create_directories(folder);
    REQUIRE(sweep({"--dial", "--formats", "5", "--field-order", "ymd", "--epochs", "1", "--seeds", "1", "--out", folder}) == 0);
    std::ifstream in(folder + "/dial.json");
    const nlohmann::json dial = nlohmann::json::parse(in);
    REQUIRE(dial.at("settings").size() == 1);
    const nlohmann::json& setting = dial.at("settings")[0];
    CHECK(setting.at("formats") == "5");
    CHECK(setting.at("field_order") == "ymd");
    CHECK(setting.at("group_names") == nlohmann::json{"yyyy mm dd"});
    REQUIRE(dial.at("runs").size() == 2);
    for (const nlohmann::json& run : dial.at("runs")) {
        CHECK(run.at("formats") == "5");
        const auto& pos = run.at("per_position");
        CHECK(run.at("fields").at("year").get<double>() <=
              std::min({pos[0].get<double>(), pos[1].get<double>(), pos[2].get<double>(), pos[3].get<double>()}) + 1e-12);
        CHECK(run.at("fields").at("month").get<double>() <= std::min(pos[5].get<double>(), pos[6].get<double>()) + 1e-12);
        CHECK(run.at("fields").at("day").get<double>() <= std::min(pos[8].get<double>(), pos[9].get<double>()) + 1e-12);
        CHECK(run.at("exact").get<double>() <= run.at("fields").at("day").get<double>() + 1e-12);
    }
    // The chance of the year, counted here from the same split.
    const lb::Splits data = lb::date_task(lb::DateDial{{5}, "ymd"}).make_splits(1, 6000, 1200);
    std::map<std::string, int> years;
    int most = 0;
    for (const lb::Example& e : data.held_out) most = std::max(most, ++years[e.target.substr(0, 4)]);
    CHECK(setting.at("chance").at("year").get<double>() == doctest::Approx(most / 1200.0));
    std::ifstream md(folder + "/dial.md");
    const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
    CHECK(text.find("| 5 (`yyyy mm dd`) | ymd | plain |") != std::string::npos);
    CHECK(text.find("| 5 (`yyyy mm dd`) | ymd | year ") != std::string::npos);  // the year read first
    std::filesystem::remove_all(folder);
}

TEST_CASE("assets/dial.json: its default setting trained what the lesson's sweep did; its summaries are its runs'") {
    auto read = [](const char* name) {
        std::ifstream in(std::string(LOOKBACK_MEASURED_DIR) + "/" + name);
        REQUIRE_MESSAGE(in, name);
        return nlohmann::json::parse(in);
    };
    const nlohmann::json dial = read("dial.json"), sweep_json = read("sweep.json");
    // Seed 1 at the defaults is `lookback sweep`'s width-64 pair: the same strings, the same runs.
    for (const char* model : {"plain", "attention"}) {
        CAPTURE(model);
        const auto is_default = [&](const nlohmann::json& r) {
            return r.at("model") == model && r.at("formats") == "0,1,2,3,4,5" && r.at("field_order") == "dmy" && r.at("seed") == 1;
        };
        const auto runs = dial.at("runs");
        const auto ours = std::find_if(runs.begin(), runs.end(), is_default);
        REQUIRE(ours != runs.end());
        const auto lesson = std::find_if(sweep_json.at("runs").begin(), sweep_json.at("runs").end(),
                                         [&](const nlohmann::json& r) { return r.at("model") == model && r.at("width") == 64; });
        CHECK(ours->at("exact") == lesson->at("exact"));
        CHECK(ours->at("per_position") == lesson->at("per_position"));
    }
    // Every summary's field is the mean, lowest and highest of its setting's runs.
    for (const nlohmann::json& setting : dial.at("settings"))
        for (const nlohmann::json& model : setting.at("models"))
            for (const char* field : {"year", "month", "day"}) {
                double sum = 0, lo = 1, hi = 0;
                int n = 0;
                for (const nlohmann::json& r : dial.at("runs"))
                    if (r.at("formats") == setting.at("formats") && r.at("field_order") == setting.at("field_order") &&
                        r.at("model") == model.at("model")) {
                        const double v = r.at("fields").at(field).get<double>();
                        sum += v, lo = std::min(lo, v), hi = std::max(hi, v), ++n;
                    }
                CHECK(n == 3);
                CHECK(model.at("fields").at(field).at("mean").get<double>() == doctest::Approx(sum / n));
                CHECK(model.at("fields").at(field).at("min").get<double>() == lo);
                CHECK(model.at("fields").at(field).at("max").get<double>() == hi);
            }
}

TEST_CASE("predict --attend STEP=POS[,STEP=POS...] and --head H: parsed, refused by name, run on the shipped model") {
    const PredictArgs parsed = parse_predict_args({"--weights", "m", "--attend", "8=20,9=21", "--head=2", "x"});
    REQUIRE(parsed.attend.size() == 2);
    CHECK(parsed.attend[0].step == 8);
    CHECK(parsed.attend[0].position == 20);
    CHECK(parsed.attend[1].step == 9);
    CHECK(parsed.attend[1].position == 21);
    CHECK(parsed.head == 2);
    CHECK_FALSE(parse_predict_args({"--weights", "m", "x"}).head);
    for (const char* bad : {"8", "8=", "=3", "8=3=1", "a=1", "8=-1", "8=3,", "8:3", "1000=1"})
        CHECK_THROWS_WITH_AS(parse_predict_args({"--weights", "m", "--attend", bad, "x"}), doctest::Contains("--attend"),
                             UsageError);
    CHECK_THROWS_WITH_AS(parse_predict_args({"--weights", "m", "--head", "1", "x"}),
                         doctest::Contains("--head says which head --attend moves"), UsageError);
    CHECK_THROWS_WITH_AS(parse_predict_args({"--weights", "m", "--attend", "1=1", "--head", "8", "x"}),
                         doctest::Contains("--head"), UsageError);

    // What the loaded model decides: attention to move, heads to choose from, steps it writes.
    lb::ModelConfig attention, plain, transformer;
    plain.decoder = lb::DecoderKind::plain;
    transformer.decoder = lb::DecoderKind::transformer;  // 4 heads
    const PredictArgs head0 = parse_predict_args({"--weights", "m", "--attend", "9=1", "--head", "0", "x"});
    const PredictArgs head4 = parse_predict_args({"--weights", "m", "--attend", "9=1", "--head", "4", "x"});
    const PredictArgs step10 = parse_predict_args({"--weights", "m", "--attend", "10=1", "x"});
    CHECK_NOTHROW(check_predict_model(head0, transformer));
    CHECK_THROWS_WITH_AS(check_predict_model(head0, attention), doctest::Contains("--head applies to transformer weights only"),
                         UsageError);
    CHECK_THROWS_WITH_AS(check_predict_model(head4, transformer),
                         doctest::Contains("--head 4 is outside the transformer's 4 heads (0 to 3)"), UsageError);
    CHECK_THROWS_WITH_AS(check_predict_model(step10, attention),
                         doctest::Contains("--attend 10=1: the model writes 10 output steps (0 to 9)"), UsageError);
    CHECK_THROWS_WITH_AS(check_predict_model(step10, plain), doctest::Contains("which a plain model does not have"),
                         UsageError);

    const std::string weights = std::string(LOOKBACK_WEIGHTS_DIR) + "/attention-64.safetensors";
    const std::string date = "monday 19 september 1977";  // 24 characters
    CHECK(predict({"--weights", weights, "--attend", "9=21", date}) == 0);
    CHECK(predict({"--weights", weights, "--json", "--attend", "8=20,9=21", date}) == 0);
    CHECK(predict({"--weights", weights, "--attend", "9=24", date}) == 2);     // past the input: padding
    CHECK(predict({"--weights", weights, "--attend", "9=3,9=4", date}) == 2);  // step 9 twice
    CHECK(predict({"--weights", weights, "--attend", "9=1", "--head", "0", date}) == 2);
}

TEST_CASE("counterfactual: weights files of date models with attention; the rest refused before any work") {
    const CounterfactualArgs parsed = parse_counterfactual_args({"--out", "/tmp/x", "--data-seed=3", "a", "b"});
    CHECK(parsed.out_dir == "/tmp/x");
    CHECK(parsed.data_seed == 3);
    CHECK(parsed.weights == std::vector<std::string>{"a", "b"});
    CHECK(parse_counterfactual_args({"a"}).out_dir == "assets");
    CHECK_THROWS_WITH_AS(parse_counterfactual_args({}), doctest::Contains("give at least one weights file"), UsageError);
    CHECK_THROWS_AS(parse_counterfactual_args({"--data-seed", "x", "a"}), UsageError);
    CHECK(counterfactual({"--widths", "8", "a"}) == 2);
    // --data-seed is the settings schema's, as train's and chance's are: 0 to 2³¹ − 1.
    CHECK(parse_counterfactual_args({"--data-seed", "2147483647", "a"}).data_seed == 2147483647u);
    CHECK_THROWS_WITH_AS(parse_counterfactual_args({"--data-seed", "9223372036854775807", "a"}),
                         "--data-seed must be an integer from 0 to 2147483647, not '9223372036854775807'", UsageError);
    CHECK_THROWS_WITH_AS(parse_counterfactual_args({"--data-seed=2147483648", "a"}),
                         "--data-seed must be an integer from 0 to 2147483647, not '2147483648'", UsageError);
    CHECK(counterfactual({"--data-seed", "9223372036854775807", "a"}) == 2);
    CHECK(counterfactual({"/nonexistent/model.safetensors"}) == 1);
    const std::string dir = LOOKBACK_WEIGHTS_DIR;
    CHECK(counterfactual({dir + "/plain-64.safetensors"}) == 2);                 // no attention to move
    CHECK(counterfactual({dir + "/attention-reversal-64.safetensors"}) == 2);    // not a date model
}

TEST_CASE("train --task-file: a reader's pairs as the page reads them; predict reads the task from the weights") {
    CHECK_THROWS_WITH_AS(parse_train_args({"--tokens", "words"}), "--tokens applies to a --task-file only", UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--task-file", "x.tsv", "--tokens", "bytes"}),
                         "--tokens must be chars or words, not 'bytes'", UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--task-file", "x.tsv", "--task", "reversal"}),
                         "--task does not apply to a --task-file: its pairs are the task", UsageError);
    CHECK_THROWS_WITH_AS(parse_train_args({"--task-file", "x.tsv", "--formats", "5"}),
                         "--formats does not apply to a --task-file: its pairs are the task", UsageError);
    CHECK(parse_train_args({"--task-file", "x.tsv", "--tokens", "words"}).tokens == lb::PairsTokens::words);

    const std::string folder = std::filesystem::temp_directory_path().string() + "/lookback_cli_pairs";
    std::filesystem::create_directories(folder);
    const std::string pairs = folder + "/sentences.tsv", weights = folder + "/sentences.safetensors",
                      json = folder + "/sentences.json", broken = folder + "/broken.tsv";
    // 300 sentences of 3 to 8 words, each to its words reversed: 10 % held out, 270 to train.
    std::ofstream(pairs) << lb::reversed_words_pairs(4, 300);
    std::ofstream(broken) << "one\ttwo\nthree four\n";
    CHECK(train({"--task-file", folder + "/missing.tsv"}) == 1);
    CHECK(train({"--task-file", broken, "--width", "8", "--epochs", "1"}) == 1);  // line 2: no tab
    CHECK(train({"--task-file", pairs, "--tokens", "words", "--width", "8", "--epochs", "1", "--save", weights,
                 "--json", json}) == 0);
    CHECK_THROWS(lb::find_task("sentences"));  // the task left the table with the command
    const nlohmann::json run = nlohmann::json::parse(std::ifstream(json));
    CHECK(run["task"] == "sentences");
    CHECK(run["held_out_size"].get<int>() + 270 <= 300);  // 30 held out, fewer if some are set aside
    CHECK(run["held_out_size"].get<int>() > 0);
    const lb::SafetensorsContent content = lb::read_safetensors_file(weights);
    CHECK(content.metadata.at("task_tokens") == "words");

    // The weights alone decode it: a sentence of its words, and one with a word it never saw.
    const lb::Task task = *lb::task_in_weights(content);
    const std::string word = task.input.tokens()[1];
    CHECK(predict({"--weights", weights, word + " " + word}) == 0);
    CHECK(predict({"--weights", weights, "zzzz"}) == 1);
    CHECK_THROWS(lb::find_task("sentences"));
    // A file carrying a task named as one the program has is refused.
    lb::SafetensorsContent renamed = content;
    renamed.metadata["task"] = "reversal";
    lb::write_safetensors_file(weights, renamed);
    CHECK(predict({"--weights", weights, word}) == 1);
    std::filesystem::remove_all(folder);
}
