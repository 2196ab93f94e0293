// Fuzz target: the self-check's typed answers. The contract: parse_answer
// never throws (it is noexcept: an escape would terminate); a refusal has a
// short message, valid UTF-8 with no control byte; an accepted answer is a
// finite number made of what was typed.
#include <cmath>
#include <cstdlib>
#include <string>

#include "lesson/selfcheck.h"
#include "text/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const std::optional<double> answer = lb::parse_answer(text, error);
    if (!answer) {
        if (error.empty() || error.size() > 400 || !lb::is_valid_utf8(error)) std::abort();
        for (char c : error)
            if (static_cast<unsigned char>(c) < 0x20) std::abort();
        return 0;
    }
    if (std::isnan(*answer)) std::abort();  // digits can overflow to infinity, never NaN
    const lb::Question q{lb::QuestionKind::context, "", 0.5, 0.01, ""};
    (void)lb::is_correct(q, *answer);
    return 0;
}
