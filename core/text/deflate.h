// core/text/deflate.h — raw DEFLATE (RFC 1951) both ways, by zlib, and base64url (RFC 4648 §5),
// so a reader's task can travel compressed inside a page URL. Anyone can craft a link, so
// decompression bounds its output and refuses anything but one whole stream, in words.
#pragma once
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lb {

// Raw DEFLATE (RFC 1951, no zlib or gzip header): zlib's level 9 with its largest hash tables.
// The same input gives the same bytes on wasm and natively, both builds having zlib 1.2.13.
std::string deflate_raw(std::string_view data);
// The same stream, or nothing if it is longer than max_bytes: compression stops once its output
// fills that room, so a long input is not compressed to the end only to be refused.
std::optional<std::string> deflate_raw_within(std::string_view data, size_t max_bytes);

// A refusal of compressed data: what() is a short message in plain English, printable ASCII
// ("the compressed data ends too early", "it decompresses to more than 65,536 bytes",
// "the compressed data is not DEFLATE: invalid block type", the last part zlib's words).
struct InflateError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

// The bytes a raw DEFLATE stream holds. Throws InflateError for anything that is not one
// complete stream: a stream cut short, one zlib finds invalid (a distance further back than the
// output, a code not in its table), more than max_output bytes of output (zlib is given room for
// one byte more, and a stream that fills it is refused), and bytes left over after the final block
// (the bits that pad its last byte are not looked at).
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
