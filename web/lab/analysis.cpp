// web/lab/analysis.cpp — analyse(): one decoding, occlusion and the gradient path of one string
// (core/lesson/probes.h), kept for the last few (model, weights, string, target) asked.
#include "analysis.h"

#include <algorithm>
#include <tuple>

#include "data/dataset.h"
#include "lesson/probes.h"

namespace lb::web {

ModelInput generated_input(const std::string& text) { return {text, date_task().input.encode(text)}; }

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

}  // namespace lb::web
