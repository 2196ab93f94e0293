// core/lesson/selfcheck.h — the self-check's computation questions, with fresh
// numbers every time, answered by the core.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "kernels/rng.h"

namespace lb {

enum class QuestionKind { context, softmax_entry, dot_score, bilinear_score, scaled_dot_score, additive_score };
constexpr QuestionKind all_question_kinds[] = {QuestionKind::context, QuestionKind::softmax_entry,
                                               QuestionKind::dot_score,
                                               QuestionKind::bilinear_score,
                                               QuestionKind::scaled_dot_score,
                                               QuestionKind::additive_score};

struct Question {
    QuestionKind kind;
    std::string prompt;   // what the reader is asked, numbers included
    double answer;        // computed by the core (attention_step / score)
    double tolerance;     // an answer within ±tolerance of `answer` is accepted
    std::string working;  // the computation written out, shown after answering
};

// A fresh question of one kind; its numbers come from `rng`.
Question make_question(QuestionKind kind, Rng& rng);

// Whether `given` is within the question's tolerance.
bool is_correct(const Question& q, double given) noexcept;

// The reader's typed answer: a decimal number ("5", "0.67", "-1.5", ".5").
// Returns nothing and sets `error` for anything else (empty, letters, "1,5",
// a typographic minus, "½", digits of another script, a no-break space, bytes
// that are not UTF-8...). The message names the refused character whole and
// says what to type instead; it is valid UTF-8 and short whatever was typed.
// Never throws (the page calls it with any text).
std::optional<double> parse_answer(std::string_view text, std::string& error) noexcept;

}  // namespace lb
