// web/runtime/figure_table.h — a table a figure shows, described once. The figure draws it
// (ShowTable, controls.h), the page's mirror gives it to a screen reader (its header cells sort
// buttons where the table sorts), and the text alternative writes it as HTML (table_html): all
// three are made from this description, so they say the same labels and the same cells.
// Plain C++ (no ImGui): the native tests check it too.
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lb::web {

struct TableCell {
    std::string text;   // what every reader gets: drawn, mirrored, written
    std::string brief;  // drawn instead where the canvas is narrow ("0.998" for "0.9981"), or ""
    bool dim = false;   // drawn in the dim colour: a quoted measurement, a guess no model made
    double value = NAN; // its sort key in a numeric column (NaN: none, ranked last)

    TableCell(std::string text = "", std::string brief = "", bool dim = false, double value = NAN)
        : text(std::move(text)), brief(std::move(brief)), dim(dim), value(value) {}
    TableCell(const char* text) : text(text) {}
};

struct TableColumn {
    std::string label{};   // its header
    std::string brief{};   // the header drawn where the canvas is narrow ("H" for "width"), or ""
    bool numeric = false;  // ranked by the cells' values, else by their text
    std::string key{};     // a sortable table's header is the test handle "header-KEY"
};

struct FigureTable {
    std::string id{};    // the mirror's control id (a test handle) and the drawn table's
    std::string name{};  // what a screen reader calls it
    std::vector<TableColumn> columns{};
    std::vector<std::vector<TableCell>> rows{};  // a cell per column; the first cell names its row
    bool sortable = false;  // a click or a key on a header ranks the rows by that column
    int sort_column = -1;   // the column the rows are ranked by, or -1
    bool descending = true;
};

// The rows' order ranked by `column`: a numeric column by value with NaN last whichever the
// direction, any other by text; equal rows keep their order.
std::vector<size_t> ranked_order(const FigureTable& table, int column, bool descending);

// The table as HTML for a text alternative: its header in <thead>, each row's first cell the row's
// header; `caption`, if any, the table's caption. Every text is escaped.
std::string table_html(const FigureTable& table, std::string_view caption = {});

}  // namespace lb::web
