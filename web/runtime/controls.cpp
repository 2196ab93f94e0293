// web/runtime/controls.cpp — the figures' controls (controls.h): each ImGui widget drawn, its
// description recorded for the page's mirror, the keyboard's action for it applied.
#include "controls.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <imgui.h>
#include <imgui_internal.h>  // LastItemData: whether the item was drawn disabled; ImHashStr

#include "host.h"
#include "theme.h"

namespace lb::web {

using detail::drawing;

namespace {

const char* role_name(Role r) {
    switch (r) {
        case Role::button: return "button";
        case Role::checkbox: return "checkbox";
        case Role::radio: return "radiogroup";
        case Role::slider: return "slider";
        case Role::spinbutton: return "spinbutton";
        case Role::combobox: return "combobox";
        case Role::textbox: return "textbox";
        case Role::progressbar: return "progressbar";
    }
    return "button";
}

// A value from the page (finite: lb_act refuses the rest) as an int in [lo, hi], clamped before it
// is converted: an int cast of 1e300 would be undefined.
int to_int_in(double v, int lo, int hi) { return int(std::lround(std::fmin(std::fmax(v, double(lo)), double(hi)))); }

bool last_item_disabled() { return (GImGui->LastItemData.InFlags & ImGuiItemFlags_Disabled) != 0; }
ImRect last_item_rect() { return {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()}; }

// The rectangle in the canvas's CSS px (ImGui's screen space is the canvas: one window at 0, 0).
nlohmann::json rect_json(const ImRect& r) {
    const auto px = [](float v) { return std::round(v * 10) / 10; };
    return nlohmann::json::array({px(r.Min.x), px(r.Min.y), px(r.GetWidth()), px(r.GetHeight())});
}

// While figures do not describe their controls (a benchmark's baseline, host.h's `describing`):
// records only `rect` as the test handle of `id`, and says so.
bool rect_only(std::string_view id, const ImRect& rect) {
    if (detail::describing) return false;
    drawing->rects[std::string(id)] = rect;
    return true;
}

// Adds a described control to this frame's list; the rect is also the test handle of `id`.
detail::ControlRecord& record(std::string_view id, const ImRect& rect, nlohmann::json json) {
    detail::Host& h = *drawing;
    h.rects[std::string(id)] = rect;
    // The element stays inside the canvas: a label ImGui clips must not widen the page.
    ImRect inside = rect;
    inside.ClipWithFull(ImRect({0, 0}, ImGui::GetIO().DisplaySize));
    json["id"] = id;
    json["rect"] = rect_json(inside);
    if (h.locked) json["disabled"] = true;
    h.controls.push_back({std::string(id), rect, std::move(json)});
    return h.controls.back();
}

// The action for `id` if the control takes it: not while disabled or locked.
std::optional<Action> action_for(std::string_view id, Action::Kind kind, bool disabled) {
    std::optional<Action> a = take_action(id, kind);
    if (a && (disabled || drawing->locked)) return std::nullopt;
    return a;
}

const char* name_or(const char* name, const char* label) {
    if (name) return name;
    const char* hidden = std::strstr(label, "##");  // ImGui's hidden part is not read
    static std::string visible;
    visible = hidden ? std::string(label, hidden) : std::string(label);
    return visible.c_str();
}

}  // namespace

std::optional<Action> take_action(std::string_view id, Action::Kind kind) {
    if (!drawing || !drawing->action || drawing->action->first != id || drawing->action->second.kind != kind) return std::nullopt;
    Action a = std::move(drawing->action->second);
    drawing->action.reset();
    return a;
}

void describe(Control c) {
    if (!drawing) return;
    const ImRect rect = c.box_max.x > c.box_min.x ? ImRect(c.box_min, c.box_max) : last_item_rect();
    if (rect_only(c.id, rect)) return;
    c.disabled |= last_item_disabled();
    nlohmann::json j = {{"role", role_name(c.role)}, {"name", c.name}};
    if (c.disabled) j["disabled"] = true;
    switch (c.role) {
        case Role::button: if (c.pressed) j["pressed"] = *c.pressed; break;
        case Role::checkbox: j["checked"] = c.checked; break;
        case Role::radio: case Role::combobox: j["options"] = c.options; j["value"] = c.value; break;
        case Role::slider: case Role::spinbutton: case Role::progressbar:
            j["value"] = c.value, j["min"] = c.min, j["max"] = c.max, j["step"] = c.step;
            if (!c.value_text.empty()) j["valuetext"] = c.value_text;
            break;
        case Role::textbox: j["text"] = c.text; break;
    }
    record(c.id, rect, std::move(j));
}

bool Button(const char* label, std::string_view id, const char* name, ImVec2 size) {
    const bool clicked = ImGui::Button(label, size);
    const bool disabled = last_item_disabled();
    describe({.id = std::string(id), .role = Role::button, .name = name_or(name, label)});
    return clicked || action_for(id, Action::press, disabled);
}

bool ToggleButton(const char* label, std::string_view id, bool pressed, const char* name, ImVec2 size) {
    const bool clicked = ImGui::Button(label, size);
    const bool disabled = last_item_disabled();
    describe({.id = std::string(id), .role = Role::button, .name = name_or(name, label), .pressed = pressed});
    return clicked || action_for(id, Action::press, disabled);
}

bool Checkbox(const char* label, std::string_view id, bool* checked, const char* name) {
    bool changed = ImGui::Checkbox(label, checked);
    const bool disabled = last_item_disabled();
    if (action_for(id, Action::press, disabled)) *checked = !*checked, changed = true;
    describe({.id = std::string(id), .role = Role::checkbox, .name = name_or(name, label), .checked = *checked});
    return changed;
}

bool RadioGroup(std::string_view id, const char* name, int& chosen, std::span<const std::string> options) {
    const int before = chosen;
    ImRect all;
    nlohmann::json rects = nlohmann::json::array();
    bool disabled = false;
    const ImGuiStyle& style = ImGui::GetStyle();
    for (size_t k = 0; k < options.size(); ++k) {
        // On one line while the next option fits (a phone wraps the task list's four).
        const float next = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(options[k].c_str()).x;
        if (k > 0 && ImGui::GetItemRectMax().x + style.ItemSpacing.x + next <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
            ImGui::SameLine();
        ImGui::PushID(int(k));
        ImGui::RadioButton(options[k].c_str(), &chosen, int(k));
        ImGui::PopID();
        disabled |= last_item_disabled();
        const ImRect r = last_item_rect();
        if (k == 0) all = r;
        else all.Add(r);
        rects.push_back(rect_json(r));
        if (drawing) drawing->rects[std::string(id) + "-" + options[k]] = r;  // tests: "memory-first state"
    }
    if (const auto a = action_for(id, Action::set, disabled)) chosen = to_int_in(a->value, 0, int(options.size()) - 1);
    if (drawing && !rect_only(id, all)) {
        nlohmann::json j = {{"role", "radiogroup"}, {"name", name}, {"options", options}, {"value", chosen}, {"option_rects", rects}};
        if (disabled) j["disabled"] = true;
        record(id, all, std::move(j));
    }
    return chosen != before;
}

bool Combo(const char* label, std::string_view id, int& chosen, std::span<const std::string> options, const char* name) {
    const int before = chosen;
    const char* preview = chosen >= 0 && chosen < int(options.size()) ? options[size_t(chosen)].c_str() : "";
    if (ImGui::BeginCombo(label, preview)) {
        for (size_t k = 0; k < options.size(); ++k)
            if (ImGui::Selectable(options[k].c_str(), int(k) == chosen)) chosen = int(k);
        ImGui::EndCombo();
    }
    const bool disabled = last_item_disabled();
    if (const auto a = action_for(id, Action::set, disabled)) chosen = to_int_in(a->value, 0, int(options.size()) - 1);
    describe({.id = std::string(id), .role = Role::combobox, .name = name_or(name, label), .value = double(chosen),
              .options = {options.begin(), options.end()}});
    return chosen != before;
}

bool SliderInt(const char* label, std::string_view id, int* value, int min, int max, const char* format, const char* name) {
    bool changed = ImGui::SliderInt(label, value, min, max, format);
    const bool disabled = last_item_disabled();
    if (const auto a = action_for(id, Action::set, disabled)) {
        const int v = to_int_in(a->value, min, max);
        changed |= v != *value;
        *value = v;
    }
    char text[64];
    std::snprintf(text, sizeof text, format, *value);
    describe({.id = std::string(id), .role = Role::slider, .name = name_or(name, label), .value_text = text,
              .value = double(*value), .min = double(min), .max = double(max), .step = 1});
    return changed;
}

bool SliderFloat(const char* label, std::string_view id, float* value, float min, float max, float step, const char* format,
                 const char* name, ImGuiSliderFlags flags) {
    bool changed = ImGui::SliderFloat(label, value, min, max, format, flags);
    const bool disabled = last_item_disabled();
    if (const auto a = action_for(id, Action::set, disabled)) {
        const float v = std::clamp(float(a->value), min, max);
        changed |= v != *value;
        *value = v;
    }
    char text[64];
    std::snprintf(text, sizeof text, format, double(*value));
    // Floats to a millionth: 1, not 0.999999981. The range, its step too: a step of 0.00999999977
    // from 0.100000001 puts every value off the step's grid, which Firefox says as "invalid entry".
    const auto millionths = [](float v) { return std::round(double(v) * 1e6) / 1e6; };
    describe({.id = std::string(id), .role = Role::slider, .name = name_or(name, label), .value_text = text,
              .value = millionths(*value), .min = millionths(min), .max = millionths(max), .step = millionths(step)});
    return changed;
}

bool InputInt(const char* label, std::string_view id, int* value, int min, int max, const char* name) {
    bool changed = ImGui::InputInt(label, value);
    const bool disabled = last_item_disabled();
    if (const auto a = action_for(id, Action::set, disabled)) {
        const int v = to_int_in(a->value, min, max);
        changed |= v != *value;
        *value = v;
    }
    if (changed) *value = std::clamp(*value, min, max);
    describe({.id = std::string(id), .role = Role::spinbutton, .name = name_or(name, label), .value = double(*value),
              .min = double(min), .max = double(max), .step = 1});
    return changed;
}

bool TextField(const char* label, std::string_view id, char* buffer, size_t size, const char* name, ImGuiInputTextFlags flags,
               const char* hint) {
    const ImGuiID field = ImGui::GetID(label);
    if (drawing) {  // typed in the page's field: taken before ImGui draws it, unless ImGui is editing it
        if (auto a = take_action(id, Action::edit); a && !drawing->locked && GImGui->ActiveId != field) {
            size_t n = std::min(a->text.size(), size - 1);
            while (n > 0 && n < a->text.size() && (a->text[n] & 0xC0) == 0x80) --n;  // not inside a character
            std::memcpy(buffer, a->text.data(), n);
            buffer[n] = '\0';
        }
    }
    bool entered = ImGui::InputTextWithHint(label, hint, buffer, size, flags | ImGuiInputTextFlags_EnterReturnsTrue);
    const bool disabled = last_item_disabled();
    entered |= action_for(id, Action::submit, disabled).has_value();
    describe({.id = std::string(id), .role = Role::textbox, .name = name_or(name, label), .text = buffer});
    return entered;
}

std::optional<GridCell> Grid(std::string_view id, const std::string& name, int rows, int cols, ImVec2 origin, ImVec2 cell,
                             const std::function<std::string(int, int)>& cell_name, int selected_row, const char* span_keys) {
    if (!drawing || rows <= 0 || cols <= 0) return std::nullopt;
    const ImRect all(origin, {origin.x + cols * cell.x, origin.y + rows * cell.y});
    if (rect_only(id, all)) return std::nullopt;  // no names, so no keys either
    std::vector<std::string> names;
    names.reserve(size_t(rows * cols));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) names.push_back(cell_name(r, c));
    nlohmann::json j = {{"role", "grid"}, {"name", name}, {"rows", rows}, {"cols", cols},
                        {"cell", {std::round(cell.x * 100) / 100, std::round(cell.y * 100) / 100}}, {"names", names}};
    if (selected_row >= 0) j["selected_row"] = selected_row;
    if (span_keys) j["span"] = true, j["description"] = span_keys;
    const bool disabled = (GImGui->CurrentItemFlags & ImGuiItemFlags_Disabled) != 0;
    if (disabled) j["disabled"] = true;
    detail::ControlRecord& rec = record(id, all, std::move(j));
    rec.cell = cell;
    rec.cols = cols;
    if (const auto a = action_for(id, Action::activate, disabled)) {
        GridCell hit{to_int_in(a->value, -1, rows), a->col};
        // A span's start comes as text (the page's anchor column); only a spanning grid takes one.
        if (span_keys && !a->text.empty()) hit.first = to_int_in(std::atof(a->text.c_str()), 0, cols - 1);
        if (hit.row >= 0 && hit.row < rows && hit.col >= 0 && hit.col < cols) return hit;
    }
    return std::nullopt;
}

std::optional<GridCell> focused_cell(std::string_view id) {
    const detail::Host& h = *drawing;
    if (h.focus_id != id || h.focus_row < 0 || h.focus_col < 0) return std::nullopt;
    return GridCell{h.focus_row, h.focus_col, h.focus_first >= 0 ? h.focus_first : h.focus_col};
}

namespace {

// The table for the page's mirror: every column's header and every cell's text; a sortable
// table's header cells are buttons, placed over the header cells drawn (`header_rects`, by
// column; null for a column the canvas does not draw). True when a key asked to rank by a column.
std::optional<int> describe_table(const FigureTable& table, const ImRect& rect, const nlohmann::json& header_rects) {
    if (rect_only(table.id, rect)) return std::nullopt;
    nlohmann::json header = nlohmann::json::array(), rows = nlohmann::json::array();
    for (const TableColumn& c : table.columns) header.push_back(c.label);
    for (const std::vector<TableCell>& row : table.rows) {
        nlohmann::json cells = nlohmann::json::array();
        for (const TableCell& cell : row) cells.push_back(cell.text);
        rows.push_back(std::move(cells));
    }
    nlohmann::json j = {{"role", "table"}, {"name", table.name}, {"header", header}, {"rows", rows}};
    if (table.sortable) j["sortable"] = true, j["header_rects"] = header_rects;
    if (table.sort_column >= 0) j["sort_column"] = table.sort_column, j["descending"] = table.descending;
    record(table.id, rect, std::move(j));
    if (const auto a = action_for(table.id, Action::sort, false); a && table.sortable) {
        const int column = to_int_in(a->value, -1, int(table.columns.size()));
        if (column >= 0 && column < int(table.columns.size())) return column;
    }
    return std::nullopt;
}

const std::string& drawn_text(const std::string& text, const std::string& brief, bool narrow) {
    return narrow && !brief.empty() ? brief : text;
}

}  // namespace

std::optional<int> ShowTable(const FigureTable& table, const TableLook& look) {
    std::vector<int> drawn = look.drawn;
    if (drawn.empty())
        for (int c = 0; c < int(table.columns.size()); ++c) drawn.push_back(c);
    if (!ImGui::BeginTable(table.id.c_str(), int(drawn.size()), look.flags, look.size)) return std::nullopt;
    if (look.flags & ImGuiTableFlags_ScrollY) ImGui::TableSetupScrollFreeze(0, 1);
    for (int c : drawn) {
        const auto [flags, width] = size_t(c) < look.sizing.size() ? look.sizing[size_t(c)] : std::pair<ImGuiTableColumnFlags, float>{0, 0};
        const TableColumn& column = table.columns[size_t(c)];
        ImGui::TableSetupColumn(drawn_text(column.label, column.brief, look.narrow).c_str(), flags, width);
    }
    // A header wider than its stretched column breaks at its spaces ("attention per-char" over two
    // lines), never inside a word (a word wider than the column is clipped); a column that fits
    // its content is as wide as its header.
    const auto header = [&](int i, const TableColumn& column, const char* mark) {
        const std::string label = drawn_text(column.label, column.brief, look.narrow) + mark;
        if (!(ImGui::TableGetColumnFlags(i) & ImGuiTableColumnFlags_WidthStretch)) return label;
        const auto width = [](std::string_view t) { return ImGui::CalcTextSize(t.data(), t.data() + t.size()).x; };
        float widest_word = 0;
        for (size_t from = 0; from <= label.size();) {
            const size_t space = std::min(label.find(' ', from), label.size());
            widest_word = std::max(widest_word, width(std::string_view(label).substr(from, space - from)));
            from = space + 1;
        }
        return break_lines(label, std::max(ImGui::GetContentRegionAvail().x, widest_word), width);
    };
    std::optional<int> ranked;
    nlohmann::json header_rects = nlohmann::json::array();
    for (size_t c = 0; c < table.columns.size(); ++c) header_rects.push_back(nullptr);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int i = 0; i < int(drawn.size()); ++i) {
        const int c = drawn[size_t(i)];
        const TableColumn& column = table.columns[size_t(c)];
        ImGui::TableSetColumnIndex(i);
        ImGui::PushID(c);
        if (!table.sortable) {
            ImGui::TableHeader(header(i, column, "").c_str());
            ImGui::PopID();
            continue;
        }
        // A sortable table's header cells are buttons: a click ranks by the column, again the other way.
        // The mark is joined to the label by a no-break space: a narrow header wraps at its words, never before it.
        const char* mark = c != table.sort_column ? "" : table.descending ? "\u00a0\u25bc" : "\u00a0\u25b2";
        // At least 24 px high: a pointer target (WCAG 2.2, 2.5.8).
        const std::string label = header(i, column, mark);
        const float high = std::max(24.0f, ImGui::CalcTextSize(label.c_str()).y);
        if (ImGui::Selectable(label.c_str(), c == table.sort_column, ImGuiSelectableFlags_DontClosePopups, {0, high})) ranked = c;
        ImGui::PopID();
        if (!column.key.empty()) record_rect("header-" + column.key);
        header_rects[size_t(c)] = rect_json(last_item_rect());
    }
    const ImVec4 dim = ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
    for (int r = 0; r < int(table.rows.size()); ++r) {
        const std::vector<TableCell>& row = table.rows[size_t(r)];
        ImGui::TableNextRow();
        if (r == look.highlighted_row) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, lesson_colors().highlight);
        for (int i = 0; i < int(drawn.size()); ++i) {
            const int c = drawn[size_t(i)];
            ImGui::TableSetColumnIndex(i);
            if (look.draw_cell) {
                look.draw_cell(r, c);
                continue;
            }
            const TableCell& cell = row[size_t(c)];
            if (look.grouped && c == 0 && r > 0 && table.rows[size_t(r - 1)][0].text == cell.text) continue;
            const std::string& text = drawn_text(cell.text, cell.brief, look.narrow);
            if (cell.dim) ImGui::TextColored(dim, "%s", text.c_str());
            else ImGui::TextUnformatted(text.c_str());
        }
    }
    ImGui::EndTable();
    if (!drawing) return ranked;
    const std::optional<int> keyed = describe_table(table, last_item_rect(), header_rects);
    return ranked ? ranked : keyed;
}

void announce(std::string text) {
    if (!drawing) return;
    auto& said = drawing->announcements;
    if (std::find(said.begin(), said.end(), text) == said.end()) said.push_back(std::move(text));
}

void announce_shown(const char* key, const std::string& text, bool quiet_first) {
    if (!drawing) return;
    ImGuiStorage& storage = *ImGui::GetStateStorage();
    ImGui::PushID(key);
    const ImGuiID text_id = ImGui::GetID("text"), frame_id = ImGui::GetID("frame");
    ImGui::PopID();
    const int hash = int(ImHashStr(text.c_str()) | 1), frame = ImGui::GetFrameCount();  // | 1: never 0, "never shown"
    const int last_hash = storage.GetInt(text_id, 0), last_frame = storage.GetInt(frame_id, -2);
    storage.SetInt(text_id, hash);
    storage.SetInt(frame_id, frame);
    if (hash == last_hash && last_frame == frame - 1) return;  // shown in the frame before: said already
    if (last_hash == 0 && quiet_first) return;
    announce(text);
}

void mark_busy() {
    if (drawing) drawing->busy = true;
}

}  // namespace lb::web
