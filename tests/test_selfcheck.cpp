// The self-check's computation questions: answers checked against formulas
// written independently here, over many fresh draws.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include "lesson/selfcheck.h"
#include "text/text.h"

using namespace lb;

namespace {
// Pulls every integer (with sign) and decimal out of the prompt, in order.
std::vector<double> numbers_in(const std::string& text) {
    std::vector<double> out;
    for (size_t i = 0; i < text.size();) {
        const bool neg = text[i] == '-' && i + 1 < text.size() && isdigit((unsigned char)text[i + 1]);
        if (isdigit((unsigned char)text[i]) || neg) {
            size_t used = 0;
            out.push_back(std::stod(text.substr(i), &used));
            i += used;
        } else {
            ++i;
        }
    }
    return out;
}
}  // namespace

TEST_CASE("computation questions: answers match an independent computation from the prompt") {
    Rng rng(2024);
    for (int trial = 0; trial < 200; ++trial) {
        for (QuestionKind kind : all_question_kinds) {
            const Question q = make_question(kind, rng);
            CHECK(q.kind == kind);
            const std::vector<double> n = numbers_in(q.prompt);
            double expected = 0;
            switch (kind) {
                case QuestionKind::context:  // h1 h2 h3 "(one" ... α1 α2 α3
                    REQUIRE(n.size() == 6);
                    expected = n[0] * n[3] + n[1] * n[4] + n[2] * n[5];
                    CHECK(n[3] + n[4] + n[5] == doctest::Approx(1.0));
                    break;
                case QuestionKind::softmax_entry: {  // e1 e2 e3, k, "two"
                    REQUIRE(n.size() == 4);
                    const int k = int(n[3]) - 1;
                    double z = 0;
                    for (int i = 0; i < 3; ++i) z += std::exp(n[i]);
                    expected = std::exp(n[k]) / z;
                    break;
                }
                case QuestionKind::dot_score:  // s1 s2 s3 h1 h2 h3
                    REQUIRE(n.size() == 6);
                    expected = n[0] * n[3] + n[1] * n[4] + n[2] * n[5];
                    break;
                case QuestionKind::bilinear_score:  // s0 s1 h0 h1 w00 w01 w10 w11
                    REQUIRE(n.size() == 8);
                    expected = n[0] * (n[4] * n[2] + n[5] * n[3]) + n[1] * (n[6] * n[2] + n[7] * n[3]);
                    break;
                case QuestionKind::scaled_dot_score: {  // q (4), k1 (4), k2 (4), d_k, the entry
                    REQUIRE(n.size() == 14);
                    CHECK(n[12] == 4);
                    const int key = n[13] == 1 ? 4 : 8;
                    CHECK((n[13] == 1 || n[13] == 2));
                    expected = (n[0] * n[key] + n[1] * n[key + 1] + n[2] * n[key + 2] + n[3] * n[key + 3]) / 2;
                    break;
                }
                case QuestionKind::additive_score:  // h0 h1 s0 s1 v0 v1
                    REQUIRE(n.size() == 6);
                    expected = n[4] * std::tanh(n[0] + n[2]) + n[5] * std::tanh(n[1] + n[3]);
                    break;
            }
            CHECK(q.answer == doctest::Approx(expected).epsilon(1e-12));
            CHECK(is_correct(q, expected + 0.5 * q.tolerance));
            CHECK_FALSE(is_correct(q, expected + 2 * q.tolerance));
            CHECK_FALSE(q.working.empty());
        }
    }
}

TEST_CASE("the scaled dot question asks for either entry of the row, and shows the division by √d_k") {
    Rng rng(11);
    std::set<std::string> entries;
    for (int i = 0; i < 40; ++i) {
        const Question q = make_question(QuestionKind::scaled_dot_score, rng);
        entries.insert(q.prompt.find("entry 1 ") != std::string::npos ? "1" : "2");
        CHECK(q.working.find("√d_k = √4 = 2") != std::string::npos);
        CHECK(q.answer * 2 == std::round(q.answer * 2));  // integer vectors: a whole or half number
    }
    CHECK(entries.size() == 2);
}

TEST_CASE("questions are fresh: different draws give different numbers") {
    Rng rng(7);
    std::set<std::string> prompts;
    for (int i = 0; i < 20; ++i) prompts.insert(make_question(QuestionKind::dot_score, rng).prompt);
    CHECK(prompts.size() >= 18);
}

TEST_CASE("typed answers") {
    std::string error;
    CHECK(*parse_answer(" 5 ", error) == 5.0);
    CHECK(*parse_answer("0.67", error) == doctest::Approx(0.67));
    CHECK(*parse_answer("-1.5", error) == -1.5);
    CHECK(*parse_answer(".5", error) == 0.5);
    for (const char* bad : {"", "   ", "abc", "1,5", "1e3", "inf", "-", "1.2.3", "0x10"}) {
        error.clear();
        CHECK_FALSE(parse_answer(bad, error).has_value());
        CHECK_FALSE(error.empty());
    }
    Question q{QuestionKind::softmax_entry, "", 0.6652, 0.01, ""};
    CHECK(is_correct(q, 0.67));
    CHECK_FALSE(is_correct(q, 0.70));
    CHECK_FALSE(is_correct(q, NAN));
}

TEST_CASE("typed answers that are not ASCII: refused with a message that is valid UTF-8") {
    const struct {
        const char* answer;
        const char* named;  // how the message names the character
    } cases[] = {
        {"\xc3\xa9", "'\xc3\xa9' (U+00E9)"},                      // é
        {"\xe2\x88\x92" "1", "'\xe2\x88\x92' (U+2212)"},          // a typographic minus
        {"\xc2\xbd", "'\xc2\xbd' (U+00BD)"},                      // ½
        {"\xd9\xa3", "'\xd9\xa3' (U+0663)"},                      // Arabic-Indic three
        {"0.5\xc2\xa0", "a no-break space (U+00A0)"},
        {"0.5\xc3", "the byte 0xc3"},                             // cut inside a character
        {"1\x1b[2J", "the byte 0x1b"},                            // a terminal escape
    };
    for (const auto& c : cases) {
        CAPTURE(c.answer);
        std::string error;
        CHECK_FALSE(parse_answer(c.answer, error).has_value());
        CHECK(is_valid_utf8(error));
        CHECK(error.find(c.named) != std::string::npos);
        for (char b : error) CHECK(static_cast<unsigned char>(b) >= 0x20);
    }
    std::string error;
    CHECK_FALSE(parse_answer("\xe2\x88\x92" "1", error).has_value());
    CHECK(error.find("'-'") != std::string::npos);  // says what to type instead
    CHECK_FALSE(parse_answer("\xc2\xbd", error).has_value());
    CHECK(error.find("0.5") != std::string::npos);
    CHECK_FALSE(parse_answer("\xd9\xa3", error).has_value());
    CHECK(error.find("0-9") != std::string::npos);
    // A long answer: the message stays short.
    CHECK_FALSE(parse_answer(std::string(5000, '\xc3'), error).has_value());
    CHECK(error.size() < 200);
}
