// core/settings/run_settings.cpp — the schema of a run's settings (run_settings.h).
//
// The bounds, and why:
//   width 1–1024: the widest model a weights file may hold (io/safetensors.h's read limit is sized
//     for it); the worker's former 512 refused files the command line writes.
//   epochs 1–10000: the command line's; a run of hours is refused by its estimate, not its count.
//   seed, data_seed 0–2147483647 (2³¹ − 1): a seed every place can hold exactly — the page's int
//     fields, a JavaScript number, a URL, JSON — so a run of the command line can be rerun in the
//     page; the command line took up to 2⁶³ − 1, the page 10⁶.
//   learning_rate above 0 and at most 10, as a float: Adam moves each weight by about the rate per
//     step whatever the gradient's scale, and the weights start within ±1, so 1 already throws them
//     far away; up to 10 shows divergence (the trainer stops it with a message), beyond is a typo.
//   batch_size 1–1024: the training activations grow with it (at width 1024 and 1024 rows they
//     are about a gigabyte, near what a page's memory holds), and 1024 is already a sixth of a
//     task's training split.
#include "settings/run_settings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "text/text.h"

namespace lb {

namespace {

bool every_kind(const ModelKind&) { return true; }
bool scoring_kinds(const ModelKind& row) { return !row.scorers.empty(); }
bool luong_kinds(const ModelKind& row) { return row.input_feeding; }
bool transformer_kind(const ModelKind& row) { return row.transformer_options; }

bool is(const SettingField& f, const char* key) { return std::string_view(f.key) == key; }

// The dial of a date task's settings (the defaults for another task's, never read: the dial's
// fields apply to the date task only).
DateDial dial_of(const RunSettings& s) {
    const DateDial* dial = date_dial(*s.model.task);
    return dial ? *dial : DateDial{};
}
// Sets one part of the date task's dial; false for another task, or a value the part refuses.
bool set_dial(RunSettings& s, std::string_view text, bool (*take)(std::string_view, DateDial&)) {
    if (!date_dial(*s.model.task)) return false;
    DateDial dial = dial_of(s);
    if (!take(text, dial)) return false;
    s.model.task = &date_task(dial);
    return true;
}

// A whole number of digits only (no sign, no spaces), or nothing.
bool parse_whole(std::string_view text, long long& v) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return false;
    const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), v);
    return error == std::errc() && stop == text.data() + text.size();
}

// A plain decimal or exponent form ("0.003", "3e-3"), finite; strtod alone would also take
// leading spaces, "inf", "nan" and hexadecimal.
bool parse_number(std::string_view text, double& v) {
    if (text.empty() || text.size() > 40 || text.find_first_not_of("0123456789.eE+-") != std::string_view::npos)
        return false;
    const std::string copy(text);
    char* stop = nullptr;
    v = std::strtod(copy.c_str(), &stop);
    return stop == copy.c_str() + copy.size() && std::isfinite(v);
}

// Each row says where its value lives in RunSettings: `text` reads it, `store` writes a number
// already checked against the bounds (a flag: 1 or 0), `choose` a word (false if it is none of
// `choices`). A new field, a choice among the tasks say, is one more row.
using S = RunSettings;
const std::vector<SettingField> fields = {
    {"task", "--task", SettingType::choice, 0, 0, false, true, every_kind, "what the model learns",
     [](const S& s) { return s.model.task->name; }, nullptr,
     [](S& s, std::string_view w) {
         const Task* task = task_named(w);
         if (task) s.model.task = task;
         return task != nullptr;
     },
     [](const S&) { return task_names_text(); }},
    {"formats", "--formats", SettingType::choice, 0, 0, false, true, every_kind, "the date formats drawn",
     [](const S& s) { return formats_text(dial_of(s).formats); }, nullptr,
     [](S& s, std::string_view w) {
         return set_dial(s, w, [](std::string_view text, DateDial& d) { return parse_formats(text, d.formats); });
     },
     [](const S&) { return std::string("format numbers from 0 to 5 separated by commas, each once, such as 5 or 0,2,5"); },
     "dates"},
    {"field_order", "--field-order", SettingType::choice, 0, 0, false, true, every_kind,
     "the order of the day, month and year in the input", [](const S& s) { return dial_of(s).order; }, nullptr,
     [](S& s, std::string_view w) {
         return set_dial(s, w, [](std::string_view text, DateDial& d) {
             return valid_field_order(text) && (d.order = std::string(text), true);
         });
     },
     [](const S&) { return std::string("dmy, dym, mdy, myd, ydm or ymd"); }, "dates"},
    {"model", "--model", SettingType::choice, 0, 0, false, true, every_kind, "the model's kind",
     [](const S& s) { return std::string(decoder_name(s.model.decoder)); }, nullptr,
     [](S& s, std::string_view w) {  // a kind starts with its own scorer, rate and warmup
         const auto kind = parse_decoder(w);
         if (!kind) return false;
         ModelConfig model = s.model;
         model.decoder = *kind;
         model.scorer = default_scorer(*kind);
         const RunSettings defaults = default_run_settings(model);
         s.model = model;
         s.learning_rate = defaults.learning_rate;
         s.warmup_steps = defaults.warmup_steps;
         return true;
     },
     [](const S&) { return decoder_choices(); }},  // every registered kind
    {"scorer", "--scorer", SettingType::choice, 0, 0, false, true, scoring_kinds, "how attention scores",
     [](const S& s) { return std::string(model_scorer_name(s.model.decoder, s.model.scorer)); }, nullptr,
     [](S& s, std::string_view w) {
         const auto scorer = parse_model_scorer(s.model.decoder, w);  // a scorer of the kind already set
         if (scorer) s.model.scorer = *scorer;
         return scorer.has_value();
     },
     [](const S& s) { return std::string(model_scorer_choices(s.model.decoder)); }},
    {"input_feeding", "--input-feeding", SettingType::flag, 0, 1, true, true, luong_kinds,
     "the attentional state fed to the next step",
     [](const S& s) { return std::string(s.model.input_feeding ? "1" : "0"); },
     [](S& s, double v) { s.model.input_feeding = v != 0; }, nullptr, nullptr},
    {"width", "--width", SettingType::integer, 1, 1024, true, true, every_kind, "H, the GRU's or d_model",
     [](const S& s) { return std::to_string(s.model.H); }, [](S& s, double v) { s.model.H = int(v); }, nullptr, nullptr},
    {"memory", "--memory", SettingType::choice, 0, 0, false, true, transformer_kind, "what the cross-attention reads",
     [](const S& s) { return std::string(memory_name(s.model.memory)); }, nullptr,
     [](S& s, std::string_view w) {
         if (w != "all" && w != "first") return false;
         s.model.memory = w == "all" ? Memory::all : Memory::first;
         return true;
     },
     [](const S&) { return std::string("all or first"); }},
    {"heads", "--heads", SettingType::integer, 1, 8, true, true, transformer_kind, "attention heads, dividing the width",
     [](const S& s) { return std::to_string(s.model.heads); }, [](S& s, double v) { s.model.heads = int(v); }, nullptr,
     nullptr},
    {"ffn", "--ffn", SettingType::integer, 1, 4096, true, true, transformer_kind, "the feed-forward width (2 x width)",
     [](const S& s) {  // what the model uses: 0 is 2 x width
         return std::to_string(model_kind(s.model.decoder).transformer_options ? transformer_config(s.model).F : s.model.ffn);
     },
     [](S& s, double v) { s.model.ffn = int(v); }, nullptr, nullptr},
    {"dropout", "--dropout", SettingType::decimal, 0, 0.9, true, false, transformer_kind, "dropout while training",
     [](const S& s) { return number_text(s.model.dropout); }, [](S& s, double v) { s.model.dropout = float(v); },
     nullptr, nullptr},
    {"epochs", "--epochs", SettingType::integer, 1, 10000, true, false, every_kind, "passes over the training split",
     [](const S& s) { return std::to_string(s.epochs); }, [](S& s, double v) { s.epochs = int(v); }, nullptr, nullptr},
    {"seed", "--seed", SettingType::integer, 0, 2147483647, true, false, every_kind, "initialisation and shuffling",
     [](const S& s) { return std::to_string(s.seed); }, [](S& s, double v) { s.seed = uint64_t(v); }, nullptr, nullptr},
    {"data_seed", "--data-seed", SettingType::integer, 0, 2147483647, true, false, every_kind, "the dataset's strings",
     [](const S& s) { return std::to_string(s.data_seed); }, [](S& s, double v) { s.data_seed = uint64_t(v); }, nullptr,
     nullptr},
    {"learning_rate", "--lr", SettingType::decimal, 0, 10, false, false, every_kind, "Adam's learning rate",
     [](const S& s) { return number_text(s.learning_rate); }, [](S& s, double v) { s.learning_rate = float(v); },
     nullptr, nullptr},
    {"warmup_steps", "--warmup", SettingType::integer, 0, 1000000, true, false, every_kind,
     "steps over which the rate rises linearly", [](const S& s) { return std::to_string(s.warmup_steps); },
     [](S& s, double v) { s.warmup_steps = int(v); }, nullptr, nullptr},
    {"batch_size", "--batch-size", SettingType::integer, 1, 1024, true, false, every_kind, "examples per Adam step",
     [](const S& s) { return std::to_string(s.batch_size); }, [](S& s, double v) { s.batch_size = int(v); }, nullptr,
     nullptr},
};

}  // namespace

const std::vector<SettingField>& run_setting_fields() { return fields; }

RunSettings default_run_settings(const ModelConfig& model) {
    RunSettings s;
    s.model = model;
    const ModelKind& kind = model_kind(model.decoder);
    if (kind.learning_rate > 0) s.learning_rate = kind.learning_rate;
    s.warmup_steps = kind.warmup_steps;
    return s;
}

const SettingField* find_setting(std::string_view key) {
    for (const SettingField& f : fields)
        if (key == f.key) return &f;
    return nullptr;
}

const SettingField* find_setting_flag(std::string_view flag) {
    for (const SettingField& f : fields)
        if (flag == f.flag) return &f;
    return nullptr;
}

bool applies_to(const SettingField& field, DecoderKind kind) { return field.applies(model_kind(kind)); }

bool applies_to(const SettingField& field, const ModelConfig& model) {
    return applies_to(field, model.decoder) && (!field.task || model.task->name == field.task);
}

std::string kinds_text(const SettingField& field) { return kind_names(field.applies); }

std::string setting_expected(const SettingField& f, const RunSettings& s) {
    switch (f.type) {
        case SettingType::choice:
            return f.choices(s);
        case SettingType::integer:
            return "an integer from " + std::to_string(static_cast<long long>(f.lo)) + " to " + std::to_string(static_cast<long long>(f.hi));
        case SettingType::decimal:
            return std::string("a number ") + (f.lo_included ? "from " : "above ") + number_text(f.lo) +
                   (f.lo_included ? " to " : " and at most ") + number_text(f.hi);
        case SettingType::flag:
            return "1 or 0";
    }
    return "";
}

std::string setting_usage(const SettingField& f) {
    // What the field takes for each kind it applies to, and that kind's default.
    struct Taken {
        DecoderKind kind;
        std::string expected, fallback;
    };
    std::vector<Taken> per_kind;
    for (DecoderKind kind : model_kinds()) {
        if (!applies_to(f, kind)) continue;
        RunSettings defaults;
        defaults.model.decoder = kind;
        defaults.model.scorer = default_scorer(kind);
        per_kind.push_back({kind, setting_expected(f, defaults), setting_text(f, defaults)});
    }
    std::string text = std::string(f.help) + ": ";
    const bool same = std::all_of(per_kind.begin(), per_kind.end(), [&](const Taken& t) {
        return t.expected == per_kind.front().expected && t.fallback == per_kind.front().fallback;
    });
    if (same || is(f, "model")) {  // the model's default is the one a run gets
        text += per_kind.front().expected + " (" + setting_text(f, RunSettings{}) + ")";
    } else {
        for (size_t i = 0; i < per_kind.size(); ++i)
            text += (i ? "; " : "") + std::string(decoder_name(per_kind[i].kind)) + " " + per_kind[i].expected +
                    " (" + per_kind[i].fallback + ")";
    }
    if (f.applies != every_kind) text += "; " + kinds_text(f) + " only";
    if (f.task) text += std::string("; the ") + f.task + " task only";
    return text;
}

std::string setting_text(const SettingField& f, const RunSettings& s) { return f.text(s); }

bool try_set_setting(RunSettings& s, const SettingField& f, std::string_view text) {
    switch (f.type) {
        case SettingType::choice:
            return f.choose(s, text);
        case SettingType::flag:
            if (text != "0" && text != "1") return false;
            f.store(s, text == "1");
            return true;
        case SettingType::integer: {
            long long v = 0;
            if (!parse_whole(text, v) || v < f.lo || v > f.hi) return false;
            f.store(s, double(v));
            return true;
        }
        case SettingType::decimal: {
            double asked = 0;
            if (!parse_number(text, asked) || !(asked >= f.lo && asked <= f.hi)) return false;
            const float v = float(asked);  // checked again as stored: 1e-50 is 0 as a float
            if (!(f.lo_included ? v >= float(f.lo) : v > float(f.lo)) || !(v <= float(f.hi))) return false;
            if (asked != 0 && v == 0) return false;  // a dropout of 1e-50 is not asking for none

            f.store(s, double(v));
            return true;
        }
    }
    return false;
}

void set_setting(RunSettings& s, const SettingField& f, std::string_view text, const std::string& name) {
    if (try_set_setting(s, f, text)) return;
    std::string message = name + (is(f, "scorer") ? " of the " + std::string(decoder_name(s.model.decoder)) + " model" : "") +
                          " must be " + setting_expected(f, s) + ", not " + quote_untrusted(text, 40);
    double asked = 0;
    if (f.type == SettingType::decimal && parse_number(text, asked) && asked > f.lo && asked <= f.hi)
        message += ", which a float holds as " + number_text(float(asked));
    throw SettingError(message);
}

RunSettings read_run_settings(const GivenSettings& given, std::string (*name)(const SettingField&),
                              RunSettings defaults) {
    RunSettings s = defaults;
    const SettingField& model = *find_setting("model");
    const SettingField& task = *find_setting("task");
    for (const SettingField* first : {&model, &task})
        for (const auto& [field, text] : given)
            if (field == first) set_setting(s, *field, text, name(*field));
    for (const auto& [field, text] : given) {
        if (field == &model || field == &task) continue;
        if (!applies_to(*field, s.model.decoder))
            throw SettingError(name(*field) + " applies to " + name(model) + " " + kinds_text(*field) +
                               " only, not " + std::string(decoder_name(s.model.decoder)));
        if (!applies_to(*field, s.model))
            throw SettingError(name(*field) + " applies to " + name(task) + " " + field->task + " only, not " +
                               s.model.task->name);
        set_setting(s, *field, text, name(*field));
    }
    if (model_kind(s.model.decoder).transformer_options) {
        try {
            check_transformer_config(transformer_config(s.model));
        } catch (const std::invalid_argument& e) {
            throw SettingError(e.what());
        }
    }
    return s;
}

}  // namespace lb
