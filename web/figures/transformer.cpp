// web/figures/transformer.cpp — the Transformer section's two figures.
//
// "transformer-training": one-layer Transformers whose decoder reads only the first encoder
// state (memory first) or every one (memory all), trained side by side from scratch in workers,
// with the training figure's controls and charts (pair_view.h). The reader picks the task (any of
// the training figure's, a reader's own pairs too), the width, the heads, the seed and the epochs;
// both use the trainer's one setting (Adam at 1e-3). URL: tf.*.
//
// "transformer-maps": for the lesson's date or a typed one, the cross-attention of the shipped
// Transformer (or the one trained above) as the GRU alignment figure draws it (map_view.h): mean
// over heads or one head, click an output character for its bars, hover for a weight; a click or
// drag on the bars moves that step's attention (of the head shown, or every head under the mean)
// and decodes again (analysis.h's what_if), as the alignment figure does; below it the encoder's
// self-attention over the same string, each input position's weights over the others. URL: tm.*.
//
// Legend: T output characters (10), S input characters, A heads.
//
// [SECTION] Training: settings, URL, drawing, state
// [SECTION] Maps: computing, URL, drawing, state
#include <algorithm>
#include <cstdio>
#include <optional>
#include <span>
#include <string>

#include <imgui.h>

#include "controls.h"
#include "lesson2.h"
#include "map_view.h"
#include "pair_view.h"
#include "url_setting.h"
#include "text/text.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Training: settings, URL, drawing, state
//-----------------------------------------------------------------------------------------------

namespace {

const int transformer_widths[] = {16, 32, 64};  // 8 heads need a width of 8 at least; 8 units learn nothing
const int transformer_head_counts[] = {1, 2, 4, 8};
constexpr int max_transformer_epochs = 30;

// Made each time: the colours follow the page's theme. First is the bottleneck, drawn as the
// plain GRU model is; all as the attention model.
PairLook transformer_look(Lab& lab) {
    return {{"first state", "all states"}, {plain_color(), attention_color()}, lab.knows_alignment(*lab.transformers[1]->config().model.task)};
}

}  // namespace

// A Transformer with the page's width and heads at its kind's rate and warmup (registry.h).
RunSettings transformer_run() {
    ModelConfig model;
    model.decoder = DecoderKind::transformer;
    model.scorer = default_scorer(DecoderKind::transformer);
    return default_run_settings(model);
}

TransformerTrainingState::TransformerTrainingState() : run(transformer_run()) {
    url_setting(url, "task", run, "task");
    url.integer_in("width", run.model.H, {std::begin(transformer_widths), std::end(transformer_widths)})
        .integer_in("heads", run.model.heads, {std::begin(transformer_head_counts), std::end(transformer_head_counts)});
    // A run's settings: the schema's bounds and words (settings/run_settings.h), epochs up to the slider's.
    url_setting(url, "seed", run, "seed");
    url_setting(url, "epochs", run, "epochs", max_transformer_epochs);
}

std::array<RunSettings, 2> TransformerTrainingState::configs() const {
    std::array<RunSettings, 2> c = {run, run};
    c[0].model.memory = Memory::first;
    c[1].model.memory = Memory::all;
    return c;
}

namespace {

// The settings' widgets: true when one changed (new settings start new runs).
bool ShowTransformerSettings(TransformerTrainingState& st) {
    bool changed = false;
    const auto number = [](int n) { return std::to_string(n); };
    RunSettings& run = st.run;
    ImGui::SetNextItemWidth(110);
    changed |= ComboOf("task", "task", run.model.task, tasks(), [](const Task* t) { return t->name; });
    SameLineIfRoom(labelled(70, "width"));
    ImGui::SetNextItemWidth(70);
    changed |= ComboOf("width", "width", run.model.H, transformer_widths, number);
    SameLineIfRoom(labelled(60, "heads"));
    ImGui::SetNextItemWidth(60);
    changed |= ComboOf("heads", "heads", run.model.heads, transformer_head_counts, number);
    SameLineIfRoom(labelled(90, "seed"));  // beside the heads where the row has room (at 200 % zoom it has not)
    ImGui::SetNextItemWidth(90);
    int seed = int(run.seed);  // the schema's seeds fit an int (0 to 2^31 - 1)
    if (InputInt("seed", "seed", &seed, 0, 2147483647) && uint64_t(seed) != run.seed) {
        run.seed = uint64_t(seed);
        changed = true;
    }
    SameLineIfRoom(labelled(110, "epochs"));
    ImGui::SetNextItemWidth(110);
    const int epochs = run.epochs;
    changed |= SliderInt("epochs", "epochs", &run.epochs, 1, max_transformer_epochs) && run.epochs != epochs;
    return changed;
}

// The pair is made here, when the figure first draws (its URL read), and again on new settings
// or Reset.
void ShowTransformerTraining(Lab& lab, TransformerTrainingState& st) {
    if (!lab.transformers.built()) lab.build(lab.transformers, st.configs());
    if (ShowTransformerSettings(st)) lab.build(lab.transformers, st.configs());
    if (ShowPairButtons(lab.transformers)) lab.build(lab.transformers, st.configs());
    ShowPairProgress(lab.transformers);
    ShowPairCharts(lab.transformers, transformer_look(lab));
    if (!lab.training_note.empty()) WrappedText("%s", lab.training_note.c_str());
    else
        DimTextWrapped(("Both Transformers train in Web Workers with Adam at a learning rate of " +
                        setting_text(*find_setting("learning_rate"), st.run) + ", as the GRU models do.").c_str());
}

nlohmann::json training_state_json(const Lab& lab, const TransformerTrainingState& st) {
    const bool built = lab.transformers.built();  // before the figure first draws: its settings, no runs
    return {
        {"running", lab.transformers.running()},
        {"task", st.run.model.task->name},
        {"width", st.run.model.H},
        {"heads", st.run.model.heads},
        {"seed", st.run.seed},
        {"epochs", st.run.epochs},
        {"runs", built ? nlohmann::json{pair_run_json(*lab.transformers[0], "transformer-first"),
                                        pair_run_json(*lab.transformers[1], "transformer-all")}
                       : nlohmann::json::array()},
        {"wall_seconds", lab.transformers.clock.ms() / 1000},
    };
}

std::string training_text(Lab& lab, const TransformerTrainingState& st) {
    if (!lab.transformers.built()) return "";
    return "<p>The " + st.run.model.task->name + " task, width " + std::to_string(st.run.model.H) + ", " + std::to_string(st.run.model.heads) + " heads, seed " +
           std::to_string(st.run.seed) + ", " + std::to_string(st.run.epochs) + " epochs. " + pair_status(lab.transformers) + "</p>" +
           pair_epochs_table(lab.transformers, transformer_look(lab));
}

}  // namespace

FigureSpec transformer_training_figure(Lab& lab, TransformerTrainingState& state) {
    const auto redraw = [] { request_redraw("transformer-training"); };
    lab.changes.subscribe(redraw);
    lab.transformers.progress.subscribe(redraw);
    return {
        .name = "transformer-training",
        .show = [&lab, &state] { ShowTransformerTraining(lab, state); },
        .state = [&lab, &state] { return training_state_json(lab, state); },
        .text_alternative = [&lab, &state] { return training_text(lab, state); },
        .fit_height = true,
        .url = &state.url,
    };
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Maps: computing, URL, drawing, state
//-----------------------------------------------------------------------------------------------

namespace {

std::string lesson_date() { return format_date(1977, 9, 19, 1).input; }  // the lesson's example

// The Transformer the maps read (read_model's rule): [0] memory first, [1] memory all.
ModelRead maps_model(const Lab& lab, const TransformerMapsState& st) {
    const Model* shipped = lab.shipped_model(date_task(), DecoderKind::transformer, st.memory_all ? Memory::all : Memory::first);
    return read_model(lab.transformers[st.memory_all], shipped, date_task(), st.use_live);
}
bool live_available(const Lab& lab, const TransformerMapsState& st) { return trained(lab.transformers[st.memory_all], date_task()); }

void refresh_maps(Lab& lab, TransformerMapsState& st) {
    if (st.use_live && !live_available(lab, st)) st.use_live = false;
    const ModelRead model = maps_model(lab, st);
    if (!model.model) return;
    const auto analysis = lab.analyses.analyse(model, st.typed.input);
    if (analysis != st.analysis) {
        st.analysis = analysis;
        const std::string memory = st.memory_all ? "all states" : "the first state only";
        st.model_label = model.run ? "the Transformer reading " + memory + " trained in this page (epoch " + std::to_string(model.run->epoch()) + ")"
                                   : "the shipped Transformer reading " + memory + " (" +
                                         lab.shipped_note(date_task(), DecoderKind::transformer, st.memory_all ? Memory::all : Memory::first) + ")";
        st.head = std::clamp(st.head, 0, analysis->heads);
        st.selected_output = std::clamp(st.selected_output, 0, output_length - 1);
        st.selected_input = std::clamp(st.selected_input, 0, int(st.typed.input.text.size()) - 1);
    }
    // The move is of the map shown: head st.head, or every head under the mean.
    Move move = st.move;
    move.head = st.head == 0 ? every_head : st.head - 1;
    st.what_if = move.step >= 0 ? lab.analyses.what_if(model, st.typed.input, move) : nullptr;
}

// Whose attention a move moved, after "Output t's attention".
std::string moved_whose(const TransformerMapsState& st) {
    return st.head == 0 ? " in every head" : " in head " + std::to_string(st.head);
}

// The matrix shown for the chosen head: [rows, S] of the mean or of head st.head.
std::span<const float> shown(const TransformerMapsState& st, const std::vector<float>& mean, const std::vector<float>& heads) {
    if (st.head == 0) return mean;
    return std::span<const float>(heads).subspan(size_t(st.head - 1) * mean.size(), mean.size());
}
std::span<const float> row_of(std::span<const float> matrix, int row, int S) { return matrix.subspan(size_t(row * S), size_t(S)); }

}  // namespace

TransformerMapsState::TransformerMapsState() : typed(date_task(), lesson_date()) {
    typed.bind(url);
    url.choice("memory", memory_all, {{"all", true}, {"first", false}})
        .choice("model", use_live, {{"shipped", false}, {"page", true}})
        .integer("head", head, 0, 8)
        .integer("row", selected_output, 0, output_length - 1)
        .integer("in", selected_input, 0, TypedInput::linked_date_chars - 1);
    url_move(url, "move", move);
}

namespace {

void ShowMapsPicker(Lab& lab, TransformerMapsState& st) {
    const char* stays = "The maps below are still the last ones.";
    const float avail = ImGui::GetContentRegionAvail().x;
    // A move belongs to its string and its model: a new one of either puts the attention back.
    if (st.typed.ShowField(avail) && st.typed.take(st.typed.field, stays)) st.move = {};
    const char* lesson_label = "lesson's date";
    SameLineIfRoom(ImGui::CalcTextSize(lesson_label).x + 2 * ImGui::GetStyle().FramePadding.x);
    if (Button(lesson_label, "lesson-date", "the lesson's date") && st.typed.take(lesson_date(), stays)) st.move = {};

    int memory = st.memory_all ? 0 : 1;
    static const std::string memories[] = {"all states", "first state"};
    RadioGroup("memory", "the Transformer reads", memory, memories);
    if (st.memory_all != (memory == 0)) st.move = {};
    st.memory_all = memory == 0;
    if (avail >= 560) ImGui::SameLine(0, 24);
    ShowModelSource(st.use_live, live_available(lab, st));
    st.typed.ShowMessage();
}

void ShowHeadPicker(TransformerMapsState& st) {
    ImGui::TextUnformatted("heads:");
    ImGui::SameLine();
    std::vector<std::string> heads = {"mean"};
    for (int h = 1; h <= st.analysis->heads; ++h) heads.push_back(std::to_string(h));
    RadioGroup("head", "head shown", st.head, heads);
}

void ShowMaps(Lab& lab, TransformerMapsState& st) {
    ShowMapsPicker(lab, st);
    refresh_maps(lab, st);
    if (!st.analysis) {
        const std::string missing = lab.shipped_errors(date_task(), {DecoderKind::transformer});
        ImGui::TextDisabled("%s", missing.empty() ? "Loading the shipped Transformers\u2026" : missing.c_str());
        return;
    }
    const Analysis& a = *st.analysis;
    const Tokens input = char_tokens(st.typed.input.text);
    const int S = int(input.size());
    const float width = ImGui::GetContentRegionAvail().x;
    const float map_w = std::min(width, map_natural_w(a.tokens, input));
    const auto cross = shown(st, a.attention, a.head_attention);
    const auto self = shown(st, a.self_mean, a.self_attention);
    const std::string writes = st.model_label + " writes " + a.output;
    WrappedText("%s.", writes.c_str());
    announce_shown("writes", writes, true);  // another string, model or memory: said
    ShowHeadPicker(st);

    WrappedText("Cross-attention: each output character (down) over the input (across)");
    const bool cross_drawn = ShowMapOrError("map", [&] {
        ShowWeightMap({"map", "out-", "output"}, a.tokens, input, cross, st.selected_output, map_w,
                      "cross-attention map: output characters in rows, input characters in columns; Enter picks a row");
    });
    if (!cross_drawn) return;  // its rows are not there to read
    const auto bars = row_of(cross, st.selected_output, S);
    const Peak peak = row_peak(bars);
    float sum = 0;
    for (float w : bars) sum += w;
    // With memory first the decoder reads position 0 alone: there is nowhere to move its attention.
    const std::string how = st.memory_all ? "Click a bar, or drag across several, to move this step's attention there," + moved_whose(st) +
                                                ", and decode again."
                                          : "This Transformer reads the first state only, so its attention cannot move elsewhere.";
    WrappedText("Output %d, '%c' (its query carries %s): weights over the input sum to %.4f; the peak is input %d, %s, at %.3f. %s",
                       st.selected_output, a.output[size_t(st.selected_output)],
                       st.selected_output == 0 ? "the start token" : ("'" + std::string(1, a.output[size_t(st.selected_output - 1)]) + "'").c_str(),
                       sum, peak.position, spoken(input[size_t(peak.position)]).c_str(), peak.weight, how.c_str());
    std::optional<std::pair<int, int>> chosen;
    ShowWeightBars("bars", input, bars, map_w,
                   "weights of output " + std::to_string(st.selected_output) + " over the input" +
                       (st.memory_all ? "; Enter moves its attention onto one" : ""),
                   st.memory_all ? &chosen : nullptr);
    if (chosen) {
        st.move = {st.selected_output, chosen->first, chosen->second};
        request_redraw("transformer-maps");  // decoded again before the next frame draws it
    }
    if (!chosen && st.move.step >= 0 && st.what_if) {  // a new move is drawn once decoded
        const WhatIf& w = *st.what_if;
        if (ShowMoveResult(date_task(), input, st.move, w, shown(st, w.attention, w.head_attention), moved_whose(st), map_w)) st.move = {};
    }

    ImGui::Spacing();
    WrappedText("The encoder's self-attention: each input character (down) over the input (across)");
    const bool self_drawn = ShowMapOrError("self-map", [&] {
        ShowWeightMap({"self-map", "in-", "input"}, input, input, self, st.selected_input, map_w,
                      "the encoder's self-attention map: input characters in rows and columns; Enter picks a row");
    });
    if (!self_drawn) return;
    const auto self_bars = row_of(self, st.selected_input, S);
    const Peak self_peak = row_peak(self_bars);
    WrappedText("Input %d, %s: the peak is input %d, %s, at %.3f.", st.selected_input,
                       spoken(input[size_t(st.selected_input)]).c_str(), self_peak.position,
                       spoken(input[size_t(self_peak.position)]).c_str(), self_peak.weight);
    ShowWeightBars("self-bars", input, self_bars, map_w, "self-attention weights of input " + std::to_string(st.selected_input));
}

nlohmann::json rows_json(std::span<const float> matrix, int rows, int S) {
    nlohmann::json out = nlohmann::json::array();
    for (int r = 0; r < rows && !matrix.empty(); ++r) {
        const auto row = row_of(matrix, r, S);
        out.push_back(std::vector<float>(row.begin(), row.end()));
    }
    return out;
}

// The move's decoding for window.lookback.state: its output, changed steps, the map shown after
// it and each head's, or why not.
nlohmann::json moved_json(const TransformerMapsState& st) {
    if (st.move.step < 0 || !st.what_if) return nullptr;
    const WhatIf& w = *st.what_if;
    const int S = int(st.typed.input.text.size()), T = w.error.empty() ? output_length : 0;
    nlohmann::json heads = nlohmann::json::array();
    for (int h = 0; h < w.heads; ++h)
        heads.push_back(rows_json(std::span<const float>(w.head_attention).subspan(size_t(h * T * S), size_t(T * S)), T, S));
    return {{"output", w.output}, {"changed", w.changed}, {"weights", rows_json(shown(st, w.attention, w.head_attention), T, S)},
            {"cross_heads", heads}, {"error", w.error}};
}

nlohmann::json maps_state_json(Lab& lab, TransformerMapsState& st) {
    refresh_maps(lab, st);
    static const Analysis none;  // before the shipped Transformers load: no map is made up
    const Analysis& a = st.analysis ? *st.analysis : none;
    const std::string& input = st.typed.input.text;
    const int S = int(input.size()), T = output_length;
    nlohmann::json cross_heads = nlohmann::json::array(), self_heads = nlohmann::json::array();
    for (int h = 0; h < a.heads; ++h) {
        cross_heads.push_back(rows_json(std::span<const float>(a.head_attention).subspan(size_t(h * T * S), size_t(T * S)), T, S));
        self_heads.push_back(rows_json(std::span<const float>(a.self_attention).subspan(size_t(h * S * S), size_t(S * S)), S, S));
    }
    const bool ready = st.analysis != nullptr;
    return {
        {"input", input}, {"output", a.output}, {"message", st.typed.message}, {"memory", st.memory_all ? "all" : "first"},
        {"model", st.use_live ? "page" : "shipped"}, {"label", st.model_label}, {"heads", a.heads}, {"head", st.head},
        {"selected_output", st.selected_output}, {"selected_input", st.selected_input},
        {"cross_mean", rows_json(a.attention, ready ? T : 0, S)}, {"cross_heads", cross_heads},
        {"self_mean", rows_json(a.self_mean, ready ? S : 0, S)}, {"self_heads", self_heads},
        {"bars", ready ? rows_json(row_of(shown(st, a.attention, a.head_attention), st.selected_output, S), 1, S)[0] : nlohmann::json(nullptr)},
        {"self_bars", ready ? rows_json(row_of(shown(st, a.self_mean, a.self_attention), st.selected_input, S), 1, S)[0] : nlohmann::json(nullptr)},
        {"move", st.move.step < 0 ? nlohmann::json(nullptr)
                                  : nlohmann::json{{"step", st.move.step}, {"first", st.move.first}, {"last", st.move.last}}},
        {"moved", moved_json(st)},
        {"shipped_error", lab.shipped_errors(date_task(), {DecoderKind::transformer})},
    };
}

std::string maps_text(Lab& lab, TransformerMapsState& st) {
    refresh_maps(lab, st);
    if (!st.analysis) {
        const std::string missing = lab.shipped_errors(date_task(), {DecoderKind::transformer});
        return "<p>" + html_escape(missing.empty() ? "The shipped Transformers are loading." : missing) + "</p>";
    }
    const Analysis& a = *st.analysis;
    const std::string& input = st.typed.input.text;
    const auto cross = shown(st, a.attention, a.head_attention);
    std::string html = "<p>" + html_escape(st.model_label) + " reads \u201c" + html_escape(input) + "\u201d and writes " + a.output +
                       ". Where each output character's cross-attention (" +
                       (st.head == 0 ? std::string("mean over heads") : "head " + std::to_string(st.head)) +
                       ") peaks:</p>" + table_html(peak_table("peaks", "each output's peak", char_tokens(a.output), char_tokens(input), cross));
    if (st.move.step >= 0 && st.what_if) html += move_html(date_task(), char_tokens(input), st.move, *st.what_if, moved_whose(st));
    return html + (st.typed.message.empty() ? "" : "<p>" + html_escape(st.typed.message) + "</p>");
}

}  // namespace

FigureSpec transformer_maps_figure(Lab& lab, TransformerMapsState& st) {
    lab.changes.subscribe([] { request_redraw("transformer-maps"); });
    return {
        .name = "transformer-maps",
        .show = [&lab, &st] { ShowMaps(lab, st); },
        .state = [&lab, &st] { return maps_state_json(lab, st); },
        .text_alternative = [&lab, &st] { return maps_text(lab, st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
