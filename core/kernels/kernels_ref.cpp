// core/kernels/kernels_ref.cpp — plain scalar reference kernels (see kernels.h).
#include "kernels/kernels.h"

#include <algorithm>
#include <cmath>

namespace lb::kernels::ref {

void matmul_nn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float sum = accumulate ? C[i * ldc + j] : 0.0f;
            for (int k = 0; k < K; ++k) sum += A[i * lda + k] * B[k * ldb + j];
            C[i * ldc + j] = sum;
        }
}

void matmul_nt(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float sum = accumulate ? C[i * ldc + j] : 0.0f;
            for (int k = 0; k < K; ++k) sum += A[i * lda + k] * B[j * ldb + k];
            C[i * ldc + j] = sum;
        }
}

void matmul_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            float sum = accumulate ? C[i * ldc + j] : 0.0f;
            for (int k = 0; k < K; ++k) sum += A[k * lda + i] * B[k * ldb + j];
            C[i * ldc + j] = sum;
        }
}

void transpose(int rows, int cols, const float* src, int ld_src, float* dst, int ld_dst) {
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) dst[c * ld_dst + r] = src[r * ld_src + c];
}

void exp_array(float* y, const float* x, int n) {
    for (int i = 0; i < n; ++i) y[i] = std::exp(std::clamp(x[i], -87.0f, 88.0f));
}

void sigmoid_array(float* y, const float* x, int n) {
    for (int i = 0; i < n; ++i) y[i] = 1.0f / (1.0f + std::exp(-x[i]));
}

void tanh_array(float* y, const float* x, int n) {
    for (int i = 0; i < n; ++i) y[i] = std::tanh(x[i]);
}

float dot(const float* a, const float* b, int n) {
    float sum = 0;
    for (int i = 0; i < n; ++i) sum += a[i] * b[i];
    return sum;
}

void additive_scores(float* e, float* u, const float* k, const float* q, const float* v, int L,
                     int H) {
    for (int j = 0; j < L; ++j) {
        float sum = 0;
        for (int i = 0; i < H; ++i) {
            u[j * H + i] = std::tanh(k[j * H + i] + q[i]);
            sum += v[i] * u[j * H + i];
        }
        e[j] = sum;
    }
}

}  // namespace lb::kernels::ref
