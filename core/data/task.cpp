// core/data/task.cpp — what every task shares: vocabularies, padded batches, a reader's input.
#include "data/task.h"

#include <algorithm>
#include <stdexcept>

#include "text/text.h"

namespace lb {

bool operator==(const AlignmentLink& a, const AlignmentLink& b) {
    return a.output == b.output && a.input == b.input && a.sure == b.sure;
}

// --- vocabularies ------------------------------------------------------------

std::vector<std::string_view> Vocabulary::split(std::string_view text) const {
    std::vector<std::string_view> pieces;
    if (text.empty()) return pieces;
    if (!words) {
        // One token a code point (a reader's pairs may be a transliteration); a byte that is
        // not UTF-8 stays a token of its own, so ASCII text splits byte by byte as it always did.
        for (size_t i = 0; i < text.size();) {
            const size_t n = std::max<size_t>(1, utf8_char_length(text, i));
            pieces.push_back(text.substr(i, n));
            i += n;
        }
        return pieces;
    }
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == ' ') {
            pieces.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    return pieces;
}

Vocabulary::Vocabulary(bool words, std::vector<std::string> specials)
    : words(words), tokens_(std::move(specials)), specials_(int(tokens_.size())) {}

void Vocabulary::add(const std::string& token) {
    if (ids_.emplace(token, size()).second) tokens_.push_back(token);
}

int Vocabulary::id(std::string_view token) const {
    // The task's own tokens only: pad, start and end are never written in text.
    const auto found = ids_.find(token);
    return found == ids_.end() ? -1 : found->second;
}

char Vocabulary::character(int k) const {
    if (k < 0 || k >= size()) return '\0';
    const std::string& token = tokens_[size_t(k)];
    return token.size() == 1 ? token[0] : '\0';
}

std::vector<int> Vocabulary::encode(std::string_view text) const {
    std::vector<int> ids;
    for (std::string_view piece : split(text)) {
        const int k = id(piece);
        if (k < 0)
            throw std::invalid_argument(quote_untrusted(text) + " has " + (words ? "the word " : "the character ") +
                                        quote_untrusted(piece, 20) + " outside the vocabulary");
        ids.push_back(k);
    }
    return ids;
}

std::string Vocabulary::decode(const int32_t* ids, int count) const {
    std::string text;
    for (int i = 0; i < count; ++i) {
        const int k = ids[i];
        if (k < 0 || k >= size()) break;
        // By id, not by text: start is skipped, pad and end stop the text.
        if (k < specials_) {
            if (k == start_token) continue;
            break;
        }
        if (words && !text.empty()) text += ' ';
        text += tokens_[size_t(k)];
    }
    return text;
}

int Task::greedy_token(const float* logits) const {
    int best = start_token + 1;
    for (int v = best + 1; v < output.size(); ++v)
        if (logits[v] > logits[best]) best = v;
    return best;
}

// --- the table of tasks --------------------------------------------------------

std::string task_names_text() {
    std::vector<std::string> names;
    for (const Task* task : tasks()) names.push_back(task->name);
    return list_text(names);
}

const Task* task_named(std::string_view name) {
    for (const Task* task : tasks())
        if (task->name == name) return task;
    return nullptr;
}

const Task& find_task(std::string_view name) {
    if (const Task* task = task_named(name)) return *task;
    throw std::invalid_argument("unknown task " + quote_untrusted(name) + ": use " + task_names_text());
}

// --- batches -----------------------------------------------------------------

Batch make_batch(const Task& task, const std::vector<Example>& examples,
                 const std::vector<int>& indices) {
    if (indices.empty()) throw std::invalid_argument("make_batch: no examples");
    const int T = task.output_steps;
    std::vector<std::vector<int>> sources, targets;
    for (int i : indices) {
        if (i < 0 || size_t(i) >= examples.size())
            throw std::invalid_argument("make_batch: index out of range");
        const Example& ex = examples[size_t(i)];
        if (ex.input.empty()) throw std::invalid_argument("make_batch: empty input");
        sources.push_back(task.input.encode(ex.input));
        std::vector<int> target = task.output.encode(ex.target);
        if (task.ends) target.push_back(task.end_token());
        if (int(target.size()) > T || (!task.ends && int(target.size()) != T))
            throw std::invalid_argument("make_batch: target " + quote_untrusted(ex.target) + " does not fit the " +
                                        std::to_string(T) + " output steps of task " + task.name);
        targets.push_back(std::move(target));
    }
    Batch batch;
    batch.B = int(indices.size());
    for (const auto& src : sources) batch.S = std::max(batch.S, int(src.size()));
    batch.src = xt::zeros<int32_t>({size_t(batch.B), size_t(batch.S)});  // pad_token is 0
    batch.dec_in = xt::zeros<int32_t>({size_t(batch.B), size_t(T)});
    batch.dec_out = xt::zeros<int32_t>({size_t(batch.B), size_t(T)});
    batch.src_len.resize(size_t(batch.B));
    for (int b = 0; b < batch.B; ++b) {
        const auto& src = sources[size_t(b)];
        const auto& out = targets[size_t(b)];
        batch.src_len[size_t(b)] = int(src.size());
        for (size_t s = 0; s < src.size(); ++s) batch.src(b, s) = src[s];
        batch.dec_in(b, 0) = start_token;
        for (int t = 0; t < int(out.size()); ++t) {
            batch.dec_out(b, t) = out[size_t(t)];
            if (t + 1 < T) batch.dec_in(b, t + 1) = out[size_t(t)];
        }
    }
    return batch;
}

// --- a reader's own input ----------------------------------------------------

namespace {
// A character vocabulary for a refusal: "a-z, 0-9, space, '/' or ','" (runs of three or more
// consecutive characters as a range).
std::string accepted_characters(const Vocabulary& vocab) {
    std::string chars;
    std::vector<std::string> wider;  // characters of more than one byte (a reader's pairs), after the rest
    for (const std::string& token : vocab.tokens())
        if (token.size() == 1) chars += token[0];
        else if (!token.empty() && token.front() != '<') wider.push_back(std::string(1, '\'').append(token) + '\'');
    std::vector<std::string> parts;
    for (size_t i = 0; i < chars.size();) {
        size_t j = i;
        while (j + 1 < chars.size() && chars[j + 1] == chars[j] + 1) ++j;
        if (j - i >= 2) {
            parts.push_back(std::string(1, chars[i]) + "-" + chars[j]);
        } else {
            for (size_t k = i; k <= j; ++k)
                parts.push_back(chars[k] == ' ' ? "space" : "'" + std::string(1, chars[k]) + "'");
        }
        i = j + 1;
    }
    parts.insert(parts.end(), wider.begin(), wider.end());
    return list_text(parts);
}
}  // namespace

std::string normalise_user_input(const Task& task, std::string_view text) {
    // Capitals are folded for a task that has none (every built-in one); a reader's task may
    // tell them apart.
    bool capitals = false;
    for (const std::string& token : task.input.tokens())
        for (char c : token) capitals = capitals || (c >= 'A' && c <= 'Z');
    std::string out = normalise_user_input(text, !capitals);
    // A task of words that are single characters (letters spelled out, "k n i g h t") takes the
    // word typed whole, "knight", as its characters spaced, when it is not itself a word and every
    // character is one.
    const Vocabulary& vocab = task.input;
    if (!vocab.words || out.empty() || out.find(' ') != std::string::npos || vocab.id(out) >= 0) return out;
    std::string spaced;
    for (size_t i = 0; i < out.size();) {
        const size_t len = utf8_char_length(out, i);
        if (len == 0 || vocab.id(std::string_view(out).substr(i, len)) < 0) return out;
        spaced += (spaced.empty() ? "" : " ") + out.substr(i, len);
        i += len;
    }
    return spaced;
}

std::string normalise_user_input(std::string_view text, bool lowercase) {
    auto is_space = [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    };
    while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
    std::string out(text);
    if (lowercase)
        for (char& c : out)
            if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

std::vector<int> encode_user_input(const Task& task, std::string_view text, std::string& error) {
    error.clear();
    const std::string clean = normalise_user_input(task, text);
    if (clean.empty()) {
        error = "the input is empty: type something like '" + task.example_input + "'";
        return {};
    }
    const Vocabulary& vocab = task.input;
    int position = 0;  // in tokens, counting from 1
    if (vocab.words) {
        for (std::string_view word : vocab.split(clean)) {
            ++position;
            if (word.empty()) {
                error = "word " + std::to_string(position) + " is empty: separate words by one space";
                return {};
            }
            if (vocab.id(word) < 0) {
                error = "the word " + quote_untrusted(word) + " at position " +
                        std::to_string(position) + " is not in the " + task.name +
                        " task's vocabulary";
                return {};
            }
        }
    } else {
        for (size_t i = 0; i < clean.size();) {
            ++position;
            const size_t len = utf8_char_length(clean, i);  // 0: a byte that is not UTF-8
            if (len == 0 || vocab.id(std::string_view(clean).substr(i, len)) < 0) {
                error = "character " + describe_char(clean, i, len) + " at position " +
                        std::to_string(position) + " is not accepted: use " + accepted_characters(vocab);
                return {};
            }
            i += len;
        }
    }
    const int length = int(vocab.split(clean).size());
    if (length > task.max_input_tokens) {
        error = "the input is " + std::to_string(length) + (vocab.words ? " words" : " characters") +
                " long; the model accepts at most " + std::to_string(task.max_input_tokens);
        return {};
    }
    return vocab.encode(clean);
}

}  // namespace lb
