// tests/url_settings.h — a figure's settings as a URL table sees them, one of each kind of entry,
// for the URL table's tests (test_url_state.cpp) and its fuzz target (fuzz/fuzz_url.cpp).
#pragma once
#include <string>
#include <vector>

#include "url_state.h"

namespace lb::test {

enum class Pick { dot, general, additive };

struct UrlSettings {
    static constexpr size_t date_bytes = 63;  // the alignment figure's field
    int width = 64, seed = 1;
    Pick pick = Pick::additive;
    std::vector<double> point = {0.5, 0.25};
    bool live = false;
    std::string date = "monday 19 september 1977";
    lb::web::UrlTable url{"tr."};
    UrlSettings() {
        url.integer_in("width", width, {8, 16, 32, 64})
            .integer("seed", seed, 0, 1000)
            .choice("pick", pick, {{"dot", Pick::dot}, {"general", Pick::general}, {"additive", Pick::additive}})
            .numbers("p", point, -1, 1)
            .flag("live", live)
            .text("date", date, date_bytes,
                  [](const std::string& t) { return t.find('!') == std::string::npos ? "" : "no '!' here"; });
    }
};

}  // namespace lb::test
