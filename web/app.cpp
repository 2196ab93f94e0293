// web/app.cpp — the page module: the app owns every figure's state and the Lab, and registers
// the figures. The runtime (web/runtime/) attaches them to their canvases when the page glue
// (web/page/lookback.js) finds them, and draws them from then on. Training is not here: it runs
// in Web Workers (web/worker/), and the Lab shows what they report.
#include "lab.h"
#include "lesson1.h"
#include "lesson2.h"

namespace {

struct App {
    lb::web::WorkedExample worked_example;     // lesson part 1 (figures/lesson1.h)
    lb::web::Bottleneck bottleneck;
    lb::web::Lab lab;                          // lesson part 2, the experiment (lab/lab.h)
    lb::web::Lesson2 lesson2;                  // its figures' own state (figures/lesson2.h)
};

}  // namespace

int main() {
    using namespace lb::web;
    static App app;  // made here, not at load: the Lab asks the page how many workers it has
    register_figure(worked_example_figure(app.worked_example));
    register_figure(bottleneck_figure(app.bottleneck));
    start_selfcheck();
    register_figure(training_figure(app.lab, app.lesson2.training));
    register_figure(sweep_figure(app.lab, app.lesson2.sweep));
    register_figure(alignment_figure(app.lab, app.lesson2.alignment));
    register_figure(checked_figure(app.lab, app.lesson2.checked));
    register_figure(probes_figure(app.lab, app.lesson2.alignment));
    register_figure(results_figure(app.lab, app.lesson2.results));
    register_figure(transformer_training_figure(app.lab, app.lesson2.transformer_training));
    register_figure(transformer_maps_figure(app.lab, app.lesson2.transformer_maps));
    return 0;  // the runtime stays alive: figures are drawn from browser callbacks
}
