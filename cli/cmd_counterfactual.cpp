// `lookback counterfactual [--out DIR] [--data-seed N] WEIGHTS...`: is the map the mechanism? For
// each date model given, over the held-out split, every output digit's attention is moved wholly
// onto a digit of a wrong field, and (the baseline) onto the other digit of its own pair, and the
// step's character is compared with what the model wrote on its own (counterfactual.h). The
// fields, the moves and the counts are defined in docs/tasks.md, "Counterfactual attention".
// Writes DIR/counterfactual.json and DIR/counterfactual.md.
#include <cstdio>

#include "cli/commands.h"
#include "io/safetensors.h"
#include "models/counterfactual.h"

namespace lb::cli {

namespace {

const char* const counterfactual_usage =
    "lookback counterfactual [--out DIR] [--data-seed N] WEIGHTS...\n"
    "  for each date model with attention (a .safetensors file), over the held-out split of the data\n"
    "  seed (default 1): each output digit's attention moved wholly onto a digit of a wrong field, and\n"
    "  onto the other digit of its own pair; how often the digit changes, alone, to the digit attended.\n"
    "  A Transformer's heads move all at once, then one at a time. Writes DIR/counterfactual.md and\n"
    "  DIR/counterfactual.json (default DIR: assets)\n"
    "  e.g. lookback counterfactual build/assets/attention-64.safetensors build/assets/transformer-all-64.safetensors";

// A date's output, YYYY-MM-DD, as three fields of digit pairs: the year's (steps 0–1, 2–3), the
// month's (5–6), the day's (8–9). The dashes (4, 7) copy nothing.
enum Field { year, month, day, field_count };
const char* const field_names[field_count] = {"year", "month", "day"};
constexpr int no_field = -1;
constexpr int field_of[output_length] = {year, year, year, year, no_field, month, month, no_field, day, day};
constexpr int partner_of[output_length] = {1, 0, 3, 2, -1, 6, 5, -1, 9, 8};  // the other digit of its pair
constexpr int place_of[output_length] = {0, 1, 0, 1, -1, 0, 1, -1, 0, 1};    // first or second of its pair

bool linked(const Example& ex, int t, int j) {
    for (const AlignmentLink& link : ex.alignment)
        if (link.output == t && link.input == j) return true;
    return false;
}

// Where the input writes output step t's digit: its sure link, else its one link (the leading
// zero a lone digit implies); -1 when there is none (a month's name: every letter, possibly).
int digit_position(const Example& ex, int t) {
    int sure = -1, any = -1, links = 0;
    for (const AlignmentLink& link : ex.alignment)
        if (link.output == t) {
            if (link.sure) sure = link.input;
            any = link.input, ++links;
        }
    return sure >= 0 ? sure : links == 1 ? any : -1;
}

// A wrong field: a month or day digit onto the year's digit of the same place in its last pair
// (the year's tens and units, which take every value); a year digit onto the day's.
int wrong_field_position(const Example& ex, int t) {
    return digit_position(ex, field_of[t] == year ? 8 + place_of[t] : 2 + place_of[t]);
}

// The right field: onto the other digit of the step's own pair, where the input writes it at a
// position the step is not linked to (not a lone digit, not a month's name); else -1.
int right_field_position(const Example& ex, int t) {
    const int j = digit_position(ex, partner_of[t]);
    return j >= 0 && !linked(ex, t, j) ? j : -1;
}

struct Counts {
    long steps = 0;
    long same = 0;     // the position moved to holds the character the step wrote on its own
    long changed = 0;  // the step wrote another character
    long alone = 0;    // ... and no other step changed
    long read = 0;     // the step wrote the character at the position moved to
    void add(const Counterfactual& cf, int t, char attended) {
        const char own = cf.original.output[size_t(t)], edited = cf.edited.output[size_t(t)];
        ++steps;
        same += attended == own;
        changed += edited != own;
        alone += edited != own && cf.changed_steps.size() == 1;
        read += edited == attended;
    }
};

struct Tally {
    Counts all, fields[field_count];
};

// One model, or one head of a Transformer, measured.
struct Measured {
    std::string file, label;
    int head = every_head;  // a Transformer's head moved alone; every_head: all at once
    long examples = 0, exact = 0;
    Tally wrong, right;
};

double rate(long part, long whole) { return whole ? double(part) / double(whole) : NAN; }

nlohmann::json counts_json(const Counts& c) {
    return {{"steps", c.steps},
            {"same", c.same},
            {"changed", c.changed},
            {"changed_alone", c.alone},
            {"read", c.read},
            {"changed_rate", rate(c.changed, c.steps)},
            {"changed_alone_rate", rate(c.alone, c.steps)},
            {"read_rate", rate(c.read, c.steps)}};
}

nlohmann::json tally_json(const Tally& t) {
    nlohmann::json fields;
    for (int f = 0; f < field_count; ++f) fields[field_names[f]] = counts_json(t.fields[f]);
    nlohmann::json out = counts_json(t.all);
    out["per_field"] = fields;
    return out;
}

std::string counts_cells(const Counts& c) {
    return std::to_string(c.steps) + " | " + fixed(rate(c.same, c.steps), 3) + " | " + fixed(rate(c.changed, c.steps), 3) +
           " | " + fixed(rate(c.alone, c.steps), 3) + " | " + fixed(rate(c.read, c.steps), 3);
}

std::string row_name(const Measured& m) {
    return m.label + (m.head == every_head ? "" : ", head " + std::to_string(m.head) + " alone");
}

Measured measure(const Model& model, const std::string& file, int head, const std::vector<Example>& held_out) {
    const Task& task = *model.config.task;
    Measured m{file, model_label(model.config), head};
    for (const Example& ex : held_out) {
        const std::vector<int> tokens = task.input.encode(ex.input);
        const int L = int(tokens.size());
        ++m.examples;
        m.exact += decode_tokens(tokens, model).output == ex.target;
        for (int t = 0; t < output_length; ++t) {
            if (field_of[t] == no_field) continue;
            for (Tally* tally : {&m.wrong, &m.right}) {
                const int j = tally == &m.wrong ? wrong_field_position(ex, t) : right_field_position(ex, t);
                if (j < 0) continue;
                const Counterfactual cf = decode_counterfactual(model, tokens, {attention_on(t, j, L, head)});
                tally->all.add(cf, t, ex.input[size_t(j)]);
                tally->fields[field_of[t]].add(cf, t, ex.input[size_t(j)]);
            }
        }
    }
    return m;
}

std::string markdown(const std::vector<Measured>& rows, const CounterfactualArgs& args, size_t held_out) {
    std::string md = "# Move the attention, see the answer change\n\n";
    md += "Written by `lookback counterfactual`: dataset seed " + std::to_string(args.data_seed) + ", the " +
          std::to_string(held_out) +
          " held-out dates (`docs/tasks.md`), greedy decoding. Each output digit with a link (not the dashes) "
          "is decoded again with its attention moved wholly onto one input position (weight 1 there, 0 "
          "elsewhere; a Transformer's cross-attention in every head at once, or in one head alone), the "
          "later steps free; its character is compared with the one the model wrote on its own "
          "(`docs/tasks.md`, \"Counterfactual attention\", defines the moves).\n\n"
          "- **wrong field**: a month or day digit onto the year's digit of the same place in its last "
          "pair (the first of a pair onto the year's tens, the second onto its units); a year digit "
          "onto the day's digit of the same place (a one-digit day: its digit).\n"
          "- **right field** (the baseline): onto the other digit of the step's own pair, where the input "
          "writes it at a position of its own (not a one-digit day or month, not a month's name).\n\n"
          "Columns: the steps moved; the share where the position moved to holds the character the step "
          "wrote anyway; where the step's character changed; changed and no other step did; the step "
          "wrote the character at the position moved to (the decoder read it).\n\n";
    md += "| model | weights | own output exact |\n|:---|:---|---:|\n";
    for (const Measured& m : rows)
        if (m.head == every_head)
            md += "| " + m.label + " | `" + m.file + "` | " + fixed(rate(m.exact, m.examples)) + " |\n";
    const std::string header =
        " | steps | holds its own character | changed | changed alone | wrote the attended character |\n";
    md += "\n## Every output digit\n\n| model | move" + header + "|:---|:---|---:|---:|---:|---:|---:|\n";
    for (const Measured& m : rows)
        if (m.head == every_head)
            for (const Tally* t : {&m.wrong, &m.right})
                md += "| " + row_name(m) + " | " + (t == &m.wrong ? "wrong field" : "right field") + " | " +
                      counts_cells(t->all) + " |\n";
    md += "\n## By field\n\n| model | move | field" + header + "|:---|:---|:---|---:|---:|---:|---:|---:|\n";
    for (const Measured& m : rows)
        if (m.head == every_head)
            for (const Tally* t : {&m.wrong, &m.right})
                for (int f = 0; f < field_count; ++f)
                    md += "| " + row_name(m) + " | " + (t == &m.wrong ? "wrong field" : "right field") + " | " +
                          field_names[f] + " | " + counts_cells(t->fields[f]) + " |\n";
    bool heads = false;
    for (const Measured& m : rows) heads = heads || m.head != every_head;
    if (heads) {
        md += "\n## A Transformer's heads one at a time\n\nThe other heads keep their own weights.\n\n"
              "| model | move" + header + "|:---|:---|---:|---:|---:|---:|---:|\n";
        for (const Measured& m : rows)
            if (m.head != every_head)
                for (const Tally* t : {&m.wrong, &m.right})
                    md += "| " + row_name(m) + " | " + (t == &m.wrong ? "wrong field" : "right field") + " | " +
                          counts_cells(t->all) + " |\n";
    }
    return md;
}

std::string file_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

}  // namespace

CounterfactualArgs parse_counterfactual_args(const Args& args) {
    CounterfactualArgs o;
    GivenSettings given;  // --data-seed, the settings schema's (settings/run_settings.h)
    for (size_t i = 0; i < args.size();) {
        std::string v;
        if (take_option(args, i, "--out", v)) {
            if (v.empty()) throw UsageError("--out needs a folder");
            o.out_dir = v;
        } else if (take_setting(args, i, {"data_seed"}, given)) {
            continue;
        } else if (args[i].size() > 1 && args[i].compare(0, 2, "--") == 0) {
            throw UsageError("unknown option " + shown(args[i]));
        } else {
            o.weights.push_back(args[i++]);
        }
    }
    if (o.weights.empty()) throw UsageError("give at least one weights file");
    o.data_seed = read_setting_flags(given).data_seed;
    return o;
}

int counterfactual(const Args& args) {
    CounterfactualArgs parsed;
    try {
        parsed = parse_counterfactual_args(args);
    } catch (const UsageError& e) {
        return usage_error(e.what(), counterfactual_usage);
    }
    std::vector<Model> models;
    for (const std::string& path : parsed.weights) {
        try {
            models.push_back(load_model(path));
        } catch (const SafetensorsError& e) {
            std::fprintf(stderr, "lookback: cannot use the weights: %s\n", e.what());
            return 1;
        }
        const ModelConfig& c = models.back().config;
        if (c.task != &date_task())  // every file is measured on one split: the lesson's dates
            return usage_error(shown(path) + " holds a model of the " + c.task->name + " task" +
                                   (date_dial(*c.task) ? " at another setting of its dial" : "") +
                                   ": the moves are measured on the lesson's dates",
                               counterfactual_usage);
        if (!model_kind(c.decoder).read_attention)
            return usage_error(shown(path) + " holds a " + std::string(decoder_name(c.decoder)) +
                                   " model, which has no attention to move",
                               counterfactual_usage);
    }
    const SweepFiles files(parsed.out_dir, "counterfactual");
    if (!files.writable()) return 1;
    const Splits data = make_date_splits(parsed.data_seed);

    std::vector<Measured> rows;
    nlohmann::json measured = nlohmann::json::array();
    for (size_t k = 0; k < models.size(); ++k) {
        const Model& model = models[k];
        const int heads = model_kind(model.config.decoder).head_maps ? model.config.heads : 0;
        for (int head = every_head; head < heads; ++head) {
            rows.push_back(measure(model, file_name(parsed.weights[k]), head, data.held_out));
            const Measured& m = rows.back();
            std::printf("%-40s wrong field: changed %.3f, read %.3f\n", row_name(m).c_str(),
                        rate(m.wrong.all.changed, m.wrong.all.steps), rate(m.wrong.all.read, m.wrong.all.steps));
            std::fflush(stdout);
            measured.push_back({{"weights", m.file},
                                {"model", m.label},
                                {"head", m.head == every_head ? nlohmann::json("all") : nlohmann::json(m.head)},
                                {"exact", rate(m.exact, m.examples)},
                                {"wrong_field", tally_json(m.wrong)},
                                {"right_field", tally_json(m.right)}});
        }
    }
    const nlohmann::json out = {{"task", "dates"},
                                {"data_seed", parsed.data_seed},
                                {"held_out_size", data.held_out.size()},
                                {"fields", field_names},
                                {"models", measured}};
    const std::string md = markdown(rows, parsed, data.held_out.size());
    if (!files.write(out, md)) return 1;
    files.print(md);
    return 0;
}

}  // namespace lb::cli
