// The figures' font is a subset of DejaVu Sans made at build time (CMakeLists.txt,
// LOOKBACK_FONT_RANGES): each code point the figures may draw must come out of it exactly as out
// of the whole font, and the rest must be gone. Built into the wasm suite, beside the runtime.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <vector>

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include "imstb_truetype.h"

#include "dejavu_sans.h"

namespace {

std::vector<unsigned char> read_file(const char* path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Font {
    stbtt_fontinfo info{};
    explicit Font(const unsigned char* bytes) {
        REQUIRE(stbtt_InitFont(&info, bytes, stbtt_GetFontOffsetForIndex(bytes, 0)) != 0);
    }
    bool has(int code_point) const { return stbtt_FindGlyphIndex(&info, code_point) != 0; }
};

// The pixels stb_truetype draws for a code point at the figures' size on a ratio-2 screen.
std::vector<unsigned char> bitmap(const Font& font, int code_point, int* geometry) {
    const float scale = stbtt_ScaleForPixelHeight(&font.info, 30.0f);
    unsigned char* pixels = stbtt_GetCodepointBitmap(&font.info, scale, scale, code_point,
                                                     &geometry[0], &geometry[1], &geometry[2], &geometry[3]);
    std::vector<unsigned char> out(pixels, pixels + geometry[0] * geometry[1]);
    stbtt_FreeBitmap(pixels, nullptr);
    return out;
}

}  // namespace

TEST_CASE("figure font: the subset draws every code point of its ranges as the whole font does") {
    const std::vector<unsigned char> whole_bytes = read_file(LOOKBACK_FONT_WHOLE);
    REQUIRE(whole_bytes.size() > 700000);  // DejaVu Sans as fonts-dejavu-core ships it
    CHECK(sizeof lb::web::embedded::dejavu_sans_ttf < 60000);
    const Font whole(whole_bytes.data()), subset(lb::web::embedded::dejavu_sans_ttf);

    int ascent[2], descent[2], gap[2];
    stbtt_GetFontVMetrics(&whole.info, &ascent[0], &descent[0], &gap[0]);
    stbtt_GetFontVMetrics(&subset.info, &ascent[1], &descent[1], &gap[1]);
    CHECK(ascent[0] == ascent[1]);
    CHECK(descent[0] == descent[1]);
    CHECK(gap[0] == gap[1]);

    const int ranges[] = {LOOKBACK_FONT_RANGES};
    int drawn = 0;
    for (size_t r = 0; r + 1 < std::size(ranges); r += 2) {
        for (int c = ranges[r]; c <= ranges[r + 1]; ++c) {
            CAPTURE(c);
            REQUIRE(whole.has(c) == subset.has(c));
            if (!whole.has(c)) continue;
            int advance[2], bearing[2];
            stbtt_GetCodepointHMetrics(&whole.info, c, &advance[0], &bearing[0]);
            stbtt_GetCodepointHMetrics(&subset.info, c, &advance[1], &bearing[1]);
            CHECK(advance[0] == advance[1]);
            CHECK(bearing[0] == bearing[1]);
            int geometry_whole[4], geometry_subset[4];
            const auto pixels_whole = bitmap(whole, c, geometry_whole);
            const auto pixels_subset = bitmap(subset, c, geometry_subset);
            for (int k = 0; k < 4; ++k) CHECK(geometry_whole[k] == geometry_subset[k]);
            CHECK(pixels_whole == pixels_subset);
            ++drawn;
        }
    }
    CHECK(drawn > 400);  // Latin-1 and Greek alone give more

    // What lies outside the ranges is gone: Cyrillic and the box-drawing characters.
    for (int c : {0x0416, 0x2500}) {
        CAPTURE(c);
        CHECK(whole.has(c));
        CHECK_FALSE(subset.has(c));
    }
}
