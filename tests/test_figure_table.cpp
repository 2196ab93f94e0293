// tests/test_figure_table.cpp — a figure's table described once (web/runtime/figure_table.h): its
// text alternative's HTML, and the order a click on a header ranks its rows in.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "figure_table.h"

using lb::web::FigureTable;
using lb::web::ranked_order;
using lb::web::table_html;

TEST_CASE("a table's text alternative: column headers, each row's first cell its header, text escaped") {
    const FigureTable table{.id = "t", .name = "scores",
                            .columns = {{"model"}, {"AER", "A"}},
                            .rows = {{"a<b", "0.5"}, {{"guess", "g", true}, "x & y"}}};
    CHECK(table_html(table) ==
          "<table><thead><tr><th scope=\"col\">model</th><th scope=\"col\">AER</th></tr></thead><tbody>"
          "<tr><th scope=\"row\">a&lt;b</th><td>0.5</td></tr>"
          "<tr><th scope=\"row\">guess</th><td>x &amp; y</td></tr></tbody></table>");  // the brief forms are the canvas's alone
    CHECK(table_html(table, "Every \"model\"").starts_with("<table><caption>Every &quot;model&quot;</caption><thead>"));
}

TEST_CASE("ranking: numbers by value with none last either way, text by its letters, ties in their order") {
    FigureTable table{.columns = {{"name"}, {"score", "", true}}};
    const auto row = [](const char* name, double v) { return std::vector<lb::web::TableCell>{name, {"", "", false, v}}; };
    table.rows = {row("c", 0.5), row("a", NAN), row("b", 0.9), row("d", 0.5)};
    // 0.9 > 0.5 = 0.5 (c before d, as they came) > none.
    CHECK(ranked_order(table, 1, true) == std::vector<size_t>{2, 0, 3, 1});
    // 0.5 = 0.5 < 0.9, and still none last.
    CHECK(ranked_order(table, 1, false) == std::vector<size_t>{0, 3, 2, 1});
    CHECK(ranked_order(table, 0, false) == std::vector<size_t>{1, 2, 0, 3});  // a b c d
    CHECK(ranked_order(table, 0, true) == std::vector<size_t>{3, 0, 2, 1});   // d c b a
    CHECK(ranked_order(table, -1, true) == std::vector<size_t>{0, 1, 2, 3});  // no column: as they came
}
