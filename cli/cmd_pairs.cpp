// `lookback pairs-examples --out DIR`: the example pairs files (data/pairs_examples.h,
// docs/own-pairs.md), each read back as a reader's task would be before it is written, so a
// file the page would refuse is never shipped.
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli/commands.h"
#include "data/pairs.h"
#include "data/pairs_examples.h"

namespace lb::cli {

namespace {

const char* const pairs_examples_usage =
    "lookback pairs-examples --out DIR\n"
    "  writes the example pairs files, TSV with an alignment column:\n"
    "    DIR/numbers.tsv          1 to 9999 in English words to their digits (word tokens)\n"
    "    DIR/reversed-words.tsv   3,000 sentences of 3 to 8 words to the words in reverse order (words)\n"
    "    DIR/transliteration.tsv  3,000 made-up Russian words to Latin letters (character tokens)\n"
    "  (the folder is made if missing)";

}  // namespace

int pairs_examples(const Args& args) {
    std::string out_dir;
    try {
        for (size_t i = 0; i < args.size();) {
            std::string v;
            if (take_option(args, i, "--out", v)) {
                if (v.empty()) throw UsageError("--out needs a folder");
                out_dir = v;
            } else {
                throw UsageError("unknown option " + shown(args[i]));
            }
        }
        if (out_dir.empty()) throw UsageError("pairs-examples needs --out DIR");
    } catch (const UsageError& e) {
        return usage_error(e.what(), pairs_examples_usage);
    }
    std::error_code error;
    std::filesystem::create_directories(out_dir, error);
    const struct {
        const char* file;
        std::string text;
        PairsTokens tokens;
    } files[] = {{"numbers.tsv", spelled_numbers_pairs(), PairsTokens::words},
                 {"reversed-words.tsv", reversed_words_pairs(), PairsTokens::words},
                 {"transliteration.tsv", transliterated_words_pairs(), PairsTokens::characters}};
    for (const auto& f : files) {
        PairsOptions options;
        options.name = "example";
        options.tokens = f.tokens;
        const PairsTask read = make_pairs_task(f.text, options);  // throws (exit 1) for a file the page would refuse
        const std::string path = out_dir + "/" + f.file;
        if (!write_text(path, f.text)) {
            std::fprintf(stderr, "lookback: cannot write %s\n", shown(path).c_str());
            return 1;
        }
        std::printf("wrote %s (%zu bytes): %s\n", path.c_str(), f.text.size(), describe_pairs(read.summary).c_str());
    }
    return 0;
}

}  // namespace lb::cli
