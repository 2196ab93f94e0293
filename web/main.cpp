// web/main.cpp — the page module: owns every figure's state and registers the figures.
// The runtime (web/runtime.cpp) attaches them to their canvases when the page glue
// (web/lookback.js) finds them, and draws them from then on.
#include "figures.h"
#include "lesson_figures.h"
#include "lesson2.h"

namespace {

struct App {
    lb::web::WorkedExample worked_example;     // lesson part 1 (web/lesson_figures.h)
    lb::web::Bottleneck bottleneck;
    lb::web::Lesson2 lesson2;                  // lesson part 2, the experiment (web/lesson2.h)
    lb::web::RuntimeFixtureState runtime_fixtures;
};
App app;

}  // namespace

int main() {
    using namespace lb::web;
    register_figure(worked_example_figure(app.worked_example));
    register_figure(bottleneck_figure(app.bottleneck));
    start_selfcheck();
    for (FigureSpec& figure : lesson2_figures(app.lesson2)) register_figure(std::move(figure));
    for (FigureSpec& figure : runtime_fixture_figures(app.runtime_fixtures)) register_figure(std::move(figure));
    return 0;  // the runtime stays alive: figures are drawn from browser callbacks
}
