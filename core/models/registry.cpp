// core/models/registry.cpp — the table of model kinds. Each row is made in its family's file,
// beside the functions it names (encoder_decoder.cpp, transformer.cpp, bahdanau.cpp, luong.cpp).
#include "models/registry.h"

#include <stdexcept>
#include "models/encoder_decoder.h"
#include "models/bahdanau.h"
#include "models/luong.h"
#include "models/model.h"
#include "text/text.h"

namespace lb {

void read_step_alignment(Decoded& d, const Activations& a, const ModelConfig&, int b, int L, int S) {
    const int T = a.T;
    const float* alpha = alignment_map(a);
    d.attention = xt::zeros<float>({size_t(T), size_t(L)});
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < L; ++j) d.attention(t, j) = alpha[(size_t(b) * T + t) * S + j];
}

namespace {

// Each built-in row beside its id. The table's place of a row is its id, so the list must run
// through the ids in order, all of them.
struct BuiltInRow {
    DecoderKind id;
    ModelKind (*make)();
};
constexpr BuiltInRow built_in_rows[] = {
    {DecoderKind::plain, plain_kind},       {DecoderKind::attention, attention_kind},
    {DecoderKind::transformer, transformer_kind}, {DecoderKind::bahdanau, bahdanau_kind},
    {DecoderKind::luong, luong_kind},       {DecoderKind::luong_local, luong_local_kind},
};
constexpr bool every_row_at_its_id() {
    int place = 0;
    for (const BuiltInRow& row : built_in_rows)
        if (int(row.id) != place++) return false;
    return place == int(DecoderKind::first_registered);
}
static_assert(every_row_at_its_id(), "built_in_rows must list every built-in DecoderKind once, in the enum's order");

std::vector<ModelKind>& table() {
    static std::vector<ModelKind> rows = [] {
        std::vector<ModelKind> made;
        for (const BuiltInRow& row : built_in_rows) made.push_back(row.make());
        return made;
    }();
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

size_t pair_slot(DecoderKind kind) { return model_kind(kind).has_attention() ? attention_slot : plain_slot; }

std::vector<Memory> memory_choices(DecoderKind kind) {
    return model_kind(kind).has_memory_choice() ? std::vector{Memory::first, Memory::all} : std::vector{Memory::all};
}

bool reads_every_state(const ModelConfig& config) {
    return !model_kind(config.decoder).has_memory_choice() || config.memory == Memory::all;
}

std::string kind_names(bool (*which)(const ModelKind&)) {
    std::vector<std::string> names;
    for (const ModelKind& row : table())
        if (which(row)) names.emplace_back(row.name);
    return list_text(names, "and");
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
            for (Memory memory : memory_choices(kind)) {
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
