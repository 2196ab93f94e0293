// `lookback bench [--json]`: how fast the core trains and decodes, on this
// build's target (native, or the same source as WASM with and without SIMD
// under node). First the kernels' GFLOP/s on the products the models make,
// then, for each model × width, training examples/s, inference strings/s and
// the achieved GFLOP/s by docs/design.md's FLOP model, each GFLOP/s also as a fraction of
// the build's arithmetic peak measured first in the same run (kernels::peak_loop), on the training split of
// one task (--task; the date task unless told). With --write-split it only writes
// that split as token ids, which tests/bench/pytorch_reference.py trains on. A
// program, not a test: each figure is timed for a fixed budget of this process's
// CPU time, so runs are short; compare ratios measured in one session
// (tests/bench/run.mjs runs all targets and the PyTorch reference).
//
// Legend: B batch rows, H width, S mean source length, M × N × K a product.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "data/dataset.h"
#include "kernels/kernels.h"
#include "models/model.h"
#include "lesson/published.h"
#include "kernels/rng.h"
#include "training/trainer.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>
#include <malloc.h>
#else
#include <malloc.h>
#include <ctime>
#include <sys/resource.h>
#endif

namespace lb::cli {

namespace {

// The benchmark's clock: CPU seconds of this process, not wall-clock seconds,
// because the machines it runs on are shared (a build or a browser test on the
// other core would otherwise count as our time). Natively the kernel's process
// CPU clock; under node, process.cpuUsage() (user + system, all of node's threads).
#if defined(__EMSCRIPTEN__)
EM_JS(double, node_cpu_seconds, (), {
    if (typeof process !== 'undefined' && process.cpuUsage) {
        var u = process.cpuUsage();  // (Emscripten 3.1.6's JS optimizer wants ES5: var)
        return (u.user + u.system) / 1e6;
    }
    return performance.now() / 1000;
});
double cpu_seconds() { return node_cpu_seconds(); }
#else
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}
#endif

// Seconds per call of f: after one warm-up call, three rounds of at least
// budget / 3 seconds each; the fastest round counts (the least disturbed).
template <class F>
double seconds_per_call(F&& f, double budget) {
    f();
    double best = 1e30;
    long reps = 1;
    for (int round = 0; round < 3; ++round) {
        for (;;) {
            const double t0 = cpu_seconds();
            for (long r = 0; r < reps; ++r) f();
            const double elapsed = cpu_seconds() - t0;
            if (elapsed >= budget / 3) {
                best = std::min(best, elapsed / double(reps));
                break;
            }
            reps *= 2;
        }
    }
    return best;
}

const char* target_name() {
#if defined(__EMSCRIPTEN__)
    return kernels::simd_enabled() ? "wasm-simd" : "wasm-scalar";
#else
    return "native";
#endif
}

// Memory the process holds, in MB: the WASM linear memory (what the page's
// module would hold; it only grows, in steps of about 20%), natively the peak
// resident set.
double memory_megabytes() {
#if defined(__EMSCRIPTEN__)
    return double(__builtin_wasm_memory_size(0)) * 65536.0 / (1024.0 * 1024.0);
#elif defined(__linux__)
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KB on Linux
#else
    return 0.0;
#endif
}
// The heap's high-water mark in MB: what malloc has taken from the system so
// far (dlmalloc in WASM and glibc both report it as mallinfo's arena).
double heap_megabytes() {
#if defined(__EMSCRIPTEN__)
    const double arena = double(mallinfo().arena);
#else
    const double arena = double(mallinfo2().arena);  // glibc's mallinfo() is deprecated
#endif
    return arena / (1024.0 * 1024.0);
}

// --- kernels ------------------------------------------------------------------

enum class Product { nn, nt, tn };

struct KernelCase {
    const char* what;  // where the models make this product
    Product product;
    int M, N, K;
};

// The products of one training batch at H = 64, B = 64, S ≈ 18 (model.h, gru.h,
// attention.h), a width-8 one, one string at inference, and an odd shape.
const KernelCase kernel_cases[] = {
    {"GRU step h.W_hh^T (H=64)", Product::nt, 64, 192, 64},
    {"GRU step, W_hh pre-transposed", Product::nn, 64, 192, 64},
    {"GRU input proj x.W_ih^T, all steps", Product::nt, 64 * 18, 192, 32},
    {"decoder input [y;c].W_ih^T", Product::nt, 64, 192, 16 + 64},
    {"attention keys h.W_e^T", Product::nt, 64 * 18, 64, 64},
    {"backward dh += dG.W_hh", Product::nn, 64, 64, 192},
    {"weight grad dW_hh += dG^T.h", Product::tn, 192, 64, 64 * 18},
    {"GRU step at H=8", Product::nt, 64, 24, 8},
    {"GRU step at H=32", Product::nt, 64, 96, 32},
    {"one string h.W_hh^T", Product::nt, 1, 192, 64},
    {"odd 17x33x65", Product::nn, 17, 33, 65},
};

const char* product_name(Product p) {
    return p == Product::nn ? "nn" : p == Product::nt ? "nt" : "tn";
}

double kernel_gflops(const KernelCase& c, double budget) {
    // Stored shapes: A [M, K] (tn: [K, M]), B [K, N] (nt: [N, K]), C [M, N].
    const int lda = c.product == Product::tn ? c.M : c.K;
    const int ldb = c.product == Product::nt ? c.K : c.N;
    Rng rng(1);
    std::vector<float> A(size_t(c.M) * c.K), B(size_t(c.K) * c.N), C(size_t(c.M) * c.N, 0.0f);
    for (float& x : A) x = rng.uniform(-1.0f, 1.0f);
    for (float& x : B) x = rng.uniform(-1.0f, 1.0f);
    const auto fn = c.product == Product::nn ? kernels::matmul_nn
                  : c.product == Product::nt ? kernels::matmul_nt : kernels::matmul_tn;
    const double seconds = seconds_per_call(
        [&] { fn(c.M, c.N, c.K, A.data(), lda, B.data(), ldb, C.data(), c.N, false); }, budget);
    return 2.0 * c.M * c.N * c.K / seconds / 1e9;
}

// The build's arithmetic peak in GFLOP/s: kernels::peak_loop, fused multiply-adds natively and
// SIMD128 multiplies and adds in WASM, timed like a kernel. Its operands make each accumulator
// converge to b / (1 − a) = 1, so the lanes stay normal floats (no slow denormals), and the sink
// is read afterwards so the loop's results are used.
struct Peak {
    double gflops;
    float checksum;  // the sink's sum, printed in --json: the loop's results are used
};
Peak measure_peak(double budget) {
    constexpr long iterations = 1 << 14;
    std::vector<float> sink(static_cast<size_t>(kernels::peak_floats()));
    double flops = 0;
    const double seconds = seconds_per_call(
        [&] { flops = kernels::peak_loop(iterations, 0.5f, 0.5f, sink.data()); }, budget);
    float checksum = 0;
    for (float x : sink) checksum += x;
    return {flops / seconds / 1e9, checksum};
}

// --- models ---------------------------------------------------------------------

struct ModelCase {
    // --models' name for the case: the lesson's attention model's by its scorer, else the
    // model's name ("transformer-first" for the Transformer reading one state)
    std::string_view name;
    DecoderKind decoder;
    Scorer scorer;  // attention, luong, luong-local
    Memory memory = Memory::all;  // transformer only
    // the JSON's "scorer": "none" for plain and transformer
    std::string scorer_label() const { return std::string(model_scorer_name(decoder, scorer)); }
};
// The published models' rows are asked for by name (--models bahdanau,...), so
// the default rows and the reference comparison stay as they were.
const ModelCase model_cases[] = {
    {"plain", DecoderKind::plain, Scorer::dot},
    {"dot", DecoderKind::attention, Scorer::dot},
    {"general", DecoderKind::attention, Scorer::general},
    {"additive", DecoderKind::attention, Scorer::additive},
    {"transformer", DecoderKind::transformer, Scorer::dot, Memory::all},
    {"transformer-first", DecoderKind::transformer, Scorer::dot, Memory::first},
    {"bahdanau", DecoderKind::bahdanau, Scorer::additive},
    {"luong", DecoderKind::luong, Scorer::general},
    {"luong-local", DecoderKind::luong_local, Scorer::general},
};
const ModelCase* model_case(std::string_view name) {
    for (const ModelCase& c : model_cases)
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace

// docs/design.md's performance model: each kind's row states its forward pass's FLOPs
// (registry.h's forward_flops, written in its family's file); training ≈ forward + backward ≈
// 3 × forward.
double flops_per_training_example(const ModelConfig& config, double S) { return 3 * forward_flops(config, S); }

namespace {

struct ModelResult {
    double train_examples_per_second, infer_strings_per_second, single_strings_per_second;
    double gflops, memory_mb, heap_mb;
};

// The model a case trains at width H on the task.
ModelConfig case_model(const ModelCase& m, int H, const Task& task) {
    ModelConfig model;
    model.task = &task;
    model.decoder = m.decoder;
    model.scorer = m.scorer;
    model.H = H;
    model.memory = m.memory;
    return model;
}

ModelResult bench_model(const ModelCase& m, int H, const Task& task, const Splits& data,
                        double mean_length, double budget) {
    TrainerConfig config{default_run_settings(case_model(m, H, task))};
    config.epochs = 0;  // never done
    config.evaluate_each_epoch = false;
    Trainer trainer(config, data);
    trainer.step(2);  // warm-up: buffers sized, caches filled

    ModelResult r{};
    const long examples_before = trainer.examples_seen();
    const double t0 = cpu_seconds();
    do trainer.step(1);
    while (cpu_seconds() - t0 < budget);
    const double train_seconds = cpu_seconds() - t0;
    r.train_examples_per_second = double(trainer.examples_seen() - examples_before) / train_seconds;
    r.gflops = r.train_examples_per_second *
               flops_per_training_example(config.model, mean_length) / 1e9;
    r.memory_mb = memory_megabytes();
    r.heap_mb = heap_megabytes();

    // Greedy decoding of held-out strings in evaluation's batches.
    const std::vector<Example> strings(data.held_out.begin(), data.held_out.begin() + 4 * decode_batch_rows);
    const double batch_seconds = seconds_per_call(
        [&] { decode_examples(strings, trainer.model(), false, decode_batch_rows); }, budget / 2);
    r.infer_strings_per_second = double(strings.size()) / batch_seconds;
    // One string at a time (the page's "try your own date").
    const std::vector<int> tokens = task.input.encode(data.held_out[0].input);
    const double single_seconds =
        seconds_per_call([&] { decode_tokens(tokens, trainer.model()); }, budget / 4);
    r.single_strings_per_second = 1.0 / single_seconds;
    return r;
}

// The training split as token ids, with the sizes a model takes from the task:
// {"task", "input_vocabulary", "output_vocabulary", "output_steps", "end_token" (null
// without one), "inputs": [[id, ...], ...], "targets": [[id, ..., end], ...]}; a
// target holds its end token and no padding (make_batch pads it to output_steps).
nlohmann::json split_token_ids(const Task& task, const std::vector<Example>& examples) {
    nlohmann::json inputs = nlohmann::json::array(), targets = nlohmann::json::array();
    for (const Example& e : examples) {
        inputs.push_back(task.input.encode(e.input));
        std::vector<int> target = task.output.encode(e.target);
        if (task.ends) target.push_back(task.end_token());
        targets.push_back(target);
    }
    return {{"task", task.name}, {"input_vocabulary", task.input.size()},
            {"output_vocabulary", task.output.size()}, {"output_steps", task.output_steps},
            {"end_token", task.ends ? nlohmann::json(task.end_token()) : nlohmann::json()},
            {"inputs", inputs}, {"targets", targets}};
}

}  // namespace

const char* const bench_usage =
    "lookback bench [--json] [--seconds S] [--widths 8,16,32,64] "
    "[--models plain,dot,general,additive,transformer,transformer-first] [--no-kernels] [--no-models]\n"
    "               [--task dates|reversal|translation] [--write-split FILE]\n"
    "  --task: the models train on that task's training split (data seed 1; dates by default)\n"
    "  --write-split FILE ('-': stdout): only write that split as token ids (JSON), for\n"
    "    tests/bench/pytorch_reference.py\n"
    "  transformer, transformer-first: the one-layer Transformer (4 heads), memory all | first;\n"
    "  also bahdanau, luong, luong-local (the published models, asked for by name)";

BenchArgs parse_bench_args(const Args& args) {
    BenchArgs o;
    for (size_t i = 0; i < args.size();) {  // take_option advances i past a flag and value
        std::string value;
        if (args[i] == "--json") o.json = true, ++i;
        else if (args[i] == "--no-kernels") o.run_kernels = false, ++i;
        else if (args[i] == "--no-models") o.run_models = false, ++i;
        else if (take_option(args, i, "--seconds", value)) {
            o.budget = parse_decimal("--seconds", value, 0, 600);
        } else if (take_option(args, i, "--widths", value)) {
            o.widths = parse_widths(value);
        } else if (take_option(args, i, "--models", value)) {
            o.model_names = split_commas(value);
            for (const std::string& name : o.model_names)
                if (!model_case(name))
                    throw UsageError("unknown model " + shown(name) + " in --models");
        } else if (take_option(args, i, "--task", value)) {
            try {
                o.task = &find_task(value);
            } catch (const std::invalid_argument& e) {
                throw UsageError(e.what());
            }
        } else if (take_option(args, i, "--write-split", value)) {
            if (value.empty()) throw UsageError("--write-split needs a file name, or - for stdout");
            o.write_split = value;
        } else
            throw UsageError("unknown option " + shown(args[i]));
    }
    return o;
}

int bench(const Args& args) {
    BenchArgs options;
    try {
        options = parse_bench_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), bench_usage);
    }
    const bool json = options.json, run_kernels = options.run_kernels, run_models = options.run_models;
    const double budget = options.budget;
    const std::vector<int>& widths = options.widths;
    const std::vector<std::string>& model_names = options.model_names;
    const Task& task = *options.task;
    const Splits data = run_models || !options.write_split.empty()
                            ? task.make_splits(1, task.train_size, task.held_out_size)
                            : Splits{};

    if (!options.write_split.empty()) {
        const std::string text = split_token_ids(task, data.train).dump() + "\n";
        if (options.write_split == "-") std::fputs(text.c_str(), stdout);
        else if (!write_text(options.write_split, text)) {
            std::fprintf(stderr, "lookback: cannot write %s\n", shown(options.write_split).c_str());
            return 1;
        }
        return 0;
    }

    const char* target = target_name();
    nlohmann::json out = {{"target", target}, {"simd_width", kernels::simd_width()},
                          {"clock", "process CPU seconds"}, {"task", task.name}};

    // The peak every GFLOP/s below is a fraction of, measured first (after a warm-up pass for
    // V8's optimising tier, as the kernels have).
    measure_peak(budget / 50);
    const Peak peak = measure_peak(budget / 10);
#if defined(__FMA__)
    const char* peak_instruction = "fma";
#else
    const char* peak_instruction = "mul+add";
#endif
    out["peak"] = {{"gflops", peak.gflops}, {"instruction", peak_instruction},
                   {"accumulators", kernels::peak_accumulators()},
                   {"floats", kernels::peak_floats()}, {"checksum", peak.checksum}};
    const auto fraction = [&](double gflops) { return gflops / peak.gflops; };
    if (!json)
        std::printf("%s, %d floats per vector; peak %.1f GFLOP/s (%s on %d accumulators, "
                    "%d floats)\n\n",
                    target, kernels::simd_width(), peak.gflops, peak_instruction,
                    kernels::peak_accumulators(), kernels::peak_floats());

    // Kernels: the products' GFLOP/s; the best is this build's practical peak.
    double best_kernel = 0;
    if (run_kernels) {
        if (!json)
            std::printf("%-36s %-3s %18s %9s %8s\n", "product", "", "M x N x K", "GFLOP/s",
                        "of peak");
        // One untimed pass first: V8 runs WASM in its baseline compiler until the
        // optimised code is ready, and natively the caches warm up.
        for (const KernelCase& c : kernel_cases) kernel_gflops(c, budget / 50);
        nlohmann::json rows = nlohmann::json::array();
        for (const KernelCase& c : kernel_cases) {
            const double g = kernel_gflops(c, budget / 10);
            best_kernel = std::max(best_kernel, g);
            rows.push_back({{"product", product_name(c.product)}, {"M", c.M}, {"N", c.N},
                            {"K", c.K}, {"what", c.what}, {"gflops", g},
                            {"fraction_of_peak", fraction(g)}});
            if (!json)
                std::printf("%-36s %-3s %6d x %4d x %4d %9.1f %7.0f%%\n", c.what,
                            product_name(c.product), c.M, c.N, c.K, g, 100 * fraction(g));
            std::fflush(stdout);
        }
        out["kernels"] = rows;
        out["kernel_peak_gflops"] = best_kernel;
    }

    nlohmann::json results = nlohmann::json::array();
    if (run_models) {
        double total_length = 0;
        for (const Example& e : data.train)  // in tokens: a word task's are words
            total_length += double(task.input.split(e.input).size());
        const double mean_length = total_length / double(data.train.size());
        if (!json)
            std::printf("\nmodels on the %s task's training split: batch 64, mean source length "
                        "S = %.1f, T = %d output steps; GFLOP/s by docs/design.md's FLOP model, "
                        "and as a fraction of the peak above\n\n"
                        "%-10s %-9s %5s %12s %12s %12s %10s %8s %8s %8s %8s\n",
                        task.name.c_str(), mean_length, task.output_steps, "model", "scorer",
                        "width", "MFLOP/ex", "train ex/s", "infer str/s", "1 string/s", "GFLOP/s",
                        "of peak", "mem MB", "heap MB");
        for (const std::string& name : model_names) {
            const ModelCase* m = model_case(name);
            for (int H : widths) {
                const ModelResult r = bench_model(*m, H, task, data, mean_length, budget);
                results.push_back({{"model", decoder_name(m->decoder)},
                                   {"scorer", m->scorer_label()},
                                   {"width", H},
                                   {"target", target},
                                   {"task", task.name},
                                   {"train_examples_per_second", r.train_examples_per_second},
                                   {"infer_strings_per_second", r.infer_strings_per_second},
                                   {"infer_single_string_per_second", r.single_strings_per_second},
                                   {"gflops", r.gflops},
                                   {"fraction_of_peak", fraction(r.gflops)},
                                   {"flops_per_training_example",
                                    flops_per_training_example(case_model(*m, H, task), mean_length)},
                                   {"memory_mb", r.memory_mb},
                                   {"heap_mb", r.heap_mb}});
                const bool has_memory = model_kind(m->decoder).has_memory_choice();
                if (has_memory) results.back()["memory"] = memory_name(m->memory);
                if (!json)
                    std::printf("%-10s %-9s %5d %12.2f %12.0f %12.0f %10.0f %8.1f %7.0f%% %8.1f %8.1f\n",
                                std::string(decoder_name(m->decoder)).c_str(),
                                has_memory ? memory_name(m->memory) : m->scorer_label().c_str(), H,
                                flops_per_training_example(case_model(*m, H, task), mean_length) / 1e6,
                                r.train_examples_per_second, r.infer_strings_per_second,
                                r.single_strings_per_second, r.gflops, 100 * fraction(r.gflops),
                                r.memory_mb, r.heap_mb);
                std::fflush(stdout);
            }
        }
        out["mean_source_length"] = mean_length;
    }
    out["results"] = results;
    out["memory_mb"] = memory_megabytes();
    out["heap_mb"] = heap_megabytes();
    if (json) std::printf("%s\n", out.dump().c_str());
    return 0;
}

}  // namespace lb::cli
