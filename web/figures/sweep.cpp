// web/figures/sweep.cpp — figure "sweep": the lesson's table, four widths × two models, exact match
// and per-character accuracy on the held-out strings. Three rows per width: the source's own
// measurements (quoted), the native `lookback sweep` shipped in assets/sweep.json, and the runs
// the reader starts here, each cell in a Web Worker, as many at once as the reader has cores
// to spare, largest first. Under it, for the current pair of models
// (the training figure's once it has finished an epoch, else the shipped 64-unit ones): accuracy
// per output position, with the level that always writing the most common character reaches
// there (the plain model's month and day digits sit at or below it), and per input-length bucket
// (no trend: length is not what hurts).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <imgui.h>

#include "controls.h"
#include "charts.h"
#include "lesson2.h"
#include "lesson/published.h"

namespace lb::web {
namespace {

const char* const position_names[10] = {"y", "y", "y", "y", "-", "m", "m", "-", "d", "d"};

// A row of the width sweep: the source's, assets/sweep.json's or a cell run in the page (not the
// published designs' means, nor the training figure's runs).
bool sweep_row(const ResultRow& r) {
    return r.origin == Origin::source || (r.origin == Origin::native && r.label == native_sweep_label) ||
           (r.origin == Origin::page && r.label.rfind("sweep", 0) == 0);
}

const ResultRow* find_row(const std::vector<ResultRow>& rows, Origin origin, DecoderKind model, int width) {
    for (const ResultRow& r : rows)
        if (r.origin == origin && r.model.decoder == model && r.model.H == width && sweep_row(r)) return &r;
    return nullptr;
}

void ShowControls(Lab& lab, SweepState& st) {
    ImGui::BeginDisabled(lab.sweep_running);
    bool any = false;
    for (const auto& run : lab.sweep) any |= bool(run);
    if (Button(any ? "Resume the eight runs###run-all" : "Run all eight###run-all", "run-all")) lab.run_sweep(st.epochs);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!lab.sweep_running);
    if (Button("Pause", "pause", "Pause the sweep")) lab.pause_sweep();
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (Button("Clear", "clear", "Clear the sweep")) lab.clear_sweep();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::BeginDisabled(any);
    SliderInt("epochs each", "epochs", &st.epochs, 1, sweep_epochs);
    ImGui::EndDisabled();
    if (lab.sweep_running) mark_busy();

    // Progress over the eight runs: each counts by its share of the work (examples × width²).
    double total = 0, done = 0;
    for (size_t i = 0; i < sweep_cell_count; ++i) {
        const double w = SweepCell::at(i).width(), cost = w * w + 200;  // small widths still cost something
        total += cost;
        if (lab.sweep[i]) done += cost * lab.sweep[i]->fraction_done();
    }
    std::string text = "not started";
    std::string training;  // the cells in the workers now: "attention 64 (epoch 3/12)"
    for (const auto& run : lab.sweep)
        if (run && run->playing())
            training += (training.empty() ? "" : ", ") + std::string(decoder_name(run->config().model.decoder)) + " " +
                        std::to_string(run->config().model.H) + " (epoch " +
                        std::to_string(std::min(run->epoch() + 1, run->config().epochs)) + "/" +
                        std::to_string(run->config().epochs) + ")";
    if (lab.sweep_running && !training.empty()) {
        text = training;
        if (lab.sweep_clock.ms() > 1000 && done > 0)
            text += " \u00b7 about " + minutes_seconds(lab.sweep_clock.ms() / 1000 * (total - done) / done) + " left";
    } else if (done >= total * 0.999) {
        text = "all eight runs done in " + minutes_seconds(lab.sweep_clock.ms() / 1000);
    } else if (any) {
        text = "paused";
    }
    ImGui::ProgressBar(float(done / total), {-1, 0}, text.c_str());
    // For a screen reader: the progress in whole percents, and where the sweep is when that
    // changes (aria-busy alone is not spoken).
    const bool finished = done >= total * 0.999;
    const int percent = finished ? 100 : int(done / total * 100);
    describe({.id = "progress", .role = Role::progressbar, .name = "sweep progress",
              .value_text = finished ? "done" : std::to_string(percent) + "%", .value = double(percent), .min = 0, .max = 100});
    announce_shown("status", lab.sweep_running ? "Sweep running." : finished ? "All eight runs done." : any ? "Sweep paused." : "Sweep not started.",
                   true);
    for (const auto& run : lab.sweep)
        if (run && run->failed())
            ImGui::TextColored(lesson_colors().error, "%s %d stopped: %s", std::string(decoder_name(run->config().model.decoder)).c_str(),
                               run->config().model.H, run->message().c_str());
    if (const int workers = lab.worker_count(); workers > 1)
        DimTextWrapped((std::to_string(workers) + " cells train at once, one per Web Worker.").c_str());
    else
        DimTextWrapped("One cell trains at a time, in a Web Worker.");
}

// The width sweep's table: a row per width and origin, the two models' exact match and
// per-character accuracy; a cell the page is still training says how far it is.
FigureTable sweep_table(const Lab& lab, const std::vector<ResultRow>& rows) {
    FigureTable table{.id = "sweep-table", .name = "exact match and per-character accuracy by width",
                      .columns = {{"width", "H"}, {"measured by", "by"}, {"plain exact"}, {"attention exact", "attn. exact"},
                                  {"plain per-char", "plain char"}, {"attention per-char", "attn. char"}}};
    for (int w = 0; w < 4; ++w) {
        const int width = sweep_widths[size_t(w)];
        for (Origin origin : {Origin::source, Origin::native, Origin::page}) {
            const ResultRow* p = find_row(rows, origin, DecoderKind::plain, width);
            const ResultRow* a = find_row(rows, origin, DecoderKind::attention, width);
            const double values[4] = {p ? p->exact : NAN, a ? a->exact : NAN, p ? p->per_char : NAN, a ? a->per_char : NAN};
            std::vector<TableCell> row = {std::to_string(width), {origin_names(origin).label, origin_names(origin).narrow, true}};
            for (int c = 0; c < 4; ++c) {
                const Run* run = lab.sweep[SweepCell{size_t(w), size_t(c % 2)}.index()].get();  // columns alternate the pair's slots
                if (!std::isnan(values[c])) {
                    row.push_back({fixed(values[c], 4), fixed(values[c], 3)});
                } else if (origin == Origin::page && run && !run->done()) {
                    const std::string percent = std::to_string(int(run->fraction_done() * 100)) + "%";
                    row.push_back({percent + " trained", percent, true});
                } else {
                    row.push_back({"\u2013", "", true});  // a dash: not measured
                }
            }
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

void ShowSweepTable(const Lab& lab, const SweepState& st, const std::vector<ResultRow>& rows) {
    // The brief labels where a full one would be clipped in its column (1.7 of 5.7 shares of what
    // the width column leaves): on a phone, and at 200 % zoom.
    const float avail = ImGui::GetContentRegionAvail().x;
    float widest = 0;
    for (Origin origin : {Origin::source, Origin::native, Origin::page})
        widest = std::max(widest, ImGui::CalcTextSize(origin_names(origin).label).x);
    const bool narrow = avail < 560 || widest + 2 * ImGui::GetStyle().CellPadding.x > (avail - 48) * 1.7f / 5.7f;
    const FigureTable table = sweep_table(lab, rows);
    const std::pair<ImGuiTableColumnFlags, float> stretch = {0, 1.0f};
    ShowTable(table, {.flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp,
                      .narrow = narrow,
                      .sizing = {{ImGuiTableColumnFlags_WidthFixed, narrow ? 22.0f : 48.0f},
                                 {ImGuiTableColumnFlags_WidthStretch, narrow ? 1.2f : 1.7f}, stretch, stretch, stretch, stretch},
                      .grouped = true});
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(lesson_colors().text_dim));
    WrappedText("%s", ((narrow ? "TF: the source's run (TensorFlow). Native sweep: " : "Native sweep: ") + lab.native_note +
                              ". This page: additive attention, seed 1, " + std::to_string(st.epochs) + " epochs each.").c_str());
    ImGui::PopStyleColor();
}

void ShowViews(Lab& lab) {
    std::string plain_label, attention_label;
    const Metrics* plain = lab.current_metrics(DecoderKind::plain, &plain_label);
    const Metrics* attention = lab.current_metrics(DecoderKind::attention, &attention_label);
    if (!plain || !attention) {
        const std::string missing = lab.shipped_errors(date_task(), {DecoderKind::plain, DecoderKind::attention});
        ImGui::TextDisabled("The per-position and length views appear once a pair of models is evaluated%s.",
                            missing.empty() ? "" : (" (" + missing + ")").c_str());
        return;
    }
    const float width = ImGui::GetContentRegionAvail().x, gap = ImGui::GetStyle().ItemSpacing.x;
    const bool narrow = width < 560;
    WrappedText("Current models: %s; %s.", plain_label.c_str(), attention_label.c_str());  // each names its model
    std::vector<double> p(plain->per_position.begin(), plain->per_position.end());
    std::vector<double> a(attention->per_position.begin(), attention->per_position.end());
    const auto& source_positions = source_figures.plain.per_position_64;
    std::vector<double> s(source_positions.begin(), source_positions.end());
    std::vector<std::string> groups(position_names, position_names + 10);
    const ChanceBaselines chance = chance_baselines(lab.held_out());
    const std::vector<double> c(chance.majority_share.begin(), chance.majority_share.end());
    const BarSeries by_position[] = {{p, plain_color(), "plain"}, {a, attention_color(), "attention"},
                                     {s, with_alpha(plain_color(), 70), "plain, source"},
                                     {c, lesson_colors().text, "chance", true}};
    std::vector<double> pb(plain->per_length_bucket.begin(), plain->per_length_bucket.end());
    std::vector<double> ab(attention->per_length_bucket.begin(), attention->per_length_bucket.end());
    const auto& source_buckets = source_figures.plain_length_buckets_64;
    std::vector<double> sb(source_buckets.begin(), source_buckets.end());
    std::vector<std::string> ranges;
    for (int k = 0; k < 4; ++k)
        ranges.push_back(std::to_string(plain->buckets.lowest_length(k)) + "\u2013" + std::to_string(plain->buckets.highest_length(k)));
    const BarSeries by_length[] = {{pb, plain_color(), "plain"}, {ab, attention_color(), "attn."},
                                   {sb, with_alpha(plain_color(), 70), "source"}};
    const float positions_w = narrow ? width : (width - gap) * 0.62f, buckets_w = narrow ? width : (width - gap) * 0.38f;
    const char* positions_title = "accuracy per output position (y y y y - m m - d d)";
    const char* buckets_title = "per-char by input length";
    const bool apart = !narrow && (!legend_fits(positions_w, positions_title, std::span<const BarSeries>(by_position)) ||
                                   !legend_fits(buckets_w, buckets_title, std::span<const BarSeries>(by_length)));
    GroupedBars("positions", {positions_w, 150}, by_position, groups, 1, positions_title, apart);
    record_rect("positions");
    if (!narrow) ImGui::SameLine();
    GroupedBars("buckets", {buckets_w, 150}, by_length, ranges, 1, buckets_title, apart);
    record_rect("buckets");
    double lo = 1, hi = 0;
    for (double v : pb)
        if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    // The line is "chance": always writing the held-out split's most common character there.
    std::string against;
    for (size_t t : {5, 6, 8, 9})
        against += std::string(t == 5 ? "" : ", ") + fixed(p[t], 2) + " (" + fixed(c[t], 2) + ")";
    WrappedText("The line is chance: always writing the most common character at that position. Plain model, month "
                "and day digits: %s, chance in brackets; year %s. Across the four length buckets its per-character "
                "accuracy spreads by %s.",
                against.c_str(), fixed((p[0] + p[1] + p[2] + p[3]) / 4, 2).c_str(), fixed(hi - lo, 3).c_str());
}

void ShowSweep(Lab& lab, SweepState& st) {
    const std::vector<ResultRow> rows = lab.results();
    ShowControls(lab, st);
    ShowSweepTable(lab, st, rows);
    ShowViews(lab);
}

nlohmann::json state_json(Lab& lab, const SweepState& st) {
    nlohmann::json cells = nlohmann::json::array();
    for (const ResultRow& r : lab.results())
        if (sweep_row(r))
            cells.push_back({{"origin", origin_names(r.origin).key},
                             {"model", std::string(decoder_name(r.model.decoder))},
                             {"width", r.model.H}, {"exact", r.exact}, {"per_char", r.per_char}});
    nlohmann::json views = nullptr;
    if (const Metrics* p = lab.current_metrics(DecoderKind::plain))
        if (const Metrics* a = lab.current_metrics(DecoderKind::attention))
            views = {{"plain_per_position", p->per_position}, {"attention_per_position", a->per_position},
                     {"chance_per_position", chance_baselines(lab.held_out()).majority_share},
                     {"plain_length_buckets", p->per_length_bucket}, {"attention_length_buckets", a->per_length_bucket}};
    nlohmann::json shipped = nlohmann::json::object();
    for (DecoderKind kind : {DecoderKind::plain, DecoderKind::attention})
        if (const ShippedModel* m = lab.find_shipped(date_task(), kind); m && m->metrics)
            shipped[std::string(decoder_name(kind))] = {{"exact", m->metrics->exact}, {"per_char", m->metrics->per_char},
                                                        {"native_exact", m->native_exact}};
    nlohmann::json training = nlohmann::json::array();
    for (const auto& run : lab.sweep)
        if (run && run->playing()) training.push_back({{"model", decoder_name(run->config().model.decoder)}, {"width", run->config().model.H}});
    return {{"running", lab.sweep_running}, {"training", training}, {"workers", lab.worker_count()},
            {"wall_seconds", lab.sweep_clock.ms() / 1000}, {"epochs", st.epochs},
            {"cells", cells}, {"views", views}, {"native_note", lab.native_note}, {"shipped", shipped}};
}

std::string text_alternative(Lab& lab) { return table_html(sweep_table(lab, lab.results())); }

}  // namespace

SweepState::SweepState() { url.integer("epochs", epochs, 1, sweep_epochs); }

FigureSpec sweep_figure(Lab& lab, SweepState& state) {
    const auto redraw = [] { request_redraw("sweep"); };
    lab.changes.subscribe(redraw);
    lab.sweep_progress.subscribe(redraw);
    return {
        .name = "sweep",
        .show = [&lab, &state] { ShowSweep(lab, state); },
        .state = [&lab, &state] { return state_json(lab, state); },
        .text_alternative = [&lab] { return text_alternative(lab); },
        .fit_height = true,
        .url = &state.url,
    };
}

}  // namespace lb::web
