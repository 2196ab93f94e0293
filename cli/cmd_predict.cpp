// `lookback predict --weights FILE [--json] TEXT...`: a trained model's output
// for each input of its task (a date unless the weights say otherwise), its attention matrix (a text heat map, or numbers in JSON
// lines), and for each output token the input position it attends to most.
// For a Transformer the matrix is its cross-attention, the mean over heads;
// --per-head adds each head's. --gradient-path DATE adds, for the teacher-forced
// loss of writing DATE, the gradient's norm at every encoder state (probes.h):
// the numbers behind the page's Figure 6 and assets/gradient_path.json. --attend STEP=POS decodes
// again with output step STEP's attention moved wholly onto input position POS (counterfactual.h)
// and prints both outputs and the steps that changed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <xtensor/xview.hpp>

#include "cli/commands.h"
#include "lesson/probes.h"
#include "io/safetensors.h"
#include "models/counterfactual.h"
#include "models/decoding_check.h"

namespace lb::cli {

namespace {

const char* const predict_usage =
    "lookback predict --weights FILE [--json] [--per-head] [--gradient-path YYYY-MM-DD]\n"
    "                 [--attend STEP=POS[,STEP=POS...] [--head H]] TEXT...\n"
    "  TEXT: inputs of the weights' task, each decoded (a date, for the date task's weights)\n"
    "  --per-head: a Transformer's cross-attention for each head too (the map is their mean)\n"
    "  --gradient-path DATE: the norm of d loss / d h_j at each encoder state, for the loss of writing DATE\n"
    "  --attend STEP=POS: decode again with output step STEP's attention moved wholly onto input\n"
    "    position POS (both from 0), and show both outputs; --head H: a Transformer's head H alone\n"
    "    (from 0; every head by default)\n"
    "  e.g. lookback predict --weights attention.safetensors \"monday 19 september 1977\"\n"
    "       lookback predict --weights attention.safetensors --attend 9=21 \"monday 19 september 1977\"";

// A string as the model's task splits it: characters, or words.
using Tokens = std::vector<std::string>;
Tokens tokens_of(const Vocabulary& vocab, const std::string& text) {
    Tokens tokens;
    for (std::string_view piece : vocab.split(text)) tokens.emplace_back(piece);
    return tokens;
}
std::string token_at(const Tokens& tokens, size_t t) { return t < tokens.size() ? tokens[t] : "?"; }

struct Peak {
    int position;       // 0-based input position with the largest weight
    std::string input;  // the token there
    float weight;
};

std::vector<Peak> peaks_of(const Decoded& d, const Tokens& input) {
    std::vector<Peak> peaks;
    if (d.attention.dimension() != 2 || d.attention.shape()[0] == 0) return peaks;
    const size_t T = d.attention.shape()[0], S = d.attention.shape()[1];
    for (size_t t = 0; t < T; ++t) {
        size_t best = 0;
        for (size_t j = 1; j < S; ++j)
            if (d.attention(t, j) > d.attention(t, best)) best = j;
        peaks.push_back({int(best), token_at(input, best), d.attention(t, best)});
    }
    return peaks;
}

// Ten shades from nothing to all of the weight.
char shade(float weight) {
    static const char ramp[] = " .:-=+*#%@";
    const int level = int(std::lround(std::clamp(weight, 0.0f, 1.0f) * 9));
    return ramp[level];
}

// The map's column headings: the input itself when its tokens are characters; for words, the
// last digit of each word's position (the words are listed with their positions first).
std::string column_heading(const Tokens& input, bool words) {
    std::string heading;
    for (size_t j = 0; j < input.size(); ++j) heading += words ? char('0' + j % 10) : input[j][0];
    if (!words) return heading;
    std::string legend;
    for (size_t j = 0; j < input.size(); ++j) legend += std::to_string(j) + ":" + input[j] + " ";
    std::printf("        %s\n", legend.c_str());
    return heading;
}

// Column headings, then one row per output step: its token, one shade per input token.
void print_map(const Tokens& input, const Tokens& output, bool words, const xt::xtensor<float, 2>& map) {
    std::printf("        %s\n", column_heading(input, words).c_str());
    for (size_t t = 0; t < map.shape()[0]; ++t) {
        std::printf("  %6.6s  ", token_at(output, t).c_str());
        for (size_t j = 0; j < input.size(); ++j) std::putchar(shade(map(t, j)));
        std::printf("\n");
    }
}

void print_text(const std::string& text, const Tokens& input, const Tokens& output, bool words,
                const Decoded& d, const std::vector<Peak>& peaks, bool per_head) {
    std::printf("%s  ->  %s\n", text.c_str(), d.output.c_str());
    const size_t heads = d.heads.dimension() == 3 ? d.heads.shape()[0] : 0;
    if (heads > 0)
        std::printf("  (cross-attention of the Transformer's decoder, mean over its %zu heads)\n",
                    heads);
    if (peaks.empty()) {
        std::printf("  (plain decoder: no attention; it reads only the encoder's last state)\n\n");
        return;
    }
    std::printf("\n");
    const std::string heading = column_heading(input, words);
    std::printf("        %s\n        ", heading.c_str());
    for (size_t j = 0; j < input.size(); ++j) std::putchar(j % 10 == 0 ? '|' : ' ');
    std::printf("   peak\n");
    for (size_t t = 0; t < peaks.size(); ++t) {
        std::printf("  %6.6s  ", token_at(output, t).c_str());
        for (size_t j = 0; j < input.size(); ++j) std::putchar(shade(d.attention(t, j)));
        std::printf("   %2d '%s' %.2f\n", peaks[t].position, peaks[t].input.c_str(), peaks[t].weight);
    }
    std::printf("        (shades ' .:-=+*#%%@' from 0 to 1; '|' marks positions 0, 10, 20)\n\n");
    for (size_t h = 0; per_head && h < heads; ++h) {
        std::printf("  head %zu\n", h + 1);
        print_map(input, output, words, xt::xtensor<float, 2>(xt::view(d.heads, h, xt::all(), xt::all())));
        std::printf("\n");
    }
}

// One line per input position: its character, ‖∂loss/∂h_j‖ by every path and through the decoder alone.
void print_gradient_path(const std::string& input, const std::string& target, const GradientPath& path) {
    std::printf("  gradient of the loss of writing %s (loss %.4f), per encoder state:\n", target.c_str(), double(path.loss));
    std::printf("    pos  char        total       direct\n");
    for (size_t j = 0; j < input.size(); ++j)
        std::printf("    %3zu   '%c'  %11.4g  %11.4g\n", j, input[j], double(path.total[j]), double(path.direct[j]));
    std::printf("  last position against the first: %.4g\n\n", double(path.total.back() / path.total.front()));
}

std::vector<AttentionEdit> attend_edits(const PredictArgs& args, int input_length) {
    std::vector<AttentionEdit> edits;
    for (const AttendTo& a : args.attend)
        edits.push_back(attention_on(a.step, a.position, input_length, args.head.value_or(every_head)));
    return edits;
}

// "step 9 -> position 21 '9'" for each move, and the outputs' tokens that changed.
void print_moved(const Counterfactual& cf, const PredictArgs& args, const Tokens& input, const Vocabulary& output) {
    std::string moves;
    for (const AttendTo& a : args.attend)
        moves += (moves.empty() ? "" : ", ") + std::string("step ") + std::to_string(a.step) + " -> position " +
                 std::to_string(a.position) + " '" + token_at(input, size_t(a.position)) + "'";
    const bool heads = cf.original.heads.dimension() == 3 && cf.original.heads.shape()[0] > 0;
    const std::string whose = args.head ? " (head " + std::to_string(*args.head) + " only)" : heads ? " (every head)" : "";
    std::printf("  attention moved wholly%s: %s\n", whose.c_str(), moves.c_str());
    std::printf("    own      %s\n    edited   %s\n", cf.original.output.c_str(), cf.edited.output.c_str());
    const Tokens own = tokens_of(output, cf.original.output), edited = tokens_of(output, cf.edited.output);
    std::string changed;
    for (int t : cf.changed_steps)
        changed += (changed.empty() ? "" : ", ") + std::to_string(t) + " ('" + token_at(own, size_t(t)) + "' -> '" +
                   token_at(edited, size_t(t)) + "')";
    std::printf("    changed steps: %s\n\n", changed.empty() ? "none" : changed.c_str());
}

nlohmann::json moved_json(const Counterfactual& cf, const PredictArgs& args) {
    nlohmann::json moves = nlohmann::json::array(), attention = nlohmann::json::array();
    for (const AttendTo& a : args.attend) moves.push_back({{"step", a.step}, {"position", a.position}});
    for (size_t t = 0; t < cf.edited.attention.shape()[0]; ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (size_t j = 0; j < cf.edited.attention.shape()[1]; ++j)
            row.push_back(std::round(double(cf.edited.attention(t, j)) * 1e5) / 1e5);
        attention.push_back(row);
    }
    return {{"moves", moves},
            {"head", args.head ? nlohmann::json(*args.head) : nlohmann::json(nullptr)},
            {"output", cf.edited.output},
            {"changed_steps", cf.changed_steps},
            {"attention", attention}};
}

nlohmann::json line_json(const std::string& input, const Tokens& output, const Decoded& d,
                         const std::vector<Peak>& peaks, bool per_head) {
    nlohmann::json attention = nlohmann::json::array(), peak_list = nlohmann::json::array();
    for (size_t t = 0; t < peaks.size(); ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (size_t j = 0; j < d.attention.shape()[1]; ++j)
            row.push_back(std::round(double(d.attention(t, j)) * 1e5) / 1e5);
        attention.push_back(row);
        peak_list.push_back({{"output", token_at(output, t)},
                             {"position", peaks[t].position},
                             {"char", peaks[t].input},
                             {"weight", std::round(double(peaks[t].weight) * 1e5) / 1e5}});
    }
    nlohmann::json line = {{"input", input}, {"output", d.output}, {"attention", attention},
                           {"peaks", peak_list}};
    if (per_head && d.heads.dimension() == 3 && d.heads.shape()[0] > 0) {
        nlohmann::json heads = nlohmann::json::array();
        for (size_t h = 0; h < d.heads.shape()[0]; ++h) {
            nlohmann::json rows = nlohmann::json::array();
            for (size_t t = 0; t < d.heads.shape()[1]; ++t) {
                nlohmann::json row = nlohmann::json::array();
                for (size_t j = 0; j < d.heads.shape()[2]; ++j)
                    row.push_back(std::round(double(d.heads(h, t, j)) * 1e5) / 1e5);
                rows.push_back(row);
            }
            heads.push_back(rows);
        }
        line["heads"] = heads;
    }
    return line;
}

}  // namespace

std::string refusal_line(const std::string& text, const std::string& error) {
    // The text is whatever was typed: escape sequences and a 10 kB paste included.
    return "lookback: refused " + shown(text) + ": " + error;
}

PredictArgs parse_predict_args(const Args& args) {
    PredictArgs o;
    for (size_t i = 0; i < args.size();) {
        std::string v;
        if (take_option(args, i, "--weights", v)) o.weights = v;
        else if (args[i] == "--json") o.json = true, ++i;
        else if (args[i] == "--per-head") o.per_head = true, ++i;
        else if (take_option(args, i, "--gradient-path", v)) {
            const bool iso = v.size() == size_t(output_length) &&
                             v.find_first_not_of("0123456789-") == std::string::npos;
            if (!iso) throw UsageError("--gradient-path takes a date of 10 characters written as YYYY-MM-DD, not " + shown(v));
            o.gradient_target = v;
        }
        else if (take_option(args, i, "--attend", v)) {
            for (const std::string& pair : split_commas(v)) {
                const size_t equals = pair.find('=');
                if (equals == std::string::npos || pair.find('=', equals + 1) != std::string::npos)
                    throw UsageError("--attend takes STEP=POS pairs separated by commas (an output step and an "
                                     "input position, from 0), not " + shown(pair));
                o.attend.push_back({int(parse_integer("--attend's STEP", pair.substr(0, equals), 0, 999)),
                                    int(parse_integer("--attend's POS", pair.substr(equals + 1), 0, 999))});
            }
        } else if (take_option(args, i, "--head", v)) o.head = int(parse_integer("--head", v, 0, 7));
        else if (args[i] == "--") {  // everything after is text, even "--x"
            o.texts.insert(o.texts.end(), args.begin() + long(i) + 1, args.end());
            break;
        } else if (args[i].size() > 1 && args[i].compare(0, 2, "--") == 0)
            throw UsageError("unknown option " + shown(args[i]));
        else o.texts.push_back(args[i++]);
    }
    if (o.head && o.attend.empty()) throw UsageError("--head says which head --attend moves: give --attend too");
    if (o.weights.empty()) throw UsageError("--weights FILE is required");
    if (o.texts.empty()) throw UsageError("give at least one input to read");
    return o;
}

void check_predict_model(const PredictArgs& args, const ModelConfig& model) {
    if (!args.gradient_target.empty() && !has_gradient_path(model.decoder))
        throw UsageError("--gradient-path applies to plain and attention weights only, not to a " +
                         std::string(decoder_name(model.decoder)) + " model's");
    if (!args.gradient_target.empty() && !date_dial(*model.task))  // a date row, at any setting of its dial
        throw UsageError("--gradient-path takes a date, so it applies to weights of the dates task, not of the " +
                         model.task->name + " task");
    const auto with_heads = [](const ModelKind& kind) { return kind.has_heads(); };
    if (args.per_head && !model_kind(model.decoder).has_heads())
        throw UsageError("--per-head applies to " + kind_names(with_heads) + " weights only, not to a " +
                         std::string(decoder_name(model.decoder)) + " model's");
    if (!args.attend.empty() && !model_kind(model.decoder).read_attention)
        throw UsageError("--attend moves attention, which a " + std::string(decoder_name(model.decoder)) +
                         " model does not have");
    if (args.head && !model_kind(model.decoder).has_heads())
        throw UsageError("--head applies to " + kind_names(with_heads) + " weights only, not to the " +
                         std::string(decoder_name(model.decoder)) + " model's");
    if (args.head && *args.head >= model.heads)
        throw UsageError("--head " + std::to_string(*args.head) + " is outside the transformer's " +
                         std::to_string(model.heads) + " heads (0 to " + std::to_string(model.heads - 1) + ")");
    for (const AttendTo& a : args.attend)
        if (a.step >= output_steps(model))
            throw UsageError("--attend " + std::to_string(a.step) + "=" + std::to_string(a.position) +
                             ": the model writes " + std::to_string(output_steps(model)) + " output steps (0 to " +
                             std::to_string(output_steps(model) - 1) + ")");
}

int predict(const Args& args) {
    PredictArgs parsed;
    try {
        parsed = parse_predict_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), predict_usage);
    }
    const std::string& weights = parsed.weights;
    const bool json = parsed.json;
    const std::vector<std::string>& texts = parsed.texts;

    // A model of a reader's task carries the task (io/safetensors.h): in the table while it runs.
    Model model;
    std::optional<Task> carried;
    std::optional<TaskInTable> in_table;
    try {
        const SafetensorsContent content = read_safetensors_file(weights);
        try {
            carried = task_in_weights(content);
            if (carried) {
                if (task_named(carried->name))
                    throw SafetensorsError("it carries its own task " + shown(carried->name) +
                                           ", the name of a task the program has");
                in_table.emplace(&*carried);
            }
            model = model_from_safetensors(content);
        } catch (const SafetensorsError& e) {
            throw SafetensorsError(shown(weights) + ": " + e.what());
        }
    } catch (const SafetensorsError& e) {
        std::fprintf(stderr, "lookback: cannot use the weights: %s\n", e.what());
        return 1;
    }
    try {
        check_predict_model(parsed, model.config);
    } catch (const UsageError& e) {
        return usage_error(e.what(), predict_usage);
    }

    int refused = 0;
    for (const std::string& text : texts) {
        std::string error;
        const std::vector<int> tokens = encode_user_input(*model.config.task, text, error);
        if (tokens.empty()) {
            std::fprintf(stderr, "%s\n", refusal_line(text, error).c_str());
            ++refused;
            continue;
        }
        const std::string input = normalise_user_input(*model.config.task, text);
        Decoded d;
        try {
            d = decode_tokens(tokens, model);
        } catch (const DecodingError& e) {
            std::fprintf(stderr, "lookback: cannot use the weights: %s: %s\n", shown(weights).c_str(), e.what());
            return 1;
        }
        const Vocabulary& in_vocab = model.config.task->input;
        const Tokens input_tokens = tokens_of(in_vocab, input);
        Tokens output_tokens = tokens_of(model.config.task->output, d.output);
        std::vector<Peak> peaks = peaks_of(d, input_tokens);
        if (model.config.task->ends && output_tokens.size() < peaks.size()) {
            output_tokens.push_back("</s>");  // the step that ended the output; the rest are unread
            peaks.resize(output_tokens.size());
        }
        std::optional<GradientPath> path;
        if (!parsed.gradient_target.empty()) path = gradient_path(model, input, parsed.gradient_target);
        std::optional<Counterfactual> moved;
        if (!parsed.attend.empty()) {
            try {
                moved = decode_counterfactual(model, tokens, attend_edits(parsed, int(tokens.size())));
            } catch (const std::invalid_argument& e) {
                return usage_error("--attend, for " + shown(input) + ": " + e.what(), predict_usage);
            }
        }
        if (json) {
            nlohmann::json line = line_json(input, output_tokens, d, peaks, parsed.per_head);
            if (moved) line["attend"] = moved_json(*moved, parsed);
            if (path) line["gradient_path"] = {{"target", parsed.gradient_target}, {"loss", path->loss},
                                               {"total", path->total}, {"direct", path->direct},
                                               {"last_over_first", path->total.back() / path->total.front()}};
            std::printf("%s\n", line.dump().c_str());
        } else {
            print_text(input, input_tokens, output_tokens, in_vocab.words, d, peaks, parsed.per_head);
            if (moved) print_moved(*moved, parsed, input_tokens, model.config.task->output);
            if (path) print_gradient_path(input, parsed.gradient_target, *path);
        }
    }
    return refused ? 1 : 0;
}

}  // namespace lb::cli
