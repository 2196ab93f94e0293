// core/data/pairs_examples.cpp — see pairs_examples.h. Written through write_pairs_tsv, so the
// files are in the form the reader's own would be read in.
#include "data/pairs_examples.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "data/pairs.h"
#include "kernels/rng.h"
#include "text/text.h"

namespace lb {

namespace {

const char* const ones[20] = {"",        "one",     "two",       "three",    "four",
                              "five",    "six",     "seven",     "eight",    "nine",
                              "ten",     "eleven",  "twelve",    "thirteen", "fourteen",
                              "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"};
const char* const tens[10] = {"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};

struct Spelled {
    std::vector<std::string> words;
    std::vector<AlignmentLink> links;
};

Spelled spell(int n) {
    if (n < 1 || n > 9999) throw std::invalid_argument("english_number: " + std::to_string(n) + " is outside 1-9999");
    const int length = int(std::to_string(n).size());
    const int thousands = length - 4, hundreds = length - 3, tens_at = length - 2, ones_at = length - 1;  // digit positions
    const int a = n / 1000, b = n / 100 % 10, c = n / 10 % 10, d = n % 10, rest = n % 100;
    Spelled s;
    int scale = -1;  // the last "thousand" or "hundred": a zero after it is what it implies
    auto word = [&](const char* w) {
        s.words.push_back(w);
        return int(s.words.size()) - 1;
    };
    auto link = [&](int output, int input, bool sure) { s.links.push_back({output, input, sure}); };
    if (a) {
        link(thousands, word(ones[a]), true);
        link(thousands, scale = word("thousand"), false);
    }
    if (b) {
        link(hundreds, word(ones[b]), true);
        link(hundreds, scale = word("hundred"), false);
    } else if (a) {
        link(hundreds, scale, false);
    }
    if (rest == 0) {  // n >= 100 here
        link(tens_at, scale, false);
        link(ones_at, scale, false);
    } else if (rest < 10) {
        link(ones_at, word(ones[rest]), true);
        if (n >= 100) link(tens_at, scale, false);
    } else if (rest < 20) {
        const int w = word(ones[rest]);
        link(tens_at, w, true);
        link(ones_at, w, true);
    } else {
        const int w = word(tens[c]);
        link(tens_at, w, true);
        link(ones_at, d ? word(ones[d]) : w, true);
    }
    std::sort(s.links.begin(), s.links.end(), [](const AlignmentLink& x, const AlignmentLink& y) {
        return x.output != y.output ? x.output < y.output : x.input < y.input;
    });
    return s;
}

}  // namespace

std::string english_number(int n) {
    std::string text;
    for (const std::string& w : spell(n).words) {
        if (!text.empty()) text += ' ';
        text += w;
    }
    return text;
}

std::string spaced_digits(int n) {
    if (n < 1 || n > 9999) throw std::invalid_argument("spaced_digits: " + std::to_string(n) + " is outside 1-9999");
    std::string text;
    for (char digit : std::to_string(n)) {
        if (!text.empty()) text += ' ';
        text += digit;
    }
    return text;
}

std::vector<AlignmentLink> english_number_alignment(int n) { return spell(n).links; }

std::string spelled_numbers_pairs() {
    std::vector<PairLine> pairs;
    for (int n = 1; n <= 9999; ++n) pairs.push_back({n, english_number(n), spaced_digits(n), english_number_alignment(n)});
    return write_pairs_tsv(pairs, true);
}

std::string reversed_words_pairs(uint64_t seed, int count) {
    static const char* const words[48] = {
        "the",   "a",     "cat",   "dog",   "bird",  "fish",  "tree",  "house", "river", "stone", "red",    "blue",
        "green", "small", "big",   "old",   "new",   "sees",  "finds", "likes", "takes", "makes", "gives",  "reads",
        "near",  "under", "over",  "with",  "from",  "into",  "and",   "but",   "today", "now",   "again", "slowly",
        "sun",   "moon",  "rain",  "snow",  "book",  "door",  "road",  "hill",  "child", "friend", "song", "light"};
    if (count < 0) throw std::invalid_argument("reversed_words_pairs: a negative count");
    Rng rng(seed);
    std::set<std::string> seen;
    std::vector<PairLine> pairs;
    while (int(pairs.size()) < count) {
        const int n = 3 + int(rng.below(6));
        std::vector<std::string> sentence;
        for (int k = 0; k < n; ++k) sentence.push_back(words[rng.below(48)]);
        std::string input, output;
        for (int k = 0; k < n; ++k) {
            if (k) input += ' ', output += ' ';
            input += sentence[size_t(k)];
            output += sentence[size_t(n - 1 - k)];
        }
        if (!seen.insert(input).second) continue;  // 48^3 sentences of three words alone: no shortage
        PairLine p{int(pairs.size()) + 1, input, output, {}};
        for (int t = 0; t < n; ++t) p.alignment.push_back({t, n - 1 - t, true});
        pairs.push_back(std::move(p));
    }
    return write_pairs_tsv(pairs, true);
}

namespace {

// The table of transliterate_russian, in the alphabet's order.
struct Letter {
    const char* cyrillic;  // UTF-8, two bytes
    const char* latin;
};
const Letter alphabet[33] = {{"а", "a"},  {"б", "b"},  {"в", "v"},    {"г", "g"},  {"д", "d"},  {"е", "e"},  {"ё", "yo"},
                             {"ж", "zh"}, {"з", "z"},  {"и", "i"},    {"й", "y"},  {"к", "k"},  {"л", "l"},  {"м", "m"},
                             {"н", "n"},  {"о", "o"},  {"п", "p"},    {"р", "r"},  {"с", "s"},  {"т", "t"},  {"у", "u"},
                             {"ф", "f"},  {"х", "kh"}, {"ц", "ts"},   {"ч", "ch"}, {"ш", "sh"}, {"щ", "shch"}, {"ъ", "\""},
                             {"ы", "y"},  {"ь", "'"},  {"э", "e"},    {"ю", "yu"}, {"я", "ya"}};
enum : int { hard_sign = 27, soft_sign = 29, short_i = 10 };
const int consonants[20] = {1, 2, 3, 4, 7, 8, 11, 12, 13, 14, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26};
const int vowels[10] = {0, 5, 6, 9, 15, 20, 28, 30, 31, 32};  // а е ё и о у ы э ю я
bool iotated(int letter) { return letter == 5 || letter == 6 || letter == 31 || letter == 32; }  // е ё ю я

// The word's letters as indices of `alphabet`.
std::vector<int> letters_of(std::string_view word) {
    std::vector<int> letters;
    for (size_t i = 0; i < word.size();) {
        const size_t n = utf8_char_length(word, i);
        if (n == 0) throw std::invalid_argument("transliterate_russian: the text is not UTF-8");
        int found = -1;
        for (int k = 0; k < 33 && found < 0; ++k)
            if (word.substr(i, n) == alphabet[k].cyrillic) found = k;
        if (found < 0)
            throw std::invalid_argument("transliterate_russian: " + std::string(word.substr(i, n)) +
                                        " is not a lower-case Russian letter");
        letters.push_back(found);
        i += n;
    }
    return letters;
}

PairLine transliterated(const std::vector<int>& letters) {
    PairLine p;
    int output = 0;
    for (size_t i = 0; i < letters.size(); ++i) {
        const Letter& l = alphabet[letters[i]];
        p.input += l.cyrillic;
        p.target += l.latin;
        for (const char* c = l.latin; *c; ++c) p.alignment.push_back({output++, int(i), true});
    }
    return p;
}

}  // namespace

std::string transliterate_russian(std::string_view cyrillic) { return transliterated(letters_of(cyrillic)).target; }

std::vector<AlignmentLink> transliteration_alignment(std::string_view cyrillic) {
    return transliterated(letters_of(cyrillic)).alignment;
}

std::string transliterated_words_pairs(uint64_t seed, int count) {
    if (count < 0) throw std::invalid_argument("transliterated_words_pairs: a negative count");
    Rng rng(seed);
    std::set<std::vector<int>> seen;
    std::vector<PairLine> pairs;
    while (int(pairs.size()) < count) {
        std::vector<int> word;
        const int syllables = 2 + int(rng.below(3));
        for (int k = 0; k < syllables; ++k) {
            const int onset = int(rng.below(10));  // 0-1: none, 2: a consonant and a sign, else a consonant
            const int vowel = vowels[rng.below(10)];
            if (onset >= 2) word.push_back(consonants[rng.below(20)]);
            if (onset == 2 && k > 0) word.push_back(iotated(vowel) && rng.below(2) ? hard_sign : soft_sign);
            word.push_back(vowel);
        }
        const int coda = int(rng.below(4));  // 0-1: none, 2: a consonant or й, 3: a consonant and ь
        if (coda == 2) {
            const int c = int(rng.below(21));
            word.push_back(c < 20 ? consonants[c] : short_i);
        } else if (coda == 3) {
            word.push_back(consonants[rng.below(20)]);
            word.push_back(soft_sign);
        }
        if (!seen.insert(word).second) continue;  // 210 × 490 two-syllable words without a coda alone: no shortage
        PairLine p = transliterated(word);
        p.line = int(pairs.size()) + 1;
        pairs.push_back(std::move(p));
    }
    return write_pairs_tsv(pairs, true);
}

}  // namespace lb
