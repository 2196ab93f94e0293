// core/data/pairs_examples.h — example pairs files the project writes itself (docs/own-pairs.md),
// so the "your pairs" feature shows itself without data of one's own. Each is TSV text that
// make_pairs_task accepts with word tokens, with a Pharaoh alignment column.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "data/task.h"

namespace lb {

// 1 to 9999 in English words, without "and" and with tens and ones as two words ("two thousand
// three hundred forty five", so each digit has its word), to its digits separated by spaces
// ("2 3 4 5": ten output words, where the whole number as one word would need 9,999).
// Throws std::invalid_argument outside 1-9999.
std::string english_number(int n);
std::string spaced_digits(int n);
// The known alignment, as AlignmentLink{output digit, input word, sure}: a digit's own word is
// sure ("three" for the 3 of 345; a teen or a tens word gives both its digits: "forty" the 4
// and the 0 of 40); the scale word after it is possible ("hundred" for that 3); a zero no word
// writes is possibly from the scale word before it ("thousand" for the zeros of 2000, "hundred"
// for the 0 of 305). Ordered by output, then input.
std::vector<AlignmentLink> english_number_alignment(int n);

// Every number 1-9999 as "words<TAB>digits<TAB>alignment" lines, in order.
std::string spelled_numbers_pairs();

// `count` sentences of 3 to 8 words drawn from a fixed list of 48 (with lb::Rng from `seed`, the
// same on every platform; no sentence twice), each to its words in reverse order, the
// alignment output t from input n-1-t.
std::string reversed_words_pairs(uint64_t seed = 1, int count = 3000);

}  // namespace lb
