// core/data/task.h — a task: what a model reads and writes, how its strings are drawn, and where
// each output token comes from (docs/tasks.md). The date task is one row of the table; models,
// trainer, metrics and the tool take a Task and name none.
//
// Legend: S input tokens, T output steps (the decoder's), V a vocabulary's size. Token ids are
// int32; 0 is padding in both vocabularies, 1 the output's start token.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>
#include <xtensor/xtensor.hpp>

namespace lb {

constexpr int pad_token = 0;
constexpr int start_token = 1;

// One link of an example's known alignment: output token `output` carries what input token
// `input` holds (token positions, 0-based). Sure links must be found; possible links may be
// (Och and Ney's S ⊆ P: every sure link is also possible).
struct AlignmentLink {
    int output, input;
    bool sure;
};
bool operator==(const AlignmentLink& a, const AlignmentLink& b);

struct Example {
    std::string input;   // as typed: characters, or words separated by single spaces
    std::string target;
    int group = 0;       // the task's grouping for tables: the date's format, the reversal's length
    std::vector<AlignmentLink> alignment;  // produced with the strings, ordered by output position
};

struct Splits {
    std::vector<Example> train;
    std::vector<Example> held_out;  // no input string of it is in train
};

// Tokens are characters or words. Ids: 0 pad, then (outputs) 1 start, then (outputs of a task
// whose targets vary in length) 2 end, then the task's own tokens.
class Vocabulary {
public:
    Vocabulary() = default;
    // The special tokens first ("" pad, "<s>" start, "</s>" end), in their ids' order. Their texts
    // are never a task's own tokens (the readers refuse them: data/pairs.h).
    Vocabulary(bool words, std::vector<std::string> specials);
    void add(const std::string& token);  // the next id, unless the token is already in

    bool words = false;               // split text on single spaces; else one token a character (a code point)
    const std::vector<std::string>& tokens() const { return tokens_; }  // id → text
    int size() const { return int(tokens_.size()); }
    int id(std::string_view token) const;  // -1 when outside; never a special token
    // The text's tokens as ids; throws std::invalid_argument naming the first token outside.
    std::vector<int> encode(std::string_view text) const;
    // Ids back to text: stops at pad or end, skips start (special tokens, told by id).
    std::string decode(const int32_t* ids, int count) const;
    std::string decode(const std::vector<int>& ids) const { return decode(ids.data(), int(ids.size())); }
    // One character's id in a character vocabulary (-1 when outside), and an id's character
    // ('\0' for pad, start, end, out of range or a character of more than one byte).
    int id(char c) const { return id(std::string_view(&c, 1)); }
    char character(int id) const;
    std::vector<std::string_view> split(std::string_view text) const;  // into tokens' texts

private:
    std::vector<std::string> tokens_;
    int specials_ = 0;  // ids below it are the special tokens
    // The task's own tokens by text: make_batch looks every token up on the training path.
    std::map<std::string, int, std::less<>> ids_;
};

struct Task {
    std::string name;         // "dates": the CLI's --task, the weights' metadata, the URL
    std::string summary;      // one line for usage text
    Vocabulary input, output;
    int max_input_tokens = 0; // the longest input the generator writes (and a reader may type)
    int output_steps = 0;     // T: the longest target, plus its end token when targets vary
    bool ends = false;        // targets vary in length and close with the end token (id 2)
    int train_size = 0, held_out_size = 0;   // the lesson's splits
    std::vector<std::string> group_names;    // Example::group's labels, for tables
    std::string example_input;               // what a refusal suggests typing
    // A reader's own pairs (pairs.h): no table of a later run has it, so a weights file of a model
    // of it carries its vocabularies (io/safetensors.h).
    bool carried_in_weights = false;
    // Deterministic for a seed on every platform; throws std::invalid_argument for sizes the
    // task cannot draw distinct strings for. A function object, so a row made from settings (the
    // date task's dial, dataset.h) draws with them.
    std::function<Splits(uint64_t seed, int train_size, int held_out_size)> make_splits;

    int end_token() const { return ends ? 2 : -1; }
    // The most likely token greedy decoding may write from one step's logits [V_out]: never pad
    // or start.
    int greedy_token(const float* logits) const;
};

// Every task, the date task first (the default everywhere).
const std::vector<const Task*>& tasks();
// A task made while the program runs (a reader's own pairs, a test's) joins the table, after the
// others: the settings schema, the weights' metadata and the page's Lab then take it by name.
// Throws std::invalid_argument for a name the table has. The task must outlive its place in the
// table; remove_task takes it out (never the date task), once nothing reads it.
void add_task(const Task& task);
void remove_task(const Task& task);
// A task in the table for as long as this lives (nullptr: none), so a command's or a test's own
// task leaves the table however the scope ends.
class TaskInTable {
public:
    explicit TaskInTable(const Task* task) : task_(task) { if (task_) add_task(*task_); }
    ~TaskInTable() { if (task_) remove_task(*task_); }
    TaskInTable(const TaskInTable&) = delete;
    TaskInTable& operator=(const TaskInTable&) = delete;
private:
    const Task* task_;
};
// The task of that name in the table, or nullptr: every lookup of a task by its name.
const Task* task_named(std::string_view name);
// The same, for a name that must be there: throws std::invalid_argument "unknown task 'x': use
// dates, reversal or translation" (the name quoted as untrusted text).
const Task& find_task(std::string_view name);
std::string task_names_text();  // "dates, reversal or translation"

// A padded batch of examples[indices[b]].
struct Batch {
    int B = 0, S = 0;
    xt::xtensor<int32_t, 2> src;       // [B, S] input tokens, pad_token after src_len[b]
    std::vector<int> src_len;          // [B]   true lengths (>= 1)
    xt::xtensor<int32_t, 2> dec_in;    // [B, T] start_token, then target tokens 0..T-2
    xt::xtensor<int32_t, 2> dec_out;   // [B, T] target tokens, then end, then pad (not scored)
};
// Throws std::invalid_argument for no indices, an index out of range, an empty input, a token
// outside a vocabulary or a target longer than the task's output steps allow.
Batch make_batch(const Task& task, const std::vector<Example>& examples,
                 const std::vector<int>& indices);

// A reader's own input: trimmed and, unless the task's input vocabulary has capital letters,
// lowercased, then checked against the task's vocabulary and its longest input. On success
// returns the ids; on refusal an empty vector and `error` naming the problem (empty, too long,
// which character or word at which position).
std::vector<int> encode_user_input(const Task& task, std::string_view text, std::string& error);
// What encode_user_input checks for the task: the text trimmed of white space and, unless the
// task's input has capitals, A-Z lowercased; for a task whose words include single characters,
// one word it lacks written as its characters spaced where each is a word ("knight" → "k n i g h t").
std::string normalise_user_input(const Task& task, std::string_view text);
std::string normalise_user_input(std::string_view text, bool lowercase = true);

// The most strings greedy decoding takes in one batch when it works through a split. A training
// worker evaluates every epoch and keeps these activations: 256 rows took 62 MB of its memory
// at width 64 with attention, 64 rows about a quarter; a row decodes alike in any slice.
constexpr int decode_batch_rows = 64;

}  // namespace lb
