// core/models/alignment_check.h — a model's attention scored against the alignment its task
// knows (data/alignment_scores.h): the measurement behind "an alignment map is evidence only when
// you know the right alignment". docs/tasks.md defines the scores. The held-out evaluator
// (training/trainer.h) scores every epoch's maps with it; the article's figures read one map.
//
// The maps are read under teacher forcing on each example's own target (forced decoding, as
// alignments are taken from translation models): step t's map is where the model looks while it
// writes target token t, whatever it would have written itself. Only the steps that write the
// target's tokens are kept and scored (not the end token's step, not padding).
//
// Legend: T the target's tokens (a date's 10), L the input's tokens, A a Transformer's heads.
#pragma once
#include <optional>
#include <vector>
#include <xtensor/xtensor.hpp>

#include "data/alignment_scores.h"
#include "models/model.h"

namespace lb {

// One example's teacher-forced map. Row t sums to one (a local window cut by the input's ends:
// at most one).
struct ForcedMap {
    xt::xtensor<float, 2> attention;  // [T, L]; a Transformer's cross-attention, mean over heads
    xt::xtensor<float, 3> heads;      // a Transformer's [A, T, L], each head's; else [0, 0, 0]
};
// Empty for a model without attention (its registry row reads no map). Throws
// std::invalid_argument for an example its task cannot batch. check_alignment reads its maps
// through the same code, in batches.
std::optional<ForcedMap> forced_map(const Model& model, const Example& example);

struct AlignmentCheck {
    AlignmentScores map;                // the one map a step (a Transformer: the mean over heads)
    std::vector<AlignmentScores> heads; // a Transformer's cross-attention, head by head; else empty
};
// Empty for a model without attention (its registry row reads no map). Throws
// std::invalid_argument for an example its task cannot batch.
std::optional<AlignmentCheck> check_alignment(const Model& model, const std::vector<Example>& examples,
                                              int batch_rows = decode_batch_rows);
// The same for examples[first, last), added to `check` and read in `acts` (the held-out
// evaluator's, a batch at a time); false, adding nothing, for a model without attention.
bool add_alignment_scores(AlignmentCheck& check, Activations& acts, const Model& model,
                          const std::vector<Example>& examples, size_t first, size_t last,
                          int batch_rows = decode_batch_rows);

}  // namespace lb
