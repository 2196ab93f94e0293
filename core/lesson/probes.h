// core/lesson/probes.h — two ways to ask a trained model what its output depends on,
// as plain functions for the figures (which only draw what they get back).
//
//   occlusion      blank input position j (its token becomes pad_token) and
//                  decode again; changed[t, j] = 1 where output token t
//                  differs from the unblanked output's (or only one of them has
//                  a token t). Greedy decoding, any model.
//   gradient path  for the teacher-forced mean loss of input → target,
//                  ‖∂loss/∂h_j‖ at every encoder state h_j: in total (also
//                  through the later encoder steps h_{j+1}, h_{j+2}, …) and the
//                  part arriving directly from the decoder. The plain decoder
//                  reads only h_{len−1} (s_0), so its direct part is 0 at every
//                  other position; with attention it reaches every h_j.
//
// A string the model cannot take (empty, or a character outside the input
// vocabulary) and a position or target out of range throw
// std::invalid_argument with a message naming the problem, as Vocabulary::encode
// and make_batch do. Callers that take a reader's text check it first with
// encode_user_input (data/task.h).
//
// Legend: T output steps (the task's), S input tokens, H width.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "models/model.h"

namespace lb {

struct Occlusion {
    std::string reference;      // [T] the output with nothing blanked
    std::vector<std::string> outputs;  // [S] × [T] the output with position j blanked
    std::vector<float> changed; // [T, S] row-major: 1 where outputs[j][t] != reference[t], else 0
    int T = 0, S = 0;
};
// Decodes `input` once as it is and once with each position blanked in turn.
Occlusion occlusion(const Model& model, std::string_view input);
// The output with one position (0 ≤ position < S) blanked.
std::string occluded_output(const Model& model, std::string_view input, int position);

struct GradientPath {
    float loss = 0;              // the teacher-forced mean cross-entropy
    std::vector<float> total;    // [S] ‖∂loss/∂h_j‖, every path
    std::vector<float> direct;   // [S] ‖∂loss/∂h_j‖ through the decoder alone
};
// The models whose gradient path is measured (their rows say so: the plain and the lesson's
// attention model, whose one-way encoder's caches the norms read).
inline bool has_gradient_path(DecoderKind kind) { return model_kind(kind).gradient_path; }
// `target` is a target of the model's task (e.g. the model's own output, or the true date). Other models
// than has_gradient_path's throw std::invalid_argument.
GradientPath gradient_path(const Model& model, std::string_view input, std::string_view target);

}  // namespace lb
