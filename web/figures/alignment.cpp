// web/figures/alignment.cpp — figure "alignment": the attention weights of one string, output
// tokens down, input tokens across, coloured by the heatmap shader. The reader picks a held-out
// string or types one (a refused one keeps the last map and says why); hovering a cell shows its
// weight; clicking an output token draws its weights over the input as bars with the peak
// marked; a table gives every output's peak position and the token there, computed from the
// matrix. Beside it, the two guards that make such a map evidence.
//
// It shows the shipped attention model of the dates, or the training figure's attention run on
// that figure's task once the pair has an epoch of it: the dates, another built-in task or a
// reader's own pairs (words drawn upwards across the top). The URL keeps the date task's string
// (al.ex or al.date), the selected output (al.row) and a move; another task's, whose model is
// only in this page, stays out of links.
//
// refresh_alignment (shared with probes.cpp) reads the string's map from the Lab's analyses
// (web/lab/analysis.h); the probes figure reads its occlusion and gradient paths itself, on the
// dates only.
//
// Legend: T output tokens (a date's 10 characters), S input tokens.
//
// [SECTION] Reading the maps
// [SECTION] The URL
// [SECTION] Drawing
// [SECTION] State JSON and text alternative
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include <imgui.h>

#include "controls.h"
#include "charts.h"
#include "lesson2.h"
#include "map_view.h"
#include "text/text.h"
#include "url_setting.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] Reading the maps
//-----------------------------------------------------------------------------------------------

namespace {

// The training figure's task once both runs of its pair have an epoch of it, else null: the
// reader may then pick the model trained in the page.
const Task* live_task(const Lab& lab) {
    if (!lab.live[1]) return nullptr;
    const Task& task = *lab.live[1]->config().model.task;
    return trained(lab.live[0], task) && trained(lab.live[1], task) ? &task : nullptr;
}

bool on_dates(const AlignmentState& st) { return st.task == &date_task(); }

// The lesson's own example, written the way our generator writes it, with its true weekday.
Example lesson_example() { return format_date(1977, 9, 19, 1); }
void show_example(Lab& lab, AlignmentState& st, int index);
void show_typed(AlignmentState& st, const TypedInput& typed);

// Which task the figure shows: the dates, or the training figure's task while its page model is
// picked. Entering another task (or another run of one) starts at its first held-out example;
// back on the dates, the date typed or linked last.
void follow_task(Lab& lab, AlignmentState& st) {
    const Task* live = live_task(lab);
    if (st.use_live && !live) st.use_live = false;
    const Task& task = st.use_live ? *live : date_task();
    const long subject = &task == &date_task() ? 0 : lab.live[1]->id();
    if (subject == st.subject) return;
    st.subject = subject;
    st.task = &task;
    st.analysis = nullptr, st.what_if = nullptr;  // of the string left: read again for the new one
    st.move = {};
    st.selected_output = 0;
    if (subject == 0) {
        show_typed(st, st.typed);
        return;
    }
    st.typed_other.reset(task);
    show_example(lab, st, 0);
}
}  // namespace

void refresh_alignment(Lab& lab, AlignmentState& st) {
    if (!st.url_applied) {  // the link's string, once: the held-out split is built when first needed
        st.url_applied = true;
        const Move linked = st.move;  // the link's move is of the link's string
        if (st.example >= 0) show_example(lab, st, st.example);
        else if (st.typed.input.text != st.shown.text) show_typed(st, st.typed);
        st.move = linked;
    }
    follow_task(lab, st);
    const ModelRead attention = on_dates(st) ? alignment_models(lab, st)[1] : read_model(lab.live[1], nullptr, *st.task);
    if (!attention.model) return;
    const auto a = lab.analyses.analyse(attention, st.shown);
    st.selected_output = std::clamp(st.selected_output, 0, std::max(int(a->tokens.size()) - 1, 0));
    const auto moved = st.move.step >= 0 ? lab.analyses.what_if(attention, st.shown, st.move) : nullptr;
    if (a == st.analysis && moved == st.what_if) return;
    st.analysis = a;
    st.what_if = moved;
    st.model_label = !attention.run ? "the shipped attention model (width 64, 12 epochs)"
                     : "the " + model_label(attention.model->config) + " model trained in this page" +
                           (on_dates(st) ? "" : " on " + st.task->name) + " (epoch " + std::to_string(attention.run->epoch()) + ")";
    st.encoder_note = encoder_note(attention.model->config);
    st.two_way = model_kind(attention.model->config.decoder).two_way_encoder;
    st.gradient_measured = has_gradient_path(attention.model->config.decoder);  // the models whose rows measure it
    request_redraw("alignment");  // the two figures share these numbers
    request_redraw("probes");
}

std::array<ModelRead, 2> alignment_models(const Lab& lab, AlignmentState& st) {
    std::array<ModelRead, 2> read;
    for (size_t k = 0; k < pair_slots; ++k)
        read[k] = read_model(lab.live[k], lab.shipped_model(date_task(), lesson_pair[k]), date_task(), st.use_live);
    return read;
}

namespace {

const std::vector<float>& weights(const AlignmentState& st) { return st.analysis->attention; }
const std::string& output(const AlignmentState& st) { return st.analysis->output; }
const Tokens& output_tokens(const AlignmentState& st) { return st.analysis->tokens; }
int rows(const AlignmentState& st) { return int(st.analysis->tokens.size()); }

Peak peak_of(const AlignmentState& st, int t) {
    const size_t S = st.shown_tokens.size();
    return row_peak(std::span<const float>(weights(st)).subspan(size_t(t) * S, S));
}

//-----------------------------------------------------------------------------------------------
// [SECTION] The URL
//-----------------------------------------------------------------------------------------------

void show_input(AlignmentState& st, ModelInput input, std::string target) {
    st.shown = std::move(input);
    st.shown_tokens = tokens_of(st.task->input, st.shown.text);
    st.shown_target = std::move(target);
    st.masked = -1;
    st.move = {};  // a move belongs to its string
}

void show_example(Lab& lab, AlignmentState& st, int index) {
    const std::vector<Example>& held_out = lab.held_out(*st.task);
    const int n = int(held_out.size());
    st.example = ((index % n) + n) % n;
    if (on_dates(st)) {
        st.typed.date = lesson_example().input;  // the link forgets a typed date
        st.typed.message.clear();
    } else {
        st.typed_other.message.clear();
    }
    const Example& e = held_out[size_t(st.example)];
    show_input(st, generated_input(*st.task, e.input), e.target);
}

// The typed string, taken (checked) by the field or the link; a typed string's answer is not
// known to the page.
void show_typed(AlignmentState& st, const TypedInput& typed) {
    st.example = -1;
    show_input(st, typed.input, "");
}

}  // namespace

AlignmentState::AlignmentState() : typed(date_task(), lesson_example().input), typed_other(date_task(), "") {
    const Example lesson = lesson_example();
    shown = generated_input(lesson.input);
    shown_tokens = char_tokens(shown.text);
    shown_target = lesson.target;
    // Another task's example, row and move name strings of a model only this page has: left out.
    const auto elsewhere = [this](const std::string&) { return task != &date_task(); };
    url.integer("ex", example, 0, held_out_split_size - 1).left_out_when(elsewhere);
    typed.bind(url);
    url.integer("row", selected_output, 0, output_length - 1).left_out_when(elsewhere)
        .choice("model", use_live, {{"shipped", false}, {"page", true}});
    url_move(url, "move", move);
    url.left_out_when(elsewhere);
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

void ShowPicker(Lab& lab, AlignmentState& st) {
    const int n = int(lab.held_out(*st.task).size());
    if (Button("\u2190", "previous", "previous held-out string")) show_example(lab, st, st.example < 0 ? 0 : st.example - 1);
    ImGui::SameLine();
    if (Button("\u2192", "next", "next held-out string")) show_example(lab, st, st.example < 0 ? 0 : st.example + 1);
    ImGui::SameLine();
    if (Button("random", "random", "random held-out string")) show_example(lab, st, int((st.example + 1) * 7919L % n));
    ImGui::SameLine();
    if (st.example >= 0) ImGui::TextDisabled("held-out string %s of %s", grouped(st.example + 1).c_str(), grouped(n).c_str());
    else if (!on_dates(st)) ImGui::TextDisabled("your input");
    else ImGui::TextDisabled(st.shown.text == lesson_example().input ? "the lesson's example" : "your date");

    TypedInput& typed = on_dates(st) ? st.typed : st.typed_other;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (typed.ShowField(avail) && typed.take(typed.field, "The map below is still the last one.")) show_typed(st, typed);
    if (avail > 560) ImGui::SameLine();
    ShowModelSource(st.use_live, live_task(lab) != nullptr);
    typed.ShowMessage();
}

void ShowMap(AlignmentState& st, float width) {
    ShowMapOrError("map", [&] {
        const char* unit = st.task->output.words ? "tokens" : "characters";
        ShowWeightMap({"map", "out-", "output"}, output_tokens(st), st.shown_tokens, weights(st), st.selected_output, width,
                      "attention map of " + st.model_label + ": output " + unit + " in rows, input " +
                          (st.task->input.words ? "tokens" : "characters") + " in columns; Enter picks a row");
    });
}

// Every output's peak (map_view.h), drawn with the selected output's row highlighted.
FigureTable peaks(const AlignmentState& st) {
    return peak_table("peaks", "each output's peak", output_tokens(st), st.shown_tokens, weights(st));
}

void ShowPeakTable(const AlignmentState& st) { ShowTable(peaks(st), {.highlighted_row = st.selected_output}); }

void ShowBars(AlignmentState& st, float width) {
    const int S = int(st.shown_tokens.size()), t = st.selected_output;
    const Peak peak = peak_of(st, t);
    float sum = 0;
    for (int j = 0; j < S; ++j) sum += weights(st)[size_t(t * S + j)];
    WrappedText("Output %d, %s: its weights over the input (they sum to %.4f); the peak is input %d, %s, at %.3f. "
                "Click a bar, or drag across several, to move this step's attention there and decode again.", t,
                spoken(output_tokens(st)[size_t(t)]).c_str(), sum, peak.position, spoken(st.shown_tokens[size_t(peak.position)]).c_str(),
                peak.weight);
    std::optional<std::pair<int, int>> chosen;
    ShowWeightBars("bars", st.shown_tokens, std::span<const float>(weights(st)).subspan(size_t(t * S), size_t(S)), width,
                   "weights of output " + std::to_string(t) + " over the input; Enter moves its attention onto one", &chosen);
    if (chosen) {
        st.move = {t, chosen->first, chosen->second};
        request_redraw("alignment");  // decoded again before the next frame draws it
    }
}

// The move's result under the map (map_view.h); Reset puts the attention back.
void ShowMove(AlignmentState& st, float map_w) {
    if (st.move.step < 0 || !st.what_if) return;
    if (ShowMoveResult(*st.task, st.shown_tokens, st.move, *st.what_if, st.what_if->attention, "", map_w)) st.move = {};
}

// The first guard: whether the right alignment is known. The dates' is; another task's only if
// its pairs give one (Figure 5b checks the map against it).
std::string first_guard(Lab& lab, const AlignmentState& st) {
    if (on_dates(st))
        return "First, we know the right alignment in advance: the year's digits are in the year, the month's in the month "
               "word or number, the day's in the day.";
    return lab.knows_alignment(*st.task)
               ? "First, this task's pairs give the right alignment: Figure 5b draws it over this model's map and scores the map "
                 "against it."
               : "First, this task's pairs give no alignment, so nothing here says where the model should look: a tidy map is a "
                 "picture, not evidence.";
}

// "Each column …" as "each column …", to follow "Second,".
std::string lowercase_first(std::string text) {
    if (!text.empty() && text[0] >= 'A' && text[0] <= 'Z') text[0] = char(text[0] - 'A' + 'a');
    return text;
}

void ShowGuards(Lab& lab, const AlignmentState& st) {
    const std::string second =
        !on_dates(st) ? lowercase_first(st.encoder_note)
        : st.two_way  ? "this model's encoder reads both ways: each annotation holds what comes before and after its position, so a "
                        "peak on a space or inside a word can stand for characters on either side, not only the one under the peak."
                      : "an encoder state has read everything to its left: a peak on a space or inside a word is attention to a state "
                        "that already holds what comes before it, not to the one character under the peak.";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lesson_colors().text_dim));
    WrappedText("Two guards before reading a story into this map. %s Second, %s", first_guard(lab, st).c_str(), second.c_str());
    ImGui::PopStyleColor();
}

void ShowAlignment(Lab& lab, AlignmentState& st) {
    follow_task(lab, st);  // before the picker reads the task's held-out split and field
    ShowPicker(lab, st);
    refresh_alignment(lab, st);
    if (!st.analysis) {
        const std::string missing = lab.shipped_errors(date_task(), {DecoderKind::attention});
        ImGui::TextDisabled("%s", missing.empty() ? "Loading the shipped models\u2026" : missing.c_str());
        return;
    }
    if (rows(st) == 0) {  // a reader's model that writes nothing at first: nothing to map
        WrappedText("%s writes nothing for this input (its first token is the end): there is no map to draw.",
                    st.model_label.c_str());
        return;
    }
    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 620;
    const float map_w = narrow ? width : std::min(width - 300 - gap, map_natural_w(output_tokens(st), st.shown_tokens));
    const std::string writes = st.model_label + " writes " + output(st) +
                               (st.shown_target.empty() ? "" : output(st) == st.shown_target ? " (right)" : " (the answer is " + st.shown_target + ")");
    WrappedText("%s.", writes.c_str());
    announce_shown("writes", writes, true);  // another string or model: said (the first one is the figure's to read)
    ImGui::BeginGroup();
    ShowMap(st, map_w);
    ImGui::EndGroup();
    if (!narrow) ImGui::SameLine(0, gap * 3);
    ImGui::BeginGroup();
    ShowPeakTable(st);
    ImGui::EndGroup();
    ShowBars(st, narrow ? width : map_w);
    ShowMove(st, map_w);
    ShowGuards(lab, st);
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

// The move's decoding for window.lookback.state: its output, changed steps and map, or why not.
nlohmann::json moved_json(const AlignmentState& st) {
    if (st.move.step < 0 || !st.what_if) return nullptr;
    const WhatIf& w = *st.what_if;
    const size_t S = st.shown_tokens.size();
    nlohmann::json rows = nlohmann::json::array();
    for (size_t t = 0; S > 0 && t < w.attention.size() / S; ++t)
        rows.push_back(std::vector<float>(w.attention.begin() + long(t * S), w.attention.begin() + long((t + 1) * S)));
    return {{"output", w.output}, {"changed", w.changed}, {"weights", rows}, {"error", w.error}};
}

nlohmann::json state_json(Lab& lab, AlignmentState& st) {
    refresh_alignment(lab, st);
    const int S = int(st.shown_tokens.size());
    nlohmann::json weight_rows = nlohmann::json::array(), peaks = nlohmann::json::array();
    if (st.analysis)
        for (int t = 0; t < rows(st); ++t) {
            weight_rows.push_back(std::vector<float>(weights(st).begin() + t * S, weights(st).begin() + (t + 1) * S));
            const Peak p = peak_of(st, t);
            peaks.push_back({{"output", output_tokens(st)[size_t(t)]}, {"position", p.position},
                             {"input", st.shown_tokens[size_t(p.position)]}, {"weight", p.weight}});
        }
    return {
        {"task", st.task->name}, {"input", st.shown.text}, {"columns", st.shown_tokens}, {"target", st.shown_target},
        {"output", st.analysis ? output(st) : ""}, {"rows", st.analysis ? output_tokens(st) : Tokens{}}, {"example", st.example},
        {"message", on_dates(st) ? st.typed.message : st.typed_other.message}, {"model", st.use_live ? "page" : "shipped"},
        {"model_label", st.model_label}, {"guards", st.analysis ? first_guard(lab, st) : ""},
        {"selected_output", st.selected_output},
        {"weights", weight_rows}, {"bars", weight_rows.empty() ? nlohmann::json(nullptr) : weight_rows[size_t(st.selected_output)]},
        {"peaks", peaks},
        {"move", st.move.step < 0 ? nlohmann::json(nullptr)
                                  : nlohmann::json{{"step", st.move.step}, {"first", st.move.first}, {"last", st.move.last}}},
        {"moved", moved_json(st)},
    };
}

std::string text_alternative(Lab& lab, AlignmentState& st) {
    // Read afresh: the task shown may have changed since the last frame (a reader's replaced one
    // leaves with its runs), and its string with it; an analysis of the old string would not fit.
    refresh_alignment(lab, st);
    if (!st.analysis) return "<p>The shipped models are loading.</p>";
    std::string html = "<p>" + html_escape(st.model_label) + " reads \u201c" + html_escape(st.shown.text) + "\u201d and writes " +
                       html_escape(output(st)) + ". Where each output " + (st.task->output.words ? "token" : "character") +
                       " puts most of its weight:</p>" + table_html(peaks(st));
    if (st.move.step >= 0 && st.what_if) html += move_html(*st.task, st.shown_tokens, st.move, *st.what_if, "");
    const std::string& message = on_dates(st) ? st.typed.message : st.typed_other.message;
    return html + (message.empty() ? "" : "<p>" + html_escape(message) + "</p>");
}

}  // namespace

FigureSpec alignment_figure(Lab& lab, AlignmentState& st) {
    lab.changes.subscribe([] { request_redraw("alignment"); });
    return {
        .name = "alignment",
        .show = [&lab, &st] { ShowAlignment(lab, st); },
        .state = [&lab, &st] { return state_json(lab, st); },
        .text_alternative = [&lab, &st] { return text_alternative(lab, st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
