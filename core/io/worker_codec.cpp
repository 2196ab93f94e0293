// core/io/worker_codec.cpp — the training worker's messages (worker_codec.h).
#include "io/worker_codec.h"

#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "io/metrics_json.h"
#include "text/text.h"

namespace lb {

namespace {

std::string json_name(const SettingField& field) { return field.key; }

// NaN (not evaluated) travels as null.
nlohmann::json number_or_null(float v) { return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }
float number_or_nan(const nlohmann::json& v) { return v.is_null() ? NAN : v.get<float>(); }

}  // namespace

nlohmann::json run_settings_to_json(const RunSettings& settings) {
    nlohmann::json config = nlohmann::json::object();
    for (const SettingField& field : run_setting_fields()) {
        if (!applies_to(field, settings.model.decoder)) continue;
        const std::string text = setting_text(field, settings);
        switch (field.type) {
            case SettingType::choice: config[field.key] = text; break;
            case SettingType::flag: config[field.key] = text == "1"; break;
            case SettingType::integer: config[field.key] = std::stoll(text); break;
            case SettingType::decimal: config[field.key] = std::strtod(text.c_str(), nullptr); break;
        }
    }
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

nlohmann::json worker_report_to_json(const WorkerReport& r) {
    nlohmann::json epochs = nlohmann::json::array();
    for (const EpochRecord& e : r.epochs)
        epochs.push_back({{"epoch", e.epoch}, {"train_loss", e.train_loss}, {"exact", number_or_null(e.exact)},
                          {"per_char", number_or_null(e.per_char)}});
    nlohmann::json json = {
        {"first_step", r.first_step}, {"losses", r.losses},       {"epochs", epochs},
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
    r.first_step = json.at("first_step").get<size_t>();
    r.losses = json.at("losses").get<std::vector<float>>();
    for (const nlohmann::json& e : json.at("epochs"))
        r.epochs.push_back({e.at("epoch").get<int>(), e.at("train_loss").get<float>(), number_or_nan(e.at("exact")),
                            number_or_nan(e.at("per_char"))});
    if (json.contains("metrics")) r.metrics = metrics_from_json(json.at("metrics"));
    r.steps = json.at("steps").get<size_t>();
    r.epoch = json.at("epoch").get<int>();
    r.examples = json.at("examples").get<long>();
    r.evaluating = json.at("evaluating").get<bool>();
    r.fraction = json.at("fraction").get<double>();
    r.train_seconds = json.at("train_seconds").get<double>();
    r.done = json.at("done").get<bool>();
    return r;
}

}  // namespace lb
