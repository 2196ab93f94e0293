// tests/test_url_state.cpp — the page's URL table (web/runtime/url_state.h): every bad value is
// refused the same way (a message naming the key, the default kept), only non-defaults are
// written, and nothing a link holds can make a message that is not valid UTF-8.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "../web/lab/url_setting.h"
#include "copy_task.h"
#include "url_settings.h"

using lb::test::Pick;
using Settings = lb::test::UrlSettings;

namespace {

// Valid UTF-8 and no control characters: what every message must be.
bool clean(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > text.size() || (n == 1 && (b < 0x20 || b == 0x7f))) return false;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) return false;
        i += n;
    }
    return true;
}

}  // namespace

TEST_CASE("url table: good values are taken, other tables' keys are left alone") {
    Settings s;
    s.url.read("?we.s=1,2&tr.width=32&tr.seed=7&tr.pick=dot&tr.p=-0.5,1&tr.live=1&tr.date=friday+3%2F4%2F1999");
    CHECK(s.url.messages().empty());
    CHECK(s.width == 32);
    CHECK(s.seed == 7);
    CHECK(s.pick == Pick::dot);
    CHECK(s.point == std::vector<double>{-0.5, 1});
    CHECK(s.live);
    CHECK(s.date == "friday 3/4/1999");
}

TEST_CASE("url table: each bad value keeps its default and is named with what the key takes") {
    Settings s;
    s.url.read("tr.width=7&tr.seed=12abc&tr.pick=cosine&tr.p=0.5&tr.live=yes&tr.date=hello!&tr.colour=red");
    CHECK(s.width == 64);
    CHECK(s.seed == 1);
    CHECK(s.pick == Pick::additive);
    CHECK(s.point == std::vector<double>{0.5, 0.25});
    CHECK(!s.live);
    CHECK(s.date == "monday 19 september 1977");
    const auto& m = s.url.messages();
    REQUIRE(m.size() == 7);
    CHECK(m[0] == "The link's tr.width='7' is not usable (tr.width takes one of 8, 16, 32 or 64), so the figure "
                  "uses its default, '64'.");
    CHECK(m[1].find("tr.seed='12abc'") != std::string::npos);
    CHECK(m[1].find("a whole number from 0 to 1000") != std::string::npos);
    CHECK(m[2].find("one of dot, general or additive") != std::string::npos);
    CHECK(m[3].find("2 numbers from -1 to 1") != std::string::npos);
    CHECK(m[4].find("1 or 0") != std::string::npos);
    CHECK(m[5].find("no '!' here") != std::string::npos);
    CHECK(m[6].find("'tr.colour' is not a setting of this figure") != std::string::npos);
}

TEST_CASE("url table: a refusal is shown while the figure still uses what it says, not after the reader changes it") {
    Settings s;
    s.url.read("tr.width=7&tr.date=hello!&tr.colour=red");
    REQUIRE(s.url.messages().size() == 3);
    s.width = 32;  // the reader picks a width: "so the figure uses its default, '64'" no longer holds
    REQUIRE(s.url.messages().size() == 2);
    CHECK(s.url.messages()[0].find("tr.date='hello!'") != std::string::npos);
    CHECK(s.url.messages()[1].find("'tr.colour' is not a setting") != std::string::npos);
    s.date = "friday 3/4/1999";  // a refusal the key's own check worded goes the same way
    REQUIRE(s.url.messages().size() == 1);
    CHECK(s.url.messages()[0].find("tr.colour") != std::string::npos);  // an unknown key has no setting to change
    s.width = 64;  // back to what the message says the figure uses: it holds again
    CHECK(s.url.messages().size() == 2);
    s.url.read("");  // a new read replaces them
    CHECK(s.url.messages().empty());
}

TEST_CASE("url table: a task is looked up by name when the link is read, so one added after the table was made is taken") {
    const lb::Task* chosen = &lb::date_task();
    lb::web::UrlTable url("ck.");
    lb::web::url_task(url, "task", chosen);
    const lb::testing::CopyTaskInTable in_table;  // joins the table after the figure, as a reader's pairs do
    url.read("ck.task=copy");
    CHECK(url.messages().empty());
    CHECK(chosen == &lb::testing::copy_task());
    CHECK(url.query() == "ck.task=copy");  // written by its name, not as an empty value
    url.read("ck.task=chess");
    REQUIRE(url.messages().size() == 1);
    CHECK(url.messages()[0] == "The link's ck.task='chess' is not usable (ck.task takes one of dates, reversal, translation or copy), "
                               "so the figure uses 'copy'.");
    const lb::Task* rows = nullptr;  // "all" stands for no task
    lb::web::UrlTable results("rs.");
    lb::web::url_task(results, "task", rows, "all");
    results.read("rs.task=copy");
    CHECK(rows == &lb::testing::copy_task());
    results.read("rs.task=all");
    CHECK(rows == nullptr);
    CHECK(results.messages().empty());
}

TEST_CASE("url table: a value left out of links is used but not written; an entry may word its own refusal") {
    int width = 8;
    bool unlinked = true;
    lb::web::UrlTable url("tr.");
    url.integer("width", width, 1, 64)
        .left_out_when([&unlinked](const std::string& value) { return unlinked && value == "32"; })
        .refused_as([](const std::string& key, const std::string& value) { return value == "99" ? key + " is too wide here." : ""; });
    url.read("tr.width=32");
    CHECK(width == 32);
    CHECK(url.query().empty());
    CHECK(url.leaves_out());
    unlinked = false;
    CHECK(url.query() == "tr.width=32");
    CHECK_FALSE(url.leaves_out());
    url.read("tr.width=99");
    CHECK(url.messages() == std::vector<std::string>{"tr.width is too wide here."});
    url.read("tr.width=0");  // the entry leaves this one to the table's own words
    REQUIRE(url.messages().size() == 1);
    CHECK(url.messages()[0].rfind("The link's tr.width='0' is not usable (tr.width takes a whole number from 1 to 64)", 0) == 0);
}

TEST_CASE("url table: a link that chose the reader's task without its pairs says so, not that the task is unknown") {
    const lb::Task* chosen = &lb::date_task();
    lb::web::UrlTable url("ck.");
    lb::web::url_task(url, "task", chosen);
    REQUIRE(lb::task_named(lb::web::own_pairs_name) == nullptr);
    url.read("?ck.task=your-pairs");
    CHECK(chosen == &lb::date_task());
    REQUIRE(url.messages().size() == 1);
    CHECK(url.messages()[0] == "This link chose the sender's own pairs (ck.task=your-pairs), but did not carry them (they were too large "
                               "for a link, or the link was cut): ask the sender for the task file (Save as a file in \u201cYour own "
                               "pairs\u201d). Until then the figure shows its default.");
}

TEST_CASE("url table: numbers out of range, not finite, or of the wrong count are refused") {
    for (const char* bad : {"tr.seed=1001", "tr.seed=-1", "tr.seed=99999999999999999999", "tr.seed=", "tr.seed=%201",
                            "tr.p=nan,0", "tr.p=inf,0", "tr.p=0,0,0", "tr.p=2,0", "tr.p=1e999,0", "tr.p=,",
                            "tr.p=0x0.8,0", "tr.p=0x1,0"}) {
        Settings s;
        s.url.read(bad);
        CHECK_MESSAGE(s.url.messages().size() == 1, bad);
        CHECK(s.seed == 1);
        CHECK(s.point == std::vector<double>{0.5, 0.25});
    }
}

TEST_CASE("url table: hostile bytes give clean, short messages") {
    Settings s;
    // Raw bytes: a cut UTF-8 sequence, an escape code, a NUL, and a very long value.
    s.url.read("tr.pick=%C3&tr.seed=%1B%5B31m&tr.date=%00abc&tr.width=" + std::string(5000, '9'));
    REQUIRE(s.url.messages().size() == 4);
    for (const std::string& m : s.url.messages()) {
        CHECK_MESSAGE(clean(m), m);
        CHECK(m.size() < 400);
    }
    // In the table's order: width, seed, pick, date.
    CHECK(s.url.messages()[0].find("(5000 bytes)") != std::string::npos);
    CHECK(s.url.messages()[2].find("\\xc3") != std::string::npos);
}

TEST_CASE("url table: only what differs from the defaults is written, and it reads back") {
    Settings s;
    CHECK(s.url.query().empty());
    s.width = 16;
    s.date = "3 mars 1999 & co";
    const std::string query = s.url.query();
    CHECK(query == "tr.width=16&tr.date=3%20mars%201999%20%26%20co");
    Settings t;
    t.url.read(query);
    CHECK(t.url.messages().empty());
    CHECK(t.width == 16);
    CHECK(t.date == "3 mars 1999 & co");
    CHECK(t.url.keys() == std::vector<std::string>{"tr.width", "tr.seed", "tr.pick", "tr.p", "tr.live", "tr.date"});
}

TEST_CASE("url table: values apply in the table's order, so a setting can depend on an earlier one") {
    // As the training figure's scorer depends on its model: "concat" is a scorer of one model only.
    std::string model = "a", scorer = "dot";
    lb::web::UrlTable url{"tr."};
    url.text("model", model, 8)
        .entry("scorer", "dot, or concat for model b", [&] { return scorer; },
               [&](const std::string& text) {
                   if (text != "dot" && !(text == "concat" && model == "b")) return false;
                   return scorer = text, true;
               });
    url.read("tr.scorer=concat&tr.model=b");  // the link names the scorer first
    CHECK(url.messages().empty());
    CHECK(scorer == "concat");
    model = "a", scorer = "dot";
    url.read("tr.scorer=concat&tr.model=a");
    REQUIRE(url.messages().size() == 1);
    CHECK(url.messages()[0] == "The link's tr.scorer='concat' is not usable (tr.scorer takes dot, or concat for model b), "
                               "so the figure uses its default, 'dot'.");
}

TEST_CASE("url table: the date task's dial, read through the settings schema, for the date task only") {
    lb::RunSettings run;
    lb::web::UrlTable url{"tr."};
    lb::web::url_setting(url, "task", run, "task");
    lb::web::url_setting(url, "formats", run, "formats");
    lb::web::url_setting(url, "order", run, "field_order");
    url.read("tr.order=ymd&tr.formats=5,0");
    CHECK(url.messages().empty());
    CHECK(run.model.task == &lb::date_task(lb::DateDial{{0, 5}, "ymd"}));
    CHECK(url.query() == "tr.formats=0,5&tr.order=ymd");  // only what differs from the defaults

    run = {};
    url.read("tr.formats=0,7&tr.order=ddy");
    REQUIRE(url.messages().size() == 2);
    CHECK(url.messages()[0] == "The link's tr.formats='0,7' is not usable (tr.formats takes format numbers from 0 to 5 "
                               "separated by commas, each once, such as 5 or 0,2,5, for the dates task only), so the "
                               "figure uses its default, '0,1,2,3,4,5'.");
    CHECK(url.messages()[1].find("tr.order='ddy'") != std::string::npos);
    CHECK(url.messages()[1].find("dmy, dym, mdy, myd, ydm or ymd") != std::string::npos);
    CHECK(run.model.task == &lb::date_task());

    url.read("tr.task=reversal&tr.order=ymd");  // the task is read first: the reversal has no dial
    REQUIRE(url.messages().size() == 1);
    CHECK(url.messages()[0].find("tr.order='ymd'") != std::string::npos);
    CHECK(run.model.task == lb::tasks()[1]);
}

TEST_CASE("url table: a run's settings bound to the schema's fields, a figure's narrower top in the schema's words") {
    lb::RunSettings run;
    lb::web::UrlTable url{"tf."};
    lb::web::url_setting(url, "seed", run, "seed");
    lb::web::url_setting(url, "epochs", run, "epochs", 30);
    lb::web::url_setting(url, "lr", run, "learning_rate");
    url.read("tf.seed=2147483647&tf.epochs=30&tf.lr=3e-3");
    CHECK(url.messages().empty());
    CHECK(run.seed == 2147483647u);
    CHECK(run.epochs == 30);
    CHECK(run.learning_rate == 3e-3f);
    CHECK(url.query() == "tf.seed=2147483647&tf.epochs=30&tf.lr=0.003");  // the shortest text of the float

    run = {};  // a link is read once, into the figure's defaults
    url.read("tf.seed=2147483648&tf.epochs=31&tf.lr=1e-50");
    REQUIRE(url.messages().size() == 3);
    CHECK(url.messages()[0].find("an integer from 0 to 2147483647") != std::string::npos);
    CHECK(url.messages()[1].find("an integer from 1 to 30") != std::string::npos);  // the slider's top, not 10000
    CHECK(url.messages()[2].find("a number above 0 and at most 10") != std::string::npos);  // 1e-50 is 0 as a float
    CHECK(run.seed == 1);
    CHECK(run.epochs == 12);
    CHECK(run.learning_rate == 1e-3f);
}

TEST_CASE("url table: a moved step's attention (al.move, tm.move), one position or a span, digits only") {
    lb::web::Move move;
    move.head = 2;  // the figure's head: the entry leaves it alone
    lb::web::UrlTable url{"tm."};
    lb::web::url_move(url, "move", move);
    CHECK(url.query().empty());  // no move: nothing written
    url.read("tm.move=9:21");
    CHECK(url.messages().empty());
    CHECK(move == lb::web::Move{9, 21, 21, 2});
    CHECK(url.query() == "tm.move=9%3A21");
    url.read("tm.move=8:20-21");
    CHECK(move == lb::web::Move{8, 20, 21, 2});
    CHECK(url.query() == "tm.move=8%3A20-21");
    for (const char* bad : {"10:0", "3:5-4", "3:27", "-1:0", "3:-2", "3", "3:", "3:4-", "+3:4", " 3:4", "3:4x", "3:99999999999",
                            "99999999999:1"}) {
        move = {};
        url.read(std::string("tm.move=") + bad);
        INFO(bad);
        REQUIRE(url.messages().size() == 1);
        CHECK(url.messages()[0].find("tm.move=") != std::string::npos);
        CHECK(url.messages()[0].find("STEP:POSITION or STEP:FIRST-LAST (an output step 0\u20139") != std::string::npos);
        CHECK(move.step == -1);
    }
}
