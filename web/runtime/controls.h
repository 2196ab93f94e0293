// web/runtime/controls.h — a figure's controls, for every input device. Each function here draws
// an ImGui widget and also tells the page what it is: its role, its accessible name, its value
// and state, its rectangle. The page keeps real HTML elements for them (web/page/mirror.js) over
// the canvas, visually hidden: a screen reader reads them, Tab walks them, and their keys come
// back through the figure's input queue as actions, applied in the next frame by the same
// function that reads the mouse. So a figure cannot tell a key from a click:
//
//     if (Button("Train", "train")) pair.play();          // a click, Enter or Space
//     if (Combo("width", "width", at, width_labels)) ...   // the popup, or the arrow keys
//
// The id ("train") is stable within the figure; it names the element in the page, and tests
// find the control by it (window.lookback.rect) as well as by role and name. A figure describes
// each control once, here; what is not a control (a chart, a caption) stays ImGui's.
// Only inside a figure's `show` (figure.h).
#pragma once
#include <functional>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include "figure_table.h"

namespace lb::web {

// --- controls drawn by ImGui, described by the same call ----------------------------------------
// `name` is the accessible name where the visible label is not one (a glyph, "##hidden").

bool Button(const char* label, std::string_view id, const char* name = nullptr, ImVec2 size = {0, 0});
// A button that stays down (aria-pressed): a toggle drawn as a button (the figure colours it).
bool ToggleButton(const char* label, std::string_view id, bool pressed, const char* name = nullptr, ImVec2 size = {0, 0});
bool Checkbox(const char* label, std::string_view id, bool* checked, const char* name = nullptr);
// One choice of several, drawn as radio buttons on one line; `name` names the group. Each
// option's rectangle is the test handle ID-LABEL ("memory-first state").
bool RadioGroup(std::string_view id, const char* name, int& chosen, std::span<const std::string> options);
// A list to pick one from (a popup for the mouse; a <select> for the keyboard).
bool Combo(const char* label, std::string_view id, int& chosen, std::span<const std::string> options,
           const char* name = nullptr);
// The same over values: `value` becomes the one picked, each shown as `label_of(v)`.
template <class Range, class T, class LabelOf>
bool ComboOf(const char* label, std::string_view id, T& value, const Range& values, LabelOf label_of,
             const char* name = nullptr) {
    std::vector<std::string> labels;
    int chosen = -1;
    for (const auto& v : values) {
        if (v == value) chosen = int(labels.size());
        labels.emplace_back(label_of(v));
    }
    const int before = chosen;
    if (!Combo(label, id, chosen, labels, name) || chosen == before || chosen < 0) return false;
    value = *std::next(std::begin(values), chosen);
    return true;
}
bool SliderInt(const char* label, std::string_view id, int* value, int min, int max, const char* format = "%d",
               const char* name = nullptr);
bool SliderFloat(const char* label, std::string_view id, float* value, float min, float max, float step,
                 const char* format = "%.2f", const char* name = nullptr, ImGuiSliderFlags flags = 0);
// A number typed or stepped, clamped to [min, max].
bool InputInt(const char* label, std::string_view id, int* value, int min, int max, const char* name = nullptr);
// A text field; true when the reader submits it (Enter). The buffer follows what is typed.
bool TextField(const char* label, std::string_view id, char* buffer, size_t size, const char* name,
               ImGuiInputTextFlags flags = 0, const char* hint = nullptr);  // hint: greyed while empty

// --- grids: a matrix of named cells (an attention map, bars, a table of results) ---------------
// Rows × columns of cells laid out evenly from `origin` (screen px), each `cell` big. Arrow keys
// walk the cells, Home/End a row's ends, Page Up/Down and Ctrl+Home/End the columns' ends; Enter
// or Space activates a cell as a click on it does. `cell_name(r, c)` says the cell for a screen
// reader ("output 8, '1'; input 7, '1'; weight 0.67"). Returns the cell activated by a key this
// frame. `selected_row` marks a row as selected (aria-selected), or -1. Given `span_keys` (the
// grid's description, which says the keys), Shift+Left/Right first spreads a span of cells in a
// row from where it started: Enter then activates the span, `first` to `col`.
struct GridCell {
    int row, col;
    int first = col;  // where a span started (== col for one cell)
};
std::optional<GridCell> Grid(std::string_view id, const std::string& name, int rows, int cols, ImVec2 origin, ImVec2 cell,
                             const std::function<std::string(int, int)>& cell_name, int selected_row = -1,
                             const char* span_keys = nullptr);
// The cell of grid `id` the page's focus is on, if any (for what the figure shows of it).
std::optional<GridCell> focused_cell(std::string_view id);

// A table (figure_table.h), drawn by ImGui and described to the mirror from the same description.
// How the canvas draws it, where that is the figure's own:
struct TableLook {
    ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    ImVec2 size{0, 0};            // ImGui's outer size (a height scrolls the rows under ImGuiTableFlags_ScrollY)
    bool narrow = false;          // the brief headers and cells, where the table has them
    std::vector<int> drawn;       // the columns drawn, in order (none: every column); the mirror has them all
    // Each column's ImGui flags and width or weight, by column (none: ImGui's defaults).
    std::vector<std::pair<ImGuiTableColumnFlags, float>> sizing;
    int highlighted_row = -1;     // drawn on the highlight colour (the row the figure selected)
    bool grouped = false;         // a first cell equal to the one above is drawn blank: the rows form groups
    std::function<void(int row, int col)> draw_cell;  // draws a cell its own way (none: the cell's text)
};
// Draws `table` and describes it to the page's mirror. Returns the column a click or a key on a
// sortable table's header asked to rank by.
std::optional<int> ShowTable(const FigureTable& table, const TableLook& look = {});

// --- for a custom widget (an InvisibleButton that is a box to click, a point to drag) --------
enum class Role { button, checkbox, radio, slider, spinbutton, combobox, textbox, progressbar };  // progressbar: value in [min, max], not focusable
struct Control {
    std::string id;
    Role role = Role::button;
    std::string name;
    std::string value_text;            // what a screen reader says for the value
    double value = 0, min = 0, max = 0, step = 1;
    std::vector<std::string> options;  // combobox, radio group
    std::string text;                  // textbox
    bool checked = false;
    std::optional<bool> pressed;       // a toggle button's state (aria-pressed, false too); none: a plain button
    bool disabled = false;
    ImVec2 box_min{0, 0}, box_max{0, 0};  // its rectangle (screen px) if not the last item's
};
// Describes the last ImGui item (or c.box_min–c.box_max) as `c`; disabled also when ImGui draws it so.
void describe(Control c);

// The keyboard's action for control `id` this frame, if any: what the page's element asked.
struct Action {
    enum Kind { press, set, edit, submit, activate, sort } kind;
    double value = 0;  // set: the new value or option index; activate: the row; sort: the column
    int col = 0;       // activate: the column
    std::string text;  // edit: the field's new contents
};
std::optional<Action> take_action(std::string_view id, Action::Kind kind);

// --- what the figure says besides its controls --------------------------------------------------
// Said once by a screen reader (a polite live region): a finished epoch, a changed output. Call
// when the event happens, not every frame.
void announce(std::string text);
// For what the figure shows while it holds (a move's result, a blanked input's output, what a
// model writes): says `text` when it is new, that is when the figure did not show it under `key`
// in its previous frame (it changed, or came back). Call every frame it is shown. With
// `quiet_first`, not the first time the figure ever shows it: that is what a reader finds there
// when the figure draws, not an event.
void announce_shown(const char* key, const std::string& text, bool quiet_first = false);
// The figure is working (training, decoding): aria-busy on its group. Call every frame it is.
void mark_busy();

}  // namespace lb::web
