// The reversal and translation tasks (docs/tasks.md): their rows in the task table, their splits
// (deterministic, distinct, no held-out input in train), and each example's known alignment
// checked against its strings. The translation links are checked against a dictionary and a
// gender table written here, independently of the generator's own tables.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "copy_task.h"
#include "data/dataset.h"
#include "data/reversal.h"
#include "data/task.h"
#include "data/translation.h"
#include "io/safetensors.h"
#include "io/worker_codec.h"
#include "test_helpers.h"

using namespace lb;

namespace {

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

// What every task's example must satisfy: links inside the strings, ordered by output position
// (then input), no pair listed twice.
void check_links_in_range(const Example& ex, int input_tokens, int output_tokens) {
    for (size_t k = 0; k < ex.alignment.size(); ++k) {
        const AlignmentLink& link = ex.alignment[k];
        CHECK(link.output >= 0);
        CHECK(link.output < output_tokens);
        CHECK(link.input >= 0);
        CHECK(link.input < input_tokens);
        if (k > 0) {
            const AlignmentLink& before = ex.alignment[k - 1];
            CHECK((before.output < link.output ||
                   (before.output == link.output && before.input < link.input)));
        }
    }
}

void check_splits_distinct(const Splits& splits, int train_size, int held_out_size) {
    CHECK(int(splits.train.size()) == train_size);
    CHECK(int(splits.held_out.size()) == held_out_size);
    std::set<std::string> train_inputs, held_out_inputs;
    for (const Example& ex : splits.train) train_inputs.insert(ex.input);
    for (const Example& ex : splits.held_out) held_out_inputs.insert(ex.input);
    CHECK(int(train_inputs.size()) == train_size);
    CHECK(int(held_out_inputs.size()) == held_out_size);
    for (const std::string& input : held_out_inputs) CHECK(train_inputs.count(input) == 0);
}

bool same_examples(const std::vector<Example>& a, const std::vector<Example>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].input != b[i].input || a[i].target != b[i].target || a[i].group != b[i].group ||
            a[i].alignment != b[i].alignment)
            return false;
    return true;
}

uint64_t fnv1a(const Splits& splits) {
    uint64_t hash = 1469598103934665603ULL;
    for (const auto* split : {&splits.held_out, &splits.train})
        for (const Example& ex : *split)
            for (char ch : ex.input + "|" + ex.target + "\n") hash = (hash ^ uint8_t(ch)) * 1099511628211ULL;
    return hash;
}

}  // namespace

// --- the table -------------------------------------------------------------------

TEST_CASE("tasks: the table holds dates, reversal and translation") {
    CHECK(task_names_text() == "dates, reversal or translation");
    CHECK(&find_task("reversal") == &reversal_task());
    CHECK(&find_task("translation") == &translation_task());
    CHECK(task_named("dates") == &date_task());
    CHECK(task_named("reversal") == &reversal_task());
    CHECK(task_named("translation") == &translation_task());
    // The name exactly: no other case, no prefix, no trailing space.
    for (const char* near : {"", "Dates", "date", "reversal ", "translations"}) CHECK(task_named(near) == nullptr);
    CHECK_THROWS_WITH_AS(find_task("Dates"), "unknown task 'Dates': use dates, reversal or translation", std::invalid_argument);
    for (const Task* task : tasks()) {
        CHECK(task->input.tokens().at(0) == "");
        CHECK(task->output.tokens().at(0) == "");
        CHECK(task->output.tokens().at(1) == "<s>");
        CHECK(bool(task->make_splits));
        CHECK(int(task->input.split(task->example_input).size()) <= task->max_input_tokens);
        CHECK_NOTHROW(task->input.encode(task->example_input));
    }
}

TEST_CASE("tasks: a task added while the program runs is in the table, the settings and the weights until taken out") {
    const Task& copy = testing::copy_task();
    {
        const testing::CopyTaskInTable added;
        CHECK(task_names_text() == "dates, reversal, translation or copy");
        CHECK(&find_task("copy") == &copy);
        CHECK(task_named("copy") == &copy);
        CHECK_THROWS_WITH_AS(add_task(copy), "a task named 'copy' is already in the table", std::invalid_argument);
        CHECK(run_settings_from_json({{"task", "copy"}}).model.task == &copy);
        ModelConfig config;
        config.task = &copy;
        config.H = 8;
        const std::vector<uint8_t> bytes = encode_safetensors(model_to_safetensors(testing::random_model(config, 2)));
        CHECK(load_model(bytes.data(), bytes.size()).config.task == &copy);
    }
    CHECK(task_names_text() == "dates, reversal or translation");
    CHECK_THROWS_AS(find_task("copy"), std::invalid_argument);
    CHECK(task_named("copy") == nullptr);
    CHECK_THROWS_AS(remove_task(*tasks().front()), std::invalid_argument);
}

// --- reversal ---------------------------------------------------------------------

TEST_CASE("tasks: the reversal task's row") {
    const Task& task = reversal_task();
    CHECK(task.name == "reversal");
    CHECK_FALSE(task.input.words);
    CHECK_FALSE(task.output.words);
    // pad + a..j; pad, start, end + a..j.
    CHECK(task.input.tokens() == std::vector<std::string>{"", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"});
    CHECK(task.output.tokens() ==
          std::vector<std::string>{"", "<s>", "</s>", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j"});
    CHECK(task.ends);
    CHECK(task.end_token() == 2);
    CHECK(task.max_input_tokens == 27);
    CHECK(task.output_steps == 28);  // 27 letters and the end token
    CHECK(task.train_size == 6000);
    CHECK(task.held_out_size == 1200);
    CHECK(task.group_names ==
          std::vector<std::string>{"8-12 letters", "13-17 letters", "18-22 letters", "23-27 letters"});
}

TEST_CASE("tasks: a reversal example by hand") {
    const Example ex = reversal_example("abcdefghij");
    CHECK(ex.target == "jihgfedcba");
    CHECK(ex.group == 0);  // 10 letters: the 8-12 class
    const std::vector<AlignmentLink> links = {{0, 9, true}, {1, 8, true}, {2, 7, true}, {3, 6, true},
                                              {4, 5, true}, {5, 4, true}, {6, 3, true}, {7, 2, true},
                                              {8, 1, true}, {9, 0, true}};
    CHECK(ex.alignment == links);
    CHECK(reversal_example("cabbagefaced").target == "decafegabbac");
    CHECK(reversal_example("aab").alignment ==
          std::vector<AlignmentLink>{{0, 2, true}, {1, 1, true}, {2, 0, true}});
    CHECK(reversal_length_class(8) == 0);
    CHECK(reversal_length_class(12) == 0);
    CHECK(reversal_length_class(13) == 1);
    CHECK(reversal_length_class(22) == 2);
    CHECK(reversal_length_class(23) == 3);
    CHECK(reversal_length_class(27) == 3);
    CHECK(reversal_length_class(3) == 0);  // a reader's short input
    CHECK_THROWS_AS(reversal_example(""), std::invalid_argument);
    CHECK_THROWS_AS(reversal_example("abk"), std::invalid_argument);
    CHECK_THROWS_AS(reversal_example("ab c"), std::invalid_argument);
}

TEST_CASE("tasks: the reversal splits") {
    const Task& task = reversal_task();
    const Splits splits = task.make_splits(1, task.train_size, task.held_out_size);
    check_splits_distinct(splits, 6000, 1200);
    for (const auto* split : {&splits.train, &splits.held_out}) {
        std::vector<int> per_class(4, 0);
        for (size_t i = 0; i < split->size(); ++i) {
            const Example& ex = (*split)[i];
            const int n = int(ex.input.size());
            CHECK(n >= 8);
            CHECK(n <= 27);
            CHECK(ex.input.find_first_not_of("abcdefghij") == std::string::npos);
            CHECK(ex.target == std::string(ex.input.rbegin(), ex.input.rend()));
            // Example i has class i % 4; the class is the length's (8-12, 13-17, 18-22, 23-27).
            CHECK(ex.group == int(i % 4));
            CHECK(ex.group == (n <= 12 ? 0 : n <= 17 ? 1 : n <= 22 ? 2 : 3));
            ++per_class[size_t(ex.group)];
            // Every output letter has exactly one link, sure, to the mirrored input position.
            REQUIRE(int(ex.alignment.size()) == n);
            for (int t = 0; t < n; ++t) {
                CHECK(ex.alignment[size_t(t)] == AlignmentLink{t, n - 1 - t, true});
                CHECK(ex.target[size_t(t)] == ex.input[size_t(n - 1 - t)]);
            }
            check_links_in_range(ex, n, n);
        }
        CHECK(per_class == std::vector<int>(4, int(split->size()) / 4));
    }
    // Every length of the range is drawn, and every letter.
    std::set<size_t> lengths;
    std::set<char> letters;
    for (const Example& ex : splits.train) {
        lengths.insert(ex.input.size());
        letters.insert(ex.input.begin(), ex.input.end());
    }
    CHECK(lengths.size() == 20);
    CHECK(letters.size() == 10);
    // A batch of the longest strings fits the output steps.
    std::vector<int> indices;
    for (int i = 0; i < int(splits.train.size()); ++i)
        if (splits.train[size_t(i)].input.size() == 27) indices.push_back(i);
    REQUIRE_FALSE(indices.empty());
    const Batch batch = make_batch(task, splits.train, indices);
    CHECK(batch.S == 27);
    CHECK(batch.dec_out(0, 27) == task.end_token());
}

TEST_CASE("tasks: the reversal splits are deterministic for a seed") {
    const Splits a = make_reversal_splits(7, 400, 100), b = make_reversal_splits(7, 400, 100);
    CHECK(same_examples(a.train, b.train));
    CHECK(same_examples(a.held_out, b.held_out));
    const Splits c = make_reversal_splits(8, 400, 100);
    CHECK_FALSE(same_examples(a.held_out, c.held_out));
    // Held-out first: its strings do not depend on the training split's size.
    CHECK(same_examples(make_reversal_splits(7, 10, 100).held_out, a.held_out));
    CHECK_THROWS_AS(make_reversal_splits(1, -1, 10), std::invalid_argument);
    // The default splits pinned, so the native and wasm builds prove they draw the same strings
    // (a regression pin: the value is the generator's own, recorded when it was written).
    CHECK(fnv1a(make_reversal_splits(1)) == 14550922611277012283ULL);
}

// --- translation ------------------------------------------------------------------

namespace {

// The dictionary, written independently of core/data/translation.cpp: each English word and
// the French words it may become (a two-word verb lists both words).
const std::map<std::string, std::set<std::string>> dictionary = {
    {"the", {"le", "la"}}, {"a", {"un", "une"}},
    {"cat", {"chat"}}, {"dog", {"chien"}}, {"horse", {"cheval"}}, {"fox", {"renard"}},
    {"cow", {"vache"}}, {"mouse", {"souris"}}, {"hen", {"poule"}}, {"mat", {"tapis"}},
    {"bed", {"lit"}}, {"garden", {"jardin"}}, {"wall", {"mur"}}, {"table", {"table"}},
    {"chair", {"chaise"}}, {"house", {"maison"}}, {"car", {"voiture"}},
    {"small", {"petit", "petite"}}, {"big", {"grand", "grande"}}, {"fat", {"gros", "grosse"}},
    {"pretty", {"joli", "jolie"}}, {"young", {"jeune"}},
    {"red", {"rouge"}}, {"black", {"noir", "noire"}}, {"green", {"vert", "verte"}},
    {"white", {"blanc", "blanche"}}, {"blue", {"bleu", "bleue"}}, {"grey", {"gris", "grise"}},
    {"sat", {"s'est", "assis", "assise"}}, {"sleeps", {"dort"}}, {"jumps", {"saute"}},
    {"waits", {"attend"}}, {"plays", {"joue"}}, {"runs", {"court"}}, {"sings", {"chante"}},
    {"sees", {"voit"}}, {"eats", {"mange"}}, {"likes", {"aime"}}, {"watches", {"regarde"}},
    {"follows", {"suit"}},
    {"on", {"sur"}}, {"under", {"sous"}}, {"in", {"dans"}}, {"with", {"avec"}}};

const std::set<std::string> feminine_nouns = {"cow", "mouse", "hen", "table", "chair", "house", "car"};
const std::set<std::string> masculine_nouns = {"cat", "dog", "horse", "fox", "mat", "bed", "garden", "wall"};
const std::set<std::string> colour_words = {"red", "black", "green", "white", "blue", "grey"};
// French words whose form says the gender, and those the same in both.
const std::set<std::string> masculine_forms = {"le", "un", "petit", "grand", "gros", "joli",
                                               "noir", "vert", "blanc", "bleu", "gris", "assis"};
const std::set<std::string> feminine_forms = {"la", "une", "petite", "grande", "grosse", "jolie",
                                              "noire", "verte", "blanche", "bleue", "grise", "assise"};
const std::set<std::string> either_gender = {"jeune", "rouge"};

const std::set<std::string> animals = {"cat", "dog", "horse", "fox", "cow", "mouse", "hen"};
const std::set<std::string> things = {"mat", "bed", "garden", "wall", "table", "chair", "house", "car"};

bool is_noun(const std::string& w) { return feminine_nouns.count(w) || masculine_nouns.count(w); }

// Checks one translation example against the dictionary and the gender table.
void check_translation(const Example& ex) {
    const std::vector<std::string> english = words_of(ex.input), french = words_of(ex.target);
    check_links_in_range(ex, int(english.size()), int(french.size()));
    std::vector<int> sure_per_output(french.size(), 0), sure_per_input(english.size(), 0);
    for (const AlignmentLink& link : ex.alignment) {
        const std::string& e = english[size_t(link.input)];
        const std::string& f = french[size_t(link.output)];
        if (link.sure) {
            // A sure link joins a word and its translation.
            REQUIRE(dictionary.count(e) == 1);
            CHECK_MESSAGE(dictionary.at(e).count(f) == 1, e, " -> ", f, " in ", ex.input);
            ++sure_per_output[size_t(link.output)];
            ++sure_per_input[size_t(link.input)];
        } else {
            // A possible link joins an agreeing word to the noun whose gender it takes.
            CHECK_MESSAGE(is_noun(e), e, " in ", ex.input);
            CHECK((masculine_forms.count(f) || feminine_forms.count(f) || either_gender.count(f)));
            if (masculine_forms.count(f)) CHECK(masculine_nouns.count(e) == 1);
            if (feminine_forms.count(f)) CHECK(feminine_nouns.count(e) == 1);
        }
    }
    // Every French word translates exactly one English word; every English word is translated.
    for (int n : sure_per_output) CHECK(n == 1);
    for (int n : sure_per_input) CHECK(n >= 1);
    // Every word that agrees has its possible link (a word that shows no gender too: jeune, rouge).
    for (size_t t = 0; t < french.size(); ++t) {
        const std::string& f = french[t];
        const bool agrees = masculine_forms.count(f) || feminine_forms.count(f) || either_gender.count(f);
        int possible = 0;
        for (const AlignmentLink& link : ex.alignment) possible += link.output == int(t) && !link.sure;
        CHECK(possible == (agrees ? 1 : 0));
    }
    // Colours cross: an English colour comes before its noun, its French after.
    for (const AlignmentLink& link : ex.alignment)
        if (link.sure && colour_words.count(english[size_t(link.input)])) {
            const int noun_in = link.input + 1;  // English: colour noun
            REQUIRE(noun_in < int(english.size()));
            CHECK(is_noun(english[size_t(noun_in)]));
            CHECK(link.output >= 1);
            CHECK(dictionary.at(english[size_t(noun_in)]).count(french[size_t(link.output - 1)]) == 1);
        }
}

}  // namespace

TEST_CASE("tasks: the translation task's row") {
    const Task& task = translation_task();
    CHECK(task.name == "translation");
    CHECK(task.input.words);
    CHECK(task.output.words);
    CHECK(task.ends);
    // pad + the dictionary's 44 English words; pad, start, end + 57 French words.
    CHECK(task.input.size() == 1 + int(dictionary.size()));
    std::set<std::string> french_words;
    for (const auto& [e, fs] : dictionary) french_words.insert(fs.begin(), fs.end());
    CHECK(french_words.size() == 57);
    CHECK(task.output.size() == 3 + int(french_words.size()));
    for (const auto& [e, fs] : dictionary) {
        CHECK(task.input.id(e) > 0);
        for (const std::string& f : fs) CHECK(task.output.id(f) > 2);
    }
    // The longest sentence: subject, verb, object, preposition, place, each phrase of 4 words.
    CHECK(task.max_input_tokens == 14);
    CHECK(task.output_steps == 15);
    CHECK(task.train_size == 6000);
    CHECK(task.held_out_size == 1200);
    CHECK(task.group_names == std::vector<std::string>{"subject verb", "subject verb object",
                                                      "subject verb place", "subject verb object place"});
}

TEST_CASE("tasks: translation examples by hand") {
    // the0 small1 red2 cat3 sat4 on5 the6 mat7 → le0 petit1 chat2 rouge3 s'est4 assis5 sur6 le7 tapis8
    const Example cat = translation_example("the small red cat sat on the mat");
    CHECK(cat.target == "le petit chat rouge s'est assis sur le tapis");
    CHECK(cat.group == 2);
    const std::vector<AlignmentLink> cat_links = {
        {0, 0, true}, {0, 3, false},  // le: the; the gender of cat
        {1, 1, true}, {1, 3, false},  // petit: small; agrees with cat
        {2, 3, true},                 // chat: cat
        {3, 2, true}, {3, 3, false},  // rouge: red (crossing); agrees with cat
        {4, 4, true},                 // s'est: sat
        {5, 3, false}, {5, 4, true},  // assis: sat; agrees with the subject, cat
        {6, 5, true},                 // sur: on
        {7, 6, true}, {7, 7, false},  // le: the; the gender of mat
        {8, 7, true}};                // tapis: mat
    CHECK(cat.alignment == cat_links);

    // a0 white1 hen2 sees3 the4 fat5 dog6 → une0 poule1 blanche2 voit3 le4 gros5 chien6
    const Example hen = translation_example("a white hen sees the fat dog");
    CHECK(hen.target == "une poule blanche voit le gros chien");
    CHECK(hen.group == 1);
    const std::vector<AlignmentLink> hen_links = {
        {0, 0, true}, {0, 2, false}, {1, 2, true}, {2, 1, true}, {2, 2, false}, {3, 3, true},
        {4, 4, true}, {4, 6, false}, {5, 5, true}, {5, 6, false}, {6, 6, true}};
    CHECK(hen.alignment == hen_links);

    // the0 cow1 sat2 → la0 vache1 s'est2 assise3: the participle takes the feminine.
    const Example cow = translation_example("the cow sat");
    CHECK(cow.target == "la vache s'est assise");
    CHECK(cow.group == 0);
    CHECK(cow.alignment == std::vector<AlignmentLink>{{0, 0, true}, {0, 1, false}, {1, 1, true},
                                                      {2, 2, true}, {3, 1, false}, {3, 2, true}});
    CHECK(translation_example("a dog eats the car in the house").group == 3);

    CHECK_THROWS_AS(translation_example(""), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("the cat"), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("cat sat"), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("the red small cat sleeps"), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("the cat sleeps on"), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("the cat sleeps  on the mat"), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("the cat sleeps the mat"), std::invalid_argument);
    CHECK_THROWS_AS(translation_example("the cat sees"), std::invalid_argument);
    CHECK_NOTHROW(translation_example(translation_task().example_input));
}

TEST_CASE("tasks: the translation splits") {
    const Task& task = translation_task();
    const Splits splits = task.make_splits(1, task.train_size, task.held_out_size);
    check_splits_distinct(splits, 6000, 1200);
    std::set<std::string> targets;
    int longest_target = 0;
    for (const auto* split : {&splits.train, &splits.held_out}) {
        std::vector<int> per_pattern(4, 0);
        for (size_t i = 0; i < split->size(); ++i) {
            const Example& ex = (*split)[i];
            check_translation(ex);
            CHECK(ex.group == int(i % 4));
            ++per_pattern[size_t(ex.group)];
            const std::vector<std::string> english = words_of(ex.input), french = words_of(ex.target);
            CHECK(int(english.size()) <= task.max_input_tokens);
            longest_target = std::max(longest_target, int(french.size()));
            // The generator's subjects are animals and its places things.
            const auto first_noun = std::find_if(english.begin(), english.end(), is_noun);
            REQUIRE(first_noun != english.end());
            CHECK(animals.count(*first_noun) == 1);
            if (ex.group >= 2) CHECK(things.count(english.back()) == 1);
            targets.insert(ex.target);
        }
        CHECK(per_pattern == std::vector<int>(4, int(split->size()) / 4));
    }
    CHECK(targets.size() == 7200);  // the translation is one-to-one
    CHECK(longest_target + 1 <= task.output_steps);
    std::vector<int> all(splits.train.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = int(i);
    CHECK_NOTHROW(make_batch(task, splits.train, all));
}

TEST_CASE("tasks: the translation splits are deterministic for a seed") {
    const Splits a = make_translation_splits(3, 400, 100), b = make_translation_splits(3, 400, 100);
    CHECK(same_examples(a.train, b.train));
    CHECK(same_examples(a.held_out, b.held_out));
    CHECK_FALSE(same_examples(a.held_out, make_translation_splits(4, 400, 100).held_out));
    CHECK(same_examples(make_translation_splits(3, 0, 100).held_out, a.held_out));
    CHECK_THROWS_AS(make_translation_splits(1, 10, -1), std::invalid_argument);
    // 2 determiners × 6 sizes (with none) × 7 colours (with none) × 7 animals × 7 verbs = 4,116
    // "subject verb" sentences: a quarter of 16,468 strings is 4,117, one too many.
    CHECK_NOTHROW(make_translation_splits(1, 16464, 0));
    CHECK_THROWS_AS(make_translation_splits(1, 16468, 0), std::invalid_argument);
    CHECK(fnv1a(make_translation_splits(1)) == 7101670358529676953ULL);
}
