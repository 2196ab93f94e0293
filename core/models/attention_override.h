// core/models/attention_override.h — the hook of counterfactual decoding (counterfactual.h):
// attention weights that replace a greedy decoding's own at one output step of one batch row.
// Every family's greedy decoding takes a list of them; with none it decodes as it always did,
// bit for bit. At an overridden step it scores and weighs as usual, then puts the given
// weights in place of its own and recomputes the context vector from them, so the step's
// output and every later step read the edited context; later steps score freely. The list is
// trusted here: counterfactual.h checks it.
#pragma once
#include <span>

namespace lb {

constexpr int every_head = -1;

struct AttentionOverride {
    int row = 0;                     // batch row b
    int step = 0;                    // output step t, 0-based
    int head = every_head;           // a Transformer's cross-attention head, or all of them;
                                     // the GRU models have one map: every_head
    const float* weights = nullptr;  // [src_len[b]] α_t over the row's real positions
};
using AttentionOverrides = std::span<const AttentionOverride>;

}  // namespace lb
