// web/runtime/heatmap.cpp — the heatmap widget (heatmap.h): an InvisibleButton takes the input,
// the figure's renderer colours a float texture on the GPU.
#include <algorithm>
#include <string>

#include "heatmap.h"
#include "host.h"

namespace lb::web {

using detail::drawing;

void check_map_shape(std::string_view id, size_t values, int rows, int cols) {
    if (rows >= 0 && cols >= 0 && values == size_t(rows) * size_t(cols)) return;
    throw MapShapeError("map '" + std::string(id) + "' has " + std::to_string(values) + " values for " + std::to_string(rows) +
                        " \u00d7 " + std::to_string(cols) + " cells");
}

HeatmapHit Heatmap(const char* id, std::span<const float> values, int rows, int cols,
                   ImVec2 size, Colormap map, float lo, float hi) {
    check_map_shape(id, values.size(), rows, cols);
    HeatmapHit hit;
    if (!drawing || rows == 0 || cols == 0) return hit;
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
