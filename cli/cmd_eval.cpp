// `lookback eval --weights FILE (--task-file PAIRS | --task NAME) [--predictions CSV] [--json FILE]`:
// saved weights scored on the held-out split their task was trained against, printed as train
// prints it (or as JSON with train --json's names), and the split's outputs written as CSV. A model of a reader's task is given the pairs it was
// trained on, read as train reads them, so the split is the same; a model of a built-in task names
// its task, and its split is drawn with the data seed its file records.
#include <cstdio>

#include "cli/commands.h"
#include "io/metrics_json.h"
#include "io/safetensors.h"
#include "models/decoding_check.h"

namespace lb::cli {

namespace {

const char* const eval_usage =
    "lookback eval --weights FILE (--task-file FILE [--tokens chars|words] | --task NAME) [--predictions FILE]\n"
    "              [--json FILE] [--bleu]\n"
    "  --task-file FILE    the pairs (or task file) the weights were trained on, read as train --task-file\n"
    "                      reads them: the same held-out split (duplicates dropped, 10% held out by split\n"
    "                      seed 1, or the task file's own split)\n"
    "  --task NAME         weights of a built-in task: dates, reversal or translation\n"
    "  --predictions FILE  the held-out split's outputs as CSV (as train --predictions writes them)\n"
    "  --json FILE         the scores as JSON, named as train --json names them (- : stdout, no table)\n"
    "  --bleu              BLEU too, for a task of words that is not the translation (as train --bleu)\n"
    "  e.g. lookback eval --weights numbers.safetensors --task-file numbers.tsv --tokens words --predictions held-out.csv";

// The first way the pairs' task differs from the one the weights carry, or "" when a model of one
// reads and writes the other's tokens with the same ids and lengths.
std::string task_difference(const CarriedTask& pairs, const CarriedTask& weights) {
    const auto unit = [](const CarriedTask& t) { return t.tokens == PairsTokens::words ? "words" : "characters"; };
    if (pairs.tokens != weights.tokens)
        return std::string("the file's tokens are ") + unit(pairs) + ", the weights' " + unit(weights) +
               (pairs.tokens == PairsTokens::words ? " (leave out --tokens words)" : " (add --tokens words)");
    if (pairs.input != weights.input)
        return "their input vocabularies differ: the file's training pairs have " + std::to_string(pairs.input.size()) +
               " input " + unit(pairs) + ", the weights' task " + std::to_string(weights.input.size());
    if (pairs.output != weights.output)
        return "their output vocabularies differ: the file's training pairs have " + std::to_string(pairs.output.size()) +
               " output " + unit(pairs) + ", the weights' task " + std::to_string(weights.output.size());
    if (pairs.max_input_tokens != weights.max_input_tokens)
        return "the file's longest input is " + std::to_string(pairs.max_input_tokens) + " " + unit(pairs) +
               ", the weights' task's " + std::to_string(weights.max_input_tokens);
    if (pairs.output_steps != weights.output_steps)
        return "the file's longest output is " + std::to_string(pairs.output_steps - 1) + " " + unit(pairs) +
               ", the weights' task's " + std::to_string(weights.output_steps - 1);
    return "";
}

// The data seed the weights' file records (train --save writes it), else the default 1.
uint64_t data_seed_of(const SafetensorsContent& content) {
    const auto found = content.metadata.find("data_seed");
    if (found == content.metadata.end()) return 1;
    try {
        return uint64_t(parse_integer("data_seed", found->second, 0, INT64_MAX));
    } catch (const UsageError&) {
        throw SafetensorsError("metadata \"data_seed\" must be a whole number, not " + shown(found->second));
    }
}

void print_model(const Model& model, const std::string& weights, int held_out) {
    std::printf("%s, from %s; task %s; held-out: %d strings\n\n", model_description(model.config).c_str(),
                shown(weights).c_str(), shown(model.config.task->name).c_str(), held_out);
}

// The scores with train --json's names; the maps' only where the split has links to score them by.
nlohmann::json eval_json(const Model& model, const std::string& weights, const std::vector<Example>& held_out,
                         const HeldOutResult& result) {
    nlohmann::json json = metrics_to_json(result.metrics);
    json.erase("alignment");  // the worker's counts; train --json's scores go under this key
    json["weights"] = weights;
    json["task"] = model.config.task->name;
    json["model"] = decoder_name(model.config.decoder);
    json["width"] = model.config.H;
    if (result.alignment && has_alignments(held_out)) {
        json["aer"] = result.alignment->map.aer();
        json["alignment"] = map_scores_json(map_scores(result.alignment->map));
    }
    return json;
}

}  // namespace

EvalArgs parse_eval_args(const Args& args) {
    EvalArgs o;
    for (size_t i = 0; i < args.size();) {
        std::string v;
        if (take_file_option(args, i, "--weights", o.weights) || take_file_option(args, i, "--task-file", o.task_file) ||
            take_tokens_option(args, i, o.tokens)) {
            continue;
        } else if (take_option(args, i, "--task", v)) {
            o.task = task_named(v);
            if (!o.task) throw UsageError("unknown task " + shown(v) + ": use " + task_names_text());
        } else if (take_file_option(args, i, "--predictions", o.predictions_path) ||
                   take_file_option(args, i, "--json", o.json_path, " (or -)")) {
            continue;
        } else if (args[i] == "--bleu") {
            o.bleu = true;
            ++i;
        } else {
            throw UsageError("unknown option " + shown(args[i]));
        }
    }
    if (o.weights.empty()) throw UsageError("--weights FILE is required");
    if (o.task_file.empty() == !o.task)
        throw UsageError("give the weights' task: --task-file FILE for a model of your own pairs, or --task NAME");
    if (o.tokens && o.task_file.empty()) throw UsageError("--tokens applies to a --task-file only");
    return o;
}

int eval(const Args& args) {
    EvalArgs parsed;
    try {
        parsed = parse_eval_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), eval_usage);
    }
    if (!can_write_all({parsed.predictions_path, parsed.json_path})) return 1;
    const bool json_to_stdout = parsed.json_path == "-";

    SafetensorsContent content;
    std::optional<Task> carried;
    uint64_t data_seed = 1;  // a reader's task keeps the split it was made with, whatever the seed
    try {
        content = read_safetensors_file(parsed.weights);
        carried = task_in_weights(content);
        data_seed = data_seed_of(content);
    } catch (const SafetensorsError& e) {
        std::fprintf(stderr, "lookback: cannot use the weights: %s: %s\n", shown(parsed.weights).c_str(), e.what());
        return 1;
    }
    const auto refuse = [&](const std::string& why) {
        std::fprintf(stderr, "lookback: %s: %s\n", shown(parsed.weights).c_str(), why.c_str());
        return 1;
    };

    // The task: the pairs, made under the name the weights give theirs, so the model reads it.
    std::optional<PairsTask> pairs;
    if (!parsed.task_file.empty()) {
        if (!carried) {
            const auto named = content.metadata.find("task");
            const std::string task = named == content.metadata.end() ? "dates" : named->second;
            return refuse("these are weights of the built-in task " + shown(task) + ", not of your own pairs: give --task " +
                          shown(task) + " instead of --task-file");
        }
        if (task_named(carried->name))
            return refuse("it carries its own task " + shown(carried->name) + ", the name of a task the program has");
        try {
            pairs = read_pairs_file(parsed.task_file, parsed.tokens, carried->name);
        } catch (const std::invalid_argument& e) {  // PairsError too: "line 12: ..."
            std::fprintf(stderr, "lookback: %s: %s\n", shown(parsed.task_file).c_str(), e.what());
            return 1;
        }
        const std::string difference = task_difference(carried_task(pairs->task), carried_task(*carried));
        if (!difference.empty())
            return refuse("the weights were not trained on the pairs of " + shown(parsed.task_file) + ": " + difference);
        if (!json_to_stdout) std::printf("%s: %s\n\n", pairs->task.name.c_str(), describe_pairs(pairs->summary).c_str());
    } else if (carried) {
        return refuse("these weights carry a task of your own pairs, " + shown(carried->name) +
                      ": give the pairs they were trained on with --task-file");
    }
    const TaskInTable in_table(pairs ? &pairs->task : nullptr);

    Model model;
    try {
        model = model_from_safetensors(content);
        if (parsed.task && model.config.task->name != parsed.task->name)
            return refuse("these are weights of the task " + shown(model.config.task->name) + ", not " +
                          shown(parsed.task->name));
    } catch (const SafetensorsError& e) {
        std::fprintf(stderr, "lookback: cannot use the weights: %s: %s\n", shown(parsed.weights).c_str(), e.what());
        return 1;
    }
    const Task& task = *model.config.task;
    if (const std::string refusal = bleu_refusal(task, parsed.bleu); !refusal.empty()) return usage_error(refusal, eval_usage);

    const Splits data = task.make_splits(data_seed, task.train_size, task.held_out_size);
    HeldOutResult result;
    try {
        result = evaluate_held_out(model, data.held_out);
    } catch (const DecodingError& e) {
        return refuse(e.what());
    }
    if (!json_to_stdout) {
        print_model(model, parsed.weights, result.metrics.count);
        print_held_out(task, data.held_out, result, parsed.bleu);
    }
    if (!parsed.json_path.empty()) {
        const std::string text = eval_json(model, parsed.weights, data.held_out, result).dump(2) + "\n";
        if (json_to_stdout) std::fputs(text.c_str(), stdout);
        else if (!write_text(parsed.json_path, text)) {
            std::fprintf(stderr, "lookback: cannot write %s\n", shown(parsed.json_path).c_str());
            return 1;
        }
    }
    if (!parsed.predictions_path.empty()) {
        if (!write_predictions(parsed.predictions_path, task, data.held_out, result.predictions)) return 1;
        if (!json_to_stdout)
            std::printf("\npredictions of the %zu held-out strings written to %s\n", data.held_out.size(),
                        parsed.predictions_path.c_str());
    }
    return 0;
}

}  // namespace lb::cli
