// web/figures/results.cpp — figure "results": every result the page knows in one table — the
// source's run (quoted), the native sweep (assets/sweep.json), and whatever was trained or
// evaluated in this page — with a column per measure. Clicking a header ranks every row by
// that column (again: the other direction); each number sits on a bar scaled to its column's
// largest value, and the highest and lowest of each column are marked, computed from the rows.
// Buttons save the weights of the pair the training figure trains, on its task (that task's
// shipped models until the pair has an epoch), and the table (CSV), made by the module.
// The ranking lives in the URL (rs.sort, rs.dir).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include <imgui.h>

#include "controls.h"
#include "charts.h"
#include "download.h"
#include "lesson2.h"
#include "io/safetensors.h"
#include "text/text.h"
#include "url_setting.h"

namespace lb::web {
namespace {

struct Column {
    const char* key;
    const char* title;
    const char* brief;  // the header on a phone, or ""
    bool numeric;
    bool wide_only;     // not drawn on a phone
};
// In ResultsState::Column's order.
const Column columns[] = {
    {"origin", "measured by", "by", false, false}, {"run", "run", "", false, true},
    {"task", "task", "", false, true},             {"model", "model", "", false, false},
    {"width", "width", "H", true, false},          {"exact", "exact", "", true, false},
    {"per_char", "per-token", "token", true, false}, {"bleu", "BLEU", "", true, true},
    {"aer", "AER", "", true, false},               {"parameters", "parameters", "", true, true},
    {"seconds", "train s", "", true, true},
};
using Col = ResultsState::Column;
constexpr int column_count = Col::column_count;
static_assert(std::size(columns) == column_count, "a description for every column");

// The width is a setting, not a result: no highest and lowest, no bar.
bool is_result(int c) { return columns[c].numeric && c != Col::width; }

double number(const ResultRow& r, int c) {
    switch (c) {
        case Col::width: return r.model.H;
        case Col::exact: return r.exact;
        case Col::per_char: return r.per_char;
        case Col::bleu: return r.bleu;
        case Col::aer: return r.aer;
        case Col::parameters: return r.parameters < 0 ? NAN : double(r.parameters);  // below 0: none given
        case Col::seconds: return r.seconds;
        default: return NAN;
    }
}
std::string text(const ResultRow& r, int c, bool narrow = false) {
    const auto measured = [](double v) { return std::isnan(v) ? std::string("\u2013") : fixed(v, 4); };  // a dash: none
    switch (c) {
        case Col::origin: return narrow ? origin_names(r.origin).narrow : origin_names(r.origin).label;
        case Col::run: return r.label;
        case Col::task: return task_label(*r.model.task);
        case Col::model: {  // a phone's column is narrow: a kind with a short name by it and its memory alone
            const ModelKind& kind = model_kind(r.model.decoder);
            return narrow && !kind.short_name.empty() ? std::string(kind.short_name) + " " + memory_name(r.model.memory)
                                                      : model_label(r.model);
        }
        case Col::width: return std::to_string(r.model.H);
        case Col::exact: return fixed(r.exact, 4);
        case Col::per_char: return fixed(r.per_char, 4);
        case Col::bleu: return measured(r.bleu);
        case Col::aer: return measured(r.aer);
        case Col::parameters: return r.parameters < 0 ? "\u2013" : grouped(r.parameters);
        case Col::seconds: return fixed(r.seconds, 1);
    }
    return "";
}

// The rows of the task shown (every task's when none is picked), ranked, and the table of them in
// the same order. By name: a run on another setting of the date task's dial learns a row of its
// own, which is still the dates. The task's column only when every task's rows are shown.
struct RankedResults {
    std::vector<ResultRow> rows;
    std::vector<int> shown;  // the table's columns, as ResultsState's
    FigureTable table;
};
RankedResults ranked_results(const Lab& lab, const ResultsState& st) {
    RankedResults out;
    std::vector<ResultRow> rows = lab.results();
    if (st.rows_task) std::erase_if(rows, [&](const ResultRow& r) { return r.model.task->name != st.rows_task->name; });
    FigureTable& table = out.table;
    table.id = "results";
    table.name = "every result, ranked by " + std::string(columns[st.sort_column].title);
    table.sortable = true;
    table.descending = st.descending;
    for (int c = 0; c < column_count; ++c) {
        if (c == Col::task && st.rows_task) continue;
        if (c == st.sort_column) table.sort_column = int(out.shown.size());
        out.shown.push_back(c);
        table.columns.push_back({columns[c].title, columns[c].brief, columns[c].numeric, columns[c].key});
    }
    for (const ResultRow& r : rows) {
        std::vector<TableCell>& row = table.rows.emplace_back();
        for (int c : out.shown) {
            std::string wide = text(r, c), narrow = text(r, c, true);
            row.push_back({wide, narrow == wide ? "" : narrow, false, number(r, c)});
        }
    }
    const std::vector<size_t> order = ranked_order(table, table.sort_column, st.descending);
    std::vector<std::vector<TableCell>> cells = std::exchange(table.rows, {});
    for (size_t i : order) {
        out.rows.push_back(rows[i]);
        table.rows.push_back(std::move(cells[i]));
    }
    return out;
}

// The rows holding the highest and lowest value of a numeric column (first of ties), or -1.
std::pair<int, int> extremes(const std::vector<ResultRow>& rows, int c) {
    int hi = -1, lo = -1;
    for (int i = 0; i < int(rows.size()); ++i) {
        const double v = number(rows[size_t(i)], c);
        if (std::isnan(v)) continue;
        if (hi < 0 || v > number(rows[size_t(hi)], c)) hi = i;
        if (lo < 0 || v < number(rows[size_t(lo)], c)) lo = i;
    }
    return {hi, lo};
}

// A saved model's file is named after its task, kind, width and origin:
// lookback-your-pairs-attention-64-page.safetensors.
void save_weights(Lab& lab, DecoderKind kind) {
    std::string where;
    const Model* model = lab.saved_model(kind, &where);
    if (!model) return;
    const std::vector<uint8_t> bytes = encode_safetensors(model_to_safetensors(*model, {{"trained", where}}));
    const std::string name = "lookback-" + model->config.task->name + "-" + std::string(decoder_name(model->config.decoder)) + "-" +
                             std::to_string(model->config.H) + (where == "shipped" ? "-shipped" : "-page") + ".safetensors";
    download_bytes(name, "application/octet-stream", bytes.data(), bytes.size());
}

// What the weight buttons save, in words: the pair's runs on Figure 3's task, or that task's
// shipped models, or why there is nothing yet.
std::string saved_weights_note(const Lab& lab) {
    std::string plain_where, attention_where;
    const Model* plain = lab.saved_model(DecoderKind::plain, &plain_where);
    const Model* attention = lab.saved_model(DecoderKind::attention, &attention_where);
    const Task& task = lab.live.built() ? *lab.live[1]->config().model.task : date_task();
    if (!plain && !attention)
        return "Weights: none yet for " + task.name + ". Train Figure 3 on it; its models are saved from their first epoch.";
    const auto side = [&](const char* name, const Model* m, const std::string& where) {
        if (!m) return std::string(name) + ": not yet trained";
        return std::string(name) + (where == "shipped" ? ": shipped" : ": trained in this page") + " (width " + std::to_string(m->config.H) + ")";
    };
    return "Weights of " + task.name + " (safetensors with the task inside, for PyTorch, numpy or lookback predict): " +
           side("plain", plain, plain_where) + "; " + side("attention", attention, attention_where) + ".";
}

void ShowDownloads(Lab& lab, const ResultsState& st, bool narrow) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Save:");
    ImGui::SameLine();
    ImGui::BeginDisabled(!lab.saved_model(DecoderKind::attention));
    if (Button("attention weights", "save-attention", "save the attention model's weights")) save_weights(lab, DecoderKind::attention);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!lab.saved_model(DecoderKind::plain));
    if (Button("plain weights", "save-plain", "save the plain model's weights")) save_weights(lab, DecoderKind::plain);
    ImGui::EndDisabled();
    if (!narrow) ImGui::SameLine();
    if (Button("the table (CSV)", "save-csv", "save the table as CSV")) {
        const std::string csv = Lab::results_csv(st.rows);
        download_bytes("lookback-results.csv", "text/csv", csv.data(), csv.size());
    }
    DimTextWrapped(saved_weights_note(lab).c_str());
}

// The task whose rows are shown, or every task's.
void ShowTaskPicker(ResultsState& st) {
    ImGui::SetNextItemWidth(130);
    std::vector<const Task*> choices = {nullptr};  // every task's rows, or one task's
    choices.insert(choices.end(), tasks().begin(), tasks().end());
    ComboOf("task", "task", st.rows_task, choices, [](const Task* t) { return t ? task_label(*t) : std::string("every task"); },
            "rows of the task");
}

void ShowResults(Lab& lab, ResultsState& st) {
    const LessonColors& col = lesson_colors();
    const bool narrow = ImGui::GetContentRegionAvail().x < 600;
    ShowTaskPicker(st);
    const RankedResults ranked = ranked_results(lab, st);
    st.rows = ranked.rows;
    if (!narrow) ImGui::SameLine(0, 24);
    ShowDownloads(lab, st, narrow);

    // Proportions: the names wrap in their cells, the numbers keep one line.
    const float weights[column_count] = {narrow ? 0.9f : 1.25f, 1.3f, 1.0f, narrow ? 1.5f : 1.6f, narrow ? 0.45f : 0.55f,
                                         narrow ? 1.2f : 0.9f, narrow ? 1.2f : 0.95f, 0.85f, narrow ? 1.05f : 0.85f, 1.0f, 0.75f};
    TableLook look{.flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp,
                   .size = {0, 16 * ImGui::GetFrameHeight()},  // about 15 rows; the rest scroll
                   .narrow = narrow};
    for (int i = 0; i < int(ranked.shown.size()); ++i) {
        const int c = ranked.shown[size_t(i)];
        // On a phone who measured it and its width are drawn under the model's name, not in columns of their own.
        if (!narrow || (!columns[c].wide_only && c != Col::origin && c != Col::width)) look.drawn.push_back(i);
        look.sizing.push_back({0, weights[c]});
    }
    // On a phone each column but the model's is as wide as its widest cell (a number with its
    // mark, a header with the ranking's), and the model's takes the rest: no word breaks inside
    // ("attention additive" fits at 390 px).
    const auto width = [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; };
    if (narrow)
        for (int i : look.drawn) {
            const int c = ranked.shown[size_t(i)];
            if (c == Col::model) {
                look.sizing[size_t(i)] = {ImGuiTableColumnFlags_WidthStretch, 1};
                continue;
            }
            float w = width(std::string(*columns[c].brief ? columns[c].brief : columns[c].title) + "\u00a0\u25bc");
            for (const auto& row : ranked.table.rows) {
                const TableCell& cell = row[size_t(i)];
                w = std::max(w, width(cell.brief.empty() ? cell.text : cell.brief) + (is_result(c) ? 4 + width("\u25b2") : 0));
            }
            look.sizing[size_t(i)] = {ImGuiTableColumnFlags_WidthFixed, std::ceil(w)};
        }
    // Each number sits on a bar scaled to its column's largest; the highest and lowest are marked.
    std::vector<std::pair<int, int>> marks(column_count, {-1, -1});
    std::vector<double> column_max(column_count, 0);
    for (int c = 0; c < column_count; ++c)
        if (columns[c].numeric) {
            if (is_result(c)) marks[size_t(c)] = extremes(st.rows, c);
            if (marks[size_t(c)].first >= 0) column_max[size_t(c)] = number(st.rows[size_t(marks[size_t(c)].first)], c);
        }
    look.draw_cell = [&](int r, int i) {
        const int c = ranked.shown[size_t(i)];
        const ResultRow& row = st.rows[size_t(r)];
        const ImU32 row_color = pair_slot(row.model.decoder) == plain_slot ? plain_color() : attention_color();
        const TableCell& cell = ranked.table.rows[size_t(r)][size_t(i)];
        const std::string& t = narrow && !cell.brief.empty() ? cell.brief : cell.text;
        if (is_result(c)) {
            const double v = number(row, c);
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
            if (!std::isnan(v) && column_max[size_t(c)] > 0)
                ImGui::GetWindowDrawList()->AddRectFilled(
                    {at.x, at.y + 1}, {at.x + w * float(v / column_max[size_t(c)]), at.y + h - 1},
                    c == Col::exact || c == Col::per_char || c == Col::bleu ? with_alpha(row_color, 60) : col.bar_track);
        }
        // Every row that ties the column's highest or lowest value is marked (none if all are equal).
        const auto [hi, lo] = marks[size_t(c)];
        const bool spread = hi >= 0 && number(st.rows[size_t(hi)], c) != number(st.rows[size_t(lo)], c);
        const bool highest = spread && number(row, c) == number(st.rows[size_t(hi)], c);
        const bool lowest = spread && number(row, c) == number(st.rows[size_t(lo)], c);
        if (!columns[c].numeric) {  // origin and run dimmed, the model in its colour
            ImGui::PushStyleColor(ImGuiCol_Text, c == Col::model ? row_color : col.text_dim);
            WrappedText("%s", t.c_str());
            ImGui::PopStyleColor();
            if (narrow && c == Col::model) ImGui::TextDisabled("%s, H %s", text(row, Col::origin, true).c_str(), text(row, Col::width).c_str());
        } else {
            ImGui::TextUnformatted(t.c_str());
        }
        if (highest || lowest) {
            ImGui::SameLine(0, 4);
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(highest ? col.context : col.decoder), highest ? "\u25b2" : "\u25bc");
        }
    };
    // A click or a key on a header ranks by that column (a second turns the order over). Said once
    // for a screen reader with the row now first: the table's rewrite is not spoken.
    if (const auto by = ShowTable(ranked.table, look)) {
        const int c = ranked.shown[size_t(*by)];
        st.descending = c == st.sort_column ? !st.descending : columns[c].numeric;
        st.sort_column = c;
        st.rows = ranked_results(lab, st).rows;
        std::string said = std::string("ranked by ") + columns[c].title + (st.descending ? ", descending" : ", ascending");
        if (!st.rows.empty()) {
            const ResultRow& first = st.rows.front();
            said += "; first: " + text(first, Col::model) + ", width " + text(first, Col::width);
            if (c != Col::model && c != Col::width) said += ", " + std::string(columns[c].title) + " " + text(first, c);
        }
        announce(said);
    }
    if (!lab.published_note.empty()) DimTextWrapped(lab.published_note.c_str());
    ImGui::TextDisabled("%s", narrow ? "\u25b2 highest, \u25bc lowest. Click a header to rank."
                                     : "\u25b2 highest, \u25bc lowest of each column. Click a header to rank the rows by it.");
}

nlohmann::json row_json(const ResultRow& r) {
    const auto number = [](double v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); };
    return {{"origin", origin_names(r.origin).key},
            {"run", r.label}, {"task", r.model.task->name}, {"task_label", task_label(*r.model.task)},
            {"model", model_label(r.model)}, {"width", r.model.H},
            {"exact", r.exact}, {"per_char", r.per_char}, {"bleu", number(r.bleu)}, {"aer", number(r.aer)},
            {"parameters", r.parameters < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.parameters)}, {"seconds", number(r.seconds)}};
}

nlohmann::json state_json(Lab& lab, ResultsState& st) {
    const std::vector<ResultRow> rows = ranked_results(lab, st).rows;
    nlohmann::json list = nlohmann::json::array(), marks = nlohmann::json::object();
    for (const ResultRow& r : rows) list.push_back(row_json(r));
    for (int c = 0; c < column_count; ++c)
        if (is_result(c)) {
            const auto [hi, lo] = extremes(rows, c);
            marks[columns[c].key] = {{"highest", hi}, {"lowest", lo}};
        }
    return {{"sort", columns[st.sort_column].key}, {"descending", st.descending}, {"task", st.rows_task ? st.rows_task->name : "all"},
            {"rows", list}, {"marks", marks},
            {"published_note", lab.published_note}, {"weights_note", saved_weights_note(lab)}};
}

std::string text_alternative(Lab& lab, const ResultsState& st) {
    return "<p>" + (st.rows_task ? "The " + st.rows_task->name + " task's rows" : std::string("Every task's rows")) + ", ranked by " +
           std::string(columns[st.sort_column].title) + (st.descending ? ", highest first" : ", lowest first") + ".</p>" +
           table_html(ranked_results(lab, st).table);
}

}  // namespace

ResultsState::ResultsState() {
    std::vector<std::pair<std::string, int>> keys;
    for (int c = 0; c < column_count; ++c) keys.push_back({columns[c].key, c});
    url.choice("sort", sort_column, keys).choice("dir", descending, {{"down", true}, {"up", false}});
    url_task(url, "task", rows_task, "all");
}

std::string task_label(const Task& t) {
    return t.carried_in_weights ? t.name + " (" + grouped(t.train_size + t.held_out_size) + " pairs)" : t.name;
}

FigureSpec results_figure(Lab& lab, ResultsState& st) {
    lab.changes.subscribe([] { request_redraw("results"); });
    return {
        .name = "results",
        .show = [&lab, &st] { ShowResults(lab, st); },
        .state = [&lab, &st] { return state_json(lab, st); },
        .text_alternative = [&lab, &st] { return text_alternative(lab, st); },
        .fit_height = true,
        .url = &st.url,
    };
}

}  // namespace lb::web
