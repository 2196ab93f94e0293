// core/io/json_error.h — what nlohmann's JSON says went wrong, for io/'s refusals.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "text/text.h"

namespace lb {

// The message of a nlohmann exception without its "[json.exception.parse_error.101] " tag, quoted
// as untrusted text (text.h): it repeats bytes of the input ("last read: '...'", "number overflow
// parsing '1e999'"), and a DEL or a C1 control among them would reach a terminal.
inline std::string json_error_text(const nlohmann::json::exception& e) {
    std::string_view what = e.what();
    const size_t tag_end = what.find("] ");
    if (what.rfind("[json.exception.", 0) == 0 && tag_end != std::string_view::npos) what.remove_prefix(tag_end + 2);
    return quote_untrusted(what, 200);
}

}  // namespace lb
