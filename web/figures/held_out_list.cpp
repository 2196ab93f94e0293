// web/figures/held_out_list.cpp — the map check's list of every held-out pair with what the model
// shown above writes for it (figure "checked"): filtered by a piece of the input, the wrong ones
// only if asked, ranked by any column (the edits, the token edit distance to the target, first),
// each row's number opening its map above; saved whole as CSV (core/io/predictions_csv.h). The
// outputs are decoded a slice a frame (Analyses::held_out_outputs), so the page keeps drawing.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "charts.h"
#include "controls.h"
#include "download.h"
#include "lesson2.h"
#include "io/predictions_csv.h"
#include "text/text.h"

namespace lb::web {
namespace {

// At most this many rows are drawn (and mirrored as buttons): a filter finds the others.
constexpr size_t rows_drawn = 100;

enum ListColumn { number_column, input_column, target_column, output_column, edits_column };

// The rows that pass the filter, in the list's order (indices into `rows`).
std::vector<size_t> listed(const std::vector<PredictionRow>& rows, const CheckedState& st) {
    std::vector<size_t> out;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (st.list_wrong_only && rows[i].exact) continue;
        if (st.list_filter[0] && rows[i].input.find(st.list_filter) == std::string::npos) continue;
        out.push_back(i);
    }
    return out;
}

FigureTable list_table(const std::vector<PredictionRow>& rows, const std::vector<size_t>& shown, const CheckedState& st) {
    FigureTable table{.id = "held-out-list", .name = "held-out pairs with the model's output",
                      .columns = {{"#", "", true, "number"}, {"input", "", false, "input"}, {"target", "", false, "target"},
                                  {"output", "", false, "output"}, {"edits", "", true, "edits"}},
                      .sortable = true, .sort_column = st.list_sort, .descending = st.list_descending};
    for (size_t i : shown) {
        const PredictionRow& r = rows[i];
        table.rows.push_back({TableCell(std::to_string(i + 1), "", false, double(i + 1)), TableCell(r.input), TableCell(r.target),
                              TableCell(r.output, "", r.exact), TableCell(std::to_string(r.edit_distance), "", r.exact, r.edit_distance)});
    }
    const std::vector<size_t> order = ranked_order(table, st.list_sort, st.list_descending);
    std::vector<std::vector<TableCell>> cells = std::exchange(table.rows, {});
    for (size_t k = 0; k < std::min(order.size(), rows_drawn); ++k) table.rows.push_back(std::move(cells[order[k]]));
    return table;
}

// The rows once every output is decoded, else none.
const std::vector<PredictionRow>& decoded_rows(Lab& lab, const CheckedState& st, const ModelRead& read) {
    return lab.analyses.held_out_outputs(read, lab.held_out(*st.task)).rows;
}

}  // namespace

nlohmann::json held_out_list_json(Lab& lab, const CheckedState& st) {
    if (!st.read.model) return nullptr;
    const std::vector<PredictionRow>& rows = decoded_rows(lab, st, st.read);
    const FigureTable table = list_table(rows, listed(rows, st), st);
    nlohmann::json shown = nlohmann::json::array();
    for (const std::vector<TableCell>& r : table.rows) {
        const PredictionRow& p = rows[size_t(std::stoi(r[number_column].text) - 1)];
        shown.push_back({{"number", std::stoi(r[number_column].text)}, {"input", p.input}, {"target", p.target}, {"output", p.output},
                         {"exact", p.exact}, {"edits", p.edit_distance}, {"marks", p.marks}});
    }
    const long wrong = std::count_if(rows.begin(), rows.end(), [](const PredictionRow& r) { return !r.exact; });
    return {{"decoded", !rows.empty()}, {"total", rows.size()}, {"wrong", wrong}, {"matching", listed(rows, st).size()},
            {"filter", st.list_filter}, {"wrong_only", st.list_wrong_only}, {"sort", table.columns[size_t(st.list_sort)].key},
            {"descending", st.list_descending}, {"rows", shown}};
}

std::string held_out_list_text(Lab& lab, const CheckedState& st) {
    if (!st.read.model) return "";
    const std::vector<PredictionRow>& rows = decoded_rows(lab, st, st.read);
    if (rows.empty()) return "<p>Every held-out pair: being decoded.</p>";
    const long wrong = std::count_if(rows.begin(), rows.end(), [](const PredictionRow& r) { return !r.exact; });
    return "<p>Every held-out pair as this model writes it: " + grouped(wrong) + " of " + grouped(long(rows.size())) +
           " wrong. The list in the figure finds pairs by a piece of the input, shows the wrong ones only, ranks them by their edits "
           "and saves them all as CSV.</p>";
}

// Laid out the same while the outputs are decoded as once they are (a line, the controls, the
// table's box, a line), so the figure keeps its height when the list arrives.
void ShowHeldOutList(Lab& lab, CheckedState& st, const ModelRead& read, float width) {
    const HeldOutOutputs& decoded = lab.analyses.held_out_outputs(read, lab.held_out(*st.task));
    if (!decoded.error.empty()) {
        DimTextWrapped(sanitize_utf8("Every held-out pair: not decoded (" + decoded.error + ").").c_str());
        return;
    }
    const bool ready = decoded.complete();
    const std::vector<PredictionRow>& rows = decoded.rows;
    const long wrong = std::count_if(rows.begin(), rows.end(), [](const PredictionRow& r) { return !r.exact; });
    if (ready)
        WrappedText("Every held-out pair as this model writes it: %s of %s wrong.", grouped(wrong).c_str(), grouped(long(rows.size())).c_str());
    else
        WrappedText("Every held-out pair as this model writes it: decoding %s of %s\u2026", grouped(long(decoded.outputs.size())).c_str(),
                    grouped(long(decoded.total)).c_str());
    DimTextWrapped("Edits: the fewest tokens inserted, deleted or replaced to turn the output into the target.");
    ImGui::BeginDisabled(!ready);
    ImGui::SetNextItemWidth(std::min(200.0f, width * 0.4f));
    TextField("##filter", "list-filter", st.list_filter, sizeof st.list_filter, "show the pairs whose input holds this text", 0,
              "input holds\u2026");
    ImGui::SameLine();
    Checkbox("only the wrong ones", "list-wrong", &st.list_wrong_only);
    SameLineIfRoom(ImGui::CalcTextSize("Save them all (CSV)").x + 24);
    if (Button("Save them all (CSV)", "save-predictions", "save every held-out pair with the model's output as CSV") && ready) {
        const std::string csv = predictions_csv(rows);
        const std::string name = "lookback-" + st.task->name + "-" + std::string(decoder_name(read.model->config.decoder)) +
                                 "-held-out.csv";
        download_bytes(name, "text/csv", csv.data(), csv.size());
    }
    ImGui::EndDisabled();
    const float box = 11 * ImGui::GetFrameHeight();
    if (!ready) {
        ImGui::Dummy({width, box});
        ImGui::TextUnformatted(" ");
        request_redraw("checked");
        return;
    }
    const std::vector<size_t> shown = listed(rows, st);
    const FigureTable table = list_table(rows, shown, st);
    TableLook look{.flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                            ImGuiTableFlags_SizingStretchProp,
                   .size = {0, box},
                   .sizing = {{0, 0.5f}, {0, 2.0f}, {0, 1.5f}, {0, 1.5f}, {0, 0.6f}}};
    // A row's number opens its map above.
    look.draw_cell = [&](int r, int c) {
        const TableCell& cell = table.rows[size_t(r)][size_t(c)];
        if (c != number_column) {
            if (cell.dim) ImGui::TextDisabled("%s", cell.text.c_str());
            else ImGui::TextUnformatted(cell.text.c_str());
            return;
        }
        const std::string name = "show the map of held-out pair " + cell.text;
        if (Button(cell.text.c_str(), "open-" + cell.text, name.c_str())) {
            st.example = std::stoi(cell.text) - 1;
            st.typed_text.clear();
            st.message.clear();
        }
    };
    if (const std::optional<int> ranked = ShowTable(table, look)) {
        st.list_descending = *ranked == st.list_sort ? !st.list_descending : *ranked == edits_column;
        st.list_sort = *ranked;
    }
    // One line, whatever it says.
    if (shown.size() > rows_drawn)
        DimTextWrapped(("First " + std::to_string(rows_drawn) + " of " + grouped(long(shown.size())) + " shown; type to find others.").c_str());
    else
        DimTextWrapped(shown.empty() ? "No held-out pair matches." : " ");
}

}  // namespace lb::web
