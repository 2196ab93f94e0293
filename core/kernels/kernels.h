// core/kernels/kernels.h — the hot loops of Lookback, written once.
//
// Every product and activation of the models goes through these functions. Each has a plain
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

// dst[cols, rows] = src[rows, cols]ᵀ (row strides ld_src, ld_dst).
// matmul_nt transposes its B on every call (about a quarter of the time of a
// 64 × 192 × 64 product); where many products share one B — W_hh, W_d and the
// decoder's context weights over the steps of a batch — the model transposes it
// once per batch and calls matmul_nn on the copy instead.
void transpose(int rows, int cols, const float* src, int ld_src, float* dst, int ld_dst);

// y[i] = e^{x[i]}, σ(x[i]) or tanh(x[i]) for i < n; y may be x. Compilers
// will not vectorise a libm call, so these are written out: x = k·ln2 + r,
// |r| ≤ ln2/2, e^x = 2^k · (Taylor series of e^r to degree 7), inputs clamped
// to [−87, 88]; σ(x) = 1 / (1 + e^{−x}); tanh(x) = 1 − 2 / (e^{2x} + 1).
// Error against the exact functions (tested): exp relative 4e-7, σ and tanh
// absolute 2e-7.
void exp_array(float* y, const float* x, int n);
void sigmoid_array(float* y, const float* x, int n);
void tanh_array(float* y, const float* x, int n);
// Σ_i a[i]·b[i] over n floats (in vector-wide partial sums).
float dot(const float* a, const float* b, int n);
// The additive scorer for one row, in one pass: u_j = tanh(k_j + q),
// e_j = v · u_j for j < L.  e [L], u [L, H], k [L, H], q [H], v [H].
void additive_scores(float* e, float* u, const float* k, const float* q, const float* v, int L,
                     int H);

// The build's arithmetic peak, for `lookback bench` to measure the kernels against: `iterations`
// rounds of acc = acc·a + b on peak_accumulators() independent vector registers, then every
// lane of every accumulator stored to sink (peak_floats() floats), so no round can be dropped.
// Natively each round is one fused multiply-add per register (the build's 16-float vectors:
// one AVX-512 register, or two AVX2 registers counted as two); in WebAssembly a multiply and an
// add (SIMD128 has no FMA). Either way 2 FLOPs per lane per round: peak_loop returns
// 2 · iterations · peak_floats(). Enough accumulators that the FMA (or add) latency never
// waits: the loop is bound by the vector units' throughput alone.
double peak_loop(long iterations, float a, float b, float* sink);
int peak_accumulators();  // independent registers in the loop
int peak_floats();        // peak_accumulators() × floats per register

// Plain scalar twins: the reference the tests hold the fast kernels to.
namespace ref {
void matmul_nn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
void matmul_nt(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
void matmul_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate);
void transpose(int rows, int cols, const float* src, int ld_src, float* dst, int ld_dst);
void exp_array(float* y, const float* x, int n);  // std::exp of x clamped to [−87, 88]
void sigmoid_array(float* y, const float* x, int n);
void tanh_array(float* y, const float* x, int n);
float dot(const float* a, const float* b, int n);
void additive_scores(float* e, float* u, const float* k, const float* q, const float* v, int L,
                     int H);
}  // namespace ref

// Whether this build's fast kernels use SIMD (false for the scalar WASM build).
bool simd_enabled();
// Floats per vector in this build's fast kernels: 16 (every x86-64 build with AVX2 and FMA,
// AVX-512 or not: two 8-float registers without AVX-512), 8 (AVX alone), 4 (SSE, WASM SIMD128)
// or 1 (scalar).
int simd_width();

// Multiply-adds whose rounding the source decides, not the compiler. GCC fuses `s += a·b` or not
// depending on how it vectorised the loop around it, which depends on the vector width of the
// build machine; a sum the models' numerics depend on spells out each term with one of these
// (docs/design.md, "The same numbers on every machine").
// a·b + c with one rounding where the target has FMA (every x86-64 build with AVX2), two where it
// has none (WebAssembly, whose builds never fused).
inline float fused_mul_add(float a, float b, float c) {
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
    return __builtin_fmaf(a, b, c);
#else
    return a * b + c;
#endif
}
// a·b rounded to float: never fused into the add that uses it.
inline float rounded_product(float a, float b) {
#if defined(__has_builtin)
#if __has_builtin(__builtin_assoc_barrier)
    return __builtin_assoc_barrier(a * b);
#endif
#endif
    const float p = a * b;  // clang contracts only within one expression
    return p;
}

}  // namespace lb::kernels
