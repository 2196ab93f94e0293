// core/settings/run_settings.h — one schema for a run's settings. A single list of fields (key, flag,
// type, bounds, default, the model kinds it applies to) for every place a run is described, and
// the one writer of every refusal, so that bounds and words agree. Every place a run is described
// reads it through here: the command line's flags (cli/options.cpp), the weights' metadata
// (io/safetensors.cpp), the worker's configs (io/worker_codec.h), the page's URL entries
// (web/lab/lab.h's url_setting) and the shipped assets' rows (web/lab/assets.cpp).
//
// A value is checked as the type it is stored in: a learning rate of 1e-50 is above 0 as a
// double but 0 as a float, and is refused.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/model.h"
#include "models/registry.h"

namespace lb {

// A run's settings, from the page's address or the command line to the trainer: the one struct
// every floor above this one passes (training/trainer.h's config is this and the trainer's own
// knobs). Its own floor, below training/ and io/, so the page's module can describe a run without
// seeing the trainer.
struct RunSettings {
    ModelConfig model;            // kind, scorer, input feeding, width; a Transformer's memory, heads, ffn, dropout
    int epochs = 12;
    uint64_t seed = 1;            // initialisation and shuffling
    uint64_t data_seed = 1;       // the dataset's strings
    float learning_rate = 1e-3f;  // Adam's
    int warmup_steps = 0;         // the rate's linear warmup
    int batch_size = 64;          // examples per Adam step
};

// The settings a model trains with unless told otherwise: its kind's learning rate and warmup
// (its registry row, models/registry.h), every other field the schema's default.
RunSettings default_run_settings(const ModelConfig& model);

// Steps in an epoch over `train_rows` examples: the last batch may be partial.
inline int batches_per_epoch(long train_rows, int batch_size) { return int((train_rows + batch_size - 1) / batch_size); }

struct SettingError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

enum class SettingType {
    choice,   // a word: the model's kind, its scorer, a Transformer's memory
    integer,  // whole, from lo to hi
    decimal,  // stored as a float: above lo (from lo if lo_included) and at most hi
    flag,     // "1" or "0" (JSON true or false; on the command line the flag alone)
};

struct SettingField {
    const char* key;   // in JSON, the weights' metadata and the page's URL: "learning_rate"
    const char* flag;  // on the command line: "--lr"
    SettingType type;
    double lo, hi;
    bool lo_included;
    bool in_weights;   // recorded in a weights file's metadata: what builds the model
    // The kinds it applies to, asked of their registry rows (models/registry.h), so a kind
    // registered later takes what its row says it takes.
    bool (*applies)(const ModelKind&);
    const char* help;  // what it sets, for usage text
    // Where the value lives in RunSettings (use setting_text and try_set_setting, which check it):
    std::string (*text)(const RunSettings&);              // the value as text
    void (*store)(RunSettings&, double);                  // a number or flag (1 or 0), already checked
    bool (*choose)(RunSettings&, std::string_view);       // a choice's word; false if it is not one
    std::string (*choices)(const RunSettings&);           // a choice's words: "all or first"
    // The one task it applies to ("dates": the date task's dial, data/dataset.h), or every task.
    const char* task = nullptr;
};

// Every field, in the order usage text lists them.
const std::vector<SettingField>& run_setting_fields();
const SettingField* find_setting(std::string_view key);          // by key, or nullptr
const SettingField* find_setting_flag(std::string_view flag);    // by flag, or nullptr
bool applies_to(const SettingField& field, DecoderKind kind);
// To a model's kind and to its task.
bool applies_to(const SettingField& field, const ModelConfig& model);

// What a field takes, for a refusal or a usage line: "an integer from 1 to 1024", "dot, general
// or concat" (a scorer: of the kind in `settings`), "1 or 0".
std::string setting_expected(const SettingField& field, const RunSettings& settings);
// The field's value as text: "64", "0.001", "general", "1".
std::string setting_text(const SettingField& field, const RunSettings& settings);
// Stores one field from its text (a flag's value, a metadata entry, a URL value, a JSON value
// written as text) after checking it as the type it is stored in; false, with nothing changed,
// if the field does not take it. A scorer is read as a scorer of the kind already in settings.
bool try_set_setting(RunSettings& settings, const SettingField& field, std::string_view text);
// The same, throwing SettingError "NAME must be EXPECTED, not 'TEXT'": name is how the reader
// gave the field ("--width", "width", "metadata \"width\"", "tr.width").
void set_setting(RunSettings& settings, const SettingField& field, std::string_view text, const std::string& name);

// Settings given as (field, text) pairs, in any order: the kind first (so a scorer is read as
// its), the task next (so the date task's dial is read for it), then every other field, then the
// rules between fields: a field given for a kind or a task it does not apply to, a Transformer's
// heads that do not divide its width. A kind without a scorer given gets its default scorer.
// `name` says how a message names a field. Throws SettingError.
using GivenSettings = std::vector<std::pair<const SettingField*, std::string>>;
RunSettings read_run_settings(const GivenSettings& given, std::string (*name)(const SettingField&),
                              RunSettings defaults = {});

// The kinds a field applies to, for a message: "transformer", "luong and luong-local".
std::string kinds_text(const SettingField& field);

// What a field takes and its default, for usage text: "H, the GRU's or d_model: an integer from 1
// to 1024 (64)"; per kind where that differs (a scorer), and the kinds or the task when not every
// one.
std::string setting_usage(const SettingField& field);

}  // namespace lb
