// core/models/counterfactual.h — "what if the decoder had looked elsewhere?": greedy decoding of
// one input with the attention weights of chosen output steps replaced by given ones. At an
// edited step the context vector is recomputed from the edited weights, through the model's own
// decoding (attention_override.h's hook in each family); every later step runs free on the
// model's own outputs. Both decodings come back, the model's own and the edited one, with their
// maps and the output steps whose token changed: the page's "move the attention, see the answer
// change" and `lookback predict --attend` (docs/tasks.md, "Counterfactual attention").
//
// What an edit replaces, by kind:
//   attention, bahdanau, luong   α_t over the input's positions (bahdanau: over its annotations)
//   luong-local                  the final weights a_t over all the input's positions, in the
//                                window or not: the step's window and Gaussian are bypassed. Its
//                                own rows sum to at most one, so an edit may sum to less than one
//   transformer                  the cross-attention of one head, or of every head at once (the
//                                same row for each); with memory `first` only position 0 is read,
//                                so an edit may weigh nothing else
//
// Legend: T output steps, L the input's positions.
#pragma once
#include <vector>

#include "models/attention_override.h"
#include "models/model.h"

namespace lb {

// How far from one an edit's weights may sum (for luong-local: above one), in double.
constexpr double edit_sum_tolerance = 1e-4;

struct AttentionEdit {
    int step = 0;                // output step t, 0-based
    std::vector<float> weights;  // [L] the step's new weights, one per input position
    int head = every_head;       // a Transformer's cross-attention head (0-based), or every head
};

struct Counterfactual {
    Decoded original;  // the model's own greedy decoding, as decode_tokens gives it
    Decoded edited;    // with the edits; the edited rows of its maps are the weights given (a
                       // Transformer's mean map: the mean of its heads' rows, edited or not)
    std::vector<int> changed_steps;  // output steps whose token differs, ascending (a step one
                                     // output writes and the other does not, past its end, too)
};

// Decodes tokens (as decode_tokens takes them) twice: freely, then with the edits. Throws
// std::invalid_argument, naming what is wrong, and nothing else: for a model without attention;
// an edit of a step outside the T output steps, of a head outside the Transformer's (or of a head
// at all, for a model with one map), or of a step (and head) edited twice; weights that do not
// cover the input's L positions (more weigh padding, which attention never reads), weigh a
// position the model cannot read (a Transformer with memory `first`: any but 0), are negative
// or not finite, or do not sum to one within edit_sum_tolerance (luong-local: exceed one); tokens
// decode_tokens refuses; and weights that overflow in decoding (decoding_check.h's DecodingError).
Counterfactual decode_counterfactual(const Model& model, const std::vector<int>& tokens,
                                     const std::vector<AttentionEdit>& edits);

// The edit that moves step's attention wholly onto one input position: weight 1 there, 0 at the
// other input_length − 1. Throws std::invalid_argument for a position outside 0 … input_length − 1.
AttentionEdit attention_on(int step, int position, int input_length, int head = every_head);

}  // namespace lb
