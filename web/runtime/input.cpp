// web/runtime/input.cpp — browser input for the figures: html5.h events on each canvas go to a
// queue per figure, and a frame applies them to its ImGuiIO (ImGui 1.86 reads input as state).
// Mouse, wheel, touch (one finger acts as the mouse), keys and text, focus, and the WebGL
// context's loss and return.
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "host.h"

namespace lb::web::detail {
namespace {

// Calls into web/page/lookback.js (Module.lookbackHost), which knows the canvases.
EM_JS(void, js_focus, (int figure), { Module.lookbackHost.focus(figure); });
EM_JS(void, js_canvas_origin, (int figure, float* xy), {
    const origin = Module.lookbackHost.origin(figure);
    HEAPF32[xy >> 2] = origin[0];
    HEAPF32[(xy >> 2) + 1] = origin[1];
});



constexpr float off_canvas = -FLT_MAX;

void push(Host& h, InputEvent e) {
    h.input.push_back(e);
    wake(h);
}
void push_move(Host& h, float x, float y) { push(h, {InputEvent::move, x, y}); }

int imgui_button(unsigned short dom_button) {  // DOM: 0 left, 1 middle, 2 right
    return dom_button == 1 ? 2 : dom_button == 2 ? 1 : dom_button;
}

// Applies queued events in order up to and including the first button, key, character or
// focus change: each change gets a frame of its own (with the moves before it), so a fast
// click still reads as a click and a release is seen where it happened.
}  // namespace

void apply_input(Host& h) {
    ImGuiIO& io = ImGui::GetIO();
    bool changed = false;
    while (!h.input.empty() && !changed) {
        const InputEvent e = h.input.front();
        changed = e.kind != InputEvent::move && e.kind != InputEvent::wheel;
        h.input.pop_front();
        switch (e.kind) {
            case InputEvent::move: io.MousePos = {e.x, e.y}; break;
            case InputEvent::button:
                if (e.code >= 0 && e.code < IM_ARRAYSIZE(io.MouseDown)) io.MouseDown[e.code] = e.down;
                break;
            case InputEvent::wheel: io.MouseWheelH += e.x; io.MouseWheel += e.y; break;
            case InputEvent::key:
                if (e.code >= 0 && e.code < 512) io.KeysDown[e.code] = e.down;
                io.KeyCtrl = e.ctrl; io.KeyShift = e.shift; io.KeyAlt = e.alt; io.KeySuper = e.super;
                break;
            case InputEvent::character: io.AddInputCharacter(unsigned(e.code)); break;
            case InputEvent::focus:
                io.AddFocusEvent(e.down);
                if (!e.down) ImGui::ClearActiveID();  // leaving the canvas ends text editing
                break;
            case InputEvent::action: h.action = std::pair{e.control, e.act}; break;  // controls.h
        }
    }
}

namespace {

Host& host_of(void* user_data) { return *static_cast<Host*>(user_data); }

EM_BOOL on_mouse_down(int, const EmscriptenMouseEvent* e, void* user) {
    Host& h = host_of(user);
    captured = &h;
    push_move(h, float(e->targetX), float(e->targetY));
    push(h, {InputEvent::button, 0, 0, imgui_button(e->button), true});
    js_focus(h.index);  // the default action would focus it, but also start a text selection
    return EM_TRUE;
}
EM_BOOL on_mouse_move(int, const EmscriptenMouseEvent* e, void* user) {
    Host& h = host_of(user);
    if (!captured) push_move(h, float(e->targetX), float(e->targetY));
    return EM_FALSE;
}
EM_BOOL on_mouse_leave(int, const EmscriptenMouseEvent*, void* user) {
    Host& h = host_of(user);
    if (captured != &h) push_move(h, off_canvas, off_canvas);
    return EM_FALSE;
}
// While a button is held the figure that got the press follows the mouse over the whole window.
void captured_position(const EmscriptenMouseEvent* e, float* x, float* y) {
    float origin[2];
    js_canvas_origin(captured->index, origin);
    *x = float(e->clientX) - origin[0];
    *y = float(e->clientY) - origin[1];
}
EM_BOOL on_window_mouse_move(int, const EmscriptenMouseEvent* e, void*) {
    if (!captured) return EM_FALSE;
    float x, y;
    captured_position(e, &x, &y);
    push_move(*captured, x, y);
    return EM_FALSE;
}
EM_BOOL on_window_mouse_up(int, const EmscriptenMouseEvent* e, void*) {
    if (!captured) return EM_FALSE;
    Host& h = *captured;
    float x, y;
    captured_position(e, &x, &y);
    push_move(h, x, y);
    push(h, {InputEvent::button, 0, 0, imgui_button(e->button), false});
    if (e->buttons == 0) {
        captured = nullptr;
        if (x < 0 || y < 0 || x >= h.css_width || y >= h.css_height) push_move(h, off_canvas, off_canvas);
    }
    return EM_FALSE;
}

// The wheel scrolls a figure only where ImGui has something to scroll; otherwise the page.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void* user) {
    Host& h = host_of(user);
    const ImGuiWindow* hovered = h.imgui->HoveredWindow;
    if (!hovered || (hovered->ScrollMax.x <= 0 && hovered->ScrollMax.y <= 0)) return EM_FALSE;
    const double unit = e->deltaMode == DOM_DELTA_PIXEL ? 100.0 : e->deltaMode == DOM_DELTA_LINE ? 3.0 : 1.0;
    push(h, {InputEvent::wheel, float(-e->deltaX / unit), float(-e->deltaY / unit)});
    return EM_TRUE;
}

// Touch: one finger is the mouse. A touch that lands on a widget ImGui makes active (a slider,
// a drag area) belongs to the figure; elsewhere the page scrolls as usual.
const EmscriptenTouchPoint* tracked_touch(const Host& h, const EmscriptenTouchEvent* e) {
    for (int i = 0; i < e->numTouches; i++)
        if (e->touches[i].identifier == h.touch_id) return &e->touches[i];
    return nullptr;
}
// Whether a widget holds the mouse. A press on a window's empty space also sets ActiveId (to
// the window's move id, even when it cannot move): that one does not count.
bool widget_active(const Host& h) {
    const ImGuiContext& g = *h.imgui;
    return g.ActiveId != 0 && !(g.ActiveIdWindow && g.ActiveId == g.ActiveIdWindow->MoveId);
}
EM_BOOL on_touch_start(int, const EmscriptenTouchEvent* e, void* user) {
    Host& h = host_of(user);
    if (h.touch_id >= 0 || e->numTouches != 1) return EM_FALSE;
    const EmscriptenTouchPoint& t = e->touches[0];
    h.touch_id = int(t.identifier);
    push_move(h, float(t.targetX), float(t.targetY));
    push(h, {InputEvent::button, 0, 0, 0, true});
    // Draw now, so the first touchmove already knows whether a widget took the touch.
    if (drawable(h)) draw_figure(h, emscripten_get_now());
    return EM_FALSE;
}
EM_BOOL on_touch_move(int, const EmscriptenTouchEvent* e, void* user) {
    Host& h = host_of(user);
    const EmscriptenTouchPoint* t = tracked_touch(h, e);
    if (!t) return EM_FALSE;
    if (widget_active(h)) {
        push_move(h, float(t->targetX), float(t->targetY));
        return EM_TRUE;  // no scrolling while a widget is being dragged
    }
    // The page scrolls: let go of the figure without clicking anything.
    push_move(h, off_canvas, off_canvas);
    push(h, {InputEvent::button, 0, 0, 0, false});
    h.touch_id = -1;
    return EM_FALSE;
}
EM_BOOL on_touch_end(int type, const EmscriptenTouchEvent* e, void* user) {
    Host& h = host_of(user);
    const EmscriptenTouchPoint* t = tracked_touch(h, e);
    if (!t) return EM_FALSE;
    push_move(h, float(t->targetX), float(t->targetY));
    push(h, {InputEvent::button, 0, 0, 0, false});
    push_move(h, off_canvas, off_canvas);  // no hover is left behind by a finger
    h.touch_id = -1;
    return type == EMSCRIPTEN_EVENT_TOUCHEND;  // stops the emulated mouse events that follow
}

// Keys go to ImGui while the canvas has focus; the page keeps them (space scrolls, Tab moves
// focus) unless a text field is being edited.
constexpr int dom_tab = 9;
bool is_single_code_point(const char* utf8, unsigned* code_point) {
    const auto* s = reinterpret_cast<const unsigned char*>(utf8);
    int length = s[0] < 0x80 ? 1 : (s[0] >> 5) == 6 ? 2 : (s[0] >> 4) == 14 ? 3 : (s[0] >> 3) == 30 ? 4 : 0;
    if (length == 0 || std::char_traits<char>::length(utf8) != std::size_t(length)) return false;
    unsigned cp = length == 1 ? s[0] : s[0] & (0x7F >> length);
    for (int i = 1; i < length; i++) cp = (cp << 6) | (s[i] & 0x3F);
    *code_point = cp;
    return cp >= 0x20 && cp != 0x7F;
}
EM_BOOL on_key(int type, const EmscriptenKeyboardEvent* e, void* user) {
    Host& h = host_of(user);
    const bool down = type == EMSCRIPTEN_EVENT_KEYDOWN;
    InputEvent key{InputEvent::key, 0, 0, int(e->keyCode), down};
    key.ctrl = e->ctrlKey; key.shift = e->shiftKey; key.alt = e->altKey; key.super = e->metaKey;
    push(h, key);
    unsigned code_point = 0;
    if (down && !e->ctrlKey && !e->metaKey && is_single_code_point(e->key, &code_point))
        push(h, {InputEvent::character, 0, 0, int(code_point)});
    if (e->keyCode == dom_tab) return EM_FALSE;
    return h.imgui->IO.WantTextInput;
}
EM_BOOL on_focus(int type, const EmscriptenFocusEvent*, void* user) {
    push(host_of(user), {InputEvent::focus, 0, 0, 0, type == EMSCRIPTEN_EVENT_FOCUS});
    return EM_FALSE;
}

// DOM keyCodes are the indices into io.KeysDown.

}  // namespace

void map_keys(ImGuiIO& io) {
    const int dom[][2] = {
        {ImGuiKey_Tab, 9}, {ImGuiKey_LeftArrow, 37}, {ImGuiKey_RightArrow, 39},
        {ImGuiKey_UpArrow, 38}, {ImGuiKey_DownArrow, 40}, {ImGuiKey_PageUp, 33},
        {ImGuiKey_PageDown, 34}, {ImGuiKey_Home, 36}, {ImGuiKey_End, 35}, {ImGuiKey_Insert, 45},
        {ImGuiKey_Delete, 46}, {ImGuiKey_Backspace, 8}, {ImGuiKey_Space, 32}, {ImGuiKey_Enter, 13},
        {ImGuiKey_Escape, 27}, {ImGuiKey_KeyPadEnter, 13}, {ImGuiKey_A, 65}, {ImGuiKey_C, 67},
        {ImGuiKey_V, 86}, {ImGuiKey_X, 88}, {ImGuiKey_Y, 89}, {ImGuiKey_Z, 90},
    };
    for (const auto& [imgui_key, dom_code] : dom) io.KeyMap[imgui_key] = dom_code;
}


namespace {

EM_BOOL on_context_lost(int, const void*, void* user) {
    Host& h = host_of(user);
    h.context_lost = true;
    h.renderer.forget();
    return EM_TRUE;  // preventDefault: the browser may restore the context
}
EM_BOOL on_context_restored(int, const void*, void* user) {
    Host& h = host_of(user);
    if (!create_gl(h)) return EM_FALSE;
    h.context_lost = false;
    wake(h);
    return EM_FALSE;
}


}  // namespace

void listen(Host& h) {
    const char* c = h.selector.c_str();
    emscripten_set_webglcontextlost_callback(c, &h, EM_FALSE, on_context_lost);
    emscripten_set_webglcontextrestored_callback(c, &h, EM_FALSE, on_context_restored);
    // A locked figure may be looked at (hover, the wheel in a scrolling table) but not changed:
    // no press, touch or key reaches it, and a touch scrolls the page as over text.
    emscripten_set_mousemove_callback(c, &h, EM_FALSE, on_mouse_move);
    emscripten_set_mouseleave_callback(c, &h, EM_FALSE, on_mouse_leave);
    emscripten_set_wheel_callback(c, &h, EM_FALSE, on_wheel);
    if (h.locked) return;
    emscripten_set_mousedown_callback(c, &h, EM_FALSE, on_mouse_down);
    emscripten_set_touchstart_callback(c, &h, EM_FALSE, on_touch_start);
    emscripten_set_touchmove_callback(c, &h, EM_FALSE, on_touch_move);
    emscripten_set_touchend_callback(c, &h, EM_FALSE, on_touch_end);
    emscripten_set_touchcancel_callback(c, &h, EM_FALSE, on_touch_end);
    emscripten_set_keydown_callback(c, &h, EM_FALSE, on_key);
    emscripten_set_keyup_callback(c, &h, EM_FALSE, on_key);
    emscripten_set_focus_callback(c, &h, EM_FALSE, on_focus);
    emscripten_set_blur_callback(c, &h, EM_FALSE, on_focus);
    static bool window_listening = false;
    if (!window_listening) {
        window_listening = true;
        emscripten_set_mousemove_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, on_window_mouse_move);
        emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, on_window_mouse_up);
    }
}


}  // namespace lb::web::detail
