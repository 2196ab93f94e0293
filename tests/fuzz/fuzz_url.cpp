// Fuzz target: the page's URL table (web/runtime/url_state.h) reading a query. The contract: it
// never throws; a field keeps its default or takes a value its entry allows; every message is
// short, valid UTF-8 with no control byte; what the table writes reads back with no refusal.
#include <cstdlib>
#include <string>
#include <vector>

#include "text.h"
#include "url_state.h"

namespace {

enum class Pick { dot, general, additive };

struct Settings {
    int width = 64, seed = 1;
    Pick pick = Pick::additive;
    std::vector<double> point = {0.5, 0.25};
    bool live = false;
    std::string date = "monday 19 september 1977";
    lb::web::UrlTable url{"tr."};
    Settings() {
        url.integer_in("width", width, {8, 16, 32, 64})
            .integer("seed", seed, 0, 1000)
            .choice("pick", pick, {{"dot", Pick::dot}, {"general", Pick::general}, {"additive", Pick::additive}})
            .numbers("p", point, -1, 1)
            .flag("live", live)
            .text("date", date, 63);
    }
    bool in_range() const {
        return (width == 8 || width == 16 || width == 32 || width == 64) && seed >= 0 && seed <= 1000 &&
               point.size() == 2 && point[0] >= -1 && point[0] <= 1 && point[1] >= -1 && point[1] <= 1 &&
               date.size() <= 63 && lb::is_valid_utf8(date);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string query(reinterpret_cast<const char*>(data), size);
    Settings s;
    s.url.read(query);
    if (!s.in_range()) std::abort();
    for (const std::string& m : s.url.messages()) {
        if (m.size() > 600 || !lb::is_valid_utf8(m)) std::abort();
        for (char c : m)
            if (static_cast<unsigned char>(c) < 0x20) std::abort();
    }
    Settings again;
    again.url.read(s.url.query());
    if (!again.url.messages().empty() || again.url.query() != s.url.query()) std::abort();
    return 0;
}
