// web/runtime/mirror.cpp — the figure runtime's side of the page's mirror (web/page/mirror.js):
// each frame's controls (controls.cpp describes them) sent to the page when they changed, with
// what the figure announced; the ring around the control the page's focus is on; and the exports
// the mirror calls with a key's action and with where its focus is.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <utility>

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include "host.h"
#include "text/text.h"
#include "theme.h"

namespace lb::web::detail {

namespace {

// Calls into web/page/lookback.js (Module.lookbackHost), which hands them to the mirror: the
// figure's controls as JSON (controls.h), and a text for its live region.
EM_JS(void, js_set_controls, (int figure, const char* json, int busy), {
    Module.lookbackHost.setControls(figure, UTF8ToString(json), busy !== 0);
});
EM_JS(void, js_announce, (int figure, const char* text), {
    Module.lookbackHost.announce(figure, UTF8ToString(text));
});

// A part of control `j` the focus can be on: a radio group's option (by `row`), a sortable
// table's header cell (by `col`), where the control's description gives their rectangles.
std::optional<ImRect> part_rect(const nlohmann::json& j, const char* key, int k) {
    const auto list = j.find(key);
    if (list == j.end() || k < 0 || k >= int(list->size())) return std::nullopt;
    const auto& o = (*list)[size_t(k)];
    if (!o.is_array()) return std::nullopt;  // a column the canvas does not draw
    const ImVec2 min = {o[0].get<float>(), o[1].get<float>()};
    return ImRect(min, {min.x + o[2].get<float>(), min.y + o[3].get<float>()});
}

}  // namespace

// The focused control's ring (or its cell's, its option's, its header's), over everything the
// figure drew: 2.5 px in the theme's focus colour, outside the control so that it hides nothing.
void draw_focus_ring(const Host& h) {
    if (h.focus_id.empty()) return;
    const auto c = std::find_if(h.controls.begin(), h.controls.end(), [&](const ControlRecord& r) { return r.id == h.focus_id; });
    if (c == h.controls.end()) return;
    ImRect r = c->rect;
    if (c->cols > 0 && h.focus_row >= 0 && h.focus_col >= 0) {  // a grid's cell, or the span of a row being chosen
        const int first = h.focus_first >= 0 ? std::min(h.focus_first, h.focus_col) : h.focus_col;
        const int last = std::max(h.focus_first, h.focus_col);
        const ImVec2 min = {r.Min.x + first * c->cell.x, r.Min.y + h.focus_row * c->cell.y};
        r = ImRect(min, {r.Min.x + (last + 1) * c->cell.x, min.y + c->cell.y});
    } else if (const auto part = part_rect(c->json, "option_rects", h.focus_row)) {
        r = *part;
    } else if (const auto header = part_rect(c->json, "header_rects", h.focus_col)) {
        r = *header;
    }
    const float width = 2.5f, gap = 1.5f;
    ImGui::GetForegroundDrawList()->AddRect({r.Min.x - gap - width / 2, r.Min.y - gap - width / 2},
                                            {r.Max.x + gap + width / 2, r.Max.y + gap + width / 2},
                                            lesson_colors().focus, 3, 0, width);
}

// Sends the figure's controls to the page's mirror when they changed, and what it announced.
void sync_controls(Host& h) {
    if (!describing) return;
    std::string json = "[";  // each control's JSON as it is, not copied into an array first
    for (const ControlRecord& c : h.controls) {
        if (json.size() > 1) json += ',';
        json += c.json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    json += ']';
    if (json != h.controls_sent || h.busy != h.busy_sent) {
        js_set_controls(h.index, json.c_str(), h.busy ? 1 : 0);
        h.controls_sent = std::move(json);
        h.busy_sent = h.busy;
    }
    for (const std::string& text : std::exchange(h.announcements, {})) js_announce(h.index, lb::sanitize_utf8(text).c_str());
}

}  // namespace lb::web::detail

using namespace lb::web;
using namespace lb::web::detail;

extern "C" {

// The page's mirror of a figure's controls (web/page/mirror.js): a key's action for control `id`
// (kind: press, set, text, submit, activate, sort; controls.h), queued with the mouse's events.
EMSCRIPTEN_KEEPALIVE void lb_act(int index, const char* id, const char* kind, double value, int col, const char* text) {
    Host* h = host_at(index);
    if (!h || !h->imgui || h->locked) return;
    static const std::pair<const char*, Action::Kind> kinds[] = {
        {"press", Action::press}, {"set", Action::set}, {"text", Action::edit},
        {"submit", Action::submit}, {"activate", Action::activate}, {"sort", Action::sort}};
    const auto k = std::find_if(std::begin(kinds), std::end(kinds), [&](const auto& p) { return std::strcmp(p.first, kind) == 0; });
    if (k == std::end(kinds) || !std::isfinite(value)) return;
    InputEvent e{InputEvent::action};
    e.control = id;
    e.act = {k->second, value, col, lb::sanitize_utf8(text)};
    h->input.push_back(std::move(e));
    wake(*h);
}

// Where the page's focus is among the figure's controls ("" when it left them); a grid's cell
// or a radio group's option by row and column (-1 when none), and where a span of the row being
// chosen started (-1 when none). The figure draws its ring.
EMSCRIPTEN_KEEPALIVE void lb_focus(int index, const char* id, int row, int col, int first) {
    Host* h = host_at(index);
    if (!h) return;
    h->focus_id = id;
    h->focus_row = row;
    h->focus_col = col;
    h->focus_first = first;
    wake(*h);
}

// Whether figures describe their controls (on by default; off only for a benchmark's baseline).
EMSCRIPTEN_KEEPALIVE void lb_describe_controls(int on) {
    describing = on != 0;
    for (auto& h : hosts) wake(*h);
}

}  // extern "C"
