// core/data/pairs.h — a task made from a reader's own pairs, so that the lesson's models can be
// tried on a task the reader chose: text read and checked line by line, then a Task whose
// vocabularies come from its training pairs (docs/own-pairs.md).
//
// The text: one pair a line, the input and the output separated by a tab (TSV), or a CSV with a
// header line and two columns (RFC 4180 quoting: a field in double quotes may hold commas and
// doubled quotes, but not a line break). An optional third column is the alignment in the
// Pharaoh form word aligners write: "0-0 1-2 2-1", source (input) position then target (output)
// position, 0-based token positions; "0p1" marks a possible link, "-" a sure one. A UTF-8 byte
// order mark at the start, CRLF line ends and empty lines at the end are accepted.
//
// Tokens are characters (Unicode code points) or words (split on spaces; a side is stored with
// single spaces between its words, as Example says). In character mode a side is kept exactly
// as written, spaces included.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "data/task.h"

namespace lb {

// The limits. A reader's task must train in a browser tab on a phone, and every refusal names
// the line at fault.
constexpr size_t pairs_max_bytes = size_t(2) << 20;  // 2 MiB of text, the byte order mark included
constexpr int pairs_max_pairs = 50000;
constexpr int pairs_min_pairs = 100;     // after duplicates are dropped: fewer cannot show learning
constexpr int pairs_max_tokens = 64;     // a side of one pair
constexpr int pairs_max_distinct = 256;  // distinct tokens a side, over the whole text
constexpr int pairs_max_name = 32;       // a task's name: letters, digits, '-' and '_'
constexpr int pairs_held_out_percent = 10;  // the held-out split unless a size is given

enum class PairsTokens { characters, words };
enum class PairsFormat { detect, tsv, csv };  // detect: TSV if the first line holds a tab, else CSV

// A refusal of the text: `line` (1-based) and `reason`; what() is "line 12: reason". Every
// untrusted piece of the reason is quoted (text/text.h), so what() is valid UTF-8 without a
// control byte. A bad option (a name, a held-out size) is a plain std::invalid_argument instead.
struct PairsError : std::invalid_argument {
    PairsError(int line, const std::string& reason);
    int line;
    std::string reason;
};

// One pair as read: sides as Example holds them, links as AlignmentLink{output, input, sure}
// ordered by output then input position (Pharaoh's "i-j" is input i, output j).
struct PairLine {
    int line = 0;  // where it was read
    std::string input, target;
    std::vector<AlignmentLink> alignment;
};

struct PairsText {
    std::vector<PairLine> pairs;
    bool csv = false;      // read as CSV (its header is line 1), else TSV
    bool aligned = false;  // every line had a third column (possibly empty: no links)
};

// Reads and checks the whole text; throws PairsError at the first line at fault: the text past
// 2 MiB, more than 50,000 pairs, an empty line before the end, a line without a separator or
// with more than three fields (or not as many as the first line), a CSV quote out of place, an
// empty side, a side over 64 tokens, a 257th distinct token of a side, invalid UTF-8, a control
// character (a tab is only the TSV separator; line ends only end lines), a word written as a
// special token's text ('<s>', '</s>': decoded, it would read as that token), an alignment that is
// malformed, links a position out of range or writes a link twice. Does not check the least
// number of pairs (make_pairs_task does, after dropping duplicates).
PairsText read_pairs(std::string_view text, PairsTokens tokens, PairsFormat format = PairsFormat::detect);

// Pairs back as TSV text (the alignment as a third column when `aligned`) that read_pairs reads
// to the same pairs: the form a task is exported in.
std::string write_pairs_tsv(const std::vector<PairLine>& pairs, bool aligned);

struct PairsOptions {
    std::string name;                            // letters, digits, '-' and '_', 1-32; not in the table
    PairsTokens tokens = PairsTokens::characters;
    PairsFormat format = PairsFormat::detect;
    uint64_t split_seed = 1;                     // draws the held-out split
    int held_out_size = 0;                       // pairs held out; 0: 10% of the pairs
    bool drop_duplicates = true;                 // a pair written again (same input and output)
};

// What was read, for the page and the tool to state.
struct PairsSummary {
    PairsTokens tokens = PairsTokens::characters;
    bool csv = false, aligned = false;
    uint64_t split_seed = 1;
    int pairs_read = 0;
    int duplicates_dropped = 0;  // 0 when duplicates are kept
    // Held-out pairs holding a token the training pairs lack cannot be encoded: left out.
    int set_aside = 0;
    std::vector<int> set_aside_lines;
    int train_size = 0, held_out_size = 0;    // as the task has them (after setting aside)
    int input_tokens = 0, output_tokens = 0;  // distinct tokens of the vocabularies (no pad, start, end)
};
// "120 pairs read, 2 duplicates dropped; 97 to train, 11 held out (1 set aside: ...)": one
// paragraph for the page and the tool.
std::string describe_pairs(const PairsSummary& summary);
// The code points of every token of a task's two vocabularies (the special ones too), each once,
// ascending: the characters that showing its inputs and outputs draws. A reader's task may hold
// any, which the page's figures need glyphs for (web/runtime/theme.h's want_glyphs).
std::vector<char32_t> task_code_points(const Task& task);

// The task and what was read. The task's make_splits returns the split drawn here whatever seed
// it is given (the vocabularies were built from this training split, so another would not fit
// them; the split's seed is PairsOptions::split_seed): for sizes up to the task's own it returns
// the first pairs of each split, as the generators' splits grow, and throws
// std::invalid_argument for more. Both splits keep the text's order; no held-out input is in
// training (pairs with one input stay on one side).
struct PairsTask {
    Task task;
    PairsSummary summary;
};

// The held-out split takes whole inputs (every pair of an input) in an order drawn from the seed,
// skipping an input whose pairs would take it past its size (they train): it is never larger
// than asked.
// Throws PairsError for the text (read_pairs' refusals; fewer than 100 pairs after dropping
// duplicates; every pair with one input; no input whose pairs fit the held-out split, at the line
// of the input with the fewest; no held-out pair that can be encoded) and
// std::invalid_argument for the options (the name, or a task of that name in the table; a
// held-out size above half the pairs). Builds nothing on a refusal. The caller puts the task in
// the table with add_task, and keeps it (it must not move) until remove_task.
PairsTask make_pairs_task(std::string_view text, const PairsOptions& options);

// A reader's task made again, as the page and a training worker each do when the reader uses
// other pairs: made as make_pairs_task makes it, under options.name, which `old` (the task it
// replaces, or nullptr) may hold; then `old` leaves the table and the new task joins it. Made
// before the old one leaves, so a refusal (make_pairs_task's) leaves the table as it was. The
// caller keeps the old task alive while anything reads it (a run trained on it).
std::unique_ptr<PairsTask> replace_pairs_task(std::string_view text, const PairsOptions& options, const Task* old);

// Whether a name may be a task's: 1-32 of a-z, A-Z, 0-9, '-', '_'.
bool valid_pairs_task_name(std::string_view name);

// A reader's task as a weights file carries it: what a model of it needs to read an input and
// write its output, without the pairs (io/safetensors.h writes and reads it as metadata).
struct CarriedTask {
    std::string name;
    PairsTokens tokens = PairsTokens::characters;
    std::vector<std::string> input, output;  // the vocabularies' own tokens in id order (no pad, start, end)
    int max_input_tokens = 0;                // the longest input it takes
    int output_steps = 0;                    // T
    std::string example_input;               // what a refusal suggests typing
};
// What a task made by make_pairs_task carries (carried_in_weights).
CarriedTask carried_task(const Task& task);
// The task again, with the same vocabularies (the same ids), longest input and output steps, so
// a model of it decodes as it did; it has no pairs: make_splits throws, train and held-out
// sizes are 0. Throws std::invalid_argument, naming the fault, for what make_pairs_task could not
// have made: a bad name, a token that is empty, repeated, not one character (characters) or
// holding a space (words), not UTF-8 or a control character, more than 256 tokens a side, sizes
// outside 1-64 (the output steps: 2-65, a token and the end).
Task task_from_carried(const CarriedTask& carried);

}  // namespace lb
