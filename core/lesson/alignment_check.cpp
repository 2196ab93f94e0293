// core/lesson/alignment_check.cpp — see alignment_check.h.
#include "lesson/alignment_check.h"

#include <algorithm>
#include <numeric>

namespace lb {

std::optional<AlignmentCheck> check_alignment(const Model& model, const std::vector<Example>& examples,
                                              int batch_rows) {
    const auto read_attention = model_kind(model.config.decoder).read_attention;
    if (!read_attention) return std::nullopt;
    const Task& task = *model.config.task;
    AlignmentCheck check;
    Activations acts;
    std::vector<int> indices;
    for (size_t first = 0; first < examples.size(); first += size_t(batch_rows)) {
        const size_t last = std::min(examples.size(), first + size_t(batch_rows));
        indices.resize(last - first);
        std::iota(indices.begin(), indices.end(), int(first));
        const Batch batch = make_batch(task, examples, indices);
        model_forward(acts, batch, model);  // teacher-forced: the maps of the target's steps
        for (int b = 0; b < batch.B; ++b) {
            const Example& ex = examples[first + size_t(b)];
            const int L = batch.src_len[size_t(b)];
            const int steps = int(task.output.split(ex.target).size());
            Decoded d;
            d.heads = xt::zeros<float>({size_t(0), size_t(0), size_t(0)});  // set by a Transformer's
            read_attention(d, acts, model.config, b, L, batch.S);
            check.map.add(score_alignment(d.attention.data(), steps, L, L, ex.alignment));
            const int heads = int(d.heads.shape(0));
            check.heads.resize(size_t(heads));
            for (int h = 0; h < heads; ++h)
                check.heads[size_t(h)].add(score_alignment(&d.heads(h, 0, 0), steps, L, L, ex.alignment));
        }
    }
    return check;
}

}  // namespace lb
