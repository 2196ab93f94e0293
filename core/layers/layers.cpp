// core/layers/layers.cpp — embedding, dense, softmax cross-entropy, masked softmax
// (see layers.h).
//
// Legend: N rows, E embedding width, H input width of dense, V vocabulary.
#include "layers/layers.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include "kernels/kernels.h"

namespace lb {

void embedding_forward(float* out, const int32_t* ids, const float* weight, int N, int E,
                       int ld_out) {
    for (int n = 0; n < N; ++n)
        std::memcpy(out + size_t(n) * ld_out, weight + size_t(ids[n]) * E, sizeof(float) * E);
}

void embedding_backward(float* dweight, const float* dout, const int32_t* ids, int N, int E,
                        int ld_dout) {
    // backward of: out[n, :] = weight[ids[n], :]
    for (int n = 0; n < N; ++n) {
        float* row = dweight + size_t(ids[n]) * E;
        const float* d = dout + size_t(n) * ld_dout;
        for (int e = 0; e < E; ++e) row[e] += d[e];
    }
}

void dense_forward(float* out, const float* in, const float* weight, const float* bias, int N,
                   int H, int V) {
    for (int n = 0; n < N; ++n) std::memcpy(out + size_t(n) * V, bias, sizeof(float) * V);
    kernels::matmul_nt(N, V, H, in, H, weight, H, out, V, true);
}

void dense_backward(float* din, float* dweight, float* dbias, const float* dout, const float* in,
                    const float* weight, int N, int H, int V) {
    // backward of: out = in · weightᵀ + bias
    if (din) kernels::matmul_nn(N, H, V, dout, V, weight, H, din, H, true);
    kernels::matmul_tn(V, H, N, dout, V, in, H, dweight, H, true);
    for (int n = 0; n < N; ++n)
        for (int v = 0; v < V; ++v) dbias[v] += dout[size_t(n) * V + v];
}

float softmax_cross_entropy_forward(float* probs, const float* logits, const int32_t* targets,
                                    int N, int V) {
    double loss = 0;
    int scored = 0;
    for (int n = 0; n < N; ++n) {
        const float* x = logits + size_t(n) * V;
        float* p = probs + size_t(n) * V;
        float max = x[0];
        for (int v = 1; v < V; ++v) max = x[v] > max ? x[v] : max;
        float sum = 0;
        for (int v = 0; v < V; ++v) {
            p[v] = std::exp(x[v] - max);
            sum += p[v];
        }
        const float inv = 1.0f / sum;
        for (int v = 0; v < V; ++v) p[v] *= inv;
        if (targets[n] == unscored_target) continue;
        // −log p_target computed from the logits, exact even when p_target underflows
        loss += double(std::log(sum)) - double(x[targets[n]] - max);
        ++scored;
    }
    return scored > 0 ? float(loss / scored) : 0.0f;
}

void softmax_cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                                    int N, int V) {
    // backward of: loss = mean over the scored n of (log Σ_v exp(x_nv) − x_n,target)
    int scored = 0;
    for (int n = 0; n < N; ++n) scored += targets[n] != unscored_target;
    if (scored == 0) return;
    const float scale = 1.0f / scored;
    for (int n = 0; n < N; ++n) {
        if (targets[n] == unscored_target) continue;
        float* d = dlogits + size_t(n) * V;
        const float* p = probs + size_t(n) * V;
        for (int v = 0; v < V; ++v) d[v] += scale * p[v];
        d[targets[n]] -= scale;
    }
}

void masked_softmax_forward(float* row, int len, int width, float scale) {
    float max = row[0] * scale;
    for (int j = 0; j < len; ++j) {
        row[j] *= scale;
        max = std::max(max, row[j]);
    }
    for (int j = 0; j < len; ++j) row[j] -= max;
    kernels::exp_array(row, row, len);
    float sum = 0;
    for (int j = 0; j < len; ++j) sum += row[j];
    const float inv = 1.0f / sum;
    for (int j = 0; j < len; ++j) row[j] *= inv;
    for (int j = len; j < width; ++j) row[j] = 0.0f;
}

}  // namespace lb
