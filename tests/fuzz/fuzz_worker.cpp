// Fuzz target: the training worker's codec (io/worker_codec.h) reading a message. The input is
// JSON text read both as a run's config and as a report. The contract: a refusal is SettingError
// (a config) or an exception of std::exception's (a report), never a crash; a refusal's message
// is short, valid UTF-8 with no control byte; a config it takes is within the schema's bounds and
// survives the round trip, and so does a report.
#include <cmath>
#include <cstdlib>
#include <exception>
#include <string>

#include <nlohmann/json.hpp>

#include "io/worker_codec.h"
#include "text/text.h"

namespace {

void check_message(const std::string& m) {
    if (m.size() > 600 || !lb::is_valid_utf8(m)) std::abort();
    for (char c : m)
        if (static_cast<unsigned char>(c) < 0x20) std::abort();
}

// Every field the schema states a range for is within it, as stored.
bool in_bounds(const lb::RunSettings& s) {
    const auto within = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
    return within(s.model.H, 1, 1024) && within(s.epochs, 1, 10000) && s.seed <= 2147483647u &&
           s.data_seed <= 2147483647u && s.learning_rate > 0 && s.learning_rate <= 10 &&
           within(s.model.dropout, 0, 0.9f) && within(s.warmup_steps, 0, 1000000) &&
           within(s.model.heads, 1, 8) && within(s.model.ffn, 0, 4096);
}

void config_round_trip(const nlohmann::json& json) {
    lb::RunSettings s;
    try {
        s = lb::run_settings_from_json(json);
    } catch (const lb::SettingError& e) {
        check_message(e.what());
        return;
    }
    if (!in_bounds(s)) std::abort();
    const lb::RunSettings back = lb::run_settings_from_json(nlohmann::json::parse(lb::run_settings_to_json(s).dump()));
    for (const lb::SettingField& field : lb::run_setting_fields())
        if (lb::setting_text(field, back) != lb::setting_text(field, s)) std::abort();
}

void report_round_trip(const nlohmann::json& json) {
    lb::WorkerReport r;
    try {
        r = lb::worker_report_from_json(json);
    } catch (const std::exception&) {
        return;  // not a report
    }
    const std::string once = lb::worker_report_to_json(r).dump();
    const std::string twice = lb::worker_report_to_json(lb::worker_report_from_json(nlohmann::json::parse(once))).dump();
    if (once != twice) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const nlohmann::json json = nlohmann::json::parse(data, data + size, nullptr, false);
    if (json.is_discarded()) return 0;
    config_round_trip(json);
    report_round_trip(json);
    return 0;
}
