// web/lab/analysis.cpp — the Lab's analyses of a string (analysis.h): one decoding, occlusion,
// the gradient path (core/lesson/probes.h), a moved step, a task's map; each kept for the last
// few asked.
#include "analysis.h"

#include "lab.h"
#include "models/alignment_check.h"
#include "models/counterfactual.h"

namespace lb::web {

std::vector<std::string> tokens_of(const Vocabulary& vocab, const std::string& text) {
    std::vector<std::string> out;
    for (std::string_view token : vocab.split(text)) out.emplace_back(token);
    return out;
}

namespace {

// The first T rows of a map [steps, S] (a Decoded's rows run to the decoder's last step).
std::vector<float> first_rows(const float* map, size_t T, size_t S) { return std::vector<float>(map, map + T * S); }

// The first T rows of each head's map [A, steps, S], as [A, T, S].
std::vector<float> first_rows_of_heads(const xt::xtensor<float, 3>& heads, size_t T, size_t S) {
    std::vector<float> out;
    for (size_t h = 0, steps = heads.shape(1); h < heads.shape(0); ++h) {
        const std::vector<float> rows = first_rows(heads.data() + h * steps * S, T, S);
        out.insert(out.end(), rows.begin(), rows.end());
    }
    return out;
}

}  // namespace

ModelInput generated_input(const std::string& text) { return generated_input(date_task(), text); }
ModelInput generated_input(const Task& task, const std::string& text) { return {text, task.input.encode(text)}; }

Analyses::Weights Analyses::weights_of(const ModelRead& model) {
    return {model.run ? model.run->id() : 0, model.model, model.version};
}

std::shared_ptr<const Analysis> Analyses::analyse(const ModelRead& model, const ModelInput& input) {
    return analyses_.get({weights_of(model), input.text}, computed_.analyses, [&] {
        auto a = std::make_shared<Analysis>();
        const Decoded d = decode_tokens(input.tokens, *model.model);
        const int S = int(input.tokens.size());
        a->output = d.output;
        a->tokens = tokens_of(model.model->config.task->output, d.output);
        if (d.attention.size() > 0) a->attention = first_rows(d.attention.data(), a->tokens.size(), size_t(S));
        a->heads = int(d.heads.shape()[0]);
        a->head_attention = first_rows_of_heads(d.heads, a->tokens.size(), size_t(S));
        a->self_attention.assign(d.encoder_self_attention.begin(), d.encoder_self_attention.end());
        if (a->heads > 0) {
            a->self_mean.assign(size_t(S * S), 0.0f);
            for (int h = 0; h < a->heads; ++h)
                for (int i = 0; i < S * S; ++i) a->self_mean[size_t(i)] += a->self_attention[size_t(h * S * S + i)] / float(a->heads);
        }
        return a;
    });
}

std::shared_ptr<const Occlusion> Analyses::occlusion(const ModelRead& model, const ModelInput& input) {
    return occlusions_.get({weights_of(model), input.text}, computed_.occlusions,
                           [&] { return std::make_shared<Occlusion>(lb::occlusion(*model.model, input.text)); });
}

std::shared_ptr<const GradientPath> Analyses::gradient_path(const ModelRead& model, const ModelInput& input,
                                                            const std::string& target) {
    return gradient_paths_.get({weights_of(model), input.text, target}, computed_.gradient_paths, [&] {
        return std::make_shared<GradientPath>(lb::gradient_path(*model.model, input.text, target));
    });
}

std::shared_ptr<const WhatIf> Analyses::what_if(const ModelRead& model, const ModelInput& input, const Move& move) {
    return what_ifs_.get({weights_of(model), input.text, move}, computed_.what_ifs, [&] {
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
            w->tokens = tokens_of(model.model->config.task->output, w->output);
            w->attention = first_rows(c.edited.attention.data(), w->tokens.size(), size_t(S));
            w->heads = int(c.edited.heads.shape()[0]);
            w->head_attention = first_rows_of_heads(c.edited.heads, w->tokens.size(), size_t(S));
            w->changed = c.changed_steps;
        } catch (const std::exception& e) {  // a refused move is said, never thrown to the page
            *w = WhatIf{};
            w->error = e.what();
        }
        return w;
    });
}

namespace {

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
        const size_t T = m->rows.size();
        m->attention = first_rows(greedy.attention.data(), T, S);
        m->heads = int(greedy.heads.shape(0));
        m->head_attention = first_rows_of_heads(greedy.heads, T, S);
    }
    return m;
}

}  // namespace

std::shared_ptr<const TaskMap> Analyses::forced_task_map(const ModelRead& model, const Example& example) {
    const ModelInput input = generated_input(*model.model->config.task, example.input);
    return task_maps_.get({weights_of(model), input.text, example.target}, computed_.task_maps,
                          [&] { return compute_task_map(*model.model, input, &example); });
}

std::shared_ptr<const TaskMap> Analyses::typed_task_map(const ModelRead& model, const ModelInput& input) {
    return task_maps_.get({weights_of(model), input.text, ""}, computed_.task_maps,
                          [&] { return compute_task_map(*model.model, input, nullptr); });
}

const HeldOutOutputs& Analyses::held_out_outputs(const ModelRead& model, const std::vector<Example>& held_out) {
    auto& [weights, kept] = held_out_outputs_;
    if (!(weights == weights_of(model)) || kept.total != held_out.size()) {
        weights = weights_of(model);
        kept = {.outputs = {}, .total = held_out.size(), .error = "", .rows = {}};
    }
    // One decoding batch a call (decode_examples' rows), so a frame stays short.
    constexpr size_t slice = size_t(decode_batch_rows);
    if (!kept.complete() && kept.error.empty()) {
        const size_t from = kept.outputs.size(), to = std::min(kept.total, from + slice);
        const std::vector<Example> part(held_out.begin() + long(from), held_out.begin() + long(to));
        try {
            for (Decoded& d : decode_examples(part, *model.model, false)) kept.outputs.push_back(std::move(d.output));
            if (kept.complete()) kept.rows = prediction_rows(*model.model->config.task, held_out, kept.outputs);
        } catch (const std::exception& e) {
            kept.error = e.what();
        }
    }
    return kept;
}

}  // namespace lb::web
