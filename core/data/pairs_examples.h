// core/data/pairs_examples.h — example pairs files the project writes itself (docs/own-pairs.md),
// so the "your pairs" feature shows itself without data of one's own. Each is TSV text that
// make_pairs_task accepts with the tokens it states (words, or characters for the
// transliteration), with a Pharaoh alignment column.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
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

// Lower-case Russian to Latin letters by one fixed table, a simplified BGN/PCGN one with a
// single spelling for each letter wherever it stands: а a, б b, в v, г g, д d, е e, ё yo, ж zh,
// з z, и i, й y, к k, л l, м m, н n, о o, п p, р r, с s, т t, у u, ф f, х kh, ц ts, ч ch, ш sh,
// щ shch, ъ " (a double quote), ы y, ь ' (an apostrophe), э e, ю yu, я ya. Every letter writes
// one to four characters. Throws std::invalid_argument for a character outside the 33 letters.
std::string transliterate_russian(std::string_view cyrillic);
// The known alignment, character tokens: AlignmentLink{output character, the input letter it
// comes from, sure} for every output character, ordered by output (so by input too).
std::vector<AlignmentLink> transliteration_alignment(std::string_view cyrillic);

// `count` distinct pseudo-Russian words (with lb::Rng from `seed`; no word twice): 2 to 4
// syllables, each a vowel after no consonant, one, or one and a sign (ь, or ъ before е ё ю я),
// maybe a final consonant or й, or a consonant and ь, so that all 33 letters occur; each
// to its transliteration, with its alignment. Character tokens.
std::string transliterated_words_pairs(uint64_t seed = 1, int count = 3000);

}  // namespace lb
