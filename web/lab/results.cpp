// web/lab/results.cpp — every result the page knows as rows: the source's published table
// (core/lesson/published.h), the native sweep (assets/sweep.json), and the page's own runs and shipped
// models; and the same rows as CSV for the reader to save.
#include <algorithm>
#include <cmath>

#include "figure.h"
#include "lab.h"
#include "data/translation.h"
#include "lesson/published.h"

namespace lb::web {
namespace {
// A row's parameter count where its source gave none (ResultRow::parameters below 0).
constexpr long no_parameter_count = -1;
}  // namespace

const OriginNames& origin_names(Origin origin) {
    static const OriginNames names[] = {
        {"source", "source (TensorFlow)", "TF"},          // Origin::source
        {"native", "lookback sweep (native)", "native"},  // Origin::native
        {"page", "this page", "page"},                    // Origin::page
    };
    return names[size_t(origin)];
}

const Model* Lab::saved_model(DecoderKind kind, std::string* label) const {
    const std::unique_ptr<Run>& side = live[pair_slot(kind)];
    const Task& task = side ? *side->config().model.task : date_task();
    const ModelRead read = read_model(side, shipped_model(task, kind), task);
    if (label && read.model) *label = read.run ? "trained in this page" : "shipped";
    return read.model;
}

const Metrics* Lab::current_metrics(DecoderKind kind, std::string* label) const {
    const std::unique_ptr<Run>& side = live[pair_slot(kind)];
    if (side && side->config().model.task == &date_task() && side->metrics()) {
        const Run& run = *side;
        if (label)
            *label = model_label(run.config().model) + " trained in this page, width " +
                     std::to_string(run.config().model.H) + ", epoch " + std::to_string(run.epoch());
        return &*run.metrics();
    }
    const ShippedModel* m = find_shipped(date_task(), kind);
    if (m && m->metrics) {
        if (label) *label = model_label(m->model->config) + " shipped, " + m->info.substr(0, m->info.find(", seed"));  // width, epochs
        return &*m->metrics;
    }
    return nullptr;
}

std::vector<ResultRow> Lab::results() const {
    std::vector<ResultRow> rows;
    // The source's rows quote the source: it published a parameter count and a time at width 64
    // only, so its other widths have neither (a count below 0 is no count, shown as a dash).
    for (DecoderKind kind : lesson_pair)
        for (size_t w = 0; w < sweep_widths.size(); ++w) {
            ModelConfig c;
            c.decoder = kind;
            c.H = sweep_widths[w];
            const SourceModelFigures& source = source_figures.of(kind);
            const bool published = w + 1 == sweep_widths.size();
            rows.push_back({Origin::source, "the source's run", c, source.exact[w], source.per_char[w],
                            published ? source.parameters_64 : no_parameter_count, published ? source.seconds_64 : NAN});
        }
    rows.insert(rows.end(), native_rows.begin(), native_rows.end());
    for (const Task* task : tasks()) {
        const std::vector<ResultRow>& measured = alignment_sweep(*task).results;
        rows.insert(rows.end(), measured.begin(), measured.end());
    }
    // A held-out evaluation's row: its AER where the model has a map and the task alignments (NaN
    // without links), its BLEU for the translation or where the reader asked (reports_bleu).
    auto measured_row = [&](const std::string& label, const ModelConfig& c, const Metrics& m, double seconds) {
        rows.push_back({Origin::page, label, c, m.exact, m.per_char, parameter_count(c), seconds,
                        m.alignment ? m.alignment->aer() : NAN, reports_bleu(*c.task, bleu_asked) ? m.bleu : NAN});
    };
    // A run on another setting of the date task's dial says which, so its row is told apart.
    auto page_row = [&](const Run& run, const std::string& label) {
        const std::string dial = dial_label(*run.config().model.task);
        measured_row(label + " (" + std::to_string(run.epoch()) + "/" + std::to_string(run.config().epochs) + " ep.)" +
                         (dial.empty() ? "" : " \u00b7 " + dial),
                     run.config().model, *run.metrics(), run.seconds_training());
    };
    for (const auto& run : sweep)
        if (run && run->metrics()) page_row(*run, "sweep");
    for (const auto& run : live.runs)
        if (run && run->metrics()) page_row(*run, "training");
    for (const auto& run : transformers.runs)
        if (run && run->metrics()) page_row(*run, "Transformer training");
    for (const ShippedModel& m : shipped)
        if (m.metrics) measured_row("shipped weights", m.model->config, *m.metrics, NAN);
    return rows;
}

std::string Lab::results_csv(const std::vector<ResultRow>& rows) {
    std::string csv = "origin,run,task,model,width,exact,per_token,bleu,aer,parameters,train_seconds\n";
    const auto number = [](double v, int decimals) { return std::isnan(v) ? std::string() : fixed(v, decimals); };
    for (const ResultRow& r : rows) {
        std::string label = r.label;
        std::replace(label.begin(), label.end(), ',', ';');
        const std::string parameters = r.parameters < 0 ? std::string() : std::to_string(r.parameters);  // none: empty
        csv += std::string(origin_names(r.origin).label) + "," + label + "," + r.model.task->name + "," + model_label(r.model) +
               "," + std::to_string(r.model.H) + "," + fixed(r.exact, 4) + "," + fixed(r.per_char, 4) + "," +
               number(r.bleu, 4) + "," + number(r.aer, 4) + "," + parameters + "," + number(r.seconds, 1) + "\n";
    }
    return csv;
}

}  // namespace lb::web
