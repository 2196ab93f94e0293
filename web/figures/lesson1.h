// web/figures/lesson1.h — the figures of the lesson's first part: their state (owned by the app,
// web/app.cpp) and the functions that turn it into a FigureSpec for the runtime (figure.h).
//
//   worked-example   figures/worked_example.cpp  one attention step, a stepper, draggable points
//   bottleneck       figures/bottleneck.cpp      the plain model's data flow beside attention's
//   (self-check)     figures/selfcheck.cpp       HTML questions; the core answers through exports
#pragma once
#include <string>

#include "lesson/attention_step.h"
#include "figure.h"

namespace lb::web {

// One attention step on three encoder states in the plane.
// Legend: S source positions (3), D state width (2), A additive scorer's hidden width (2).
struct WorkedExample {
    static constexpr int steps = 4;            // score, softmax, weighted sum, predict
    Vec s;                                     // decoder state          [D]
    Mat hs;                                    // encoder states h_1..3  [S][D]
    Scorer scorer = Scorer::dot;
    ScorerParams params;                       // W [D][D]; W_d, W_e [A][D]; v [A]
    double temperature = 1;                    // T: the weights are softmax(e / T)
    int step = 0;                              // 0-based: 0 score … 3 predict
    int width = 64;                            // H for the parameter-count line

    AttentionStep result;                      // recomputed from the above every frame
    int dragging = -1;                         // 0..S-1: h_i, S: s, -1: nothing
    UrlTable url{"we."};                       // every setting above, in the page's URL
    WorkedExample();                           // the lesson's start, and the URL table
};
FigureSpec worked_example_figure(WorkedExample& state);

// The plain encoder–decoder beside the attention one; a click on a box explains it.
struct Bottleneck {
    std::string selected;                      // the box last clicked ("" = none)
};
FigureSpec bottleneck_figure(Bottleneck& state);

// Hands the page window.lookbackSelfCheck (fresh questions and their checking, by the core).
// Call once from main().
void start_selfcheck();

}  // namespace lb::web
