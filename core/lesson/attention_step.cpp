// core/lesson/attention_step.cpp — see attention_step.h.
#include "lesson/attention_step.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lb {
namespace {

double dot(const Vec& a, const Vec& b) {
    if (a.size() != b.size()) throw std::invalid_argument("attention: vector widths differ");
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

Vec matvec(const Mat& M, const Vec& x) {
    Vec y;
    y.reserve(M.size());
    for (const Vec& row : M) y.push_back(dot(row, x));
    return y;
}

}  // namespace

double score(Scorer scorer, const Vec& s, const Vec& h, const ScorerParams& p) {
    switch (scorer) {
        case Scorer::dot:
            return dot(s, h);
        case Scorer::general:  // sᵀ (W h)
            if (p.W.size() != s.size()) throw std::invalid_argument("general: W must be D×D");
            return dot(s, matvec(p.W, h));
        case Scorer::additive: {  // vᵀ tanh(W_e h + W_d s)
            const Vec k = matvec(p.W_e, h), q = matvec(p.W_d, s);
            if (k.size() != q.size() || k.size() != p.v.size())
                throw std::invalid_argument("additive: W_e, W_d and v disagree in width");
            double sum = 0;
            for (size_t a = 0; a < k.size(); ++a) sum += p.v[a] * std::tanh(k[a] + q[a]);
            return sum;
        }
    }
    throw std::invalid_argument("unknown scorer");
}

AttentionStep attention_step(Scorer scorer, const Vec& s, const Mat& hs, const ScorerParams& p,
                             double temperature) {
    if (hs.empty()) throw std::invalid_argument("attention: no encoder states");
    if (!(temperature > 0) || !std::isfinite(temperature))
        throw std::invalid_argument("attention: the temperature must be a positive number");
    AttentionStep out;
    out.temperature = temperature;
    for (const Vec& h : hs) out.scores.push_back(score(scorer, s, h, p));

    const double top = *std::max_element(out.scores.begin(), out.scores.end());
    double shifted_sum = 0;
    for (double e : out.scores) {
        out.exps.push_back(std::exp(e / temperature));
        shifted_sum += std::exp((e - top) / temperature);
    }
    out.denominator = 0;
    for (double x : out.exps) out.denominator += x;
    for (double e : out.scores) out.weights.push_back(std::exp((e - top) / temperature) / shifted_sum);

    const double s_length = std::sqrt(dot(s, s));
    for (const Vec& h : hs) {
        const double length = std::sqrt(dot(h, h));
        out.lengths.push_back(length);
        out.cosines.push_back(length > 0 && s_length > 0 ? dot(s, h) / (s_length * length) : std::nan(""));
    }

    out.context.assign(s.size(), 0.0);
    for (size_t i = 0; i < hs.size(); ++i) {
        if (hs[i].size() != s.size()) throw std::invalid_argument("attention: state widths differ");
        for (size_t d = 0; d < s.size(); ++d) out.context[d] += out.weights[i] * hs[i][d];
    }
    return out;
}

}  // namespace lb
