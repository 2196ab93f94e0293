// web/runtime/host.cpp — the figure runtime's hosts: one WebGL2 context and one ImGui context per
// <canvas data-figure>, frames only when needed, the figure API (figure.h), and the exports the
// page glue (web/page/lookback.js) calls. The mirror of the controls is mirror.cpp's, input
// input.cpp's, style and font theme.cpp's.
//
// Coordinates: ImGui works in CSS pixels of the canvas (io.DisplaySize); the framebuffer is
// devicePixelRatio times larger (io.DisplayFramebufferScale) and the font is rasterised at
// that ratio, so text is drawn texel for pixel.
//
// [SECTION] Figure hosts
// [SECTION] Frames: when a figure draws, and drawing one
// [SECTION] The figure API (figure.h)
// [SECTION] Exports to web/page/lookback.js
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
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // HoveredWindow and ClearActiveID: whether the wheel scrolls, blur

#include "host.h"
#include "text/text.h"
#include "theme.h"

// [SECTION] Figure hosts

namespace lb::web::detail {

std::vector<std::unique_ptr<Host>> hosts;
Host* drawing = nullptr;
Host* captured = nullptr;
bool page_visible = true;
bool page_dark = false;
bool describing = true;

namespace {

std::vector<FigureSpec> registered;
bool frame_requested = false;



// Calls into web/page/lookback.js (Module.lookbackHost), which knows the canvases.
EM_JS(void, js_set_cursor, (int figure, const char* css), {
    Module.lookbackHost.setCursor(figure, UTF8ToString(css));
});
EM_JS(void, js_set_text_alternative, (int figure, const char* html), {
    Module.lookbackHost.setTextAlternative(figure, UTF8ToString(html));
});
// Sets the canvas's CSS height and its backing store's at once; returns the backing store's
// height in device pixels.
EM_JS(int, js_set_height, (int figure, float css_height), {
    return Module.lookbackHost.setHeight(figure, css_height);
});
// The page's URL query ("?a=1&b=2"), for the figures' tables (url_state.h). The caller frees it.
EM_JS(char*, js_query_string, (), {
    const value = location.search;
    const size = lengthBytesUTF8(value) + 1;
    const out = _malloc(size);
    stringToUTF8(value, out, size);
    return out;
});
// Replaces the parameters starting with `prefix` by `ours` ("k=v&k=v", URL-safe already),
// keeping every other parameter; history.replaceState, so no new history entry.
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
    // The page keeps what the address must carry with the figures' keys (a reader's task they name).
    if (Module.lookbackHost.addressWritten) Module.lookbackHost.addressWritten();
});
EM_JS(void, js_figure_failed, (int figure), { Module.lookbackHost.failed(figure); });


}  // namespace

bool drawable(const Host& h) {
    return h.gl && page_visible && h.on_screen && !h.context_lost && h.fb_width > 0 && h.fb_height > 0;
}
void wake(Host& h, int frames) {
    h.frames_wanted = std::max(h.frames_wanted, frames);
    if (drawable(h)) request_frame();
}


// Builds the GL side of a figure: at attach and after the context is restored.
bool create_gl(Host& h) {
    emscripten_webgl_make_context_current(h.gl);
    ImGui::SetCurrentContext(h.imgui);
    if (!h.renderer.create()) return false;
    h.font_version = -1;  // the font texture is uploaded by the next frame
    return true;
}


namespace {

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

// What the link asked of the figure that it could not take: its own table's refusals and lock's.
std::vector<std::string> url_messages(const Host& h) {
    std::vector<std::string> all = h.spec.url ? h.spec.url->messages() : std::vector<std::string>();
    const std::vector<std::string> lock = h.lock_url.messages();
    all.insert(all.end(), lock.begin(), lock.end());
    return all;
}

// One line per refusal, under the figure; then, on a locked figure, what the lock means.
void show_url_messages(const Host& h) {
    const std::vector<std::string> messages = url_messages(h);
    if (!messages.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().error);
        for (const std::string& m : messages) WrappedText("%s", m.c_str());
        ImGui::PopStyleColor();
        record_rect("url-message");
    }
    if (h.locked) {
        ImGui::PushStyleColor(ImGuiCol_Text, lesson_colors().text_dim);
        WrappedText("Locked by its link: the figure keeps the settings it was sent with and does not take clicks. "
                    "Unlock, under it, opens the same link without lock.");
        ImGui::PopStyleColor();
        record_rect("lock-note");
    }
}

std::vector<std::string> comma_separated(const std::string& text) {
    std::vector<std::string> parts;
    for (size_t from = 0; from <= text.size();) {
        const size_t comma = std::min(text.find(',', from), text.size());
        parts.push_back(text.substr(from, comma - from));
        from = comma + 1;
    }
    return parts;
}

// lock=1 locks every figure, lock=training,alignment the ones named, lock=0 none.
bool lock_names(const std::string& value, const std::string& figure) {
    const std::vector<std::string> names = comma_separated(value);
    return value == "1" || std::find(names.begin(), names.end(), figure) != names.end();
}

// The figure's keys in the address, when they changed since last written.
void write_url(Host& h) {
    std::string query = h.spec.url->query();
    if (query == h.url_written) return;
    js_replace_query(h.spec.url->prefix().c_str(), query.c_str());
    h.url_written = std::move(query);
}

// Not while the mouse is down or a widget is active: browsers throttle replaceState during a
// drag, and a half-typed number is not a setting yet.
void write_url_when_idle(Host& h) {
    if (ImGui::IsMouseDown(ImGuiMouseButton_Left) || ImGui::IsAnyItemActive()) return;
    write_url(h);
}

// Sends the figure's text alternative to the page when it changed.
void sync_text_alternative(Host& h) {
    if (!h.spec.text_alternative) return;
    std::string text;
    for (const std::string& m : url_messages(h)) text += "<p role=\"alert\">" + html_escape(m) + "</p>";
    try {
        text += lb::sanitize_utf8(h.spec.text_alternative());
    } catch (const std::exception& e) {  // a bug: logged, and the old text stays
        std::fprintf(stderr, "lookback: figure %s: %s\n", h.spec.name.c_str(), e.what());
        return;
    }
    if (text != h.text_alternative) {
        h.text_alternative = std::move(text);
        js_set_text_alternative(h.index, h.text_alternative.c_str());
    }
}

// Draws one frame of the figure, or returns false without drawing when the figure fitted its
// canvas to a new height: that frame was laid out for the old one.
bool draw_frame(Host& h, double now_ms) {
    emscripten_webgl_make_context_current(h.gl);
    ImGui::SetCurrentContext(h.imgui);
    ImGuiIO& io = ImGui::GetIO();
    build_font(h);
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
    h.controls.clear();
    h.busy = false;
    drawing = &h;
    bool recovered = false;
    try {
        h.spec.show();
        show_url_messages(h);
    } catch (const std::exception& e) {
        // A bug, not the reader's input: logged, and the frame closed so the figure lives on.
        std::fprintf(stderr, "lookback: figure %s: %s\n", h.spec.name.c_str(), e.what());
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        recovered = true;
    }
    drawing = nullptr;
    h.action.reset();  // an action for a control not drawn this frame is dropped
    if (!recovered) draw_focus_ring(h);
    bool refitted = false;
    if (h.spec.fit_height) {  // the canvas becomes as tall as what was drawn
        const ImGuiStyle& style = ImGui::GetStyle();
        const float content = std::ceil(ImGui::GetCursorPosY() - style.ItemSpacing.y + style.WindowPadding.y);
        if (std::fabs(content - h.css_height) >= 1.0f) {
            h.fb_height = js_set_height(h.index, content);
            h.css_height = content;
            wake(h);
            refitted = true;
        }
    }
    if (!recovered) ImGui::End();
    ImGui::Render();
    if (refitted) return false;
    // Cleared with the style's window colour: a figure that restyles itself fills the canvas.
    h.renderer.render(*ImGui::GetDrawData(), h.fb_width, h.fb_height, ImGui::GetStyle().Colors[ImGuiCol_WindowBg]);

    h.frames_drawn += 1;
    // A frame that leaves input queued does not count: the frames that follow the last event
    // are the same whether the events came one per animation frame or several in one.
    if (h.input.empty()) h.frames_wanted = std::max(0, h.frames_wanted - 1);
    if (const ImGuiMouseCursor cursor = ImGui::GetMouseCursor(); cursor != h.cursor) {
        h.cursor = cursor;
        js_set_cursor(h.index, css_cursor(cursor));
    }
    sync_text_alternative(h);
    sync_controls(h);
    if (h.spec.url) write_url_when_idle(h);
    return true;
}

}  // namespace

// A figure that fits its canvas is drawn again at once at its new height: resizing the
// backing store cleared it, and the reader sees neither a blank canvas nor the old height.
void draw_figure(Host& h, double now_ms) {
    if (!draw_frame(h, now_ms)) draw_frame(h, now_ms);
}

namespace {

EM_BOOL on_animation_frame(double now_ms, void*) {
    frame_requested = false;
    bool again = false;
    for (auto& host : hosts) {
        Host& h = *host;
        const bool wanted = h.frames_wanted > 0 || !h.input.empty();
        if (drawable(h) && wanted) draw_figure(h, now_ms);
        again |= (drawable(h) && (h.frames_wanted > 0 || !h.input.empty()));
    }
    if (again) request_frame();
    return EM_FALSE;
}

}  // namespace

void request_frame() {
    if (frame_requested) return;
    frame_requested = true;
    emscripten_request_animation_frame(on_animation_frame, nullptr);
}


namespace {

// Makes a figure's WebGL2 and ImGui contexts and listens to its canvas.
bool start_host(Host& h) {
    EmscriptenWebGLContextAttributes attributes;
    emscripten_webgl_init_context_attributes(&attributes);
    attributes.majorVersion = 2;
    attributes.minorVersion = 0;
    attributes.alpha = EM_FALSE;
    attributes.depth = EM_FALSE;
    attributes.stencil = EM_FALSE;
    attributes.antialias = EM_FALSE;           // ImGui anti-aliases its own shapes
    attributes.preserveDrawingBuffer = EM_TRUE;  // an idle figure's pixels stay readable
    // The renderer uses WebGL2 alone; enabling every extension costs round trips to the GPU
    // process while the page's first frame waits.
    attributes.enableExtensionsByDefault = EM_FALSE;
    h.gl = emscripten_webgl_create_context(h.selector.c_str(), &attributes);
    if (h.gl <= 0) {
        h.gl = 0;
        std::fprintf(stderr, "lookback: figure %s: this browser gave no WebGL2 context\n", h.spec.name.c_str());
        return false;
    }
    h.imgui = ImGui::CreateContext(&shared_font_atlas());  // one font for all, a texture per context
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
    if (!create_gl(h)) return false;
    listen(h);
    return true;
}

Host* find_host(std::string_view name) {
    for (auto& h : hosts)
        if (h->spec.name == name) return h.get();
    return nullptr;
}

}  // namespace

Host* host_at(int index) {
    return index >= 0 && index < int(hosts.size()) ? hosts[index].get() : nullptr;
}

}  // namespace lb::web::detail

namespace lb::web {

using namespace detail;

// [SECTION] The figure API (figure.h)
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
        wake(*h);
        // Off screen it does not draw, but its text stays current for readers who do not look
        // (once `show` has run: a figure may compute what its text reads while drawing).
        if (!drawable(*h) && h->frames_drawn > 0) sync_text_alternative(*h);
    }
}

void write_urls() {
    for (const std::unique_ptr<Host>& h : hosts)
        if (h->spec.url) write_url(*h);
}

bool page_is_dark() { return page_dark; }

namespace {
std::vector<std::function<void()>> idle_work;  // when_page_idle's, until lb_page_idle
bool page_idle = false;
}  // namespace

void when_page_idle(std::function<void()> work) {
    if (page_idle) work();
    else idle_work.push_back(std::move(work));
}

}  // namespace lb::web


//-----------------------------------------------------------------------------------------------
// [SECTION] Exports to web/page/lookback.js
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
    auto host = std::make_unique<Host>();
    Host& h = *host;
    h.spec = *spec;
    h.index = int(hosts.size());
    h.selector = selector;
    std::vector<std::string> names;
    for (const FigureSpec& s : registered) names.push_back(s.name);
    h.lock_url.entry("", "1 for every figure, 0 for none, or names of figures with commas: " + UrlTable::join(names),
                     [&h] { return h.lock; },
                     [&h, names](const std::string& value) {
                         if (value != "0" && value != "1")
                             for (const std::string& name : comma_separated(value))
                                 if (std::find(names.begin(), names.end(), name) == names.end()) return false;
                         h.lock = value;
                         return true;
                     });
    char* query = js_query_string();
    if (h.spec.url) {
        h.spec.url->read(query);
        h.url_written = h.spec.url->query();
        // A value the address may not name (the reader's task, where links do not carry it) leaves it now.
        if (h.spec.url->leaves_out()) js_replace_query(h.spec.url->prefix().c_str(), h.url_written.c_str());
    }
    h.lock_url.read(query);
    std::free(query);
    h.locked = lock_names(h.lock, h.spec.name);
    hosts.push_back(std::move(host));
    return h.index;
}

// The canvas's CSS box, devicePixelRatio and backing store (already set by the glue).
EMSCRIPTEN_KEEPALIVE void lb_resize(int index, double css_width, double css_height, double dpr,
                                    int fb_width, int fb_height) {
    Host* h = host_at(index);
    if (!h) return;
    // The page reports a box the figure already has (after it fitted its height): unchanged, the
    // backing store was not cleared and needs no new frame.
    if (h->css_width == float(css_width) && h->css_height == float(css_height) && h->dpr == float(dpr) &&
        h->fb_width == fb_width && h->fb_height == fb_height)
        return;
    h->css_width = float(css_width);
    h->css_height = float(css_height);
    h->dpr = float(dpr);
    h->fb_width = fb_width;
    h->fb_height = fb_height;
    wake(*h);  // resizing the backing store cleared it
}

// The canvas is near the viewport (on_screen) or far from it. A figure's WebGL and ImGui
// contexts are made the first time it comes near: a page opens without building them all.
// Its first frame is drawn at once, not an animation frame later: called from the page's
// animation frame, it is in that frame's paint.
EMSCRIPTEN_KEEPALIVE void lb_set_on_screen(int index, int on_screen) {
    Host* h = host_at(index);
    if (!h || h->failed) return;
    const bool starting = on_screen && !h->gl;
    if (starting && !start_host(*h)) {
        h->failed = true;
        js_figure_failed(index);
        return;
    }
    h->on_screen = on_screen != 0;
    if (starting && drawable(*h)) draw_figure(*h, emscripten_get_now());
    if (drawable(*h) && h->frames_wanted > 0) request_frame();
}

// The page's main thread was idle after start (requestIdleCallback): when_page_idle's work.
EMSCRIPTEN_KEEPALIVE void lb_page_idle() {
    if (page_idle) return;
    page_idle = true;
    for (auto& work : std::exchange(idle_work, {})) work();
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

// A shipped font the page fetched for a reader's task (theme.h's want_glyphs named it): `size`
// bytes on the heap, copied. Every figure draws again with the glyphs it adds. Returns {"ok",
// "message"}: a path the site does not ship or bytes that are not its font are refused.
EMSCRIPTEN_KEEPALIVE const char* lb_add_font(const char* file, const unsigned char* bytes, int size) {
    static std::string answer;
    nlohmann::json out{{"ok", false}, {"message", ""}};
    try {
        add_font(file, std::vector<unsigned char>(bytes, bytes + std::max(size, 0)));
        out["ok"] = true;
        for (auto& h : hosts) wake(*h);
    } catch (const std::bad_alloc&) {
        out["message"] = "the font took more memory than this page has";
    } catch (const std::exception& e) {
        out["message"] = lb::sanitize_utf8(e.what());
    } catch (...) {
        out["message"] = "the font could not be read";
    }
    answer = out.dump();
    return answer.c_str();
}

// The test surface (window.lookback): read-only views of a figure.
// A figure's state as JSON, with the refusals of its URL; {"error": ...} if it could not be made.
EMSCRIPTEN_KEEPALIVE const char* lb_state(int index) {
    static std::string json;
    const Host* h = host_at(index);
    try {
        nlohmann::json state = h && h->spec.state ? h->spec.state() : nlohmann::json(nullptr);
        if (h && state.is_object()) {
            state["url_messages"] = url_messages(*h);
            state["locked"] = h->locked;
        }
        json = state.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // never invalid UTF-8
    } catch (const std::exception& e) {
        json = nlohmann::json{{"error", lb::sanitize_utf8(e.what())}}.dump();
    }
    return json.c_str();
}

// Every figure's URL keys, {"training": ["tr.width", ..., "lock"], ...}: tests feed each a bad value.
EMSCRIPTEN_KEEPALIVE const char* lb_url_keys() {
    static std::string json;
    nlohmann::json keys = nlohmann::json::object();
    for (const FigureSpec& spec : registered) {
        std::vector<std::string> own = spec.url ? spec.url->keys() : std::vector<std::string>();
        own.push_back("lock");
        keys[spec.name] = own;
    }
    json = keys.dump();
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

// Whether the link locked the figure (its toolbar then offers Unlock).
EMSCRIPTEN_KEEPALIVE int lb_locked(int index) {
    const Host* h = host_at(index);
    return h && h->locked ? 1 : 0;
}

// The shared font atlas: which characters of `text` it has no glyph for, and its size (theme.cpp).
EMSCRIPTEN_KEEPALIVE const char* lb_font_report(const char* text) {
    static std::string json;
    try {
        json = font_report(text).dump();
    } catch (const std::exception& e) {
        json = nlohmann::json{{"error", lb::sanitize_utf8(e.what())}}.dump();
    }
    return json.c_str();
}

EMSCRIPTEN_KEEPALIVE double lb_frames(int index) {
    const Host* h = host_at(index);
    return h ? h->frames_drawn : -1;
}


}  // extern "C"

