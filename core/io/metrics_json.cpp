// core/io/metrics_json.cpp — see metrics_json.h.
#include "io/metrics_json.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "io/json_error.h"

namespace lb {
namespace {

// NaN (an empty length bucket) travels as null.
nlohmann::json number(double value) { return std::isnan(value) ? nlohmann::json(nullptr) : nlohmann::json(value); }
double number_from(const nlohmann::json& value) { return value.is_null() ? NAN : value.get<double>(); }

template <class Values>
nlohmann::json numbers(const Values& values) {
    nlohmann::json out = nlohmann::json::array();
    for (double v : values) out.push_back(number(v));
    return out;
}

// An array of a fixed size N (the length buckets), or of any size up to max_size (what depends on
// the task: positions, groups) into a vector.
const nlohmann::json& array_at(const nlohmann::json& json, const char* key, size_t lo, size_t hi) {
    const auto found = json.find(key);
    if (found == json.end() || !found->is_array() || found->size() < lo || found->size() > hi)
        throw std::invalid_argument(std::string("metrics: '") + key + "' must be an array of " +
                                    (lo == hi ? std::to_string(lo) : "at most " + std::to_string(hi)));
    return *found;
}
template <typename T>
T element(const nlohmann::json& value) {
    if constexpr (std::is_same_v<T, double>) return number_from(value);
    else return value.template get<T>();
}
template <typename T, size_t N>
void read_array(const nlohmann::json& json, const char* key, std::array<T, N>& out) {
    const nlohmann::json& values = array_at(json, key, N, N);
    for (size_t i = 0; i < N; ++i) out[i] = element<T>(values[i]);
}
constexpr size_t max_entries = 1024;  // far more than any task's positions or groups
template <typename T>
void read_array(const nlohmann::json& json, const char* key, std::vector<T>& out) {
    const nlohmann::json& values = array_at(json, key, 0, max_entries);
    out.clear();
    for (const auto& value : values) out.push_back(element<T>(value));
}

// The alignment check's counts, so that every score is recomputed exactly on the other side.
nlohmann::json alignment_json(const AlignmentCounts& c) {
    return {{"examples", c.examples},        {"steps", c.steps},           {"peak_hits", c.peak_hits},
            {"peak_near_hits", c.peak_near_hits}, {"linked_mass", c.linked_mass}, {"hard_links", c.hard_links},
            {"sure_links", c.sure_links},    {"hard_on_sure", c.hard_on_sure}, {"hard_on_possible", c.hard_on_possible}};
}
AlignmentScores alignment_from_json(const nlohmann::json& json) {
    AlignmentScores scores;
    AlignmentCounts& c = scores.totals;
    for (auto [key, field] : {std::pair{"examples", &c.examples}, {"steps", &c.steps}, {"peak_hits", &c.peak_hits},
                              {"peak_near_hits", &c.peak_near_hits}, {"hard_links", &c.hard_links},
                              {"sure_links", &c.sure_links}, {"hard_on_sure", &c.hard_on_sure},
                              {"hard_on_possible", &c.hard_on_possible}}) {
        *field = json.at(key).get<int>();
        if (*field < 0) throw std::invalid_argument(std::string("metrics: alignment '") + key + "' is negative");
    }
    c.linked_mass = json.at("linked_mass").get<double>();
    return scores;
}

}  // namespace

nlohmann::json metrics_to_json(const Metrics& m) {
    return {
        {"held_out_size", m.count},
        {"exact", m.exact},
        {"per_char", m.per_char},
        {"token_error_rate", number(m.token_error_rate)},
        {"per_position", numbers(m.per_position)},
        {"length_quartiles", m.buckets.quartiles},
        {"length_shortest", m.buckets.shortest},
        {"length_longest", m.buckets.longest},
        {"length_buckets", numbers(m.per_length_bucket)},
        {"length_bucket_counts", m.bucket_count},
        {"per_format", numbers(m.per_format)},
        {"per_format_exact", numbers(m.per_format_exact)},
        {"examples_per_format", m.examples_per_format},
        {"bleu", number(m.bleu)},
        {"alignment", m.alignment ? alignment_json(m.alignment->totals) : nlohmann::json(nullptr)},
    };
}

Metrics metrics_from_json(const nlohmann::json& json) {
    if (!json.is_object()) throw std::invalid_argument("metrics: not a JSON object");
    try {
        Metrics m;
        m.count = json.at("held_out_size").get<int>();
        m.exact = json.at("exact").get<double>();
        m.per_char = json.at("per_char").get<double>();
        // Absent from metrics written before it was measured: not evaluated.
        if (json.contains("token_error_rate")) m.token_error_rate = number_from(json.at("token_error_rate"));
        read_array(json, "per_position", m.per_position);
        read_array(json, "length_quartiles", m.buckets.quartiles);
        m.buckets.shortest = json.at("length_shortest").get<int>();
        m.buckets.longest = json.at("length_longest").get<int>();
        read_array(json, "length_buckets", m.per_length_bucket);
        read_array(json, "length_bucket_counts", m.bucket_count);
        read_array(json, "per_format", m.per_format);
        read_array(json, "per_format_exact", m.per_format_exact);
        read_array(json, "examples_per_format", m.examples_per_format);
        m.bleu = number_from(json.at("bleu"));
        if (!json.at("alignment").is_null()) m.alignment = alignment_from_json(json.at("alignment"));
        return m;
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument("metrics: " + json_error_text(e));
    }
}

}  // namespace lb
