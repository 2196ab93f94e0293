// A reader's task as a file and as a link (core/io/task_file.h): the file is JSON that
// another reader (nlohmann's, here) finds the pairs and options in, and makes the same task from
// (the same held-out inputs, the same vocabularies); the link is that JSON deflated in base64url,
// and links made by the project's own DEFLATE, before zlib, still open; every hostile file and
// link is refused with its reason; and the command line trains on an exported file.
#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "io/task_file.h"
#include "text/deflate.h"

using namespace lb;

namespace {

// 150 numbers, each to its digits backwards: "1234\t4321". Distinct inputs, ten output characters.
std::string backwards_numbers() {
    std::string text;
    for (int i = 0; i < 150; ++i) {
        const std::string n = std::to_string(1000 + i * 7919 % 90000);
        text += n + "\t" + std::string(n.rbegin(), n.rend()) + "\n";
    }
    return text;
}

PairsTaskSource source_of(std::string text) {
    PairsTaskSource s{std::move(text), {}};
    s.options.name = "backwards";
    s.options.split_seed = 7;
    s.options.held_out_size = 20;
    return s;
}

// Why `read` refused `given`, or "" when it read it.
std::string refusal(PairsTaskSource (*read)(std::string_view), std::string_view given) {
    try {
        read(given);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}
std::string refusal_of_file(std::string_view bytes) { return refusal(read_task_file, bytes); }
std::string refusal_of_link(std::string_view value) { return refusal(read_task_link, value); }

std::vector<std::string> held_out_inputs(const PairsTask& made) {
    std::vector<std::string> inputs;
    for (const Example& e : made.task.make_splits(1, made.task.train_size, made.task.held_out_size).held_out)
        inputs.push_back(e.input);
    return inputs;
}

}  // namespace

TEST_CASE("task file: JSON holding the pairs and the options that make the same task") {
    const PairsTaskSource source = source_of(backwards_numbers());
    const std::string file = task_file_text(source);
    // Read by another JSON reader: the tag, the pairs as they were, the options by name.
    const nlohmann::json json = nlohmann::json::parse(file);
    CHECK(json.at("lookback") == "pairs task");
    CHECK(json.at("text") == source.text);
    CHECK(json.at("tokens") == "characters");
    CHECK(json.at("split_seed") == 7);
    CHECK(json.at("held_out") == 20);
    CHECK(json.at("drop_duplicates") == true);
    CHECK(file.back() == '\n');

    CHECK(is_task_file(file));
    CHECK(is_task_file("\xef\xbb\xbf \n{ \"lookback\": 1}"));  // a byte order mark and spaces first
    CHECK_FALSE(is_task_file(source.text));
    CHECK_FALSE(is_task_file("{a}\t{b}\n"));       // pairs whose first input opens with a brace
    CHECK_FALSE(is_task_file("{\"text\": \"x\"}"));  // JSON, but not a task file's first key

    const PairsTaskSource read = read_task_file(file);
    CHECK(read.text == source.text);
    CHECK(read.options.tokens == PairsTokens::characters);
    CHECK(read.options.split_seed == 7);
    CHECK(read.options.held_out_size == 20);
    // The same task: the 20 held-out inputs the seed drew, and the vocabularies.
    const PairsTask a = make_pairs_task(source.text, source.options), b = make_pairs_task(read.text, read.options);
    CHECK(held_out_inputs(a).size() == 20);
    CHECK(held_out_inputs(a) == held_out_inputs(b));
    CHECK(a.task.input.tokens() == b.task.input.tokens());
    CHECK(a.task.output.tokens() == b.task.output.tokens());
    // Another seed draws another split: the seed travels, not only the pairs.
    PairsOptions other = source.options;
    other.split_seed = 8;
    CHECK(held_out_inputs(make_pairs_task(source.text, other)) != held_out_inputs(a));
}

TEST_CASE("task file: what is not one is refused with its reason") {
    const std::string file = task_file_text(source_of(backwards_numbers()));
    // Cut short: it goes wrong where the text has ended, one past its last byte.
    const std::string cut = "{\"lookback\": \"pairs task\", ";
    CHECK(refusal_of_file(cut) == "the task file is not JSON: it goes wrong at byte " + std::to_string(cut.size() + 1));
    CHECK(refusal_of_file("{\"lookback\": x}") == "the task file is not JSON: it goes wrong at byte 14");
    CHECK(refusal_of_file("{\"lookback\": \"other\"}") ==
          "the task file is not a Lookback task: it lacks \"lookback\": \"pairs task\"");
    CHECK(refusal_of_file("{\"lookback\": 3}") == "the task file is not a Lookback task: it lacks \"lookback\": \"pairs task\"");
    nlohmann::json json = nlohmann::json::parse(file);
    json["tokens"] = "bytes";
    CHECK(refusal_of_file(json.dump()) ==
          "the task file is not one the page writes: a reader's task's tokens must be characters or words, not '\"bytes\"'");
    json = nlohmann::json::parse(file);
    json.erase("split_seed");
    CHECK(refusal_of_file(json.dump()) == "the task file is not one the page writes: a reader's task has no split_seed");
    json = nlohmann::json::parse(file);
    json["held_out"] = -1;
    CHECK(refusal_of_file(json.dump()) ==
          "the task file is not one the page writes: a reader's task's held_out must be a whole number, at least 0");
    CHECK(refusal_of_file(std::string(task_file_max_bytes + 1, ' ')) ==
          "the task file is larger than " + std::to_string(task_file_max_bytes) + " bytes");
    CHECK(refusal_of_file("\xef\xbb\xbf" + file).empty());  // a byte order mark is no fault
    // Pairs that break a rule in a task file are refused by make_pairs_task, by line as ever.
    json = nlohmann::json::parse(file);
    json["text"] = "1\t1\n2\n";
    const PairsTaskSource bad = read_task_file(json.dump());
    CHECK_THROWS_WITH_AS(make_pairs_task(bad.text, bad.options),
                         "line 2: the line has no separator: a pair is an input and an output separated by a tab", PairsError);
}

TEST_CASE("task link: the file's JSON deflated in base64url, for a link of a few kilobytes") {
    const PairsTaskSource source = source_of(backwards_numbers());
    const std::string value = task_link_value(source).value();
    for (char c : value) CHECK((std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'));
    // It is the compact JSON, compressed: 150 pairs of 1.8 KB go in under 1.5 KB of link.
    const nlohmann::json json = nlohmann::json::parse(inflate_raw(base64url_decode(value), 1 << 20));
    CHECK(json.at("text") == source.text);
    CHECK(json.at("lookback") == "pairs task");
    CHECK(source.text.size() > 1700);
    CHECK(value.size() < 1500);
    const PairsTaskSource read = read_task_link(value);
    CHECK(read.text == source.text);
    CHECK(read.options.split_seed == 7);
    CHECK(read.options.held_out_size == 20);

    // Hostile links, each refused by what is wrong with it.
    CHECK(refusal_of_link(std::string(task_link_max_chars + 1, 'A')) == "the link's task is longer than 200000 characters");
    CHECK(refusal_of_link("ab+c").rfind("the link's task is not base64url: ", 0) == 0);
    CHECK(refusal_of_link(base64url_encode("not deflate at all")).rfind("the link's task does not decompress: ", 0) == 0);
    // A small link that would decompress past the largest task file.
    const std::string bomb = base64url_encode(deflate_raw(std::string(task_file_max_bytes + 1, '{')));
    CHECK(bomb.size() < task_link_max_chars);
    CHECK(refusal_of_link(bomb).rfind("the link's task does not decompress: ", 0) == 0);
    CHECK(refusal_of_link(base64url_encode(deflate_raw("[1, 2]"))) ==
          "the link's task is not a Lookback task: it lacks \"lookback\": \"pairs task\"");
    CHECK(refusal_of_link(base64url_encode(deflate_raw("{\"lookback\""))) ==
          "the link's task is not JSON: it goes wrong at byte 12");
}

// tests/fixtures/task_links holds links made by the project's own DEFLATE before zlib replaced it,
// each beside the task file of the same task: a few pairs with every option away from its default,
// no text at all, words in five scripts with JSON's escapes, a third column of alignments, CSV,
// and random letters filling the link to its last character.
std::string fixture(const std::string& name) {
    std::ifstream file(std::string(LOOKBACK_TASK_LINKS_DIR) + "/" + name, std::ios::binary);
    REQUIRE(file);
    std::stringstream bytes;
    bytes << file.rdbuf();
    return bytes.str();
}

TEST_CASE("task link: links made before zlib open to the tasks they were made from") {
    for (const char* name : {"small", "empty", "unicode", "aligned", "csv", "large"}) {
        CAPTURE(name);
        std::string link = fixture(std::string(name) + ".link");
        REQUIRE(link.back() == '\n');
        link.pop_back();
        const PairsTaskSource expected = read_task_file(fixture(std::string(name) + ".lookback.json"));
        const PairsTaskSource read = read_task_link(link);
        CHECK(read.text == expected.text);
        CHECK(read.options.name == expected.options.name);
        CHECK(read.options.tokens == expected.options.tokens);
        CHECK(read.options.format == expected.options.format);
        CHECK(read.options.split_seed == expected.options.split_seed);
        CHECK(read.options.held_out_size == expected.options.held_out_size);
        CHECK(read.options.drop_duplicates == expected.options.drop_duplicates);
        // zlib's link of the same task holds it too, and is no longer: a task that had a link has one.
        const std::optional<std::string> again = task_link_value(expected);
        REQUIRE(again.has_value());
        CHECK(again->size() <= link.size());
        CHECK(read_task_link(*again).text == expected.text);
    }
    CHECK(fixture("large.link").size() == task_link_mail_chars + 1);  // the limit then, and the line end
    CHECK(fixture("unicode.lookback.json").find("\xf0\x9f\x90\x88") != std::string::npos);  // U+1F408 as UTF-8
    CHECK(fixture("aligned.lookback.json").find("\\t0-0 1-1 2-2\\n") != std::string::npos);
}

TEST_CASE("train --task-file: a task file the page saved, with its own tokens and split") {
    const std::string folder = (std::filesystem::temp_directory_path() / "lookback_task_file").string();
    std::filesystem::create_directories(folder);
    const std::string path = folder + "/backwards.lookback.json";
    std::ofstream(path, std::ios::binary) << task_file_text(source_of(backwards_numbers()));
    const PairsTask made = lb::cli::read_pairs_file(path, std::nullopt);
    CHECK(made.task.name == "backwards");  // the file's name up to its first dot
    CHECK(made.summary.split_seed == 7);
    CHECK(made.summary.held_out_size == 20);
    CHECK_THROWS_WITH_AS(lb::cli::read_pairs_file(path, PairsTokens::words),
                         "a task file states its own tokens: leave out --tokens", std::invalid_argument);
    CHECK(lb::cli::train({"--task-file", path, "--width", "8", "--epochs", "1", "--json", folder + "/m.json"}) == 0);
    const nlohmann::json metrics = nlohmann::json::parse(std::ifstream(folder + "/m.json"));
    CHECK(metrics.at("held_out_size") == 20);
    std::filesystem::remove_all(folder);
}
