// web/lab/results.cpp — every result the page knows as rows: the source's published table
// (core/lesson/published.h), the native sweep (assets/sweep.json), and the page's own runs and shipped
// models; and the same rows as CSV for the reader to save.
#include <algorithm>
#include <cmath>

#include "figure.h"
#include "lab.h"
#include "lesson/published.h"

namespace lb::web {

const OriginNames& origin_names(Origin origin) {
    static const OriginNames names[] = {
        {"source", "source (TensorFlow)", "TF"},          // Origin::source
        {"native", "lookback sweep (native)", "native"},  // Origin::native
        {"page", "this page", "page"},                    // Origin::page
    };
    return names[size_t(origin)];
}

const Model* Lab::current_model(DecoderKind kind, std::string* label) const {
    const size_t k = kind == DecoderKind::attention;
    const ModelRead read = read_model(live[k], shipped[k]);
    if (label && read.model) *label = read.run ? "trained in this page" : "shipped";
    return read.model;
}

const Metrics* Lab::current_metrics(DecoderKind kind, std::string* label) const {
    const int k = kind == DecoderKind::attention;
    if (live[size_t(k)] && live[size_t(k)]->metrics()) {
        const Run& run = *live[size_t(k)];
        if (label)
            *label = model_label(run.config().model) + " trained in this page, width " +
                     std::to_string(run.config().model.H) + ", epoch " + std::to_string(run.epoch());
        return &*run.metrics();
    }
    if (shipped_metrics[size_t(k)]) {
        if (label) *label = model_label(shipped[size_t(k)]->config) + " shipped, width " +
                            std::to_string(shipped[size_t(k)]->config.H) + ", 12 epochs";
        return &*shipped_metrics[size_t(k)];
    }
    return nullptr;
}

std::vector<ResultRow> Lab::results() const {
    std::vector<ResultRow> rows;
    for (DecoderKind kind : {DecoderKind::plain, DecoderKind::attention})
        for (size_t w = 0; w < sweep_widths.size(); ++w) {
            ModelConfig c;
            c.decoder = kind;
            c.H = sweep_widths[w];
            const SourceModelFigures& source = source_figures.of(kind);
            rows.push_back({Origin::source, "the source's run", c, source.exact[w], source.per_char[w], parameter_count(c),
                            w + 1 == sweep_widths.size() ? source.seconds_64 : NAN});
        }
    rows.insert(rows.end(), native_rows.begin(), native_rows.end());
    auto page_row = [&](const Run& run, const std::string& label) {
        const ModelConfig& c = run.config().model;
        rows.push_back({Origin::page,
                        label + " (" + std::to_string(run.epoch()) + "/" + std::to_string(run.config().epochs) + " ep.)",
                        c, run.metrics()->exact, run.metrics()->per_char, parameter_count(c),
                        run.seconds_training()});
    };
    for (const auto& run : sweep)
        if (run && run->metrics()) page_row(*run, "sweep");
    for (const auto& run : live.runs)
        if (run && run->metrics()) page_row(*run, "training");
    for (int k = 0; k < 2; ++k)
        if (const auto& m = shipped_metrics[size_t(k)]) {
            const ModelConfig c = shipped[size_t(k)]->config;
            rows.push_back({Origin::page, "shipped weights", c, m->exact, m->per_char, parameter_count(c), NAN});
        }
    return rows;
}

std::string Lab::results_csv() const {
    std::string csv = "origin,run,model,width,exact,per_char,parameters,train_seconds\n";
    for (const ResultRow& r : results()) {
        std::string label = r.label;
        std::replace(label.begin(), label.end(), ',', ';');
        csv += std::string(origin_names(r.origin).label) + "," + label + "," + model_label(r.model) + "," +
               std::to_string(r.model.H) + "," + fixed(r.exact, 4) + "," + fixed(r.per_char, 4) + "," +
               std::to_string(r.parameters) + "," + (std::isnan(r.seconds) ? "" : fixed(r.seconds, 1)) + "\n";
    }
    return csv;
}

}  // namespace lb::web
