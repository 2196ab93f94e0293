// core/cli/main.cpp — `lookback`, the native command-line tool: runs the
// lesson's experiments from the core and prints tables or JSON.
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.h"

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
    {"predict", lb::cli::predict, "a trained model's output and attention for your own dates"},
};

void print_usage(FILE* out) {
    std::fprintf(out, "usage: lookback COMMAND [OPTIONS]\n\ncommands:\n");
    for (const Command& c : commands) std::fprintf(out, "  %-16s %s\n", c.name, c.summary);
}

}  // namespace


int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        print_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (const Command& c : commands)
        if (!std::strcmp(argv[1], c.name)) return c.run(lb::cli::Args(argv + 2, argv + argc));
    std::fprintf(stderr, "lookback: unknown command '%s'\n", argv[1]);
    print_usage(stderr);
    return 2;
}
