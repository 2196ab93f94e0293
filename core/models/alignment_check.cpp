// core/models/alignment_check.cpp — see alignment_check.h.
#include "models/alignment_check.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace lb {

namespace {

// The teacher-forced maps of examples[from, to), `batch_rows` at a time: visit(i, map of
// examples[i]), in order. The one place a forced map is read. Returns false, visiting none, for a
// model without attention.
bool visit_forced_maps(Activations& acts, const Model& model, const std::vector<Example>& examples,
                       size_t from, size_t to, int batch_rows,
                       const std::function<void(size_t, const ForcedMap&)>& visit) {
    const auto read_attention = model_kind(model.config.decoder).read_attention;
    if (!read_attention) return false;
    const Task& task = *model.config.task;
    std::vector<int> indices;
    for (size_t first = from; first < to; first += size_t(batch_rows)) {
        const size_t last = std::min(to, first + size_t(batch_rows));
        indices.resize(last - first);
        std::iota(indices.begin(), indices.end(), int(first));
        const Batch batch = make_batch(task, examples, indices);
        model_forward(acts, batch, model);  // teacher-forced: the maps of the target's steps
        for (int b = 0; b < batch.B; ++b) {
            const Example& ex = examples[first + size_t(b)];
            const size_t L = size_t(batch.src_len[size_t(b)]);
            const size_t T = task.output.split(ex.target).size();
            Decoded d;  // every step's rows [output_steps, L]; kept: the target's T
            d.heads = xt::zeros<float>({size_t(0), size_t(0), size_t(0)});  // set by a Transformer's
            read_attention(d, acts, model.config, b, int(L), batch.S);
            ForcedMap map;
            map.attention = xt::zeros<float>({T, L});
            for (size_t t = 0; t < T; ++t)
                for (size_t j = 0; j < L; ++j) map.attention(t, j) = d.attention(t, j);
            const size_t A = d.heads.shape(0);
            map.heads = xt::zeros<float>({A, A ? T : 0, A ? L : 0});
            for (size_t h = 0; h < A; ++h)
                for (size_t t = 0; t < T; ++t)
                    for (size_t j = 0; j < L; ++j) map.heads(h, t, j) = d.heads(h, t, j);
            visit(first + size_t(b), map);
        }
    }
    return true;
}

}  // namespace

std::optional<ForcedMap> forced_map(const Model& model, const Example& example) {
    std::optional<ForcedMap> out;
    Activations acts;
    visit_forced_maps(acts, model, {example}, 0, 1, 1, [&](size_t, const ForcedMap& map) { out = map; });
    return out;
}

std::optional<AlignmentCheck> check_alignment(const Model& model, const std::vector<Example>& examples,
                                              int batch_rows) {
    AlignmentCheck check;
    Activations acts;
    if (!add_alignment_scores(check, acts, model, examples, 0, examples.size(), batch_rows)) return std::nullopt;
    return check;
}

bool add_alignment_scores(AlignmentCheck& check, Activations& acts, const Model& model,
                          const std::vector<Example>& examples, size_t first, size_t last, int batch_rows) {
    return visit_forced_maps(acts, model, examples, first, last, batch_rows, [&](size_t i, const ForcedMap& map) {
        const std::vector<AlignmentLink>& links = examples[i].alignment;
        const int T = int(map.attention.shape(0)), L = int(map.attention.shape(1));
        check.map.add(score_alignment(map.attention.data(), T, L, L, links));
        const size_t heads = map.heads.shape(0);
        check.heads.resize(heads);
        for (size_t h = 0; h < heads; ++h)
            check.heads[h].add(score_alignment(&map.heads(h, 0, 0), T, L, L, links));
    });
}

}  // namespace lb
