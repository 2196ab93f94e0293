// core/text/deflate.cpp — see deflate.h. Written from RFC 1951 (DEFLATE) and RFC 4648 (base64).
//
// Compression: LZ77 with hash chains and one step of lazy matching (a match is kept only if the
// next position does not start a longer one), cut into blocks of at most block_tokens tokens;
// each block is written in whichever of the three forms costs fewest bits, counted exactly.
// Dynamic codes are length-limited by package-merge, which is optimal for the limit.
//
// Decompression reads bit by bit from a reader that throws instead of reading past the input,
// and decodes canonical Huffman codes one bit at a time (count of codes per length): slower
// than a lookup table, but there is no table to overrun.
#include "text/deflate.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "text/text.h"

namespace lb {

namespace {

// --- RFC 1951 §3.2.5 and §3.2.7: the fixed tables ----------------------------------------

constexpr int max_code_bits = 15;        // literal/length and distance codes
constexpr int max_code_length_bits = 7;  // the code-length code
constexpr int litlen_symbols = 286;      // 0..255 literals, 256 end of block, 257..285 lengths
constexpr int distance_symbols = 30;
constexpr int end_of_block = 256;
constexpr int min_match = 3, max_match = 258;
constexpr size_t window = 32768;
constexpr size_t max_stored = 65535;  // LEN is 16 bits

constexpr std::array<uint16_t, 29> length_base = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,
                                                  15, 17, 19, 23, 27, 31, 35, 43, 51,  59,
                                                  67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr std::array<uint8_t, 29> length_extra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<uint16_t, 30> distance_base = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
constexpr std::array<uint8_t, 30> distance_extra = {0, 0, 0, 0, 1, 1, 2,  2,  3,  3,  4,  4,  5,  5,  6,
                                                    6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
// The order a dynamic block lists the code-length code's lengths in: likely ones first.
constexpr std::array<uint8_t, 19> code_length_order = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                       11, 4,  12, 3, 13, 2, 14, 1, 15};
// Extra bits after code-length symbols 16 (repeat the previous 3-6 times), 17 (3-10 zeros) and
// 18 (11-138 zeros).
constexpr int repeat_extra(int symbol) { return symbol == 16 ? 2 : symbol == 17 ? 3 : symbol == 18 ? 7 : 0; }

// The fixed code (§3.2.6): literal/length lengths 8, 9, 7, 8 by range; every distance 5 bits.
std::vector<uint8_t> fixed_litlen_lengths() {
    std::vector<uint8_t> lengths(288);
    for (int s = 0; s < 288; ++s) lengths[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    return lengths;
}
// 32 of them for decoding, so the code is complete; 30 and 31 never occur in valid data.
std::vector<uint8_t> fixed_distance_lengths() { return std::vector<uint8_t>(32, 5); }

int length_code(int length) {  // index into length_base; 258 has its own code (285), not 284's top
    int i = 28;
    while (length_base[i] > length) --i;
    return i;
}
int distance_code(int distance) {
    int i = 29;
    while (distance_base[i] > distance) --i;
    return i;
}

// --- compression -------------------------------------------------------------------------

class BitWriter {
public:
    // The low `bits` bits of value, least significant first (§3.1.1).
    void put(uint32_t value, int bits) {
        buffer_ |= uint64_t(value) << pending_;
        pending_ += bits;
        while (pending_ >= 8) {
            out_.push_back(char(buffer_ & 0xff));
            buffer_ >>= 8;
            pending_ -= 8;
        }
    }
    void align() {
        if (pending_ > 0) put(0, 8 - pending_);
    }
    int pending_bits() const { return pending_; }
    size_t bytes() const { return out_.size(); }  // whole bytes written so far
    std::string finish() {
        align();
        return std::move(out_);
    }

private:
    std::string out_;
    uint64_t buffer_ = 0;
    int pending_ = 0;
};

// Optimal code lengths of at most max_bits for the frequencies (0: the symbol gets no code), by
// package-merge: every used symbol is a coin of each denomination 2^-1 .. 2^-max_bits worth its
// frequency; the cheapest coins worth n-1 in all are taken, and a symbol's length is how many of
// its coins were. Ties break by symbol, so the lengths are the same on every standard library.
std::vector<uint8_t> limited_code_lengths(const std::vector<uint32_t>& freq, int max_bits) {
    std::vector<uint8_t> lengths(freq.size(), 0);
    std::vector<int> used;
    for (size_t s = 0; s < freq.size(); ++s)
        if (freq[s] > 0) used.push_back(int(s));
    if (used.size() == 1) lengths[used[0]] = 1;
    if (used.size() < 2) return lengths;
    std::sort(used.begin(), used.end(), [&](int a, int b) { return freq[a] != freq[b] ? freq[a] < freq[b] : a < b; });

    struct Item {
        uint64_t weight;
        int symbol;       // a coin: its symbol; a package: -1
        int left, right;  // a package: the two items it holds
    };
    std::vector<Item> items;
    std::vector<int> coins;  // the used symbols' coins of one denomination, cheapest first
    for (int s : used) {
        coins.push_back(int(items.size()));
        items.push_back({freq[s], s, -1, -1});
    }
    std::vector<int> list = coins;  // the smallest denomination: coins alone
    for (int level = 1; level < max_bits; ++level) {
        std::vector<int> packages;
        for (size_t k = 0; k + 1 < list.size(); k += 2) {
            packages.push_back(int(items.size()));
            items.push_back({items[list[k]].weight + items[list[k + 1]].weight, -1, list[k], list[k + 1]});
        }
        std::vector<int> merged;
        size_t c = 0, p = 0;
        while (c < coins.size() || p < packages.size()) {
            const bool take_coin = p == packages.size() ||
                                   (c < coins.size() && items[coins[c]].weight <= items[packages[p]].weight);
            merged.push_back(take_coin ? coins[c++] : packages[p++]);
        }
        list = std::move(merged);
    }
    std::vector<int> stack(list.begin(), list.begin() + (2 * used.size() - 2));
    while (!stack.empty()) {
        const Item& item = items[stack.back()];
        stack.pop_back();
        if (item.symbol >= 0) ++lengths[item.symbol];
        else stack.push_back(item.left), stack.push_back(item.right);
    }
    return lengths;
}

// Canonical codes for the lengths (§3.2.2), bit-reversed so BitWriter::put sends them most
// significant bit first as the format wants.
std::vector<uint16_t> canonical_codes(const std::vector<uint8_t>& lengths) {
    std::array<int, max_code_bits + 2> count{}, next{};
    for (uint8_t l : lengths) ++count[l];
    count[0] = 0;
    for (int bits = 1; bits <= max_code_bits; ++bits) next[bits] = (next[bits - 1] + count[bits - 1]) << 1;
    std::vector<uint16_t> codes(lengths.size(), 0);
    for (size_t s = 0; s < lengths.size(); ++s) {
        const int l = lengths[s];
        if (l == 0) continue;
        const int code = next[l]++;
        int reversed = 0;
        for (int b = 0; b < l; ++b) reversed |= ((code >> b) & 1) << (l - 1 - b);
        codes[s] = uint16_t(reversed);
    }
    return codes;
}

// One LZ77 token: a literal byte (distance 0) or a match of `value` bytes `distance` back.
struct Token {
    uint16_t value;
    uint16_t distance;
};

// How hard the match finder looks: zlib's level-9 settings, with a cap on the work in all.
constexpr int good_length = 32;   // a match this long already: look through a quarter of the chain
constexpr int lazy_length = 258;  // a match this long is taken without trying the next position
constexpr int nice_length = 258;  // a match this long ends the search
constexpr int max_chain = 4096;   // candidates looked at per position, at most
// A small alphabet (DNA, bits) fills every chain with short matches, and 4,096 candidates a
// position took 11 s on 2 MB of random 'a' and 'b'. So candidates are paid from an allowance that grows by
// this much per input byte (text and JSON use about 17 a byte), and min_chain are always free.
constexpr int64_t chain_allowance_per_byte = 24;
constexpr int min_chain = 8;
constexpr size_t far_distance = 4096;  // a 3-byte match further back costs more than its literals
constexpr int hash_bits = 15;

class MatchFinder {
public:
    explicit MatchFinder(std::string_view data)
        : data_(data), head_(size_t(1) << hash_bits, -1), previous_(window, -1) {}

    // Adds position p to its hash chain; returns the chain's previous head (-1: none).
    int32_t insert(size_t p) {
        if (p + min_match > data_.size()) return -1;
        const uint32_t h = hash(p);
        const int32_t before = head_[h];
        previous_[p % window] = before;
        head_[h] = int32_t(p);
        return before;
    }

    // The longest match for p among `chain` candidates starting at `candidate` (earlier positions
    // with the same hash, nearest first). Length 0 if none is worth a token.
    Token longest(size_t p, int32_t candidate, int chain, int& looked_at) const {
        const size_t limit = std::min<size_t>(max_match, data_.size() - p);
        size_t best = min_match - 1, best_distance = 0;
        looked_at = 0;
        if (limit < min_match) return {0, 0};
        for (looked_at = 0; candidate >= 0 && p - size_t(candidate) <= window && looked_at < chain; ++looked_at) {
            const size_t c = size_t(candidate);
            // The chain is a ring of one window: an entry older than that was overwritten, and
            // then points forward (or back to c itself) instead of back.
            const int32_t next = previous_[c % window];
            candidate = next < int32_t(c) ? next : -1;
            if (data_[c + best] != data_[p + best] || data_[c] != data_[p]) continue;
            const size_t n = common_length(c, p, limit);
            if (n > best) {
                best = n, best_distance = p - c;
                if (n >= size_t(nice_length) || n == limit) break;
            }
        }
        if (best < min_match || (best == min_match && best_distance > far_distance)) return {0, 0};
        return {uint16_t(best), uint16_t(best_distance)};
    }

private:
    uint32_t hash(size_t p) const {
        const uint32_t three = uint32_t(uint8_t(data_[p])) | uint32_t(uint8_t(data_[p + 1])) << 8 |
                               uint32_t(uint8_t(data_[p + 2])) << 16;
        return (three * 0x9e3779b1u) >> (32 - hash_bits);
    }

    // How many bytes from a and b (a < b) agree, up to limit; eight at a time while they all do.
    size_t common_length(size_t a, size_t b, size_t limit) const {
        size_t n = 0;
        for (; n + 8 <= limit; n += 8) {
            uint64_t x, y;
            std::memcpy(&x, data_.data() + a + n, 8);
            std::memcpy(&y, data_.data() + b + n, 8);
            if (x != y) break;
        }
        while (n < limit && data_[a + n] == data_[b + n]) ++n;
        return n;
    }

    std::string_view data_;
    std::vector<int32_t> head_;      // per hash: the latest position with it
    std::vector<int32_t> previous_;  // per position modulo the window: the one before it with the same hash
};

// The LZ77 parse, a block's tokens at a time, so compression can stop once its output is too
// long: the same tokens as parsing the whole input at once.
class Lz77 {
public:
    explicit Lz77(std::string_view data) : data_(data), finder_(data) {}

    bool done() const { return p_ >= data_.size() && !pending_; }

    // Appends up to max_count more tokens.
    void next(std::vector<Token>& tokens, size_t max_count) {
        const size_t stop = tokens.size() + max_count;
        auto literal = [&](size_t p) { tokens.push_back({uint8_t(data_[p]), 0}); };
        while (p_ < data_.size() && tokens.size() < stop) {
            allowance_ += chain_allowance_per_byte * int64_t(p_ + 1 - paid_to_);
            paid_to_ = p_ + 1;
            const int32_t candidate = finder_.insert(p_);
            Token current{0, 0};
            if (!(pending_ && previous_.value >= lazy_length)) {
                const int wanted = pending_ && previous_.value >= good_length ? max_chain / 4 : max_chain;
                int looked_at = 0;
                current = finder_.longest(p_, candidate, int(std::clamp<int64_t>(allowance_, min_chain, wanted)), looked_at);
                allowance_ = std::max<int64_t>(0, allowance_ - looked_at);
            }
            if (pending_ && previous_.value >= min_match && current.value <= previous_.value) {
                tokens.push_back(previous_);
                const size_t end = p_ - 1 + previous_.value;
                for (size_t q = p_ + 1; q < end; ++q) finder_.insert(q);
                p_ = end;
                pending_ = false;
                continue;
            }
            if (pending_) literal(p_ - 1);
            pending_ = true;
            previous_ = current;
            ++p_;
        }
        if (p_ >= data_.size() && pending_ && tokens.size() < stop) {
            literal(data_.size() - 1);  // a match there would have at most one byte
            pending_ = false;
        }
    }

private:
    std::string_view data_;
    MatchFinder finder_;
    bool pending_ = false;  // position p_-1 is decided only once p_ has been looked at
    Token previous_{0, 0};  // the match found at p_-1, while pending_
    int64_t allowance_ = 0;
    size_t p_ = 0, paid_to_ = 0;
};

// A dynamic block's code lengths as the header sends them: the code-length symbols (with their
// extra bits) that run-length encode the literal/length and distance lengths together.
struct CodeLengthSymbol {
    uint8_t symbol, extra;
};

std::vector<CodeLengthSymbol> run_length_encode(const std::vector<uint8_t>& lengths) {
    std::vector<CodeLengthSymbol> out;
    for (size_t i = 0; i < lengths.size();) {
        const uint8_t value = lengths[i];
        size_t run = 1;
        while (i + run < lengths.size() && lengths[i + run] == value) ++run;
        i += run;
        if (value == 0) {
            for (; run >= 11; ) {
                const size_t n = std::min<size_t>(run, 138);
                out.push_back({18, uint8_t(n - 11)});
                run -= n;
            }
            if (run >= 3) out.push_back({17, uint8_t(run - 3)}), run = 0;
        } else {
            out.push_back({value, 0}), --run;
            for (; run >= 3; ) {
                const size_t n = std::min<size_t>(run, 6);
                out.push_back({16, uint8_t(n - 3)});
                run -= n;
            }
        }
        for (; run > 0; --run) out.push_back({value, 0});
    }
    return out;
}

// Everything a block needs to be written in one form, and what that costs in bits.
struct Codes {
    std::vector<uint8_t> litlen_lengths, distance_lengths;
};

uint64_t data_bits(const Codes& codes, const std::vector<uint32_t>& litlen_freq,
                   const std::vector<uint32_t>& distance_freq) {
    uint64_t bits = 0;
    for (int s = 0; s < litlen_symbols; ++s)
        bits += uint64_t(litlen_freq[s]) * (codes.litlen_lengths[s] + (s > end_of_block ? length_extra[s - 257] : 0));
    for (int d = 0; d < distance_symbols; ++d)
        bits += uint64_t(distance_freq[d]) * (codes.distance_lengths[d] + distance_extra[d]);
    return bits;
}

struct DynamicHeader {
    int litlen_count = 0, distance_count = 0, code_length_count = 0;  // HLIT+257, HDIST+1, HCLEN+4
    std::vector<CodeLengthSymbol> symbols;
    std::vector<uint8_t> code_length_lengths;
    uint64_t bits = 0;  // the header after the 3 block-type bits
};

DynamicHeader dynamic_header(const Codes& codes) {
    DynamicHeader h;
    h.litlen_count = 257;
    for (int s = 257; s < litlen_symbols; ++s)
        if (codes.litlen_lengths[s]) h.litlen_count = s + 1;
    h.distance_count = 1;  // no distances at all: one distance code of zero bits (§3.2.7)
    for (int d = 0; d < distance_symbols; ++d)
        if (codes.distance_lengths[d]) h.distance_count = d + 1;
    std::vector<uint8_t> all(codes.litlen_lengths.begin(), codes.litlen_lengths.begin() + h.litlen_count);
    all.insert(all.end(), codes.distance_lengths.begin(), codes.distance_lengths.begin() + h.distance_count);
    h.symbols = run_length_encode(all);

    std::vector<uint32_t> freq(19, 0);
    for (const CodeLengthSymbol& c : h.symbols) ++freq[c.symbol];
    // The code-length code must be complete (decoders refuse one lone code): give it a second.
    int used = 0;
    for (uint32_t f : freq) used += f > 0;
    for (int s = 0; used < 2; ++s)
        if (freq[s] == 0) freq[s] = 1, ++used;
    h.code_length_lengths = limited_code_lengths(freq, max_code_length_bits);
    h.code_length_count = 4;
    for (int i = 0; i < 19; ++i)
        if (h.code_length_lengths[code_length_order[i]]) h.code_length_count = std::max(h.code_length_count, i + 1);

    h.bits = 5 + 5 + 4 + 3 * uint64_t(h.code_length_count);
    for (const CodeLengthSymbol& c : h.symbols) h.bits += h.code_length_lengths[c.symbol] + repeat_extra(c.symbol);
    return h;
}

void write_tokens(BitWriter& out, const Codes& codes, const Token* tokens, size_t count) {
    const std::vector<uint16_t> litlen = canonical_codes(codes.litlen_lengths);
    const std::vector<uint16_t> distance = canonical_codes(codes.distance_lengths);
    for (size_t i = 0; i < count; ++i) {
        const Token t = tokens[i];
        if (t.distance == 0) {
            out.put(litlen[t.value], codes.litlen_lengths[t.value]);
            continue;
        }
        const int lc = length_code(t.value), dc = distance_code(t.distance);
        out.put(litlen[257 + lc], codes.litlen_lengths[257 + lc]);
        out.put(t.value - length_base[lc], length_extra[lc]);
        out.put(distance[dc], codes.distance_lengths[dc]);
        out.put(t.distance - distance_base[dc], distance_extra[dc]);
    }
    out.put(litlen[end_of_block], codes.litlen_lengths[end_of_block]);
}

// One block: tokens[0, count) that stand for raw[0, raw.size()), in its cheapest form.
void write_block(BitWriter& out, const Token* tokens, size_t count, std::string_view raw, bool last) {
    std::vector<uint32_t> litlen_freq(litlen_symbols, 0), distance_freq(distance_symbols, 0);
    for (size_t i = 0; i < count; ++i) {
        if (tokens[i].distance == 0) ++litlen_freq[tokens[i].value];
        else ++litlen_freq[257 + length_code(tokens[i].value)], ++distance_freq[distance_code(tokens[i].distance)];
    }
    litlen_freq[end_of_block] = 1;

    Codes dynamic;
    std::vector<uint32_t> litlen_coded = litlen_freq;
    if (count == 0) litlen_coded[0] = 1;  // two codes at least, so the code is complete
    dynamic.litlen_lengths = limited_code_lengths(litlen_coded, max_code_bits);
    // A single distance code gets one bit and none gets no code: both as §3.2.7 allows.
    dynamic.distance_lengths = limited_code_lengths(distance_freq, max_code_bits);
    const DynamicHeader header = dynamic_header(dynamic);
    const uint64_t dynamic_bits = 3 + header.bits + data_bits(dynamic, litlen_freq, distance_freq);

    Codes fixed{fixed_litlen_lengths(), fixed_distance_lengths()};
    const uint64_t fixed_bits = 3 + data_bits(fixed, litlen_freq, distance_freq);

    // Stored: each piece of at most 65,535 bytes pads to a byte and has LEN and NLEN.
    const size_t pieces = raw.empty() ? 1 : (raw.size() + max_stored - 1) / max_stored;
    const int first_pad = (8 - (out.pending_bits() + 3) % 8) % 8;
    const uint64_t stored_bits = first_pad + (pieces - 1) * 5 + pieces * (3 + 32) + 8 * uint64_t(raw.size());

    if (stored_bits < std::min(dynamic_bits, fixed_bits)) {
        for (size_t piece = 0; piece < pieces; ++piece) {
            const std::string_view bytes = raw.substr(piece * max_stored, max_stored);
            out.put((last && piece + 1 == pieces) ? 1 : 0, 1);
            out.put(0, 2);
            out.align();
            out.put(uint32_t(bytes.size()), 16);
            out.put(uint32_t(~bytes.size()) & 0xffff, 16);
            for (char c : bytes) out.put(uint8_t(c), 8);
        }
    } else if (fixed_bits <= dynamic_bits) {
        out.put(last ? 1 : 0, 1);
        out.put(1, 2);
        write_tokens(out, fixed, tokens, count);
    } else {
        out.put(last ? 1 : 0, 1);
        out.put(2, 2);
        out.put(header.litlen_count - 257, 5);
        out.put(header.distance_count - 1, 5);
        out.put(header.code_length_count - 4, 4);
        for (int i = 0; i < header.code_length_count; ++i) out.put(header.code_length_lengths[code_length_order[i]], 3);
        const std::vector<uint16_t> cl_codes = canonical_codes(header.code_length_lengths);
        for (const CodeLengthSymbol& c : header.symbols) {
            out.put(cl_codes[c.symbol], header.code_length_lengths[c.symbol]);
            out.put(c.extra, repeat_extra(c.symbol));
        }
        write_tokens(out, dynamic, tokens, count);
    }
}

// Tokens per block: a new block adapts its codes to the data that follows.
constexpr size_t block_tokens = 16384;

}  // namespace

std::optional<std::string> deflate_raw_within(std::string_view data, size_t max_bytes) {
    // Positions are int32_t: half the memory and cache of 64-bit ones.
    if (data.size() > size_t(INT32_MAX)) throw std::length_error("deflate_raw: more than 2 GiB at once");
    Lz77 parse(data);
    BitWriter out;
    std::vector<Token> tokens;
    size_t raw_start = 0;
    do {
        tokens.clear();
        parse.next(tokens, block_tokens);
        size_t raw_size = 0;
        for (const Token& t : tokens) raw_size += t.distance ? t.value : 1;
        write_block(out, tokens.data(), tokens.size(), data.substr(raw_start, raw_size), parse.done());
        raw_start += raw_size;
        if (out.bytes() > max_bytes) return std::nullopt;
    } while (!parse.done());
    std::string stream = out.finish();
    if (stream.size() > max_bytes) return std::nullopt;
    return stream;
}

std::string deflate_raw(std::string_view data) { return *deflate_raw_within(data, SIZE_MAX); }

// --- decompression -----------------------------------------------------------------------

namespace {

[[noreturn]] void refuse(const std::string& why) { throw InflateError(why); }

std::string bytes_text(size_t n) { return grouped(long(n)) + (n == 1 ? " byte" : " bytes"); }

class BitReader {
public:
    explicit BitReader(std::string_view in) : in_(in) {}

    uint32_t bits(int n) {  // n <= 16
        while (held_ < n) {
            if (next_ == in_.size()) refuse("the compressed data ends too early");
            buffer_ |= uint32_t(uint8_t(in_[next_++])) << held_;
            held_ += 8;
        }
        const uint32_t value = buffer_ & ((1u << n) - 1);
        buffer_ >>= n;
        held_ -= n;
        return value;
    }
    // Drops the bits left in the current byte (a stored block starts on a byte).
    void align() { buffer_ = 0, held_ = 0; }
    size_t bytes_left() const { return in_.size() - next_; }  // whole bytes not yet read

private:
    std::string_view in_;
    size_t next_ = 0;
    uint32_t buffer_ = 0;
    int held_ = 0;  // fewer than 8 between calls: bytes are read one at a time, as needed
};

// A canonical Huffman code as decoding needs it: how many codes each length has, and the
// symbols in code order (by length, then symbol).
struct Decoder {
    std::array<uint16_t, max_code_bits + 1> count{};
    std::vector<uint16_t> symbols;
    int longest = 0;  // no code is longer: a code not found by then does not exist
};

enum class Allow { complete, single };  // single: also one code of one bit (RFC 1951 §3.2.7)

Decoder make_decoder(const uint8_t* lengths, int n, Allow allow) {
    Decoder d;
    for (int s = 0; s < n; ++s) ++d.count[lengths[s]];
    d.count[0] = 0;
    int left = 1, codes = 0;  // codes still free at the current length
    for (int bits = 1; bits <= max_code_bits; ++bits) {
        left = left * 2 - d.count[bits];
        if (left < 0) refuse("a Huffman code table with more codes than its lengths allow");
        codes += d.count[bits];
        if (d.count[bits]) d.longest = bits;
    }
    const bool lone_bit = codes == 1 && d.count[1] == 1;
    if (left > 0 && codes > 0 && !(allow == Allow::single && lone_bit))
        refuse("a Huffman code table that is not complete");
    if (codes == 0 && allow == Allow::complete) refuse("a Huffman code table with no codes");
    for (int bits = 1; bits <= max_code_bits; ++bits)
        for (int s = 0; s < n; ++s)
            if (lengths[s] == bits) d.symbols.push_back(uint16_t(s));
    return d;
}

// The next symbol: codes are sent most significant bit first, so the code grows a bit at a time
// and is compared with the first code of each length.
int decode(BitReader& in, const Decoder& d, const char* empty_table) {
    if (d.symbols.empty()) refuse(empty_table);
    int code = 0, first = 0, index = 0;
    for (int bits = 1; bits <= d.longest; ++bits) {
        code |= int(in.bits(1));
        if (code - first < d.count[bits]) return d.symbols[index + code - first];
        index += d.count[bits];
        first = (first + d.count[bits]) << 1;
        code <<= 1;
    }
    refuse("a code that is not in the block's Huffman table");
}

class Output {
public:
    explicit Output(size_t limit) : limit_(limit) {}
    void make_room(size_t n) {
        if (n > limit_ - bytes.size()) refuse("it decompresses to more than " + bytes_text(limit_));
    }
    std::string bytes;

private:
    size_t limit_;
};

void inflate_stored(BitReader& in, Output& out) {
    in.align();
    const uint32_t length = in.bits(16);
    const uint32_t complement = in.bits(16);
    if ((length ^ 0xffff) != complement) refuse("a stored block whose length and its complement disagree");
    out.make_room(length);
    if (length > in.bytes_left()) refuse("the compressed data ends too early");
    for (uint32_t i = 0; i < length; ++i) out.bytes.push_back(char(in.bits(8)));
}

void inflate_codes(BitReader& in, Output& out, const Decoder& litlen, const Decoder& distance) {
    for (;;) {
        const int symbol = decode(in, litlen, "a block with no literal/length codes");
        if (symbol < 256) {
            out.make_room(1);
            out.bytes.push_back(char(symbol));
            continue;
        }
        if (symbol == end_of_block) return;
        const int lc = symbol - 257;
        if (lc >= 29) refuse("a length code that does not exist (286 or 287)");
        const size_t length = length_base[lc] + in.bits(length_extra[lc]);
        const int dc = decode(in, distance, "a repeat in a block that has no distance codes");
        if (dc >= distance_symbols) refuse("a distance code that does not exist (30 or 31)");
        const size_t back = distance_base[dc] + in.bits(distance_extra[dc]);
        if (back > out.bytes.size())
            refuse("a distance of " + bytes_text(back) + ", further back than the " + bytes_text(out.bytes.size()) +
                   " decompressed so far");
        out.make_room(length);
        const size_t start = out.bytes.size();
        out.bytes.resize(start + length);
        for (size_t i = 0; i < length; ++i) out.bytes[start + i] = out.bytes[start + i - back];  // may overlap
    }
}

void inflate_dynamic(BitReader& in, Output& out) {
    const int litlen_count = int(in.bits(5)) + 257;
    const int distance_count = int(in.bits(5)) + 1;
    const int code_length_count = int(in.bits(4)) + 4;
    if (litlen_count > litlen_symbols) refuse("a block that lists more than 286 literal/length codes");
    if (distance_count > distance_symbols) refuse("a block that lists more than 30 distance codes");

    std::array<uint8_t, 19> code_length_lengths{};
    for (int i = 0; i < code_length_count; ++i) code_length_lengths[code_length_order[i]] = uint8_t(in.bits(3));
    const Decoder code_lengths = make_decoder(code_length_lengths.data(), 19, Allow::complete);

    std::array<uint8_t, litlen_symbols + distance_symbols> lengths{};
    const int total = litlen_count + distance_count;
    for (int i = 0; i < total;) {
        const int symbol = decode(in, code_lengths, "a block with no code-length codes");
        if (symbol < 16) {
            lengths[i++] = uint8_t(symbol);
            continue;
        }
        if (symbol == 16 && i == 0) refuse("a repeated code length with no length before it");
        const uint8_t value = symbol == 16 ? lengths[i - 1] : 0;
        const int times = (symbol == 16 ? 3 : symbol == 17 ? 3 : 11) + int(in.bits(repeat_extra(symbol)));
        if (i + times > total) refuse("code lengths that run past the end of the table");
        for (int k = 0; k < times; ++k) lengths[i++] = value;
    }
    if (lengths[end_of_block] == 0) refuse("a block with no end-of-block code");
    const Decoder litlen = make_decoder(lengths.data(), litlen_count, Allow::single);
    const Decoder distance = make_decoder(lengths.data() + litlen_count, distance_count, Allow::single);
    inflate_codes(in, out, litlen, distance);
}

}  // namespace

std::string inflate_raw(std::string_view compressed, size_t max_output) {
    BitReader in(compressed);
    Output out(max_output);
    for (bool last = false; !last;) {
        last = in.bits(1) == 1;
        const uint32_t type = in.bits(2);
        if (type == 0) {
            inflate_stored(in, out);
        } else if (type == 1) {
            static const std::vector<uint8_t> litlen = fixed_litlen_lengths(), distance = fixed_distance_lengths();
            inflate_codes(in, out, make_decoder(litlen.data(), 288, Allow::complete),
                          make_decoder(distance.data(), 32, Allow::complete));
        } else if (type == 2) {
            inflate_dynamic(in, out);
        } else {
            refuse("a block of an unknown type");
        }
    }
    if (in.bytes_left() > 0)
        refuse(bytes_text(in.bytes_left()) + " left over after the final block");
    return std::move(out.bytes);
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
