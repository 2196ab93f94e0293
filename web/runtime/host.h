// web/runtime/host.h — inside the figure runtime: what host.cpp (hosts and frames), mirror.cpp (the
// page's mirror of the controls), input.cpp (browser input) and theme.cpp (style and font) share.
// Figures never include it: their side is figure.h.
#pragma once
#include <emscripten/html5.h>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include "controls.h"
#include "figure.h"
#include "gl_renderer.h"

namespace lb::web::detail {

// One input event, queued until a frame applies it (ImGui 1.86 reads input as state, so two
// button changes inside one frame would cancel out: see apply_input).
struct InputEvent {
    enum Kind { move, button, wheel, key, character, focus, action } kind;
    float x = 0, y = 0;    // move: CSS px in the canvas (-FLT_MAX: not over it); wheel: deltas
    int code = 0;          // button: ImGui button; key: DOM keyCode; character: code point
    bool down = false;     // button, key: pressed; focus: gained
    bool ctrl = false, shift = false, alt = false, super = false;  // key
    std::string control;   // action: the control's id (controls.h)
    Action act{Action::press};
};

// A control described this frame (controls.cpp), as the page's mirror receives it.
struct ControlRecord {
    std::string id;
    ImRect rect;            // CSS px in the canvas
    nlohmann::json json;
    ImVec2 cell{0, 0};      // a grid's cell size
    int cols = 0;           // a grid's columns
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
    int font_version = -1;                     // the shared atlas its font texture holds

    bool on_screen = false;                    // IntersectionObserver
    bool context_lost = false;
    int frames_wanted = 2;                     // frames still to draw; ImGui settles in two
    double frames_drawn = 0;
    double last_frame_ms = 0;
    int touch_id = -1;                         // the touch acting as the mouse, or -1

    std::map<std::string, ImRect, std::less<>> rects;  // recorded in the last frame, CSS px
    // Its controls (controls.h): described in the last frame, as last sent to the page's mirror;
    // the keyboard's action for this frame; the control the page's focus is on (a grid's cell,
    // a radio group's option: `focus_row`, `focus_col`; a span of a row from `focus_first`), ringed in the frame.
    std::vector<ControlRecord> controls;
    std::string controls_sent;
    std::optional<std::pair<std::string, Action>> action;
    std::string focus_id;
    int focus_row = -1, focus_col = -1, focus_first = -1;
    std::vector<std::string> announcements;    // said by the page's live region after the frame
    bool busy = false, busy_sent = false;
    std::string text_alternative;              // as last sent to the page
    ImGuiMouseCursor cursor = ImGuiMouseCursor_Arrow;
    bool dark = false;                         // the theme its ImGui style has
    bool failed = false;                       // no WebGL2 context: never drawn
    std::string url_written;                   // its part of the URL as last written
    // lock=1 (every figure) or lock=NAME,NAME (those named) in the link: a locked figure takes no
    // press, touch or key, so a student sees the settings the teacher chose; it says so under itself.
    std::string lock = "0";                    // the link's value, once accepted
    UrlTable lock_url{"lock"};
    bool locked = false;
};


extern std::vector<std::unique_ptr<Host>> hosts;  // attached canvases, by index
extern Host* drawing;                             // the figure whose `show` is running
extern Host* captured;                            // holds the mouse from a press until release
extern bool page_visible;
extern bool page_dark;                            // prefers-color-scheme, from lb_set_dark
// Whether figures describe their controls to the page (controls.h): off only to measure what
// describing costs (window.lookback.describeControls, tests/browser/mirror_bench.mjs): no
// description is built or sent, only each control's rectangle kept as its test handle.
extern bool describing;

bool drawable(const Host& h);
// Asks for `frames` more frames of h (ImGui settles in two).
void wake(Host& h, int frames = 2);
void request_frame();
void draw_figure(Host& h, double now_ms);  // one frame of h, now
// Builds the GL side of a figure: at attach and after the context is restored.
bool create_gl(Host& h);

// mirror.cpp
void draw_focus_ring(const Host& h);  // around the control the page's focus is on, over the frame
void sync_controls(Host& h);          // the frame's controls and announcements, to the page
Host* host_at(int index);             // an attached figure by index, or null

// input.cpp
void apply_input(Host& h);   // the queued events, into ImGuiIO, before a frame
void map_keys(ImGuiIO& io);
void listen(Host& h);        // html5.h callbacks on the figure's canvas

// theme.cpp
void apply_style(ImGuiStyle& style, bool dark);
// One font atlas for every figure, rasterised once per devicePixelRatio; each GL context holds
// its own texture of it (a texture belongs to one context).
ImFontAtlas& shared_font_atlas();
void build_font(Host& h);    // the atlas at h's ratio, uploaded into h's context if stale
// For the test surface: the characters of `text` without a glyph, the atlas's size, its glyphs,
// its last build's time and the shipped fonts loaded.
nlohmann::json font_report(std::string_view text);

}  // namespace lb::web::detail
