// web/figures.h — the figures of the runtime's own test page, tests/browser/fixtures/runtime.html
// (web/figure_runtime_fixtures.cpp): a heatmap; a button, a text field and a slider; an animation. Their
// state is owned by the app (web/main.cpp); the lesson's figures are in web/lesson_figures.h.
#pragma once
#include <vector>

#include "figure.h"

namespace lb::web {

struct RuntimeFixtureState {
    int heatmap_clicks = 0;
    int clicked_row = -1, clicked_col = -1;
    int count = 0;
    char text[64] = "";
    float amount = 0.5f;                       // a slider, dragged by mouse or finger
    bool animate = false;
    long ticks = 0;                            // frames drawn while animating
};
std::vector<FigureSpec> runtime_fixture_figures(RuntimeFixtureState& state);

}  // namespace lb::web
