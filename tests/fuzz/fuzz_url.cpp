// Fuzz target: the page's URL table (web/runtime/url_state.h) reading a query. The contract: it
// never throws; a field keeps its default or takes a value its entry allows; every message is
// short, valid UTF-8 with no control byte; what the table writes reads back with no refusal.
#include <cstdlib>
#include <string>
#include <vector>

#include "text/text.h"
#include "../url_settings.h"

namespace {

// Every field within what its entry allows.
bool in_range(const lb::test::UrlSettings& s) {
    return (s.width == 8 || s.width == 16 || s.width == 32 || s.width == 64) && s.seed >= 0 && s.seed <= 1000 &&
           s.point.size() == 2 && s.point[0] >= -1 && s.point[0] <= 1 && s.point[1] >= -1 && s.point[1] <= 1 &&
           s.date.size() <= s.date_bytes && lb::is_valid_utf8(s.date);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string query(reinterpret_cast<const char*>(data), size);
    lb::test::UrlSettings s;
    s.url.read(query);
    if (!in_range(s)) std::abort();
    for (const std::string& m : s.url.messages()) {
        if (m.size() > 600 || !lb::is_valid_utf8(m)) std::abort();
        for (char c : m)
            if (static_cast<unsigned char>(c) < 0x20) std::abort();
    }
    lb::test::UrlSettings again;
    again.url.read(s.url.query());
    if (!again.url.messages().empty() || again.url.query() != s.url.query()) std::abort();
    return 0;
}
