// A task made from a reader's own pairs (core/data/pairs.h): every refusal with the
// line and reason written out by hand, TSV and CSV with quotes, CRLF and a byte order mark,
// alignments against links written by hand, the split's determinism, duplicates and held-out
// pairs set aside, and a task of 120 pairs in the table: batches, a short training run whose loss
// falls, and its weights through safetensors by name.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "data/pairs.h"
#include "data/pairs_examples.h"
#include "data/task.h"
#include "io/safetensors.h"
#include "kernels/rng.h"
#include "test_helpers.h"
#include "text/text.h"
#include "training/trainer.h"

using namespace lb;

namespace {

// The line and reason of a refusal; {0, ""} if the text was read.
std::pair<int, std::string> refusal(const std::string& text, PairsTokens tokens = PairsTokens::characters,
                                    PairsFormat format = PairsFormat::detect) {
    try {
        read_pairs(text, tokens, format);
    } catch (const PairsError& e) {
        CHECK(std::string(e.what()) == "line " + std::to_string(e.line) + ": " + e.reason);
        return {e.line, e.reason};
    }
    return {0, ""};
}

std::pair<int, std::string> task_refusal(const std::string& text, PairsOptions options) {
    try {
        make_pairs_task(text, options);
    } catch (const PairsError& e) {
        return {e.line, e.reason};
    }
    return {0, ""};
}

std::string reversed(const std::string& s) { return std::string(s.rbegin(), s.rend()); }

std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> words;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == ' ') {
            words.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    return words;
}

// `count` distinct strings of the letters a-f, 3 to 6 of them (length 3 + i % 4), each with its
// reversal and, if `aligned`, the reversal's links in Pharaoh form ("0-3 1-2 2-1 3-0").
std::string reversal_pairs(int count, uint64_t seed, bool aligned) {
    Rng rng(seed);
    std::set<std::string> seen;
    std::string text;
    for (int i = 0; i < count;) {
        std::string s(size_t(3 + i % 4), ' ');
        for (char& c : s) c = char('a' + rng.below(6));
        if (!seen.insert(s).second) continue;
        text += s + "\t" + reversed(s);
        if (aligned) {
            text += "\t";
            const int n = int(s.size());
            for (int j = 0; j < n; ++j) {
                if (j) text += ' ';
                text += std::to_string(j);
                text += '-';
                text += std::to_string(n - 1 - j);
            }
        }
        text += "\n";
        ++i;
    }
    return text;
}

std::string repeated(const std::string& line, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += line;
    return text;
}

PairsOptions named(const std::string& name) {
    PairsOptions o;
    o.name = name;
    return o;
}


}  // namespace

TEST_CASE("pairs: character tokens are code points; ASCII splits byte by byte as before") {
    const Vocabulary chars(false, {""});
    CHECK(chars.split("abc") == std::vector<std::string_view>{"a", "b", "c"});
    CHECK(chars.split("щи") == std::vector<std::string_view>{"\xd1\x89", "\xd0\xb8"});  // U+0449 U+0438
    CHECK(chars.split("a€b") == std::vector<std::string_view>{"a", "\xe2\x82\xac", "b"});
    // A byte that is not UTF-8 stays one token, as every byte was before.
    CHECK(chars.split("a\xff" "b") == std::vector<std::string_view>{"a", "\xff", "b"});
    CHECK(chars.split("\xd1") == std::vector<std::string_view>{"\xd1"});  // a cut character
}

TEST_CASE("pairs: each refusal names its line and reason") {
    CHECK(refusal("ab\tba\nabc\n") ==
          std::pair<int, std::string>{2, "the line has no separator: a pair is an input and an output separated by a tab"});
    CHECK(refusal("abc\n") == std::pair<int, std::string>{
                                  1, "the line has no separator: a pair is an input and an output separated by a tab (a "
                                     "CSV opens with a header line naming its columns, separated by commas)"});
    CHECK(refusal("ab\tba\n\ncd\tdc\n") ==
          std::pair<int, std::string>{2, "the line is empty (only the end of the text may have empty lines)"});
    CHECK(refusal("ab\t\n") == std::pair<int, std::string>{1, "the output is empty"});
    CHECK(refusal("a\tb\n\tba\n") == std::pair<int, std::string>{2, "the input is empty"});
    CHECK(refusal("a\tb\n   \tx y\n", PairsTokens::words) == std::pair<int, std::string>{2, "the input is empty (spaces only)"});
    CHECK(refusal("a\tb\t0-0\tx\n") ==
          std::pair<int, std::string>{1, "the line has more than 3 fields: a pair is an input, an output and, optionally, "
                                         "an alignment, separated by a tab"});
    CHECK(refusal("a\tb\t0-0\nc\td\n") ==
          std::pair<int, std::string>{2, "the line has 2 fields where the first line has 3: an alignment column is given "
                                         "on every line or on none"});
    // Invalid UTF-8, control characters (a carriage return only ends a line, before its line break).
    CHECK(refusal("ab\tb\xff\n") ==
          std::pair<int, std::string>{1, "the text is not UTF-8 here: the byte 0xff at byte 5 of the line (save the file as UTF-8)"});
    CHECK(refusal("ok\tok\n\xc0\xaf\tx\n") ==  // an overlong '/'
          std::pair<int, std::string>{2, "the text is not UTF-8 here: the byte 0xc0 at byte 1 of the line (save the file as UTF-8)"});
    CHECK(refusal("a\x07" "b\tc\n") ==
          std::pair<int, std::string>{1, "the input holds a control character, the byte 0x07, at character 2"});
    CHECK(refusal("ab\tc\xc2\x85\n") ==  // U+0085, a C1 control
          std::pair<int, std::string>{1, "the output holds a control character, an invisible character (U+0085), at character 2"});
    CHECK(refusal("a\rb\tc\r\n") ==
          std::pair<int, std::string>{1, "the input holds a control character, a carriage return, at character 2"});
    CHECK(refusal("a\x7f\tc\n") == std::pair<int, std::string>{1, "the input holds a control character, the byte 0x7f, at character 2"});

    // Length: 64 tokens a side is accepted, 65 refused (characters are code points: 64 'щ' are 128 bytes).
    CHECK(refusal(std::string(64, 'a') + "\tb\n").first == 0);
    CHECK(refusal(repeated("щ", 64) + "\tb\n").first == 0);
    CHECK(refusal("a\tb\nc\t" + std::string(65, 'd') + "\n") ==
          std::pair<int, std::string>{2, "the output is 65 characters long; a side may have at most 64"});
    CHECK(refusal("x\t" + repeated("w ", 65) + "\n", PairsTokens::words) ==
          std::pair<int, std::string>{1, "the output is 65 words long; a side may have at most 64"});

    // Distinct tokens: line k (from 1) brings U+00FF + k; the 257th, U+0200 (UTF-8 c8 80), is refused.
    std::string many;
    for (int k = 1; k <= 257; ++k) {
        const char32_t c = 0xff + char32_t(k);
        many += std::string{char(0xc0 | (c >> 6)), char(0x80 | (c & 0x3f))} + "\tx\n";
    }
    CHECK(refusal(many) == std::pair<int, std::string>{
                               257, "the input brings a 257th distinct character, '\xc8\x80' (U+0200): a side may have at most 256"});
    std::string words;
    for (int k = 1; k <= 257; ++k) words += "x\tw" + std::to_string(k) + "\n";
    CHECK(refusal(words, PairsTokens::words) ==
          std::pair<int, std::string>{257, "the output brings a 257th distinct word, 'w257': a side may have at most 256"});

    // At most 50,000 pairs.
    CHECK(refusal(repeated("a\tb\n", 50000)).first == 0);
    CHECK(refusal(repeated("a\tb\n", 50001)) == std::pair<int, std::string>{50001, "a 50,001st pair: a task has at most 50,000 pairs"});
    // At most 2 MiB: lines of 1,024 bytes; 2,048 of them are exactly 2,097,152 bytes, so the
    // 2,049th passes the limit.
    const std::string line = std::string(1021, 'x') + "\ty\n";
    REQUIRE(line.size() == 1024);
    CHECK(refusal(repeated(line, 2049)) ==
          std::pair<int, std::string>{2049, "the text passes 2 MiB (2,097,152 bytes) on this line; it is 2,098,176 bytes"});
    const std::string exactly = repeated(line, 2048);
    REQUIRE(exactly.size() == pairs_max_bytes);
    CHECK(refusal(exactly).first == 1);  // within the size; its lines are too long (1,021 characters)

    // Alignments: malformed, out of range (positions are tokens: 'щи' has 2), written twice.
    CHECK(refusal("ab\tba\t0-1 1=0\n") ==
          std::pair<int, std::string>{1, "the alignment holds '1=0', which is not a link: write input-output positions such as "
                                         "0-0 1-2 (a p for a possible link: 0p1)"});
    for (const char* bad : {"0-", "-1", "0p", "a-1", "0-1-2", "0--1", "+0-1", "0 - 1", "0P1"})
        CHECK_MESSAGE(refusal(std::string("ab\tba\t") + bad + "\n").first == 1, bad);
    CHECK(refusal("щи\tshchi\t0-0 0-1 0-2 0-3 1-4 2-4\n") ==
          std::pair<int, std::string>{1, "the alignment link 2-4 is out of range: the input has 2 characters (positions 0 to 1)"});
    CHECK(refusal("ab\tba\t0-0 1p2\n") ==
          std::pair<int, std::string>{1, "the alignment link 1p2 is out of range: the output has 2 characters (positions 0 to 1)"});
    CHECK(refusal("a b\tc\t0-0 1-1\n", PairsTokens::words) ==
          std::pair<int, std::string>{1, "the alignment link 1-1 is out of range: the output has 1 word (positions 0 to 0)"});
    CHECK(refusal("ab\tba\t99999999999999999999-0\n") ==
          std::pair<int, std::string>{1, "the alignment link 99999999999999999999-0 is out of range: the input has 2 characters (positions 0 to 1)"});
    CHECK(refusal("ab\tba\t" + std::string(30, '9') + "-0\n").second ==
          "the alignment link 999999999999999999999999\u2026 is out of range: the input has 2 characters (positions 0 to 1)");
    CHECK(refusal("ab\tba\t0-1 1-0 00p1\n") == std::pair<int, std::string>{1, "the alignment joins input 0 and output 1 twice (again in 00p1)"});
    CHECK(refusal("ab\tba\t0-0\tx\n").first == 1);  // a fourth field

    // CSV: quotes out of place, a line break inside a quoted field, a tab in a field.
    CHECK(refusal("in,out\n\"a,b\",\"c\n\",d\n") ==
          std::pair<int, std::string>{2, "field 2 opens a double quote that the line does not close (a field cannot hold a line break)"});
    CHECK(refusal("in,out\n\"ab\"c,d\n") ==
          std::pair<int, std::string>{2, "field 1 has text after its closing double quote: 'c'"});
    CHECK(refusal("in,out\nab,c\"d\n") ==
          std::pair<int, std::string>{2, "field 2, 'c\"d', holds a double quote but does not start with one (write the field in "
                                         "double quotes and double the quote inside: \"say \"\"hi\"\"\")"});
    CHECK(refusal("in,out\nab,c\td\n", PairsTokens::characters, PairsFormat::csv) ==
          std::pair<int, std::string>{2, "the output holds a control character, a tab, at character 2"});
    CHECK(refusal("in,out,al\nab,cd\n") ==
          std::pair<int, std::string>{2, "the line has 2 fields where the header has 3: an alignment column is given on every line or on none"});
    CHECK(refusal("in,out\nab\n") ==
          std::pair<int, std::string>{2, "the line has no separator: a pair is an input and an output separated by a comma"});
    CHECK(refusal("in,out\nab,\n") == std::pair<int, std::string>{2, "the output is empty"});
    CHECK(refusal("in\x01,out\nab,c\n") == std::pair<int, std::string>{1, "the header holds a control character, the byte 0x01, at character 3"});

    // A refusal's text is safe to show: quoted, valid UTF-8, no control byte.
    const auto [at, reason] = refusal("in,out\n\"a\"\x1b[31m,b\n");
    CHECK(at == 2);
    CHECK(reason == "field 1 has text after its closing double quote: '\\x1b[31m'");
}

TEST_CASE("pairs: the task's refusals: too few pairs, the name, the held-out size") {
    // 99 distinct pairs: the text ends at line 100 with too few.
    CHECK(task_refusal(reversal_pairs(99, 1, false), named("mine")) ==
          std::pair<int, std::string>{100, "the text ends with 99 pairs; a task needs at least 100"});
    // 100 pairs of which two repeat the first: 98 once they are dropped; kept, there are 100.
    std::string text = reversal_pairs(98, 1, false);
    const std::string first = text.substr(0, text.find('\n') + 1);
    text += first + first;
    CHECK(task_refusal(text, named("mine")) ==
          std::pair<int, std::string>{101, "the text ends with 98 pairs once 2 duplicates are dropped; a task needs at least 100"});
    PairsOptions keep = named("mine");
    keep.drop_duplicates = false;
    CHECK(task_refusal(text, keep).first == 0);
    CHECK(task_refusal("", named("mine")) == std::pair<int, std::string>{1, "the text ends with 0 pairs; a task needs at least 100"});
    CHECK(task_refusal("in,out\n", named("mine")) == std::pair<int, std::string>{2, "the text ends with 0 pairs; a task needs at least 100"});
    // Every pair with one input: nothing could be trained on once its input is held out.
    PairsOptions same = named("same");
    same.drop_duplicates = false;
    CHECK(task_refusal(repeated("ab\tba\n", 120), same) ==
          std::pair<int, std::string>{1, "every pair has the input 'ab': a held-out input must not be trained on, so nothing would be left to train on"});

    const std::string good = reversal_pairs(120, 1, false);
    CHECK_THROWS_WITH_AS(make_pairs_task(good, named("")), "a task's name is 1 to 32 letters, digits, '-' or '_', not ''",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_pairs_task(good, named("my pairs")),
                         "a task's name is 1 to 32 letters, digits, '-' or '_', not 'my pairs'", std::invalid_argument);
    CHECK_THROWS_AS(make_pairs_task(good, named(std::string(33, 'a'))), std::invalid_argument);
    CHECK_NOTHROW(make_pairs_task(good, named(std::string(32, 'a'))));
    CHECK_NOTHROW(make_pairs_task(good, named("My-pairs_2")));
    CHECK_THROWS_WITH_AS(make_pairs_task(good, named("reversal")), "a task named 'reversal' is already in the table",
                         std::invalid_argument);
    PairsOptions half = named("half");
    half.held_out_size = 61;
    CHECK_THROWS_WITH_AS(make_pairs_task(good, half), "a held-out split of 61 pairs is more than half of the 120 pairs",
                         std::invalid_argument);
    half.held_out_size = -1;
    CHECK_THROWS_AS(make_pairs_task(good, half), std::invalid_argument);
    half.held_out_size = 60;
    CHECK(make_pairs_task(good, half).task.held_out_size == 60);  // 120 distinct inputs: exactly as asked
}

TEST_CASE("pairs: TSV and CSV with quotes, CRLF, a byte order mark, empty lines at the end") {
    const PairsText tsv = read_pairs("\xef\xbb\xbf" "ab\tba\r\nc d\td c\r\n\r\n\n", PairsTokens::characters);
    CHECK_FALSE(tsv.csv);
    CHECK_FALSE(tsv.aligned);
    REQUIRE(tsv.pairs.size() == 2);
    CHECK(tsv.pairs[0].line == 1);
    CHECK(tsv.pairs[0].input == "ab");  // the order mark is not part of the first input
    CHECK(tsv.pairs[0].target == "ba");  // nor the carriage return of the target
    CHECK(tsv.pairs[1].line == 2);
    CHECK(tsv.pairs[1].input == "c d");
    CHECK(tsv.pairs[1].target == "d c");
    // A line after the order mark still counts from 1.
    CHECK(refusal("\xef\xbb\xbf" "ab\tba\r\nab\r\n").first == 2);

    // Words: runs of spaces separate, and a side is stored with single spaces.
    const PairsText words = read_pairs("  the   cat \tle  chat\n", PairsTokens::words);
    REQUIRE(words.pairs.size() == 1);
    CHECK(words.pairs[0].input == "the cat");
    CHECK(words.pairs[0].target == "le chat");
    // Characters: a side is kept as written, spaces and all.
    CHECK(read_pairs(" a \tb\n", PairsTokens::characters).pairs[0].input == " a ");

    const PairsText csv = read_pairs(
        "input,output\r\n"
        "\"a,b\",\"say \"\"hi\"\"\"\r\n"
        "plain,\"\"\"\"\r\n"
        "\"x\",y\r\n"
        "\"\xd0\xbc\xd0\xb8\xd1\x80\",mir\r\n",
        PairsTokens::characters);
    CHECK(csv.csv);
    CHECK_FALSE(csv.aligned);
    REQUIRE(csv.pairs.size() == 4);
    CHECK(csv.pairs[0].line == 2);
    CHECK(csv.pairs[0].input == "a,b");
    CHECK(csv.pairs[0].target == "say \"hi\"");
    CHECK(csv.pairs[1].input == "plain");
    CHECK(csv.pairs[1].target == "\"");
    CHECK(csv.pairs[2].input == "x");
    CHECK(csv.pairs[3].input == "\xd0\xbc\xd0\xb8\xd1\x80");  // 'мир'
    // The header decides the columns; a tab in the first line makes it TSV unless CSV is asked for.
    CHECK(read_pairs("in,out,links\n\"a,b\",c,0-0 2p0\n", PairsTokens::characters).pairs[0].alignment ==
          std::vector<AlignmentLink>{{0, 0, true}, {0, 2, false}});
    CHECK(read_pairs("a,b\tc\n", PairsTokens::characters).pairs[0].input == "a,b");
    CHECK(refusal("a,b\tc\n", PairsTokens::characters, PairsFormat::csv).first == 1);  // a tab in the header
}

TEST_CASE("pairs: the alignment column against links written by hand") {
    // Pharaoh: input position - output position; p a possible link. AlignmentLink is
    // {output, input, sure}, ordered by output then input.
    const PairsText words = read_pairs("the black cat\tle chat noir\t0-0 1-2 2-1 2p0\n", PairsTokens::words);
    CHECK(words.aligned);
    REQUIRE(words.pairs.size() == 1);
    CHECK(words.pairs[0].alignment ==
          std::vector<AlignmentLink>{{0, 0, true}, {0, 2, false}, {1, 2, true}, {2, 1, true}});
    // Characters are code points: 'щи' → 'shchi', щ to s, h, c, h; и to i.
    const PairsText chars = read_pairs("щи\tshchi\t  0-0 0-1  0-2 0-3 1-4 \n", PairsTokens::characters);
    CHECK(chars.pairs[0].alignment ==
          std::vector<AlignmentLink>{{0, 0, true}, {1, 0, true}, {2, 0, true}, {3, 0, true}, {4, 1, true}});
    // An empty third column: aligned, no links.
    const PairsText none = read_pairs("ab\tba\t\n", PairsTokens::characters);
    CHECK(none.aligned);
    CHECK(none.pairs[0].alignment.empty());
    CHECK(read_pairs("ab\tba\t01-00\n", PairsTokens::characters).pairs[0].alignment ==
          std::vector<AlignmentLink>{{0, 1, true}});  // leading zeros are digits

    // Written back as TSV (Pharaoh order: by input position) and read again.
    CHECK(write_pairs_tsv(words.pairs, true) == "the black cat\tle chat noir\t0-0 1-2 2p0 2-1\n");
    const PairsText again = read_pairs(write_pairs_tsv(words.pairs, true), PairsTokens::words);
    CHECK(again.pairs[0].alignment == words.pairs[0].alignment);
    CHECK(write_pairs_tsv(read_pairs("in,out\n\"a,b\",c\n", PairsTokens::characters).pairs, false) == "a,b\tc\n");
}

TEST_CASE("pairs: the split is drawn from its seed, the same every time; duplicates; set-aside pairs") {
    const std::string text = reversal_pairs(120, 1, false);
    const PairsTask one = make_pairs_task(text, named("one"));
    const PairsTask again = make_pairs_task(text, named("again"));
    PairsOptions other = named("other");
    other.split_seed = 2;
    const PairsTask two = make_pairs_task(text, other);

    // 10% of 120 distinct inputs: 12 held out, 108 to train.
    CHECK(one.task.held_out_size == 12);
    CHECK(one.task.train_size == 108);
    CHECK(one.summary.pairs_read == 120);
    CHECK(one.summary.duplicates_dropped == 0);
    CHECK(one.summary.set_aside == 0);
    const Splits a = one.task.make_splits(1, one.task.train_size, one.task.held_out_size);
    const Splits b = again.task.make_splits(1, again.task.train_size, again.task.held_out_size);
    const Splits c = two.task.make_splits(1, two.task.train_size, two.task.held_out_size);
    auto inputs = [](const std::vector<Example>& split) {
        std::vector<std::string> out;
        for (const Example& ex : split) out.push_back(ex.input);
        return out;
    };
    CHECK(inputs(a.held_out) == inputs(b.held_out));
    CHECK(inputs(a.train) == inputs(b.train));
    CHECK(inputs(a.held_out) != inputs(c.held_out));
    // The split's seed is fixed when the task is made: make_splits' own seed changes nothing.
    CHECK(inputs(one.task.make_splits(99, 108, 12).held_out) == inputs(a.held_out));
    // Smaller sizes give the first pairs of each split; more than it has is refused.
    const std::vector<std::string> held_inputs = inputs(a.held_out);
    CHECK(inputs(one.task.make_splits(1, 0, 3).held_out) == std::vector<std::string>(held_inputs.begin(), held_inputs.begin() + 3));
    CHECK(one.task.make_splits(1, 5, 0).train.size() == 5);
    CHECK_THROWS_AS(one.task.make_splits(1, 109, 12), std::invalid_argument);
    CHECK_THROWS_AS(one.task.make_splits(1, 108, 13), std::invalid_argument);

    // Every pair is on exactly one side, in the text's order, and no held-out input is trained on.
    std::vector<std::string> all;
    for (size_t start = 0; start < text.size();) {
        const size_t end = text.find('\n', start);
        all.push_back(text.substr(start, text.find('\t', start) - start));
        start = end + 1;
    }
    const std::vector<std::string> train_inputs = inputs(a.train);
    const std::set<std::string> train(train_inputs.begin(), train_inputs.end());
    for (const std::string& s : all) {
        const bool in_train = train.count(s) > 0;
        CHECK(in_train != (std::find(held_inputs.begin(), held_inputs.end(), s) != held_inputs.end()));
    }
    std::vector<std::string> train_order;
    for (const std::string& s : all)
        if (train.count(s)) train_order.push_back(s);
    CHECK(inputs(a.train) == train_order);
    for (const Example& ex : a.held_out) CHECK(ex.target == reversed(ex.input));

    // A given size.
    PairsOptions sized = named("sized");
    sized.held_out_size = 30;
    CHECK(make_pairs_task(text, sized).summary.held_out_size == 30);

    // Duplicates: the first five pairs written again (one of them three times more).
    std::vector<std::string> lines;
    for (size_t start = 0; start < text.size();) {
        const size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end + 1 - start));
        start = end + 1;
    }
    const std::string with_repeats = text + lines[0] + lines[1] + lines[2] + lines[3] + lines[4] + lines[0] + lines[0];
    const PairsTask dropped = make_pairs_task(with_repeats, named("dropped"));
    CHECK(dropped.summary.pairs_read == 127);
    CHECK(dropped.summary.duplicates_dropped == 7);
    CHECK(dropped.task.train_size + dropped.task.held_out_size == 120);
    PairsOptions kept_options = named("kept");
    kept_options.drop_duplicates = false;
    const PairsTask kept = make_pairs_task(with_repeats, kept_options);
    CHECK(kept.summary.duplicates_dropped == 0);
    CHECK(kept.task.train_size + kept.task.held_out_size + kept.summary.set_aside == 127);
    // The copies of one pair are on one side: lines[0]'s input three times more, so 4 in all.
    const std::string first_input = lines[0].substr(0, lines[0].find('\t'));
    const Splits ks = kept.task.make_splits(1, kept.task.train_size, kept.task.held_out_size);
    const auto kt = inputs(ks.train), kh = inputs(ks.held_out);
    const long in_train = std::count(kt.begin(), kt.end(), first_input), in_held = std::count(kh.begin(), kh.end(), first_input);
    CHECK(((in_train == 4 && in_held == 0) || (in_train == 0 && in_held == 4)));

    // Held-out pairs holding a character no training pair has are set aside: 12 pairs each
    // with a letter of their own (g to r), after 120 of a-f. Whichever seed, such a pair is
    // either trained on (its letter then in the vocabulary) or set aside (its line counted).
    std::string rare = text;
    for (int k = 0; k < 12; ++k) rare += std::string("ab") + char('g' + k) + "\tx\n";  // lines 121 to 132
    int seeds_with_set_aside = 0;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        PairsOptions o = named("rare");
        o.split_seed = seed;
        const PairsTask t = make_pairs_task(rare, o);
        std::vector<int> expected_lines;
        for (int k = 0; k < 12; ++k)
            if (t.task.input.id(std::string(1, char('g' + k))) < 0) expected_lines.push_back(121 + k);
        CHECK(t.summary.set_aside_lines == expected_lines);
        CHECK(t.summary.set_aside == int(expected_lines.size()));
        CHECK(t.task.train_size + t.task.held_out_size + t.summary.set_aside == 132);
        const Splits s = t.task.make_splits(1, t.task.train_size, t.task.held_out_size);
        for (const Example& ex : s.held_out) CHECK_NOTHROW(t.task.input.encode(ex.input));
        seeds_with_set_aside += t.summary.set_aside > 0;
    }
    CHECK(seeds_with_set_aside > 0);  // about 1 in 10 such pairs is held out: 12 × 10 draws
}

TEST_CASE("pairs: the task's row, built from its training pairs") {
    const std::string text = reversal_pairs(120, 3, true);
    const PairsTask made = make_pairs_task(text, named("backwards"));
    const Task& task = made.task;
    CHECK(task.name == "backwards");
    CHECK_FALSE(task.input.words);
    CHECK(task.ends);
    CHECK(task.end_token() == 2);
    // Inputs are 3 to 6 letters: four groups of one length each, T = 6 + 1.
    CHECK(task.max_input_tokens == 6);
    CHECK(task.output_steps == 7);
    CHECK(task.group_names == std::vector<std::string>{"3 characters", "4 characters", "5 characters", "6 characters"});
    const Splits s = task.make_splits(1, task.train_size, task.held_out_size);
    // The vocabularies: the training pairs' letters, sorted, after the specials.
    std::set<std::string> in_train, out_train;
    for (const Example& ex : s.train) {
        for (char ch : ex.input) in_train.insert(std::string(1, ch));
        for (char ch : ex.target) out_train.insert(std::string(1, ch));
    }
    std::vector<std::string> expected_in = {""}, expected_out = {"", "<s>", "</s>"};
    expected_in.insert(expected_in.end(), in_train.begin(), in_train.end());
    expected_out.insert(expected_out.end(), out_train.begin(), out_train.end());
    CHECK(task.input.tokens() == expected_in);
    CHECK(task.output.tokens() == expected_out);
    CHECK(made.summary.input_tokens == int(in_train.size()));
    CHECK(made.summary.aligned);
    CHECK(task.example_input == s.held_out.front().input);
    // Every example: its group by length, and the reversal's links (output t reads input n-1-t),
    // none on the end token.
    for (const std::vector<Example>* split : {&s.train, &s.held_out})
        for (const Example& ex : *split) {
            const int n = int(ex.input.size());
            CHECK(ex.group == n - 3);
            REQUIRE(ex.alignment.size() == size_t(n));
            for (int t = 0; t < n; ++t) CHECK(ex.alignment[size_t(t)] == AlignmentLink{t, n - 1 - t, true});
        }

    // Word tokens, and lengths 1 to 64 in four bands of 16.
    std::string long_text;
    for (int i = 0; i < 120; ++i) {
        const int n = 1 + (i * 37) % 64;
        std::string side;
        for (int w = 0; w < n; ++w) side += (w ? " w" : "w") + std::to_string((i + w) % 50);
        long_text += side + "\tout" + std::to_string(i % 7) + "\n";
    }
    PairsOptions words = named("long");
    words.tokens = PairsTokens::words;
    const PairsTask wide = make_pairs_task(long_text, words);
    CHECK(wide.task.input.words);
    CHECK(wide.task.output.words);
    CHECK(wide.task.group_names == std::vector<std::string>{"1-16 words", "17-32 words", "33-48 words", "49-64 words"});
    CHECK(wide.task.output_steps == 2);
    CHECK(wide.task.max_input_tokens == 64);

    // What the page says.
    PairsSummary summary;
    summary.pairs_read = 1200;
    summary.duplicates_dropped = 3;
    summary.set_aside = 2;
    summary.train_size = 1078;
    summary.held_out_size = 117;
    summary.input_tokens = 26;
    summary.output_tokens = 10;
    CHECK(describe_pairs(summary) ==
          "1,200 pairs read, 3 duplicates dropped; 1,078 to train, 117 held out (2 more set aside: they hold a "
          "character the training pairs lack); 26 input and 10 output characters; no alignments.");
    summary = {};
    summary.tokens = PairsTokens::words;
    summary.aligned = true;
    summary.pairs_read = 100;
    summary.train_size = 90;
    summary.held_out_size = 10;
    summary.input_tokens = 1;
    summary.output_tokens = 2;
    CHECK(describe_pairs(summary) == "100 pairs read; 90 to train, 10 held out; 1 input and 2 output words; alignments given.");
}

TEST_CASE("pairs: a task of 120 pairs in the table: batches, a training run, its weights by name") {
    const PairsTask made = make_pairs_task(reversal_pairs(120, 5, true), named("my-reversal"));
    const Task& task = made.task;
    const TaskInTable in_table(&task);
    CHECK(&find_task("my-reversal") == &task);
    const Splits data = task.make_splits(1, task.train_size, task.held_out_size);

    // A batch of the first three training pairs, encoded by hand from the vocabularies.
    const Batch batch = make_batch(task, data.train, {0, 1, 2});
    CHECK(batch.B == 3);
    size_t longest = 0;
    for (int b = 0; b < 3; ++b) longest = std::max(longest, data.train[size_t(b)].input.size());
    CHECK(batch.S == int(longest));
    for (int b = 0; b < 3; ++b) {
        const Example& ex = data.train[size_t(b)];
        CHECK(batch.src_len[size_t(b)] == int(ex.input.size()));
        for (size_t j = 0; j < ex.input.size(); ++j) CHECK(batch.src(b, j) == task.input.id(ex.input[j]));
        for (size_t j = ex.input.size(); j < size_t(batch.S); ++j) CHECK(batch.src(b, j) == pad_token);
        CHECK(batch.dec_in(b, 0) == start_token);
        for (size_t t = 0; t < ex.target.size(); ++t) {
            CHECK(batch.dec_out(b, t) == task.output.id(ex.target[t]));
            CHECK(batch.dec_in(b, t + 1) == task.output.id(ex.target[t]));
        }
        CHECK(batch.dec_out(b, ex.target.size()) == 2);  // the end token
    }
    std::vector<int> every(data.held_out.size());
    std::iota(every.begin(), every.end(), 0);
    CHECK_NOTHROW(make_batch(task, data.held_out, every));

    // A short run: 108 pairs in batches of 16 (7 a epoch), 84 steps. The loss starts near
    // ln(V_out) = ln 9 ≈ 2.2 (uniform over 6 letters and the end token, 3 specials) and a
    // reversal of 3-6 letters with attention falls well below half of it.
    TrainerConfig config;
    config.model = {DecoderKind::attention, Scorer::additive, 16};
    config.model.task = &task;
    config.batch_size = 16;
    config.epochs = 0;
    config.evaluate_each_epoch = false;
    config.learning_rate = 1e-2f;
    Trainer trainer(config, data);
    CHECK(trainer.batches_per_epoch() == 7);
    CHECK(trainer.step(84) == 84);
    const std::vector<float>& loss = trainer.loss_history();
    const double first = std::accumulate(loss.begin(), loss.begin() + 7, 0.0) / 7;
    const double last = std::accumulate(loss.end() - 7, loss.end(), 0.0) / 7;
    MESSAGE("pairs loss ", first, " -> ", last);
    CHECK(first > 1.5);
    CHECK(last < first / 2);

    // A width-8 model through safetensors: the file names the task, which loads it by name.
    ModelConfig small;
    small.task = &task;
    small.H = 8;
    const Model model = testing::random_model(small, 3);
    const SafetensorsContent content = model_to_safetensors(model);
    CHECK(content.metadata.at("task") == "my-reversal");
    const std::vector<uint8_t> bytes = encode_safetensors(content);
    const Model back = load_model(bytes.data(), bytes.size());
    CHECK(back.config.task == &task);
    const auto before = named_tensors(model.params), after = named_tensors(back.params);
    REQUIRE(before.size() == after.size());
    for (size_t k = 0; k < before.size(); ++k) {
        CAPTURE(before[k].name);
        REQUIRE(before[k].size == after[k].size);
        for (size_t i = 0; i < before[k].size; ++i) CHECK(before[k].data[i] == after[k].data[i]);
    }
}

TEST_CASE("pairs: a reader's task replaced in the table under its name; a refusal leaves the old one") {
    const size_t table = tasks().size();
    // The first: 150 distinct strings, so 15 held out (10 %) and 135 to train.
    std::unique_ptr<PairsTask> first = replace_pairs_task(reversal_pairs(150, 25, false), named("mine"), nullptr);
    REQUIRE(first);
    CHECK(tasks().size() == table + 1);
    CHECK(task_named("mine") == &first->task);
    CHECK(first->task.train_size == 135);
    CHECK(first->task.held_out_size == 15);
    // Without the old task named, the name is taken: refused, and nothing changes.
    CHECK_THROWS_WITH_AS(replace_pairs_task(reversal_pairs(120, 300, false), named("mine"), nullptr),
                         "a task named 'mine' is already in the table", std::invalid_argument);
    // Nor may a replacement take another task's name.
    CHECK_THROWS_WITH_AS(replace_pairs_task(reversal_pairs(120, 300, false), named("reversal"), &first->task),
                         "a task named 'reversal' is already in the table", std::invalid_argument);
    // A text refused at its line leaves the old task in its place.
    CHECK_THROWS_WITH_AS(replace_pairs_task("abc\tcba\nno separator\n", named("mine"), &first->task),
                         doctest::Contains("line 2: "), PairsError);
    CHECK(task_named("mine") == &first->task);
    CHECK(tasks().size() == table + 1);

    // Replaced: 120 strings, 12 held out and 108 to train, under the same name, in the old one's
    // place; the old one is out of the table but still readable by whoever trained on it.
    std::unique_ptr<PairsTask> second = replace_pairs_task(reversal_pairs(120, 300, false), named("mine"), &first->task);
    REQUIRE(second);
    CHECK(tasks().size() == table + 1);
    CHECK(task_named("mine") == &second->task);
    CHECK(std::find(tasks().begin(), tasks().end(), &first->task) == tasks().end());
    CHECK(second->task.name == "mine");
    CHECK(second->task.train_size == 108);
    CHECK(second->task.held_out_size == 12);
    CHECK(first->task.make_splits(1, 135, 15).train.size() == 135);
    // The task's own name is in its refusals, not one it was made under for a while.
    CHECK_THROWS_WITH_AS(second->task.make_splits(1, 109, 0),
                         "the task 'mine' has 108 training and 12 held-out pairs: it cannot give 109 and 0", std::invalid_argument);
    remove_task(second->task);
    CHECK(tasks().size() == table);
    CHECK(task_named("mine") == nullptr);
}

TEST_CASE("pairs: a task of non-ASCII characters takes typed input by code point") {
    // 120 pairs of Cyrillic letters written in Latin ones, by a table written here.
    const char* const cyrillic[] = {"а", "б", "в", "г", "д", "е"};
    const char* const latin[] = {"a", "b", "v", "g", "d", "e"};
    Rng rng(11);
    std::set<std::string> seen;
    std::string text;
    while (seen.size() < 120) {
        std::string in, out;
        for (int k = 0, n = 3 + int(rng.below(4)); k < n; ++k) {
            const size_t c = size_t(rng.below(6));
            in += cyrillic[c];
            out += latin[c];
        }
        if (seen.insert(in).second) text += in + "\t" + out + "\n";
    }
    const PairsTask made = make_pairs_task(text, named("translit"));
    const Task& task = made.task;
    std::vector<std::string> expected = {""};
    for (const char* c : {"а", "б", "в", "г", "д", "е"}) expected.push_back(c);  // U+0430..U+0435, in order
    CHECK(task.input.tokens() == expected);
    CHECK(task.output_steps == 7);
    std::string error;
    CHECK(encode_user_input(task, "где", error) ==
          std::vector<int>{task.input.id("г"), task.input.id("д"), task.input.id("е")});
    CHECK(error.empty());
    CHECK(encode_user_input(task, "гдx", error).empty());
    CHECK(error == "character 'x' at position 3 is not accepted: use 'а', 'б', 'в', 'г', 'д' or 'е'");
    CHECK(encode_user_input(task, "гдж", error).empty());
    CHECK(error == "character 'ж' (U+0436) at position 3 is not accepted: use 'а', 'б', 'в', 'г', 'д' or 'е'");
}

TEST_CASE("pairs: a task of spelled-out letters takes a word typed whole as its letters") {
    // 120 words of three to five letters from "abcdeé", spelled with spaces, to the same reversed.
    const char* const letters[] = {"a", "b", "c", "d", "e", "é"};
    Rng rng(5);
    std::set<std::string> seen;
    std::string text;
    while (seen.size() < 120) {
        std::vector<std::string> word;
        for (int k = 0, n = 3 + int(rng.below(3)); k < n; ++k) word.push_back(letters[rng.below(6)]);
        std::string in, out;
        for (size_t k = 0; k < word.size(); ++k) {
            in += (k ? " " : "") + word[k];
            out += (k ? " " : "") + word[word.size() - 1 - k];
        }
        if (seen.insert(in).second) text += in + "\t" + out + "\n";
    }
    PairsOptions options = named("spelled");
    options.tokens = PairsTokens::words;
    const PairsTask made = make_pairs_task(text, options);
    const Task& task = made.task;
    std::string error;
    const std::vector<int> spaced = encode_user_input(task, "b a d é", error);
    REQUIRE(spaced.size() == 4);
    CHECK(encode_user_input(task, "badé", error) == spaced);  // typed whole: its letters, by code point
    CHECK(encode_user_input(task, "BADé", error) == spaced);  // A-Z folded first, as for any task without capitals
    CHECK(encode_user_input(task, "BADÉ", error).empty());     // only A-Z are folded: 'É' is no letter of the task
    CHECK(normalise_user_input(task, " Bad\t") == "b a d");
    CHECK(normalise_user_input(task, "bx d") == "bx d");  // spaced already: left as typed
    CHECK(encode_user_input(task, "bax", error).empty());  // 'x' is no word: the whole word is refused
    CHECK(error == "the word 'bax' at position 1 is not in the spelled task's vocabulary");
}

TEST_CASE("pairs: the TSV export keeps a first input that opens with U+FEFF") {
    const PairsText read = read_pairs("\xef\xbb\xbf\xef\xbb\xbf" "ab\tc\n", PairsTokens::characters);
    REQUIRE(read.pairs.size() == 1);
    CHECK(read.pairs[0].input == "\xef\xbb\xbf" "ab");  // the first order mark is the file's, the second the input's
    CHECK(write_pairs_tsv(read.pairs, false) == "\xef\xbb\xbf\xef\xbb\xbf" "ab\tc\n");
    CHECK(read_pairs(write_pairs_tsv(read.pairs, false), PairsTokens::characters).pairs[0].input == read.pairs[0].input);
}

// --- the example files ----------------------------------------------------------------

namespace {

// A number from its words, by the rule of English written here (not the generator's tables).
int value_of(const std::string& text) {
    const std::map<std::string, int> small = {
        {"one", 1},      {"two", 2},        {"three", 3},     {"four", 4},     {"five", 5},      {"six", 6},
        {"seven", 7},    {"eight", 8},      {"nine", 9},      {"ten", 10},     {"eleven", 11},   {"twelve", 12},
        {"thirteen", 13}, {"fourteen", 14}, {"fifteen", 15},  {"sixteen", 16}, {"seventeen", 17}, {"eighteen", 18},
        {"nineteen", 19}, {"twenty", 20},   {"thirty", 30},   {"forty", 40},   {"fifty", 50},    {"sixty", 60},
        {"seventy", 70}, {"eighty", 80},    {"ninety", 90}};
    int total = 0, group = 0;
    for (const std::string& w : words_of(text)) {
        if (w == "thousand") total += group * 1000, group = 0;
        else if (w == "hundred") group *= 100;
        else group += small.at(w);
    }
    return total + group;
}

}  // namespace

TEST_CASE("pairs: numbers spelled out, with their alignment, by hand") {
    CHECK(english_number(1) == "one");
    CHECK(english_number(13) == "thirteen");
    CHECK(english_number(40) == "forty");
    CHECK(english_number(45) == "forty five");
    CHECK(english_number(100) == "one hundred");
    CHECK(english_number(305) == "three hundred five");
    CHECK(english_number(2010) == "two thousand ten");
    CHECK(english_number(9999) == "nine thousand nine hundred ninety nine");
    CHECK_THROWS_AS(english_number(0), std::invalid_argument);
    CHECK_THROWS_AS(english_number(10000), std::invalid_argument);
    CHECK(spaced_digits(2345) == "2 3 4 5");
    CHECK(spaced_digits(7) == "7");
    using L = std::vector<AlignmentLink>;
    CHECK(english_number_alignment(7) == L{{0, 0, true}});
    CHECK(english_number_alignment(45) == L{{0, 0, true}, {1, 1, true}});
    CHECK(english_number_alignment(40) == L{{0, 0, true}, {1, 0, true}});
    CHECK(english_number_alignment(13) == L{{0, 0, true}, {1, 0, true}});
    // three(0) hundred(1) five(2) → 3 0 5
    CHECK(english_number_alignment(305) == L{{0, 0, true}, {0, 1, false}, {1, 1, false}, {2, 2, true}});
    // two(0) thousand(1) → 2 0 0 0
    CHECK(english_number_alignment(2000) == L{{0, 0, true}, {0, 1, false}, {1, 1, false}, {2, 1, false}, {3, 1, false}});
    // one(0) thousand(1) one(2) hundred(3) → 1 1 0 0
    CHECK(english_number_alignment(1100) ==
          L{{0, 0, true}, {0, 1, false}, {1, 2, true}, {1, 3, false}, {2, 3, false}, {3, 3, false}});
    // three(0) thousand(1) five(2) → 3 0 0 5
    CHECK(english_number_alignment(3005) == L{{0, 0, true}, {0, 1, false}, {1, 1, false}, {2, 1, false}, {3, 2, true}});
    // two(0) thousand(1) three(2) hundred(3) forty(4) five(5) → 2 3 4 5
    CHECK(english_number_alignment(2345) ==
          L{{0, 0, true}, {0, 1, false}, {1, 2, true}, {1, 3, false}, {2, 4, true}, {3, 5, true}});

    // Every number: its words read back to it; every digit linked; each sure link's word gives
    // that digit (a units word its value, a teen 1 and value − 10, a tens word value / 10 and 0).
    for (int n = 1; n <= 9999; ++n) {
        CAPTURE(n);
        const std::vector<std::string> words = words_of(english_number(n));
        REQUIRE(value_of(english_number(n)) == n);
        const std::string digits = std::to_string(n);
        const L links = english_number_alignment(n);
        std::set<int> linked;
        for (const AlignmentLink& l : links) {
            REQUIRE(l.output < int(digits.size()));
            REQUIRE(l.input < int(words.size()));
            linked.insert(l.output);
            if (!l.sure) continue;
            const int v = value_of(words[size_t(l.input)]);
            const bool last = l.output == int(digits.size()) - 1;
            const int expected = v < 10 ? v : v < 20 ? (last ? v - 10 : 1) : (last ? 0 : v / 10);
            CHECK(digits[size_t(l.output)] - '0' == expected);
        }
        CHECK(int(linked.size()) == int(digits.size()));
    }

    const std::string text = spelled_numbers_pairs();
    CHECK(text.substr(0, text.find('\n', text.find('\n') + 1) + 1) == "one\t1\t0-0\ntwo\t2\t0-0\n");
    CHECK(text.find("\nthree hundred five\t3 0 5\t0-0 1p0 1p1 2-2\n") != std::string::npos);
    PairsOptions o = named("numbers");
    o.tokens = PairsTokens::words;
    const PairsTask numbers = make_pairs_task(text, o);
    CHECK(numbers.summary.pairs_read == 9999);
    CHECK(numbers.summary.aligned);
    CHECK(numbers.summary.held_out_size + numbers.summary.set_aside == 999);  // 10% of 9999, rounded down
    CHECK(numbers.task.max_input_tokens == 6);  // "seven thousand seven hundred seventy seven"
    CHECK(numbers.task.output_steps == 5);      // four digits and the end token
    CHECK(numbers.summary.output_tokens == 10);
}

TEST_CASE("pairs: sentences with their words reversed, and the command that writes the files") {
    const std::string text = reversed_words_pairs();
    CHECK(text == reversed_words_pairs(1, 3000));
    CHECK(text != reversed_words_pairs(2, 3000));
    const PairsText read = read_pairs(text, PairsTokens::words);
    REQUIRE(read.pairs.size() == 3000);
    std::set<std::string> inputs;
    for (const PairLine& p : read.pairs) {
        const std::vector<std::string> in = words_of(p.input), out = words_of(p.target);
        CHECK(in.size() >= 3);
        CHECK(in.size() <= 8);
        CHECK(std::vector<std::string>(in.rbegin(), in.rend()) == out);
        const int n = int(in.size());
        REQUIRE(p.alignment.size() == size_t(n));
        for (int t = 0; t < n; ++t) CHECK(p.alignment[size_t(t)] == AlignmentLink{t, n - 1 - t, true});
        inputs.insert(p.input);
    }
    CHECK(inputs.size() == 3000);
    CHECK(reversed_words_pairs(1, 0).empty());

    const std::string dir = (std::filesystem::temp_directory_path() / "lookback_pairs_examples").string();
    std::filesystem::remove_all(dir);
    CHECK(cli::pairs_examples({"--out", dir + "/made"}) == 0);
    auto file = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    CHECK(file(dir + "/made/numbers.tsv") == spelled_numbers_pairs());
    CHECK(file(dir + "/made/reversed-words.tsv") == text);
    CHECK(file(dir + "/made/transliteration.tsv") == transliterated_words_pairs());
    std::filesystem::remove_all(dir);
    CHECK(cli::pairs_examples({}) == 2);
    CHECK(cli::pairs_examples({"--out"}) == 2);
    CHECK(cli::pairs_examples({"--out", dir, "--bogus"}) == 2);
}

TEST_CASE("pairs: made-up Russian words to Latin letters, one letter to up to four") {
    // Written out by hand from the table in pairs_examples.h; links as {output, input, sure}.
    auto links = [](std::vector<int> from) {  // from[j]: the input letter output character j comes from
        std::vector<AlignmentLink> out;
        for (size_t j = 0; j < from.size(); ++j) out.push_back({int(j), from[j], true});
        return out;
    };
    CHECK(transliterate_russian("щука") == "shchuka");
    CHECK(transliteration_alignment("щука") == links({0, 0, 0, 0, 1, 2, 3}));
    CHECK(transliterate_russian("объём") == "ob\"yom");
    CHECK(transliteration_alignment("объём") == links({0, 1, 2, 3, 3, 4}));
    CHECK(transliterate_russian("семья") == "sem'ya");
    CHECK(transliteration_alignment("семья") == links({0, 1, 2, 3, 4, 4}));
    CHECK(transliterate_russian("жёлтый") == "zhyoltyy");
    CHECK(transliteration_alignment("жёлтый") == links({0, 0, 1, 1, 2, 3, 4, 5}));
    CHECK(transliterate_russian("цех") == "tsekh");
    CHECK(transliteration_alignment("цех") == links({0, 0, 1, 2, 2}));
    CHECK(transliterate_russian("абвгдеёжзийклмнопрстуфхцчшщъыьэюя") ==
          "abvgdeyozhziyklmnoprstufkhtschshshch\"y'eyuya");
    CHECK(transliterate_russian("").empty());
    CHECK_THROWS_AS(transliterate_russian("Щука"), std::invalid_argument);  // upper case is not in the table
    CHECK_THROWS_AS(transliterate_russian("dom"), std::invalid_argument);
    CHECK_THROWS_AS(transliterate_russian("дом "), std::invalid_argument);
    CHECK_THROWS_AS(transliterate_russian("\xd0"), std::invalid_argument);  // half a letter

    const std::string text = transliterated_words_pairs();
    CHECK(text == transliterated_words_pairs(1, 3000));
    CHECK(text != transliterated_words_pairs(2, 3000));
    CHECK(transliterated_words_pairs(1, 0).empty());
    CHECK(text.rfind("даёвя\tdayovya\t0-0 1-1 2-2 2-3 3-4 4-5 4-6\n", 0) == 0);  // its first line, checked by hand
    const PairsText read = read_pairs(text, PairsTokens::characters);
    REQUIRE(read.pairs.size() == 3000);
    CHECK(read.aligned);
    auto code_points = [](const std::string& s) {
        std::u32string out;
        for (size_t i = 0; i < s.size();) {
            const size_t n = utf8_char_length(s, i);
            REQUIRE(n > 0);
            out += utf8_code_point(s, i, n);
            i += n;
        }
        return out;
    };
    std::set<std::string> inputs;
    std::set<char32_t> letters;
    for (const PairLine& p : read.pairs) {
        CAPTURE(p.line);
        inputs.insert(p.input);
        const std::u32string in = code_points(p.input);
        letters.insert(in.begin(), in.end());
        CHECK(in.size() >= 2);  // two syllables at least
        CHECK(p.target == transliterate_russian(p.input));
        // Every output character has exactly one link, sure, and the inputs it comes from never
        // go back: a monotone map, one letter to one to four characters.
        REQUIRE(p.alignment.size() == p.target.size());  // the output is ASCII: a byte a character
        std::vector<int> per_input(in.size());
        for (size_t j = 0; j < p.alignment.size(); ++j) {
            const AlignmentLink& l = p.alignment[j];
            CHECK(l.output == int(j));
            CHECK(l.sure);
            REQUIRE(l.input >= 0);
            REQUIRE(l.input < int(in.size()));
            if (j > 0) CHECK(l.input >= p.alignment[j - 1].input);
            ++per_input[size_t(l.input)];
        }
        for (int n : per_input) CHECK((n >= 1 && n <= 4));
    }
    CHECK(inputs.size() == 3000);
    CHECK(letters.size() == 33);  // the whole alphabet, ё й ъ ь щ included
    for (char32_t c : letters) CHECK(((c >= U'а' && c <= U'я') || c == U'ё'));

    PairsOptions o = named("translit");
    const PairsTask made = make_pairs_task(text, o);  // characters, the default
    CHECK(made.summary.pairs_read == 3000);
    CHECK(made.summary.duplicates_dropped == 0);
    CHECK(made.summary.input_tokens == 33);
    CHECK(made.summary.output_tokens <= 26 + 2);  // Latin letters, ' and "
}

TEST_CASE("pairs: a weights file carries its reader's task, which decodes again where no table has it") {
    const std::string text = reversal_pairs(150, 9, false);
    PairsTask made = make_pairs_task(text, named("carried"));
    ModelConfig config;
    config.task = &made.task;
    config.H = 8;
    SafetensorsContent content;
    std::vector<Decoded> before;
    const std::vector<std::string> inputs = {"abc", "fedcba", "aaaa"};
    {
        const TaskInTable in_table(&made.task);
        const Model model = testing::random_model(config, 5);
        content = model_to_safetensors(model);
        for (const std::string& input : inputs) {
            std::string error;
            before.push_back(decode_tokens(encode_user_input(made.task, input, error), model));
        }
    }
    // What the metadata says, against the pairs read here: the training pairs' letters sorted
    // (the task's own order, by code point), words no, the longest input 6 letters, the longest
    // target 6 letters and its end token.
    const Splits data = made.task.make_splits(1, made.task.train_size, made.task.held_out_size);
    std::set<std::string> letters;
    for (const Example& e : data.train)
        for (char c : e.input) letters.insert(std::string(1, c));
    CHECK(content.metadata.at("task") == "carried");
    CHECK(content.metadata.at("task_tokens") == "characters");
    CHECK(nlohmann::json::parse(content.metadata.at("task_input")) ==
          nlohmann::json(std::vector<std::string>(letters.begin(), letters.end())));
    CHECK(content.metadata.at("task_longest_input") == "6");
    CHECK(content.metadata.at("task_output_steps") == "7");
    CHECK_FALSE(model_to_safetensors(testing::random_model(ModelConfig{}, 5)).metadata.count("task_input"));

    // Out of the table, the file alone: the task read back decodes the same strings the same way.
    CHECK_THROWS(find_task("carried"));
    std::optional<Task> back = task_in_weights(content);
    REQUIRE(back.has_value());
    CHECK(back->input.tokens() == made.task.input.tokens());
    CHECK(back->output.tokens() == made.task.output.tokens());
    CHECK(back->output_steps == 7);
    CHECK_THROWS_WITH(back->make_splits(1, 1, 1), doctest::Contains("keeps its vocabularies but not its pairs"));
    {
        const TaskInTable in_table(&*back);
        const Model model = model_from_safetensors(content);
        CHECK(model.config.task == &*back);
        for (size_t i = 0; i < inputs.size(); ++i) {
            std::string error;
            const Decoded d = decode_tokens(encode_user_input(*back, inputs[i], error), model);
            CHECK(d.output == before[i].output);
            CHECK(d.attention == before[i].attention);
        }
    }

    // A file that carries no task, and carried metadata that is wrong: refused by name.
    const auto refused = [&](const char* key, const std::string& value) {
        SafetensorsContent bad = content;
        if (value == "<none>") bad.metadata.erase(key);
        else bad.metadata[key] = value;
        try {
            task_in_weights(bad);
        } catch (const SafetensorsError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(refused("task_output_steps", "<none>") == "the metadata carries a reader's task without \"task_output_steps\"");
    CHECK(refused("task_input", "[\"a\", 1]") == "metadata \"task_input\" must be a JSON array of tokens");
    CHECK(refused("task_input", "not json") == "metadata \"task_input\" must be a JSON array of tokens");
    CHECK(refused("task_input", "[\"a\", \"a\"]") == "the task the file carries: the input token 'a' is listed twice");
    CHECK(refused("task_input", "[\"ab\"]") == "the task the file carries: the input token 'ab' is more than one character");
    CHECK(refused("task_output", "[\"\\u0007\"]") == "the task the file carries: the output token '\\x07' holds a control character");
    CHECK(refused("task_output", "[]") == "the task the file carries: the output vocabulary has 0 tokens: a task has 1 to 256");
    CHECK(refused("task_tokens", "bytes") == "metadata \"task_tokens\" must be characters or words, not 'bytes'");
    CHECK(refused("task_output_steps", "1") == "the task the file carries: the output steps are 1: a task has 2 to 65");
    CHECK(refused("task_longest_input", "-3") == "metadata \"task_longest_input\" must be a whole number, not '-3'");
    CHECK(refused("task", "dates!") == "the task the file carries: a task's name is 1 to 32 letters, digits, '-' or '_', not 'dates!'");
    SafetensorsContent none = content;
    for (const char* key : {"task_tokens", "task_input", "task_output", "task_longest_input", "task_output_steps", "task_example"})
        none.metadata.erase(key);
    CHECK_FALSE(task_in_weights(none).has_value());
}

TEST_CASE("pairs: capitals are kept in typed input for a task that has them, folded for one that has none") {
    // Every string of 3 letters from a, B and c (27) and of 4 (81): 108 pairs, each to its reversal.
    std::string text;
    const std::string letters = "aBc";
    for (int n : {3, 4}) {
        int count = 1;
        for (int k = 0; k < n; ++k) count *= 3;
        for (int i = 0; i < count; ++i) {
            std::string s;
            for (int k = 0, v = i; k < n; ++k, v /= 3) s += letters[size_t(v % 3)];
            text += s + "\t" + reversed(s) + "\n";
        }
    }
    const PairsTask made = make_pairs_task(text, named("capitals"));
    std::string error;
    const std::vector<int> ids = encode_user_input(made.task, " aBca ", error);
    CHECK(error.empty());
    REQUIRE(ids.size() == 4);
    CHECK(ids[1] == made.task.input.id("B"));
    CHECK(normalise_user_input(made.task, " aBca ") == "aBca");
    CHECK(normalise_user_input(date_task(), " Monday 19 SEPTEMBER 1977 ") == "monday 19 september 1977");
}
