// tests/test_metrics_json.cpp — Metrics travel from a training worker to the page as JSON
// (core/io/metrics_json.h): every field arrives as it left, an empty bucket's NaN included, and a
// damaged message is refused by the name of the field.
#include <doctest/doctest.h>

#include <cmath>

#include "io/metrics_json.h"

TEST_CASE("metrics survive JSON, NaN buckets included") {
    lb::Metrics m;
    m.count = 1200;
    m.exact = 0.9875;
    m.per_char = 0.99875;
    for (int t = 0; t < lb::output_length; ++t) m.per_position.push_back(0.9 + 0.01 * t);
    m.buckets.quartiles = {10, 16, 20};
    m.buckets.shortest = 8;
    m.buckets.longest = 26;
    m.per_length_bucket = {0.5, NAN, 0.75, 1.0};
    m.bucket_count = {400, 0, 202, 287};
    for (int f = 0; f < lb::format_count; ++f) {
        m.per_format.push_back(0.1 * f);
        m.per_format_exact.push_back(0.05 * f);
        m.examples_per_format.push_back(200);
    }
    const nlohmann::json json = lb::metrics_to_json(m);
    CHECK(json.at("length_buckets")[1].is_null());
    // Through text, as the worker sends it.
    const lb::Metrics back = lb::metrics_from_json(nlohmann::json::parse(json.dump()));
    CHECK(back.count == 1200);
    CHECK(back.exact == 0.9875);
    CHECK(back.per_char == 0.99875);
    CHECK(back.per_position == m.per_position);
    CHECK(back.buckets.quartiles == m.buckets.quartiles);
    CHECK(back.buckets.shortest == 8);
    CHECK(back.buckets.longest == 26);
    CHECK(back.per_length_bucket[0] == 0.5);
    CHECK(std::isnan(back.per_length_bucket[1]));
    CHECK(back.per_length_bucket[3] == 1.0);
    CHECK(back.bucket_count == m.bucket_count);
    CHECK(back.per_format == m.per_format);
    CHECK(back.per_format_exact == m.per_format_exact);
    CHECK(back.examples_per_format == m.examples_per_format);
    CHECK(std::isnan(back.bleu));       // a task of characters has none
    CHECK(!back.alignment);             // nor a model without attention
}

TEST_CASE("BLEU and the alignment check's counts survive JSON, so every score is the same on the other side") {
    lb::Metrics m;
    m.per_length_bucket = {1, 1, 1, 1};
    m.bleu = 0.4928;
    lb::AlignmentCounts c;
    c.examples = 3, c.steps = 20, c.peak_hits = 15, c.peak_near_hits = 19, c.linked_mass = 14.25;
    c.hard_links = 20, c.sure_links = 18, c.hard_on_sure = 14, c.hard_on_possible = 16;
    m.alignment.emplace();
    m.alignment->add(c);
    const lb::Metrics back = lb::metrics_from_json(nlohmann::json::parse(lb::metrics_to_json(m).dump()));
    CHECK(back.bleu == 0.4928);
    REQUIRE(back.alignment);
    // AER = 1 − (14 + 16) / (20 + 18), by hand.
    CHECK(back.alignment->aer() == doctest::Approx(1.0 - 30.0 / 38.0));
    CHECK(back.alignment->peak_hit_rate() == 0.75);
    CHECK(back.alignment->mean_linked_mass() == doctest::Approx(14.25 / 20));
    nlohmann::json json = lb::metrics_to_json(m);
    json["alignment"]["sure_links"] = -1;
    CHECK_THROWS_WITH_AS(lb::metrics_from_json(json), "metrics: alignment 'sure_links' is negative", std::invalid_argument);
}

TEST_CASE("a damaged metrics message is refused by the field's name") {
    nlohmann::json json = lb::metrics_to_json(lb::Metrics{});
    json["per_position"] = 3;
    CHECK_THROWS_WITH_AS(lb::metrics_from_json(json), "metrics: 'per_position' must be an array of at most 1024", std::invalid_argument);
    json = lb::metrics_to_json(lb::Metrics{});
    json["length_buckets"] = {1, 2};
    CHECK_THROWS_WITH_AS(lb::metrics_from_json(json), "metrics: 'length_buckets' must be an array of 4", std::invalid_argument);
    json = lb::metrics_to_json(lb::Metrics{});
    json.erase("exact");
    CHECK_THROWS_AS(lb::metrics_from_json(json), std::invalid_argument);
    CHECK_THROWS_AS(lb::metrics_from_json(nlohmann::json::array()), std::invalid_argument);
}
