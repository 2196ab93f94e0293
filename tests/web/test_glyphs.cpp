// A reader's task may use characters the figures' baked font lacks (web/runtime/theme.h): the
// code points of its vocabularies, in either tokenisation, which of them the baked ranges miss,
// which shipped font the page must fetch for them and which no font has. Every expected list is
// written out here by hand. Built into the wasm suite, beside the runtime.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "data/pairs.h"
#include "theme.h"

namespace {

// Every string of 1 to 4 of `pieces`, each to the same choice of `outputs`, joined by `separator`.
std::string all_strings(const std::vector<std::string>& pieces, const std::vector<std::string>& outputs, const std::string& separator) {
    std::string text;
    std::vector<std::pair<std::string, std::string>> strings = {{"", ""}};
    for (int length = 1; length <= 4; ++length) {
        std::vector<std::pair<std::string, std::string>> longer;
        for (const auto& [in, out] : strings) {
            for (size_t k = 0; k < pieces.size(); ++k) {
                longer.emplace_back(in + (in.empty() ? "" : separator) + pieces[k], out + (out.empty() ? "" : separator) + outputs[k]);
                text += longer.back().first + "\t" + longer.back().second + "\n";
            }
        }
        strings = std::move(longer);
    }
    return text;
}

lb::PairsTask task_of(const std::string& text, lb::PairsTokens tokens) {
    lb::PairsOptions options;
    options.name = "glyphs-test";
    options.tokens = tokens;
    return lb::make_pairs_task(text, options);
}

}  // namespace

TEST_CASE("glyphs: a Cyrillic character task needs DejaVu Sans for its four letters") {
    // а б ж щ → a b zh shch, 340 pairs.
    const lb::PairsTask made = task_of(all_strings({"а", "б", "ж", "щ"}, {"a", "b", "zh", "shch"}, ""), lb::PairsTokens::characters);
    // The output's special tokens "<s>" and "</s>" draw '<', '/', '>' and 's' too.
    const std::vector<char32_t> expected = {U'/', U'<', U'>', U'a', U'b', U'c', U'h', U's', U'z',
                                            0x0430, 0x0431, 0x0436, 0x0449};
    CHECK(lb::task_code_points(made.task) == expected);
    const std::vector<char32_t> cyrillic = {0x0430, 0x0431, 0x0436, 0x0449};
    CHECK(lb::web::missing_from_baked_font(lb::task_code_points(made.task)) == cyrillic);

    const lb::web::GlyphNeed need = lb::web::want_glyphs(lb::task_code_points(made.task));
    CHECK(need.missing == cyrillic);
    CHECK(need.fonts == std::vector<std::string>{"fonts/DejaVuSans.ttf"});
    CHECK(need.unavailable.empty());
    CHECK(lb::web::no_glyph_note(need.unavailable) == "");
    lb::web::want_glyphs({});
}

TEST_CASE("glyphs: a word task of four scripts needs both fonts, and two characters have none") {
    // щи (Cyrillic), 水 (Han), ሀ (Ethiopic: in no shipped font), 𝔸 (U+1D538: in DejaVu Sans, but
    // past the 16 bits ImGui keys glyphs by).
    const lb::PairsTask made = task_of(all_strings({"щи", "水", "ሀ", "𝔸"}, {"shchi", "shui", "h", "A"}, " "), lb::PairsTokens::words);
    const std::vector<char32_t> expected = {U'/', U'<', U'>', U'A', U'c', U'h', U'i', U's', U'u',
                                            0x0438, 0x0449, 0x1200, 0x6C34, 0x1D538};
    CHECK(lb::task_code_points(made.task) == expected);
    const std::vector<char32_t> missing = {0x0438, 0x0449, 0x1200, 0x6C34, 0x1D538};
    CHECK(lb::web::missing_from_baked_font(lb::task_code_points(made.task)) == missing);

    const lb::web::GlyphNeed need = lb::web::want_glyphs(lb::task_code_points(made.task));
    CHECK(need.missing == missing);
    CHECK(need.fonts == std::vector<std::string>{"fonts/DejaVuSans.ttf", "fonts/DroidSansFallbackFull.ttf"});
    CHECK(need.unavailable == std::vector<char32_t>{0x1200, 0x1D538});
    CHECK(lb::web::no_glyph_note(need.unavailable) ==
          "2 characters have no glyph in the figures' font and show as \u25A1: 'ሀ' (U+1200) and '𝔸' (U+1D538).");
    CHECK(lb::web::no_glyph_note({0x1200}) == "1 character has no glyph in the figures' font and shows as \u25A1: 'ሀ' (U+1200).");
    CHECK(need.drawing_note.empty());
    lb::web::want_glyphs({});
}

TEST_CASE("glyphs: a task of one script needs that script's one font, whatever else holds its characters") {
    using Fonts = std::vector<std::string>;
    // कि त् (Devanagari KA, vowel sign I, TA, virama): the Devanagari font alone.
    lb::web::GlyphNeed need = lb::web::want_glyphs({0x0915, 0x0924, 0x093F, 0x094D});
    CHECK(need.fonts == Fonts{"fonts/Lohit-Devanagari.ttf"});
    CHECK(need.unavailable.empty());
    // Bengali KA and the danda, which every Indic font has and Devanagari's comes first for: the
    // Bengali font alone.
    need = lb::web::want_glyphs({0x0964, 0x0995});
    CHECK(need.fonts == Fonts{"fonts/Lohit-Bengali.ttf"});
    // Arabic alef and beh are DejaVu Sans's; Urdu's heh goal and yeh barree only Lateef's, which has
    // the alef too: Lateef alone, every letter of the task from one font.
    CHECK(lb::web::want_glyphs({0x0627, 0x0628}).fonts == Fonts{"fonts/DejaVuSans.ttf"});
    CHECK(lb::web::want_glyphs({0x0627, 0x06C1, 0x06D2}).fonts == Fonts{"fonts/Lateef-Regular.ttf"});
    // ā (in DejaVu Sans first, and in the Devanagari font) with Devanagari KA: one font.
    CHECK(lb::web::want_glyphs({0x0101, 0x0915}).fonts == Fonts{"fonts/Lohit-Devanagari.ttf"});
    // ā and ṣ (DejaVu Sans's alone) with KA: both.
    CHECK(lb::web::want_glyphs({0x0101, 0x0915, 0x1E63}).fonts == Fonts{"fonts/DejaVuSans.ttf", "fonts/Lohit-Devanagari.ttf"});
    // Tamil, Telugu, Sinhala, Thai: each its own.
    CHECK(lb::web::want_glyphs({0x0B95}).fonts == Fonts{"fonts/Lohit-Tamil.ttf"});
    CHECK(lb::web::want_glyphs({0x0C15}).fonts == Fonts{"fonts/Lohit-Telugu.ttf"});
    CHECK(lb::web::want_glyphs({0x0D9A}).fonts == Fonts{"fonts/lklug.ttf"});
    CHECK(lb::web::want_glyphs({0x0E01, 0x0E3F}).fonts == Fonts{"fonts/Loma.ttf"});
    lb::web::want_glyphs({});
}

TEST_CASE("glyphs: the note on drawing says right-to-left order and unshaped marks once, only for a task that has them") {
    const std::string rtl = "Right-to-left text is drawn in the order it is stored, left to right (the figures do not reorder it, nor "
                            "join Arabic letters).";
    const std::string marks = "In the figures each character is drawn by itself: conjuncts do not form, vowel signs keep their stored "
                              "order, and a mark alone as a token sits on a dotted circle (\u25CC).";
    CHECK(lb::web::drawing_note({U'a', 0x0431}) == "");
    CHECK(lb::web::drawing_note({U'a', 0x05D0}) == rtl);            // Hebrew alef
    CHECK(lb::web::drawing_note({0x0915, 0x093F}) == marks);         // कि
    CHECK(lb::web::drawing_note({0x0628, 0x064E}) == rtl + " " + marks);  // بَ
    CHECK(lb::web::want_glyphs({0x0628, 0x064E}).drawing_note == rtl + " " + marks);
    lb::web::want_glyphs({});
}

TEST_CASE("glyphs: a font is taken only as the site ships it") {
    std::ifstream in(LOOKBACK_SHIPPED_FONTS_DIR "/DejaVuSans.ttf", std::ios::binary);
    std::vector<unsigned char> font{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    REQUIRE(font.size() > 400000);
    CHECK_THROWS_WITH_AS(lb::web::add_font("fonts/Other.ttf", font), "the site ships no font 'fonts/Other.ttf'", std::invalid_argument);
    const std::vector<unsigned char> page(font.size(), '<');  // a server's error page as large as the font
    CHECK_THROWS_AS(lb::web::add_font("fonts/DejaVuSans.ttf", page), std::invalid_argument);
    CHECK_THROWS_AS(lb::web::add_font("fonts/DejaVuSans.ttf", std::vector<unsigned char>(font.begin(), font.end() - 1)), std::invalid_argument);
    CHECK_NOTHROW(lb::web::add_font("fonts/DejaVuSans.ttf", font));
    // Loaded, it is no longer asked for.
    const lb::web::GlyphNeed need = lb::web::want_glyphs({0x0449});
    CHECK(need.fonts.empty());
    lb::web::want_glyphs({});
}
