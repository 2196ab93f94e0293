// web/figures/checked.cpp — figure "checked": a map checked against the alignment its task
// knows. The reader picks a task (dates, reversal, translation) and steps through its held-out
// examples; the shipped attention model's map of each (or, once it has an epoch of that task, the
// attention run the training figure trains, or Figure 8's Transformer reading every encoder state,
// its heads' mean), teacher-forced on the example's target
// (core/models/alignment_check.h), is drawn with output tokens down and input tokens across
// (characters, or a translation's words), coloured by the heatmap shader. The example's known
// alignment is outlined over the cells (sure links solid, possible links dashed) and each row's
// peak dotted; the example's own scores (core's score_alignment) and the native sweep's means
// for every model with a map (assets/alignment-TASK.json), with the diagonal guess, follow. A
// typed input is decoded greedily: it has no known alignment, so nothing is outlined or scored;
// a refused one keeps the last map and says why. URL: ck.task, ck.ex, ck.input, ck.model.
//
// The Lab computes the maps (web/lab/analysis.h's TaskMap) and loads the models and the sweeps
// (web/lab/assets.cpp); this file only draws them.
//
// Legend: T rows (output tokens), S columns (input tokens).
//
// [SECTION] The state and the URL
// [SECTION] Reading the map
// [SECTION] Drawing
// [SECTION] State JSON and text alternative
#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include <imgui.h>

#include "controls.h"
#include "charts.h"
#include "lesson2.h"
#include "map_view.h"
#include "url_setting.h"
#include "text/text.h"

namespace lb::web {

//-----------------------------------------------------------------------------------------------
// [SECTION] The state and the URL
//-----------------------------------------------------------------------------------------------

std::string CheckedState::take(const std::string& text) {
    std::string error;
    std::vector<int> tokens = encode_user_input(*task, text, error);
    if (tokens.empty()) return error;
    typed = {normalise_user_input(*task, text), std::move(tokens)};
    typed_text = typed.text;
    copy_utf8(field, sizeof field, typed_text);
    message.clear();
    return "";
}

CheckedState::CheckedState() {
    // In this order: the example and the input are checked against the task read before them.
    url_task(url, "task", task);
    url.integer("ex", example, 0, [this] { return task->held_out_size - 1; })
        .text("input", typed_text, sizeof field - 1, [this](const std::string& text) { return take(text); })
        .choice("model", source, {{"shipped", Source::shipped}, {"page", Source::attention_here}, {"transformer", Source::transformer_here}});
}

namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Reading the map
//-----------------------------------------------------------------------------------------------

bool typed_shown(const CheckedState& st) { return !st.typed_text.empty(); }

using Source = CheckedState::Source;

// The runs trained in the page that can show this task's maps, in the picker's order.
std::vector<Source> sources_here(const Lab& lab, const Task& task) {
    std::vector<Source> here;
    if (trained(lab.live[1], task)) here.push_back(Source::attention_here);
    if (trained(lab.transformers[1], task)) here.push_back(Source::transformer_here);
    return here;
}

// A task the build shipped no attention model for (one added at run time): the note says so.
bool none_shipped(const Lab& lab, const Task& task) {
    return !lab.find_shipped(task, DecoderKind::attention) && !lab.attention_model_note(task).empty();
}

// The map of what is shown, from the Lab; st.map stays the last one while the model loads.
void refresh_checked(Lab& lab, CheckedState& st) {
    const Task& task = *st.task;
    const std::vector<Source> here = sources_here(lab, task);
    if (std::find(here.begin(), here.end(), st.source) == here.end()) st.source = Source::shipped;
    if (st.source == Source::shipped && !here.empty() && none_shipped(lab, task)) st.source = here.front();
    const ModelRead read = st.source == Source::transformer_here ? read_model(lab.transformers[1], nullptr, task)
                                                                  : read_model(lab.live[1], lab.attention_model(task), task,
                                                                               st.source == Source::attention_here);
    st.error.clear();
    st.read = read;
    if (!read.model) {
        st.map = nullptr;
        const std::string note = lab.attention_model_note(task);
        st.error = note.empty() ? "Loading the shipped attention model for " + task.name + "\u2026"
                   : none_shipped(lab, task) ? note + ". Train one in Figure 3, or the Transformers in Figure 8: its map shows here after its first epoch."
                                             : note;
        return;
    }
    try {
        if (typed_shown(st)) {
            st.map = lab.analyses.typed_task_map(read, st.typed);
        } else {
            const std::vector<Example>& held_out = lab.held_out(task);
            const int n = int(held_out.size());
            st.example = ((st.example % n) + n) % n;
            st.map = lab.analyses.forced_task_map(read, held_out[size_t(st.example)]);
        }
    } catch (const std::exception& e) {  // a model that fails to decode: said, never thrown to the page
        st.map = nullptr;
        st.error = lb::sanitize_utf8(std::string("The map could not be read: ") + e.what());
    }
    const char* heads = st.source == Source::transformer_here ? ", its heads' mean" : "";
    st.model_label = read.run ? "The " + model_label(read.model->config) + " model trained in this page (width " +
                                    std::to_string(read.model->config.H) + ", epoch " + std::to_string(read.run->epoch()) + heads + ")"
                              : "The shipped attention model for " + task.name + " (" + lab.attention_model_note(task) + ")";
}

// Row t's peak: its largest weight, the lowest position on a tie (as core's scores take it).
Peak peak_of(const TaskMap& m, int t) {
    const size_t S = m.columns.size();
    return row_peak(std::span<const float>(m.attention).subspan(size_t(t) * S, S));
}

// As drawn in a sentence: a word, or the text, that opens with a mark has it on a dotted circle.
std::string joined_for_drawing(const std::vector<std::string>& tokens, bool words) {
    if (!words) return token_for_drawing(joined(tokens, false));
    std::vector<std::string> drawn;
    for (const std::string& t : tokens) drawn.push_back(token_for_drawing(t));
    return joined(drawn, true);
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------------------------

// Outline colours that read on every cell of the sequential map: white on a dark edge.
constexpr ImU32 outline_light = IM_COL32(255, 255, 255, 255), outline_dark = IM_COL32(0, 0, 0, 220);

void AddDashedLine(ImDrawList& draw, ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
    const float length = std::hypot(b.x - a.x, b.y - a.y), dash = 3;
    for (float s = 0; s < length; s += 2 * dash) {
        const float e = std::min(length, s + dash);
        draw.AddLine({a.x + (b.x - a.x) * s / length, a.y + (b.y - a.y) * s / length},
                     {a.x + (b.x - a.x) * e / length, a.y + (b.y - a.y) * e / length}, color, thickness);
    }
}

// A link's outline inside the cell [a, b]: solid for a sure link, dashed for a possible one.
void AddLinkOutline(ImDrawList& draw, ImVec2 a, ImVec2 b, bool sure) {
    a = {a.x + 2, a.y + 2}, b = {b.x - 2, b.y - 2};
    if (sure) {
        draw.AddRect(a, b, outline_dark, 0, 0, 3.5f);
        draw.AddRect(a, b, outline_light, 0, 0, 1.5f);
        return;
    }
    const ImVec2 corners[] = {a, {b.x, a.y}, b, {a.x, b.y}, a};
    for (int pass = 0; pass < 2; ++pass)
        for (int k = 0; k < 4; ++k)
            AddDashedLine(draw, corners[k], corners[k + 1], pass ? outline_light : outline_dark, pass ? 1.5f : 3.5f);
}

void AddPeakDot(ImDrawList& draw, ImVec2 centre) {
    draw.AddCircleFilled(centre, 3.5f, outline_dark);
    draw.AddCircleFilled(centre, 2.0f, outline_light);
}

// The shipped model or a run trained here; a run is offered once it has an epoch of this task.
// Nothing for a task with neither (the note below the picker says how to get one).
void ShowSourcePicker(const Lab& lab, CheckedState& st, bool same_line) {
    const std::vector<Source> here = sources_here(lab, *st.task);
    if (here.empty() && none_shipped(lab, *st.task)) return;
    if (same_line) ImGui::SameLine();
    if (here.empty()) {
        bool none = false;
        ShowModelSource(none, false);  // the choice is there, not yet open
        return;
    }
    std::vector<Source> sources = here;
    if (!none_shipped(lab, *st.task)) sources.insert(sources.begin(), Source::shipped);
    std::vector<std::string> labels;
    int chosen = 0;
    for (Source s : sources) {
        if (s == st.source) chosen = int(labels.size());
        labels.push_back(s == Source::shipped ? "shipped model" : s == Source::attention_here ? "trained here" : "Transformer trained here");
    }
    if (RadioGroup("model-source", "model", chosen, labels)) st.source = sources[size_t(chosen)];
}

void ShowPicker(Lab& lab, CheckedState& st) {
    const Task* before = st.task;
    std::vector<std::string> names;  // widgets task-dates, task-reversal ...
    int chosen = 0;
    for (const Task* t : tasks()) {
        if (t == st.task) chosen = int(names.size());
        names.push_back(t->name);
    }
    if (RadioGroup("task", "task", chosen, names)) st.task = tasks()[size_t(chosen)];
    if (st.task != before) {  // a typed input belongs to its task
        st.typed_text.clear();
        st.field[0] = 0;
        st.message.clear();
    }
    const int n = int(lab.held_out(*st.task).size());
    // An arrow steps through the held-out examples; from a typed input it goes back to the last one.
    const auto step = [&st](int by) {
        if (!typed_shown(st)) st.example += by;
        st.typed_text.clear();
        st.message.clear();
    };
    if (Button("\u2190", "previous", "previous held-out example")) step(-1);
    ImGui::SameLine();
    if (Button("\u2192", "next", "next held-out example")) step(1);
    ImGui::SameLine();
    st.example = ((st.example % n) + n) % n;
    if (typed_shown(st)) ImGui::TextDisabled("your input");  // an arrow goes back to the held-out examples
    else ImGui::TextDisabled("held-out example %s of %s", grouped(st.example + 1).c_str(), grouped(n).c_str());

    const float avail = ImGui::GetContentRegionAvail().x;
    ImGui::SetNextItemWidth(std::min(340.0f, avail - 70));
    const std::string field_name = input_field_name(*st.task);
    const bool entered = TextField("##input", "input", st.field, sizeof st.field, field_name.c_str(), 0, st.task->example_input.c_str());
    ImGui::SameLine();
    if (Button("Show", "show", "Show the typed input") || entered) {
        const std::string error = st.take(st.field);
        if (!error.empty()) st.message = lb::sanitize_utf8("Not shown: " + error + ". The map below is still the last one.");
        if (!error.empty()) announce(st.message);
    }
    ShowSourcePicker(lab, st, avail > 560);
    if (!st.message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().error);
        WrappedText("%s", st.message.c_str());
        ImGui::PopStyleColor();
        record_rect("message");
    }
}

// The map: output tokens down the left, input tokens across the top (a word upwards), the known
// links outlined and each row's peak dotted; hover a cell for its weight and link.
void ShowMap(CheckedState& st, const TaskMap& m, float width) {
    const LessonColors& col = lesson_colors();
    const int T = int(m.rows.size()), S = int(m.columns.size());
    check_map_shape("map", m.attention.size(), T, S);
    const bool words = st.task->input.words;
    float row_w = 0, col_h = 0;
    for (const std::string& r : m.rows) row_w = std::max(row_w, ImGui::CalcTextSize(shown_token(r).c_str()).x);
    for (const std::string& c : m.columns) col_h = std::max(col_h, ImGui::CalcTextSize(shown_token(c).c_str()).x);
    const float line = ImGui::GetTextLineHeight(), label_w = row_w + 8;
    const float cell_w = std::clamp((width - label_w) / float(S), 8.0f, words ? 40.0f : 26.0f);
    const float cell_h = T > 16 ? 17.0f : map_cell_h;
    const float head_h = (words ? col_h : line) + 4;
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 map_min = {origin.x + label_w, origin.y + head_h};
    for (int j = 0; j < S; ++j) {
        const std::string c = shown_token(m.columns[size_t(j)]);
        const ImU32 ink = c == "\u00b7" ? col.text_dim : col.text;
        const float centre = map_min.x + (j + 0.5f) * cell_w;
        if (words) AddTextUpward(draw, origin, {centre - line / 2, map_min.y - 3}, ink, c);
        else draw.AddText({centre - ImGui::CalcTextSize(c.c_str()).x / 2, origin.y}, ink, c.c_str());
    }
    for (int t = 0; t < T; ++t) {
        const std::string r = shown_token(m.rows[size_t(t)]);
        draw.AddText({map_min.x - 6 - ImGui::CalcTextSize(r.c_str()).x, map_min.y + t * cell_h + (cell_h - line) / 2}, col.text, r.c_str());
    }
    ImGui::SetCursorScreenPos(map_min);
    const HeatmapHit hit = Heatmap("map", m.attention, T, S, {S * cell_w, T * cell_h}, Colormap::sequential, 0, 1);
    record_rect("map");
    const auto cell_name = [&](int t, int j) {  // for the keyboard: a grid whose cells say weight and link
        std::string link;
        for (const AlignmentLink& l : m.links)
            if (l.output == t && l.input == j) link = l.sure ? "; a sure link" : "; a possible link";
        return "output " + std::to_string(t) + ", " + quoted_token(m.rows[size_t(t)]) + "; input " + std::to_string(j) + ", " +
               quoted_token(m.columns[size_t(j)]) + "; weight " + fixed(m.attention[size_t(t * S + j)], 2) + link;
    };
    Grid("map", "attention map: output tokens in rows, input tokens in columns, with the task's known links", T, S, map_min,
         {cell_w, cell_h}, cell_name);
    const auto cell = [&](int t, int j) { return ImVec2{map_min.x + j * cell_w, map_min.y + t * cell_h}; };
    st.outlines.clear();
    for (const AlignmentLink& link : m.links) {
        if (link.output >= T || link.input >= S) continue;  // never: the links are the map's
        const ImVec2 a = cell(link.output, link.input);
        AddLinkOutline(draw, a, {a.x + cell_w, a.y + cell_h}, link.sure);
        st.outlines.push_back({link.output, link.input, link.sure});
    }
    for (int t = 0; t < T; ++t) {
        const ImVec2 a = cell(t, peak_of(m, t).position);
        AddPeakDot(draw, {a.x + cell_w / 2, a.y + cell_h / 2});
    }
    if (hit.row >= 0) {
        std::string link = m.forced ? "\nno link" : "";
        for (const AlignmentLink& l : m.links)
            if (l.output == hit.row && l.input == hit.col) link = l.sure ? "\na sure link" : "\na possible link";
        ImGui::SetTooltip("output %d, %s \u2190 input %d, %s\nweight %.4f%s", hit.row,
                          quoted_token(token_for_drawing(m.rows[size_t(hit.row)])).c_str(), hit.col,
                          quoted_token(token_for_drawing(m.columns[size_t(hit.col)])).c_str(), m.attention[size_t(hit.row * S + hit.col)],
                          link.c_str());
    }
}

// The legend: a swatch of each mark, drawn as the map draws it.
void ShowLegend(const TaskMap& m) {
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float line = ImGui::GetTextLineHeight(), box = line + 4;
    const auto swatch = [&](const char* label, int kind) {
        const ImVec2 a = ImGui::GetCursorScreenPos();
        draw.AddRectFilled(a, {a.x + box, a.y + box}, IM_COL32(59, 82, 139, 255));  // a mid-low cell of the map's colours
        if (kind < 2) AddLinkOutline(draw, a, {a.x + box, a.y + box}, kind == 0);
        else AddPeakDot(draw, {a.x + box / 2, a.y + box / 2});
        ImGui::Dummy({box, box});
        ImGui::SameLine();
        ImGui::TextUnformatted(label);
    };
    if (m.forced && !m.links.empty()) {  // only the kinds of link the example has (a reversal has no possible link)
        const bool possible = std::any_of(m.links.begin(), m.links.end(), [](const AlignmentLink& l) { return !l.sure; });
        swatch("sure link", 0);
        if (possible) {
            SameLineIfRoom(box + ImGui::CalcTextSize("possible link").x + 24);
            swatch("possible link", 1);
        }
        SameLineIfRoom(box + ImGui::CalcTextSize("each row's peak").x + 24);
    }
    swatch("each row's peak", 2);
}

void ShowExampleScores(const CheckedState& st, const TaskMap& m, bool aligned) {
    const bool words = st.task->output.words;
    if (!m.forced) {
        WrappedText("Greedy decoding of your input: it writes \u201c%s\u201d; row t is where the model looks while it writes its own token t. "
                    "A typed input has no known alignment, so nothing is outlined or scored.", token_for_drawing(m.written).c_str());
        return;
    }
    const AlignmentCounts& c = m.scores;
    const std::string target = joined(m.rows, words);
    WrappedText("Teacher-forced on the target \u201c%s\u201d: row t is where the model looks while it writes target token t. "
                "Left alone, it writes \u201c%s\u201d%s.", joined_for_drawing(m.rows, words).c_str(), token_for_drawing(m.written).c_str(),
                m.written == target ? " (right)" : " (wrong)");
    if (!aligned) {
        WrappedText("No alignments given: the task's pairs say nothing of which input token each output token comes from, so "
                    "the map is drawn but not scored.");
        return;
    }
    WrappedText("This example, over the %d of its %d rows that have a link: peak on a link %d of %d, within one position %d of %d, "
                "mass on links %s, AER %s.", c.steps, int(m.rows.size()), c.peak_hits, c.steps, c.peak_near_hits, c.steps,
                c.steps ? fixed(c.linked_mass / c.steps, 2).c_str() : "\u2014", fixed(alignment_error_rate(c), 3).c_str());
}

std::string score_text(double v, int digits) { return std::isnan(v) ? "\u2014" : fixed(v, digits); }

// Every model's mean scores on the task (the native alignment sweep), the diagonal guess dimmed.
FigureTable scores_table(const AlignmentSweep& sweep) {
    FigureTable table{.id = "sweep-table", .name = "Every model's scores on this task, mean of " + std::to_string(sweep.seeds) + " seeds",
                      .columns = {{"map"}, {"AER"}, {"peak on a link", "peak"}, {"within one", "\u00b11"}, {"mass on links", "mass"}}};
    for (const AlignmentSweepRow& r : sweep.rows)
        table.rows.push_back({{r.model, "", r.model == "diagonal guess"}, score_text(r.aer, 3), score_text(r.peak_hit, 3),
                              score_text(r.peak_near, 3), score_text(r.mass, 3)});
    return table;
}

void ShowSweepTable(Lab& lab, const CheckedState& st, float width) {
    const AlignmentSweep& sweep = lab.alignment_sweep(*st.task);
    if (!sweep.note.empty()) {
        DimTextWrapped(("Every model on this task: " + sweep.note + ".").c_str());
        return;
    }
    const std::string title = "Every model with a map on the " + grouped(sweep.held_out) + " held-out examples, mean of " +
                              std::to_string(sweep.seeds) + " seeds, " + std::to_string(sweep.epochs) + " epochs (lookback sweep --alignment):";
    WrappedText("%s", title.c_str());
    const bool narrow = width < 480;
    ShowTable(scores_table(sweep), {.narrow = narrow});
    if (narrow) DimTextWrapped("peak: peak on a link; \u00b11: within one position; mass: mass on links.");
}

void ShowChecked(Lab& lab, CheckedState& st) {
    ShowPicker(lab, st);
    refresh_checked(lab, st);
    const bool aligned = lab.knows_alignment(*st.task);
    const float width = ImGui::GetContentRegionAvail().x;
    if (!st.map) {
        st.outlines.clear();
        DimTextWrapped(st.error.c_str());
        record_rect("note");
    } else {
        const TaskMap& m = *st.map;
        WrappedText("%s reads \u201c%s\u201d.", st.model_label.c_str(), joined_for_drawing(m.columns, st.task->input.words).c_str());
        if (m.rows.empty()) {
            st.outlines.clear();
            WrappedText("It writes nothing before its end token: there is no row to draw.");
        } else if (ShowMapOrError("map", [&] { ShowMap(st, m, std::min(width, 720.0f)); })) {
            ShowLegend(m);
        } else {
            st.outlines.clear();
        }
        ShowExampleScores(st, m, aligned);
        if (st.read.model) DimTextWrapped(encoder_note(st.read.model->config).c_str());
    }
    if (st.read.model) {
        ImGui::Spacing();
        ShowHeldOutList(lab, st, st.read, width);
    }
    ImGui::Spacing();
    ShowSweepTable(lab, st, width);
    if (aligned)
        DimTextWrapped((std::string("AER = 1 \u2212 (|A\u2229S| + |A\u2229P|) / (|A| + |S|), A each scored row's peak, S the sure links, "
                                    "P all links; rows whose token has no link") +
                        (date_dial(*st.task) ? " (a date's dashes)" : "") + " are not scored. The diagonal guess is a map no model made.")
                           .c_str());
}

//-----------------------------------------------------------------------------------------------
// [SECTION] State JSON and text alternative
//-----------------------------------------------------------------------------------------------

nlohmann::json scores_json(const AlignmentCounts& c) {
    return {{"steps", c.steps}, {"peak_hits", c.peak_hits}, {"peak_near_hits", c.peak_near_hits},
            {"linked_mass", c.linked_mass}, {"hard_on_sure", c.hard_on_sure}, {"hard_on_possible", c.hard_on_possible},
            {"sure_links", c.sure_links}, {"aer", alignment_error_rate(c)}};
}

nlohmann::json state_json(Lab& lab, CheckedState& st) {
    refresh_checked(lab, st);
    nlohmann::json weights = nlohmann::json::array(), links = nlohmann::json::array(), outlines = nlohmann::json::array(),
                   table = nlohmann::json::array();
    const TaskMap* m = st.map.get();
    if (m) {
        const size_t S = m->columns.size();
        for (size_t t = 0; t < m->rows.size(); ++t)
            weights.push_back(std::vector<float>(m->attention.begin() + long(t * S), m->attention.begin() + long((t + 1) * S)));
        for (const AlignmentLink& l : m->links) links.push_back({{"output", l.output}, {"input", l.input}, {"sure", l.sure}});
    }
    nlohmann::json row_labels = nlohmann::json::array(), column_labels = nlohmann::json::array();
    if (m) {
        for (const std::string& r : m->rows) row_labels.push_back(shown_token(r));
        for (const std::string& c : m->columns) column_labels.push_back(shown_token(c));
    }
    for (const CheckedState::Outline& o : st.outlines) outlines.push_back({{"row", o.row}, {"col", o.col}, {"sure", o.sure}});
    const AlignmentSweep& sweep = lab.alignment_sweep(*st.task);
    const auto number = [](double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); };
    for (const AlignmentSweepRow& r : sweep.rows)
        table.push_back({{"model", r.model}, {"aer", number(r.aer)}, {"peak_hit_rate", number(r.peak_hit)},
                         {"peak_near_rate", number(r.peak_near)}, {"linked_mass", number(r.mass)}});
    // "unavailable", not "error": the runtime answers {"error": ...} for a figure whose state threw.
    return {
        {"task", st.task->name}, {"example", st.example}, {"typed", typed_shown(st)}, {"input_text", st.typed_text},
        {"message", st.message}, {"unavailable", st.error}, {"model_label", st.model_label},
        {"model", st.source == Source::shipped ? "shipped" : st.source == Source::attention_here ? "page" : "transformer"},
        {"rows", m ? nlohmann::json(m->rows) : nlohmann::json::array()},
        {"columns", m ? nlohmann::json(m->columns) : nlohmann::json::array()},
        // The labels as the map draws them (shown_token); "rows" and "columns" keep the tokens.
        {"row_labels", row_labels}, {"column_labels", column_labels},
        {"weights", weights}, {"written", m ? m->written : ""}, {"forced", m && m->forced},
        {"links", links}, {"outlines", outlines},
        {"aligned", lab.knows_alignment(*st.task)},
        {"scores", m && m->forced && lab.knows_alignment(*st.task) ? scores_json(m->scores) : nlohmann::json(nullptr)},
        {"table", table}, {"table_note", sweep.note}, {"seeds", sweep.seeds}, {"epochs", sweep.epochs},
        {"held_out_list", held_out_list_json(lab, st)},
    };
}

std::string text_alternative(Lab& lab, CheckedState& st) {
    refresh_checked(lab, st);  // st.read may name a run the Lab has since let go (a reader's task replaced)
    if (!st.map) return "<p>" + html_escape(st.error) + "</p>";
    const TaskMap& m = *st.map;
    const bool words = st.task->input.words;
    std::string html = "<p>" + html_escape(st.model_label) + " reads \u201c" + html_escape(joined(m.columns, words)) + "\u201d";
    html += m.forced ? ", teacher-forced on its target \u201c" + html_escape(joined(m.rows, st.task->output.words)) + "\u201d."
                     : " and writes \u201c" + html_escape(m.written) + "\u201d. A typed input has no known alignment, so nothing is outlined or scored.";
    // Each row's peak, and where the task knows them, its links.
    FigureTable peaks = peak_table("peaks", "each output's peak", m.rows, m.columns, m.attention);
    const bool aligned = lab.knows_alignment(*st.task);
    if (m.forced && aligned) {
        peaks.columns.push_back({"its links (sure; possible)"});
        for (size_t t = 0; t < m.rows.size(); ++t) {
            std::string sure, possible;
            for (const AlignmentLink& l : m.links) {
                if (l.output != int(t)) continue;
                std::string& list = l.sure ? sure : possible;
                list += (list.empty() ? "" : ", ") + std::to_string(l.input);
            }
            peaks.rows[t].push_back((sure.empty() ? std::string("\u2014") : sure) + "; " + (possible.empty() ? std::string("\u2014") : possible));
        }
    }
    html += " Where each output token puts most of its weight:</p>" + table_html(peaks);
    if (m.forced && !aligned) html += "<p>No alignments given: the map is not scored.</p>";
    if (m.forced && aligned) {
        const AlignmentCounts& c = m.scores;
        html += "<p>This example, over the " + std::to_string(c.steps) + " rows with a link: peak on a link " + std::to_string(c.peak_hits) +
                ", within one position " + std::to_string(c.peak_near_hits) + ", AER " + fixed(alignment_error_rate(c), 3) + ".</p>";
    }
    const AlignmentSweep& sweep = lab.alignment_sweep(*st.task);
    if (sweep.note.empty()) {
        const FigureTable scores = scores_table(sweep);
        html += table_html(scores, scores.name);
    } else {
        html += "<p>" + html_escape(sweep.note) + "</p>";
    }
    return html + held_out_list_text(lab, st) + (st.message.empty() ? "" : "<p>" + html_escape(st.message) + "</p>");
}

}  // namespace

FigureSpec checked_figure(Lab& lab, CheckedState& st) {
    lab.changes.subscribe([] { request_redraw("checked"); });
    return {
        .name = "checked",
        .show = [&lab, &st] { ShowChecked(lab, st); },
        .state = [&lab, &st] { return state_json(lab, st); },
        .text_alternative = [&lab, &st] { return text_alternative(lab, st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
