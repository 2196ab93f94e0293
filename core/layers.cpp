// core/layers.cpp — embedding, dense, softmax cross-entropy (see layers.h).
//
// Legend: N rows, E embedding width, H input width of dense, V vocabulary.
#include "layers.h"

#include <cmath>
#include <cstring>
#include "kernels.h"

namespace lb {

// --- activations ------------------------------------------------------------
namespace {

typedef float f32x8 __attribute__((vector_size(32)));
typedef int32_t i32x8 __attribute__((vector_size(32)));
constexpr int lanes = 8;

f32x8 splat(float x) { return f32x8{} + x; }
// Lane-wise a < b ? a : b and a > b ? a : b, as bit selects (a vector `?:` is
// not portable between gcc and clang).
f32x8 select(i32x8 mask, f32x8 a, f32x8 b) {
    return (f32x8)((mask & (i32x8)a) | (~mask & (i32x8)b));
}
f32x8 clamp(f32x8 x, float lo, float hi) {
    x = select(x < lo, splat(lo), x);
    return select(x > hi, splat(hi), x);
}

f32x8 exp8(f32x8 x) {
    x = clamp(x, -87.0f, 88.0f);
    // k = round(x / ln2): add ±0.5 (the sign of x), truncate
    const f32x8 scaled = x * 1.44269504f;
    const f32x8 half = (f32x8)(((i32x8)splat(0.5f)) | ((i32x8)scaled & int32_t(0x80000000u)));
    const i32x8 ki = __builtin_convertvector(scaled + half, i32x8);
    const f32x8 k = __builtin_convertvector(ki, f32x8);
    const f32x8 r = (x - k * 0.693145752f) - k * 1.42860677e-6f;  // ln2 in two parts
    f32x8 p = splat(1.0f / 5040.0f);
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * (f32x8)((ki + 127) << 23);  // 2^k from its exponent bits, k in [−126, 127]
}
f32x8 sigmoid8(f32x8 x) { return 1.0f / (1.0f + exp8(-x)); }
f32x8 tanh8(f32x8 x) { return 1.0f - 2.0f / (exp8(2.0f * x) + 1.0f); }

// y = f(x) over n floats: whole vectors, then the tail through a zero-padded one.
template <f32x8 (*f)(f32x8)>
void apply(float* y, const float* x, int n) {
    int i = 0;
    for (; i + lanes <= n; i += lanes) {
        f32x8 v;
        std::memcpy(&v, x + i, sizeof v);
        v = f(v);
        std::memcpy(y + i, &v, sizeof v);
    }
    if (i < n) {
        f32x8 v = splat(0.0f);
        std::memcpy(&v, x + i, sizeof(float) * size_t(n - i));
        v = f(v);
        std::memcpy(y + i, &v, sizeof(float) * size_t(n - i));
    }
}

}  // namespace

void exp_array(float* y, const float* x, int n) { apply<exp8>(y, x, n); }
void sigmoid_array(float* y, const float* x, int n) { apply<sigmoid8>(y, x, n); }
void tanh_array(float* y, const float* x, int n) { apply<tanh8>(y, x, n); }

float dot(const float* a, const float* b, int n) {
    f32x8 sum = splat(0.0f);
    int i = 0;
    for (; i + lanes <= n; i += lanes) {
        f32x8 va, vb;
        std::memcpy(&va, a + i, sizeof va);
        std::memcpy(&vb, b + i, sizeof vb);
        sum += va * vb;
    }
    float total = 0;
    for (int k = 0; k < lanes; ++k) total += sum[k];
    for (; i < n; ++i) total += a[i] * b[i];
    return total;
}

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
        // −log p_target computed from the logits, exact even when p_target underflows
        loss += double(std::log(sum)) - double(x[targets[n]] - max);
    }
    return float(loss / N);
}

void softmax_cross_entropy_backward(float* dlogits, const float* probs, const int32_t* targets,
                                    int N, int V) {
    // backward of: loss = mean_n (log Σ_v exp(x_nv) − x_n,target)
    const float scale = 1.0f / N;
    for (int n = 0; n < N; ++n) {
        float* d = dlogits + size_t(n) * V;
        const float* p = probs + size_t(n) * V;
        for (int v = 0; v < V; ++v) d[v] += scale * p[v];
        d[targets[n]] -= scale;
    }
}

}  // namespace lb
