// web/lab/analysis.cpp — analyse(): one decoding, occlusion and the gradient path of one string
// (core/lesson/probes.h), kept for the last few (model, weights, string, target) asked.
#include "analysis.h"

#include <algorithm>
#include <tuple>

#include "data/dataset.h"
#include "models/alignment_check.h"
#include "models/counterfactual.h"
#include "lesson/probes.h"

namespace lb::web {

ModelInput generated_input(const std::string& text) { return generated_input(date_task(), text); }
ModelInput generated_input(const Task& task, const std::string& text) { return {text, task.input.encode(text)}; }

namespace {

std::shared_ptr<const Analysis> compute(const Model& model, const ModelInput& input, const std::string& gradient_target) {
    auto a = std::make_shared<Analysis>();
    const Decoded d = decode_tokens(input.tokens, model);
    const int S = int(input.tokens.size());
    a->output = d.output;
    a->attention.assign(d.attention.begin(), d.attention.end());
    a->heads = int(d.heads.shape()[0]);
    a->head_attention.assign(d.heads.begin(), d.heads.end());
    a->self_attention.assign(d.encoder_self_attention.begin(), d.encoder_self_attention.end());
    if (a->heads > 0) {
        a->self_mean.assign(size_t(S * S), 0.0f);
        for (int h = 0; h < a->heads; ++h)
            for (int i = 0; i < S * S; ++i) a->self_mean[size_t(i)] += a->self_attention[size_t(h * S * S + i)] / float(a->heads);
    }
    Occlusion o = occlusion(model, input.text);
    a->occluded = std::move(o.outputs);
    a->changed = std::move(o.changed);
    a->gradient_target = gradient_target.empty() ? a->output : gradient_target;
    if (has_gradient_path(model.config.decoder)) {
        GradientPath path = gradient_path(model, input.text, a->gradient_target);
        a->gradient_total = std::move(path.total);
        a->gradient_direct = std::move(path.direct);
    }
    return a;
}

}  // namespace

std::shared_ptr<const Analysis> analyse(const ModelRead& model, const ModelInput& input, const std::string& gradient_target) {
    struct Kept {
        const Model* model;
        long version;
        std::string input, target;
        std::shared_ptr<const Analysis> analysis;
    };
    static std::vector<Kept> kept;  // the newest last; the figures ask for four at most at a time
    constexpr size_t keep = 8;
    const auto key = [&](const Kept& k) { return std::tie(k.model, k.version, k.input, k.target); };
    const Kept wanted{model.model, model.version, input.text, gradient_target, nullptr};
    const auto found = std::find_if(kept.begin(), kept.end(), [&](const Kept& k) { return key(k) == key(wanted); });
    if (found != kept.end()) return found->analysis;
    if (kept.size() == keep) kept.erase(kept.begin());
    kept.push_back(wanted);
    kept.back().analysis = compute(*model.model, input, gradient_target);
    return kept.back().analysis;
}

std::shared_ptr<const WhatIf> what_if(const ModelRead& model, const ModelInput& input, const Move& move) {
    struct Kept {
        const Model* model;
        long version;
        std::string input;
        Move move;
        std::shared_ptr<const WhatIf> what_if;
    };
    static std::vector<Kept> kept;  // the newest last
    constexpr size_t keep = 4;
    const auto found = std::find_if(kept.begin(), kept.end(), [&](const Kept& k) {
        return k.model == model.model && k.version == model.version && k.input == input.text && k.move == move;
    });
    if (found != kept.end()) return found->what_if;
    auto w = std::make_shared<WhatIf>();
    try {
        const int S = int(input.tokens.size());
        if (move.first < 0 || move.last < move.first || move.last >= S)
            throw std::invalid_argument("the positions " + std::to_string(move.first) + "\u2013" + std::to_string(move.last) +
                                        " are not inside the input's 0\u2013" + std::to_string(S - 1));
        AttentionEdit edit{move.step, std::vector<float>(size_t(S), 0.0f), move.head};
        for (int j = move.first; j <= move.last; ++j) edit.weights[size_t(j)] = 1.0f / float(move.last - move.first + 1);
        const Counterfactual c = decode_counterfactual(*model.model, input.tokens, {edit});
        w->output = c.edited.output;
        w->attention.assign(c.edited.attention.begin(), c.edited.attention.end());
        w->heads = int(c.edited.heads.shape()[0]);
        w->head_attention.assign(c.edited.heads.begin(), c.edited.heads.end());
        w->changed = c.changed_steps;
    } catch (const std::exception& e) {  // a refused move is said, never thrown to the page
        *w = WhatIf{};
        w->error = e.what();
    }
    if (kept.size() == keep) kept.erase(kept.begin());
    kept.push_back({model.model, model.version, input.text, move, w});
    return w;
}

namespace {

std::vector<std::string> tokens_of(const Vocabulary& vocab, const std::string& text) {
    std::vector<std::string> out;
    for (std::string_view token : vocab.split(text)) out.emplace_back(token);
    return out;
}

// The first T rows of a map [steps, S] (a Decoded's rows run to the decoder's last step).
std::vector<float> first_rows(const float* map, size_t T, size_t S) { return std::vector<float>(map, map + T * S); }

std::shared_ptr<const TaskMap> compute_task_map(const Model& model, const ModelInput& input, const Example* known) {
    const Task& task = *model.config.task;
    auto m = std::make_shared<TaskMap>();
    m->columns = tokens_of(task.input, input.text);
    const Decoded greedy = decode_tokens(input.tokens, model);
    m->written = greedy.output;
    const size_t S = m->columns.size();
    if (known) {
        const std::optional<ForcedMap> forced = forced_map(model, *known);
        if (!forced) throw std::invalid_argument(model_label(model.config) + " reads no attention map");
        m->forced = true;
        m->rows = tokens_of(task.output, known->target);
        m->links = known->alignment;
        m->attention.assign(forced->attention.begin(), forced->attention.end());
        m->heads = int(forced->heads.shape(0));
        m->head_attention.assign(forced->heads.begin(), forced->heads.end());
        m->scores = score_alignment(m->attention.data(), int(m->rows.size()), int(S), int(S), m->links);
    } else {
        if (greedy.attention.size() == 0) throw std::invalid_argument(model_label(model.config) + " reads no attention map");
        m->rows = tokens_of(task.output, greedy.output);
        const size_t T = m->rows.size(), steps = greedy.attention.shape(0);
        m->attention = first_rows(greedy.attention.data(), T, S);
        m->heads = int(greedy.heads.shape(0));
        for (int h = 0; h < m->heads; ++h) {
            const std::vector<float> rows = first_rows(greedy.heads.data() + size_t(h) * steps * S, T, S);
            m->head_attention.insert(m->head_attention.end(), rows.begin(), rows.end());
        }
    }
    return m;
}

std::shared_ptr<const TaskMap> task_map(const ModelRead& model, const ModelInput& input, const Example* known) {
    struct Kept {
        const Model* model;
        long version;
        std::string input, target;  // target "": the greedy map of a typed input
        std::shared_ptr<const TaskMap> map;
    };
    static std::vector<Kept> kept;  // the newest last
    constexpr size_t keep = 8;
    const Kept wanted{model.model, model.version, input.text, known ? known->target : "", nullptr};
    const auto key = [](const Kept& k) { return std::tie(k.model, k.version, k.input, k.target); };
    const auto found = std::find_if(kept.begin(), kept.end(), [&](const Kept& k) { return key(k) == key(wanted); });
    if (found != kept.end()) return found->map;
    auto map = compute_task_map(*model.model, input, known);  // a throw keeps nothing
    if (kept.size() == keep) kept.erase(kept.begin());
    kept.push_back(wanted);
    kept.back().map = std::move(map);
    return kept.back().map;
}

}  // namespace

std::shared_ptr<const TaskMap> forced_task_map(const ModelRead& model, const Example& example) {
    return task_map(model, generated_input(*model.model->config.task, example.input), &example);
}

std::shared_ptr<const TaskMap> typed_task_map(const ModelRead& model, const ModelInput& input) {
    return task_map(model, input, nullptr);
}

}  // namespace lb::web
