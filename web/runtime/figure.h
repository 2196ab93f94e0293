// web/runtime/figure.h — what a figure of the article is, for the figure runtime (host.cpp).
//
// Every <canvas data-figure="NAME"> in the page is one figure: its own WebGL2 context, its own
// ImGui context, input from that canvas only. A figure is registered by name from main()
// (web/app.cpp) with the functions below; its state lives in a struct the app owns and its
// drawing is one `ShowXxx(State&)` function, called by the runtime inside a window that fills
// the canvas. Coordinates inside a figure are CSS pixels (the runtime scales to device pixels).
//
// The runtime draws a figure only when it is on screen and something changed (input, a resize,
// a request below); an untouched figure costs nothing.
//
//     struct Counter { int clicks = 0; };                  // state: owned by the App in web/app.cpp
//     void ShowCounter(Counter& c) {
//         if (ImGui::Button("Add one")) c.clicks++;
//         record_rect("add");                              // tests click it by this name
//     }
//     FigureSpec counter_figure(Counter& c) {
//         return {.name = "counter",                       // <canvas data-figure="counter">
//                 .show = [&c] { ShowCounter(c); },
//                 .state = [&c] { return nlohmann::json{{"clicks", c.clicks}}; },
//                 .text_alternative = [&c] { return "<p>" + std::to_string(c.clicks) + " clicks</p>"; }};
//     }
//     register_figure(counter_figure(app.counter));       // in main()
//
// The page side: <canvas data-figure="counter" aria-label="…"> with a CSS height, and an
// element [data-figure-alt="counter"] beside it for the text alternative.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "page_text.h"
#include "url_state.h"

namespace lb::web {

struct FigureSpec {
    std::string name;                                // matches <canvas data-figure="name">
    std::function<void()> show;                      // the ImGui calls that draw the figure
    std::function<nlohmann::json()> state;           // its state, for window.lookback.state(name)
    std::function<std::string()> text_alternative;   // HTML for the element beside the canvas,
                                                     // [data-figure-alt="name"]; kept current
    // True: the canvas's CSS height follows what `show` drew (its width decides the layout,
    // the height follows). False: the page's CSS sets the height.
    bool fit_height = false;
    // The figure's settings in the page's URL (url_state.h), or null: read when the figure
    // attaches, written back when it is idle; refusals are shown under the figure.
    UrlTable* url = nullptr;
};

// Adds a figure. Call from main(), before the page attaches canvases. Names are unique.
void register_figure(FigureSpec spec);

// --- only inside a figure's `show` -------------------------------------------------------
// Remembers the last ImGui item's rectangle under `widget` for window.lookback.rect(name,
// widget): browser tests click real pixels with it. Call right after the widget.
void record_rect(std::string_view widget);
// Draws another frame after this one: call every frame while something moves on its own.
void keep_awake();

// --- anywhere ------------------------------------------------------------------------------
// Asks for a redraw of the named figure (its state changed from outside its own input).
void request_redraw(std::string_view name);
// Writes every attached figure's settings to the page's address now, drawn or not (a figure
// writes its own when it is idle after a frame): for a change that alters what the figures may
// write (url_state.h's left_out_when).
void write_urls();
// Runs `work` once the page has drawn what it opened on and its main thread is idle: what a
// page can wait for (fetching the shipped models, say) does not delay its first figure.
void when_page_idle(std::function<void()> work);
// Whether the page is dark now (the reader's prefers-color-scheme). The runtime gives every
// figure the matching ImGui style and redraws them all when it changes; a figure's own colours
// can follow it.
bool page_is_dark();

}  // namespace lb::web
