// cli/sweeps.h — the sweeps' shared header and each sweep's three steps:
//   run      trains and evaluates, one row a run (cmd_sweep*.cpp, not declared here);
//   results  gathers the rows into what the files show (means over seeds, checks);
//   render   writes the results as JSON and Markdown, and trains nothing.
// A sweep's rows can be read back from the JSON it wrote, so the tests render the stored
// assets again and compare them byte for byte.
#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"

namespace lb::cli {

// The settings a sweep's JSON opens with and its Markdown states. A key a sweep's file has
// never carried stays unset, so every file keeps its keys.
struct SweepHeader {
    std::string task;                    // "task" unless empty
    std::optional<int> width;            // "width": every model's
    std::vector<int> widths;             // "widths" unless empty
    int epochs = 0;
    std::optional<float> learning_rate;  // the width sweep's file has none
    std::optional<uint64_t> seed;        // "seed": the width sweep's one seed
    std::vector<uint64_t> seeds;         // "seeds" unless empty
    uint64_t data_seed = 1;
    size_t train_size = 0, held_out_size = 0;
    std::string seeds_text() const;      // "1–3"
};
nlohmann::json sweep_header_json(const SweepHeader& header);
SweepHeader sweep_header_of(const nlohmann::json& json);  // what sweep_header_json wrote
// first, first + 1, ..., count seeds.
std::vector<uint64_t> seed_range(uint64_t first, int count);
// The header of a sweep of these arguments on these splits: epochs, learning rate, the seeds
// seed .. seed + seeds - 1, data seed and sizes; the sweep adds or drops what its file carries.
SweepHeader sweep_header(const SweepArgs& args, const Splits& data);
// A sweep's run: the sweep's settings, this model and seed (progress on a terminal).
RunOptions sweep_options(const SweepArgs& args, const ModelConfig& model, uint64_t seed);

// --- sweep: widths × {plain, attention} (cmd_sweep.cpp) ----------------------
// One run as the width sweep's Markdown reads it.
struct WidthRow {
    std::string model;  // decoder name
    int width = 0, count = 0;
    long parameters = 0;
    double exact = 0, per_char = 0, train_seconds = 0;
    std::vector<double> per_position, per_format, per_format_exact;
    std::array<double, length_bucket_count> length_buckets{};
    std::array<std::array<int, 2>, length_bucket_count> bucket_ranges{};
    std::array<int, length_bucket_count> bucket_counts{};
    nlohmann::json json;  // run_json, written as it is
};
WidthRow width_row(const RunOptions& options, const RunResult& result);
WidthRow width_row_of(const nlohmann::json& run);
// A claim the lesson makes about the sweep, with our number.
struct Check {
    std::string claim;
    double value;
    bool pass;
};
struct WidthSweepResults {
    SweepHeader header;
    std::vector<WidthRow> plain, attention;  // one a width, in the header's order
    std::vector<int> strings_per_format;     // the held-out split's, which no run stores
    std::vector<Check> checks;
};
WidthSweepResults width_sweep_results(const SweepHeader& header, const std::vector<WidthRow>& rows,
                                      const std::vector<Example>& held_out);
// The rows back from the file, the held-out split drawn again for its strings per format.
WidthSweepResults width_sweep_results_of(const nlohmann::json& json);
nlohmann::json width_sweep_json(const WidthSweepResults& results);
std::string width_sweep_markdown(const WidthSweepResults& results);

// --- sweep --transformer (cmd_sweep_transformer.cpp) -------------------------
// A training setting of the shipped Transformers.
struct TransformerSetting {
    int epochs;
    int warmup_steps;
    float dropout;
};
struct TransformerRow {  // one model and seed at the lesson's budget
    std::string model;
    long parameters = 0;
    double exact = 0, per_char = 0;
    std::vector<double> per_position;
    nlohmann::json json;  // run_json with the model's name
};
struct CurveRow {  // a run with a held-out evaluation each epoch
    std::string name;  // the shipped file's model, or "" for a candidate
    TransformerSetting setting{};
    double exact = 0, per_char = 0, train_seconds = 0;
    std::vector<EpochRecord> curve;
};
struct TransformerRuns {  // what the sweep trains
    std::vector<TransformerRow> table;        // every model and seed
    std::vector<CurveRow> candidates, shipped;
};
struct TransformerSummary {
    std::string model;
    long parameters = 0;
    Spread exact, per_char;
    std::array<Spread, output_length> per_position;
};
struct TransformerSweepResults {
    SweepHeader header;
    std::vector<TransformerSummary> summary;
    std::vector<TransformerRow> rows;
    std::vector<CurveRow> candidates, shipped;
    TransformerSetting shipped_setting{};
};
TransformerSweepResults transformer_sweep_results(const SweepHeader& header, const TransformerRuns& runs);
// The rows, candidates and shipped runs back from the file (for the tests).
TransformerSweepResults transformer_sweep_results_of(const nlohmann::json& json);
nlohmann::json transformer_sweep_json(const TransformerSweepResults& results);
std::string transformer_sweep_markdown(const TransformerSweepResults& results);

// --- sweep --published (cmd_sweep_published.cpp) ----------------------------
struct PublishedRow {  // one variant, width and seed
    std::string label;  // the variant's name in the tables
    ModelConfig model;
    long parameters = 0;
    double exact = 0, per_char = 0;
    std::vector<double> per_position;
    double train_seconds = 0;
    nlohmann::json json;  // run_json
};
PublishedRow published_row(const char* label, const RunOptions& options, const RunResult& result);
PublishedRow published_row_of(const nlohmann::json& run);  // its label is its variant's
struct PublishedSummary {  // one variant at one width, over the seeds
    std::string label;
    ModelConfig model;
    long parameters = 0;
    Spread exact{}, per_char{};
    std::array<double, output_length> per_position{};  // means
    double seconds = 0;                                // mean per run
};
struct PublishedSweepResults {
    SweepHeader header;
    std::vector<std::vector<PublishedSummary>> by_width;  // in the header's widths' order
    std::vector<PublishedRow> rows;
};
PublishedSweepResults published_sweep_results(const SweepHeader& header, const std::vector<PublishedRow>& rows);
PublishedSweepResults published_sweep_results_of(const nlohmann::json& json);
nlohmann::json published_sweep_json(const PublishedSweepResults& results);
std::string published_sweep_markdown(const PublishedSweepResults& results);

// --- sweep --alignment (cmd_sweep_alignment.cpp) ------------------------------
struct AlignmentRow {  // one model and seed
    std::string model;
    uint64_t seed = 0;
    long parameters = 0;
    double exact = 0, per_char = 0, bleu = NAN, train_seconds = 0;
    std::vector<double> per_group;
    std::optional<MapScores> map;
    std::vector<double> head_aer;  // a Transformer's heads
    nlohmann::json json;           // run_json with the model's name
};
AlignmentRow alignment_row(const char* model, const RunOptions& options, const RunResult& result);
AlignmentRow alignment_row_of(const nlohmann::json& run);
struct MapSpread {
    Spread aer, peak_hit, peak_near, mass;
};
struct AlignmentSummary {
    std::string model;
    long parameters = 0;
    Spread exact, per_char, bleu, seconds;
    std::vector<double> per_group;
    std::optional<MapSpread> map;
};
struct AlignmentSweepResults {
    SweepHeader header;
    const Task* task = nullptr;
    MapScores guess;  // the diagonal guess
    std::vector<AlignmentSummary> summary;
    std::vector<AlignmentRow> rows;
};
AlignmentSweepResults alignment_sweep_results(const SweepHeader& header, const Task& task, const MapScores& guess,
                                              const std::vector<AlignmentRow>& rows);
AlignmentSweepResults alignment_sweep_results_of(const nlohmann::json& json);
nlohmann::json alignment_sweep_json(const AlignmentSweepResults& results);
std::string alignment_sweep_markdown(const AlignmentSweepResults& results);

// --- sweep --dial (cmd_sweep_dial.cpp) ----------------------------------------
// What a setting of the dial gives no model: guessing each field's most common value.
struct DialChance {
    DateDial dial;
    std::vector<std::string> group_names;
    std::map<char, double> fields;  // by field letter
    std::array<double, output_length> per_position{};
};
struct DialRow {  // one setting, model and seed
    DateDial dial;
    std::string model;
    double exact = 0, per_char = 0;
    std::map<char, double> fields;  // right in full, by field letter
    std::vector<double> per_position;
    nlohmann::json json;  // run_json with each field right in full
};
struct DialModel {
    std::string model;
    Spread exact, per_char;
    std::map<char, Spread> fields;
    std::vector<double> per_position;  // the seeds' mean
};
struct DialSetting {
    DialChance chance;
    std::vector<DialModel> models;
};
struct DialSweepResults {
    SweepHeader header;
    std::vector<DialSetting> settings;
    std::vector<DialRow> rows;
};
DialSweepResults dial_sweep_results(const SweepHeader& header, const std::vector<DialChance>& chances,
                                    const std::vector<DialRow>& rows);
DialSweepResults dial_sweep_results_of(const nlohmann::json& json);
nlohmann::json dial_sweep_json(const DialSweepResults& results);
std::string dial_sweep_markdown(const DialSweepResults& results);

}  // namespace lb::cli
