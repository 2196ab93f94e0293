// web/runtime/theme.cpp — one theme for every figure: the lesson's palette (theme.h), the ImGui
// style of the page's light or dark theme, the figures' font, and text wrapped with it.
#include "theme.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <stdexcept>
#include <string>

#include "dejavu_sans.h"
#include "host.h"
#include "page_text.h"
#include "shipped_fonts.h"
#include "text/text.h"

namespace lb::web {

void WrappedText(const char* format, ...) {
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    std::string text(std::max(0, std::vsnprintf(nullptr, 0, format, args)), '\0');
    std::vsnprintf(text.data(), text.size() + 1, format, again);
    va_end(again);
    va_end(args);
    const float width = std::max(1.0f, ImGui::GetContentRegionAvail().x);
    const std::string lines = break_lines(text, width, [](std::string_view piece) {
        return ImGui::CalcTextSize(piece.data(), piece.data() + piece.size()).x;
    });
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
}

const LessonColors& lesson_colors() {
    static const LessonColors light = {
        IM_COL32(37, 99, 170, 255),   IM_COL32(37, 99, 170, 38),
        IM_COL32(184, 80, 10, 255),   IM_COL32(20, 130, 80, 255),
        IM_COL32(0, 0, 0, 22),        IM_COL32(0, 0, 0, 140),
        IM_COL32(255, 214, 120, 150), IM_COL32(160, 200, 240, 110),
        IM_COL32(232, 236, 242, 255), IM_COL32(37, 99, 170, 255),
        IM_COL32(244, 246, 250, 255), IM_COL32(120, 130, 145, 255),
        IM_COL32(160, 160, 165, 255),
        IM_COL32(28, 28, 31, 255),    IM_COL32(105, 105, 115, 255),
        ImVec4(0.75f, 0.10f, 0.10f, 1.0f),
        IM_COL32(0, 90, 200, 255),
    };
    static const LessonColors night = {
        IM_COL32(110, 170, 240, 255), IM_COL32(110, 170, 240, 40),
        IM_COL32(250, 150, 70, 255),  IM_COL32(90, 205, 140, 255),
        IM_COL32(255, 255, 255, 22),  IM_COL32(255, 255, 255, 90),
        IM_COL32(150, 110, 20, 150),  IM_COL32(40, 80, 130, 150),
        IM_COL32(48, 52, 60, 255),    IM_COL32(110, 170, 240, 255),
        IM_COL32(36, 40, 48, 255),    IM_COL32(120, 130, 150, 255),
        IM_COL32(100, 102, 110, 255),
        IM_COL32(230, 230, 235, 255), IM_COL32(160, 160, 170, 255),
        ImVec4(1.0f, 0.45f, 0.45f, 1.0f),
        IM_COL32(255, 200, 60, 255),
    };
    return page_is_dark() ? night : light;
}

}  // namespace lb::web

//-----------------------------------------------------------------------------------------------
// The ImGui style and the font of every figure
//-----------------------------------------------------------------------------------------------

namespace lb::web::detail {

// The light style, and for a dark page the colours that differ from it.
void apply_style(ImGuiStyle& style, bool dark) {
    ImGui::StyleColorsLight(&style);
    style.WindowPadding = {12, 10};
    style.WindowRounding = 0;
    style.WindowBorderSize = 0;
    style.FrameRounding = 3;
    style.FramePadding = {8, 4.5f};  // a frame 24 px high at the 15 px font: WCAG 2.2's smallest pointer target
    style.ItemSpacing = {8, 6};
    style.CellPadding = {8, 3};
    style.GrabRounding = 3;
    // Every button and field has an edge of 3:1 against the figure (WCAG 1.4.11), as have the
    // marks that show a value (tests/web/test_contrast.cpp).
    style.FrameBorderSize = 1;
    ImVec4* c = style.Colors;
    c[ImGuiCol_WindowBg] = {1.0f, 1.0f, 1.0f, 1.0f};
    c[ImGuiCol_Text] = {0.11f, 0.11f, 0.12f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.42f, 0.42f, 0.45f, 1.0f};
    c[ImGuiCol_Button] = {0.86f, 0.90f, 0.95f, 1.0f};
    c[ImGuiCol_ButtonHovered] = {0.76f, 0.84f, 0.93f, 1.0f};
    c[ImGuiCol_ButtonActive] = {0.64f, 0.76f, 0.90f, 1.0f};
    c[ImGuiCol_FrameBg] = {0.94f, 0.95f, 0.96f, 1.0f};
    c[ImGuiCol_TableHeaderBg] = {0.94f, 0.94f, 0.93f, 1.0f};
    c[ImGuiCol_TableBorderStrong] = {0.80f, 0.80f, 0.80f, 1.0f};
    c[ImGuiCol_TableBorderLight] = {0.88f, 0.88f, 0.88f, 1.0f};
    c[ImGuiCol_Border] = {0.50f, 0.50f, 0.53f, 1.0f};
    c[ImGuiCol_CheckMark] = {0.10f, 0.40f, 0.80f, 1.0f};
    c[ImGuiCol_SliderGrab] = {0.10f, 0.40f, 0.80f, 1.0f};
    c[ImGuiCol_SliderGrabActive] = {0.06f, 0.30f, 0.65f, 1.0f};
    if (!dark) return;
    c[ImGuiCol_WindowBg] = {0.106f, 0.114f, 0.129f, 1.0f};  // #1b1d21, the figure frame in style.css
    c[ImGuiCol_Text] = {0.90f, 0.90f, 0.92f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.58f, 0.59f, 0.63f, 1.0f};
    c[ImGuiCol_Border] = {0.43f, 0.45f, 0.49f, 1.0f};
    c[ImGuiCol_FrameBg] = {0.17f, 0.18f, 0.21f, 1.0f};
    c[ImGuiCol_FrameBgHovered] = {0.22f, 0.25f, 0.30f, 1.0f};
    c[ImGuiCol_FrameBgActive] = {0.25f, 0.30f, 0.38f, 1.0f};
    c[ImGuiCol_Button] = {0.19f, 0.25f, 0.34f, 1.0f};
    c[ImGuiCol_ButtonHovered] = {0.24f, 0.33f, 0.46f, 1.0f};
    c[ImGuiCol_ButtonActive] = {0.29f, 0.41f, 0.58f, 1.0f};
    c[ImGuiCol_CheckMark] = {0.50f, 0.72f, 1.0f, 1.0f};
    c[ImGuiCol_SliderGrab] = {0.43f, 0.62f, 0.90f, 1.0f};
    c[ImGuiCol_SliderGrabActive] = {0.50f, 0.72f, 1.0f, 1.0f};
    c[ImGuiCol_Header] = {0.22f, 0.30f, 0.42f, 1.0f};
    c[ImGuiCol_HeaderHovered] = {0.26f, 0.36f, 0.50f, 1.0f};
    c[ImGuiCol_HeaderActive] = {0.30f, 0.42f, 0.58f, 1.0f};
    c[ImGuiCol_TableHeaderBg] = {0.15f, 0.16f, 0.19f, 1.0f};
    c[ImGuiCol_TableBorderStrong] = {0.32f, 0.33f, 0.37f, 1.0f};
    c[ImGuiCol_TableBorderLight] = {0.25f, 0.26f, 0.29f, 1.0f};
    c[ImGuiCol_TextSelectedBg] = {0.30f, 0.45f, 0.70f, 0.5f};
    c[ImGuiCol_ScrollbarBg] = {0.10f, 0.10f, 0.12f, 1.0f};
    c[ImGuiCol_ScrollbarGrab] = {0.30f, 0.31f, 0.35f, 1.0f};
}

// DejaVu Sans at the canvas's devicePixelRatio, shown at 15 CSS px. The glyph ranges, the
// article's notation, are CMakeLists.txt's LOOKBACK_FONT_RANGES: the embedded font is a subset
// holding just those. A reader's task may add code points from the fonts the site ships
// (want_glyphs, add_font).
ImFontAtlas& shared_font_atlas() {
    static ImFontAtlas atlas;
    return atlas;
}

namespace {
constexpr ImWchar baked_ranges[] = {LOOKBACK_FONT_RANGES, 0};
constexpr ImWchar no_glyph = 0x25A1;  // □, in the baked ranges
// The dotted circle a lone mark is drawn on (page_text.h's token_for_drawing), in the baked ranges
// but added to the atlas on its own, smaller than DejaVu Sans draws it (below).
constexpr ImWchar dotted_circle = 0x25CC;
constexpr float dotted_circle_scale = 0.7f;
float atlas_dpr = 0;         // the ratio the shared atlas was rasterised at (0: never)
bool atlas_stale = false;    // the glyphs wanted or the fonts loaded changed since
int atlas_version = 0;
double atlas_build_ms = 0;   // the last build's time
std::vector<char32_t> glyphs_wanted;  // beyond the baked ranges (want_glyphs)
std::vector<size_t> task_fonts;       // indices into shipped_fonts of the fonts want_glyphs chose, in order
std::map<std::string, std::vector<unsigned char>, std::less<>> fonts_loaded;  // path in the site → bytes

bool holds(const generated::ShippedFont& font, char32_t c) {
    const auto* end = font.held + font.ranges;
    const auto* after = std::upper_bound(font.held, end, c, [](char32_t v, const generated::CodePointRange& r) { return v < r.first; });
    return after != font.held && c <= (after - 1)->last;
}

// A TrueType font's line (hhea's ascender less its descender) in ems: stb_truetype sizes a font
// by its line, so fonts of one pixel size differ in em. 1 when the tables are not there.
float line_per_em(std::span<const unsigned char> ttf) {
    const auto u16 = [&](size_t at) { return at + 2 <= ttf.size() ? unsigned(ttf[at] << 8 | ttf[at + 1]) : 0u; };
    const auto table = [&](std::string_view tag) -> size_t {
        for (size_t i = 0, n = u16(4); i < n; ++i) {
            const size_t record = 12 + 16 * i;
            if (record + 16 > ttf.size()) break;
            if (std::equal(tag.begin(), tag.end(), ttf.begin() + long(record)))
                return size_t(u16(record + 8)) << 16 | u16(record + 10);
        }
        return 0;
    };
    const size_t head = table("head"), hhea = table("hhea");
    const unsigned units_per_em = head ? u16(head + 18) : 0;
    const int ascender = int16_t(u16(hhea + 4)), descender = int16_t(u16(hhea + 6));
    if (!head || !hhea || units_per_em == 0 || ascender <= descender) return 1;
    return float(ascender - descender) / float(units_per_em);
}

// The small dotted circle moved up to the middle of the x-height, where a letter's body is.
void centre_dotted_circle_on_x_height(ImFont& font) {
    const ImFontGlyph* x = font.FindGlyphNoFallback('x');
    ImFontGlyph* circle = const_cast<ImFontGlyph*>(font.FindGlyphNoFallback(dotted_circle));
    if (!x || !circle) return;
    const float shift = std::round((x->Y0 + x->Y1) / 2 - (circle->Y0 + circle->Y1) / 2);
    circle->Y0 += shift;
    circle->Y1 += shift;
}

// A mark of no width is drawn where its font put it, and ImGui reads none of the tables that
// would move it onto its letter. Most fonts of left-to-right scripts put it left of the pen, over
// the glyph before; DejaVu Sans's harakat and niqqud (made for right-to-left layout), Lateef's and
// Lohit Telugu's virama lie right of it, over the glyph after. Those are moved back, centred on a
// glyph as wide as the dotted circle: a lone mark then sits on its circle, a mark in a word over
// its letter. Whole pixels, so the glyph stays sharp.
void centre_marks_on_glyph_before(ImFont& font) {
    const ImFontGlyph* circle = font.FindGlyphNoFallback(dotted_circle);
    if (!circle) return;
    for (ImFontGlyph& g : font.Glyphs) {
        const float centre = (g.X0 + g.X1) / 2;
        if (g.AdvanceX != 0 || centre < 0 || !lb::is_combining_mark(g.Codepoint)) continue;
        const float shift = std::round(-circle->AdvanceX / 2 - centre);
        g.X0 += shift;
        g.X1 += shift;
    }
}

// The baked font, then each loaded shipped font merged in with the wanted code points it is the
// first to hold, the task's fonts (want_glyphs) before the others.
void build_atlas(ImFontAtlas& atlas, float dpr) {
    constexpr float css_size = 15.0f;
    const auto start = std::chrono::steady_clock::now();
    atlas.Clear();
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;     // the bytes are the module's: the atlas copies them
    config.OversampleH = config.OversampleV = 1;
    config.PixelSnapH = true;                // whole-pixel advances: glyphs land on pixels
    void* ttf = const_cast<unsigned char*>(embedded::dejavu_sans_ttf);
    static const std::vector<ImWchar> baked_but_circle = [] {
        std::vector<ImWchar> out;
        for (const ImWchar* r = baked_ranges; r[0]; r += 2) {
            if (r[0] <= dotted_circle && dotted_circle <= r[1]) {
                if (r[0] < dotted_circle) out.insert(out.end(), {r[0], ImWchar(dotted_circle - 1)});
                if (dotted_circle < r[1]) out.insert(out.end(), {ImWchar(dotted_circle + 1), r[1]});
            } else {
                out.insert(out.end(), {r[0], r[1]});
            }
        }
        out.push_back(0);
        return out;
    }();
    ImFont* font = atlas.AddFontFromMemoryTTF(ttf, sizeof embedded::dejavu_sans_ttf, css_size * dpr, &config, baked_but_circle.data());
    // Each merged font at the baked font's em, as a browser sizes a fallback font: at the same
    // pixel size Lohit's tall lines drew Devanagari at 70 % of the Latin beside it.
    const float em = css_size * dpr / line_per_em(embedded::dejavu_sans_ttf);
    font->FallbackChar = no_glyph;
    static std::vector<std::vector<ImWchar>> merged_ranges;  // read by Build
    merged_ranges.clear();
    config.MergeMode = true;
    // DejaVu Sans's dotted circle is taller than a small letter (−0.12 to 0.64 em): marks made to
    // sit above and below letters fell on its dots (a fatha on its top, a kasra on its bottom).
    // At 70 % and centred on the x-height (after Build) they clear it.
    static constexpr ImWchar circle_range[] = {dotted_circle, dotted_circle, 0};
    atlas.AddFontFromMemoryTTF(ttf, sizeof embedded::dejavu_sans_ttf, css_size * dpr * dotted_circle_scale, &config, circle_range);
    std::vector<char32_t> left;
    for (char32_t c : glyphs_wanted)
        if (c <= 0xFFFF) left.push_back(c);
    std::vector<size_t> order = task_fonts;
    for (size_t f = 0; f < std::size(generated::shipped_fonts); ++f)
        if (std::find(order.begin(), order.end(), f) == order.end()) order.push_back(f);
    for (size_t f : order) {
        const generated::ShippedFont& shipped = generated::shipped_fonts[f];
        const auto loaded = fonts_loaded.find(std::string_view(shipped.file));
        if (loaded == fonts_loaded.end()) continue;
        std::vector<ImWchar> ranges;
        std::erase_if(left, [&](char32_t c) {
            if (!holds(shipped, c)) return false;
            ranges.insert(ranges.end(), {ImWchar(c), ImWchar(c)});
            return true;
        });
        if (ranges.empty()) continue;
        ranges.push_back(0);
        const ImWchar* held = merged_ranges.emplace_back(std::move(ranges)).data();
        atlas.AddFontFromMemoryTTF(loaded->second.data(), int(loaded->second.size()), em * line_per_em(loaded->second), &config, held);
    }
    atlas.Build();
    centre_dotted_circle_on_x_height(*font);
    centre_marks_on_glyph_before(*font);
    atlas.SetTexID(GlRenderer::shared_font_texture);
    atlas_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

void build_font(Host& h) {
    ImFontAtlas& atlas = shared_font_atlas();
    if (atlas_dpr != h.dpr || atlas_stale) {
        build_atlas(atlas, h.dpr);
        atlas_dpr = h.dpr;
        atlas_stale = false;
        ++atlas_version;
    }
    if (h.font_version != atlas_version) {
        h.renderer.upload_fonts(atlas);
        h.font_version = atlas_version;
    }
    ImGui::GetIO().FontGlobalScale = 1.0f / h.dpr;
}

nlohmann::json font_report(std::string_view text) {
    const ImFontAtlas& atlas = shared_font_atlas();
    nlohmann::json fonts = nlohmann::json::array();
    for (const auto& [file, bytes] : fonts_loaded) fonts.push_back(file);
    return {{"missing", missing_glyphs(text)},
            {"atlas", {atlas.TexWidth, atlas.TexHeight}},
            {"glyphs", atlas.Fonts.empty() ? 0 : atlas.Fonts[0]->Glyphs.Size},
            {"build_ms", atlas_build_ms},
            {"fonts", fonts}};
}

}  // namespace lb::web::detail

namespace lb::web {

std::vector<char32_t> missing_from_baked_font(const std::vector<char32_t>& code_points) {
    std::vector<char32_t> out;
    for (char32_t c : code_points) {
        bool baked = false;
        for (const ImWchar* r = detail::baked_ranges; r[0] && !baked; r += 2) baked = c >= r[0] && c <= r[1];
        if (!baked) out.push_back(c);
    }
    return out;
}

GlyphNeed want_glyphs(const std::vector<char32_t>& code_points) {
    GlyphNeed need;
    need.missing = missing_from_baked_font(code_points);
    need.drawing_note = drawing_note(code_points);
    // Each code point to the first font that has it: DejaVu Sans before the fonts of one script,
    // so that Latin, Greek and Cyrillic keep the baked font's design.
    const std::span<const generated::ShippedFont> fonts(generated::shipped_fonts);
    std::vector<std::vector<char32_t>> given(fonts.size());
    for (char32_t c : need.missing) {
        const auto first = std::find_if(fonts.begin(), fonts.end(), [&](const auto& f) { return c <= 0xFFFF && detail::holds(f, c); });
        if (first == fonts.end()) need.unavailable.push_back(c);
        else given[size_t(first - fonts.begin())].push_back(c);
    }
    // A font whose code points another chosen font also has is not needed: one fetch fewer, and
    // the task's characters in one design (an Urdu task's letters all from Lateef).
    for (size_t f = 0; f < fonts.size(); ++f) {
        for (size_t g = 0; g < fonts.size() && !given[f].empty(); ++g) {
            if (g == f || given[g].empty()) continue;
            if (std::all_of(given[f].begin(), given[f].end(), [&](char32_t c) { return detail::holds(fonts[g], c); })) {
                given[g].insert(given[g].end(), given[f].begin(), given[f].end());
                given[f].clear();
            }
        }
    }
    std::vector<size_t> chosen;
    for (size_t f = 0; f < fonts.size(); ++f) {
        if (given[f].empty()) continue;
        chosen.push_back(f);
        if (!detail::fonts_loaded.contains(std::string_view(fonts[f].file))) need.fonts.push_back(fonts[f].file);
    }
    if (need.missing != detail::glyphs_wanted || chosen != detail::task_fonts) {
        detail::glyphs_wanted = need.missing;
        detail::task_fonts = std::move(chosen);
        detail::atlas_stale = true;
    }
    return need;
}

void add_font(std::string_view file, std::vector<unsigned char> bytes) {
    const auto* shipped = std::find_if(std::begin(generated::shipped_fonts), std::end(generated::shipped_fonts),
                                       [&](const generated::ShippedFont& f) { return file == f.file; });
    if (shipped == std::end(generated::shipped_fonts))
        throw std::invalid_argument("the site ships no font " + quote_untrusted(file));
    // Checked before stb_truetype reads it: a server's error page or a cut file is no font.
    const unsigned char truetype[] = {0, 1, 0, 0};
    if (bytes.size() != shipped->bytes || !std::equal(std::begin(truetype), std::end(truetype), bytes.begin()))
        throw std::invalid_argument(std::string(shipped->file) + " came as " + grouped(long(bytes.size())) +
                                    " bytes that are not the font the site ships (" + grouped(long(shipped->bytes)) + " bytes)");
    detail::fonts_loaded[std::string(file)] = std::move(bytes);
    detail::atlas_stale = true;
}

std::string no_glyph_note(const std::vector<char32_t>& unavailable) {
    if (unavailable.empty()) return {};
    constexpr size_t named_at_most = 8;
    std::vector<std::string> named;
    for (size_t k = 0; k < std::min(unavailable.size(), named_at_most); ++k) {
        char utf8[5];
        const std::string_view c = ImTextCharToUtf8(utf8, unavailable[k]);
        named.push_back(describe_char(c, 0, c.size()));
    }
    if (unavailable.size() > named_at_most) named.push_back(grouped(long(unavailable.size() - named_at_most)) + " more");
    const bool one = unavailable.size() == 1;
    return grouped(long(unavailable.size())) + (one ? " character has" : " characters have") +
           " no glyph in the figures' font and " + (one ? "shows" : "show") + " as \u25A1: " + list_text(named, "and") + ".";
}

std::string drawing_note(const std::vector<char32_t>& code_points) {
    std::string note;
    if (std::any_of(code_points.begin(), code_points.end(), lb::is_right_to_left))
        note = "Right-to-left text is drawn in the order it is stored, left to right (the figures do not reorder it, nor join "
               "Arabic letters).";
    if (std::any_of(code_points.begin(), code_points.end(), lb::is_combining_mark))
        note += std::string(note.empty() ? "" : " ") +
                "In the figures each character is drawn by itself: conjuncts do not form, vowel signs keep their stored order, "
                "and a mark alone as a token sits on a dotted circle (\u25CC).";
    return note;
}

std::vector<char32_t> missing_glyphs(std::string_view text) {
    const ImFontAtlas& atlas = detail::shared_font_atlas();
    std::vector<char32_t> out;
    for (size_t i = 0; i < text.size();) {
        const size_t length = utf8_char_length(text, i);
        const char32_t c = length ? utf8_code_point(text, i, length) : 0xFFFD;  // a stray byte: as ImGui reads it
        i += std::max<size_t>(length, 1);
        const bool drawn = !atlas.Fonts.empty() && c <= 0xFFFF && atlas.Fonts[0]->FindGlyphNoFallback(ImWchar(c));
        if (!drawn && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    }
    return out;
}

}  // namespace lb::web
