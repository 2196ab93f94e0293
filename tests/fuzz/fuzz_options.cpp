// Fuzz target: the option parsing of every `lookback` command (parse only,
// nothing runs). The input's first byte picks the command, the rest splits
// at NUL bytes into arguments. The contract: a bad command line is a
// UsageError whose message is valid UTF-8 with no control byte; parsed
// values are within their documented ranges.
#include <cmath>
#include <cstdlib>
#include <string>

#include "cli/commands.h"
#include "text/text.h"

using namespace lb::cli;

namespace {
void check_message(const char* message) {
    if (!lb::is_valid_utf8(message)) std::abort();
    for (const char* c = message; *c; ++c)
        if (static_cast<unsigned char>(*c) < 0x20) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    Args args(1);
    for (size_t i = 1; i < size; ++i) {
        if (data[i] == 0) args.emplace_back();
        else args.back() += char(data[i]);
    }
    try {
        switch (data[0] % 5) {
            case 0: parse_worked_example_args(args); break;
            case 1: {
                const TrainArgs a = parse_train_args(args);
                const float lr = a.run.learning_rate;
                if (a.run.model.H < 1 || a.run.model.H > 1024 || a.run.epochs < 1 ||
                    a.run.epochs > 10000 || !(lr > 0 && lr <= 10))
                    std::abort();
                break;
            }
            case 2: {
                const SweepArgs a = parse_sweep_args(args);
                if (a.epochs < 1 || a.epochs > 10000 || a.out_dir.empty()) std::abort();
                break;
            }
            case 3: {
                const PredictArgs a = parse_predict_args(args);
                if (a.weights.empty() || a.texts.empty()) std::abort();
                if (!a.gradient_target.empty() && (a.gradient_target.size() != 10 ||
                                                   a.gradient_target.find_first_not_of("0123456789-") != std::string::npos))
                    std::abort();
                break;
            }
            case 4: {
                const BenchArgs a = parse_bench_args(args);
                if (!(a.budget > 0 && a.budget <= 600)) std::abort();
                for (int w : a.widths)
                    if (w < 1 || w > 256) std::abort();
                break;
            }
        }
    } catch (const UsageError& e) {
        check_message(e.what());
    }
    return 0;
}
