// core/data/metrics.h — scoring greedy predictions on a split (docs/dataset.md,
// "Metrics on the held-out split"), for any task (task.h): a token is a character or a word.
// Pure functions of the examples and the predicted strings: no model in here.
//
// Length buckets. The boundaries are the nearest-rank quartiles of the input
// lengths (in tokens) of a reference set (the held-out split): Q_k is the smallest length
// L such that at least k/4 of the strings are no longer than L, i.e. the
// sorted lengths' element ceil(k·n/4) − 1 (0-based). Bucket 0 holds lengths
// ≤ Q1, bucket 1 lengths in (Q1, Q2], bucket 2 (Q2, Q3], bucket 3 > Q3. A
// bucket is a set of whole lengths, so ties make the four counts unequal
// (for seed 1's held-out split: Q = 10, 16, 20 and 400/311/202/287 strings),
// and a bucket can even be empty: its accuracy is then NaN (null in JSON).
#pragma once
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/alignment_scores.h"
#include "data/dataset.h"
#include "data/task.h"
#include "data/translation.h"

namespace lb {

constexpr int length_bucket_count = 4;

struct LengthBuckets {
    std::array<int, 3> quartiles{};  // Q1, Q2, Q3
    int shortest = 0, longest = 0;   // of the reference set
    int bucket_of(int length) const;          // 0..3
    int lowest_length(int bucket) const;      // the bucket's range, for labels:
    int highest_length(int bucket) const;     // [lowest, highest], may be empty
};
// Throws std::invalid_argument for an empty set.
LengthBuckets length_quartiles(const Task& task, const std::vector<Example>& reference);

// "Format" is the task's group (Example::group): the date task's formats, one entry a group.
struct Metrics {
    int count = 0;                      // examples scored
    double exact = 0;                   // the whole target right
    double per_char = 0;                // right tokens / target tokens (a token is a character
                                        // for dates and reversal, a word for translation), token t
                                        // of the output against token t of the target
    // Σ token_edit_distance / Σ target tokens: the character or word error rate. Unlike
    // per_char, one dropped token costs one edit, not every token after it; above 1 when the
    // outputs hold more edits than the targets tokens. NaN until evaluated.
    double token_error_rate = NAN;
    std::vector<double> per_position;   // [T] of the targets that reach position t, the share
                                        // right there (NaN where none does)
    LengthBuckets buckets;
    std::array<double, length_bucket_count> per_length_bucket{};  // per-token accuracy
    std::array<int, length_bucket_count> bucket_count{};
    std::vector<double> per_format;        // per-token accuracy of each group
    std::vector<double> per_format_exact;
    std::vector<int> examples_per_format;
    double bleu = NAN;                     // corpus BLEU of a task of words (data/alignment_scores.h), else NaN
    // The teacher-forced maps scored against the task's known alignment (models/alignment_check.h):
    // filled by the held-out evaluator (training/trainer.h) for a model with attention, else empty.
    std::optional<AlignmentScores> alignment;
};

// Levenshtein distance between two token sequences: the fewest insertions, deletions and
// substitutions of one token that turn `from` into `to`.
int edit_distance(const std::vector<std::string_view>& from, const std::vector<std::string_view>& to);
// The same between an output and its target as the vocabulary splits them (code points or
// words): an empty output is the target's length away.
int token_edit_distance(const Vocabulary& vocabulary, std::string_view output, std::string_view target);

// predictions[i] is the model's output for examples[i]; target token t is right when the
// prediction's token t equals it (a prediction shorter than its target counts its missing
// tokens wrong), and exact match means the whole string equals the target. Throws
// std::invalid_argument when the sizes differ or there are no examples. The bucket boundaries
// are computed from `examples` unless given.
Metrics evaluate_predictions(const Task& task, const std::vector<Example>& examples,
                             const std::vector<std::string>& predictions);
Metrics evaluate_predictions(const Task& task, const std::vector<Example>& examples,
                             const std::vector<std::string>& predictions,
                             const LengthBuckets& buckets);

// What guessing scores on a split, a property of the data and of no model: the
// yardstick a model's per-position accuracy is read against. At each output
// position, the character most targets have there (ties go to the smaller
// character) and the share of targets that have it: a model that always writes
// that character scores exactly that share at that position. "Year and dashes"
// is the guess that copies the year, writes both dashes and the majority
// character at each month and day position; its per-character accuracy is
// (4 + 2 + the four shares) / 10, its exact match the share of targets whose
// month and day are the majority characters at all four positions.
struct ChanceBaselines {
    std::array<char, output_length> majority_char{};
    std::array<double, output_length> majority_share{};
    double year_and_dashes_per_char = 0;
    double year_and_dashes_exact = 0;
};
// Throws std::invalid_argument for no examples or a target not 10 characters.
ChanceBaselines chance_baselines(const std::vector<Example>& examples);

// What a task's scores are called: its tokens are characters, the translation's words, or a
// reader's words (which may be phonemes or digits: tokens). Both scores go token by token; the
// per-token accuracy compares position with position, the error rate counts edits.
struct ScoreNames {
    const char* per_token;   // "per-character"
    const char* error_rate;  // "character error rate"
    const char* short_rate;  // "CER"
};
inline ScoreNames score_names(const Task& task) {
    if (!task.output.words) return {"per-character", "character error rate", "CER"};
    if (&task == &translation_task()) return {"per-word", "word error rate", "WER"};
    return {"per-token", "token error rate", "TER"};
}

// Whether BLEU is reported for a task: the translation's, or a task of words whose reader asked
// for it (`asked`; a reader's words may be phonemes or digits, where BLEU's n-grams mean nothing).
inline bool reports_bleu(const Task& task, bool asked) { return &task == &translation_task() || (asked && task.output.words); }

// What one epoch of training measured (training/trainer.h's epoch_history, io/worker_codec.h's reports).
struct EpochRecord {
    int epoch;         // 1-based
    float train_loss;  // mean of the epoch's batch losses
    float exact;       // held-out exact match (NaN if not evaluated)
    float per_char;    // held-out per-character accuracy (NaN if not evaluated)
    float aer = NAN;   // held-out alignment error rate (NaN if not evaluated or the model has no map)
    float bleu = NAN;  // held-out BLEU (NaN if not evaluated or the task's tokens are not words)
    float token_error_rate = NAN;  // held-out Metrics::token_error_rate (NaN if not evaluated)
};

}  // namespace lb
