// core/io/worker_codec.cpp — the training worker's messages (worker_codec.h).
#include "io/worker_codec.h"

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "io/metrics_json.h"
#include "text/text.h"

namespace lb {

namespace {

std::string json_name(const SettingField& field) { return field.key; }

// NaN (not evaluated, or a loss gone non-finite) travels as null; an infinity too, as JSON has none.
nlohmann::json number_or_null(float v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

// A report's numbers are read as the type they are stored in, or refused: converting a float
// past 3.4e38, or a fraction to a count, is undefined, and would not be written back the same.
double finite_number(const nlohmann::json& v, const char* what, double limit = DBL_MAX) {
    if (!v.is_number() || !(std::fabs(v.get<double>()) <= limit))
        throw std::invalid_argument(std::string("a report's ") + what + " must be a finite number");
    return v.get<double>();
}
float float_number(const nlohmann::json& v, const char* what, bool null_is_nan = false) {
    return null_is_nan && v.is_null() ? NAN : float(finite_number(v, what, FLT_MAX));
}
long long whole(const nlohmann::json& v, const char* what, long long hi = LLONG_MAX) {
    const bool fits = v.is_number_unsigned() ? v.get<unsigned long long>() <= (unsigned long long)hi
                                             : v.is_number_integer() && v.get<long long>() >= 0 &&
                                                   v.get<long long>() <= hi;
    if (!fits) throw std::invalid_argument(std::string("a report's ") + what + " must be a whole number, at least 0");
    return v.get<long long>();
}

}  // namespace

// A field's value as its JSON type: a word, true or false, a whole number, a number.
nlohmann::json json_value(const SettingField& field, const RunSettings& settings) {
    const std::string text = setting_text(field, settings);
    switch (field.type) {
        case SettingType::choice: return text;
        case SettingType::flag: return text == "1";
        case SettingType::integer: return std::stoll(text);
        case SettingType::decimal: return std::strtod(text.c_str(), nullptr);
    }
    return nullptr;
}

nlohmann::json run_settings_to_json(const RunSettings& settings) {
    nlohmann::json config = nlohmann::json::object();
    for (const SettingField& field : run_setting_fields())
        if (applies_to(field, settings.model)) config[field.key] = json_value(field, settings);
    return config;
}

RunSettings run_settings_from_json(const nlohmann::json& config) {
    if (!config.is_object()) throw SettingError("a run's config must be a JSON object");
    GivenSettings given;
    for (auto it = config.begin(); it != config.end(); ++it) {
        const SettingField* field = find_setting(it.key());
        if (!field) throw SettingError("a run's config has no setting " + quote_untrusted(it.key(), 40));
        const nlohmann::json& v = it.value();
        // The JSON type the field is written as; its text then goes through the one check.
        const bool typed = field->type == SettingType::choice ? v.is_string()
                           : field->type == SettingType::flag  ? v.is_boolean()
                           : field->type == SettingType::integer ? v.is_number_integer()
                                                                 : v.is_number();
        if (!typed)
            throw SettingError(std::string(field->key) + " must be " +
                               (field->type == SettingType::choice ? "a string"
                                : field->type == SettingType::flag ? "true or false"
                                                                   : "a number") +
                               ", not " + quote_untrusted(v.dump(), 40));
        given.emplace_back(field, v.is_string() ? v.get<std::string>() : v.is_boolean() ? (v.get<bool>() ? "1" : "0")
                                                                                         : v.dump());
    }
    return read_run_settings(given, json_name);
}

RunSettings run_settings_from_record(const nlohmann::json& row) {
    if (!row.is_object() || !row.contains("model")) throw SettingError("a run's record must be a JSON object with a model");
    RunSettings kind = run_settings_from_json({{"model", row.at("model")}});
    nlohmann::json config = nlohmann::json::object();
    for (auto it = row.begin(); it != row.end(); ++it) {
        const SettingField* field = find_setting(it.key());
        if (!field) continue;
        if (applies_to(*field, kind.model.decoder)) config[it.key()] = it.value();
        else if (it.value() != json_value(*field, kind))  // only what a kind without it records: "none", false
            throw SettingError(std::string(field->key) + " applies to model " + kinds_text(*field) + " only, not " +
                               std::string(decoder_name(kind.model.decoder)));
    }
    return run_settings_from_json(config);
}

nlohmann::json worker_report_to_json(const WorkerReport& r) {
    nlohmann::json epochs = nlohmann::json::array();
    for (const EpochRecord& e : r.epochs)
        epochs.push_back({{"epoch", e.epoch}, {"train_loss", number_or_null(e.train_loss)}, {"exact", number_or_null(e.exact)},
                          {"per_char", number_or_null(e.per_char)}, {"aer", number_or_null(e.aer)},
                          {"bleu", number_or_null(e.bleu)}, {"token_error_rate", number_or_null(e.token_error_rate)}});
    nlohmann::json losses = nlohmann::json::array();
    for (float loss : r.losses) losses.push_back(number_or_null(loss));
    nlohmann::json json = {
        {"first_step", r.first_step}, {"losses", losses},       {"epochs", epochs},
        {"steps", r.steps},           {"epoch", r.epoch},         {"examples", r.examples},
        {"evaluating", r.evaluating}, {"fraction", r.fraction},   {"train_seconds", r.train_seconds},
        {"done", r.done},
    };
    if (r.metrics) json["metrics"] = metrics_to_json(*r.metrics);
    return json;
}

WorkerReport worker_report_from_json(const nlohmann::json& json) {
    if (!json.is_object()) throw std::invalid_argument("a report must be a JSON object");
    WorkerReport r;
    r.first_step = size_t(whole(json.at("first_step"), "first_step"));
    for (const nlohmann::json& loss : json.at("losses")) r.losses.push_back(float_number(loss, "loss", true));
    for (const nlohmann::json& e : json.at("epochs")) {
        // Reports written before the token error rate have none: not evaluated.
        const float token_error_rate =
            e.contains("token_error_rate") ? float_number(e.at("token_error_rate"), "token_error_rate", true) : NAN;
        r.epochs.push_back({int(whole(e.at("epoch"), "epoch", INT_MAX)), float_number(e.at("train_loss"), "train_loss", true),
                            float_number(e.at("exact"), "exact", true), float_number(e.at("per_char"), "per_char", true),
                            float_number(e.at("aer"), "aer", true), float_number(e.at("bleu"), "bleu", true),
                            token_error_rate});
    }
    if (json.contains("metrics")) {
        r.metrics = metrics_from_json(json.at("metrics"));
        if (!std::isfinite(r.metrics->exact) || !std::isfinite(r.metrics->per_char))
            throw std::invalid_argument("a report's metrics must be finite");
    }
    r.steps = size_t(whole(json.at("steps"), "steps"));
    r.epoch = int(whole(json.at("epoch"), "epoch", INT_MAX));
    r.examples = long(whole(json.at("examples"), "examples"));
    r.evaluating = json.at("evaluating").get<bool>();
    r.fraction = finite_number(json.at("fraction"), "fraction");
    r.train_seconds = finite_number(json.at("train_seconds"), "train_seconds");
    r.done = json.at("done").get<bool>();
    return r;
}

namespace {
const char* tokens_word(PairsTokens t) { return t == PairsTokens::words ? "words" : "characters"; }
const char* format_word(PairsFormat f) { return f == PairsFormat::tsv ? "tsv" : f == PairsFormat::csv ? "csv" : "detect"; }
const nlohmann::json& member(const nlohmann::json& json, const char* key) {
    const auto found = json.find(key);
    if (found == json.end()) throw std::invalid_argument(std::string("a reader's task has no ") + key);
    return *found;
}
}  // namespace

nlohmann::json pairs_source_to_json(const PairsTaskSource& s) {
    return {{"text", s.text},
            {"name", s.options.name},
            {"tokens", tokens_word(s.options.tokens)},
            {"format", format_word(s.options.format)},
            {"split_seed", s.options.split_seed},
            {"held_out", s.options.held_out_size},
            {"drop_duplicates", s.options.drop_duplicates}};
}

PairsTaskSource pairs_source_from_json(const nlohmann::json& json) {
    if (!json.is_object()) throw std::invalid_argument("a reader's task must be a JSON object");
    PairsTaskSource s;
    const nlohmann::json& text = member(json, "text");
    const nlohmann::json& name = member(json, "name");
    const nlohmann::json& tokens = member(json, "tokens");
    const nlohmann::json& format = member(json, "format");
    if (!text.is_string() || !name.is_string()) throw std::invalid_argument("a reader's task's text and name must be strings");
    s.text = text.get<std::string>();
    s.options.name = name.get<std::string>();
    if (tokens == "words") s.options.tokens = PairsTokens::words;
    else if (tokens == "characters") s.options.tokens = PairsTokens::characters;
    else throw std::invalid_argument("a reader's task's tokens must be characters or words, not " + quote_untrusted(tokens.dump(), 40));
    if (format == "detect") s.options.format = PairsFormat::detect;
    else if (format == "tsv") s.options.format = PairsFormat::tsv;
    else if (format == "csv") s.options.format = PairsFormat::csv;
    else throw std::invalid_argument("a reader's task's format must be detect, tsv or csv, not " + quote_untrusted(format.dump(), 40));
    const auto count = [&](const char* key, unsigned long long hi) {
        const nlohmann::json& v = member(json, key);
        const bool fits = v.is_number_unsigned() ? v.get<unsigned long long>() <= hi
                                                 : v.is_number_integer() && v.get<long long>() >= 0 &&
                                                       (unsigned long long)v.get<long long>() <= hi;
        if (!fits) throw std::invalid_argument(std::string("a reader's task's ") + key + " must be a whole number, at least 0");
        return v.get<unsigned long long>();
    };
    s.options.split_seed = uint64_t(count("split_seed", ULLONG_MAX));
    s.options.held_out_size = int(count("held_out", INT_MAX));
    const nlohmann::json& drop = member(json, "drop_duplicates");
    if (!drop.is_boolean()) throw std::invalid_argument("a reader's task's drop_duplicates must be true or false");
    s.options.drop_duplicates = drop.get<bool>();
    return s;
}

}  // namespace lb
