// core/io/task_file.cpp — a reader's task as a file and as a link (task_file.h).
#include "io/task_file.h"

#include <stdexcept>

#include "io/json_error.h"
#include "text/deflate.h"
#include "text/text.h"

namespace lb {

namespace {

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The tag first, where is_task_file looks for it (nlohmann::json would sort it among the keys).
nlohmann::ordered_json tagged(const PairsTaskSource& source) {
    nlohmann::ordered_json json = {{"lookback", task_file_tag}};
    const nlohmann::json fields = pairs_source_to_json(source);
    for (const auto& [key, value] : fields.items()) json[key] = value;
    return json;
}

// `what` names the form in messages: "the task file", "the link's task".
PairsTaskSource read_tagged(std::string_view text, const std::string& what) {
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw std::invalid_argument(what + " is not JSON: it goes wrong at byte " + std::to_string(e.byte));
    } catch (const nlohmann::json::exception& e) {  // out_of_range: a number past double's (1e999)
        throw std::invalid_argument(what + " cannot be read as JSON: " + json_error_text(e));
    }
    const auto tag = json.is_object() ? json.find("lookback") : json.end();
    if (tag == json.end() || !tag->is_string() || tag->get<std::string>() != task_file_tag)
        throw std::invalid_argument(what + " is not a Lookback task: it lacks \"lookback\": \"" +
                                    std::string(task_file_tag) + "\"");
    try {
        return pairs_source_from_json(json);
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(what + " is not one the page writes: " + json_error_text(e));
    } catch (const std::exception& e) {  // the codec's own words, untrusted parts already quoted
        throw std::invalid_argument(what + " is not one the page writes: " + sanitize_utf8(e.what()));
    }
}

}  // namespace

std::string task_file_text(const PairsTaskSource& source) { return tagged(source).dump(1) + "\n"; }

bool is_task_file(std::string_view bytes) {
    bytes = without_byte_order_mark(bytes);
    size_t i = 0;
    while (i < bytes.size() && is_json_space(bytes[i])) ++i;
    if (i == bytes.size() || bytes[i] != '{') return false;
    ++i;
    while (i < bytes.size() && is_json_space(bytes[i])) ++i;
    return bytes.substr(i, 10) == "\"lookback\"";
}

PairsTaskSource read_task_file(std::string_view bytes) {
    if (bytes.size() > task_file_max_bytes)
        throw std::invalid_argument("the task file is larger than " + std::to_string(task_file_max_bytes) + " bytes");
    return read_tagged(without_byte_order_mark(bytes), "the task file");
}

std::optional<std::string> task_link_value(const PairsTaskSource& source) {
    const std::optional<std::string> compressed = deflate_raw_within(tagged(source).dump(), task_link_max_bytes);
    if (!compressed) return std::nullopt;
    return base64url_encode(*compressed);
}

PairsTaskSource read_task_link(std::string_view value) {
    if (value.size() > task_link_max_chars)
        throw std::invalid_argument("the link's task is longer than " + std::to_string(task_link_max_chars) + " characters");
    std::string compressed, json;
    try {
        compressed = base64url_decode(value);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("the link's task is not base64url: ") + e.what());
    }
    try {
        json = inflate_raw(compressed, task_file_max_bytes);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string("the link's task does not decompress: ") + e.what());
    }
    return read_tagged(json, "the link's task");
}

}  // namespace lb
