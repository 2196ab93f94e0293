// Fuzz target: every `lookback` command's options, and the predict command run for real. The
// input's first byte picks the command, the rest splits at NUL bytes into arguments.
// The contract:
// - a bad command line is a UsageError whose message is valid UTF-8 with no control byte;
// - the values a command line leaves in its arguments (train's, sweep's, bench's, counterfactual's, eval's)
//   are within their documented ranges, read as the type they are stored in (a float learning rate above 0, not the double it was parsed as);
// - predict and worked-example run: predict against small weights files of every model kind (and
//   one whose weights overflow when decoded, and a missing file), picked by --weights' text; each
//   ends in exit 0, 1 or 2 and no exception escapes it — what escapes would reach main's
//   "stopped by an unexpected error", a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "io/safetensors.h"
#include "text/text.h"

using namespace lb::cli;

namespace {

void check_message(const char* message) {
    if (!lb::is_valid_utf8(message)) std::abort();
    for (const char* c = message; *c; ++c)
        if (static_cast<unsigned char>(*c) < 0x20) std::abort();
}

bool within(long long v, long long lo, long long hi) { return v >= lo && v <= hi; }

// Width-8 weights of every kind, one whose decoding overflows, and a path that does not exist.
const std::vector<std::string>& weights_files() {
    static const std::vector<std::string> files = [] {
        const std::filesystem::path folder = std::filesystem::temp_directory_path() / "lookback_fuzz_options";
        std::filesystem::create_directories(folder);
        std::vector<std::string> paths;
        for (lb::DecoderKind kind : {lb::DecoderKind::plain, lb::DecoderKind::attention, lb::DecoderKind::transformer,
                                     lb::DecoderKind::bahdanau, lb::DecoderKind::luong, lb::DecoderKind::luong_local}) {
            lb::ModelConfig c;
            c.decoder = kind;
            c.scorer = lb::default_scorer(kind);
            c.H = 8;
            lb::Model m = lb::make_model(c);
            lb::Rng rng(1);
            lb::init_params(m.params, rng);
            paths.push_back((folder / (std::string(lb::decoder_name(kind)) + ".safetensors")).string());
            lb::save_model(paths.back(), m);
            if (kind == lb::DecoderKind::luong_local) {  // finite weights that overflow when decoded
                for (const lb::NamedTensor& t : lb::named_tensors(m.params))
                    for (size_t i = 0; i < t.size; ++i) t.data[i] = i % 2 ? -3e38f : 3e38f;
                paths.push_back((folder / "overflowing.safetensors").string());
                lb::save_model(paths.back(), m);
            }
        }
        paths.push_back((folder / "missing.safetensors").string());
        return paths;
    }();
    return files;
}

// Runs a command with its printing thrown away (glibc's stdout and stderr are variables; libFuzzer
// and the sanitizers keep their own stream and descriptor for their reports).
int run_quietly(int (*command)(const Args&), const Args& args) {
    static FILE* const sink = std::fopen("/dev/null", "w");
    FILE* const out = stdout;
    FILE* const err = stderr;
    stdout = sink;
    stderr = sink;
    const int code = command(args);  // an exception here escapes: a finding
    stdout = out;
    stderr = err;
    return code;
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
        switch (data[0] % 7) {
            case 0: {
                parse_worked_example_args(args);
                if (run_quietly(worked_example, args) != 0) std::abort();
                break;
            }
            case 1: {
                const TrainArgs a = parse_train_args(args);
                const RunOptions& r = a.run;
                const float lr = r.learning_rate, dropout = r.model.dropout;
                if (!within(r.model.H, 1, 1024) || !within(r.epochs, 1, 10000) || !(lr > 0 && lr <= 10) ||
                    !(dropout >= 0 && dropout <= 0.9f) || !within(r.model.heads, 1, 8) ||
                    !within(r.model.ffn, 0, 4096) || !within(r.warmup_steps, 0, 1000000) || !within(r.batch_size, 1, 1024) ||
                    r.seed > 2147483647u || r.data_seed > 2147483647u)
                    std::abort();
                break;
            }
            case 2: {
                const SweepArgs a = parse_sweep_args(args);
                const float lr = a.learning_rate;
                if (!within(a.epochs, 1, 10000) || a.out_dir.empty() || !(lr > 0 && lr <= 10) ||
                    !within(a.seeds, 1, 100))
                    std::abort();
                for (int w : a.widths)
                    if (!within(w, 1, 1024)) std::abort();
                break;
            }
            case 3: {
                PredictArgs a = parse_predict_args(args);
                if (a.weights.empty() || a.texts.empty()) std::abort();
                if (!a.gradient_target.empty() && (a.gradient_target.size() != 10 ||
                                                   a.gradient_target.find_first_not_of("0123456789-") != std::string::npos))
                    std::abort();
                // Run it on one of the files, chosen by the text given for --weights.
                size_t pick = 0;
                for (char c : a.weights) pick = pick * 31 + static_cast<unsigned char>(c);
                const std::string file = weights_files()[pick % weights_files().size()];
                Args with_file = {"--weights", file};
                if (a.json) with_file.push_back("--json");
                if (a.per_head) with_file.push_back("--per-head");
                if (!a.gradient_target.empty()) with_file.insert(with_file.end(), {"--gradient-path", a.gradient_target});
                with_file.push_back("--");
                with_file.insert(with_file.end(), a.texts.begin(), a.texts.end());
                const int code = run_quietly(predict, with_file);
                if (code < 0 || code > 2) std::abort();
                break;
            }
            case 4: {
                const BenchArgs a = parse_bench_args(args);
                if (!(a.budget > 0 && a.budget <= 600)) std::abort();
                for (int w : a.widths)
                    if (!within(w, 1, 1024)) std::abort();
                break;
            }
            case 5: {  // its --data-seed is the settings schema's, as train's is
                const CounterfactualArgs a = parse_counterfactual_args(args);
                if (a.weights.empty() || a.out_dir.empty() || a.data_seed > 2147483647u) std::abort();
                break;
            }
            case 6: {  // one task, from a file or by a name the table has
                const EvalArgs a = parse_eval_args(args);
                if (a.weights.empty() || a.task_file.empty() == (a.task == nullptr) || (a.tokens && a.task_file.empty()))
                    std::abort();
                break;
            }
        }
    } catch (const UsageError& e) {
        check_message(e.what());
    }
    return 0;
}
