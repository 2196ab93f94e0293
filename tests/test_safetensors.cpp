// safetensors: bytes built by hand from the format's description, a round
// trip, every refusal (with the words its message must contain), and a
// model's weights file.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <utility>

#include "data/dataset.h"
#include "data/reversal.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "io/safetensors.h"
#include "text/text.h"
#ifndef __EMSCRIPTEN__
#include <sys/stat.h>  // mkfifo
#endif

using namespace lb;

namespace {

// 8-byte little-endian length, the header text, then the data bytes.
std::vector<uint8_t> file_bytes(const std::string& header, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> out;
    uint64_t n = header.size();
    for (int i = 0; i < 8; ++i) out.push_back(uint8_t(n >> (8 * i)));
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::string refusal(const std::vector<uint8_t>& bytes) {
    try {
        decode_safetensors(bytes.data(), bytes.size());
    } catch (const SafetensorsError& e) {
        return e.what();
    }
    return "(accepted)";
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// Twelve bytes of data: 1.0f, -2.0f, 0.5f (IEEE 754 bits 3F800000, C0000000,
// 3F000000), each little-endian.
const std::vector<uint8_t> twelve_bytes = {0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0,
                                           0x00, 0x00, 0x00, 0x3f};

std::string temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / name).string();
}

}  // namespace

TEST_CASE("safetensors: the writer's bytes, computed by hand from the format") {
    SafetensorsContent content;
    content.metadata["model"] = "plain";
    content.tensors.push_back({"a", {2}, {1.0f, -2.0f}});
    content.tensors.push_back({"b", {}, {0.5f}});  // a scalar: shape [], one value
    const std::vector<uint8_t> bytes = encode_safetensors(content);

    // Compact JSON with sorted keys; 'a' at bytes [0, 8) of the data, 'b' at [8, 12).
    std::string header =
        R"({"__metadata__":{"model":"plain"},)"
        R"("a":{"data_offsets":[0,8],"dtype":"F32","shape":[2]},)"
        R"("b":{"data_offsets":[8,12],"dtype":"F32","shape":[]}})";
    REQUIRE(header.size() == 140);
    header += "    ";  // padded with spaces to 144, a multiple of 8
    const std::vector<uint8_t> expected = file_bytes(header, twelve_bytes);
    CHECK(bytes.size() == 8 + 144 + 12);
    CHECK(bytes[0] == 144);
    for (int i = 1; i < 8; ++i) CHECK(bytes[size_t(i)] == 0);
    CHECK(bytes == expected);
}

TEST_CASE("safetensors: reading a hand-written file") {
    // Whitespace, keys in any order, tensors listed out of data order, no padding.
    const std::string header =
        "{ \"b\": {\"shape\": [1, 2], \"dtype\": \"F32\", \"data_offsets\": [4, 12]},\n"
        "  \"__metadata__\": {\"width\": \"8\"},\n"
        "  \"a\": {\"data_offsets\": [0, 4], \"dtype\": \"F32\", \"shape\": []} }";
    const SafetensorsContent c = decode_safetensors(file_bytes(header, twelve_bytes).data(),
                                                    8 + header.size() + 12);
    REQUIRE(c.tensors.size() == 2);
    CHECK(c.metadata.at("width") == "8");
    const StoredTensor* a = c.find("a");
    const StoredTensor* b = c.find("b");
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->shape.empty());
    CHECK(a->data == std::vector<float>{1.0f});
    CHECK(b->shape == std::vector<int64_t>{1, 2});
    CHECK(b->data == std::vector<float>{-2.0f, 0.5f});
    CHECK(c.find("c") == nullptr);
}

TEST_CASE("safetensors: round trip keeps every bit") {
    Rng rng(5);
    SafetensorsContent content;
    content.metadata = {{"model", "attention"}, {"note", "ünïcode ok"}};
    StoredTensor w{"layer.weight", {3, 5}, {}};
    for (int i = 0; i < 15; ++i) w.data.push_back(rng.uniform(-3.0f, 3.0f));
    w.data[0] = -0.0f;
    w.data[1] = std::numeric_limits<float>::infinity();
    w.data[2] = std::numeric_limits<float>::denorm_min();
    w.data[3] = std::numeric_limits<float>::max();
    content.tensors.push_back(w);
    content.tensors.push_back({"empty", {0, 4}, {}});
    content.tensors.push_back({"bias", {5}, {1, 2, 3, 4, 5}});

    const std::string path = temp_path("lookback_roundtrip.safetensors");
    write_safetensors_file(path, content);
    const SafetensorsContent back = read_safetensors_file(path);
    std::filesystem::remove(path);
    CHECK(back.metadata == content.metadata);
    REQUIRE(back.tensors.size() == 3);
    for (const StoredTensor& t : content.tensors) {
        const StoredTensor* r = back.find(t.name);
        REQUIRE(r);
        CHECK(r->shape == t.shape);
        REQUIRE(r->data.size() == t.data.size());
        // An empty tensor's data() may be null, which memcmp must not be given (UBSan).
        CHECK((t.data.empty() || std::memcmp(r->data.data(), t.data.data(), 4 * t.data.size()) == 0));
    }
    CHECK(std::signbit(back.find("layer.weight")->data[0]));
}

TEST_CASE("safetensors: the writer refuses what it cannot write faithfully") {
    SafetensorsContent c;
    c.tensors.push_back({"a", {2, 2}, {1, 2, 3}});  // 3 values for 4
    CHECK_THROWS_AS(encode_safetensors(c), std::invalid_argument);
    c.tensors = {{"a", {1}, {1}}, {"a", {1}, {2}}};
    CHECK_THROWS_AS(encode_safetensors(c), std::invalid_argument);
    c.tensors = {{"__metadata__", {1}, {1}}};
    CHECK_THROWS_AS(encode_safetensors(c), std::invalid_argument);
}

TEST_CASE("safetensors: refusals say what is wrong") {
    const std::string good_a = R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]})";
    const std::string good_b = R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]})";
    // The well-formed file the cases below break one way each.
    REQUIRE(refusal(file_bytes("{" + good_a + "," + good_b + "}", twelve_bytes)) == "(accepted)");

    SUBCASE("truncated before the header length ends") {
        CHECK(contains(refusal({0x10, 0, 0}), "truncated"));
        CHECK(contains(refusal({}), "truncated"));
    }
    SUBCASE("header length beyond the file") {
        std::vector<uint8_t> bytes = file_bytes("{}", {});
        bytes[0] = 200;
        CHECK(contains(refusal(bytes), "beyond the end of the file"));
        bytes[0] = 0, bytes[7] = 0x80;  // 2^63
        CHECK(contains(refusal(bytes), "beyond the end of the file"));
    }
    SUBCASE("garbled JSON") {
        CHECK(contains(refusal(file_bytes("{\"a\": {\"dtype\": ", {})), "not valid JSON"));
        CHECK(contains(refusal(file_bytes("[1, 2]", {})), "not a JSON object"));
        CHECK(contains(refusal(file_bytes("", {})), "not valid JSON"));
    }
    SUBCASE("unknown dtype") {
        const std::string e = refusal(file_bytes(
            R"({"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}})", {0, 0, 0, 0}));
        CHECK(contains(e, "'a'"));
        CHECK(contains(e, "dtype 'F16'"));
    }
    SUBCASE("missing fields and bad values") {
        CHECK(contains(refusal(file_bytes(R"({"a":{"dtype":"F32","shape":[1]}})", {})),
                       "no \"data_offsets\""));
        CHECK(contains(refusal(file_bytes(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}})", {})),
                       "\"shape\""));
        CHECK(contains(refusal(file_bytes(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", {})),
                       "ends before it begins"));
        CHECK(contains(refusal(file_bytes(R"({"__metadata__":{"width":8}})", {})), "not a string"));
    }
    SUBCASE("offsets out of range: the data is cut short") {
        std::vector<uint8_t> bytes = file_bytes("{" + good_a + "," + good_b + "}", twelve_bytes);
        bytes.resize(bytes.size() - 4);  // a file truncated inside the data
        const std::string e = refusal(bytes);
        CHECK(contains(e, "'b'"));
        CHECK(contains(e, "beyond the data"));
        CHECK(contains(e, "8 bytes"));
    }
    SUBCASE("offsets overlapping") {
        const std::string b = R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]})";
        std::vector<uint8_t> data(twelve_bytes.begin(), twelve_bytes.begin() + 8);
        CHECK(contains(refusal(file_bytes("{" + good_a + "," + b + "}", data)), "overlaps"));
    }
    SUBCASE("a gap between tensors, or bytes after the last") {
        const std::string b = R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]})";
        const std::string a = R"("a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]})";
        CHECK(contains(refusal(file_bytes("{" + a + "," + b + "}", twelve_bytes)), "[4, 8) of the data unused"));
        CHECK(contains(refusal(file_bytes("{" + good_a + "}", twelve_bytes)), "4 bytes after the last"));
    }
    SUBCASE("offsets not matching the shape") {
        const std::string a = R"("a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]})";
        const std::string e = refusal(file_bytes("{" + a + "," + good_b + "}", twelve_bytes));
        CHECK(contains(e, "holds 8 bytes"));
        CHECK(contains(e, "needs 12"));
        // A shape whose size overflows must not be multiplied out.
        const std::string huge =
            R"("a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]})";
        CHECK(contains(refusal(file_bytes("{" + huge + "," + good_b + "}", twelve_bytes)), "needs more"));
    }
    SUBCASE("a file that does not exist") {
        try {
            read_safetensors_file(temp_path("lookback_no_such_file.safetensors"));
            FAIL("accepted a missing file");
        } catch (const SafetensorsError& e) {
            CHECK(contains(e.what(), "cannot open"));
        }
    }
}

TEST_CASE("safetensors: missing, misshapen and unexpected tensors") {
    SafetensorsContent c;
    c.tensors = {{"a", {2}, {1, 2}}, {"b", {1}, {3}}};
    auto refusal_of = [&](const std::vector<ExpectedTensor>& expected, bool allow_extra) -> std::string {
        try {
            check_tensors(c, expected, allow_extra);
        } catch (const SafetensorsError& e) {
            return e.what();
        }
        return "(accepted)";
    };
    CHECK(refusal_of({{"a", {2}}, {"b", {1}}}, false) == "(accepted)");
    CHECK(contains(refusal_of({{"a", {2}}, {"c", {1}}}, true), "missing tensor 'c'"));
    const std::string shape = refusal_of({{"a", {1, 2}}}, true);
    CHECK(contains(shape, "'a' has shape [2]"));
    CHECK(contains(shape, "expects [1, 2]"));
    CHECK(contains(refusal_of({{"a", {2}}}, false), "unexpected tensor 'b'"));
    CHECK(refusal_of({{"a", {2}}}, true) == "(accepted)");
}

TEST_CASE("safetensors: a model's weights file") {
    ModelConfig config;
    config.decoder = DecoderKind::attention;
    config.scorer = Scorer::additive;
    config.H = 4;
    Model model = make_model(config);
    Rng rng(3);
    for (const NamedTensor& t : named_tensors(model.params))
        for (size_t i = 0; i < t.size; ++i) t.data[i] = rng.uniform(-1.0f, 1.0f);

    const SafetensorsContent content = model_to_safetensors(model, {{"seed", "3"}});
    CHECK(content.metadata.at("model") == "attention");
    CHECK(content.metadata.at("scorer") == "additive");
    CHECK(content.metadata.at("width") == "4");
    CHECK(content.metadata.at("seed") == "3");
    // PyTorch's nn.GRU layout: weight_ih_l0 is [3H, E] = [12, 32] for the encoder.
    REQUIRE(content.find("encoder.gru.weight_ih_l0"));
    CHECK(content.find("encoder.gru.weight_ih_l0")->shape == std::vector<int64_t>{12, 32});
    long values = 0;
    for (const StoredTensor& t : content.tensors) values += long(t.data.size());
    CHECK(values == parameter_count(config));

    SUBCASE("save, load: the same configuration and every weight") {
        const std::string path = temp_path("lookback_model.safetensors");
        save_model(path, model);
        const Model back = load_model(path);
        std::filesystem::remove(path);
        CHECK(back.config.decoder == DecoderKind::attention);
        CHECK(back.config.scorer == Scorer::additive);
        CHECK(back.config.H == 4);
        const auto a = named_tensors(model.params);
        const auto b = named_tensors(back.params);
        REQUIRE(a.size() == b.size());
        for (size_t k = 0; k < a.size(); ++k) {
            CHECK(a[k].name == b[k].name);
            REQUIRE(a[k].size == b[k].size);
            CHECK(std::memcmp(a[k].data, b[k].data, 4 * a[k].size) == 0);
        }
    }
    SUBCASE("a refused load leaves the model as it was") {
        Model target = make_model(config);  // all zeros
        SafetensorsContent wrong = content;
        wrong.tensors.back().shape = {99};  // still decodes, but not this model's shape
        wrong.tensors.back().data.assign(99, 1.0f);
        // First tensors would copy fine; the last one's shape is wrong.
        try {
            load_weights_into(target, wrong);
            FAIL("accepted a wrong shape");
        } catch (const SafetensorsError& e) {
            CHECK(contains(e.what(), "has shape [99]"));
        }
        for (const NamedTensor& t : named_tensors(target.params))
            for (size_t i = 0; i < t.size; ++i) REQUIRE(t.data[i] == 0.0f);

        SafetensorsContent other = content;
        other.metadata.insert_or_assign("width", std::string(1, '8'));
        CHECK_THROWS_WITH_AS(load_weights_into(target, other),
                             "the file's model is not this model's configuration: width 8 in the file, 4 here",
                             SafetensorsError);
        // Claimed width 8, tensors of width 4: the model it builds does not match.
        CHECK_THROWS_WITH_AS(model_from_safetensors(other),
                             doctest::Contains("but this model expects"), SafetensorsError);
        other.metadata.insert_or_assign("width", std::string("1000000"));
        CHECK_THROWS_WITH_AS(model_from_safetensors(other), doctest::Contains("from 1 to 1024"),
                             SafetensorsError);
        other.metadata.erase("width");
        CHECK_THROWS_WITH_AS(model_from_safetensors(other), doctest::Contains("no \"width\""),
                             SafetensorsError);
        other.tensors.erase(other.tensors.begin());
        other.metadata.insert_or_assign("width", std::string(1, '4'));
        CHECK_THROWS_WITH_AS(model_from_safetensors(other),
                             doctest::Contains("tensors hold 1077 values but this model expects 2357"),
                             SafetensorsError);

        load_weights_into(target, content);  // and a good one does load
        CHECK(std::memcmp(named_tensors(target.params)[0].data, named_tensors(model.params)[0].data,
                          4 * named_tensors(model.params)[0].size) == 0);
    }
}

TEST_CASE("safetensors: a number beyond double's range, and any other JSON failure, is refused") {
    // The 19-byte file: length 11, header {"a":1e999}.
    const std::vector<uint8_t> overflow = {0x0b, 0, 0, 0, 0, 0, 0, 0, '{', '"', 'a', '"',
                                           ':', '1', 'e', '9', '9', '9', '}'};
    CHECK(contains(refusal(overflow), "the header is not valid JSON"));
    CHECK(contains(refusal(file_bytes(R"({"a":{"dtype":"F32","shape":[1e999],"data_offsets":[0,4]}})",
                                      {0, 0, 0, 0})),
                   "not valid JSON"));
    // A parse error quotes the bytes it stopped at; the message stays UTF-8.
    const std::string message = refusal(file_bytes("{\"a\":\xc3}", {}));
    CHECK(contains(message, "not valid JSON"));
    CHECK(is_valid_utf8(message));
    // A tensor name with a control character is shown escaped.
    const std::string named = refusal(file_bytes(R"({"a\u001b[2J":{"dtype":"F16","shape":[],"data_offsets":[0,2]}})", {0, 0}));
    CHECK(contains(named, "'a\\x1b[2J'"));
}

TEST_CASE("safetensors: only a regular file of bounded size is read") {
    const auto refused = [](const std::string& path) {
        try {
            read_safetensors_file(path);
        } catch (const SafetensorsError& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    const std::string folder = std::filesystem::temp_directory_path().string();
    CHECK(contains(refused(folder), "not a regular file"));
    CHECK_THROWS_WITH_AS(load_model(folder), doctest::Contains("not a regular file"), SafetensorsError);
    if (std::filesystem::exists("/dev/zero"))  // would read until memory runs out
        CHECK(contains(refused("/dev/zero"), "not a regular file"));
#ifndef __EMSCRIPTEN__
    const std::string fifo = temp_path("lookback_fifo.safetensors");
    std::filesystem::remove(fifo);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);  // opening it would wait for a writer forever
    CHECK(contains(refused(fifo), "not a regular file"));
    std::filesystem::remove(fifo);
#endif
    // Larger than the stated limit: refused from its size, before a byte is read.
    const std::string big = temp_path("lookback_big.safetensors");
    std::ofstream(big, std::ios::binary).put('x');
    std::filesystem::resize_file(big, max_weights_file_bytes + 1);  // sparse: no disk used
    CHECK(contains(refused(big), "larger than"));
    std::filesystem::remove(big);
}

TEST_CASE("safetensors: a model file with a non-finite weight is refused") {
    ModelConfig config;
    config.H = 4;
    Model model = make_model(config);
    Rng rng(5);
    for (const NamedTensor& t : named_tensors(model.params))
        for (size_t i = 0; i < t.size; ++i) t.data[i] = rng.uniform(-1.0f, 1.0f);
    for (const float bad : {std::numeric_limits<float>::quiet_NaN(), INFINITY, -INFINITY}) {
        SafetensorsContent content = model_to_safetensors(model);
        StoredTensor& t = content.tensors[2];
        t.data[3] = bad;
        const std::string where = "tensor '" + t.name + "' holds a non-finite value";
        const std::vector<uint8_t> bytes = encode_safetensors(content);
        CHECK_THROWS_WITH_AS(load_model(bytes.data(), bytes.size()), doctest::Contains(where.c_str()),
                             SafetensorsError);
        Model target = make_model(config);
        CHECK_THROWS_WITH_AS(load_weights_into(target, content), doctest::Contains(where.c_str()),
                             SafetensorsError);
        for (const NamedTensor& p : named_tensors(target.params))
            for (size_t i = 0; i < p.size; ++i) REQUIRE(p.data[i] == 0.0f);
    }
}

TEST_CASE("safetensors: a model's settings in the metadata, as the shipped files have always held them") {
    using Meta = std::map<std::string, std::string>;
    ModelConfig plain;
    plain.decoder = DecoderKind::plain;
    plain.H = 4;
    CHECK(model_to_safetensors(make_model(plain)).metadata ==
          Meta{{"format", "lookback-1"}, {"model", "plain"}, {"scorer", "none"}, {"width", "4"}});
    ModelConfig luong;
    luong.decoder = DecoderKind::luong;
    luong.scorer = Scorer::additive;  // luong's "concat"
    luong.input_feeding = true;
    luong.H = 4;
    CHECK(model_to_safetensors(make_model(luong), {{"seed", "3"}}).metadata ==
          Meta{{"format", "lookback-1"}, {"model", "luong"}, {"scorer", "concat"}, {"input_feeding", "1"},
               {"width", "4"}, {"seed", "3"}});
    ModelConfig transformer;
    transformer.decoder = DecoderKind::transformer;
    transformer.memory = Memory::first;
    transformer.heads = 2;
    transformer.H = 8;
    const SafetensorsContent content = model_to_safetensors(make_model(transformer));
    CHECK(content.metadata == Meta{{"format", "lookback-1"}, {"model", "transformer"}, {"scorer", "none"},
                                   {"width", "8"}, {"memory", "first"}, {"heads", "2"}, {"ffn", "16"}});
    CHECK(model_from_safetensors(content).config == transformer);  // ffn 16 = 2 × width: the default, 0

    // Read through the settings schema: its bounds and its words.
    SafetensorsContent wrong = content;
    wrong.metadata["heads"] = "16";
    CHECK_THROWS_WITH_AS(model_from_safetensors(wrong), "metadata \"heads\" must be an integer from 1 to 8, not '16'",
                         SafetensorsError);
    wrong.metadata["heads"] = "3";
    CHECK_THROWS_WITH_AS(model_from_safetensors(wrong), doctest::Contains("heads"), SafetensorsError);
    wrong = content;
    wrong.metadata.erase("memory");
    CHECK_THROWS_WITH_AS(model_from_safetensors(wrong), "the metadata has no \"memory\": not a lookback weights file",
                         SafetensorsError);
}

TEST_CASE("safetensors: a date model's dial is recorded when not the default, so it is evaluated on its own data") {
    using Meta = std::map<std::string, std::string>;
    ModelConfig dial;
    dial.decoder = DecoderKind::plain;
    dial.H = 4;
    dial.task = &date_task(DateDial{{0, 5}, "ymd"});
    const SafetensorsContent content = model_to_safetensors(make_model(dial));
    CHECK(content.metadata == Meta{{"format", "lookback-1"}, {"model", "plain"}, {"scorer", "none"}, {"width", "4"},
                                   {"formats", "0,5"}, {"field_order", "ymd"}});
    CHECK(model_from_safetensors(content).config.task == dial.task);
    // One part of the dial left at its default is not recorded; the other is.
    dial.task = &date_task(DateDial{{3}, "dmy"});
    CHECK(model_to_safetensors(make_model(dial)).metadata.count("field_order") == 0);
    CHECK(model_from_safetensors(model_to_safetensors(make_model(dial))).config.task == dial.task);

    SafetensorsContent wrong = content;
    wrong.metadata["formats"] = "0,9";
    CHECK_THROWS_WITH_AS(model_from_safetensors(wrong), doctest::Contains("metadata \"formats\" must be format numbers"),
                         SafetensorsError);
    wrong = content;
    wrong.metadata["field_order"] = "yyy";
    CHECK_THROWS_WITH_AS(model_from_safetensors(wrong), doctest::Contains("metadata \"field_order\" must be dmy"),
                         SafetensorsError);
    // A reversal model's file with a dial is not one this project writes.
    ModelConfig reversal;
    reversal.decoder = DecoderKind::plain;
    reversal.H = 4;
    reversal.task = tasks()[1];
    SafetensorsContent other = model_to_safetensors(make_model(reversal));
    CHECK(other.metadata.count("formats") == 0);
    other.metadata["formats"] = "0";
    CHECK_THROWS_WITH_AS(model_from_safetensors(other),
                         "metadata \"formats\" applies to metadata \"task\" dates only, not reversal", SafetensorsError);
}

TEST_CASE("safetensors: a weights file of another task or dial setting does not load into a model") {
    // A hostile input that once loaded: a shipped width-64 date model's file whose metadata says it
    // learned another dial setting (formats 5) has the shapes of the shipped model, but is not it.
    const std::string shipped = std::string(LOOKBACK_WEIGHTS_DIR) + "/attention-64.safetensors";
    Model target = load_model(shipped);
    REQUIRE(target.config.task == &date_task());
    const Model before = target;
    SafetensorsContent dial = read_safetensors_file(shipped);
    dial.metadata["formats"] = "5";
    CHECK(model_from_safetensors(dial).config.task == &date_task(DateDial{{5}, "dmy"}));  // a sound file
    CHECK_THROWS_WITH_AS(load_weights_into(target, dial),
                         "the file's model is not this model's configuration: formats 5 in the file, 0,1,2,3,4,5 here",
                         SafetensorsError);
    dial.metadata["field_order"] = "ymd";
    CHECK_THROWS_WITH_AS(load_weights_into(target, dial),
                         "the file's model is not this model's configuration: formats 5 in the file, 0,1,2,3,4,5 "
                         "here; field_order ymd in the file, dmy here",
                         SafetensorsError);
    const auto a = named_tensors(std::as_const(target.params)), b = named_tensors(before.params);
    for (size_t k = 0; k < a.size(); ++k) REQUIRE(std::memcmp(a[k].data, b[k].data, 4 * a[k].size) == 0);

    // And the other way: a default date file into a model of another setting, or of another task
    // (named before its shapes, which differ too).
    ModelConfig config;
    config.decoder = DecoderKind::plain;
    config.H = 4;
    const SafetensorsContent plain = model_to_safetensors(make_model(config));
    ModelConfig ymd = config;
    ymd.task = &date_task(DateDial{{0, 1, 2, 3, 4, 5}, "ymd"});
    Model on_ymd = make_model(ymd);
    CHECK_THROWS_WITH_AS(load_weights_into(on_ymd, plain),
                         "the file's model is not this model's configuration: field_order dmy in the file, ymd here",
                         SafetensorsError);
    load_weights_into(on_ymd, model_to_safetensors(make_model(ymd)));  // its own setting loads
    ModelConfig reversal = config;
    reversal.task = &reversal_task();
    Model on_reversal = make_model(reversal);
    CHECK_THROWS_WITH_AS(load_weights_into(on_reversal, plain),
                         "the file's model is not this model's configuration: task dates in the file, reversal here",
                         SafetensorsError);
}
