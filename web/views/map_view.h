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
#include "data/dataset.h"
#include "figure.h"
#include "figure_table.h"
#include "heatmap.h"
#include "page_text.h"
#include "text/text.h"
#include "theme.h"

namespace lb::web {

inline std::string shown_char(char c) { return c == ' ' ? "\u00b7" : std::string(1, c); }  // a space as a dot
inline std::string quoted(char c) { return c == ' ' ? "space" : "'" + std::string(1, c) + "'"; }
// A token (a character or a word) as a table quotes it: ‘1’, or "space".
inline std::string quoted_token(const std::string& t) { return t == " " ? "space" : "\u2018" + t + "\u2019"; }
// A string's characters as tokens.
inline std::vector<std::string> char_tokens(std::string_view text) {
    std::vector<std::string> tokens;
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
inline float map_cell_w(float width, int C) { return std::clamp((width - map_label_w) / float(C), 8.0f, 26.0f); }

// A cell of a map as a screen reader says it: "output 8, '1'; input 7, '1'; weight 0.67", and in
// a self-attention map "input 2, 'n' reads input 7, '1'; weight 0.10".
inline std::string map_cell_name(const MapNames& names, const std::string& rows, const std::string& cols,
                                 std::span<const float> weights, int r, int c) {
    const char* joint = std::string_view(names.row_word) == "input" ? " reads input " : "; input ";
    return std::string(names.row_word) + " " + std::to_string(r) + ", " + quoted(rows[size_t(r)]) + joint + std::to_string(c) +
           ", " + quoted(cols[size_t(c)]) + "; weight " + fixed(weights[size_t(r) * cols.size() + size_t(c)], 2);
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

// `weights` [R, C] (rows = rows.size(), C = cols.size()); a click on a row's character or a cell,
// or Enter on a cell of its grid (controls.h, named `grid_name`), sets `selected`. Throws
// MapShapeError before drawing for weights of another size (ShowMapOrError says it).
inline void ShowWeightMap(const MapNames& names, const std::string& rows, const std::string& cols,
                          std::span<const float> weights, int& selected, float width, const std::string& grid_name) {
    const LessonColors& col = lesson_colors();
    const int R = int(rows.size()), C = int(cols.size());
    check_map_shape(names.map, weights.size(), R, C);
    const int chosen_before = selected;
    const float cell_w = map_cell_w(width, C), cell_h = map_cell_h, label_w = map_label_w;
    const float line = ImGui::GetTextLineHeight();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    // The columns' characters across the top.
    for (int j = 0; j < C; ++j) {
        const std::string c = shown_char(cols[size_t(j)]);
        const float x = origin.x + label_w + (j + 0.5f) * cell_w - ImGui::CalcTextSize(c.c_str()).x / 2;
        draw.AddText({x, origin.y}, cols[size_t(j)] == ' ' ? col.text_dim : col.text, c.c_str());
    }
    ImGui::Dummy({label_w + C * cell_w, line + 2});
    const ImVec2 map_min = {origin.x + label_w, origin.y + line + 2 + ImGui::GetStyle().ItemSpacing.y};
    // The rows' characters down the left: each a button that selects the row.
    ImGui::PushID(names.map);
    for (int t = 0; t < R; ++t) {
        ImGui::SetCursorScreenPos({origin.x, map_min.y + t * cell_h});
        ImGui::PushID(t);
        if (ImGui::InvisibleButton("row", {label_w, cell_h})) selected = t;
        record_rect(names.row_prefix + std::to_string(t));
        ImGui::PopID();
        const std::string c = shown_char(rows[size_t(t)]);
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
        announce(std::string(names.row_word) + " " + std::to_string(selected) + ", " + quoted(rows[size_t(selected)]) +
                 ": its peak is input " + std::to_string(p.position) + ", " + quoted(cols[size_t(p.position)]) + ", weight " +
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
        std::snprintf(text, sizeof text, "%s %d, %s \u2190 input %d, %s\nweight %.4f", names.row_word, r, quoted(rows[size_t(r)]).c_str(), c,
                      quoted(cols[size_t(c)]).c_str(), weights[size_t(r * C + c)]);
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

// One row's weights over `cols` as bars, the peak in the decoder's colour. Given `chosen`, the
// bars take a click on one (a position) or a drag across several (a span), shaded while the
// button is held: on release *chosen holds the first and last position. For the keyboard the
// bars are a grid of one row (controls.h) named `name`: Enter on a bar chooses its position.
inline void ShowWeightBars(const char* id, const std::string& cols, std::span<const float> row, float width,
                           const std::string& name, std::optional<std::pair<int, int>>* chosen = nullptr) {
    const LessonColors& col = lesson_colors();
    const int C = int(cols.size());
    const Peak peak = row_peak(row);
    const float line = ImGui::GetTextLineHeight(), height = 90;
    ImGui::InvisibleButton(id, {width, height + line + 4});
    record_rect(id);
    const ImVec2 min = ImGui::GetItemRectMin();
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    const float label_w = map_label_w, cell_w = map_cell_w(width, C);
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
        const std::string c = shown_char(cols[size_t(j)]);
        draw.AddText({x + (cell_w - ImGui::CalcTextSize(c.c_str()).x) / 2, base + 2}, j == peak.position ? col.decoder : col.text_dim, c.c_str());
    }
    const auto bar_name = [&](int, int j) {
        return "input " + std::to_string(j) + ", " + quoted(cols[size_t(j)]) + "; weight " + fixed(row[size_t(j)], 2) +
               (j == peak.position ? ", the peak" : "");
    };
    const std::string grid_id = std::string(id) + "-bars";
    // The keyboard's drag: Shift+arrows spread a span from the focused bar (controls.h's Grid).
    const char* keys = chosen ? "Enter moves the attention onto the focused input; Shift+Left or Right Arrow first spreads "
                                "a span of inputs, and Enter moves it there evenly"
                              : nullptr;
    if (const auto cell = Grid(grid_id, name, 1, C, {min.x + label_w, min.y}, {cell_w, height + line + 4}, bar_name, -1, keys);
        cell && chosen)
        *chosen = std::pair{std::min(cell->first, cell->col), std::max(cell->first, cell->col)};
    const float px = min.x + label_w + (peak.position + 0.5f) * cell_w;
    const std::string label = "peak " + fixed(peak.weight, 2);
    const float lx = std::min(px - ImGui::CalcTextSize(label.c_str()).x / 2, min.x + width - ImGui::CalcTextSize(label.c_str()).x);
    draw.AddText({std::max(lx, min.x + label_w), std::max(min.y, base - height * peak.weight - line - 1)}, col.decoder, label.c_str());
}

// Where a move put the attention: "input 20, '1'" or "inputs 20–21, “77”, evenly".
inline std::string move_target(const std::string& input, const Move& m) {
    if (m.first == m.last) return "input " + std::to_string(m.first) + ", " + quoted(input[size_t(m.first)]);
    return "inputs " + std::to_string(m.first) + "\u2013" + std::to_string(m.last) + ", \u201c" +
           input.substr(size_t(m.first), size_t(m.last - m.first + 1)) + "\u201d, evenly";
}

// A move's result (analysis.h's what_if) under the map it moved: what the decoder writes now, its
// changed characters in the decoder's colour, and `moved_map` [T, S] (the map after the move, of
// the head shown); or why the move was refused. `whose` names the attention moved after "Output
// t's attention": "" for a model with one map, " in head 2". Widgets: moved-output, moved-map
// (rows moved-out-T), reset-move. True when Reset was clicked: the figure puts the attention back.
inline bool ShowMoveResult(const std::string& input, const Move& m, const WhatIf& w, std::span<const float> moved_map,
                           const std::string& whose, float map_w) {
    ImGui::Spacing();
    // Said once per move for a screen reader, not again with each frame.
    announce_shown("move-announced", !w.error.empty() ? "Not moved: " + w.error
                                                      : "step " + std::to_string(m.step) + whose + " moved onto " +
                                                            move_target(input, m) + ": the output now reads " + w.output);
    if (!w.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().error);
        WrappedText("Not moved: %s.", lb::sanitize_utf8(w.error).c_str());
        ImGui::PopStyleColor();
    } else {
        WrappedText("Output %d's attention%s moved wholly onto %s; every later step decodes freely. The decoder now writes:",
                    m.step, whose.c_str(), move_target(input, m).c_str());
        for (size_t t = 0; t < w.output.size(); ++t) {
            const bool changed = std::find(w.changed.begin(), w.changed.end(), int(t)) != w.changed.end();
            if (t > 0) ImGui::SameLine(0, 0);
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(changed ? lesson_colors().decoder : lesson_colors().text));
            ImGui::TextUnformatted(w.output.substr(t, 1).c_str());
            ImGui::PopStyleColor();
        }
        record_rect("moved-output");
        ImGui::SameLine();
        ImGui::TextDisabled("%s", w.changed.empty() ? "(nothing changed)"
                                  : ("(" + std::to_string(w.changed.size()) + (w.changed.size() == 1 ? " character" : " characters") +
                                     " changed, in colour)").c_str());
        int row = m.step;
        ShowMapOrError("moved-map", [&] {
            ShowWeightMap({"moved-map", "moved-out-", "output"}, w.output, input, moved_map, row, map_w, "the map after the move");
        });
    }
    return Button("Reset the attention", "reset-move");
}

// The same for a text alternative: one paragraph.
inline std::string move_html(const std::string& input, const Move& m, const WhatIf& w, const std::string& whose) {
    if (!w.error.empty()) return "<p>Not moved: " + html_escape(w.error) + ".</p>";
    return "<p>With output " + std::to_string(m.step) + "'s attention" + whose + " moved onto " +
           html_escape(move_target(input, m)) + ", it writes " + html_escape(w.output) + " (" + std::to_string(w.changed.size()) +
           (w.changed.size() == 1 ? " character" : " characters") + " changed).</p>";
}

// A date the reader types (or a link gives as `date`) for a map, checked once where it comes in:
// the figures read `input`, its text and tokens. A string the models cannot read is refused with
// the reason, and the last map stays.
struct TypedDate {
    ModelInput input;       // the last string taken
    std::string date;       // the URL's `date`: the last string taken, or the link's spelling of it
    char field[64] = "";    // the text field
    std::string message;    // why the last typed string was refused ("" = it was not)

    explicit TypedDate(const std::string& start) : date(start) { take(start, ""); }
    TypedDate(const TypedDate&) = delete;  // the URL table keeps a pointer to it
    // A link's date is taken where the URL table reads it; refused, the table says why.
    void bind(UrlTable& url) {
        url.text("date", date, sizeof field - 1, [this](const std::string& text) { return accept(text); });
    }
    // Takes `text`, normalised, if the models can read it; else says why and keeps the last date.
    bool take(const std::string& text, const char* what_stays) {
        const std::string error = accept(text);
        if (!error.empty()) {
            message = lb::sanitize_utf8("Not shown: " + error + ". " + what_stays);
            announce(message);  // typed and refused: said at once (a link's refusal is not an event; nothing draws then)
        }
        return error.empty();
    }
    // The field and its Show button (widgets "date", "show"): true when the reader asked to show it.
    bool ShowField(float avail) {
        ImGui::SetNextItemWidth(std::min(260.0f, avail - 70));
        const bool entered = TextField("##date", "date", field, sizeof field, "a date to map");
        ImGui::SameLine();
        const bool clicked = Button("Show", "show", "Show the typed date");
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
        std::vector<int> tokens = encode_user_input(date_task(), text, error);
        if (tokens.empty()) return error;
        input = {normalise_user_input(text), std::move(tokens)};
        date = input.text;
        copy_utf8(field, sizeof field, date);
        message.clear();
        return "";
    }
};

}  // namespace lb::web
