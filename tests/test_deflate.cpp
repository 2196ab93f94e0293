// Raw DEFLATE by zlib, and base64url (text/deflate.h). zlib does the compressing; what is checked
// here is what the project asks of it: raw streams (no header) at zlib's best compression, the
// limits on either output, and every refusal an InflateError in words. Checked against streams
// assembled by hand from RFC 1951's bit layout, RFC 4648's test vectors, and hostile streams
// each refused for its reason (zlib's words after ours).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "text/deflate.h"

using namespace lb;

namespace {

// splitmix64: the same numbers on every machine (std's distributions are not).
struct Random {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return uint32_t(next() % n); }
};

std::string random_bytes(size_t n, uint64_t seed) {
    Random r{seed};
    std::string s(n, '\0');
    for (char& c : s) c = char(r.next() & 0xff);
    return s;
}

// A vocabulary of made-up words (letters drawn by English frequency) used Zipf-style (word k
// about 1/(k+1) as often as the first), in sentences with capitals, commas and full stops.
std::vector<std::string> vocabulary(Random& r, int words) {
    const std::string letters = "eeeeeeeeeeeetttttttttaaaaaaaaooooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrr"
                                "ddddllllcccuuummmwwffggyyppbbvkjxqz";
    std::vector<std::string> v;
    for (int k = 0; k < words; ++k) {
        std::string w;
        for (uint32_t n = 1 + r.below(3) + r.below(4) + r.below(3); n > 0; --n)
            w += letters[r.below(uint32_t(letters.size()))];
        v.push_back(w);
    }
    return v;
}

struct Zipf {
    std::vector<uint64_t> cumulative;
    explicit Zipf(size_t n) {
        uint64_t total = 0;
        for (size_t k = 0; k < n; ++k) cumulative.push_back(total += 1000000 / (k + 1));
    }
    size_t pick(Random& r) const {
        const uint64_t x = r.next() % cumulative.back();
        return size_t(std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin());
    }
};

std::string english_like(size_t bytes, uint64_t seed) {
    Random r{seed};
    const std::vector<std::string> words = vocabulary(r, 3000);
    const Zipf zipf(words.size());
    std::string text;
    while (text.size() < bytes) {
        const uint32_t n = 4 + r.below(16);
        for (uint32_t i = 0; i < n; ++i) {
            std::string w = words[zipf.pick(r)];
            if (i == 0) w[0] = char(w[0] - 'a' + 'A');
            text += w;
            text += i + 1 == n ? ". " : r.below(8) == 0 ? ", " : " ";
        }
        if (r.below(6) == 0) text += "\n";
    }
    text.resize(bytes);
    return text;
}

// A reader's task as JSON might carry it: rows of an input phrase, its reversal and an id.
std::string json_like(size_t rows, uint64_t seed) {
    Random r{seed};
    const std::vector<std::string> words = vocabulary(r, 500);
    const Zipf zipf(words.size());
    std::string text = "{\"task\":\"reversal\",\"pairs\":[";
    for (size_t i = 0; i < rows; ++i) {
        std::vector<std::string> phrase;
        for (uint32_t n = 1 + r.below(5); n > 0; --n) phrase.push_back(words[zipf.pick(r)]);
        std::string input = phrase.front(), target = phrase.back();
        for (size_t k = 1; k < phrase.size(); ++k) {
            input.append(" ").append(phrase[k]);
            target.append(" ").append(phrase[phrase.size() - 1 - k]);
        }
        if (i > 0) text += ',';
        text.append("{\"id\":").append(std::to_string(i)).append(",\"input\":\"").append(input);
        text.append("\",\"target\":\"").append(target).append("\"}");
    }
    return text + "]}";
}

// Letters a-p in an order where every three-letter sequence occurs once (a de Bruijn sequence,
// built greedily: append the latest letter whose triple is new, starting from "aa"). No match
// of 3 bytes exists in it, yet 16 letters code in 4 bits: a dynamic block without distances.
std::string every_triple_once() {
    std::string s = "aa";
    std::set<std::string> seen;
    for (;;) {
        char next = 0;
        for (char c = 'p'; c >= 'a' && !next; --c)
            if (!seen.count(s.substr(s.size() - 2) + c)) next = c;
        if (!next) return s;
        seen.insert(s.substr(s.size() - 2) + next);
        s += next;
    }
}

struct Input {
    const char* name;
    std::string data;
};

const std::vector<Input>& inputs() {
    static const std::vector<Input> all = [] {
        std::vector<Input> v;
        v.push_back({"empty", ""});
        v.push_back({"one byte", "x"});
        v.push_back({"100,000 a's", std::string(100000, 'a')});
        v.push_back({"100 KB of random bytes", random_bytes(100000, 7)});
        v.push_back({"300 KB of English-like text", english_like(300000, 11)});
        std::string every_byte;
        for (int k = 0; k < 300; ++k)
            for (int b = 0; b < 256; ++b) every_byte += char(b);
        v.push_back({"bytes 0..255 repeated", every_byte});
        // Random, then the same 32,768 bytes twice more: the only matches are 258 bytes long and
        // exactly 32,768 back, the farthest a distance reaches.
        const std::string block = random_bytes(32768, 3);
        v.push_back({"32 KiB of random bytes three times", block + block + block});
        v.push_back({"JSON-like rows", json_like(4000, 5)});
        const std::string triples = every_triple_once();
        v.push_back({"every triple once", triples});
        // The same again at one distance (4,098 back): one distance code of one bit.
        v.push_back({"every triple once, twice", triples + triples});
        return v;
    }();
    return all;
}

// Bits in DEFLATE's order (RFC 1951 §3.1.1): bytes fill from their least significant bit;
// numbers (header fields, extra bits) go least significant bit first, Huffman codes most
// significant bit first.
struct Bits {
    std::string bytes;
    int used = 8;  // bits used in the last byte
    void bit(int b) {
        if (used == 8) bytes += '\0', used = 0;
        bytes.back() = char(uint8_t(bytes.back()) | (b << used++));
    }
    Bits& number(uint32_t value, int n) {
        for (int i = 0; i < n; ++i) bit((value >> i) & 1);
        return *this;
    }
    Bits& code(uint32_t code, int n) {
        for (int i = n - 1; i >= 0; --i) bit((code >> i) & 1);
        return *this;
    }
};

std::string bytes_of(std::initializer_list<int> values) {
    std::string s;
    for (int v : values) s += char(v);
    return s;
}

// The start of a dynamic block (final) whose code-length code gives `lengths` (in RFC order:
// 16, 17, 18, 0, 8, ...), for HLIT+257 literal/length and HDIST+1 distance codes.
Bits dynamic_header(int hlit, int hdist, std::vector<int> lengths) {
    Bits b;
    b.number(1, 1).number(2, 2).number(hlit, 5).number(hdist, 5).number(uint32_t(lengths.size() - 4), 4);
    for (int l : lengths) b.number(l, 3);
    return b;
}


}  // namespace

// --- round trips and what RFC 1951 lays down -----------------------------------------------

TEST_CASE("deflate: every input comes back from inflate, with the output limit at its size") {
    for (const Input& in : inputs()) {
        CAPTURE(in.name);
        const std::string compressed = deflate_raw(in.data);
        CHECK(inflate_raw(compressed, in.data.size()) == in.data);
    }
}

TEST_CASE("deflate within a size: the stream when it fits, nothing when it is a byte longer") {
    for (const Input& in : inputs()) {
        CAPTURE(in.name);
        const std::string whole = deflate_raw(in.data);
        CHECK(deflate_raw_within(in.data, whole.size()) == whole);
        CHECK_FALSE(deflate_raw_within(in.data, whole.size() - 1).has_value());
    }
    // Refused from its first block on: 2 MB of random bytes against a link's 6,000.
    CHECK_FALSE(deflate_raw_within(random_bytes(2 << 20, 4), 6000).has_value());
}

TEST_CASE("deflate: runs become matches, and small alphabets use dynamic codes") {
    const auto& all = inputs();
    auto size_of = [&](const char* name) {
        for (const Input& in : all)
            if (std::string(in.name) == name) return deflate_raw(in.data).size();
        FAIL("no input " << name);
        return size_t(0);
    };
    // Random bytes do not compress: stored blocks, each 5 bytes of header (RFC 1951 §3.2.4) for at
    // most 65,535 bytes, or a little more (zlib closes a block each 32,768 tokens at its largest
    // hash tables: 100,000 bytes in four blocks, 20 bytes of headers).
    CHECK(size_of("100 KB of random bytes") <= 100000 + 4 * 5);
    // A copy 4,098 back (every triple once, twice) is matched; one 32,768 back is out of zlib's
    // reach (its window keeps 262 bytes for lookahead), so the three random copies stay stored.
    // 4,098 letters of 16: stored or fixed would take 4,098 bytes or more, dynamic 4 bits a letter.
    CHECK(size_of("every triple once") < 2200);
    CHECK(size_of("every triple once, twice") < 2250);  // the copy is matched (16 tokens)
    CHECK(every_triple_once().size() == 16 * 16 * 16 + 2);
    CHECK(size_of("100,000 a's") < 400);  // matches of 258: runs are cut into the longest length
}

TEST_CASE("inflate: a stored block written byte by byte (RFC 1951 §3.2.4)") {
    // BFINAL 1, BTYPE 00, five bits of padding; LEN 5 and NLEN its complement, little-endian.
    const std::string stored = bytes_of({0x01, 0x05, 0x00, 0xfa, 0xff}) + "hello";
    CHECK(inflate_raw(stored, 5) == "hello");
    // Two blocks, the first not final and empty (LEN 0, NLEN 0xffff).
    CHECK(inflate_raw(bytes_of({0x00, 0x00, 0x00, 0xff, 0xff}) + stored, 100) == "hello");
    // A stored block that is not final, then the fixed block for "a" of the next test.
    CHECK(inflate_raw(bytes_of({0x00, 0x05, 0x00, 0xfa, 0xff}) + "hello" + bytes_of({0x4b, 0x04, 0x00}), 6) == "helloa");
}

TEST_CASE("inflate: the fixed-Huffman block for \"a\", assembled bit by bit (RFC 1951 §3.2.6)") {
    // BFINAL 1, BTYPE 01 (sent low bit first: 1, 0). 'a' (97) is in 0..143, whose 8-bit codes
    // start at 00110000: 0x30 + 0x61 = 0x91 = 10010001. End of block (256) is 0000000 (7 bits).
    // In order: 1 1 0 | 1 0 0 1 0 0 0 1 | 0 0 0 0 0 0 0, bytes filled from their low bit:
    // byte 0 = bits 0..7 = 1,1,0,1,0,0,1,0 = 0x4b; byte 1 = 0,0,1,0,0,0,0,0 = 0x04; byte 2 = 0.
    Bits b;
    b.number(1, 1).number(1, 2).code(0x91, 8).code(0, 7);
    const std::string expected = bytes_of({0x4b, 0x04, 0x00});
    CHECK(b.bytes == expected);
    CHECK(inflate_raw(expected, 1) == "a");
    CHECK(deflate_raw("a") == expected);  // zlib too writes the cheapest, the fixed block: 18 bits
    // Nothing: one fixed block holding only end of block, 1 1 0 0000000.
    CHECK(deflate_raw("") == bytes_of({0x03, 0x00}));
    CHECK(inflate_raw(bytes_of({0x03, 0x00}), 0) == "");
}

TEST_CASE("inflate: a dynamic block assembled by hand, with a single one-bit distance code") {
    // "ab" then 4 bytes from 2 back: "ababab". Literal/length codes: 'a', 'b', 256 (end) and
    // 258 (length 4), two bits each (00, 01, 10, 11 in symbol order); distance code 1
    // (distance 2) is the only one, one bit (0), as RFC 1951 §3.2.7 allows.
    // HLIT 259 (field 2), HDIST 2 (field 1). The lengths, 261 of them: 97 zeros, 2, 2, 157 zeros,
    // 2, 0, 2 | 0, 1. Code-length symbols used: 0, 1, 2 and 18 (11-138 zeros), two bits each:
    // 00, 01, 10, 11. HCLEN: symbol 1 is 18th in RFC order, so 18 lengths (field 14).
    //                                 16 17 18 0  8  7  9  6  10 5  11 4  12 3  13 2  14 1
    Bits b = dynamic_header(2, 1, {0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2});
    auto zeros = [&](int n) { b.code(3, 2).number(uint32_t(n - 11), 7); };
    zeros(97);
    b.code(2, 2).code(2, 2);  // 'a', 'b'
    zeros(138), zeros(19);
    b.code(2, 2).code(0, 2).code(2, 2);  // 256, 257 (unused), 258
    b.code(0, 2).code(1, 2);             // distance codes 0 (unused) and 1
    Bits data = b;
    data.code(0, 2).code(1, 2).code(3, 2).code(0, 1).code(2, 2);  // a, b, length 4, distance 2, end
    CHECK(inflate_raw(data.bytes, 6) == "ababab");
    // The one-bit code's other value, 1, is no code.
    Bits other = b;
    other.code(0, 2).code(1, 2).code(3, 2).code(1, 1).code(2, 2);
    CHECK_THROWS_WITH_AS(inflate_raw(other.bytes, 100), "the compressed data is not DEFLATE: invalid distance code",
                         InflateError);
}

// --- hostile streams ---------------------------------------------------------------------

TEST_CASE("inflate: a stream cut short anywhere ends too early") {
    std::vector<std::string> streams = {
        bytes_of({0x01, 0x05, 0x00, 0xfa, 0xff}) + "hello",  // stored
        deflate_raw("a short sentence, in one fixed block"),
        deflate_raw(english_like(3000, 2)),  // dynamic
        deflate_raw(random_bytes(600, 9)),  // stored
    };
    // Three blocks: stored and not final, fixed and not final, and the fixed one for "a".
    Bits three;
    three.number(0, 1).number(1, 2).code(0x91, 8).code(0x92, 8).code(0, 7);  // "ab", fixed
    three.number(1, 1).number(1, 2).code(0x91, 8).code(0, 7);                // "a", fixed, final
    streams.push_back(bytes_of({0x00, 0x05, 0x00, 0xfa, 0xff}) + "hello" + three.bytes);
    REQUIRE(inflate_raw(streams.back(), 8) == "helloaba");
    for (const std::string& stream : streams) {
        REQUIRE_NOTHROW(inflate_raw(stream, 10000));
        CHECK(inflate_raw(stream, 10000) != "");
        int wrong = 0;
        for (size_t cut = 0; cut < stream.size(); ++cut) {
            try {
                inflate_raw(stream.substr(0, cut), 10000);
                ++wrong;
            } catch (const InflateError& e) {
                if (std::string(e.what()) != "the compressed data ends too early") ++wrong;
            }
        }
        CAPTURE(stream.size());
        CHECK(wrong == 0);
    }
}

TEST_CASE("inflate: the output limit is exact, checked before the output grows") {
    const std::string a = deflate_raw(std::string(100000, 'a'));
    CHECK(inflate_raw(a, 100000).size() == 100000);
    CHECK_THROWS_WITH_AS(inflate_raw(a, 99999), "it decompresses to more than 99,999 bytes", InflateError);
    const std::string text = english_like(70000, 1);
    const std::string t = deflate_raw(text);
    CHECK(inflate_raw(t, 70000) == text);
    CHECK_THROWS_WITH_AS(inflate_raw(t, 65536), "it decompresses to more than 65,536 bytes", InflateError);
    const std::string stored = bytes_of({0x01, 0x05, 0x00, 0xfa, 0xff}) + "hello";
    CHECK_THROWS_WITH_AS(inflate_raw(stored, 4), "it decompresses to more than 4 bytes", InflateError);
    CHECK_THROWS_WITH_AS(inflate_raw(deflate_raw("a"), 0), "it decompresses to more than 0 bytes", InflateError);
}

TEST_CASE("inflate: block headers and stored lengths that cannot be") {
    CHECK_THROWS_WITH_AS(inflate_raw(bytes_of({0x07}), 100), "the compressed data is not DEFLATE: invalid block type",
                         InflateError);  // 1, 11
    CHECK_THROWS_WITH_AS(inflate_raw(bytes_of({0x06}), 100), "the compressed data is not DEFLATE: invalid block type",
                         InflateError);  // 0, 11
    // LEN 5, NLEN not its complement.
    CHECK_THROWS_WITH_AS(inflate_raw(bytes_of({0x01, 0x05, 0x00, 0xfb, 0xff}) + "hello", 100),
                         "the compressed data is not DEFLATE: invalid stored block lengths", InflateError);
    CHECK_THROWS_WITH_AS(inflate_raw("", 100), "the compressed data ends too early", InflateError);
    CHECK_THROWS_WITH_AS(inflate_raw(bytes_of({0x01, 0x05, 0x00, 0xfa, 0xff}) + "hel", 100),
                         "the compressed data ends too early", InflateError);
    const std::string a = deflate_raw("a");
    CHECK_THROWS_WITH_AS(inflate_raw(a + "x", 100), "1 byte left over after the final block", InflateError);
    CHECK_THROWS_WITH_AS(inflate_raw(a + a, 100), "3 bytes left over after the final block", InflateError);
}

TEST_CASE("inflate: fixed-block codes that point nowhere") {
    // Length 3 (code 257: 0000001) at distance 1 (distance code 0: 00000) with nothing before it.
    Bits first;
    first.number(1, 1).number(1, 2).code(1, 7).code(0, 5).code(0, 7);
    CHECK_THROWS_WITH_AS(inflate_raw(first.bytes, 100), "the compressed data is not DEFLATE: invalid distance too far back",
                         InflateError);
    // 'a', then distance code 1 (distance 2) with one byte out.
    Bits second;
    second.number(1, 1).number(1, 2).code(0x91, 8).code(1, 7).code(1, 5).code(0, 7);
    CHECK_THROWS_WITH_AS(inflate_raw(second.bytes, 100), "the compressed data is not DEFLATE: invalid distance too far back",
                         InflateError);
    // Length code 286 (8 bits from 11000000 for 280: 11000110) exists in the fixed code only.
    Bits length;
    length.number(1, 1).number(1, 2).code(0xc6, 8);
    CHECK_THROWS_WITH_AS(inflate_raw(length.bytes, 100), "the compressed data is not DEFLATE: invalid literal/length code",
                         InflateError);
    // Distance code 30 (11110) likewise.
    Bits distance;
    distance.number(1, 1).number(1, 2).code(0x91, 8).code(1, 7).code(30, 5);
    CHECK_THROWS_WITH_AS(inflate_raw(distance.bytes, 100), "the compressed data is not DEFLATE: invalid distance code",
                         InflateError);
}

TEST_CASE("inflate: dynamic-block tables that are not prefix codes, or do not fit") {
    // Code-length code (RFC order 16, 17, 18, 0): three codes of one bit cannot all exist.
    CHECK_THROWS_WITH_AS(inflate_raw(dynamic_header(0, 0, {1, 1, 1, 0}).bytes, 100),
                         "the compressed data is not DEFLATE: invalid code lengths set", InflateError);
    // One bit and two bits leave a quarter of the codes unused.
    CHECK_THROWS_WITH_AS(inflate_raw(dynamic_header(0, 0, {1, 2, 0, 0}).bytes, 100),
                         "the compressed data is not DEFLATE: invalid code lengths set", InflateError);
    // 287 literal/length codes, and 31 distance codes: more than either alphabet has.
    CHECK_THROWS_WITH_AS(inflate_raw(dynamic_header(30, 0, {1, 0, 0, 1}).bytes, 100),
                         "the compressed data is not DEFLATE: too many length or distance symbols", InflateError);
    CHECK_THROWS_WITH_AS(inflate_raw(dynamic_header(0, 30, {1, 0, 0, 1}).bytes, 100),
                         "the compressed data is not DEFLATE: too many length or distance symbols", InflateError);
    // Symbols 0 (code 0) and 16 (code 1): a repeat first has nothing to repeat.
    Bits repeat = dynamic_header(0, 0, {1, 0, 0, 1});
    repeat.code(1, 1).number(0, 2);
    CHECK_THROWS_WITH_AS(inflate_raw(repeat.bytes, 100), "the compressed data is not DEFLATE: invalid bit length repeat",
                         InflateError);
    // Symbols 0 (code 0) and 18 (code 1): 138 + 138 zeros overrun 257 + 1 lengths.
    Bits overrun = dynamic_header(0, 0, {0, 0, 1, 1});
    overrun.code(1, 1).number(127, 7).code(1, 1).number(127, 7);
    CHECK_THROWS_WITH_AS(inflate_raw(overrun.bytes, 100), "the compressed data is not DEFLATE: invalid bit length repeat",
                         InflateError);
    // 138 + 120 zeros fit exactly, but leave end of block without a code.
    Bits no_end = dynamic_header(0, 0, {0, 0, 1, 1});
    no_end.code(1, 1).number(127, 7).code(1, 1).number(109, 7);
    CHECK_THROWS_WITH_AS(inflate_raw(no_end.bytes, 100), "the compressed data is not DEFLATE: invalid code -- missing end-of-block",
                         InflateError);
    // Literal/length codes 0 and 256 of two bits each: half the codes unused. Code-length
    // symbols 0 (0), 2 (10) and 18 (11); symbol 2 is 16th in RFC order.
    //                                     16 17 18 0  8  7  9  6  10 5  11 4  12 3  13 2
    Bits incomplete = dynamic_header(0, 0, {0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
    incomplete.code(2, 2).code(3, 2).number(127, 7).code(3, 2).number(106, 7).code(2, 2).code(0, 1);
    CHECK_THROWS_WITH_AS(inflate_raw(incomplete.bytes, 100), "the compressed data is not DEFLATE: invalid literal/lengths set",
                         InflateError);
    // The same literal 0 and end of block with one bit each, and no distance code (one length
    // of zero, RFC 1951 §3.2.7): valid for literals, refused once a length code asks for a distance.
    // Code-length symbols 0 (0), 1 (10), 18 (11): 1, 255 zeros, 1, one zero for the distances.
    Bits literals = dynamic_header(0, 0, {0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2});
    literals.code(2, 2).code(3, 2).number(127, 7).code(3, 2).number(106, 7).code(2, 2).code(0, 1);
    Bits valid = literals;
    valid.code(0, 1).code(0, 1).code(1, 1);  // two zero bytes, end of block
    CHECK(inflate_raw(valid.bytes, 2) == std::string(2, '\0'));
}

TEST_CASE("inflate: a match in a block without distance codes is refused") {
    // Literal/length codes 0, 256 and 257 (length 3): 1, 2 and 2 bits; no distance code.
    // Code-length symbols 0 (00), 1 (01), 2 (10), 18 (11).
    Bits b = dynamic_header(1, 0, {0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2});
    b.code(1, 2).code(3, 2).number(127, 7).code(3, 2).number(106, 7).code(2, 2).code(2, 2).code(0, 2);
    Bits match = b;
    match.code(0, 1).code(3, 2);  // literal 0, then length 3
    CHECK_THROWS_WITH_AS(inflate_raw(match.bytes, 100), "the compressed data is not DEFLATE: invalid distance code",
                         InflateError);
}

// --- base64url -----------------------------------------------------------------------------

TEST_CASE("base64url: RFC 4648 §10's test vectors, without padding") {
    const std::pair<const char*, const char*> vectors[] = {
        {"", ""},        {"f", "Zg"},          {"fo", "Zm8"},          {"foo", "Zm9v"},
        {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}};
    for (const auto& [bytes, text] : vectors) {
        CHECK(base64url_encode(bytes) == text);
        CHECK(base64url_decode(text) == bytes);
    }
    // 62 and 63 are '-' and '_' (RFC 4648 §5): 0xfb 0xff = 111110 111111 11(0000).
    CHECK(base64url_encode(bytes_of({0xfb, 0xff})) == "-_8");
    CHECK(base64url_decode("-_8") == bytes_of({0xfb, 0xff}));
}

TEST_CASE("base64url: all 256 byte values round trip") {
    std::string every;
    for (int b = 0; b < 256; ++b) every += char(b);
    for (size_t start = 0; start < 3; ++start) {  // each of the three alignments of a byte
        const std::string bytes = every.substr(start);
        const std::string text = base64url_encode(bytes);
        CHECK(text.size() == (bytes.size() * 4 + 2) / 3);
        CHECK(text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
              std::string::npos);
        CHECK(base64url_decode(text) == bytes);
    }
}

TEST_CASE("base64url: padding, other alphabets, impossible lengths and stray bits are refused") {
    CHECK_THROWS_WITH_AS(base64url_decode("Zg=="), "base64url: '=' at position 3: padding is not used here",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(base64url_decode("ab+c"),
                         "base64url: '+' at position 3 is not one of A-Z, a-z, 0-9, '-' or '_'", std::invalid_argument);
    CHECK_THROWS_WITH_AS(base64url_decode("/abc"),
                         "base64url: '/' at position 1 is not one of A-Z, a-z, 0-9, '-' or '_'", std::invalid_argument);
    CHECK_THROWS_WITH_AS(base64url_decode("Zm9v Yg"),
                         "base64url: ' ' at position 5 is not one of A-Z, a-z, 0-9, '-' or '_'", std::invalid_argument);
    CHECK_THROWS_WITH_AS(base64url_decode("Zm\xc3\xa9"),
                         "base64url: '\xc3\xa9' (U+00E9) at position 3 is not one of A-Z, a-z, 0-9, '-' or '_'",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(base64url_decode("Zm9vY"),
                         "base64url: 'Y' at position 5 is one too many (a length one more than a multiple of 4 never "
                         "encodes whole bytes)",
                         std::invalid_argument);
    CHECK_THROWS_AS(base64url_decode("A"), std::invalid_argument);
    CHECK_THROWS_AS(base64url_decode("Zm9vYmFyY"), std::invalid_argument);
    // 'Z' 'h' = 011001 100001: 'f' and four bits left over that are not zero.
    const std::string stray = " sets bits past the end of the data (an encoder leaves them zero)";
    const std::string zh = "base64url: 'h' at position 2" + stray, zm9 = "base64url: '9' at position 3" + stray;
    CHECK_THROWS_WITH_AS(base64url_decode("Zh"), zh.c_str(), std::invalid_argument);
    // 'Z' 'm' '9' = 011001 100110 111101: "fo" and two bits left over, 01.
    CHECK_THROWS_WITH_AS(base64url_decode("Zm9"), zm9.c_str(), std::invalid_argument);
}
