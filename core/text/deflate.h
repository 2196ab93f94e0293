// core/text/deflate.h — raw DEFLATE (RFC 1951) both ways, and base64url (RFC 4648 §5), so a
// reader's task can travel compressed inside a page URL. The page module has no zlib, so these
// are the project's own; anyone can craft a link, so decoding treats every byte as hostile.
#pragma once
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lb {

// Raw DEFLATE (RFC 1951, no zlib or gzip header): LZ77 over a 32 KiB window with hash chains
// and lazy matching and, per block, whichever of dynamic Huffman, fixed Huffman or stored is
// smallest. Deterministic: the same input gives the same bytes on every machine (wasm and
// native), since nothing depends on the standard library's sort order or on floating point.
std::string deflate_raw(std::string_view data);
// The same stream, or nothing if it is longer than max_bytes: compression stops as soon as its
// output passes that, so a long input is not compressed to the end only to be refused.
std::optional<std::string> deflate_raw_within(std::string_view data, size_t max_bytes);

// A refusal of compressed data: what() is a short message in plain English, printable ASCII
// ("the compressed data ends too early", "it decompresses to more than 65,536 bytes").
struct InflateError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The bytes a raw DEFLATE stream holds. Throws InflateError for anything that is not one
// complete stream: it never reads past the input, never holds more than max_output bytes
// (checked before the output grows), never loops without consuming input, and refuses bytes
// left over after the final block (the bits that pad its last byte are not looked at).
std::string inflate_raw(std::string_view compressed, size_t max_output);

// RFC 4648 §5 base64url ('-' and '_' for 62 and 63) WITHOUT '=' padding.
std::string base64url_encode(std::string_view bytes);
// The bytes base64url_encode would have written `text` from, or std::invalid_argument naming
// the offending character and its position (counted from 1): '=' padding, any character outside
// the alphabet, a length that leaves one character over (len % 4 == 1), and a last character
// whose unused low bits are not zero. Only the encoder's own form is accepted, so every text
// decodes to one byte string and back to the same text.
std::string base64url_decode(std::string_view text);

}  // namespace lb
