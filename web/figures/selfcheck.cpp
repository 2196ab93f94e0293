// web/figures/selfcheck.cpp — the self-check's computation questions, for the HTML block
// <section id="self-check"> (driven by web/page/lesson_selfcheck.js).
//
// The questions are HTML forms, not a canvas: radio buttons and text fields are what screen
// readers and keyboards handle best. The numbers and the checking stay in the core
// (core/lesson/selfcheck.h): two exported C functions ask for a fresh question of a kind and check a
// typed answer against it, and at start-up the module hands the page a small object,
// window.lookbackSelfCheck, that calls them (the event "lookback:selfcheck" says it is there).
#include <emscripten/emscripten.h>

#include <string>

#include <nlohmann/json.hpp>

#include "lesson/selfcheck.h"
#include "text/text.h"

namespace lb::web {
namespace {

// The questions on screen, one per kind, and the generator of their numbers.
struct SelfCheck {
    Rng rng;
    Question current[std::size(all_question_kinds)];
    bool asked[std::size(all_question_kinds)] = {};
};
SelfCheck self_check;

bool valid_kind(int kind) { return kind >= 0 && kind < int(std::size(all_question_kinds)); }

// Fresh numbers per page load: the seed comes from the browser's random source.
EM_JS(double, js_random_seed, (), {
    const words = new Uint32Array(2);
    crypto.getRandomValues(words);
    return words[0] * 2097152 + (words[1] >>> 11);  // 53 random bits, exact in a double
});

EM_JS(void, js_offer_selfcheck, (), {
    const call = (name, types, args) => JSON.parse(Module.ccall(name, "string", types, args));
    window.lookbackSelfCheck = Object.freeze({
        // {prompt, tolerance} of a fresh question of `kind` (0 context, 1 softmax entry, 2 dot, 3 bilinear, 4 scaled dot).
        ask: (kind) => call("lb_selfcheck_ask", ["number"], [kind]),
        // {valid, message} for unreadable input, else {valid, correct, answer, tolerance, working}.
        check: (kind, text) => call("lb_selfcheck_check", ["number", "string"], [kind, text]),
    });
    window.dispatchEvent(new Event("lookback:selfcheck"));
});

}  // namespace

void start_selfcheck() {
    self_check.rng.reseed(uint64_t(js_random_seed()));
    js_offer_selfcheck();
}

}  // namespace lb::web

using lb::web::self_check;

extern "C" {

// Both answer JSON and never throw into the page: whatever goes wrong becomes a message, and the
// text is valid UTF-8 whatever the reader typed.
EMSCRIPTEN_KEEPALIVE const char* lb_selfcheck_ask(int kind) {
    static std::string json;
    try {
        if (!lb::web::valid_kind(kind)) return json = "null", json.c_str();
        lb::Question& q = self_check.current[kind] = lb::make_question(lb::all_question_kinds[kind], self_check.rng);
        self_check.asked[kind] = true;
        json = nlohmann::json{{"prompt", q.prompt}, {"tolerance", q.tolerance}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    } catch (const std::exception& e) {
        json = nlohmann::json{{"error", lb::sanitize_utf8(e.what())}}.dump();
    }
    return json.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* lb_selfcheck_check(int kind, const char* text) {
    static std::string json;
    const auto dump = [](const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); };
    try {
        if (!lb::web::valid_kind(kind) || !self_check.asked[kind])
            return json = R"({"valid":false,"message":"Ask for a question first."})", json.c_str();
        std::string error;
        const std::optional<double> given = lb::parse_answer(text, error);
        if (!given) return json = dump({{"valid", false}, {"message", error}}), json.c_str();
        const lb::Question& q = self_check.current[kind];
        json = dump({{"valid", true},
                     {"correct", lb::is_correct(q, *given)},
                     {"answer", q.answer},
                     {"tolerance", q.tolerance},
                     {"working", q.working}});
    } catch (const std::exception& e) {
        json = dump({{"valid", false}, {"message", lb::sanitize_utf8(e.what())}});
    }
    return json.c_str();
}

}  // extern "C"
