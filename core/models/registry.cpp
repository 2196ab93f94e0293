// core/models/registry.cpp — the table of model kinds. Each row is made in its family's file,
// beside the functions it names (encoder_decoder.cpp, transformer.cpp, bahdanau.cpp, luong.cpp).
#include "models/registry.h"

#include <stdexcept>
#include "models/encoder_decoder.h"
#include "models/bahdanau.h"
#include "models/luong.h"
#include "models/model.h"

namespace lb {

void read_step_alignment(Decoded& d, const Activations& a, const ModelConfig&, int b, int L, int S) {
    const int T = a.T;
    const float* alpha = alignment_map(a);
    d.attention = xt::zeros<float>({size_t(T), size_t(L)});
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < L; ++j) d.attention(t, j) = alpha[(size_t(b) * T + t) * S + j];
}

namespace {

// In DecoderKind's order: a row's place is its id.
std::vector<ModelKind>& table() {
    static std::vector<ModelKind> rows = {
        plain_kind(), attention_kind(), transformer_kind(), bahdanau_kind(), luong_kind(), luong_local_kind(),
    };
    return rows;
}

}  // namespace

const ModelKind& model_kind(DecoderKind kind) {
    const std::vector<ModelKind>& rows = table();
    const int id = int(kind);
    if (id < 0 || size_t(id) >= rows.size())
        throw std::invalid_argument("no model kind has the id " + std::to_string(id));
    return rows[size_t(id)];
}

std::vector<DecoderKind> model_kinds() {
    std::vector<DecoderKind> kinds;
    for (size_t id = 0; id < table().size(); ++id) kinds.push_back(DecoderKind(int(id)));
    return kinds;
}

DecoderKind register_model_kind(ModelKind row) {
    for (const ModelKind& existing : table())
        if (existing.name == row.name)
            throw std::invalid_argument("a model kind is already called " + std::string(row.name));
    table().push_back(std::move(row));
    return DecoderKind(int(table().size()) - 1);
}

std::vector<ModelConfig> model_variants(DecoderKind kind, int H) {
    const ModelKind& row = model_kind(kind);
    std::vector<ModelConfig> variants;
    std::vector<Scorer> scorers;
    for (const ScorerChoice& choice : row.scorers) scorers.push_back(choice.scorer);
    if (scorers.empty()) scorers.push_back(row.default_scorer);
    for (Scorer scorer : scorers)
        for (bool feeding : {false, true}) {
            if (feeding && !row.input_feeding) continue;
            for (Memory memory : {Memory::all, Memory::first}) {
                if (memory == Memory::first && !row.transformer_options) continue;
                ModelConfig config;
                config.decoder = kind;
                config.scorer = scorer;
                config.H = H;
                config.input_feeding = feeding;
                config.memory = memory;
                if (row.transformer_options) config.heads = H % 2 == 0 ? 2 : 1;
                variants.push_back(config);
            }
        }
    return variants;
}

}  // namespace lb
