// cli/main.cpp — `lookback`, the native command-line tool: runs the
// lesson's experiments from the core and prints tables or JSON.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "cli/commands.h"
#include "text/text.h"

namespace {

struct Command {
    const char* name;
    int (*run)(const lb::cli::Args&);
    const char* summary;
};

const Command commands[] = {
    {"worked-example", lb::cli::worked_example, "the lesson's one-step attention table [--json]"},
    {"train", lb::cli::train, "train one model from scratch, then its held-out metrics"},
    {"sweep", lb::cli::sweep, "widths 8/16/32/64 x {plain, attention}: tables beside the source's"},
    {"bench", lb::cli::bench, "training and inference speed, kernel GFLOP/s [--json]"},
    {"predict", lb::cli::predict, "a trained model's output and attention for inputs you type"},
    {"eval", lb::cli::eval, "saved weights scored on their task's held-out split; its outputs as CSV"},
    {"chance", lb::cli::chance, "what guessing scores on the held-out split, per output position"},
    {"counterfactual", lb::cli::counterfactual, "attention moved to a wrong field: how often the answer changes"},
    {"pairs-examples", lb::cli::pairs_examples, "the example pairs files for a task of your own (--out DIR)"},
};

void print_usage(FILE* out) {
    std::fprintf(out, "usage: lookback COMMAND [OPTIONS]\n\ncommands:\n");
    for (const Command& c : commands) std::fprintf(out, "  %-16s %s\n", c.name, c.summary);
}

int run(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        print_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (const Command& c : commands)
        if (!std::strcmp(argv[1], c.name)) return c.run(lb::cli::Args(argv + 2, argv + argc));
    std::fprintf(stderr, "lookback: unknown command %s\n", lb::cli::shown(argv[1]).c_str());
    print_usage(stderr);
    return 2;
}

}  // namespace

// Every path ends in a message and exit 0, 1 or 2: what a command did not
// catch is reported here (exit 1), never left to abort the process.
int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const lb::cli::UsageError& e) {
        std::fprintf(stderr, "lookback: %s\n", lb::quote_untrusted(e.what(), 300).c_str());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "lookback: out of memory\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "lookback: stopped by an unexpected error: %s\n",
                     lb::quote_untrusted(e.what(), 300).c_str());
    } catch (...) {
        std::fprintf(stderr, "lookback: stopped by an unexpected error\n");
    }
    return 1;
}
