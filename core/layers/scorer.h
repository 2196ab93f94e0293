// core/layers/scorer.h — the attention scoring functions, by name.
#pragma once
#include <string_view>

namespace lb {

// e(s, h) for decoder state s and encoder state h:
//   dot      (Luong)    sᵀh                    no parameters
//   general  (Luong)    sᵀ W h                 W  [H, H]
//   additive (Bahdanau) vᵀ tanh(W_d s + W_e h)  W_d, W_e [H, H], v [H]
enum class Scorer { dot, general, additive };

inline std::string_view scorer_name(Scorer s) {
    switch (s) {
        case Scorer::dot: return "dot";
        case Scorer::general: return "general";
        case Scorer::additive: return "additive";
    }
    return "?";
}

// Parameters of a scorer at state width H (additive: W_e, W_d [H, H] and v [H]).
inline long scorer_parameter_count(Scorer s, long H) {
    switch (s) {
        case Scorer::dot: return 0;
        case Scorer::general: return H * H;
        case Scorer::additive: return 2 * H * H + H;
    }
    return 0;
}

}  // namespace lb
