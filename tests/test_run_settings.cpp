// The one schema of a run's settings (settings/run_settings.h) and the worker's codec
// (io/worker_codec.h): bounds, words and refusals in one place, a config and a report that
// survive the round trip.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "io/worker_codec.h"
#include "settings/run_settings.h"
#include "test_helpers.h"
#include "training/trainer.h"

using namespace lb;

namespace {

std::string flag_name(const SettingField& field) { return field.flag; }

RunSettings from_text(std::initializer_list<std::pair<const char*, const char*>> pairs) {
    GivenSettings given;
    for (const auto& [key, text] : pairs) given.emplace_back(find_setting(key), text);
    return read_run_settings(given, flag_name);
}

}  // namespace

TEST_CASE("settings schema: every field has a key, a flag and a text that reads back") {
    RunSettings s;
    for (const SettingField& field : run_setting_fields()) {
        INFO(field.key);
        CHECK(find_setting(field.key) == &field);
        CHECK(find_setting_flag(field.flag) == &field);
        CHECK(std::string(field.flag).rfind("--", 0) == 0);
        if (!applies_to(field, s.model.decoder)) continue;
        RunSettings back;
        CHECK(try_set_setting(back, field, setting_text(field, s)));
        CHECK(setting_text(field, back) == setting_text(field, s));
    }
}

TEST_CASE("settings schema: bounds, checked as the stored type, with one wording") {
    const SettingField& width = *find_setting("width");
    RunSettings s;
    CHECK(try_set_setting(s, width, "1024"));
    CHECK(s.model.H == 1024);
    for (const char* bad : {"0", "1025", "-3", "6 4", "1e3", "+5", "", "99999999999999999999"}) {
        RunSettings untouched;
        CHECK_FALSE(try_set_setting(untouched, width, bad));
        CHECK(untouched.model.H == 64);
    }
    CHECK_THROWS_WITH_AS(set_setting(s, width, "2048", "tr.width"),
                         "tr.width must be an integer from 1 to 1024, not '2048'", SettingError);

    const SettingField& lr = *find_setting("learning_rate");
    CHECK(try_set_setting(s, lr, "0.003"));
    CHECK(s.learning_rate == 0.003f);
    CHECK(try_set_setting(s, lr, "10"));
    for (const char* bad : {"0", "-1", "10.5", "1e30", "inf", "nan", " 1", "0x1p3", "1e-50", "1e-46"})
        CHECK_FALSE(try_set_setting(s, lr, bad));
    CHECK_THROWS_WITH_AS(set_setting(s, lr, "1e-50", "--lr"),
                         "--lr must be a number above 0 and at most 10, not '1e-50', which a float holds as 0",
                         SettingError);

    const SettingField& dropout = *find_setting("dropout");
    CHECK(try_set_setting(s, dropout, "0"));
    CHECK(try_set_setting(s, dropout, "0.9"));
    CHECK_FALSE(try_set_setting(s, dropout, "0.95"));
    CHECK_FALSE(try_set_setting(s, dropout, "1e-50"));  // not 0 as asked, 0 as stored
    CHECK_THROWS_WITH_AS(set_setting(s, dropout, "1e-50", "--dropout"),
                         "--dropout must be a number from 0 to 0.9, not '1e-50', which a float holds as 0", SettingError);

    // A seed every place can hold: 2³¹ − 1 is the last.
    const SettingField& seed = *find_setting("seed");
    CHECK(try_set_setting(s, seed, "2147483647"));
    CHECK(s.seed == 2147483647u);
    CHECK_FALSE(try_set_setting(s, seed, "2147483648"));
}

TEST_CASE("settings schema: the kind is read first, and fields that do not apply are refused") {
    const RunSettings local = from_text({{"scorer", "dot"}, {"model", "luong-local"}, {"input_feeding", "1"}});
    CHECK(local.model.decoder == DecoderKind::luong_local);
    CHECK(local.model.scorer == Scorer::dot);
    CHECK(local.model.input_feeding);
    CHECK(from_text({{"model", "luong"}}).model.scorer == Scorer::general);  // its default
    CHECK_THROWS_WITH_AS(from_text({{"model", "luong-local"}, {"scorer", "concat"}}),
                         "--scorer of the luong-local model must be dot or general, not 'concat'", SettingError);
    CHECK_THROWS_WITH_AS(from_text({{"memory", "first"}}),
                         "--memory applies to --model transformer only, not attention", SettingError);
    CHECK_THROWS_WITH_AS(from_text({{"model", "plain"}, {"scorer", "dot"}}),
                         "--scorer applies to --model attention, bahdanau, luong and luong-local only, not plain",
                         SettingError);
    CHECK_THROWS_AS(from_text({{"model", "transformer"}, {"width", "12"}, {"heads", "8"}}), SettingError);
    // Every registered kind (this test build registers a toy one too, test_registry.cpp).
    const std::string refusal = "--model must be " + decoder_choices() + ", not 'lstm'";
    CHECK_THROWS_WITH_AS(from_text({{"model", "lstm"}}), refusal.c_str(), SettingError);
    CHECK(decoder_choices().rfind("plain, attention, transformer, bahdanau, luong, luong-local", 0) == 0);
}

TEST_CASE("worker codec: a run's settings reach the trainer unchanged, for every registered kind") {
    // The page writes a run's settings (web/lab/runs.cpp: run_settings_to_json), the worker reads
    // them (web/worker/training_module.cpp: run_settings_from_json) and builds its trainer from them
    // (TrainerConfig{settings}); here both halves natively, over every row of the registry (the toy
    // kind of test_registry.cpp too).
    const Splits data = make_date_splits(5, 40, 8);
    for (DecoderKind kind : model_kinds()) {
        const std::string name(decoder_name(kind));
        INFO(name);
        RunSettings s = from_text({{"model", name.c_str()}, {"width", "8"}, {"epochs", "7"}, {"seed", "2147483647"},
                                   {"data_seed", "5"}, {"learning_rate", "0.0003"}, {"warmup_steps", "10"},
                                   {"batch_size", "16"}});
        if (is_luong(s.model.decoder)) s.model.input_feeding = true;
        if (s.model.decoder == DecoderKind::transformer) s.model.memory = Memory::first, s.model.dropout = 0.1f;
        const nlohmann::json config = run_settings_to_json(s);
        CHECK(config.at("model") == name);
        CHECK(config.at("learning_rate").get<double>() == 0.0003);  // written as typed, not as 0.000300000014
        CHECK(config.at("batch_size") == 16);
        const RunSettings back = run_settings_from_json(nlohmann::json::parse(config.dump()));
        const Trainer trainer(TrainerConfig{back}, data);
        const RunSettings& trained = trainer.config();
        for (const SettingField& field : run_setting_fields()) {
            INFO(field.key);
            CHECK(setting_text(field, back) == setting_text(field, s));
            CHECK(setting_text(field, trained) == setting_text(field, s));
        }
        CHECK(trained.learning_rate == s.learning_rate);
        CHECK(trained.model.dropout == s.model.dropout);
        CHECK(trainer.batches_per_epoch() == 3);      // 40 rows in batches of 16: 16 + 16 + 8
        CHECK(batches_per_epoch(40, back.batch_size) == 3);  // what the page counts from the settings
        CHECK(trainer.config().evaluate_each_epoch);  // the page's runs report every epoch
    }
}

TEST_CASE("worker codec: a bad config is refused by name, as the command line refuses it") {
    using nlohmann::json;
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"width", 2048}}),
                         "width must be an integer from 1 to 1024, not '2048'", SettingError);
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"learning_rate", 1e-50}}),
                         doctest::Contains("which a float holds as 0"), SettingError);
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"width", "64"}}), "width must be a number, not '\"64\"'",
                         SettingError);
    CHECK_THROWS_AS(run_settings_from_json(json{{"width", 64.5}}), SettingError);
    CHECK_THROWS_AS(run_settings_from_json(json{{"seed", -1}}), SettingError);
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"input_feeding", 1}, {"model", "luong"}}),
                         "input_feeding must be true or false, not '1'", SettingError);
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"colour", "red"}}), doctest::Contains("'colour'"), SettingError);
    CHECK_THROWS_AS(run_settings_from_json(json::array()), SettingError);
    CHECK(run_settings_from_json(json::object()).model.H == 64);  // the defaults
}

TEST_CASE("worker codec: a report survives the round trip, NaN as null") {
    WorkerReport r;
    r.first_step = 12;
    r.losses = {2.5f, 2.25f, 0.125f};
    r.epochs = {{1, 1.5f, NAN, NAN}, {2, 0.75f, 0.5f, 0.875f}};
    Metrics m;
    m.count = 3;
    m.exact = 1.0 / 3;
    m.per_char = 0.9;
    r.metrics = m;
    r.steps = 15;
    r.epoch = 2;
    r.examples = 960;
    r.evaluating = true;
    r.fraction = 0.25;
    r.train_seconds = 1.5;
    r.done = false;
    const nlohmann::json json = worker_report_to_json(r);
    CHECK(json.at("epochs")[0].at("exact").is_null());
    const WorkerReport back = worker_report_from_json(nlohmann::json::parse(json.dump()));
    CHECK(back.first_step == 12);
    CHECK(back.losses == r.losses);
    REQUIRE(back.epochs.size() == 2);
    CHECK(std::isnan(back.epochs[0].exact));
    CHECK(back.epochs[1].epoch == 2);
    CHECK(back.epochs[1].per_char == 0.875f);
    REQUIRE(back.metrics);
    CHECK(back.metrics->count == 3);
    CHECK(back.metrics->exact == doctest::Approx(1.0 / 3));
    CHECK(back.steps == 15);
    CHECK(back.examples == 960);
    CHECK(back.evaluating);
    CHECK(back.fraction == 0.25);
    CHECK(back.train_seconds == 1.5);
    CHECK_FALSE(back.done);
    CHECK_THROWS(worker_report_from_json(nlohmann::json{{"first_step", 0}}));  // not a report
}

TEST_CASE("settings schema: usage lines say what each flag takes and its default") {
    CHECK(setting_usage(*find_setting("width")) == "H, the GRU's or d_model: an integer from 1 to 1024 (64)");
    const std::string scorer = setting_usage(*find_setting("scorer"));
    CHECK(scorer.find("luong dot, general or concat (general)") != std::string::npos);
    CHECK(scorer.find("attention additive, dot or general (additive)") != std::string::npos);
    CHECK(scorer.find("plain") == std::string::npos);  // a kind it does not apply to
    CHECK(setting_usage(*find_setting("memory")) == "what the cross-attention reads: all or first (all); transformer only");
    CHECK(setting_usage(*find_setting("model")).find("(attention)") != std::string::npos);  // a run's default kind
}

TEST_CASE("worker codec: a record's settings, the rest of the row ignored") {
    using nlohmann::json;
    // A sweep row as `lookback train --json` writes it: "scorer": "none" and input_feeding false where they do not apply.
    const RunSettings plain = run_settings_from_record(
        json{{"model", "plain"}, {"scorer", "none"}, {"input_feeding", false}, {"width", 8}, {"exact", 0.25}, {"seeds", 3}});
    CHECK(plain.model.decoder == DecoderKind::plain);
    CHECK(plain.model.H == 8);
    const RunSettings luong =
        run_settings_from_record(json{{"model", "luong"}, {"scorer", "concat"}, {"input_feeding", true}, {"width", 16}});
    CHECK(luong.model.scorer == Scorer::additive);  // luong's concat is the additive form
    CHECK(luong.model.input_feeding);
    // What does not apply is taken only as its kind records it.
    CHECK_THROWS_WITH_AS(run_settings_from_record(json{{"model", "attention"}, {"input_feeding", true}}),
                         "input_feeding applies to model luong and luong-local only, not attention", SettingError);
    CHECK_THROWS_AS(run_settings_from_record(json{{"model", "plain"}, {"scorer", "dot"}}), SettingError);
    CHECK_THROWS_AS(run_settings_from_record(json{{"model", "attention"}, {"width", 0}}), SettingError);
    CHECK_THROWS_AS(run_settings_from_record(json{{"width", 8}}), SettingError);  // no model
}

TEST_CASE("worker codec: a report's numbers must fit the types they are stored in") {
    using nlohmann::json;
    const json good = json::parse(R"({"first_step":0,"losses":[2.5,null],"epochs":[{"epoch":1,"train_loss":null,
        "exact":null,"per_char":0.5,"aer":0.25,"bleu":null,"token_error_rate":0.75}],"steps":2,"epoch":1,"examples":128,"evaluating":false,"fraction":0.5,
        "train_seconds":0.25,"done":false})");
    const WorkerReport r = worker_report_from_json(good);
    CHECK(std::isnan(r.losses[1]));  // a loss gone non-finite travels as null
    CHECK(std::isnan(r.epochs[0].train_loss));
    CHECK(r.epochs[0].aer == 0.25f);
    CHECK(std::isnan(r.epochs[0].bleu));  // a task of characters has none
    CHECK(r.epochs[0].token_error_rate == 0.75f);
    CHECK(worker_report_to_json(r) == good);
    for (const auto& entry : std::vector<std::pair<const char*, json>>{
             {"first_step", -1}, {"first_step", 1.5}, {"steps", "2"}, {"examples", -128}, {"fraction", nullptr},
             {"losses", json::array({1e39})}, {"epoch", 3e9}}) {
        const char* key = entry.first;  // not a structured binding: clang's CAPTURE cannot name one
        CAPTURE(key);
        json report = good;
        report[key] = entry.second;
        CHECK_THROWS_AS(worker_report_from_json(report), std::invalid_argument);
    }
}

TEST_CASE("settings schema: the date task's dial, read after the task and refused by name") {
    const RunSettings s = from_text({{"formats", "5,0"}, {"field_order", "ymd"}, {"task", "dates"}});
    const DateDial want{{0, 5}, "ymd"};
    CHECK(s.model.task == &date_task(want));  // given before the task, read after it
    CHECK(s.model.task->name == "dates");
    CHECK(setting_text(*find_setting("formats"), s) == "0,5");
    CHECK(setting_text(*find_setting("field_order"), s) == "ymd");
    const RunSettings order_only = from_text({{"field_order", "mdy"}});
    CHECK(*date_dial(*order_only.model.task) == DateDial{DateDial{}.formats, "mdy"});
    CHECK(from_text({{"formats", "0,1,2,3,4,5"}, {"field_order", "dmy"}}).model.task == &date_task());

    for (const char* bad : {"6", "0,0", "", "0 2", "0,,2"})
        CHECK_THROWS_WITH_AS(from_text({{"formats", bad}}),
                             ("--formats must be format numbers from 0 to 5 separated by commas, each once, such as 5 "
                              "or 0,2,5, not '" + std::string(bad) + "'").c_str(),
                             SettingError);
    for (const char* bad : {"ddy", "dm", "ymdd", "YMD"})
        CHECK_THROWS_WITH_AS(from_text({{"field_order", bad}}),
                             ("--field-order must be dmy, dym, mdy, myd, ydm or ymd, not '" + std::string(bad) + "'").c_str(),
                             SettingError);
    CHECK_THROWS_WITH_AS(from_text({{"formats", "0"}, {"task", "reversal"}}),
                         "--formats applies to --task dates only, not reversal", SettingError);
    CHECK_THROWS_WITH_AS(from_text({{"task", "translation"}, {"field_order", "ymd"}}),
                         "--field-order applies to --task dates only, not translation", SettingError);
    // Set alone, a dial's field leaves another task's settings as they were.
    RunSettings reversal = from_text({{"task", "reversal"}});
    CHECK_FALSE(try_set_setting(reversal, *find_setting("formats"), "0"));
    CHECK(reversal.model.task->name == "reversal");
    CHECK(setting_usage(*find_setting("formats")) ==
          "the date formats drawn: format numbers from 0 to 5 separated by commas, each once, such as 5 or 0,2,5 "
          "(0,1,2,3,4,5); the dates task only");
    CHECK(setting_usage(*find_setting("field_order")) ==
          "the order of the day, month and year in the input: dmy, dym, mdy, myd, ydm or ymd (dmy); the dates task only");
}

TEST_CASE("worker codec: the dial travels in a run's config, for the date task only") {
    using nlohmann::json;
    const RunSettings s = from_text({{"formats", "5"}, {"field_order", "ymd"}, {"width", "16"}});
    const json config = run_settings_to_json(s);
    CHECK(config.at("task") == "dates");
    CHECK(config.at("formats") == "5");
    CHECK(config.at("field_order") == "ymd");
    CHECK(run_settings_from_json(json::parse(config.dump())).model.task == &date_task(DateDial{{5}, "ymd"}));
    const json reversal = run_settings_to_json(from_text({{"task", "reversal"}}));
    CHECK_FALSE(reversal.contains("formats"));
    CHECK_FALSE(reversal.contains("field_order"));
    CHECK(run_settings_to_json(RunSettings{}).at("formats") == "0,1,2,3,4,5");
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"task", "reversal"}, {"formats", "0"}}),
                         "formats applies to task dates only, not reversal", SettingError);
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"formats", 5}}), "formats must be a string, not '5'", SettingError);
    CHECK_THROWS_WITH_AS(run_settings_from_json(json{{"field_order", "dd"}}),
                         "field_order must be dmy, dym, mdy, myd, ydm or ymd, not 'dd'", SettingError);
    // A record of the dial sweep names its setting.
    CHECK(run_settings_from_record(json{{"model", "plain"}, {"scorer", "none"}, {"formats", "5"}, {"field_order", "dmy"}})
              .model.task == &date_task(DateDial{{5}, "dmy"}));
}
