// web/views/map_view.h — an attention matrix as the figures show it: the heatmap widget
// (web/runtime/heatmap.h) with the columns' characters across the top, the rows' characters down
// the left (each a button that selects its row), every row's peak outlined, the selected row
// framed and a tooltip with the weight under the mouse; and the selected row as bars with its
// peak marked; and the date field a reader types into, refused with the reason when the models
// cannot read it; a moved step's attention and what the decoder writes after it. The GRU
// alignment figure and the Transformer's maps share it. Inline: used by
// several figure files.
//
// Legend: R rows (output characters, or input characters for a self-attention map), C columns
// (input characters).
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <imgui.h>

#include "analysis.h"
#include "controls.h"
#include "data/task.h"
#include "data/dataset.h"
#include "figure.h"
#include "figure_table.h"
#include "heatmap.h"
#include "models/registry.h"
#include "page_text.h"
#include "text/text.h"
#include "theme.h"

namespace lb::web {

// A token as a map says it: '1', or "space" (not `quoted`: std::quoted would be found for a string).
inline std::string spoken(const std::string& t) { return t == " " ? "space" : "'" + t + "'"; }
inline std::string quoted(char c) { return spoken(std::string(1, c)); }
// A token (a character or a word) as a table quotes it: ‘1’, or "space".
inline std::string quoted_token(const std::string& t) { return t == " " ? "space" : "\u2018" + t + "\u2019"; }
// A token as a map or bars label it: a space as a dot, a lone mark on its dotted circle.
inline std::string shown_token(const std::string& t) { return t == " " ? "\u00b7" : token_for_drawing(t); }
inline std::string shown_char(char c) { return shown_token(std::string(1, c)); }
// A string's characters as tokens.
using Tokens = std::vector<std::string>;
inline Tokens char_tokens(std::string_view text) {
    Tokens tokens;
    for (char c : text) tokens.emplace_back(1, c);
    return tokens;
}

struct Peak {
    int position;
    float weight;
};
// The largest weight of a row (the first of equals).
inline Peak row_peak(std::span<const float> row) {
    Peak p{0, -1};
    for (size_t j = 0; j < row.size(); ++j)
        if (row[j] > p.weight) p = {int(j), row[j]};
    return p;
}

// Where each output token puts most of its weight, as a table: a row per output token ("3 ‘1’"),
// its peak's position, the input token there and the weight. `weights` holds a row of
// inputs.size() per output. The alignment figure draws it; the alignment, checked and
// Transformer figures' text alternatives write it.
inline FigureTable peak_table(std::string id, std::string name, const std::vector<std::string>& outputs,
                              const std::vector<std::string>& inputs, std::span<const float> weights) {
    FigureTable table{.id = std::move(id), .name = std::move(name),
                      .columns = {{"output"}, {"peak at"}, {"input there"}, {"weight"}}};
    const size_t S = inputs.size();
    for (size_t t = 0; t < outputs.size() && S > 0; ++t) {
        const Peak p = row_peak(weights.subspan(t * S, S));
        table.rows.push_back({std::to_string(t) + " " + quoted_token(outputs[t]), std::to_string(p.position),
                              quoted_token(inputs[size_t(p.position)]), fixed(p.weight, 3)});
    }
    return table;
}

// What a map's parts are called: the widget names tests click (`map`, `row_prefix` + r) and the
// word for a row in the tooltip ("output", "input").
struct MapNames {
    const char* map;
    const char* row_prefix;
    const char* row_word;
};

// 24 px: a row's button, the pointer's way to choose a row where cells are narrower, is a 24 × 24
// target (WCAG 2.2, 2.5.8).
constexpr float map_label_w = 24, map_cell_h = 24;

// How a row of tokens is labelled under or above its cells: across, or upwards when they are
// words and one is wider than its cell (a character stays upright, as narrow as the cells get);
// `across` is its height when across.
struct AxisLabels {
    float widest = 0;
    bool upward = false;
    float height(float across) const { return upward ? widest + 4 : across; }
};
inline AxisLabels axis_labels(const Tokens& tokens, float cell_w) {
    AxisLabels a;
    bool words = false;
    for (const std::string& t : tokens) {
        a.widest = std::max(a.widest, ImGui::CalcTextSize(shown_token(t).c_str()).x);
        words = words || (!t.empty() && utf8_char_length(t, 0) < t.size());
    }
    a.upward = words && a.widest > cell_w - 2;
    return a;
}
// The widest a column of a map whose labels are `cols` gets: 26 px for characters, 40 for words.
inline float map_column_cap(const Tokens& cols) {
    bool words = false;
    for (const std::string& t : cols) words = words || ImGui::CalcTextSize(shown_token(t).c_str()).x > 24;
    return words ? 40.0f : 26.0f;
}
inline float map_column_w(float width, float label_w, const Tokens& cols) {
    return std::clamp((width - label_w) / float(std::max<size_t>(cols.size(), 1)), 8.0f, map_column_cap(cols));
}
// The width of the rows' labels, each a button choosing its row: the widest label and a margin.
inline float map_label_width(const Tokens& rows) {
    float widest = 0;
    for (const std::string& r : rows) widest = std::max(widest, ImGui::CalcTextSize(shown_token(r).c_str()).x);
    return std::max(map_label_w, widest + 8);
}
// The width a map of `rows` by `cols` takes with its columns at their widest.
inline float map_natural_w(const Tokens& rows, const Tokens& cols) {
    return map_label_width(rows) + map_column_cap(cols) * float(cols.size());
}

// `text` written upwards from `at` (a quarter turn anticlockwise): a column's word. Laid out first
// at `room`, a point with the text's width free to its right inside the clip rectangle (ImGui
// drops glyphs past it), then turned into place.
inline void AddTextUpward(ImDrawList& draw, ImVec2 room, ImVec2 at, ImU32 color, const std::string& text) {
    const int first = draw.VtxBuffer.Size;
    draw.AddText(room, color, text.c_str());
    for (int i = first; i < draw.VtxBuffer.Size; ++i) {
        ImVec2& p = draw.VtxBuffer[i].pos;
        const ImVec2 d = {p.x - room.x, p.y - room.y};
        p = {at.x + d.y, at.y - d.x};  // (dx, dy) → (dy, −dx): along the text is up the screen
    }
}

// A column's label centred on `centre`: across with its top at `top`, or upwards ending at
// `bottom` (`room` as AddTextUpward's).
inline void AddColumnLabel(ImDrawList& draw, const AxisLabels& a, ImVec2 room, float centre, float top, float bottom, ImU32 ink,
                           const std::string& label) {
    if (a.upward) AddTextUpward(draw, room, {centre - ImGui::GetTextLineHeight() / 2, bottom}, ink, label);
    else draw.AddText({centre - ImGui::CalcTextSize(label.c_str()).x / 2, top}, ink, label.c_str());
}

// A cell of a map as a screen reader says it: "output 8, '1'; input 7, '1'; weight 0.67", and in
// a self-attention map "input 2, 'n' reads input 7, '1'; weight 0.10".
inline std::string map_cell_name(const MapNames& names, const Tokens& rows, const Tokens& cols,
                                 std::span<const float> weights, int r, int c) {
    const char* joint = std::string_view(names.row_word) == "input" ? " reads input " : "; input ";
    return std::string(names.row_word) + " " + std::to_string(r) + ", " + spoken(rows[size_t(r)]) + joint + std::to_string(c) +
           ", " + spoken(cols[size_t(c)]) + "; weight " + fixed(weights[size_t(r) * cols.size() + size_t(c)], 2);
}

// Draws a map with `draw`, which checks its matrices' shapes before it draws anything (heatmap.h's
// check_map_shape); one refused is said in the map's place, in the error colour (widget `id`-error),
// and false returned: the figure reads nothing past the matrix and draws on.
template <class Draw>
bool ShowMapOrError(std::string_view id, Draw&& draw) {
    try {
        draw();
        return true;
    } catch (const MapShapeError& e) {
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().error);
        WrappedText("This map cannot be drawn: %s.", e.what());
        ImGui::PopStyleColor();
        record_rect(std::string(id) + "-error");
        return false;
    }
}

// `weights` [R, C] (R = rows.size(), C = cols.size(): tokens, a date's characters or a task's
// words); a click on a row's label or a cell, or Enter on a cell of its grid (controls.h, named
// `grid_name`), sets `selected`. Words across the top are written upwards. Throws MapShapeError
// before drawing for weights of another size (ShowMapOrError says it).
inline void ShowWeightMap(const MapNames& names, const Tokens& rows, const Tokens& cols,
                          std::span<const float> weights, int& selected, float width, const std::string& grid_name) {
    const LessonColors& col = lesson_colors();
    const int R = int(rows.size()), C = int(cols.size());
    check_map_shape(names.map, weights.size(), R, C);
    const int chosen_before = selected;
    const float label_w = map_label_width(rows);
    const float cell_w = map_column_w(width, label_w, cols), cell_h = map_cell_h;
    const float line = ImGui::GetTextLineHeight();
    const AxisLabels top = axis_labels(cols, cell_w);
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float head_h = top.height(line + 2);
    // The columns' tokens across the top.
    for (int j = 0; j < C; ++j)
        AddColumnLabel(draw, top, origin, origin.x + label_w + (j + 0.5f) * cell_w, origin.y, origin.y + head_h - 2,
                       cols[size_t(j)] == " " ? col.text_dim : col.text, shown_token(cols[size_t(j)]));
    ImGui::Dummy({label_w + C * cell_w, head_h});
    const ImVec2 map_min = {origin.x + label_w, origin.y + head_h + ImGui::GetStyle().ItemSpacing.y};
    // The rows' tokens down the left: each a button that selects the row.
    ImGui::PushID(names.map);
    for (int t = 0; t < R; ++t) {
        ImGui::SetCursorScreenPos({origin.x, map_min.y + t * cell_h});
        ImGui::PushID(t);
        if (ImGui::InvisibleButton("row", {label_w, cell_h})) selected = t;
        record_rect(names.row_prefix + std::to_string(t));
        ImGui::PopID();
        const std::string c = shown_token(rows[size_t(t)]);
        if (t == selected) draw.AddRectFilled({origin.x, map_min.y + t * cell_h}, {origin.x + label_w - 2, map_min.y + (t + 1) * cell_h}, col.highlight);
        draw.AddText({origin.x + (label_w - ImGui::CalcTextSize(c.c_str()).x) / 2, map_min.y + t * cell_h + (cell_h - line) / 2}, col.text, c.c_str());
    }
    ImGui::PopID();
    ImGui::SetCursorScreenPos(map_min);
    const HeatmapHit hit = Heatmap(names.map, weights, R, C, {C * cell_w, R * cell_h}, Colormap::sequential, 0, 1);
    if (hit.clicked) selected = hit.row;
    const auto name = [&](int r, int c) { return map_cell_name(names, rows, cols, weights, r, c); };
    if (const auto cell = Grid(names.map, grid_name, R, C, map_min, {cell_w, cell_h}, name, selected)) selected = cell->row;
    // A row the reader chose (a click or Enter), said with its peak.
    if (selected != chosen_before && selected >= 0 && selected < R) {
        const Peak p = row_peak(weights.subspan(size_t(selected * C), size_t(C)));
        announce(std::string(names.row_word) + " " + std::to_string(selected) + ", " + spoken(rows[size_t(selected)]) +
                 ": its peak is input " + std::to_string(p.position) + ", " + spoken(cols[size_t(p.position)]) + ", weight " +
                 fixed(p.weight, 2));
    }
    // Each row's peak outlined; the selected row framed.
    for (int t = 0; t < R; ++t) {
        const Peak p = row_peak(weights.subspan(size_t(t * C), size_t(C)));
        const ImVec2 a = {map_min.x + p.position * cell_w, map_min.y + t * cell_h};
        draw.AddRect({a.x + 1, a.y + 1}, {a.x + cell_w - 1, a.y + cell_h - 1}, IM_COL32(255, 255, 255, 200), 0, 0, 1.5f);
    }
    draw.AddRect({map_min.x - 1, map_min.y + selected * cell_h}, {map_min.x + C * cell_w + 1, map_min.y + (selected + 1) * cell_h},
                 col.decoder, 0, 0, 2);
    const auto tip = [&](int r, int c) {
        char text[160];
        std::snprintf(text, sizeof text, "%s %d, %s \u2190 input %d, %s\nweight %.4f", names.row_word, r, spoken(rows[size_t(r)]).c_str(), c,
                      spoken(cols[size_t(c)]).c_str(), weights[size_t(r * C + c)]);
        return std::string(text);
    };
    if (hit.row >= 0) {
        ImGui::SetTooltip("%s", tip(hit.row, hit.col).c_str());
    } else if (const auto f = focused_cell(names.map); f && f->row < R && f->col < C) {
        // The keyboard's cell says its weight as the mouse's does: as text beside it (kept inside
        // the canvas), not by its colour alone.
        const std::string text = tip(f->row, f->col);
        const float w = ImGui::CalcTextSize(text.c_str()).x + 2 * ImGui::GetStyle().WindowPadding.x;
        ImGui::SetNextWindowPos({std::max(0.0f, std::min(map_min.x + (f->col + 1) * cell_w + 4, ImGui::GetIO().DisplaySize.x - w)),
                                 map_min.y + (f->row + 1) * cell_h + 4});
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(text.c_str());
        record_rect(std::string(names.map) + "-tip");
        ImGui::EndTooltip();
    }
}

// Which model a map reads: the shipped one, or the one trained in the page once `available`.
// The widgets tests click: model-source-shipped model, model-source-trained here.
inline void ShowModelSource(bool& use_live, bool available) {
    ImGui::BeginDisabled(!available);
    int source = use_live ? 1 : 0;
    static const std::string sources[] = {"shipped model", "trained here"};
    RadioGroup("model-source", "model", source, sources);
    ImGui::EndDisabled();
    use_live = source == 1;
}

// One row's weights over `cols` as bars, the peak in the decoder's colour, each labelled with its
// token (a word upwards). Given `chosen`, the
// bars take a click on one (a position) or a drag across several (a span), shaded while the
// button is held: on release *chosen holds the first and last position. For the keyboard the
// bars are a grid of one row (controls.h) named `name`: Enter on a bar chooses its position.
inline void ShowWeightBars(const char* id, const Tokens& cols, std::span<const float> row, float width,
                           const std::string& name, std::optional<std::pair<int, int>>* chosen = nullptr) {
    const LessonColors& col = lesson_colors();
    const int C = int(cols.size());
    const Peak peak = row_peak(row);
    const float label_w = map_label_w, cell_w = map_column_w(width, label_w, cols);
    const AxisLabels below = axis_labels(cols, cell_w);
    const float line = ImGui::GetTextLineHeight(), height = 90, labels_h = below.height(line + 4);
    ImGui::InvisibleButton(id, {width, height + labels_h});
    record_rect(id);
    const ImVec2 min = ImGui::GetItemRectMin();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float base = min.y + height;
    if (chosen) {
        const int under = std::clamp(int((ImGui::GetIO().MousePos.x - min.x - label_w) / cell_w), 0, C - 1);
        ImGuiStorage& storage = *ImGui::GetStateStorage();
        const ImGuiID start_id = ImGui::GetID("drag-start");
        if (ImGui::IsItemActivated()) storage.SetInt(start_id, under);
        const int start = std::clamp(storage.GetInt(start_id, under), 0, C - 1);
        const int first = std::min(start, under), last = std::max(start, under);
        if (ImGui::IsItemActive())
            draw.AddRectFilled({min.x + label_w + first * cell_w, min.y}, {min.x + label_w + (last + 1) * cell_w, base}, col.highlight);
        if (ImGui::IsItemDeactivated()) *chosen = std::pair{first, last};
    }
    draw.AddLine({min.x + label_w, base}, {min.x + label_w + C * cell_w, base}, col.axis);
    draw.AddText({min.x, min.y}, col.text_dim, "1");
    draw.AddLine({min.x + label_w, min.y + 1}, {min.x + label_w + C * cell_w, min.y + 1}, col.grid);
    for (int j = 0; j < C; ++j) {
        const float w = row[size_t(j)], x = min.x + label_w + j * cell_w;
        draw.AddRectFilled({x + 1, base - height * w}, {x + cell_w - 1, base}, j == peak.position ? col.decoder : col.bar);
        // A word written upwards ends just under the axis, whatever its length.
        const std::string label = shown_token(cols[size_t(j)]);
        AddColumnLabel(draw, below, {min.x, base + 2}, x + cell_w / 2, base + 2, base + 4 + ImGui::CalcTextSize(label.c_str()).x,
                       j == peak.position ? col.decoder : col.text_dim, label);
    }
    const auto bar_name = [&](int, int j) {
        return "input " + std::to_string(j) + ", " + spoken(cols[size_t(j)]) + "; weight " + fixed(row[size_t(j)], 2) +
               (j == peak.position ? ", the peak" : "");
    };
    const std::string grid_id = std::string(id) + "-bars";
    // The keyboard's drag: Shift+arrows spread a span from the focused bar (controls.h's Grid).
    const char* keys = chosen ? "Enter moves the attention onto the focused input; Shift+Left or Right Arrow first spreads "
                                "a span of inputs, and Enter moves it there evenly"
                              : nullptr;
    if (const auto cell = Grid(grid_id, name, 1, C, {min.x + label_w, min.y}, {cell_w, height + labels_h}, bar_name, -1, keys);
        cell && chosen)
        *chosen = std::pair{std::min(cell->first, cell->col), std::max(cell->first, cell->col)};
    const float px = min.x + label_w + (peak.position + 0.5f) * cell_w;
    const std::string label = "peak " + fixed(peak.weight, 2);
    const float lx = std::min(px - ImGui::CalcTextSize(label.c_str()).x / 2, min.x + width - ImGui::CalcTextSize(label.c_str()).x);
    draw.AddText({std::max(lx, min.x + label_w), std::max(min.y, base - height * peak.weight - line - 1)}, col.decoder, label.c_str());
}

// Tokens first..last as text: words joined by spaces, characters as they stand.
inline std::string joined(const Tokens& tokens, bool words, size_t first = 0, size_t last = SIZE_MAX) {
    std::string out;
    for (size_t i = first; i <= last && i < tokens.size(); ++i) out += (words && i > first ? " " : "") + tokens[i];
    return out;
}

// Where a move put the attention: "input 20, '1'" or "inputs 20–21, “77”, evenly" (`words`: the
// input's tokens are words).
inline std::string move_target(const Tokens& input, bool words, const Move& m) {
    if (m.first == m.last) return "input " + std::to_string(m.first) + ", " + spoken(input[size_t(m.first)]);
    return "inputs " + std::to_string(m.first) + "\u2013" + std::to_string(m.last) + ", \u201c" +
           joined(input, words, size_t(m.first), size_t(m.last)) + "\u201d, evenly";
}

// A move's result (analysis.h's what_if) under the map it moved: what the decoder writes now, its
// changed tokens in the decoder's colour, and `moved_map` [T, S] (the map after the move, of
// the head shown); or why the move was refused. `whose` names the attention moved after "Output
// t's attention": "" for a model with one map, " in head 2". `task` says whether input and output
// tokens are words. Widgets: moved-output, moved-map (rows moved-out-T), reset-move. True when
// Reset was clicked: the figure puts the attention back.
inline bool ShowMoveResult(const Task& task, const Tokens& input, const Move& m, const WhatIf& w, std::span<const float> moved_map,
                           const std::string& whose, float map_w) {
    ImGui::Spacing();
    const std::string target = move_target(input, task.input.words, m);
    // Said once per move for a screen reader, not again with each frame.
    announce_shown("move-announced", !w.error.empty() ? "Not moved: " + w.error
                                                      : "step " + std::to_string(m.step) + whose + " moved onto " + target +
                                                            ": the output now reads " + w.output);
    if (!w.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().error);
        WrappedText("Not moved: %s.", lb::sanitize_utf8(w.error).c_str());
        ImGui::PopStyleColor();
    } else {
        WrappedText("Output %d's attention%s moved wholly onto %s; every later step decodes freely. The decoder now writes:",
                    m.step, whose.c_str(), target.c_str());
        const float gap = task.output.words ? ImGui::CalcTextSize(" ").x : 0;
        for (size_t t = 0; t < w.tokens.size(); ++t) {
            const bool changed = std::find(w.changed.begin(), w.changed.end(), int(t)) != w.changed.end();
            if (t > 0) ImGui::SameLine(0, gap);
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(changed ? lesson_colors().decoder : lesson_colors().text));
            ImGui::TextUnformatted(token_for_drawing(w.tokens[t]).c_str());
            ImGui::PopStyleColor();
        }
        record_rect("moved-output");
        ImGui::SameLine();
        const char* unit = task.output.words ? " word" : " character";
        ImGui::TextDisabled("%s", w.changed.empty() ? "(nothing changed)"
                                  : ("(" + std::to_string(w.changed.size()) + unit + (w.changed.size() == 1 ? "" : "s") +
                                     " changed, in colour)").c_str());
        int row = m.step;
        ShowMapOrError("moved-map", [&] {
            ShowWeightMap({"moved-map", "moved-out-", "output"}, w.tokens, input, moved_map, row, map_w, "the map after the move");
        });
    }
    return Button("Reset the attention", "reset-move");
}

// The same for a text alternative: one paragraph.
inline std::string move_html(const Task& task, const Tokens& input, const Move& m, const WhatIf& w, const std::string& whose) {
    if (!w.error.empty()) return "<p>Not moved: " + html_escape(w.error) + ".</p>";
    const char* unit = task.output.words ? " word" : " character";
    return "<p>With output " + std::to_string(m.step) + "'s attention" + whose + " moved onto " +
           html_escape(move_target(input, task.input.words, m)) + ", it writes " + html_escape(w.output) + " (" +
           std::to_string(w.changed.size()) + unit + (w.changed.size() == 1 ? "" : "s") + " changed).</p>";
}

// What a column of a map is: an encoder state, which holds more than the token under it.
inline std::string encoder_note(const ModelConfig& config) {
    const ModelKind& kind = model_kind(config.decoder);
    if (kind.transformer_options)
        return "Each column is an encoder state, and this Transformer's encoder lets every position read every other first: "
               "a peak is the state the decoder read, not proof of which one token it used.";
    if (kind.two_way_encoder)
        return "Each column is an encoder state, and this model's encoder reads both ways: a state holds its token and what "
               "comes before and after it, so a peak can stand for a neighbour too.";
    return "Each column is an encoder state, and this model's encoder reads left to right: the state under a token holds that "
           "token and everything to its left, so a peak is where the decoder read, not proof of which one token it used.";
}

// What a field for a task's inputs is called: "an input of the reversal task, such as …".
inline std::string input_field_name(const Task& task) {
    return "an input of the " + task.name + " task, such as " + task.example_input;
}

// What a reader types (or a link gives) for a map: a date, or an input of another task, checked
// once where it comes in: the figures read `input`, its text and tokens. A string the model
// cannot read is refused with the reason, and the last map stays.
struct TypedInput {
    const Task* task;       // whose inputs it takes
    ModelInput input;       // the last string taken
    std::string date;       // the URL's `date` (a date's only): the last string taken, or the link's spelling of it
    char field[160] = "";   // the text field (a translation's 14 words fit)
    std::string message;    // why the last typed string was refused ("" = it was not)
    static constexpr int linked_date_chars = 63;  // the most a link's `date` holds

    // Takes `start` when it is not empty.
    TypedInput(const Task& of, const std::string& start) : task(&of), date(start) {
        if (!start.empty()) take(start, "");
    }
    TypedInput(const TypedInput&) = delete;  // the URL table keeps a pointer to it
    // Another task's inputs from now on: nothing taken yet.
    void reset(const Task& of) {
        task = &of;
        input = {};
        date.clear();
        field[0] = 0;
        message.clear();
    }
    // A link's date is taken where the URL table reads it; refused, the table says why.
    void bind(UrlTable& url) {
        url.text("date", date, linked_date_chars, [this](const std::string& text) { return accept(text); });
    }
    // Takes `text`, normalised, if the model can read it; else says why and keeps the last one.
    bool take(const std::string& text, const char* what_stays) {
        const std::string error = accept(text);
        if (!error.empty()) {
            message = lb::sanitize_utf8("Not shown: " + error + ". " + what_stays);
            announce(message);  // typed and refused: said at once (a link's refusal is not an event; nothing draws then)
        }
        return error.empty();
    }
    // The field and its Show button (widgets "date" for the dates, else "input", and "show"): true
    // when the reader asked to show it.
    bool ShowField(float avail) {
        const bool dates = task == &date_task();
        ImGui::SetNextItemWidth(std::min(dates ? 260.0f : 340.0f, avail - 70));
        const std::string name = dates ? "a date to map" : input_field_name(*task);
        const bool entered = TextField(dates ? "##date" : "##input", dates ? "date" : "input", field, sizeof field, name.c_str(), 0,
                                       dates ? nullptr : task->example_input.c_str());
        ImGui::SameLine();
        const bool clicked = Button("Show", "show", dates ? "Show the typed date" : "Show the typed input");
        return entered || clicked;
    }
    void ShowMessage() const {  // widget "message"
        if (message.empty()) return;
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().error);
        WrappedText("%s", message.c_str());
        ImGui::PopStyleColor();
        record_rect("message");
    }
private:
    // Checks `text` once: taken (its tokens kept), "" returned; refused, the reason.
    std::string accept(const std::string& text) {
        std::string error;
        std::vector<int> tokens = encode_user_input(*task, text, error);
        if (tokens.empty()) return error;
        input = {normalise_user_input(*task, text), std::move(tokens)};
        date = input.text;
        copy_utf8(field, sizeof field, date);
        message.clear();
        return "";
    }
};

}  // namespace lb::web
