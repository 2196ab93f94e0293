// core/data/translation.cpp — the toy grammar's words, the translator that writes each French
// sentence with its alignment, the generator and the task's row. The generator draws English
// words only and hands the sentence to the translator, so a drawn example and a typed one are
// translated by the same code. Only lb::Rng's integers decide what is drawn.
#include "data/translation.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/draw.h"
#include "kernels/rng.h"

namespace lb {

namespace {

struct Noun {
    const char* english;
    const char* french;
    bool feminine;
};
// The first seven are animals (the generator's subjects), the rest things (its places).
constexpr int animal_count = 7;
const Noun nouns[] = {
    {"cat", "chat", false},    {"dog", "chien", false}, {"horse", "cheval", false},
    {"fox", "renard", false},  {"cow", "vache", true},  {"mouse", "souris", true},
    {"hen", "poule", true},    {"mat", "tapis", false}, {"bed", "lit", false},
    {"garden", "jardin", false}, {"wall", "mur", false}, {"table", "table", true},
    {"chair", "chaise", true}, {"house", "maison", true}, {"car", "voiture", true}};
constexpr int noun_count = int(std::size(nouns));

// A word with a masculine and a feminine form: determiners, adjectives, verbs (a verb's French
// may be two words; where a word's two forms differ it agrees with the subject).
struct Gendered {
    const char* english;
    const char* masculine;
    const char* feminine;
};
const Gendered determiners[] = {{"the", "le", "la"}, {"a", "un", "une"}};
const Gendered before_noun[] = {{"small", "petit", "petite"}, {"big", "grand", "grande"},
                                {"fat", "gros", "grosse"},    {"pretty", "joli", "jolie"},
                                {"young", "jeune", "jeune"}};
const Gendered colours[] = {{"red", "rouge", "rouge"},    {"black", "noir", "noire"},
                            {"green", "vert", "verte"},   {"white", "blanc", "blanche"},
                            {"blue", "bleu", "bleue"},    {"grey", "gris", "grise"}};
const Gendered intransitive[] = {
    {"sat", "s'est assis", "s'est assise"}, {"sleeps", "dort", "dort"}, {"jumps", "saute", "saute"},
    {"waits", "attend", "attend"},          {"plays", "joue", "joue"},  {"runs", "court", "court"},
    {"sings", "chante", "chante"}};
const Gendered transitive[] = {{"sees", "voit", "voit"},       {"eats", "mange", "mange"},
                               {"likes", "aime", "aime"},      {"watches", "regarde", "regarde"},
                               {"follows", "suit", "suit"}};
const Gendered prepositions[] = {{"on", "sur", "sur"}, {"under", "sous", "sous"},
                                 {"in", "dans", "dans"}, {"with", "avec", "avec"}};

// A text's words, split as the task's word vocabularies split it (Vocabulary::split).
std::vector<std::string> split_words(std::string_view text) {
    static const Vocabulary by_words(true, {});
    const std::vector<std::string_view> pieces = by_words.split(text);
    return {pieces.begin(), pieces.end()};
}

template <class Table>
int find_word(const Table& table, const std::string& word) {
    for (int k = 0; k < int(std::size(table)); ++k)
        if (word == table[k].english) return k;
    return -1;
}

// The French words of one English word (its gender's form), one or two.
std::vector<std::string> french_words(const Gendered& word, bool feminine) {
    return split_words(feminine ? word.feminine : word.masculine);
}

// Writes the French sentence and its links as the English is read.
struct Writer {
    Example ex;
    std::vector<std::string> french;
    // A French word carrying English word `source`; `agrees_with` the English position of the
    // noun whose gender chose its form (a possible link), or -1.
    void add(const std::string& word, int source, int agrees_with) {
        const int t = int(french.size());
        french.push_back(word);
        ex.alignment.push_back({t, source, true});
        if (agrees_with >= 0) ex.alignment.push_back({t, agrees_with, false});
    }
};

[[noreturn]] void outside_grammar(std::string_view english, const std::string& why) {
    throw std::invalid_argument("'" + std::string(english) +
                                "' is not a sentence of the toy grammar: " + why);
}

// A noun phrase from word `at`: determiner, an adjective that goes before the noun, a colour,
// the noun (the last two swap in French). Returns the noun's table index and moves `at` past it.
int read_noun_phrase(std::string_view english, const std::vector<std::string>& words, int& at,
                     Writer& out) {
    auto word = [&](int k) { return k < int(words.size()) ? words[size_t(k)] : std::string(); };
    const int det_at = at, det = find_word(determiners, word(at));
    if (det < 0)
        outside_grammar(english, "expected 'the' or 'a' at word " + std::to_string(at + 1));
    ++at;
    int size_at = -1, size = find_word(before_noun, word(at));
    if (size >= 0) size_at = at++;
    int colour_at = -1, colour = find_word(colours, word(at));
    if (colour >= 0) colour_at = at++;
    const int noun_at = at, noun = find_word(nouns, word(at));
    if (noun < 0) outside_grammar(english, "expected a noun at word " + std::to_string(at + 1));
    ++at;
    const bool feminine = nouns[noun].feminine;
    out.add(french_words(determiners[det], feminine)[0], det_at, noun_at);
    if (size >= 0) out.add(french_words(before_noun[size], feminine)[0], size_at, noun_at);
    out.add(nouns[noun].french, noun_at, -1);
    if (colour >= 0) out.add(french_words(colours[colour], feminine)[0], colour_at, noun_at);
    return noun;
}

}  // namespace

const char* translation_pattern_name(int pattern) {
    static const char* const names[translation_patterns] = {
        "subject verb", "subject verb object", "subject verb place", "subject verb object place"};
    return pattern >= 0 && pattern < translation_patterns ? names[pattern] : "?";
}

Example translation_example(std::string_view english) {
    const std::vector<std::string> words = split_words(english);
    Writer out;
    int at = 0;
    const bool feminine = nouns[read_noun_phrase(english, words, at, out)].feminine;
    const int subject_at = at - 1;  // the subject's noun ends its phrase
    const int verb_at = at++;
    const std::string verb = verb_at < int(words.size()) ? words[size_t(verb_at)] : std::string();
    bool has_object = false;
    if (const int v = find_word(intransitive, verb); v >= 0) {
        // A word whose two forms differ (the participle assis/assise) agrees with the subject.
        const auto masculine = french_words(intransitive[v], false);
        const auto feminine_form = french_words(intransitive[v], true);
        for (size_t k = 0; k < masculine.size(); ++k)
            out.add(feminine ? feminine_form[k] : masculine[k], verb_at,
                    masculine[k] != feminine_form[k] ? subject_at : -1);
    } else if (const int w = find_word(transitive, verb); w >= 0) {
        out.add(transitive[w].masculine, verb_at, -1);
        read_noun_phrase(english, words, at, out);
        has_object = true;
    } else {
        outside_grammar(english, "expected a verb at word " + std::to_string(verb_at + 1));
    }
    bool has_place = false;
    if (at < int(words.size())) {
        const int p = find_word(prepositions, words[size_t(at)]);
        if (p < 0)
            outside_grammar(english, "expected a preposition at word " + std::to_string(at + 1));
        out.add(prepositions[p].masculine, at++, -1);
        read_noun_phrase(english, words, at, out);
        has_place = true;
    }
    if (at != int(words.size())) outside_grammar(english, "words left after the sentence");

    Example& ex = out.ex;
    ex.input = std::string(english);
    for (size_t k = 0; k < out.french.size(); ++k) ex.target += (k ? " " : "") + out.french[k];
    ex.group = (has_object ? 1 : 0) + (has_place ? 2 : 0);
    std::sort(ex.alignment.begin(), ex.alignment.end(),
              [](const AlignmentLink& a, const AlignmentLink& b) {
                  return a.output != b.output ? a.output < b.output : a.input < b.input;
              });
    return std::move(out.ex);
}

// --- the generator -------------------------------------------------------------

namespace {

// A noun phrase drawn at random: determiner, maybe a size, maybe a colour, a noun from
// nouns[first, first + count). One draw a statement, so the order of draws is fixed.
std::string draw_noun_phrase(Rng& rng, int first, int count) {
    std::string phrase = determiners[rng.below(std::size(determiners))].english;
    const int size = int(rng.below(std::size(before_noun) + 1)) - 1;  // -1: none
    if (size >= 0) phrase += std::string(" ") + before_noun[size].english;
    const int colour = int(rng.below(std::size(colours) + 1)) - 1;
    if (colour >= 0) phrase += std::string(" ") + colours[colour].english;
    const int noun = first + int(rng.below(uint64_t(count)));
    return phrase + " " + nouns[noun].english;
}

// Noun phrases with `count` nouns: 2 determiners × 6 sizes (or none) × 7 colours (or none).
double noun_phrases(int count) {
    return double(std::size(determiners)) * double(std::size(before_noun) + 1) *
           double(std::size(colours) + 1) * count;
}

// How many distinct sentences of each pattern the generator can draw.
double sentences_of_pattern(int pattern) {
    const double subjects = noun_phrases(animal_count), objects = noun_phrases(noun_count);
    const double places = double(std::size(prepositions)) * noun_phrases(noun_count - animal_count);
    switch (pattern) {
        case 0: return subjects * double(std::size(intransitive));
        case 1: return subjects * double(std::size(transitive)) * objects;
        case 2: return subjects * double(std::size(intransitive)) * places;
        default: return subjects * double(std::size(transitive)) * objects * places;
    }
}

std::string draw_sentence(Rng& rng, int pattern) {
    std::string sentence = draw_noun_phrase(rng, 0, animal_count);
    const bool has_object = pattern == 1 || pattern == 3;
    if (has_object) {
        sentence += std::string(" ") + transitive[rng.below(std::size(transitive))].english;
        sentence += " " + draw_noun_phrase(rng, 0, noun_count);
    } else {
        sentence += std::string(" ") + intransitive[rng.below(std::size(intransitive))].english;
    }
    if (pattern >= 2) {
        sentence += std::string(" ") + prepositions[rng.below(std::size(prepositions))].english;
        sentence += " " + draw_noun_phrase(rng, animal_count, noun_count - animal_count);
    }
    return sentence;
}

// Example i of a split of `size` has pattern i % 4: how many of pattern p.
int count_of_pattern(int size, int pattern) {
    return size / translation_patterns + (pattern < size % translation_patterns ? 1 : 0);
}

}  // namespace

Splits make_translation_splits(uint64_t seed, int train_size, int held_out_size) {
    if (train_size < 0 || held_out_size < 0)
        throw std::invalid_argument("make_translation_splits: negative size");
    for (int p = 0; p < translation_patterns; ++p)
        if (double(count_of_pattern(train_size, p)) + count_of_pattern(held_out_size, p) >
            sentences_of_pattern(p))
            throw std::invalid_argument(std::string("make_translation_splits: more '") +
                                        translation_pattern_name(p) +
                                        "' sentences than the grammar has");
    // A sentence already drawn is drawn again (often for the 4,116 shortest).
    return draw_distinct_splits(seed, train_size, held_out_size, "make_translation_splits", [](Rng& rng, int i) {
        return translation_example(draw_sentence(rng, i % translation_patterns));
    });
}

// --- the task's row ------------------------------------------------------------

namespace {
template <class Table>
void add_words(Vocabulary& english, Vocabulary& french, const Table& table) {
    for (const Gendered& word : table) {
        english.add(word.english);
        for (const std::string& w : split_words(word.masculine)) french.add(w);
        for (const std::string& w : split_words(word.feminine)) french.add(w);
    }
}
int most_words(const Gendered* table, size_t count) {
    size_t most = 0;
    for (size_t k = 0; k < count; ++k)
        most = std::max({most, split_words(table[k].masculine).size(),
                         split_words(table[k].feminine).size()});
    return int(most);
}
}  // namespace

const Task& translation_task() {
    static const Task task = [] {
        Task t;
        t.name = "translation";
        t.summary = "an English sentence of a toy grammar in French (a toy grammar, not French)";
        t.input = Vocabulary(true, {""});
        t.output = Vocabulary(true, {"", "<s>", "</s>"});
        add_words(t.input, t.output, determiners);
        add_words(t.input, t.output, before_noun);
        add_words(t.input, t.output, colours);
        for (const Noun& noun : nouns) {
            t.input.add(noun.english);
            t.output.add(noun.french);
        }
        add_words(t.input, t.output, intransitive);
        add_words(t.input, t.output, transitive);
        add_words(t.input, t.output, prepositions);
        // A noun phrase is at most 4 words a side; a verb 1 word in English, 1 or 2 in French.
        constexpr int phrase = 4;
        const int longest_intransitive = most_words(intransitive, std::size(intransitive));
        const int longest_transitive = most_words(transitive, std::size(transitive));
        t.max_input_tokens = 3 * phrase + 2;  // subject verb object preposition place
        const int longest_target = std::max(2 * phrase + longest_intransitive + 1,
                                            3 * phrase + longest_transitive + 1);
        t.output_steps = longest_target + 1;  // and its end token
        t.ends = true;
        t.train_size = translation_train_size;
        t.held_out_size = translation_held_out_size;
        for (int p = 0; p < translation_patterns; ++p)
            t.group_names.push_back(translation_pattern_name(p));
        t.example_input = "the cat sat on the mat";
        t.make_splits = make_translation_splits;
        return t;
    }();
    return task;
}

}  // namespace lb
