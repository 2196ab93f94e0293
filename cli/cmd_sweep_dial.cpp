// `lookback sweep --dial [--formats LIST] [--field-order WORD] [--seeds N]`: the difficulty dial
// (docs/dataset.md, "The dial"). The plain model and the lesson's attention model (additive) at
// width 64 on the date task drawn at several settings of its dial, over seeds; for each, how often
// each output field is right in full beside what guessing its most common value scores, and the
// plain model's fields by the place they are read in — so the fields' order in the input is
// measured apart from what they are. Written as DIR/dial.json and DIR/dial.md after each setting
// (a long sweep leaves what it finished behind).
#include <cstdio>
#include <map>

#include "cli/commands.h"

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

// One model's measurements at one setting, over the seeds.
struct ModelSpread {
    Spread exact, per_char;
    std::map<char, Spread> fields;            // right in full, by field letter
    std::vector<double> per_position = std::vector<double>(output_length, 0.0);  // the seeds' mean
};

nlohmann::json model_json(const char* name, const ModelSpread& m) {
    nlohmann::json fields = nlohmann::json::object();
    for (const OutputField& f : output_fields) fields[f.name] = spread_json(m.fields.at(f.letter));
    return {{"model", name}, {"exact", spread_json(m.exact)}, {"per_char", spread_json(m.per_char)},
            {"fields", fields}, {"per_position", m.per_position}};
}

// "5 (`dd mm yyyy`)", "all six": a setting's formats for a table.
std::string formats_cell(const DateDial& dial) {
    if (dial.formats.size() == size_t(format_count)) return "all six";
    std::string text;
    for (int f : dial.formats) text += (text.empty() ? "" : ", ") + std::to_string(f) + " (`" + format_name(f, dial.order) + "`)";
    return text;
}

}  // namespace

std::vector<DateDial> dial_settings() {
    std::vector<DateDial> settings = {{{5}, "dmy"}};
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

int dial_sweep(const SweepArgs& args) {
    const SweepFiles files(args.out_dir, "dial");
    if (!files.writable()) return 1;  // before the training, not after
    const int n = args.seeds;
    std::vector<uint64_t> seeds;
    for (int k = 0; k < n; ++k) seeds.push_back(args.seed + uint64_t(k));
    const std::string seeds_text = std::to_string(seeds.front()) + "–" + std::to_string(seeds.back());
    nlohmann::json settings = nlohmann::json::array(), runs = nlohmann::json::array();
    std::string md_main, md_read, md_positions, written;  // written: the last markdown saved

    auto markdown = [&](size_t train_size, size_t held_out_size) {
        std::string md = "# The difficulty dial: which fields a plain encoder–decoder loses\n\n";
        md += "Written by `lookback sweep --dial`: the plain model and the lesson's attention model (additive) "
              "at width 64, " + std::to_string(args.epochs) + " epochs, Adam at " + fixed(args.learning_rate, 4) +
              ", batch 64, seeds " + seeds_text + " (initialisation and shuffling), dataset seed " +
              std::to_string(args.data_seed) + ", " + std::to_string(train_size) + " training and " +
              std::to_string(held_out_size) +
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
    };

    for (const DateDial& dial : args.dials) {
        const Task& task = date_task(dial);
        const Splits data = task.make_splits(args.data_seed, task.train_size, task.held_out_size);
        const std::string where = "| " + formats_cell(dial) + " | " + dial.order + " | ";
        std::map<char, double> chance;
        for (const OutputField& f : output_fields) chance[f.letter] = field_chance(data.held_out, f.start, f.length);
        nlohmann::json models = nlohmann::json::array();
        for (DecoderKind kind : {DecoderKind::plain, DecoderKind::attention}) {
            ModelSpread m;
            for (int k = 0; k < n; ++k) {
                RunOptions o;
                o.model.task = &task;
                o.model.decoder = kind;
                o.model.scorer = Scorer::additive;
                o.model.H = width;
                o.epochs = args.epochs;
                o.seed = seeds[size_t(k)];
                o.data_seed = args.data_seed;
                o.learning_rate = args.learning_rate;
                o.progress = stdout_is_terminal();
                char label[80];
                std::snprintf(label, sizeof label, "%-11s %s %-9s seed %llu ", formats_text(dial.formats).c_str(),
                              dial.order.c_str(), std::string(decoder_name(kind)).c_str(), (unsigned long long)o.seed);
                const std::optional<RunResult> r = sweep_run(o, label, data);
                if (!r) return 1;
                nlohmann::json run = run_json(o, *r);
                run["fields"] = nlohmann::json::object();
                m.exact.add(r->metrics.exact, n), m.per_char.add(r->metrics.per_char, n);
                for (const OutputField& f : output_fields) {
                    const double right = field_right(data.held_out, r->predictions, f.start, f.length);
                    m.fields[f.letter].add(right, n);
                    run["fields"][f.name] = right;
                }
                for (int t = 0; t < output_length; ++t) m.per_position[size_t(t)] += r->metrics.per_position[size_t(t)] / n;
                runs.push_back(run);
            }
            const std::string name(decoder_name(kind));
            models.push_back(model_json(name.c_str(), m));
            md_main += where + name + " | " + spread_text(m.exact) + " | " + spread_text(m.per_char);
            for (const OutputField& f : output_fields) md_main += " | " + spread_text(m.fields.at(f.letter));
            md_main += " |\n";
            md_positions += where + name;
            for (double a : m.per_position) md_positions += " | " + fixed(a, 3);
            md_positions += " |\n";
            if (kind == DecoderKind::plain) {
                md_read += where;
                for (char letter : dial.order)
                    md_read += std::string(field_of(letter).name) + " " + spread_text(m.fields.at(letter)) + " | ";
                md_read.pop_back();
                md_read += "\n";
            }
        }
        md_main += where + "chance | – | – | " + fixed(chance['y']) + " | " + fixed(chance['m']) + " | " +
                   fixed(chance['d']) + " |\n";
        const ChanceBaselines baselines = chance_baselines(data.held_out);
        settings.push_back({{"formats", formats_text(dial.formats)},
                            {"field_order", dial.order},
                            {"group_names", task.group_names},
                            {"chance", {{"year", chance['y']}, {"month", chance['m']}, {"day", chance['d']},
                                        {"per_position", baselines.majority_share}}},
                            {"models", models}});
        const nlohmann::json out = {{"task", task.name},
                                    {"width", width},
                                    {"epochs", args.epochs},
                                    {"learning_rate", args.learning_rate},
                                    {"seeds", seeds},
                                    {"data_seed", args.data_seed},
                                    {"train_size", data.train.size()},
                                    {"held_out_size", data.held_out.size()},
                                    {"settings", settings},
                                    {"runs", runs}};
        written = markdown(data.train.size(), data.held_out.size());
        if (!files.write(out, written)) return 1;
    }
    files.print(written);
    return 0;
}

}  // namespace lb::cli
