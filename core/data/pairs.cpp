// core/data/pairs.cpp — see pairs.h. Every check names its line: the page shows the refusal
// and keeps the task it had, so the reader must be able to find the line and mend it.
#include "data/pairs.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "kernels/rng.h"
#include "text/text.h"

namespace lb {

PairsError::PairsError(int line, const std::string& reason)
    : std::invalid_argument("line " + std::to_string(line) + ": " + reason), line(line), reason(reason) {}

namespace {

std::string ordinal(long n) {
    const long tens = n % 100, ones = n % 10;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
    return grouped(n) + suffix;
}

const char* unit(PairsTokens tokens, long count) {
    if (tokens == PairsTokens::words) return count == 1 ? "word" : "words";
    return count == 1 ? "character" : "characters";
}

// The tokens of a side, as Vocabulary::split cuts them (code points, or words at single spaces).
std::vector<std::string_view> tokens_of(std::string_view side, PairsTokens tokens) {
    static const Vocabulary characters(false, {}), words(true, {});
    return (tokens == PairsTokens::words ? words : characters).split(side);
}

// Token sets looked up by a view, without making a string of every token.
struct TokenHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using TokenSet = std::unordered_set<std::string, TokenHash, std::equal_to<>>;

// A side in words mode: its words with single spaces between them, no space at either end.
std::string single_spaced(std::string_view field) {
    std::string out;
    for (size_t i = 0; i < field.size();) {
        if (field[i] == ' ') {
            ++i;
            continue;
        }
        const size_t end = std::min(field.find(' ', i), field.size());
        if (!out.empty()) out += ' ';
        out.append(field.substr(i, end - i));
        i = end;
    }
    return out;
}

// RFC 4180's fields of one line, at most `most` + 1 of them (enough to refuse a line with too
// many). A line break inside quotes never reaches here: the text was cut into lines first, so
// an unclosed quote is refused, which is what a line break inside a field deserves (a token
// cannot be one).
std::vector<std::string> csv_fields(std::string_view s, int line, size_t most) {
    std::vector<std::string> fields;
    size_t i = 0;
    for (;;) {
        std::string field;
        size_t j = i;
        if (j < s.size() && s[j] == '"') {
            for (++j;; ++j) {
                if (j >= s.size())
                    throw PairsError(line, "field " + std::to_string(fields.size() + 1) +
                                               " opens a double quote that the line does not close "
                                               "(a field cannot hold a line break)");
                if (s[j] == '"') {
                    if (j + 1 < s.size() && s[j + 1] == '"') {
                        field += '"';
                        ++j;
                        continue;
                    }
                    ++j;
                    break;
                }
                field += s[j];
            }
            if (j < s.size() && s[j] != ',')
                throw PairsError(line, "field " + std::to_string(fields.size() + 1) +
                                           " has text after its closing double quote: " +
                                           quote_untrusted(s.substr(j, std::min(s.find(',', j), s.size()) - j)));
        } else {
            j = std::min(s.find(',', i), s.size());
            field.assign(s.substr(i, j - i));
            if (field.find('"') != std::string::npos)
                throw PairsError(line, "field " + std::to_string(fields.size() + 1) + ", " + quote_untrusted(field) +
                                           ", holds a double quote but does not start with one (write the field "
                                           "in double quotes and double the quote inside: \"say \"\"hi\"\"\")");
        }
        fields.push_back(std::move(field));
        if (j >= s.size() || fields.size() > most) return fields;
        i = j + 1;
    }
}

std::vector<std::string> tsv_fields(std::string_view s, size_t most) {
    std::vector<std::string> fields;
    for (size_t i = 0;;) {
        const size_t tab = std::min(s.find('\t', i), s.size());
        fields.emplace_back(s.substr(i, tab - i));
        if (tab >= s.size() || fields.size() > most) return fields;
        i = tab + 1;
    }
}

// The special tokens' texts (data/task.h), in their ids' order: padding for the input; padding,
// start and end for the output. A reader's token written as one would be read as that token.
const std::vector<std::string> input_specials = {""}, output_specials = {"", "<s>", "</s>"};

// Which special token a token's text is ("start", "end"), or nullptr for none. The input's
// specials are the output's first.
const char* special_named(std::string_view token) {
    const char* const names[] = {"padding", "start", "end"};
    for (size_t k = 0; k < output_specials.size(); ++k)
        if (output_specials[k] == token) return names[k];
    return nullptr;
}

// C0 (a tab too, once fields are cut), DEL and C1.
bool is_control(char32_t c) { return c < 0x20 || (c >= 0x7f && c <= 0x9f); }

// A control character anywhere in a field.
void check_controls(std::string_view field, const char* what, int line) {
    long position = 0;
    for (size_t i = 0; i < field.size();) {
        const size_t n = utf8_char_length(field, i);  // the line was checked: n > 0
        const char32_t c = utf8_code_point(field, i, n);
        ++position;
        if (is_control(c))
            throw PairsError(line, std::string(what) + " holds a control character, " + describe_char(field, i, n) +
                                       ", at character " + std::to_string(position));
        i += n;
    }
}

// "0-0 1-2 2p1" → links {output, input, sure}, each inside the sides' token counts.
std::vector<AlignmentLink> read_alignment(std::string_view field, int inputs, int outputs, PairsTokens tokens,
                                          int line) {
    std::vector<AlignmentLink> links;
    std::set<std::pair<int, int>> seen;
    for (size_t i = 0; i < field.size();) {
        if (field[i] == ' ') {
            ++i;
            continue;
        }
        const size_t end = std::min(field.find(' ', i), field.size());
        const std::string_view item = field.substr(i, end - i);
        i = end;
        // digits, '-' or 'p', digits; a number too large to hold is out of range anyway
        long value[2] = {0, 0};
        size_t k = 0;
        bool sure = true, ok = true;
        for (int part = 0; part < 2 && ok; ++part) {
            const size_t first = k;
            while (k < item.size() && item[k] >= '0' && item[k] <= '9') {
                if (value[part] < 10000000) value[part] = value[part] * 10 + (item[k] - '0');
                ++k;
            }
            ok = k > first;
            if (part == 0 && ok) {
                ok = k < item.size() && (item[k] == '-' || item[k] == 'p');
                if (ok) sure = item[k++] == '-';
            }
        }
        if (!ok || k != item.size())
            throw PairsError(line, "the alignment holds " + quote_untrusted(item, 20) +
                                       ", which is not a link: write input-output positions such as 0-0 1-2 "
                                       "(a p for a possible link: 0p1)");
        // As written (digits, '-' or 'p' only, so safe to show), cut if very long.
        const std::string written = item.size() <= 24 ? std::string(item) : std::string(item.substr(0, 24)) + "\u2026";
        for (int side = 0; side < 2; ++side) {
            const int count = side == 0 ? inputs : outputs;
            if (value[side] >= count)
                throw PairsError(line, "the alignment link " + written + " is out of range: the " +
                                           (side == 0 ? "input" : "output") + " has " + std::to_string(count) + " " +
                                           unit(tokens, count) + " (positions 0 to " + std::to_string(count - 1) + ")");
        }
        if (!seen.insert({int(value[0]), int(value[1])}).second)
            throw PairsError(line, "the alignment joins input " + std::to_string(value[0]) + " and output " +
                                       std::to_string(value[1]) + " twice (again in " + written + ")");
        links.push_back({int(value[1]), int(value[0]), sure});
    }
    std::sort(links.begin(), links.end(), [](const AlignmentLink& a, const AlignmentLink& b) {
        return a.output != b.output ? a.output < b.output : a.input < b.input;
    });
    return links;
}

}  // namespace

PairsText read_pairs(std::string_view text, PairsTokens tokens, PairsFormat format) {
    if (text.size() > pairs_max_bytes) {
        const int line = 1 + int(std::count(text.begin(), text.begin() + long(pairs_max_bytes), '\n'));
        throw PairsError(line, "the text passes 2 MiB (" + grouped(long(pairs_max_bytes)) +
                                   " bytes) on this line; it is " + grouped(long(text.size())) + " bytes");
    }
    text = without_byte_order_mark(text);

    // The lines, without their line ends; empty lines may only close the text.
    std::vector<std::string_view> lines;
    for (size_t i = 0; i <= text.size();) {
        const size_t end = std::min(text.find('\n', i), text.size());
        std::string_view line = text.substr(i, end - i);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        i = end + 1;
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();

    PairsText out;
    out.csv = format == PairsFormat::csv ||
              (format == PairsFormat::detect && !lines.empty() && lines[0].find('\t') == std::string_view::npos);
    const char* separator = out.csv ? "a comma" : "a tab";
    const char* first_line = out.csv ? "the header" : "the first line";
    size_t expected = 0;  // fields a line has: the header's, or the first pair's
    TokenSet distinct[2];
    const char* const side_name[3] = {"the input", "the output", "the alignment"};

    for (size_t k = 0; k < lines.size(); ++k) {
        const int line = int(k) + 1;
        const std::string_view s = lines[k];
        if (s.empty()) throw PairsError(line, "the line is empty (only the end of the text may have empty lines)");
        for (size_t i = 0; i < s.size();) {
            const size_t n = utf8_char_length(s, i);
            if (n == 0)
                throw PairsError(line, "the text is not UTF-8 here: " + describe_char(s, i, 0) + " at byte " +
                                           std::to_string(i + 1) + " of the line (save the file as UTF-8)");
            i += n;
        }
        const std::vector<std::string> fields = out.csv ? csv_fields(s, line, 3) : tsv_fields(s, 3);
        if (fields.size() == 1)
            throw PairsError(line, std::string("the line has no separator: ") +
                                       (format == PairsFormat::detect && k == 0
                                            ? "a pair is an input and an output separated by a tab (a CSV opens with a "
                                              "header line naming its columns, separated by commas)"
                                            : std::string("a pair is an input and an output separated by ") + separator));
        if (fields.size() > 3)
            throw PairsError(line, "the line has more than 3 fields: a pair is an input, an output and, optionally, "
                                   "an alignment, separated by " + std::string(separator));
        if (expected == 0) expected = fields.size();
        else if (fields.size() != expected)
            throw PairsError(line, "the line has " + std::to_string(fields.size()) + " fields where " + first_line +
                                       " has " + std::to_string(expected) + ": an alignment column is given on every line or on none");
        if (out.csv && k == 0) {
            for (const std::string& f : fields) check_controls(f, "the header", line);
            continue;
        }
        if (int(out.pairs.size()) == pairs_max_pairs)
            throw PairsError(line, "a " + ordinal(pairs_max_pairs + 1) + " pair: a task has at most " +
                                       grouped(pairs_max_pairs) + " pairs");

        PairLine pair;
        pair.line = line;
        int counts[2] = {0, 0};
        for (int side = 0; side < 2; ++side) {
            check_controls(fields[size_t(side)], side_name[side], line);
            std::string value = tokens == PairsTokens::words ? single_spaced(fields[size_t(side)]) : fields[size_t(side)];
            if (value.empty())
                throw PairsError(line, std::string(side_name[side]) + " is empty" +
                                           (fields[size_t(side)].empty() ? "" : " (spaces only)"));
            const std::vector<std::string_view> pieces = tokens_of(value, tokens);
            counts[side] = int(pieces.size());
            if (counts[side] > pairs_max_tokens)
                throw PairsError(line, std::string(side_name[side]) + " is " + std::to_string(counts[side]) + " " +
                                           unit(tokens, counts[side]) + " long; a side may have at most " +
                                           std::to_string(pairs_max_tokens));
            for (size_t w = 0; w < pieces.size(); ++w)
                if (const char* special = special_named(pieces[w]))  // a word: a character never is
                    throw PairsError(line, "word " + std::to_string(w + 1) + " of " + side_name[side] + " is " +
                                               quote_untrusted(pieces[w]) + ", the text of the " + special +
                                               " token: no word may be written as '<s>' or '</s>', which mark "
                                               "where an output starts and ends");
            for (std::string_view piece : pieces) {
                if (distinct[side].find(piece) != distinct[side].end()) continue;
                if (int(distinct[side].size()) == pairs_max_distinct) {
                    const std::string shown = tokens == PairsTokens::words
                                                  ? quote_untrusted(piece, 20)
                                                  : describe_char(piece, 0, piece.size());
                    throw PairsError(line, std::string(side_name[side]) + " brings a " + ordinal(pairs_max_distinct + 1) +
                                               " distinct " + unit(tokens, 1) + ", " + shown + ": a side may have at most " +
                                               std::to_string(pairs_max_distinct));
                }
                distinct[side].emplace(piece);
            }
            (side == 0 ? pair.input : pair.target) = std::move(value);
        }
        if (fields.size() == 3) {
            check_controls(fields[2], side_name[2], line);
            pair.alignment = read_alignment(fields[2], counts[0], counts[1], tokens, line);
        }
        out.pairs.push_back(std::move(pair));
    }
    out.aligned = expected == 3;
    return out;
}

std::string write_pairs_tsv(const std::vector<PairLine>& pairs, bool aligned) {
    std::string out;
    // A first input that opens with U+FEFF would be read as the byte order mark: give it one.
    if (!pairs.empty() && pairs.front().input.rfind("\xef\xbb\xbf", 0) == 0) out = "\xef\xbb\xbf";
    for (const PairLine& p : pairs) {
        out += p.input;
        out += '\t';
        out += p.target;
        if (aligned) {
            out += '\t';
            // Pharaoh order: input position first.
            std::vector<AlignmentLink> links = p.alignment;
            std::sort(links.begin(), links.end(), [](const AlignmentLink& a, const AlignmentLink& b) {
                return a.input != b.input ? a.input < b.input : a.output < b.output;
            });
            for (size_t i = 0; i < links.size(); ++i) {
                if (i > 0) out += ' ';
                out += std::to_string(links[i].input) + (links[i].sure ? "-" : "p") + std::to_string(links[i].output);
            }
        }
        out += '\n';
    }
    return out;
}

bool valid_pairs_task_name(std::string_view name) {
    if (name.empty() || name.size() > size_t(pairs_max_name)) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    return true;
}

std::vector<char32_t> task_code_points(const Task& task) {
    std::vector<char32_t> out;
    for (const Vocabulary* vocab : {&task.input, &task.output}) {
        for (const std::string& token : vocab->tokens()) {
            for (size_t i = 0; i < token.size();) {
                const size_t length = utf8_char_length(token, i);
                if (length == 0) {  // never in a task made here; a stray byte has no glyph of its own
                    ++i;
                    continue;
                }
                out.push_back(utf8_code_point(token, i, length));
                i += length;
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string describe_pairs(const PairsSummary& s) {
    const bool words = s.tokens == PairsTokens::words;
    std::string text = grouped(s.pairs_read) + (s.pairs_read == 1 ? " pair" : " pairs") + " read";
    if (s.duplicates_dropped > 0)
        text += ", " + grouped(s.duplicates_dropped) + (s.duplicates_dropped == 1 ? " duplicate" : " duplicates") + " dropped";
    text += "; " + grouped(s.train_size) + " to train, " + grouped(s.held_out_size) + " held out";
    if (s.set_aside > 0)
        text += " (" + grouped(s.set_aside) + " more set aside: " + (s.set_aside == 1 ? "it holds" : "they hold") +
                " a " + (words ? "word" : "character") + " the training pairs lack)";
    text += "; " + grouped(s.input_tokens) + " input and " + grouped(s.output_tokens) + " output " +
            (words ? "words" : "characters") + "; " + (s.aligned ? "alignments given" : "no alignments") + ".";
    return text;
}

namespace {

// make_pairs_task's five steps, in the order it takes them.

// 1. Each pair once: a pair written again (the same input and output) is dropped.
std::vector<PairLine> drop_duplicates(std::vector<PairLine> read) {
    std::unordered_set<std::string> seen;  // input, tab, output: no side holds a tab
    std::vector<PairLine> pairs;
    for (PairLine& p : read)
        if (seen.insert(p.input + '\t' + p.target).second) pairs.push_back(std::move(p));
    return pairs;
}

// 2. Which pairs are held out: whole groups of pairs that share an input (no held-out input may
// be trained on), the groups in an order drawn from the seed, each taken if it fits in what is
// left of `wanted`; a group too large for it trains. So the split is never larger than asked,
// and training keeps at least half the pairs.
std::vector<char> held_out_groups(const std::vector<PairLine>& pairs, int wanted, uint64_t seed) {
    const int n = int(pairs.size());
    std::vector<std::vector<int>> groups;
    {
        std::unordered_map<std::string, size_t> group_of;
        for (int i = 0; i < n; ++i) {
            const auto [at, added] = group_of.emplace(pairs[size_t(i)].input, groups.size());
            if (added) groups.emplace_back();
            groups[at->second].push_back(i);
        }
    }
    if (groups.size() < 2)
        throw PairsError(pairs.front().line, "every pair has the input " + quote_untrusted(pairs.front().input) +
                                                 ": a held-out input must not be trained on, so nothing would be left to train on");
    std::vector<size_t> order(groups.size());
    for (size_t g = 0; g < order.size(); ++g) order[g] = g;
    Rng rng(seed);
    for (size_t g = order.size() - 1; g > 0; --g) std::swap(order[g], order[size_t(rng.below(g + 1))]);
    std::vector<char> held(size_t(n), 0);
    int held_count = 0;
    for (size_t g : order) {
        if (held_count == wanted) break;
        if (held_count + int(groups[g].size()) > wanted) continue;
        for (int i : groups[g]) held[size_t(i)] = 1;
        held_count += int(groups[g].size());
    }
    if (held_count == 0) {
        size_t fewest = 0;  // the smallest group, the first of its size in the text
        for (size_t g = 1; g < groups.size(); ++g)
            if (groups[g].size() < groups[fewest].size()) fewest = g;
        const PairLine& first = pairs[size_t(groups[fewest].front())];
        const int size = int(groups[fewest].size());
        throw PairsError(first.line, "no input's pairs fit a held-out split of " + grouped(wanted) +
                                         " pairs: the fewest that share an input are " + grouped(size) + ", with " +
                                         quote_untrusted(first.input) + " (a held-out input must not be trained on)" +
                                         (size <= n / 2 ? "; ask for " + grouped(size) + " or more held out" : std::string()));
    }
    return held;
}

// 3. The vocabularies: every token of the training pairs, a side each, in code point order (a
// string's bytes sort as its code points).
struct PairsVocabularies {
    Vocabulary input, output;
    int input_tokens = 0, output_tokens = 0;  // the pairs' own, without pad, start and end
};
PairsVocabularies training_vocabularies(const std::vector<PairLine>& pairs, const std::vector<char>& held,
                                        PairsTokens tokens) {
    TokenSet known[2];
    for (size_t i = 0; i < pairs.size(); ++i)
        if (!held[i])
            for (int side = 0; side < 2; ++side)
                for (std::string_view piece : tokens_of(side == 0 ? pairs[i].input : pairs[i].target, tokens))
                    if (known[side].find(piece) == known[side].end()) known[side].emplace(piece);
    const bool words = tokens == PairsTokens::words;
    PairsVocabularies out{Vocabulary(words, input_specials), Vocabulary(words, output_specials),
                          int(known[0].size()), int(known[1].size())};
    for (int side = 0; side < 2; ++side) {
        std::vector<std::string> sorted(known[side].begin(), known[side].end());
        std::sort(sorted.begin(), sorted.end());
        for (const std::string& token : sorted) (side == 0 ? out.input : out.output).add(token);
    }
    return out;
}

// The splits, in the text's order: a held-out pair holding a token the training pairs lack
// cannot be encoded, so it is set aside (its line in `set_aside_lines`).
Splits split_pairs(const std::vector<PairLine>& pairs, const std::vector<char>& held, const PairsVocabularies& vocabularies,
                   PairsTokens tokens, std::vector<int>& set_aside_lines) {
    const auto encodable = [&](const PairLine& p) {
        for (int side = 0; side < 2; ++side)
            for (std::string_view piece : tokens_of(side == 0 ? p.input : p.target, tokens))
                if ((side == 0 ? vocabularies.input : vocabularies.output).id(piece) < 0) return false;
        return true;
    };
    Splits splits;
    for (size_t i = 0; i < pairs.size(); ++i) {
        const PairLine& p = pairs[i];
        if (held[i] && !encodable(p)) {
            set_aside_lines.push_back(p.line);
            continue;
        }
        (held[i] ? splits.held_out : splits.train).push_back({p.input, p.target, 0, p.alignment});
    }
    return splits;
}

// 4. The groups for tables: the inputs' lengths in up to four bands of equal width. Sets every
// example's group; returns the bands' names ("3-5 characters").
struct LengthBands {
    std::vector<std::string> names;
    int longest_input = 0, longest_target = 0;  // in tokens, over both splits
};
LengthBands length_bands(Splits& splits, PairsTokens tokens) {
    int shortest = pairs_max_tokens;
    LengthBands bands;
    for (const std::vector<Example>* split : {&splits.train, &splits.held_out})
        for (const Example& ex : *split) {
            const int length = int(tokens_of(ex.input, tokens).size());
            shortest = std::min(shortest, length);
            bands.longest_input = std::max(bands.longest_input, length);
            bands.longest_target = std::max(bands.longest_target, int(tokens_of(ex.target, tokens).size()));
        }
    const int range = bands.longest_input - shortest + 1;
    const int width = (range + 3) / 4, count = (range + width - 1) / width;
    for (int b = 0; b < count; ++b) {
        const int lo = shortest + b * width, hi = std::min(bands.longest_input, lo + width - 1);
        bands.names.push_back((lo == hi ? std::to_string(lo) : std::to_string(lo) + "-" + std::to_string(hi)) + " " +
                              unit(tokens, hi));
    }
    for (std::vector<Example>* split : {&splits.train, &splits.held_out})
        for (Example& ex : *split) ex.group = (int(tokens_of(ex.input, tokens).size()) - shortest) / width;
    return bands;
}

// 5. The task: its make_splits hands out the first pairs of the splits drawn here, whatever seed
// it is given (the vocabularies fit these splits only).
Task build_pairs_task(const PairsOptions& options, int pairs, PairsVocabularies vocabularies, LengthBands bands,
                      std::shared_ptr<const Splits> splits) {
    const bool words = options.tokens == PairsTokens::words;
    Task task;
    task.name = options.name;
    task.summary = "your own pairs: " + grouped(pairs) + (words ? " pairs of words" : " pairs of characters");
    task.input = std::move(vocabularies.input);
    task.output = std::move(vocabularies.output);
    task.group_names = std::move(bands.names);
    task.max_input_tokens = bands.longest_input;
    task.ends = true;
    task.output_steps = bands.longest_target + 1;  // the longest target and its end token
    task.train_size = int(splits->train.size());
    task.held_out_size = int(splits->held_out.size());
    task.example_input = splits->held_out.front().input;
    task.carried_in_weights = true;
    task.make_splits = [splits, name = options.name](uint64_t, int train_size, int held_out_size) {
        if (train_size < 0 || held_out_size < 0 || size_t(train_size) > splits->train.size() ||
            size_t(held_out_size) > splits->held_out.size())
            throw std::invalid_argument("the task " + quote_untrusted(name) + " has " + std::to_string(splits->train.size()) +
                                        " training and " + std::to_string(splits->held_out.size()) +
                                        " held-out pairs: it cannot give " + std::to_string(train_size) + " and " +
                                        std::to_string(held_out_size));
        Splits out;
        out.train.assign(splits->train.begin(), splits->train.begin() + train_size);
        out.held_out.assign(splits->held_out.begin(), splits->held_out.begin() + held_out_size);
        return out;
    };
    return task;
}

// The options a task can be made with; its name may be taken only by `replaced`, the task it
// will replace in the table.
void check_pairs_options(const PairsOptions& options, const Task* replaced) {
    if (!valid_pairs_task_name(options.name))
        throw std::invalid_argument("a task's name is 1 to " + std::to_string(pairs_max_name) +
                                    " letters, digits, '-' or '_', not " + quote_untrusted(options.name, 40));
    const Task* taken = task_named(options.name);
    if (taken && taken != replaced)
        throw std::invalid_argument("a task named " + quote_untrusted(options.name) + " is already in the table");
    if (options.held_out_size < 0)
        throw std::invalid_argument("the held-out size is " + std::to_string(options.held_out_size) + ": give 0 (10%) or more");
}

PairsTask pairs_task_from_text(std::string_view text, const PairsOptions& options) {
    PairsText read = read_pairs(text, options.tokens, options.format);
    PairsSummary summary;
    summary.tokens = options.tokens;
    summary.csv = read.csv;
    summary.aligned = read.aligned;
    summary.split_seed = options.split_seed;
    summary.pairs_read = int(read.pairs.size());

    // Where a text with too few pairs ends: the line after its last pair.
    const int end_line = read.pairs.empty() ? (read.csv ? 2 : 1) : read.pairs.back().line + 1;
    const std::vector<PairLine> pairs = options.drop_duplicates ? drop_duplicates(std::move(read.pairs)) : std::move(read.pairs);
    summary.duplicates_dropped = summary.pairs_read - int(pairs.size());
    const int n = int(pairs.size());
    if (n < pairs_min_pairs) {
        throw PairsError(end_line, "the text ends with " + std::to_string(n) + (n == 1 ? " pair" : " pairs") +
                                   (summary.duplicates_dropped > 0 ? " once " + std::to_string(summary.duplicates_dropped) +
                                                                         " duplicates are dropped"
                                                                   : std::string()) +
                                   "; a task needs at least " + std::to_string(pairs_min_pairs));
    }
    const int wanted = options.held_out_size > 0 ? options.held_out_size : n * pairs_held_out_percent / 100;
    if (wanted > n / 2)
        throw std::invalid_argument("a held-out split of " + grouped(wanted) + " pairs is more than half of the " +
                                    grouped(n) + " pairs");

    const std::vector<char> held = held_out_groups(pairs, wanted, options.split_seed);
    PairsVocabularies vocabularies = training_vocabularies(pairs, held, options.tokens);
    auto splits = std::make_shared<Splits>(split_pairs(pairs, held, vocabularies, options.tokens, summary.set_aside_lines));
    summary.set_aside = int(summary.set_aside_lines.size());
    if (splits->held_out.empty())
        throw PairsError(summary.set_aside_lines.front(),
                         "none of the " + std::to_string(summary.set_aside) + " held-out pairs can be encoded: each holds a " +
                             (options.tokens == PairsTokens::words ? "word" : "character") +
                             " no training pair has (try another split seed)");
    LengthBands bands = length_bands(*splits, options.tokens);

    summary.input_tokens = vocabularies.input_tokens;
    summary.output_tokens = vocabularies.output_tokens;
    Task task = build_pairs_task(options, n, std::move(vocabularies), std::move(bands), std::move(splits));
    summary.train_size = task.train_size;
    summary.held_out_size = task.held_out_size;
    return {std::move(task), std::move(summary)};
}

}  // namespace

PairsTask make_pairs_task(std::string_view text, const PairsOptions& options) {
    check_pairs_options(options, nullptr);
    return pairs_task_from_text(text, options);
}

std::unique_ptr<PairsTask> replace_pairs_task(std::string_view text, const PairsOptions& options, const Task* old) {
    check_pairs_options(options, old);
    auto made = std::make_unique<PairsTask>(pairs_task_from_text(text, options));
    if (old) remove_task(*old);
    add_task(made->task);
    return made;
}

CarriedTask carried_task(const Task& task) {
    CarriedTask c;
    c.name = task.name;
    c.tokens = task.input.words ? PairsTokens::words : PairsTokens::characters;
    c.input.assign(task.input.tokens().begin() + 1, task.input.tokens().end());     // after pad
    c.output.assign(task.output.tokens().begin() + 3, task.output.tokens().end());  // after pad, start, end
    c.max_input_tokens = task.max_input_tokens;
    c.output_steps = task.output_steps;
    c.example_input = task.example_input;
    return c;
}

Task task_from_carried(const CarriedTask& c) {
    if (!valid_pairs_task_name(c.name))
        throw std::invalid_argument("a task's name is 1 to " + std::to_string(pairs_max_name) +
                                    " letters, digits, '-' or '_', not " + quote_untrusted(c.name, 40));
    const bool words = c.tokens == PairsTokens::words;
    Task task;
    task.name = c.name;
    task.summary = "your own pairs (from a weights file: " + std::string(words ? "words" : "characters") + ")";
    task.input = Vocabulary(words, input_specials);
    task.output = Vocabulary(words, output_specials);
    for (int side = 0; side < 2; ++side) {
        const std::vector<std::string>& tokens = side == 0 ? c.input : c.output;
        const char* what = side == 0 ? "input" : "output";
        if (tokens.empty() || int(tokens.size()) > pairs_max_distinct)
            throw std::invalid_argument(std::string("the ") + what + " vocabulary has " + std::to_string(tokens.size()) +
                                        " tokens: a task has 1 to " + std::to_string(pairs_max_distinct));
        Vocabulary& vocabulary = side == 0 ? task.input : task.output;
        for (const std::string& token : tokens) {
            const std::string shown = quote_untrusted(token, 20);
            if (token.empty() || !is_valid_utf8(token))
                throw std::invalid_argument(std::string("the ") + what + " token " + shown + " is empty or not UTF-8");
            for (size_t i = 0; i < token.size();) {
                const size_t n = utf8_char_length(token, i);
                const char32_t cp = utf8_code_point(token, i, n);
                if (is_control(cp) || (words && cp == ' '))
                    throw std::invalid_argument(std::string("the ") + what + " token " + shown +
                                                (words ? " holds a space or a control character" : " holds a control character"));
                i += n;
            }
            if (const char* special = special_named(token))
                throw std::invalid_argument(std::string("the ") + what + " token " + shown + " is the text of the " +
                                            special + " token");
            if (!words && utf8_char_length(token, 0) != token.size())
                throw std::invalid_argument(std::string("the ") + what + " token " + shown + " is more than one character");
            const int before = vocabulary.size();
            vocabulary.add(token);
            if (vocabulary.size() == before)
                throw std::invalid_argument(std::string("the ") + what + " token " + shown + " is listed twice");
        }
    }
    if (c.max_input_tokens < 1 || c.max_input_tokens > pairs_max_tokens)
        throw std::invalid_argument("the longest input is " + std::to_string(c.max_input_tokens) + " tokens: a task takes 1 to " +
                                    std::to_string(pairs_max_tokens));
    if (c.output_steps < 2 || c.output_steps > pairs_max_tokens + 1)
        throw std::invalid_argument("the output steps are " + std::to_string(c.output_steps) + ": a task has 2 to " +
                                    std::to_string(pairs_max_tokens + 1));
    task.max_input_tokens = c.max_input_tokens;
    task.ends = true;
    task.output_steps = c.output_steps;
    task.example_input = is_valid_utf8(c.example_input) && quote_untrusted(c.example_input, 200) == "'" + c.example_input + "'"
                             ? c.example_input
                             : "";  // shown in refusals: only text that needs no escaping
    task.carried_in_weights = true;
    task.make_splits = [name = c.name](uint64_t, int, int) -> Splits {
        throw std::invalid_argument("the task " + quote_untrusted(name) +
                                    " came from a weights file, which keeps its vocabularies but not its pairs");
    };
    return task;
}

}  // namespace lb
