// core/selfcheck.h — the self-check's computation questions, with fresh
// numbers every time, answered by the core (lesson-brief §9).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include "rng.h"

namespace lb {

enum class QuestionKind { context, softmax_entry, dot_score, bilinear_score };
constexpr QuestionKind all_question_kinds[] = {QuestionKind::context, QuestionKind::softmax_entry,
                                               QuestionKind::dot_score,
                                               QuestionKind::bilinear_score};

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
bool is_correct(const Question& q, double given);

// The reader's typed answer: a decimal number ("5", "0.67", "-1.5", ".5").
// Returns nothing and sets `error` for anything else (empty, letters, "1,5"...).
std::optional<double> parse_answer(std::string_view text, std::string& error);

}  // namespace lb
