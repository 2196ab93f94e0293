// core/lesson/selfcheck.cpp — see selfcheck.h. Answers come from the same functions
// that draw the figures (attention_step, score), so the page checks the reader
// with the arithmetic it teaches.
#include "lesson/selfcheck.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include "lesson/attention_step.h"
#include "text/text.h"

namespace lb {
namespace {

int rand_int(Rng& rng, int lo, int hi) { return lo + int(rng.below(uint64_t(hi - lo + 1))); }

std::string fmt(const char* format, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

std::string vec2(int a, int b) { return "(" + std::to_string(a) + ", " + std::to_string(b) + ")"; }

// One question of each kind; its numbers come from `rng`.
Question context_question(Rng& rng) {
    Question q{QuestionKind::context, "", 0, 0, ""};
    // Scalar states h_i and weights in tenths that sum to one.
    const int a1 = rand_int(rng, 1, 4), a2 = rand_int(rng, 1, 9 - a1 - 1);
    const int a3 = 10 - a1 - a2;
    const int h[3] = {rand_int(rng, -5, 9), rand_int(rng, -5, 9), rand_int(rng, -5, 9)};
    const double alpha[3] = {a1 / 10.0, a2 / 10.0, a3 / 10.0};
    double c = 0;
    for (int i = 0; i < 3; ++i) c += alpha[i] * h[i];
    q.prompt = "Encoder states h = " + std::to_string(h[0]) + ", " + std::to_string(h[1]) +
               ", " + std::to_string(h[2]) + " (one number each) have attention weights α = " +
               fmt("%.1f", alpha[0]) + ", " + fmt("%.1f", alpha[1]) + ", " +
               fmt("%.1f", alpha[2]) + ". What is the context c?";
    q.answer = c;
    q.tolerance = 0.01;
    q.working = "c = Σ α_j h_j = " + fmt("%.1f", alpha[0]) + "·" + std::to_string(h[0]) +
                " + " + fmt("%.1f", alpha[1]) + "·" + std::to_string(h[1]) + " + " +
                fmt("%.1f", alpha[2]) + "·" + std::to_string(h[2]) + " = " +
                fmt("%.2f", c);
    return q;
}

Question softmax_entry_question(Rng& rng) {
    Question q{QuestionKind::softmax_entry, "", 0, 0, ""};
    const int e[3] = {rand_int(rng, -2, 3), rand_int(rng, -2, 3), rand_int(rng, -2, 3)};
    const int k = rand_int(rng, 0, 2);
    const AttentionStep step =
        attention_step(Scorer::dot, {1.0}, {{double(e[0])}, {double(e[1])}, {double(e[2])}});
    q.prompt = "Scores e = (" + std::to_string(e[0]) + ", " + std::to_string(e[1]) + ", " +
               std::to_string(e[2]) + "). What is softmax(e)_" + std::to_string(k + 1) +
               ", to two decimals?";
    q.answer = step.weights[k];
    q.tolerance = 0.01;  // two decimals, plus rounding either way
    q.working = "exp(e) = (" + fmt("%.3f", step.exps[0]) + ", " + fmt("%.3f", step.exps[1]) +
                ", " + fmt("%.3f", step.exps[2]) + "), sum " + fmt("%.3f", step.denominator) +
                "; α_" + std::to_string(k + 1) + " = " + fmt("%.3f", step.exps[k]) + " / " +
                fmt("%.3f", step.denominator) + " = " + fmt("%.3f", step.weights[k]);
    return q;
}

Question dot_score_question(Rng& rng) {
    Question q{QuestionKind::dot_score, "", 0, 0, ""};
    int s[3], h[3];
    for (int i = 0; i < 3; ++i) { s[i] = rand_int(rng, -3, 5); h[i] = rand_int(rng, -3, 5); }
    q.answer = score(Scorer::dot, {double(s[0]), double(s[1]), double(s[2])},
                     {double(h[0]), double(h[1]), double(h[2])}, {});
    auto v3 = [](const int* x) {
        return "(" + std::to_string(x[0]) + ", " + std::to_string(x[1]) + ", " +
               std::to_string(x[2]) + ")";
    };
    q.prompt = "Decoder state s = " + v3(s) + ", encoder state h = " + v3(h) +
               ". What is the dot score sᵀh?";
    q.tolerance = 0.01;
    q.working = "sᵀh = " + std::to_string(s[0]) + "·" + std::to_string(h[0]) + " + " +
                std::to_string(s[1]) + "·" + std::to_string(h[1]) + " + " +
                std::to_string(s[2]) + "·" + std::to_string(h[2]) + " = " +
                fmt("%.0f", q.answer);
    return q;
}

Question bilinear_score_question(Rng& rng) {
    Question q{QuestionKind::bilinear_score, "", 0, 0, ""};
    const int s0 = rand_int(rng, -2, 3), s1 = rand_int(rng, -2, 3);
    const int h0 = rand_int(rng, -2, 3), h1 = rand_int(rng, -2, 3);
    const int w00 = rand_int(rng, -1, 3), w01 = rand_int(rng, -1, 2);
    const int w10 = rand_int(rng, -1, 2), w11 = rand_int(rng, -1, 3);
    ScorerParams p;
    p.W = {{double(w00), double(w01)}, {double(w10), double(w11)}};
    q.answer = score(Scorer::general, {double(s0), double(s1)}, {double(h0), double(h1)}, p);
    q.prompt = "s = " + vec2(s0, s1) + ", h = " + vec2(h0, h1) + ", W = [[" +
               std::to_string(w00) + ", " + std::to_string(w01) + "], [" +
               std::to_string(w10) + ", " + std::to_string(w11) +
               "]]. What is the bilinear (general) score sᵀWh?";
    q.tolerance = 0.01;
    const int wh0 = w00 * h0 + w01 * h1, wh1 = w10 * h0 + w11 * h1;
    q.working = "Wh = " + vec2(wh0, wh1) + ", then sᵀ(Wh) = " + std::to_string(s0) + "·" +
                std::to_string(wh0) + " + " + std::to_string(s1) + "·" +
                std::to_string(wh1) + " = " + fmt("%.0f", q.answer);
    return q;
}

Question scaled_dot_score_question(Rng& rng) {
    Question q{QuestionKind::scaled_dot_score, "", 0, 0, ""};
    // One query against two keys of width d_k = 4, so √d_k = 2 and QKᵀ/√d_k is one row of
    // two entries; the reader works out one of them.
    constexpr int d = 4;
    Vec query(d), keys[2] = {Vec(d), Vec(d)};
    for (double& x : query) x = rand_int(rng, -2, 3);
    for (Vec& k : keys)
        for (double& x : k) x = rand_int(rng, -2, 3);
    const int j = rand_int(rng, 0, 1);
    const double dot = score(Scorer::dot, query, keys[j], {});
    q.answer = dot / std::sqrt(double(d));
    auto v4 = [](const Vec& x) {
        return "(" + fmt("%.0f", x[0]) + ", " + fmt("%.0f", x[1]) + ", " + fmt("%.0f", x[2]) +
               ", " + fmt("%.0f", x[3]) + ")";
    };
    const std::string key_name = j == 0 ? "k₁" : "k₂";
    q.prompt = "A query q = " + v4(query) + " and two keys k₁ = " + v4(keys[0]) + ", k₂ = " +
               v4(keys[1]) + ", all of width d_k = " + std::to_string(d) +
               ", so QKᵀ/√d_k is one row of two entries. What is entry " +
               std::to_string(j + 1) + " (the scaled score of " + key_name + ")?";
    q.tolerance = 0.01;
    std::string terms;
    for (int i = 0; i < d; ++i)
        terms += (i ? " + " : "") + fmt("%.0f", query[i]) + "·" + fmt("%.0f", keys[j][i]);
    q.working = "q·" + key_name + " = " + terms + " = " + fmt("%.0f", dot) +
                "; √d_k = √4 = 2; " + fmt("%.0f", dot) + " / 2 = " + fmt("%.2f", q.answer);
    return q;
}

Question additive_score_question(Rng& rng) {
    Question q{QuestionKind::additive_score, "", 0, 0, ""};
    // Bahdanau's score with both matrices the identity, so the work is two sums, two tanh
    // and a dot product: whole numbers from −1 to 1 keep each tanh's argument within ±2.
    const int h0 = rand_int(rng, -1, 1), h1 = rand_int(rng, -1, 1);
    const int s0 = rand_int(rng, -1, 1), s1 = rand_int(rng, -1, 1);
    const int v0 = rand_int(rng, -2, 2), v1 = rand_int(rng, 1, 2);
    ScorerParams p;
    p.W_e = p.W_d = {{1.0, 0.0}, {0.0, 1.0}};
    p.v = {double(v0), double(v1)};
    q.answer = score(Scorer::additive, {double(s0), double(s1)}, {double(h0), double(h1)}, p);
    q.prompt = "The additive score e = vᵀ tanh(W_e h + W_d s), with W_e and W_d the identity (so "
               "e = vᵀ tanh(h + s)): h = " + vec2(h0, h1) + ", s = " + vec2(s0, s1) + ", v = " +
               vec2(v0, v1) + ". What is e, to two decimals?";
    q.tolerance = 0.01;
    q.working = "h + s = " + vec2(h0 + s0, h1 + s1) + "; tanh gives (" + fmt("%.4f", std::tanh(h0 + s0)) +
                ", " + fmt("%.4f", std::tanh(h1 + s1)) + "); e = " + std::to_string(v0) + "·" +
                fmt("%.4f", std::tanh(h0 + s0)) + " + " + std::to_string(v1) + "·" +
                fmt("%.4f", std::tanh(h1 + s1)) + " = " + fmt("%.4f", q.answer);
    return q;
}

}  // namespace

Question make_question(QuestionKind kind, Rng& rng) {
    // In the order of QuestionKind (each question states its kind, and the tests check it).
    static constexpr Question (*make[])(Rng&) = {context_question,          softmax_entry_question,
                                                 dot_score_question,        bilinear_score_question,
                                                 scaled_dot_score_question, additive_score_question};
    static_assert(std::size(make) == std::size(all_question_kinds));
    return make[size_t(kind)](rng);
}

bool is_correct(const Question& q, double given) noexcept {
    return std::isfinite(given) && std::fabs(given - q.answer) <= q.tolerance;
}

namespace {

// What to type instead of a character that is not part of a decimal number.
std::string hint_for(char32_t c) {
    if (c == ',') return "use a point: 0.67";
    if (c == 0x2212 || (c >= 0x2010 && c <= 0x2015) || c == 0xfe63 || c == 0xff0d)
        return "type the minus as '-'";
    if ((c >= 0xbc && c <= 0xbe) || (c >= 0x2150 && c <= 0x215e))
        return "type a fraction as a decimal: 0.5";
    if ((c >= 0x660 && c <= 0x669) || (c >= 0x6f0 && c <= 0x6f9) || (c >= 0x966 && c <= 0x96f) ||
        (c >= 0xff10 && c <= 0xff19))
        return "type the digits 0-9";
    if (!is_visible(c)) return "remove it";
    return "type digits 0-9, a point and a leading '-' (e.g. -0.67)";
}

std::optional<double> parse_checked(std::string_view text, std::string& error) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (text.empty()) {
        error = "Type a number first.";
        return std::nullopt;
    }
    // Only digits, one point and a leading sign: strtod alone would take "1e3", "inf", "0x1p3".
    // A refused character is named whole (never one byte of it), so the message stays UTF-8.
    size_t i = (text[0] == '-' || text[0] == '+') ? 1 : 0;
    bool digit = false, point = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') digit = true;
        else if (c == '.' && !point) point = true;
        else {
            const size_t n = utf8_char_length(text, i);
            const std::string what = describe_char(text, i, n);
            if (n == 0) error = "The answer is not valid text (" + what + "): type a decimal number.";
            else error = what + " is not part of a decimal number: " + hint_for(utf8_code_point(text, i, n)) + ".";
            return std::nullopt;
        }
    }
    if (!digit) {
        error = quote_untrusted(text) + " has no digits.";  // only a sign and a point
        return std::nullopt;
    }
    return std::strtod(std::string(text).c_str(), nullptr);
}

}  // namespace

std::optional<double> parse_answer(std::string_view text, std::string& error) noexcept {
    // The page calls this with whatever was typed: nothing may escape it.
    try {
        return parse_checked(text, error);
    } catch (...) {
        error = "The answer could not be read.";
        return std::nullopt;
    }
}

}  // namespace lb
