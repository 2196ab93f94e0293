// The `lookback` commands refuse bad flags and values with a usage error
// (exit 2) and a refused input with exit 1, before doing any work.
#include <doctest/doctest.h>

#include "commands.h"

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
    CHECK(bench({"--seconds", "-1"}) == 2);
}
