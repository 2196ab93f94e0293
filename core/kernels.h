// core/kernels.h — the hot loops of Lookback, written once.
//
// Every product in the models goes through these functions. Each has a plain
// scalar twin in namespace `ref` that the tests compare against; the fast
// versions use portable SIMD (vector extensions) so the same source compiles
// to SSE/AVX natively and to SIMD128 in WebAssembly.
//
// Legend: M, N, K are matrix sizes; all matrices are row-major with leading
// dimensions (row strides) lda, ldb, ldc >= their row length, so a time step
// of a batch-major [B, T, H] tensor can be passed without copying
// (pointer = base + t*H, ld = T*H).
#pragma once

namespace lb::kernels {

// C[M,N] = (accumulate ? C : 0) + A[M,K] · B[K,N]
void matmul_nn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
// C[M,N] = (accumulate ? C : 0) + A[M,K] · B[N,K]ᵀ
void matmul_nt(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
// C[M,N] = (accumulate ? C : 0) + A[K,M]ᵀ · B[K,N]
void matmul_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);

// NEW (issue 4): dst[cols, rows] = src[rows, cols]ᵀ (row strides ld_src, ld_dst).
// matmul_nt transposes its B on every call (about a quarter of the time of a
// 64 × 192 × 64 product); when many products share one B — W_hh over the steps
// of a batch — transpose it once and call matmul_nn on the copy instead.
void transpose(int rows, int cols, const float* src, int ld_src, float* dst, int ld_dst);

// Plain scalar twins: the reference the tests hold the fast kernels to.
namespace ref {
void matmul_nn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
void matmul_nt(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
void matmul_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
void transpose(int rows, int cols, const float* src, int ld_src, float* dst, int ld_dst);
}  // namespace ref

// Whether this build's fast kernels use SIMD (false for the scalar WASM build).
bool simd_enabled();
// Floats per vector in this build's fast kernels: 16 (AVX-512), 8 (AVX), 4 (SSE,
// WASM SIMD128) or 1 (scalar).
int simd_width();

}  // namespace lb::kernels
