// web/runtime/figure_table.cpp — see figure_table.h.
#include "figure_table.h"

#include <algorithm>
#include <numeric>

#include "page_text.h"

namespace lb::web {

std::vector<size_t> ranked_order(const FigureTable& table, int column, bool descending) {
    std::vector<size_t> order(table.rows.size());
    std::iota(order.begin(), order.end(), size_t(0));
    if (column < 0 || column >= int(table.columns.size())) return order;
    const size_t c = size_t(column);
    std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
        const TableCell &a = table.rows[i][c], &b = table.rows[j][c];
        if (table.columns[c].numeric) {
            if (std::isnan(a.value) || std::isnan(b.value)) return !std::isnan(a.value) && std::isnan(b.value);
            return descending ? a.value > b.value : a.value < b.value;
        }
        return descending ? a.text > b.text : a.text < b.text;
    });
    return order;
}

std::string table_html(const FigureTable& table, std::string_view caption) {
    std::string html = "<table>";
    if (!caption.empty()) html += "<caption>" + html_escape(caption) + "</caption>";
    html += "<thead><tr>";
    for (const TableColumn& c : table.columns) html += "<th scope=\"col\">" + html_escape(c.label) + "</th>";
    html += "</tr></thead><tbody>";
    for (const std::vector<TableCell>& row : table.rows) {
        html += "<tr>";
        for (size_t c = 0; c < row.size(); ++c)
            html += c == 0 ? "<th scope=\"row\">" + html_escape(row[c].text) + "</th>" : "<td>" + html_escape(row[c].text) + "</td>";
        html += "</tr>";
    }
    return html + "</tbody></table>";
}

}  // namespace lb::web
