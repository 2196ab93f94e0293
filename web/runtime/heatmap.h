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
#include <stdexcept>
#include <string_view>

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

// A matrix whose size is not rows × cols: a bug of the figure that drew it, which the figure says
// in the map's place (map_view.h's ShowMapOrError) instead of reading past the matrix.
struct MapShapeError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
// Throws MapShapeError naming the map: "map 'map' has 80 values for 10 × 9 cells".
void check_map_shape(std::string_view id, size_t values, int rows, int cols);

// Draws `values` (row-major, values[r * cols + c], rows × cols; NaN draws grey) filling `size`
// CSS pixels at the cursor; lo and hi are the values at the two ends of the colour map.
// Throws MapShapeError, before it draws anything, for a matrix that is not rows × cols; a map of
// no cells draws nothing.
HeatmapHit Heatmap(const char* id, std::span<const float> values, int rows, int cols,
                   ImVec2 size, Colormap map, float lo, float hi);

}  // namespace lb::web
