// core/text/deflate.cpp — see deflate.h. zlib does the compressing both ways; this file sets it to
// raw DEFLATE, bounds what either direction may write, and turns zlib's refusals into InflateError.
// base64url is written from RFC 4648.
#include "text/deflate.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <optional>

#include "text/text.h"

namespace lb {

namespace {

// Negative window bits: raw DEFLATE (no zlib header, no checksum) over the largest window, 32 KiB.
constexpr int raw_window_bits = -15;
// zlib's largest hash tables (memLevel 9, 256 KiB): the match finder sees more of the window.
constexpr int most_memory = 9;

// zlib counts bytes in 32-bit unsigned ints; half that keeps every sum below the wrap.
constexpr size_t zlib_max_bytes = size_t(UINT32_MAX / 2);

Bytef* bytes_in(std::string_view s) { return reinterpret_cast<Bytef*>(const_cast<char*>(s.data())); }
Bytef* bytes_out(std::string& s, size_t at) { return reinterpret_cast<Bytef*>(s.data()) + at; }

}  // namespace

std::optional<std::string> deflate_raw_within(std::string_view data, size_t max_bytes) {
    if (data.size() > zlib_max_bytes) throw std::length_error("deflate_raw: more than 2 GiB at once");
    z_stream z{};
    if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, raw_window_bits, most_memory, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::bad_alloc();
    // One byte more than the limit: zlib says Z_STREAM_END only with room left after the last byte,
    // and a stream that fills that byte is longer than the limit. zlib stops when the room is full,
    // so a task far too large for a link is not compressed to its end.
    const size_t room = std::min(max_bytes, size_t(deflateBound(&z, uLong(data.size())))) + 1;
    std::string out(room, '\0');
    z.next_in = bytes_in(data);
    z.avail_in = uInt(data.size());
    z.next_out = bytes_out(out, 0);
    z.avail_out = uInt(room);
    const int result = deflate(&z, Z_FINISH);
    const size_t written = z.total_out;
    deflateEnd(&z);
    if (result != Z_STREAM_END || written > max_bytes) return std::nullopt;
    out.resize(written);
    return out;
}

std::string deflate_raw(std::string_view data) { return *deflate_raw_within(data, SIZE_MAX); }

namespace {

[[noreturn]] void refuse(const std::string& why) { throw InflateError(why); }

std::string bytes_text(size_t n) { return grouped(long(n)) + (n == 1 ? " byte" : " bytes"); }

// inflateEnd however the decompression leaves: its state holds the 32 KiB window.
struct Inflating {
    z_stream z{};
    Inflating() {
        if (inflateInit2(&z, raw_window_bits) != Z_OK) throw std::bad_alloc();
    }
    ~Inflating() { inflateEnd(&z); }
    Inflating(const Inflating&) = delete;
    Inflating& operator=(const Inflating&) = delete;
};

}  // namespace

std::string inflate_raw(std::string_view compressed, size_t max_output) {
    if (compressed.size() > zlib_max_bytes) refuse("the compressed data is larger than 2 GiB");
    const size_t most = std::min(max_output, zlib_max_bytes);
    Inflating inflating;
    z_stream& z = inflating.z;
    z.next_in = bytes_in(compressed);
    z.avail_in = uInt(compressed.size());
    // The output grows as it fills, to at most one byte past the limit: a stream that writes that
    // byte holds more than the limit allows, and is refused before any more is made of it.
    std::string out;
    for (;;) {
        const size_t written = z.total_out;
        if (written > most) refuse("it decompresses to more than " + bytes_text(max_output));
        if (written == out.size()) out.resize(std::min(std::max(2 * out.size(), size_t(4096)), most + 1));
        z.next_out = bytes_out(out, written);
        z.avail_out = uInt(out.size() - written);
        const int result = inflate(&z, Z_NO_FLUSH);
        if (result == Z_STREAM_END) break;
        if (result == Z_DATA_ERROR) refuse(std::string("the compressed data is not DEFLATE: ") + (z.msg ? z.msg : "?"));
        if (result == Z_MEM_ERROR) throw std::bad_alloc();
        // Z_OK or Z_BUF_ERROR: zlib stopped with room left only because the input ran out.
        if (z.avail_out > 0) refuse("the compressed data ends too early");
    }
    if (z.total_out > most) refuse("it decompresses to more than " + bytes_text(max_output));
    if (z.avail_in > 0) refuse(bytes_text(z.avail_in) + " left over after the final block");
    out.resize(z.total_out);
    return out;
}
// --- base64url -----------------------------------------------------------------------------

namespace {

constexpr char base64url_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int base64url_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-') return 62;
    if (c == '_') return 63;
    return -1;
}

std::string character_at(std::string_view text, size_t i) {
    return describe_char(text, i, utf8_char_length(text, i)) + " at position " + std::to_string(i + 1);
}

}  // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() * 4 + 2) / 3);
    uint32_t buffer = 0;
    int held = 0;
    for (char c : bytes) {
        buffer = buffer << 8 | uint8_t(c);
        held += 8;
        while (held >= 6) {
            held -= 6;
            out += base64url_alphabet[(buffer >> held) & 63];
        }
    }
    if (held > 0) out += base64url_alphabet[(buffer << (6 - held)) & 63];  // unused low bits are 0
    return out;
}

std::string base64url_decode(std::string_view text) {
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '=')
            throw std::invalid_argument("base64url: " + character_at(text, i) + ": padding is not used here");
        if (base64url_value(text[i]) < 0)
            throw std::invalid_argument("base64url: " + character_at(text, i) +
                                        " is not one of A-Z, a-z, 0-9, '-' or '_'");
    }
    if (text.size() % 4 == 1)
        throw std::invalid_argument("base64url: " + character_at(text, text.size() - 1) +
                                    " is one too many (a length one more than a multiple of 4 never encodes "
                                    "whole bytes)");
    std::string out;
    out.reserve(text.size() * 3 / 4);
    uint32_t buffer = 0;
    int held = 0;
    for (char c : text) {
        buffer = (buffer << 6 | uint32_t(base64url_value(c))) & 0xfff;  // at most 12 bits are ever needed
        held += 6;
        if (held >= 8) {
            held -= 8;
            out += char((buffer >> held) & 0xff);
        }
    }
    if ((buffer & ((1u << held) - 1)) != 0)
        throw std::invalid_argument("base64url: " + character_at(text, text.size() - 1) +
                                    " sets bits past the end of the data (an encoder leaves them zero)");
    return out;
}

}  // namespace lb
