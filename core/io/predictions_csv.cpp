// core/io/predictions_csv.cpp — see predictions_csv.h.
#include "io/predictions_csv.h"

#include <stdexcept>

#include "data/metrics.h"

namespace lb {
namespace {

std::string marks_of(const Vocabulary& vocabulary, const std::string& output, const std::string& target) {
    const auto written = vocabulary.split(output), wanted = vocabulary.split(target);
    std::string marks;
    for (size_t t = 0; t < wanted.size(); ++t) marks += t < written.size() && written[t] == wanted[t] ? '=' : 'x';
    if (written.size() > wanted.size()) marks.append(written.size() - wanted.size(), '+');
    return marks;
}

// A spreadsheet would drop spaces at a field's ends, and a comma, quote or line end would end it.
std::string csv_field(const std::string& text) {
    const bool quoted = text.find_first_of(",\"\r\n") != std::string::npos ||
                        (!text.empty() && (text.front() == ' ' || text.back() == ' '));
    if (!quoted) return text;
    std::string field = "\"";
    for (char c : text) {
        if (c == '"') field += '"';
        field += c;
    }
    return field + '"';
}

}  // namespace

std::vector<PredictionRow> prediction_rows(const Task& task, const std::vector<Example>& examples,
                                           const std::vector<std::string>& predictions) {
    if (examples.size() != predictions.size())
        throw std::invalid_argument("prediction_rows: " + std::to_string(predictions.size()) + " predictions for " +
                                    std::to_string(examples.size()) + " examples");
    std::vector<PredictionRow> rows;
    rows.reserve(examples.size());
    for (size_t i = 0; i < examples.size(); ++i) {
        const Example& ex = examples[i];
        const std::string& output = predictions[i];
        rows.push_back({ex.input, ex.target, output, output == ex.target,
                        token_edit_distance(task.output, output, ex.target), marks_of(task.output, output, ex.target)});
    }
    return rows;
}

std::string predictions_csv(const std::vector<PredictionRow>& rows) {
    std::string csv = "input,target,output,exact,edit_distance,token_marks\n";
    for (const PredictionRow& r : rows)
        csv += csv_field(r.input) + ',' + csv_field(r.target) + ',' + csv_field(r.output) + ',' + (r.exact ? '1' : '0') +
               ',' + std::to_string(r.edit_distance) + ',' + r.marks + '\n';
    return csv;
}

}  // namespace lb
