// web/runtime.cpp — the figure runtime: one WebGL2 context and one ImGui context per
// <canvas data-figure>, input from html5.h on that canvas, frames only when needed, the ImGui
// style of the page's light or dark theme, the page's URL query, and the exports the page glue
// (web/lookback.js) calls. The figures' side is web/figure.h.
//
// Coordinates: ImGui works in CSS pixels of the canvas (io.DisplaySize); the framebuffer is
// devicePixelRatio times larger (io.DisplayFramebufferScale) and the font is rasterised at
// that ratio, so text is drawn texel for pixel.
//
// [SECTION] Figure hosts
// [SECTION] Input: html5.h events -> a queue per figure -> ImGuiIO
// [SECTION] Frames: when a figure draws, and drawing one
// [SECTION] The figure API (figure.h) and the heatmap (heatmap.h)
// [SECTION] Exports to web/lookback.js
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // HoveredWindow and ClearActiveID: whether the wheel scrolls, blur

#include "dejavu_sans.h"
#include "figure.h"
#include "gl_renderer.h"
#include "heatmap.h"

namespace lb::web {
namespace {

//-----------------------------------------------------------------------------------------------
// [SECTION] Figure hosts
//-----------------------------------------------------------------------------------------------

// One input event, queued until a frame applies it (ImGui 1.86 reads input as state, so two
// button changes inside one frame would cancel out: see apply_input).
struct InputEvent {
    enum Kind { move, button, wheel, key, character, focus } kind;
    float x = 0, y = 0;    // move: CSS px in the canvas (-FLT_MAX: not over it); wheel: deltas
    int code = 0;          // button: ImGui button; key: DOM keyCode; character: code point
    bool down = false;     // button, key: pressed; focus: gained
    bool ctrl = false, shift = false, alt = false, super = false;  // key
};

struct Host {
    FigureSpec spec;
    int index = 0;
    std::string selector;                      // "#id" of the canvas
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = 0;
    ImGuiContext* imgui = nullptr;
    GlRenderer renderer;
    std::deque<InputEvent> input;

    float css_width = 0, css_height = 0;       // the canvas's CSS box
    int fb_width = 0, fb_height = 0;           // its backing store, device pixels
    float dpr = 1;                             // devicePixelRatio
    float font_dpr = 0;                        // the ratio the font atlas was built for

    bool on_screen = false;                    // IntersectionObserver
    bool context_lost = false;
    bool working = false;                      // spec.work asked to run again
    int frames_wanted = 2;                     // frames still to draw; ImGui settles in two
    double frames_drawn = 0;
    double last_frame_ms = 0;
    int touch_id = -1;                         // the touch acting as the mouse, or -1

    std::map<std::string, ImRect, std::less<>> rects;  // recorded in the last frame, CSS px
    std::string text_alternative;              // as last sent to the page
    ImGuiMouseCursor cursor = ImGuiMouseCursor_Arrow;
    bool dark = false;                         // the theme its ImGui style has
};

std::vector<FigureSpec> registered;
std::vector<std::unique_ptr<Host>> hosts;      // attached canvases, by index
Host* drawing = nullptr;                       // the figure whose `show` is running
Host* captured = nullptr;                      // holds the mouse from a press until release
bool page_visible = true;
bool page_dark = false;                        // prefers-color-scheme, from lb_set_dark
bool frame_requested = false;


// Calls into web/lookback.js (Module.lookbackHost), which knows the canvases.
EM_JS(void, js_set_cursor, (int figure, const char* css), {
    Module.lookbackHost.setCursor(figure, UTF8ToString(css));
});
EM_JS(void, js_set_text_alternative, (int figure, const char* html), {
    Module.lookbackHost.setTextAlternative(figure, UTF8ToString(html));
});
EM_JS(void, js_focus, (int figure), { Module.lookbackHost.focus(figure); });
EM_JS(void, js_set_height, (int figure, float css_height), {
    Module.lookbackHost.setHeight(figure, css_height);
});
// The page's URL (figure.h: query_param, replace_query). The value is the caller's to free.
EM_JS(char*, js_query_param, (const char* key), {
    const value = new URLSearchParams(location.search).get(UTF8ToString(key));
    if (value === null) return 0;
    const size = lengthBytesUTF8(value) + 1;
    const out = _malloc(size);
    stringToUTF8(value, out, size);
    return out;
});
EM_JS(void, js_replace_query, (const char* prefix, const char* ours), {
    const mine = UTF8ToString(prefix);
    const url = new URL(location.href);
    const parts = [];
    url.searchParams.forEach(function(v, k) {  // (EM_JS mangles destructuring)
        if (!k.startsWith(mine)) parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(v));
    });
    const own = UTF8ToString(ours);
    if (own) parts.push(own);
    url.search = parts.join("&");
    history.replaceState(history.state, "", url.href);
});
EM_JS(void, js_canvas_origin, (int figure, float* xy), {
    const origin = Module.lookbackHost.origin(figure);
    HEAPF32[xy >> 2] = origin[0];
    HEAPF32[(xy >> 2) + 1] = origin[1];
});

void request_frame();
bool drawable(const Host& h) {
    return page_visible && h.on_screen && !h.context_lost && h.fb_width > 0 && h.fb_height > 0;
}
void wake(Host& h, int frames = 2) {
    h.frames_wanted = std::max(h.frames_wanted, frames);
    if (drawable(h)) request_frame();
}

// The light style, and for a dark page the colours that differ from it.
void apply_style(ImGuiStyle& style, bool dark) {
    ImGui::StyleColorsLight(&style);
    style.WindowPadding = {12, 10};
    style.WindowRounding = 0;
    style.WindowBorderSize = 0;
    style.FrameRounding = 3;
    style.FramePadding = {8, 4};
    style.ItemSpacing = {8, 6};
    style.CellPadding = {8, 3};
    style.GrabRounding = 3;
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = {1.0f, 1.0f, 1.0f, 1.0f};
    c[ImGuiCol_Text] = {0.11f, 0.11f, 0.12f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.42f, 0.42f, 0.45f, 1.0f};
    c[ImGuiCol_Button] = {0.86f, 0.90f, 0.95f, 1.0f};
    c[ImGuiCol_ButtonHovered] = {0.76f, 0.84f, 0.93f, 1.0f};
    c[ImGuiCol_ButtonActive] = {0.64f, 0.76f, 0.90f, 1.0f};
    c[ImGuiCol_FrameBg] = {0.94f, 0.95f, 0.96f, 1.0f};
    c[ImGuiCol_TableHeaderBg] = {0.94f, 0.94f, 0.93f, 1.0f};
    c[ImGuiCol_TableBorderStrong] = {0.80f, 0.80f, 0.80f, 1.0f};
    c[ImGuiCol_TableBorderLight] = {0.88f, 0.88f, 0.88f, 1.0f};
    if (!dark) return;
    c[ImGuiCol_WindowBg] = {0.106f, 0.114f, 0.129f, 1.0f};  // #1b1d21, the figure frame in style.css
    c[ImGuiCol_Text] = {0.90f, 0.90f, 0.92f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.58f, 0.59f, 0.63f, 1.0f};
    c[ImGuiCol_Border] = {0.30f, 0.31f, 0.35f, 1.0f};
    c[ImGuiCol_FrameBg] = {0.17f, 0.18f, 0.21f, 1.0f};
    c[ImGuiCol_FrameBgHovered] = {0.22f, 0.25f, 0.30f, 1.0f};
    c[ImGuiCol_FrameBgActive] = {0.25f, 0.30f, 0.38f, 1.0f};
    c[ImGuiCol_Button] = {0.19f, 0.25f, 0.34f, 1.0f};
    c[ImGuiCol_ButtonHovered] = {0.24f, 0.33f, 0.46f, 1.0f};
    c[ImGuiCol_ButtonActive] = {0.29f, 0.41f, 0.58f, 1.0f};
    c[ImGuiCol_CheckMark] = {0.50f, 0.72f, 1.0f, 1.0f};
    c[ImGuiCol_SliderGrab] = {0.43f, 0.62f, 0.90f, 1.0f};
    c[ImGuiCol_SliderGrabActive] = {0.50f, 0.72f, 1.0f, 1.0f};
    c[ImGuiCol_Header] = {0.22f, 0.30f, 0.42f, 1.0f};
    c[ImGuiCol_HeaderHovered] = {0.26f, 0.36f, 0.50f, 1.0f};
    c[ImGuiCol_HeaderActive] = {0.30f, 0.42f, 0.58f, 1.0f};
    c[ImGuiCol_TableHeaderBg] = {0.15f, 0.16f, 0.19f, 1.0f};
    c[ImGuiCol_TableBorderStrong] = {0.32f, 0.33f, 0.37f, 1.0f};
    c[ImGuiCol_TableBorderLight] = {0.25f, 0.26f, 0.29f, 1.0f};
    c[ImGuiCol_TextSelectedBg] = {0.30f, 0.45f, 0.70f, 0.5f};
    c[ImGuiCol_ScrollbarBg] = {0.10f, 0.10f, 0.12f, 1.0f};
    c[ImGuiCol_ScrollbarGrab] = {0.30f, 0.31f, 0.35f, 1.0f};
}

// DejaVu Sans at the canvas's devicePixelRatio, shown at 15 CSS px. The glyph ranges cover
// the article's notation: Latin-1, Greek, dashes and quotes, sub- and superscripts, arrows,
// the common mathematical operators and a few shapes.
void build_font(Host& h) {
    static const ImWchar ranges[] = {
        0x0020, 0x00FF, 0x0370, 0x03FF, 0x2010, 0x2027, 0x2070, 0x209F, 0x2190, 0x2199,
        0x2200, 0x222B, 0x2248, 0x2265, 0x22C5, 0x22C5, 0x25A0, 0x25CF, 0,
    };
    constexpr float css_size = 15.0f;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;     // the bytes are the module's, not the atlas's
    config.OversampleH = config.OversampleV = 1;
    config.PixelSnapH = true;                // whole-pixel advances: glyphs land on pixels
    void* ttf = const_cast<unsigned char*>(embedded::dejavu_sans_ttf);
    io.Fonts->AddFontFromMemoryTTF(ttf, sizeof embedded::dejavu_sans_ttf, css_size * h.dpr, &config, ranges);
    io.Fonts->Build();
    io.FontGlobalScale = 1.0f / h.dpr;
    h.renderer.upload_fonts(*io.Fonts);
    h.font_dpr = h.dpr;
}

// Builds the GL side of a figure: at attach and after the context is restored.
bool create_gl(Host& h) {
    emscripten_webgl_make_context_current(h.gl);
    ImGui::SetCurrentContext(h.imgui);
    if (!h.renderer.create()) return false;
    h.font_dpr = 0;  // the font texture is uploaded by the next frame
    return true;
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Input: html5.h events -> a queue per figure -> ImGuiIO
//-----------------------------------------------------------------------------------------------

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
        }
    }
}

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
void draw_figure(Host& h, double now_ms);
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

void listen(Host& h) {
    const char* c = h.selector.c_str();
    emscripten_set_mousedown_callback(c, &h, EM_FALSE, on_mouse_down);
    emscripten_set_mousemove_callback(c, &h, EM_FALSE, on_mouse_move);
    emscripten_set_mouseleave_callback(c, &h, EM_FALSE, on_mouse_leave);
    emscripten_set_wheel_callback(c, &h, EM_FALSE, on_wheel);
    emscripten_set_touchstart_callback(c, &h, EM_FALSE, on_touch_start);
    emscripten_set_touchmove_callback(c, &h, EM_FALSE, on_touch_move);
    emscripten_set_touchend_callback(c, &h, EM_FALSE, on_touch_end);
    emscripten_set_touchcancel_callback(c, &h, EM_FALSE, on_touch_end);
    emscripten_set_keydown_callback(c, &h, EM_FALSE, on_key);
    emscripten_set_keyup_callback(c, &h, EM_FALSE, on_key);
    emscripten_set_focus_callback(c, &h, EM_FALSE, on_focus);
    emscripten_set_blur_callback(c, &h, EM_FALSE, on_focus);
    emscripten_set_webglcontextlost_callback(c, &h, EM_FALSE, on_context_lost);
    emscripten_set_webglcontextrestored_callback(c, &h, EM_FALSE, on_context_restored);
    static bool window_listening = false;
    if (!window_listening) {
        window_listening = true;
        emscripten_set_mousemove_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, on_window_mouse_move);
        emscripten_set_mouseup_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, nullptr, EM_FALSE, on_window_mouse_up);
    }
}

//-----------------------------------------------------------------------------------------------
// [SECTION] Frames: when a figure draws, and drawing one
//-----------------------------------------------------------------------------------------------

const char* css_cursor(ImGuiMouseCursor cursor) {
    switch (cursor) {
        case ImGuiMouseCursor_None: return "none";
        case ImGuiMouseCursor_TextInput: return "text";
        case ImGuiMouseCursor_ResizeAll: return "move";
        case ImGuiMouseCursor_ResizeNS: return "ns-resize";
        case ImGuiMouseCursor_ResizeEW: return "ew-resize";
        case ImGuiMouseCursor_ResizeNESW: return "nesw-resize";
        case ImGuiMouseCursor_ResizeNWSE: return "nwse-resize";
        case ImGuiMouseCursor_Hand: return "pointer";
        case ImGuiMouseCursor_NotAllowed: return "not-allowed";
        default: return "default";
    }
}

// Sends the figure's text alternative to the page when it changed.
void sync_text_alternative(Host& h) {
    if (!h.spec.text_alternative) return;
    if (std::string text = h.spec.text_alternative(); text != h.text_alternative) {
        h.text_alternative = std::move(text);
        js_set_text_alternative(h.index, h.text_alternative.c_str());
    }
}

void draw_figure(Host& h, double now_ms) {
    emscripten_webgl_make_context_current(h.gl);
    ImGui::SetCurrentContext(h.imgui);
    ImGuiIO& io = ImGui::GetIO();
    if (h.font_dpr != h.dpr) build_font(h);
    if (h.dark != page_dark) {
        apply_style(ImGui::GetStyle(), page_dark);
        h.dark = page_dark;
    }
    apply_input(h);
    io.DisplaySize = {h.css_width, h.css_height};
    io.DisplayFramebufferScale = {h.fb_width / h.css_width, h.fb_height / h.css_height};
    io.DeltaTime = h.last_frame_ms > 0 ? float(std::clamp((now_ms - h.last_frame_ms) / 1000.0, 1e-4, 0.25)) : 1.0f / 60;
    h.last_frame_ms = now_ms;

    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0, 0});
    ImGui::SetNextWindowSize(io.DisplaySize);
    // No scrollbar: a figure's layout depends on its width only, so a figure may size its
    // canvas to its content without the scrollbar coming and going (and the wheel scrolls the page).
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                   ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::Begin(h.spec.name.c_str(), nullptr, flags);
    h.rects.clear();
    drawing = &h;
    h.spec.show();
    drawing = nullptr;
    if (h.spec.fit_height) {  // the canvas becomes as tall as what was drawn; a resize follows
        const ImGuiStyle& style = ImGui::GetStyle();
        const float content = std::ceil(ImGui::GetCursorPosY() - style.ItemSpacing.y + style.WindowPadding.y);
        if (std::fabs(content - h.css_height) >= 1.0f) js_set_height(h.index, content);
    }
    ImGui::End();
    ImGui::Render();
    // Cleared with the style's window colour: a figure that restyles itself fills the canvas.
    h.renderer.render(*ImGui::GetDrawData(), h.fb_width, h.fb_height, ImGui::GetStyle().Colors[ImGuiCol_WindowBg]);

    h.frames_drawn += 1;
    // A frame that leaves input queued does not count: the frames that follow the last event
    // are the same whether the events came one per animation frame or several in one.
    if (h.input.empty()) h.frames_wanted = std::max(0, h.frames_wanted - 1);
    if (h.spec.work) h.working = true;  // this frame's input may have started work
    if (const ImGuiMouseCursor cursor = ImGui::GetMouseCursor(); cursor != h.cursor) {
        h.cursor = cursor;
        js_set_cursor(h.index, css_cursor(cursor));
    }
    sync_text_alternative(h);
}

EM_BOOL on_animation_frame(double now_ms, void*) {
    frame_requested = false;
    bool again = false;
    for (auto& host : hosts) {
        Host& h = *host;
        if (h.working) h.working = h.spec.work();  // redraws come from request_redraw
        const bool wanted = h.frames_wanted > 0 || !h.input.empty();
        if (drawable(h) && wanted) draw_figure(h, now_ms);
        again |= h.working || (drawable(h) && (h.frames_wanted > 0 || !h.input.empty()));
    }
    if (again) request_frame();
    return EM_FALSE;
}

void request_frame() {
    if (frame_requested) return;
    frame_requested = true;
    emscripten_request_animation_frame(on_animation_frame, nullptr);
}

Host* find_host(std::string_view name) {
    for (auto& h : hosts)
        if (h->spec.name == name) return h.get();
    return nullptr;
}
Host* host_at(int index) {
    return index >= 0 && index < int(hosts.size()) ? hosts[index].get() : nullptr;
}

}  // namespace

//-----------------------------------------------------------------------------------------------
// [SECTION] The figure API (figure.h) and the heatmap (heatmap.h)
//-----------------------------------------------------------------------------------------------

void register_figure(FigureSpec spec) {
    for (const FigureSpec& s : registered)
        if (s.name == spec.name) std::fprintf(stderr, "lookback: figure %s registered twice\n", spec.name.c_str());
    registered.push_back(std::move(spec));
}

void record_rect(std::string_view widget) {
    if (!drawing) return;
    drawing->rects[std::string(widget)] = ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void keep_awake() {
    if (drawing) drawing->frames_wanted = std::max(drawing->frames_wanted, 2);
}

void request_redraw(std::string_view name) {
    if (Host* h = find_host(name)) {
        if (h->spec.work) h->working = true;
        wake(*h);
        if (h->working) request_frame();
        // Off screen it does not draw, but its text stays current for readers who do not look
        // (once `show` has run: a figure may compute what its text reads while drawing).
        if (!drawable(*h) && h->frames_drawn > 0) sync_text_alternative(*h);
    }
}

bool page_is_dark() { return page_dark; }

std::string thousands(long value) {
    std::string digits = std::to_string(value), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string html_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

std::optional<std::string> query_param(std::string_view key) {
    char* value = js_query_param(std::string(key).c_str());
    if (!value) return std::nullopt;
    std::string text = value;
    std::free(value);
    return text;
}

void replace_query(std::string_view prefix, std::string_view ours) {
    js_replace_query(std::string(prefix).c_str(), std::string(ours).c_str());
}

HeatmapHit Heatmap(const char* id, std::span<const float> values, int rows, int cols,
                   ImVec2 size, Colormap map, float lo, float hi) {
    HeatmapHit hit;
    if (!drawing || rows <= 0 || cols <= 0 || values.size() != std::size_t(rows) * std::size_t(cols)) return hit;
    ImGui::InvisibleButton(id, size);
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    GlRenderer& renderer = drawing->renderer;
    const ImTextureID texture = renderer.heatmap_texture(ImGui::GetItemID(), values, rows, cols);
    renderer.add_heatmap(*ImGui::GetWindowDrawList(), texture, min, max, map == Colormap::sequential ? 0 : 1, lo, hi);
    if (ImGui::IsItemHovered()) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        hit.col = std::clamp(int((mouse.x - min.x) / (max.x - min.x) * cols), 0, cols - 1);
        hit.row = std::clamp(int((mouse.y - min.y) / (max.y - min.y) * rows), 0, rows - 1);
        hit.clicked = ImGui::IsItemClicked();
    }
    return hit;
}

}  // namespace lb::web

//-----------------------------------------------------------------------------------------------
// [SECTION] Exports to web/lookback.js
//-----------------------------------------------------------------------------------------------
using namespace lb::web;

extern "C" {

// Gives the canvas `selector` to the registered figure `name`. Returns the figure's index for
// the calls below, or -1 (unknown name, or no WebGL2) after logging why.
EMSCRIPTEN_KEEPALIVE int lb_attach(const char* name, const char* selector) {
    const auto spec = std::find_if(registered.begin(), registered.end(), [&](const FigureSpec& s) { return s.name == name; });
    if (spec == registered.end()) {
        std::fprintf(stderr, "lookback: no figure is registered as %s\n", name);
        return -1;
    }
    if (find_host(name)) {
        std::fprintf(stderr, "lookback: figure %s is on the page twice\n", name);
        return -1;
    }
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = EM_FALSE;
    attributes.depth = EM_FALSE;
    attributes.stencil = EM_FALSE;
    attributes.antialias = EM_FALSE;           // ImGui anti-aliases its own shapes
    attributes.preserveDrawingBuffer = EM_TRUE;  // an idle figure's pixels stay readable
    const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl = emscripten_webgl_create_context(selector, &attributes);
    if (gl <= 0) {
        std::fprintf(stderr, "lookback: figure %s: this browser gave no WebGL2 context\n", name);
        return -1;
    }
    auto host = std::make_unique<Host>();
    Host& h = *host;
    h.spec = *spec;
    h.index = int(hosts.size());
    h.selector = selector;
    h.gl = gl;
    h.imgui = ImGui::CreateContext();  // with its own font atlas: one font texture per context
    ImGui::SetCurrentContext(h.imgui);
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.LogFilename = nullptr;
    io.ConfigInputTextCursorBlink = false;  // a blinking caret would keep the figure drawing
    io.BackendPlatformName = io.BackendRendererName = "lookback";
    io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
    map_keys(io);
    apply_style(ImGui::GetStyle(), page_dark);
    h.dark = page_dark;
    if (!create_gl(h)) return -1;
    hosts.push_back(std::move(host));
    listen(h);
    h.working = bool(h.spec.work);  // work runs from the first frame, on screen or not
    if (h.working) request_frame();
    return h.index;
}

// The canvas's CSS box, devicePixelRatio and backing store (already set by the glue).
EMSCRIPTEN_KEEPALIVE void lb_resize(int index, double css_width, double css_height, double dpr,
                                    int fb_width, int fb_height) {
    Host* h = host_at(index);
    if (!h) return;
    h->css_width = float(css_width);
    h->css_height = float(css_height);
    h->dpr = float(dpr);
    h->fb_width = fb_width;
    h->fb_height = fb_height;
    wake(*h);  // resizing the backing store cleared it
}

EMSCRIPTEN_KEEPALIVE void lb_set_on_screen(int index, int on_screen) {
    if (Host* h = host_at(index)) {
        h->on_screen = on_screen != 0;
        if (drawable(*h) && h->frames_wanted > 0) request_frame();
    }
}

EMSCRIPTEN_KEEPALIVE void lb_set_page_visible(int visible) {
    page_visible = visible != 0;
    if (page_visible) request_frame();
}

// The reader's prefers-color-scheme: at start, before the figures attach, and on every change.
EMSCRIPTEN_KEEPALIVE void lb_set_dark(int dark) {
    page_dark = dark != 0;
    for (auto& h : hosts) wake(*h);
}

// The test surface (window.lookback): read-only views of a figure.
EMSCRIPTEN_KEEPALIVE const char* lb_state(int index) {
    static std::string json;
    const Host* h = host_at(index);
    json = h && h->spec.state ? h->spec.state().dump() : "null";
    return json.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* lb_rect(int index, const char* widget) {
    static std::string json;
    json = "null";
    if (const Host* h = host_at(index)) {
        if (const auto r = h->rects.find(std::string_view(widget)); r != h->rects.end())
            json = nlohmann::json::array({r->second.Min.x, r->second.Min.y, r->second.GetWidth(), r->second.GetHeight()}).dump();
    }
    return json.c_str();
}

EMSCRIPTEN_KEEPALIVE double lb_frames(int index) {
    const Host* h = host_at(index);
    return h ? h->frames_drawn : -1;
}

EMSCRIPTEN_KEEPALIVE int lb_working(int index) {
    const Host* h = host_at(index);
    return h && h->working;
}

}  // extern "C"
