// Fuzz target: raw DEFLATE and base64url (text/deflate.h), what a crafted page link reaches. zlib
// inflates, compiled from its sources with the fuzzer's coverage (CMakeLists.txt); what is fuzzed
// is what deflate.cpp puts around it, the output limit and the refusals. The contract: the input as a compressed stream either inflates to at most 65,536 bytes or is
// refused with an InflateError whose message is short, printable ASCII; the input as plain bytes
// compresses and comes back exactly with the output limit at its own size, and comes back from
// base64url; the input as base64url text is refused with std::invalid_argument or decodes to
// bytes that encode to the same text (one text per byte string).
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "text/deflate.h"

namespace {

void check_message(const char* what) {
    const std::string m = what;
    if (m.empty() || m.size() > 200) std::abort();
    for (char c : m)
        if (c < 0x20 || c > 0x7e) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string input(reinterpret_cast<const char*>(data), size);

    try {
        if (lb::inflate_raw(input, 1 << 16).size() > (1 << 16)) std::abort();
    } catch (const lb::InflateError& e) {
        check_message(e.what());
    }

    const std::string compressed = lb::deflate_raw(input);
    if (lb::inflate_raw(compressed, input.size()) != input) std::abort();

    if (lb::base64url_decode(lb::base64url_encode(input)) != input) std::abort();
    try {
        if (lb::base64url_encode(lb::base64url_decode(input)) != input) std::abort();
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
