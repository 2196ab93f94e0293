// Fuzz target: a reader's pairs (data/pairs.h), the page's largest input. The first byte picks
// the options (bit 0 words, bits 1-2 the format: detect, TSV, CSV; bit 3 keep duplicates), the
// rest is the text. The contract: a refusal is a PairsError naming a line (what() is
// "line N: reason", N >= 1), short, valid UTF-8 with no control byte; pairs it accepts are
// within the limits (sides non-empty, at most 64 tokens, no control character, no word written
// as '<s>' or '</s>', at most 256 distinct tokens a side, links inside both sides) and read back
// the same from their TSV export; a task it makes is consistent with its summary, holds out no
// more than its share, encodes every example, comes back the same through a task file and a link
// (io/task_file.h), trains one step to a finite loss and decodes its example input (through
// decode_tokens' reused buffers, this task where the last input's lived) to its own tokens.
// The text is also repeated past the least number of pairs (with duplicates kept), so the task is
// reached from short inputs too. A text that is a task file is read as one too, as the page and
// `lookback train --task-file` read it: refused only with std::invalid_argument, a short UTF-8
// message with no control byte, or made into a task checked as above.
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/pairs.h"
#include "io/task_file.h"
#include "text/text.h"
#include "training/trainer.h"

namespace {

// Short, valid UTF-8, no C0, DEL or C1 control.
void check_refusal(const std::string& m) {
    if (m.size() > 1000 || !lb::is_valid_utf8(m)) std::abort();
    for (size_t i = 0; i < m.size();) {
        const size_t n = lb::utf8_char_length(m, i);
        const char32_t c = lb::utf8_code_point(m, i, n);
        if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) std::abort();
        i += n;
    }
}

void check_message(const lb::PairsError& e) {
    const std::string m = e.what();
    if (e.line < 1) std::abort();
    check_refusal(m);
    if (m != "line " + std::to_string(e.line) + ": " + e.reason) std::abort();
}

bool same(const lb::PairsText& a, const lb::PairsText& b) {
    if (a.pairs.size() != b.pairs.size() || (!a.pairs.empty() && a.aligned != b.aligned)) return false;
    for (size_t i = 0; i < a.pairs.size(); ++i)
        if (a.pairs[i].input != b.pairs[i].input || a.pairs[i].target != b.pairs[i].target ||
            a.pairs[i].alignment != b.pairs[i].alignment)
            return false;
    return true;
}

void check_pairs(const lb::PairsText& read, lb::PairsTokens tokens) {
    if (read.pairs.size() > size_t(lb::pairs_max_pairs)) std::abort();
    const lb::Vocabulary splitter(tokens == lb::PairsTokens::words, {});
    std::set<std::string> distinct[2];
    for (const lb::PairLine& p : read.pairs) {
        if (p.line < 1) std::abort();
        int counts[2];
        for (int side = 0; side < 2; ++side) {
            const std::string& s = side == 0 ? p.input : p.target;
            if (s.empty() || !lb::is_valid_utf8(s)) std::abort();
            for (size_t i = 0; i < s.size();) {
                const size_t n = lb::utf8_char_length(s, i);
                const char32_t c = lb::utf8_code_point(s, i, n);
                if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) std::abort();
                i += n;
            }
            const auto pieces = splitter.split(s);
            counts[side] = int(pieces.size());
            if (counts[side] < 1 || counts[side] > lb::pairs_max_tokens) std::abort();
            for (std::string_view piece : pieces) {
                if (piece.empty()) std::abort();  // words: single spaces, none at the ends
                if (piece == "<s>" || piece == "</s>") std::abort();  // would read as a special token
                distinct[side].emplace(piece);
            }
        }
        if (!read.aligned && !p.alignment.empty()) std::abort();
        for (size_t k = 0; k < p.alignment.size(); ++k) {
            const lb::AlignmentLink& l = p.alignment[k];
            if (l.output < 0 || l.output >= counts[1] || l.input < 0 || l.input >= counts[0]) std::abort();
            if (k > 0) {
                const lb::AlignmentLink& prev = p.alignment[k - 1];
                if (prev.output > l.output || (prev.output == l.output && prev.input >= l.input)) std::abort();
            }
        }
    }
    for (const auto& d : distinct)
        if (d.size() > size_t(lb::pairs_max_distinct)) std::abort();
}

// from_file: the options are a task file's, which may ask too large a held-out split.
void check_task(const std::string& text, const lb::PairsOptions& options, bool from_file = false) {
    // One place for every input's task, as the page keeps one (lab.own_task): each is made where
    // the last one lived, so decode_tokens' reused buffers meet a new task at an old address.
    static std::optional<lb::PairsTask> kept;
    kept.reset();
    try {
        kept.emplace(lb::make_pairs_task(text, options));
    } catch (const lb::PairsError& e) {
        check_message(e);
        return;
    } catch (const std::invalid_argument& e) {
        if (!from_file) throw;  // our options are sound (a new name, 10% held out): a crash
        check_refusal(e.what());
        return;
    }
    const lb::Task& task = kept->task;
    const lb::PairsSummary& s = kept->summary;
    if (s.train_size + s.held_out_size + s.set_aside + s.duplicates_dropped != s.pairs_read) std::abort();
    const int pairs = s.pairs_read - s.duplicates_dropped;
    const int share = options.held_out_size > 0 ? options.held_out_size : pairs * lb::pairs_held_out_percent / 100;
    if (s.held_out_size + s.set_aside > share) std::abort();  // never past its share
    if (s.set_aside != int(s.set_aside_lines.size())) std::abort();
    if (s.train_size < 1 || s.held_out_size < 1 || task.train_size != s.train_size ||
        task.held_out_size != s.held_out_size)
        std::abort();
    if (task.input.size() != 1 + s.input_tokens || task.output.size() != 3 + s.output_tokens) std::abort();
    if (s.input_tokens > lb::pairs_max_distinct || s.output_tokens > lb::pairs_max_distinct) std::abort();
    if (task.max_input_tokens > lb::pairs_max_tokens || task.output_steps > lb::pairs_max_tokens + 1 || !task.ends)
        std::abort();
    if (task.input.encode(task.example_input).empty()) std::abort();
    const lb::Splits data = task.make_splits(7, task.train_size, task.held_out_size);
    if (int(data.train.size()) != task.train_size || int(data.held_out.size()) != task.held_out_size) std::abort();
    std::set<std::string> trained;
    for (const lb::Example& ex : data.train) trained.insert(ex.input);
    for (const lb::Example& ex : data.held_out)
        if (trained.count(ex.input)) std::abort();  // no held-out input is trained on
    for (const std::vector<lb::Example>* split : {&data.train, &data.held_out})
        for (int i = 0; i < int(split->size()); ++i) {
            if ((*split)[size_t(i)].group < 0 || size_t((*split)[size_t(i)].group) >= task.group_names.size()) std::abort();
            lb::make_batch(task, *split, {i});  // throws (uncaught: a crash) for a pair that does not encode or fit
        }

    // Through the task file and the link (one short enough for it) the same text and options come
    // back: the page's export.
    const lb::PairsTaskSource source{text, options};
    std::vector<lb::PairsTaskSource> returned = {lb::read_task_file(lb::task_file_text(source))};
    if (const std::optional<std::string> link = lb::task_link_value(source)) {
        if (link->size() > lb::task_link_max_chars) std::abort();
        returned.push_back(lb::read_task_link(*link));
    }
    for (const lb::PairsTaskSource& back : returned) {
        if (back.text != text || back.options.tokens != options.tokens || back.options.format != options.format ||
            back.options.split_seed != options.split_seed || back.options.held_out_size != options.held_out_size ||
            back.options.drop_duplicates != options.drop_duplicates || back.options.name != options.name)
            std::abort();
    }

    lb::TrainerConfig config;
    config.model = {lb::DecoderKind::attention, lb::Scorer::additive, 4};
    config.model.task = &task;
    config.batch_size = 8;
    config.epochs = 0;
    config.evaluate_each_epoch = false;
    lb::Trainer trainer(config, data);
    if (trainer.step(1) != 1 || !trainer.failure().empty() || !std::isfinite(trainer.loss_history().back())) std::abort();

    // decode_tokens keeps its buffers from call to call: `kept` held the last input's task.
    const lb::Decoded decoded = lb::decode_tokens(task.input.encode(task.example_input), trainer.model());
    const auto tokens = task.output.split(decoded.output);
    if (tokens.size() > size_t(task.output_steps)) std::abort();
    for (std::string_view token : tokens)
        if (task.output.id(token) < 0) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const uint8_t flags = data[0];
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    lb::PairsOptions options;
    options.name = "fuzzed";
    options.tokens = flags & 1 ? lb::PairsTokens::words : lb::PairsTokens::characters;
    const int format = (flags >> 1) & 3;
    options.format = format == 1 ? lb::PairsFormat::tsv : format == 2 ? lb::PairsFormat::csv : lb::PairsFormat::detect;
    options.drop_duplicates = !(flags & 8);

    if (lb::is_task_file(text)) {
        lb::PairsTaskSource source;
        try {
            source = lb::read_task_file(text);
        } catch (const std::invalid_argument& e) {
            check_refusal(e.what());
            source.text.clear();
        }
        if (!source.text.empty()) {
            source.options.name = "fuzzed";
            check_task(source.text, source.options, true);
        }
    }

    lb::PairsText read;
    try {
        read = lb::read_pairs(text, options.tokens, options.format);
    } catch (const lb::PairsError& e) {
        check_message(e);
        try {  // the task refuses the same text at the same line
            lb::make_pairs_task(text, options);
        } catch (const lb::PairsError& again) {
            if (again.line != e.line || again.reason != e.reason) std::abort();
            return 0;
        }
        std::abort();
    }
    check_pairs(read, options.tokens);
    const std::string tsv = lb::write_pairs_tsv(read.pairs, read.aligned);
    if (!same(lb::read_pairs(tsv, options.tokens, lb::PairsFormat::tsv), read)) std::abort();

    check_task(text, options);
    const size_t copies = read.pairs.empty() ? 0 : (size_t(lb::pairs_min_pairs) + read.pairs.size() - 1) / read.pairs.size();
    if (copies > 1 && copies * tsv.size() <= lb::pairs_max_bytes) {
        std::string more;
        for (size_t k = 0; k < copies; ++k) more += tsv;
        options.drop_duplicates = false;
        options.format = lb::PairsFormat::tsv;
        check_task(more, options);
    }
    return 0;
}
