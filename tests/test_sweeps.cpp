// The sweeps render their stored files again from the rows those files hold, byte for byte:
// a change to a sweep's results or its rendering fails here until the assets are written anew.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "cli/sweeps.h"

using namespace lb::cli;

namespace {

const std::string measured_dir = LOOKBACK_MEASURED_DIR;

std::string stored(const std::string& name) {
    std::ifstream in(measured_dir + "/" + name, std::ios::binary);
    REQUIRE_MESSAGE(in, "cannot read " << name);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The first line where two texts differ, for the failure message.
std::string first_difference(const std::string& a, const std::string& b) {
    std::istringstream x(a), y(b);
    std::string line_a, line_b;
    for (int n = 1;; ++n) {
        const bool more_a = bool(std::getline(x, line_a)), more_b = bool(std::getline(y, line_b));
        if (!more_a && !more_b) return "none";
        if (more_a != more_b || line_a != line_b)
            return "line " + std::to_string(n) + ":\n  rendered: " + (more_a ? line_a : "(end)") +
                   "\n  stored:   " + (more_b ? line_b : "(end)");
    }
}

void check_same(const std::string& rendered, const std::string& file, const std::string& name) {
    INFO(name, " differs at ", first_difference(rendered, file));
    CHECK(rendered == file);
}
void check_rendered(const std::string& rendered, const std::string& name) { check_same(rendered, stored(name), name); }

// A sweep's JSON as SweepFiles writes it.
std::string written(const nlohmann::json& json) { return json.dump(1) + "\n"; }

}  // namespace

TEST_CASE("the sweep header writes the keys given and reads back what it wrote") {
    SweepHeader header;
    header.epochs = 12;
    header.seed = 1;
    header.widths = {8, 64};
    header.train_size = 6000;
    header.held_out_size = 1200;
    const nlohmann::json json = sweep_header_json(header);
    CHECK(json.dump() ==
          R"({"data_seed":1,"epochs":12,"held_out_size":1200,"seed":1,"train_size":6000,"widths":[8,64]})");
    CHECK(sweep_header_json(sweep_header_of(json)) == json);
    header.seeds = seed_range(4, 3);
    CHECK(header.seeds == std::vector<uint64_t>{4, 5, 6});
    CHECK(header.seeds_text() == "4–6");
}

TEST_CASE("sweep: sweep.md and sweep.json render again from sweep.json's runs") {
    const WidthSweepResults results = width_sweep_results_of(nlohmann::json::parse(stored("sweep.json")));
    REQUIRE(results.plain.size() == 4);
    check_rendered(width_sweep_markdown(results), "sweep.md");
    check_rendered(written(width_sweep_json(results)), "sweep.json");
}

TEST_CASE("sweep --transformer: transformer.md and .json render again from transformer.json") {
    const TransformerSweepResults results =
        transformer_sweep_results_of(nlohmann::json::parse(stored("transformer.json")));
    REQUIRE(results.summary.size() == 4);
    check_rendered(transformer_sweep_markdown(results), "transformer.md");
    check_rendered(written(transformer_sweep_json(results)), "transformer.json");
}

TEST_CASE("sweep --published: published.md and .json render again from published.json's runs") {
    const PublishedSweepResults results = published_sweep_results_of(nlohmann::json::parse(stored("published.json")));
    REQUIRE(results.by_width.size() == 2);
    REQUIRE(results.by_width[0].size() == 8);  // every variant at each width
    // The stored Markdown is the rendered one and a reading written by hand after it.
    const std::string file = stored("published.md");
    const size_t by_hand = file.find("\n## What the numbers say (written by hand");
    REQUIRE(by_hand != std::string::npos);
    check_same(published_sweep_markdown(results), file.substr(0, by_hand), "published.md");
    check_rendered(written(published_sweep_json(results)), "published.json");
}

TEST_CASE("sweep --alignment: each task's files render again from its JSON's runs") {
    for (const char* task : {"dates", "reversal", "translation"}) {
        CAPTURE(task);
        const std::string name = std::string("alignment-") + task;
        const AlignmentSweepResults results = alignment_sweep_results_of(nlohmann::json::parse(stored(name + ".json")));
        REQUIRE(results.summary.size() == 7);
        check_rendered(alignment_sweep_markdown(results), name + ".md");
        check_rendered(written(alignment_sweep_json(results)), name + ".json");
    }
}

TEST_CASE("sweep --dial: dial.md and dial.json render again from dial.json's settings and runs") {
    const DialSweepResults results = dial_sweep_results_of(nlohmann::json::parse(stored("dial.json")));
    REQUIRE(results.settings.size() == dial_settings().size());
    check_rendered(dial_sweep_markdown(results), "dial.md");
    check_rendered(written(dial_sweep_json(results)), "dial.json");
}
