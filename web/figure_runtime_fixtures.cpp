// web/figure_runtime_fixtures.cpp — figures that exercise the runtime itself, used only by the
// browser tests' page tests/browser/fixtures/runtime.html (the article never names them):
//   fixture-heatmap    the two colour maps, hover and click on cells
//   fixture-controls   a button, a text field and a slider (clicks, typing, drags, touch);
//                      its canvas fits its height to them
//   fixture-animation  a figure that keeps itself awake while a checkbox is on
#include <cmath>
#include <string>
#include <vector>

#include <imgui.h>

#include "figures.h"
#include "heatmap.h"

namespace lb::web {
namespace {

void ShowFixtureHeatmap(RuntimeFixtureState& state) {
    constexpr int rows = 6, cols = 10;
    static std::vector<float> ramp, signed_wave;  // fixed test patterns, built once
    if (ramp.empty()) {
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) {
                ramp.push_back(float(c) / (cols - 1));
                signed_wave.push_back(std::sin(0.6f * c) * std::cos(0.5f * r));
            }
        ramp[rows * cols - 1] = NAN;  // the bottom-right cell has no value: grey
    }
    const float width = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
    ImGui::Text("Sequential (viridis), 0 to 1");
    ImGui::SameLine(width + ImGui::GetStyle().ItemSpacing.x + ImGui::GetStyle().WindowPadding.x);
    ImGui::Text("Diverging, -1 to 1");
    const HeatmapHit a = Heatmap("sequential", ramp, rows, cols, {width, 120}, Colormap::sequential, 0, 1);
    record_rect("sequential");
    ImGui::SameLine();
    const HeatmapHit b = Heatmap("diverging", signed_wave, rows, cols, {width, 120}, Colormap::diverging, -1, 1);
    record_rect("diverging");
    for (const HeatmapHit& hit : {a, b}) {
        if (!hit.clicked) continue;
        state.heatmap_clicks++;
        state.clicked_row = hit.row;
        state.clicked_col = hit.col;
    }
    ImGui::Text("Clicked cell: row %d, column %d (%d clicks)", state.clicked_row, state.clicked_col, state.heatmap_clicks);
}

void ShowFixtureControls(RuntimeFixtureState& state) {
    if (ImGui::Button("Add one")) state.count++;
    record_rect("add");
    ImGui::SameLine();
    ImGui::Text("count = %d", state.count);
    ImGui::SetNextItemWidth(260);
    ImGui::InputText("name", state.text, sizeof state.text);
    record_rect("name");
    ImGui::SetNextItemWidth(260);
    ImGui::SliderFloat("amount", &state.amount, 0.0f, 1.0f, "%.2f");
    record_rect("amount");
}

void ShowFixtureAnimation(RuntimeFixtureState& state) {
    ImGui::Checkbox("animate", &state.animate);
    record_rect("animate");
    if (state.animate) {
        state.ticks++;
        keep_awake();
    }
    // A dot that moves one step per frame drawn while animating.
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    const float x = at.x + 10 + std::fmod(float(state.ticks) * 4.0f, std::max(width - 20, 1.0f));
    ImGui::GetWindowDrawList()->AddCircleFilled({x, at.y + 12}, 8, IM_COL32(43, 93, 138, 255));
    ImGui::Dummy({width, 24});
    ImGui::Text("ticks = %ld", state.ticks);
}

}  // namespace

std::vector<FigureSpec> runtime_fixture_figures(RuntimeFixtureState& state) {
    return {
        {
            .name = "fixture-heatmap",
            .show = [&state] { ShowFixtureHeatmap(state); },
            .state = [&state] { return nlohmann::json{{"clicks", state.heatmap_clicks}, {"row", state.clicked_row}, {"col", state.clicked_col}}; },
            .text_alternative = [&state] { return "<p>Clicked cell: row " + std::to_string(state.clicked_row) + ", column " + std::to_string(state.clicked_col) + ".</p>"; },
        },
        {
            .name = "fixture-controls",
            .show = [&state] { ShowFixtureControls(state); },
            .state = [&state] { return nlohmann::json{{"count", state.count}, {"text", std::string(state.text)}, {"amount", state.amount}}; },
            .text_alternative = [&state] { return "<p>count = " + std::to_string(state.count) + ", name = " + html_escape(state.text) + "</p>"; },
            .fit_height = true,
        },
        {
            .name = "fixture-animation",
            .show = [&state] { ShowFixtureAnimation(state); },
            .state = [&state] { return nlohmann::json{{"animate", state.animate}, {"ticks", state.ticks}}; },
            .text_alternative = [&state] { return std::string(state.animate ? "<p>Animating.</p>" : "<p>Still.</p>"); },
        },
    };
}

}  // namespace lb::web
