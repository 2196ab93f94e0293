// web/runtime/heatmap.h — a matrix drawn as coloured cells, coloured on the GPU (shaders/heatmap.frag).
//
// For alignment maps ([T_out, T_in] attention weights) and weight matrices. The matrix goes to a
// float texture of the figure's own GL context (re-uploaded only when its values change) and is
// drawn as one ImGui item, so it sits in ImGui layout, clips, and answers hover and clicks:
//
//     const HeatmapHit hit = Heatmap("alignment", weights, T_out, T_in, {w, h},
//                                    Colormap::sequential, 0.0f, 1.0f);
//     if (hit.clicked) state.selected_output = hit.row;
//     record_rect("alignment");
//
// Only inside a figure's `show` (web/runtime/figure.h).
#pragma once
#include <span>

#include <imgui.h>

namespace lb::web {

enum class Colormap {
    sequential,  // viridis: dark purple (lo) to yellow (hi); for weights and probabilities
    diverging,   // blue (lo) - white (middle) - red (hi); for signed values, use lo = -hi
};

struct HeatmapHit {
    int row = -1, col = -1;  // the cell under the mouse, or -1
    bool clicked = false;    // the cell was clicked this frame
};

// Draws `values` (row-major, values[r * cols + c], rows × cols; NaN draws grey) filling `size`
// CSS pixels at the cursor; lo and hi are the values at the two ends of the colour map.
// A matrix whose size disagrees with rows × cols draws nothing and reports no hit.
HeatmapHit Heatmap(const char* id, std::span<const float> values, int rows, int cols,
                   ImVec2 size, Colormap map, float lo, float hi);

}  // namespace lb::web
