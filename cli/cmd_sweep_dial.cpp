// `lookback sweep --dial [--formats LIST] [--field-order WORD] [--seeds N]`: the difficulty dial
// (docs/dataset.md, "The dial"). The plain model and the lesson's attention model (additive) at
// width 64 on the date task drawn at several settings of its dial, over seeds; for each, how often
// each output field is right in full beside what guessing its most common value scores, and the
// plain model's fields by the place they are read in — so the fields' order in the input is
// measured apart from what they are. Written as DIR/dial.json and DIR/dial.md after each setting
// (a long sweep leaves what it finished behind).
#include <cstdio>
#include <map>

#include "cli/sweeps.h"
#include "lesson/published.h"

namespace lb::cli {

namespace {

constexpr int width = 64;

// The fields of YYYY-MM-DD: where each starts and how long it is.
struct OutputField {
    char letter;  // as in a field order
    const char* name;
    int start, length;
};
constexpr OutputField output_fields[] = {{'y', "year", 0, 4}, {'m', "month", 5, 2}, {'d', "day", 8, 2}};
const OutputField& field_of(char letter) {
    for (const OutputField& f : output_fields)
        if (f.letter == letter) return f;
    throw std::logic_error("no such field");
}

nlohmann::json model_json(const DialModel& m) {
    nlohmann::json fields = nlohmann::json::object();
    for (const OutputField& f : output_fields) fields[f.name] = spread_json(m.fields.at(f.letter));
    return {{"model", m.model}, {"exact", spread_json(m.exact)}, {"per_char", spread_json(m.per_char)},
            {"fields", fields}, {"per_position", m.per_position}};
}

std::map<char, double> fields_of(const nlohmann::json& json) {
    std::map<char, double> fields;
    for (const OutputField& f : output_fields) fields[f.letter] = json.at(f.name).get<double>();
    return fields;
}

DateDial dial_of(const nlohmann::json& json) {
    DateDial dial{{}, json.at("field_order").get<std::string>()};
    if (!parse_formats(json.at("formats").get<std::string>(), dial.formats))
        throw std::invalid_argument("dial: formats not readable");
    return dial;
}

// "5 (`dd mm yyyy`)", "all six": a setting's formats for a table.
std::string formats_cell(const DateDial& dial) {
    if (dial.formats.size() == size_t(format_count)) return "all six";
    std::string text;
    for (int f : dial.formats) text += (text.empty() ? "" : ", ") + std::to_string(f) + " (`" + format_name(f, dial.order) + "`)";
    return text;
}

// Run: plain and attention at one setting of the dial over the seeds; nullopt if the trainer
// stopped a run.
std::optional<std::vector<DialRow>> run_setting(const DateDial& dial, const SweepArgs& args,
                                                const std::vector<uint64_t>& seeds, const Splits& data) {
    const Task& task = date_task(dial);
    std::vector<DialRow> runs;
    for (DecoderKind kind : lesson_pair)
        for (uint64_t seed : seeds) {
            ModelConfig model;
            model.task = &task;
            model.decoder = kind;
            model.scorer = Scorer::additive;
            model.H = width;
            const RunOptions o = sweep_options(args, model, seed);
            char label[80];
            std::snprintf(label, sizeof label, "%-11s %s %-9s seed %llu ", formats_text(dial.formats).c_str(),
                          dial.order.c_str(), std::string(decoder_name(kind)).c_str(), (unsigned long long)seed);
            const std::optional<RunResult> r = sweep_run(o, label, data);
            if (!r) return std::nullopt;
            DialRow row{dial, std::string(decoder_name(kind)), r->metrics.exact, r->metrics.per_char, {},
                        r->metrics.per_position, run_json(o, *r)};
            row.json["fields"] = nlohmann::json::object();
            for (const OutputField& f : output_fields) {
                row.fields[f.letter] = field_right(data.held_out, r->predictions, f.start, f.length);
                row.json["fields"][f.name] = row.fields[f.letter];
            }
            runs.push_back(row);
        }
    return runs;
}

}  // namespace

std::vector<DateDial> dial_settings() {
    constexpr int all_numbers = 5;  // dd mm yyyy: the one format without words
    std::vector<DateDial> settings = {{{all_numbers}, "dmy"}};
    for (const char* order : {"dmy", "ymd", "mdy", "ydm", "dym", "myd"}) settings.push_back({DateDial{}.formats, order});
    return settings;
}

double field_right(const std::vector<Example>& examples, const std::vector<std::string>& predictions, int start,
                   int length) {
    if (examples.empty() || examples.size() != predictions.size())
        throw std::invalid_argument("field_right: one prediction for each example");
    long right = 0;
    for (size_t i = 0; i < examples.size(); ++i)
        right += predictions[i].size() >= size_t(start + length) &&
                 predictions[i].compare(size_t(start), size_t(length), examples[i].target, size_t(start), size_t(length)) == 0;
    return double(right) / double(examples.size());
}

double field_chance(const std::vector<Example>& examples, int start, int length) {
    if (examples.empty()) throw std::invalid_argument("field_chance: no examples");
    std::map<std::string, long> counts;
    long most = 0;
    for (const Example& ex : examples) most = std::max(most, ++counts[ex.target.substr(size_t(start), size_t(length))]);
    return double(most) / double(examples.size());
}

DialSweepResults dial_sweep_results(const SweepHeader& header, const std::vector<DialChance>& chances,
                                    const std::vector<DialRow>& rows) {
    DialSweepResults r{header, {}, rows};
    const int n = int(header.seeds.size());
    for (const DialChance& chance : chances) {
        DialSetting setting{chance, {}};
        for (const DialRow& row : rows) {
            if (!(row.dial == chance.dial)) continue;
            if (setting.models.empty() || setting.models.back().model != row.model)
                setting.models.push_back({row.model, {}, {}, {}, std::vector<double>(output_length, 0.0)});
            DialModel& m = setting.models.back();
            m.exact.add(row.exact, n), m.per_char.add(row.per_char, n);
            for (const OutputField& f : output_fields) m.fields[f.letter].add(row.fields.at(f.letter), n);
            for (size_t t = 0; t < size_t(output_length); ++t) m.per_position[t] += row.per_position[t] / n;
        }
        r.settings.push_back(setting);
    }
    return r;
}

DialSweepResults dial_sweep_results_of(const nlohmann::json& json) {
    std::vector<DialChance> chances;
    for (const nlohmann::json& s : json.at("settings")) {
        const nlohmann::json& c = s.at("chance");
        chances.push_back({dial_of(s), s.at("group_names").get<std::vector<std::string>>(), fields_of(c),
                           c.at("per_position").get<std::array<double, output_length>>()});
    }
    std::vector<DialRow> rows;
    for (const nlohmann::json& run : json.at("runs"))
        rows.push_back({dial_of(run), run.at("model").get<std::string>(), run.at("exact").get<double>(),
                        run.at("per_char").get<double>(), fields_of(run.at("fields")),
                        run.at("per_position").get<std::vector<double>>(), run});
    return dial_sweep_results(sweep_header_of(json), chances, rows);
}

nlohmann::json dial_sweep_json(const DialSweepResults& r) {
    nlohmann::json settings = nlohmann::json::array(), runs = nlohmann::json::array();
    for (const DialSetting& s : r.settings) {
        const DialChance& c = s.chance;
        nlohmann::json models = nlohmann::json::array();
        for (const DialModel& m : s.models) models.push_back(model_json(m));
        settings.push_back({{"formats", formats_text(c.dial.formats)},
                            {"field_order", c.dial.order},
                            {"group_names", c.group_names},
                            {"chance", {{"year", c.fields.at('y')}, {"month", c.fields.at('m')},
                                        {"day", c.fields.at('d')}, {"per_position", c.per_position}}},
                            {"models", models}});
    }
    for (const DialRow& row : r.rows) runs.push_back(row.json);
    nlohmann::json json = sweep_header_json(r.header);
    json["settings"] = settings;
    json["runs"] = runs;
    return json;
}

std::string dial_sweep_markdown(const DialSweepResults& r) {
    const SweepHeader& h = r.header;
    std::string md_main, md_read, md_positions;
    for (const DialSetting& s : r.settings) {
        const DateDial& dial = s.chance.dial;
        const std::string where = "| " + formats_cell(dial) + " | " + dial.order + " | ";
        for (const DialModel& m : s.models) {
            md_main += where + m.model + " | " + spread_text(m.exact) + " | " + spread_text(m.per_char);
            for (const OutputField& f : output_fields) md_main += " | " + spread_text(m.fields.at(f.letter));
            md_main += " |\n";
            md_positions += where + m.model;
            for (double a : m.per_position) md_positions += " | " + fixed(a, 3);
            md_positions += " |\n";
            // The order in which fields are read is the plain model's: the bottleneck this sweep is about.
            if (m.model == decoder_name(lesson_pair[plain_slot])) {
                md_read += where;
                for (char letter : dial.order)
                    md_read += std::string(field_of(letter).name) + " " + spread_text(m.fields.at(letter)) + " | ";
                md_read.pop_back();
                md_read += "\n";
            }
        }
        md_main += where + "chance | – | –";
        for (const OutputField& f : output_fields) md_main += " | " + fixed(s.chance.fields.at(f.letter));
        md_main += " |\n";
    }
    std::string md = "# The difficulty dial: which fields a plain encoder–decoder loses\n\n";
    md += "Written by `lookback sweep --dial`: the plain model and the lesson's attention model (additive) "
          "at width " + std::to_string(width) + ", " + std::to_string(h.epochs) + " epochs, Adam at " +
          fixed(h.learning_rate.value_or(0.0f), 4) + ", batch 64, seeds " + h.seeds_text() +
          " (initialisation and shuffling), dataset seed " + std::to_string(h.data_seed) + ", " +
          std::to_string(h.train_size) + " training and " + std::to_string(h.held_out_size) +
          " held-out strings at each setting of the date task's dial (`docs/dataset.md`, \"The dial\"): "
          "which formats are drawn and the order of the fields in the input. The output is always "
          "YYYY-MM-DD. Mean over the seeds, (lowest–highest) in brackets.\n\n";
    md += "## Exact match and each field right in full (held-out)\n\n"
          "A field is right when all its characters are. The chance row is no model: the share of held-out "
          "targets whose field is that field's most common value, what always writing it scores.\n\n"
          "| formats | order | model | exact match | per character | year | month | day |\n"
          "|:---|:---:|:---|---:|---:|---:|---:|---:|\n" + md_main;
    md += "\n## The plain model's fields by the place they are read\n\n"
          "The same numbers as above, the plain model's field right in full, by where the field stands in "
          "the input: read first (furthest from the end), second, or last.\n\n"
          "| formats | order | read first | read second | read last |\n|:---|:---:|:---|:---|:---|\n" + md_read;
    md += "\n## Accuracy per output position (mean over the seeds)\n\n"
          "| formats | order | model | y1 | y2 | y3 | y4 | - | m1 | m2 | - | d1 | d2 |\n"
          "|:---|:---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" + md_positions;
    return md;
}

// Run, then the results rendered again after each setting: a long sweep leaves what it finished behind.
int dial_sweep(const SweepArgs& args) {
    const SweepFiles files(args.out_dir, "dial");
    if (!files.writable()) return 1;  // before the training, not after
    std::vector<DialChance> chances;
    std::vector<DialRow> rows;
    std::string md;
    for (const DateDial& dial : args.dials) {
        const Task& task = date_task(dial);
        const Splits data = task.make_splits(args.data_seed, task.train_size, task.held_out_size);
        SweepHeader header = sweep_header(args, data);  // every setting's splits have the same sizes
        header.task = task.name;
        header.width = width;
        DialChance chance{dial, task.group_names, {}, chance_baselines(data.held_out).majority_share};
        for (const OutputField& f : output_fields) chance.fields[f.letter] = field_chance(data.held_out, f.start, f.length);
        chances.push_back(chance);
        const std::optional<std::vector<DialRow>> runs = run_setting(dial, args, header.seeds, data);
        if (!runs) return 1;
        rows.insert(rows.end(), runs->begin(), runs->end());
        const DialSweepResults results = dial_sweep_results(header, chances, rows);
        md = dial_sweep_markdown(results);
        if (!files.write(dial_sweep_json(results), md)) return 1;
    }
    files.print(md);
    return 0;
}

}  // namespace lb::cli
