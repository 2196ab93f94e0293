// core/data/translation.h — the translation task (docs/tasks.md): English sentences of a small
// generated grammar into French-like ones, word by word ("the cat sat on the mat" → "le chat
// s'est assis sur le tapis"). A toy grammar, not French: singular only, no elision, a few dozen
// words a side. Unlike the dates and the reversal, its alignment is not monotone: colours move
// behind their noun (links cross) and "sat" becomes two words (one-to-many), and determiners,
// adjectives and the participle take their noun's gender (a possible link to the noun).
//
// Example::group is the sentence's pattern, 0..3 (translation_pattern_name); example i of a
// split has pattern i % 4.
#pragma once
#include <cstdint>
#include <string_view>

#include "data/task.h"

namespace lb {

constexpr int translation_patterns = 4;
constexpr int translation_train_size = 6000, translation_held_out_size = 1200;

const Task& translation_task();

// "subject verb", "subject verb object", "subject verb place", "subject verb object place".
const char* translation_pattern_name(int pattern);

// The example for one English sentence of the grammar (any noun is accepted in any noun
// phrase, although the generator draws animals as subjects and things as places): its French
// and the word alignment. Throws std::invalid_argument for a sentence outside the grammar.
Example translation_example(std::string_view english);

// Deterministic for a seed on every platform; every sentence distinct within and across the
// splits, the held-out split drawn first. Throws std::invalid_argument for a negative size or
// more sentences of a pattern than the grammar has (4,116 "subject verb" sentences).
Splits make_translation_splits(uint64_t seed, int train_size = translation_train_size,
                               int held_out_size = translation_held_out_size);

}  // namespace lb
