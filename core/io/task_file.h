// core/io/task_file.h — a reader's task as a file and as a link (docs/own-pairs.md): the pairs
// with the options that make the same task from them (tokens, split seed, held-out size,
// duplicates), so that whoever opens it trains on the same split with the same vocabularies.
//
// The file is JSON: the worker's PairsTaskSource (worker_codec.h) with a tag first,
//     {"lookback": "pairs task", "text": "...", "tokens": "words", "split_seed": 1, ...}
// The link is the same JSON, compact, compressed with raw DEFLATE and written in base64url: the
// value of the page's URL key `pairs.task`.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "io/worker_codec.h"

namespace lb {

constexpr std::string_view task_file_tag = "pairs task";  // the value of the file's "lookback" key
// The largest task file read: its text is at most pairs_max_bytes, which JSON's escapes (a tab,
// a line end, a quote: two bytes each) can at most double, and the options around it.
constexpr size_t task_file_max_bytes = 2 * pairs_max_bytes + 4096;
// The longest link value. The page puts it in its address's fragment, which no server is sent:
// a fifth of the shortest address the three engines open (Firefox ESR: 1 MiB; Chromium 2 MiB,
// WebKitGTK 32 MiB; measured in docs/own-pairs.md), room left for the page's own keys. About
// 16,000 short word pairs; larger tasks are exported as a file.
constexpr size_t task_link_max_chars = 200000;
// Some mail and chat programs cut links longer than this (the limit until links moved to the
// fragment): the page still makes such a link, and says so.
constexpr size_t task_link_mail_chars = 8000;
// The compressed bytes that many characters hold: base64url writes 4 for every 3.
constexpr size_t task_link_max_bytes = task_link_max_chars / 4 * 3;
static_assert(task_link_max_chars % 4 == 0, "a whole number of base64url groups");

// The file's text, indented, ending in a line end.
std::string task_file_text(const PairsTaskSource& source);
// Whether a file is meant as a task file rather than pairs: after a byte order mark and white
// space it opens with '{' and the key "lookback" (pairs cannot: their first line is read so).
bool is_task_file(std::string_view bytes);
// Throws std::invalid_argument with a message for the reader ("the task file is not JSON: ...",
// "... has no tokens") for anything else; the pairs in it are checked by make_pairs_task.
PairsTaskSource read_task_file(std::string_view bytes);

// The link's value (base64url), or nothing if it would be longer than task_link_max_chars: the
// compression stops there, so a large task learns it cannot have a link in a fraction of the time.
std::optional<std::string> task_link_value(const PairsTaskSource& source);
// Throws std::invalid_argument ("the link's task is not base64url: ...", "... does not
// decompress: ...", "... is longer than ...") for a value that is not one.
PairsTaskSource read_task_link(std::string_view value);

}  // namespace lb
