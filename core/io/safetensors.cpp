// core/io/safetensors.cpp — reading and writing the safetensors format (see
// safetensors.h), and a model's weights file on top of it.
#include "io/safetensors.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include "data/pairs.h"
#include "io/json_error.h"
#include <set>

#include "settings/run_settings.h"
#include "models/model.h"
#include "text/text.h"

namespace lb {

using nlohmann::json;

const StoredTensor* SafetensorsContent::find(const std::string& name) const {
    for (const StoredTensor& t : tensors)
        if (t.name == name) return &t;
    return nullptr;
}

namespace {

const char* const metadata_key = "__metadata__";

// A name or path from the file or the user, for a message (text.h).
std::string shown_text(const std::string& text) { return quote_untrusted(text, 80); }

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

// Values in a shape, or -1 if the count would pass `limit` (a hostile shape
// must not overflow).
int64_t element_count(const std::vector<int64_t>& shape, int64_t limit) {
    int64_t n = 1;
    for (int64_t d : shape) {
        if (d < 0) return -1;
        if (d != 0 && n > limit / d) return -1;
        n *= d;
    }
    return n;
}

void put_u32_le(std::vector<uint8_t>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

}  // namespace

// --- writing -----------------------------------------------------------------

std::vector<uint8_t> encode_safetensors(const SafetensorsContent& content) {
    json header = json::object();
    if (!content.metadata.empty()) header[metadata_key] = content.metadata;
    uint64_t offset = 0;
    std::set<std::string> names;
    for (const StoredTensor& t : content.tensors) {
        if (t.name.empty() || t.name == metadata_key || !names.insert(t.name).second)
            throw std::invalid_argument("safetensors: empty, reserved or repeated name '" +
                                        t.name + "'");
        const int64_t n = element_count(t.shape, INT64_MAX / 4);
        if (n < 0 || uint64_t(n) != t.data.size())
            throw std::invalid_argument("safetensors: tensor '" + t.name + "' has " +
                                        std::to_string(t.data.size()) + " values for shape " +
                                        shape_text(t.shape));
        const uint64_t bytes = uint64_t(n) * 4;
        header[t.name] = {{"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // align the data to 8 bytes

    std::vector<uint8_t> out;
    out.reserve(8 + text.size() + offset);
    const uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(n >> (8 * i)));
    out.insert(out.end(), text.begin(), text.end());
    for (const StoredTensor& t : content.tensors)
        for (float f : t.data) {
            uint32_t bits;
            std::memcpy(&bits, &f, 4);
            put_u32_le(out, bits);
        }
    return out;
}

void write_safetensors_file(const std::string& path, const SafetensorsContent& content) {
    const std::vector<uint8_t> bytes = encode_safetensors(content);
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw SafetensorsError("cannot write " + shown_text(temporary));
        out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        if (!out.flush()) {
            std::remove(temporary.c_str());
            throw SafetensorsError("cannot write " + shown_text(temporary) + " (disk full?)");
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        std::remove(temporary.c_str());
        throw SafetensorsError("cannot move " + shown_text(temporary) + " to " + shown_text(path));
    }
}

// --- reading -----------------------------------------------------------------

namespace {

struct Entry {
    std::string name;
    std::vector<int64_t> shape;
    uint64_t begin = 0, end = 0;
};

Entry parse_entry(const std::string& name, const json& value) {
    auto fail = [&](const std::string& what) {
        throw SafetensorsError("tensor " + shown_text(name) + ": " + what);
    };
    if (!value.is_object()) fail("its header entry is not a JSON object");
    for (const char* key : {"dtype", "shape", "data_offsets"})
        if (!value.contains(key)) fail(std::string("the header entry has no \"") + key + "\"");
    const json& dtype = value["dtype"];
    if (!dtype.is_string()) fail("\"dtype\" is not a string");
    if (dtype.get<std::string>() != "F32")
        fail("dtype " + shown_text(dtype.get<std::string>()) + " is not supported (only F32 is)");

    Entry e;
    e.name = name;
    const json& shape = value["shape"];
    if (!shape.is_array()) fail("\"shape\" is not an array");
    for (const json& d : shape) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0)
            fail("\"shape\" " + shape.dump() + " is not a list of sizes >= 0");
        e.shape.push_back(d.get<int64_t>());
    }
    const json& offsets = value["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
        !offsets[1].is_number_unsigned())
        fail("\"data_offsets\" " + offsets.dump() + " is not [begin, end] with begin, end >= 0");
    e.begin = offsets[0].get<uint64_t>();
    e.end = offsets[1].get<uint64_t>();
    if (e.begin > e.end)
        fail("\"data_offsets\" " + offsets.dump() + " ends before it begins");
    return e;
}

}  // namespace

SafetensorsContent decode_safetensors(const uint8_t* bytes, size_t size) {
    if (size < 8)
        throw SafetensorsError("truncated: " + std::to_string(size) +
                               " bytes, fewer than the 8-byte header length");
    uint64_t header_length = 0;
    for (int i = 0; i < 8; ++i) header_length |= uint64_t(bytes[i]) << (8 * i);
    const uint64_t available = size - 8;
    if (header_length > available)
        throw SafetensorsError("the header length " + std::to_string(header_length) +
                               " goes beyond the end of the file (" + std::to_string(available) +
                               " bytes follow it): truncated or not a safetensors file");

    json header;
    try {
        header = json::parse(bytes + 8, bytes + 8 + header_length);
    } catch (const json::exception& e) {  // a syntax error, or a number beyond double (1e999)
        // nlohmann quotes the bytes it stopped at: half a character, a DEL, a C1 control.
        throw SafetensorsError("the header is not valid JSON: " + json_error_text(e));
    }
    if (!header.is_object()) throw SafetensorsError("the header is not a JSON object");

    SafetensorsContent content;
    std::vector<Entry> entries;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == metadata_key) {
            if (!it.value().is_object())
                throw SafetensorsError("\"__metadata__\" is not a JSON object");
            for (auto m = it.value().begin(); m != it.value().end(); ++m) {
                if (!m.value().is_string())
                    throw SafetensorsError("\"__metadata__\" entry " + shown_text(m.key()) +
                                           " is not a string");
                content.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        entries.push_back(parse_entry(it.key(), it.value()));
    }

    // The data section: tensors must tile it exactly, in some order.
    const uint64_t data_size = available - header_length;
    const uint8_t* data = bytes + 8 + header_length;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.begin < b.begin || (a.begin == b.begin && a.end < b.end); });
    uint64_t covered = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        const std::string where = "tensor " + shown_text(e.name) + " (data_offsets [" +
                                  std::to_string(e.begin) + ", " + std::to_string(e.end) + "])";
        if (e.end > data_size)
            throw SafetensorsError(where + " goes beyond the data, which holds " +
                                   std::to_string(data_size) + " bytes: the file is truncated " +
                                   "or the offsets are wrong");
        const int64_t n = element_count(e.shape, int64_t(data_size / 4 + 1));
        if (n < 0 || uint64_t(n) * 4 != e.end - e.begin)
            throw SafetensorsError(where + " holds " + std::to_string(e.end - e.begin) +
                                   " bytes but shape " + shape_text(e.shape) + " of F32 needs " +
                                   (n < 0 ? std::string("more than the file") : std::to_string(n * 4)));
        if (e.begin < covered)
            throw SafetensorsError(where + " overlaps tensor " + shown_text(entries[i - 1].name));
        if (e.begin > covered)
            throw SafetensorsError(where + " leaves bytes [" + std::to_string(covered) + ", " +
                                   std::to_string(e.begin) + ") of the data unused");
        covered = e.end;
    }
    if (covered != data_size)
        throw SafetensorsError(std::to_string(data_size - covered) +
                               " bytes after the last tensor's data belong to no tensor");

    for (const Entry& e : entries) {
        StoredTensor t;
        t.name = e.name;
        t.shape = e.shape;
        t.data.resize((e.end - e.begin) / 4);
        for (size_t k = 0; k < t.data.size(); ++k) {
            const uint8_t* p = data + e.begin + 4 * k;
            const uint32_t bits = uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 |
                                  uint32_t(p[3]) << 24;
            std::memcpy(&t.data[k], &bits, 4);
        }
        content.tensors.push_back(std::move(t));
    }
    return content;
}

SafetensorsContent read_safetensors_file(const std::string& path) {
    // Looked at before it is opened: opening a FIFO waits for a writer, and a
    // folder or a device (/dev/zero) has no end to read up to.
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(path, error);
    if (error || !std::filesystem::exists(status))
        throw SafetensorsError("cannot open " + shown_text(path) + ": no such file");
    if (!std::filesystem::is_regular_file(status))
        throw SafetensorsError(shown_text(path) + " is not a regular file (a folder, a device or a pipe)");
    const uintmax_t size = std::filesystem::file_size(path, error);
    if (error) throw SafetensorsError("cannot open " + shown_text(path));
    if (size > max_weights_file_bytes)
        throw SafetensorsError(shown_text(path) + " holds " + std::to_string(size) +
                               " bytes, larger than the " + std::to_string(max_weights_file_bytes) +
                               " a weights file may have");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SafetensorsError("cannot open " + shown_text(path));
    // No more than the size seen above, even if the file grows meanwhile.
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size));
    bytes.resize(size_t(in.gcount()));
    try {
        return decode_safetensors(bytes.data(), bytes.size());
    } catch (const SafetensorsError& e) {
        throw SafetensorsError(shown_text(path) + ": " + e.what());
    }
}

void check_tensors(const SafetensorsContent& content, const std::vector<ExpectedTensor>& expected,
                   bool allow_extra) {
    for (const ExpectedTensor& want : expected) {
        const StoredTensor* t = content.find(want.name);
        if (!t) throw SafetensorsError("missing tensor " + shown_text(want.name));
        if (t->shape != want.shape)
            throw SafetensorsError("tensor " + shown_text(want.name) + " has shape " + shape_text(t->shape) +
                                   " but this model expects " + shape_text(want.shape));
    }
    if (allow_extra) return;
    for (const StoredTensor& t : content.tensors) {
        bool known = false;
        for (const ExpectedTensor& want : expected) known = known || want.name == t.name;
        if (!known) throw SafetensorsError("unexpected tensor " + shown_text(t.name) + " for this model");
    }
}

// --- a model's weights file --------------------------------------------------

namespace {

const char* const file_format = "lookback-1";

std::vector<ExpectedTensor> expected_tensors(const Params& params) {
    std::vector<ExpectedTensor> expected;
    for (const ConstNamedTensor& t : named_tensors(params))
        expected.push_back({t.name, std::vector<int64_t>(t.shape.begin(), t.shape.end())});
    return expected;
}

std::string metadata_name(const SettingField& field) { return "metadata \"" + std::string(field.key) + "\""; }

// Settings that came after the first weights files, so recorded only when not their defaults: such
// a file loads as it did, and a default model's file is the same bytes as before them.
bool optional_in_weights(const SettingField& field) {
    const std::string_view key = field.key;
    return key == "task" || key == "formats" || key == "field_order";
}

// The model's settings, read through the settings schema (settings/run_settings.h): the kind, then
// every field recorded in weights that applies to it.
ModelConfig config_from_metadata(const std::map<std::string, std::string>& metadata) {
    auto given = [&](const SettingField& field) {
        const auto it = metadata.find(field.key);
        if (it == metadata.end())
            throw SafetensorsError(std::string("the metadata has no \"") + field.key +
                                   "\": not a lookback weights file");
        return std::make_pair(&field, it->second);
    };
    // The task and the date task's dial are recorded only when not the defaults (files from before
    // them have none).
    auto recorded = [&](const SettingField& field) { return !(optional_in_weights(field) && !metadata.count(field.key)); };
    try {
        const GivenSettings kind = {given(*find_setting("model"))};
        const DecoderKind decoder = read_run_settings(kind, metadata_name).model.decoder;
        GivenSettings fields;
        for (const SettingField& field : run_setting_fields())
            if (field.in_weights && applies_to(field, decoder) && recorded(field)) fields.push_back(given(field));
        ModelConfig config = read_run_settings(fields, metadata_name).model;
        if (config.ffn == 2 * config.H) config.ffn = 0;  // the default, as a fresh config says it
        return config;
    } catch (const SettingError& e) {
        throw SafetensorsError(e.what());
    }
}

// Refuses a NaN or an infinity anywhere: such a model decodes garbage with
// weights shown as "nan", and training from it never recovers.
void check_finite(const SafetensorsContent& content) {
    for (const StoredTensor& t : content.tensors)
        for (size_t i = 0; i < t.data.size(); ++i)
            if (!std::isfinite(t.data[i]))
                throw SafetensorsError("tensor " + shown_text(t.name) + " holds a non-finite value (" +
                                       (std::isnan(t.data[i]) ? "nan" : "infinity") +
                                       ") at index " + std::to_string(i));
}

// Copies the tensors into params, whose shapes check_tensors has confirmed.
void copy_into(Params& params, const SafetensorsContent& content) {
    for (const NamedTensor& t : named_tensors(params)) {
        const StoredTensor* stored = content.find(t.name);
        std::copy(stored->data.begin(), stored->data.end(), t.data);
    }
}

}  // namespace

SafetensorsContent model_to_safetensors(const Model& model,
                                        const std::map<std::string, std::string>& extra) {
    SafetensorsContent content;
    content.metadata = extra;
    content.metadata["format"] = file_format;
    RunSettings settings;
    settings.model = model.config;
    for (const SettingField& field : run_setting_fields())
        if (field.in_weights && applies_to(field, model.config) &&
            !(optional_in_weights(field) && setting_text(field, settings) == setting_text(field, RunSettings{})))
            content.metadata[field.key] = setting_text(field, settings);
    if (model.config.task->carried_in_weights) {
        const CarriedTask task = carried_task(*model.config.task);
        content.metadata["task_tokens"] = task.tokens == PairsTokens::words ? "words" : "characters";
        content.metadata["task_input"] = nlohmann::json(task.input).dump();
        content.metadata["task_output"] = nlohmann::json(task.output).dump();
        content.metadata["task_longest_input"] = std::to_string(task.max_input_tokens);
        content.metadata["task_output_steps"] = std::to_string(task.output_steps);
        content.metadata["task_example"] = task.example_input;
    }
    // A kind that does not score has always recorded its scorer as model_scorer_name's "none".
    if (!applies_to(*find_setting("scorer"), model.config.decoder))
        content.metadata["scorer"] = std::string(model_scorer_name(model.config.decoder, model.config.scorer));
    for (const ConstNamedTensor& t : named_tensors(model.params))
        content.tensors.push_back({t.name, std::vector<int64_t>(t.shape.begin(), t.shape.end()),
                                   std::vector<float>(t.data, t.data + t.size)});
    return content;
}

void save_model(const std::string& path, const Model& model,
                const std::map<std::string, std::string>& extra) {
    write_safetensors_file(path, model_to_safetensors(model, extra));
}

Model model_from_safetensors(const SafetensorsContent& content) {
    const ModelConfig config = config_from_metadata(content.metadata);
    // A cheap look before allocating the model the metadata claims: its size.
    size_t stored = 0;
    for (const StoredTensor& t : content.tensors) stored += t.data.size();
    const long want = parameter_count(config);
    if (long(stored) != want)
        throw SafetensorsError("the file's tensors hold " + std::to_string(stored) +
                               " values but this model expects " + std::to_string(want) + " (a " +
                               model_label(config) + " of width " + std::to_string(config.H) +
                               " in the metadata)");
    Model model = make_model(config);
    check_tensors(content, expected_tensors(model.params));
    check_finite(content);
    copy_into(model.params, content);
    return model;
}

Model load_model(const std::string& path) {
    const SafetensorsContent content = read_safetensors_file(path);
    try {
        return model_from_safetensors(content);
    } catch (const SafetensorsError& e) {
        throw SafetensorsError(shown_text(path) + ": " + e.what());
    }
}

Model load_model(const uint8_t* bytes, size_t size) {
    return model_from_safetensors(decode_safetensors(bytes, size));
}

void load_weights_into(Model& model, const SafetensorsContent& content) {
    // Everything that can fail happens before the first write into model.
    const ModelConfig config = config_from_metadata(content.metadata);
    // The same configuration: every field the schema records in weights (the task and the date
    // task's dial included) that applies to both, the file's against the model's. A field that
    // applies to one only follows from a kind or a task that differs, which is named.
    RunSettings file, here;
    file.model = config;
    here.model = model.config;
    std::vector<std::string> differences;
    for (const SettingField& field : run_setting_fields()) {
        if (!field.in_weights || !applies_to(field, config) || !applies_to(field, model.config)) continue;
        const std::string theirs = setting_text(field, file), ours = setting_text(field, here);
        if (theirs != ours) differences.push_back(std::string(field.key) + " " + theirs + " in the file, " + ours + " here");
    }
    if (!differences.empty()) {
        std::string list;
        for (const std::string& d : differences) list += (list.empty() ? "" : "; ") + d;
        throw SafetensorsError("the file's model is not this model's configuration: " + list);
    }
    check_tensors(content, expected_tensors(model.params));
    check_finite(content);
    copy_into(model.params, content);
}

std::optional<Task> task_in_weights(const SafetensorsContent& content) {
    const std::map<std::string, std::string>& m = content.metadata;
    const char* const carried_keys[] = {"task_tokens", "task_input", "task_output", "task_longest_input",
                                        "task_output_steps", "task_example"};
    if (std::none_of(std::begin(carried_keys), std::end(carried_keys), [&](const char* key) { return m.count(key) > 0; }))
        return std::nullopt;
    auto required = [&](const char* key) {
        if (!m.count(key)) throw SafetensorsError(std::string("the metadata carries a reader's task without \"") + key + "\"");
    };
    required("task");
    for (const char* key : carried_keys) required(key);
    CarriedTask carried;
    carried.name = m.at("task");
    const std::string& tokens = m.at("task_tokens");
    if (tokens != "characters" && tokens != "words")
        throw SafetensorsError("metadata \"task_tokens\" must be characters or words, not " + shown_text(tokens));
    carried.tokens = tokens == "words" ? PairsTokens::words : PairsTokens::characters;
    for (const char* key : {"task_input", "task_output"}) {
        const nlohmann::json list = nlohmann::json::parse(m.at(key), nullptr, false);
        if (!list.is_array())
            throw SafetensorsError(std::string("metadata \"") + key + "\" must be a JSON array of tokens");
        std::vector<std::string>& out = std::string_view(key) == "task_input" ? carried.input : carried.output;
        for (const nlohmann::json& token : list) {
            if (!token.is_string())
                throw SafetensorsError(std::string("metadata \"") + key + "\" must be a JSON array of tokens");
            out.push_back(token.get<std::string>());
        }
    }
    for (const char* key : {"task_longest_input", "task_output_steps"}) {
        const std::string& text = m.at(key);
        const bool digits = !text.empty() && text.size() <= 3 &&
                            std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!digits) throw SafetensorsError(std::string("metadata \"") + key + "\" must be a whole number, not " + shown_text(text));
        (std::string_view(key) == "task_longest_input" ? carried.max_input_tokens : carried.output_steps) = std::stoi(text);
    }
    carried.example_input = m.at("task_example");
    try {
        return task_from_carried(carried);
    } catch (const std::invalid_argument& e) {
        throw SafetensorsError(std::string("the task the file carries: ") + e.what());
    }
}

}  // namespace lb
