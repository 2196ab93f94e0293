// Untrusted text in messages, and numbers as tables and sentences write them: UTF-8 checked by
// hand-known sequences, escapes, cuts and numbers written out in full.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include "text/text.h"

using namespace lb;

TEST_CASE("utf-8: well-formed characters and every kind of malformed byte") {
    CHECK(utf8_char_length("a", 0) == 1);
    CHECK(utf8_char_length("\xc3\xa9", 0) == 2);              // é
    CHECK(utf8_char_length("\xe2\x88\x92", 0) == 3);          // U+2212 minus
    CHECK(utf8_char_length("\xf0\x9f\x98\x80", 0) == 4);      // U+1F600
    CHECK(utf8_code_point("\xe2\x88\x92", 0, 3) == 0x2212);
    CHECK(utf8_code_point("\xd9\xa3", 0, 2) == 0x663);         // Arabic-Indic three
    CHECK(utf8_char_length("\xa9", 0) == 0);                  // a continuation byte alone
    CHECK(utf8_char_length("\xc3", 0) == 0);                  // truncated
    CHECK(utf8_char_length("\xc3" "a", 0) == 0);              // continuation missing
    CHECK(utf8_char_length("\xc0\xaf", 0) == 0);              // overlong '/'
    CHECK(utf8_char_length("\xe0\x80\xaf", 0) == 0);          // overlong '/' in three bytes
    CHECK(utf8_char_length("\xed\xa0\x80", 0) == 0);          // surrogate U+D800
    CHECK(utf8_char_length("\xf4\x90\x80\x80", 0) == 0);      // U+110000
    CHECK(utf8_char_length("\xff", 0) == 0);
    CHECK(is_valid_utf8("0.5\xc2\xa0"));
    CHECK_FALSE(is_valid_utf8("0.5\xc2"));
    CHECK(sanitize_utf8("a\xc3z\xff") == "a\xef\xbf\xbdz\xef\xbf\xbd");
    CHECK(sanitize_utf8("\xc3\xa9") == "\xc3\xa9");
}

TEST_CASE("utf-8: a prefix never ends inside a character") {
    CHECK(utf8_prefix("abc", 2) == "ab");
    CHECK(utf8_prefix("a\xc3\xa9", 2) == "a");                // not "a\xc3"
    CHECK(utf8_prefix("a\xc3\xa9", 3) == "a\xc3\xa9");
    CHECK(utf8_prefix("\xe2\x88\x92" "1", 2) == "");
    CHECK(utf8_prefix("a\xff\xfe", 2) == "a\xff");           // stray bytes cut anywhere
    CHECK(utf8_prefix("", 5) == "");
}

TEST_CASE("describing one character for a message") {
    CHECK(describe_char(".", 0, 1) == "'.'");
    CHECK(describe_char("\xc3\xa9", 0, 2) == "'\xc3\xa9' (U+00E9)");
    CHECK(describe_char("\t", 0, 1) == "a tab");
    CHECK(describe_char("\x1b", 0, 1) == "the byte 0x1b");
    CHECK(describe_char("\xff", 0, 0) == "the byte 0xff");
    CHECK(describe_char("\xc2\xa0", 0, 2) == "a no-break space (U+00A0)");
    CHECK(describe_char("\xe2\x80\xae", 0, 3) == "an invisible character (U+202E)");  // right-to-left override
    CHECK(describe_char("\xc2\x85", 0, 2) == "an invisible character (U+0085)");     // C1 next line
}

TEST_CASE("quoting untrusted text: escaped and cut with its length") {
    CHECK(quote_untrusted("19/3/1994") == "'19/3/1994'");
    CHECK(quote_untrusted("1 f\xc3\xa9vr") == "'1 f\xc3\xa9vr'");
    CHECK(quote_untrusted("\x1b[31mred") == "'\\x1b[31mred'");
    CHECK(quote_untrusted("a\tb\nc\r") == "'a\\tb\\nc\\r'");
    CHECK(quote_untrusted("it's a\\b") == "'it\\'s a\\\\b'");
    CHECK(quote_untrusted("0.5\xc2\xa0") == "'0.5\\u{a0}'");
    CHECK(quote_untrusted("\xe2\x80\xae" "abc") == "'\\u{202e}abc'");
    CHECK(quote_untrusted("a\xc3") == "'a\\xc3'");
    CHECK(quote_untrusted("abcdef", 3) == "'abc\xe2\x80\xa6' (6 bytes)");
    CHECK(quote_untrusted("\xc3\xa9\xc3\xa9\xc3\xa9", 2) == "'\xc3\xa9\xc3\xa9\xe2\x80\xa6' (6 bytes)");
    CHECK(quote_untrusted("abc", 3) == "'abc'");
    const std::string long_text(10000, 'x');
    const std::string shown = quote_untrusted(long_text);
    CHECK(shown == "'" + std::string(60, 'x') + "\xe2\x80\xa6' (10000 bytes)");
    // Whatever comes in, what goes out is valid UTF-8 with no control byte.
    std::string every_byte;
    for (int b = 0; b < 256; ++b) every_byte += char(b);
    const std::string all = quote_untrusted(every_byte, 1000);
    CHECK(is_valid_utf8(all));
    for (char c : all) CHECK((static_cast<unsigned char>(c) >= 0x20 && c != 0x7f));
}

TEST_CASE("list_text: words for a message, the last two joined by the word given") {
    CHECK(lb::list_text({}) == "");
    CHECK(lb::list_text({"dot"}) == "dot");
    CHECK(lb::list_text({"dot", "general"}) == "dot or general");
    CHECK(lb::list_text({"dot", "general", "concat"}) == "dot, general or concat");
    CHECK(lb::list_text({"luong", "luong-local"}, "and") == "luong and luong-local");
}

TEST_CASE("numbers as the page and the tables write them") {
    CHECK(grouped(0) == "0");
    CHECK(grouped(50000) == "50,000");
    CHECK(grouped(1234567) == "1,234,567");
    CHECK(fixed(0.5) == "0.5000");
    CHECK(fixed(2.0 / 3.0, 2) == "0.67");
    CHECK(fixed(-1.25, 1) == "-1.2");  // printf's round-half-to-even on the exact binary value 1.25
    CHECK(fixed(std::nan(""), 3) == "\u2013");
    // The shortest decimal that reads back as the same float: 0.001f is 0.00100000005 in full.
    CHECK(number_text(0.001f) == "0.001");
    CHECK(number_text(0.003f) == "0.003");
    CHECK(number_text(10) == "10");
    CHECK(number_text(-3) == "-3");
    CHECK(number_text(1e20) == "1e+20");
    // float(1/3) is 0.333333343...; 0.3333333 is 4.3e-8 below it, past half a float step there
    // (1.5e-8), so reads back as another float; 0.33333333 is 1.3e-8 below, within it.
    CHECK(number_text(1.0 / 3.0) == "0.33333333");
    CHECK(float(std::strtod(number_text(0.1f).c_str(), nullptr)) == 0.1f);
}
