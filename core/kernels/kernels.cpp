// core/kernels/kernels.cpp — the fast kernels (see kernels.h), one source for every target.
//
// Matrix products: C is cut into tiles of MR rows × NR vectors; a tile's
// accumulators live in registers for the whole K loop, each step loading NR
// vectors of one B row and broadcasting MR elements of A (register blocking).
// nn and tn share that micro-kernel (they differ only in where A(i, k) lives);
// nt first transposes B into a workspace so that its rows become contiguous,
// except for a handful of rows (single-string inference), where row-by-row dot
// products are cheaper than the transpose. Columns that do not fill a widest
// vector fall through to narrower vectors and finally to plain floats.
//
// Activations (exp, σ, tanh) and dot run one widest vector at a time over the
// array, the tail through a zero-padded vector.
//
// Legend: M, N, K matrix sizes; W lanes per vector; MR × NR the register tile
// (rows × vectors); i, j, k indices into M, N, K.
#include "kernels/kernels.h"

#include <vector>

#include "kernels/simd.h"

namespace lb::kernels {
namespace {

using namespace lb::simd;

// The loops over a tile's rows and vectors have compile-time trip counts; fully
// unrolled, their accumulators become registers (-O2 would otherwise keep them
// in memory). Both gcc and clang read this pragma.
#define LB_UNROLL _Pragma("GCC unroll 32")

// Register tile of the widest vector type: MR rows × NR vectors, measured on
// 64 × 192 × 64 and 64 × 48 × 16 products. AVX-512 has 32 registers: 24
// accumulators + 3 B vectors (the broadcast folds into the FMA). AVX2 has 16: 4 rows × one
// 16-float vector (two registers) = 8 accumulators (6 rows, 12 accumulators, was no faster over
// 4 interleaved rounds: some shapes +8 %, others −6 %). SIMD128 has 16 too (V8 maps it to
// xmm0–15, one kept as scratch) but no FMA, so each product needs a register of its own:
// 4 × 2 = 8 accumulators (5 × 2, 3 × 3 and 6 × 2 were no faster). Scalar code: 4 × 4 floats.
// A tile's shape does not change the order of any sum (each C element adds along k alone).
constexpr int MR = register_floats == 16 ? 8 : 4;
constexpr int NR = register_floats == 16 ? 3 : widest == 1 ? 4 : 2 * register_floats / widest;
// Rows per tile of the narrower edge panels. It does change their numbers: GCC fuses a lone
// accumulator's multiply-adds or not depending on how many others share its loop, so the 16-float
// builds keep AVX-512's 8 rows on AVX2 too.
constexpr int edge_MR = widest == 16 ? 8 : MR;

// One MR × NR·W tile of C = (accumulate ? C : 0) + A · B over the whole K.
// A(i, k) = A[i·lda + k], or A[k·lda + i] when a_transposed (the tn product).
// hold_b: keep each step's B vectors in registers. GCC's Zen 3 tuning (CMakeLists.txt) otherwise
// reads them from memory again for every row, which made the AVX2 build's main tile a third slower.
template <class V, int mr, int nr, bool a_transposed, bool hold_b = false>
void tile(int K, const float* A, int lda, const float* B, int ldb, float* C, int ldc,
          bool accumulate) {
    constexpr int W = lanes<V>;
    V acc[mr][nr];
    LB_UNROLL
    for (int r = 0; r < mr; ++r)
        LB_UNROLL
        for (int c = 0; c < nr; ++c)
            acc[r][c] = accumulate ? load<V>(C + r * ldc + c * W) : splat<V>(0.0f);
    // B(k, ·) and A(·, k) by pointers that step with k: Emscripten compiles without LLVM's
    // loop strength reduction, and V8 then recomputed every address from k in every step.
    const float* b_k = B;
    const float* a_k = A;
    const int a_step = a_transposed ? lda : 1, a_row = a_transposed ? 1 : lda;
    for (int k = 0; k < K; ++k, b_k += ldb, a_k += a_step) {
        V b[nr];
        LB_UNROLL
        for (int c = 0; c < nr; ++c) {
            b[c] = load<V>(b_k + c * W);
#if defined(__GNUC__) && defined(__x86_64__)
            if constexpr (hold_b) asm("" : "+x"(b[c]));  // the value as it is, in a register
#endif
        }
        LB_UNROLL
        for (int r = 0; r < mr; ++r) {
            const float a = a_k[r * a_row];
            LB_UNROLL
            for (int c = 0; c < nr; ++c) acc[r][c] += b[c] * a;
        }
    }
    LB_UNROLL
    for (int r = 0; r < mr; ++r)
        LB_UNROLL
        for (int c = 0; c < nr; ++c) store<V>(C + r * ldc + c * W, acc[r][c]);
}

// A single row of A (M = 1, e.g. one string at inference): there is no row
// reuse to block for, so the K loop instead keeps four independent sets of
// accumulators (k mod 4) to hide the add latency, summed at the end.
template <class V, int nr, bool a_transposed>
void single_row_tile(int K, const float* A, int lda, const float* B, int ldb, float* C,
                     bool accumulate) {
    constexpr int W = lanes<V>;
    const auto a = [&](int k) { return a_transposed ? A[k * lda] : A[k]; };
    V acc[4][nr];
    LB_UNROLL
    for (int s = 0; s < 4; ++s)
        LB_UNROLL
        for (int c = 0; c < nr; ++c) acc[s][c] = splat<V>(0.0f);
    int k = 0;
    for (; k + 4 <= K; k += 4)
        LB_UNROLL
        for (int s = 0; s < 4; ++s)
            LB_UNROLL
            for (int c = 0; c < nr; ++c) acc[s][c] += load<V>(B + (k + s) * ldb + c * W) * a(k + s);
    for (; k < K; ++k)
        LB_UNROLL
        for (int c = 0; c < nr; ++c) acc[0][c] += load<V>(B + k * ldb + c * W) * a(k);
    LB_UNROLL
    for (int c = 0; c < nr; ++c) {
        const V sum = (acc[0][c] + acc[1][c]) + (acc[2][c] + acc[3][c]);
        store<V>(C + c * W, accumulate ? load<V>(C + c * W) + sum : sum);
    }
}

// The last rows of a column panel (fewer than its tiles' rows): a tile of exactly `rows` rows.
template <class V, int nr, bool a_transposed, int mr>
void tile_last_rows(int rows, int K, const float* A, int lda, const float* B, int ldb, float* C,
                    int ldc, bool accumulate) {
    if constexpr (mr > 0) {
        if (rows == mr)
            tile<V, mr, nr, a_transposed>(K, A, lda, B, ldb, C, ldc, accumulate);
        else
            tile_last_rows<V, nr, a_transposed, mr - 1>(rows, K, A, lda, B, ldb, C, ldc,
                                                       accumulate);
    }
}

// The vector type a tile keeps in registers for V, and how many of them make one V: a pair's
// halves are two 8-float columns side by side, each lane's sum the same, and arrays of plain
// vectors stay in registers where arrays of pairs did not (a third slower).
template <class V> struct in_registers {
    using type = V;
    static constexpr int per_vector = 1;
};
template <> struct in_registers<f32x8x2> {
    using type = f32x8;
    static constexpr int per_vector = 2;
};

// Columns [j, ...) in panels of nr vectors of type V, in tiles of mr rows, while
// they fit, then one narrower panel (nr - 1, ...). Returns the first column not done.
template <class V, int nr, int mr, bool a_transposed>
int column_panels(int j, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
                  float* C, int ldc, bool accumulate) {
    constexpr int width = nr * lanes<V>;
    using R = typename in_registers<V>::type;
    constexpr int nr_r = nr * in_registers<V>::per_vector;
    // Where row i of the tile's A starts: A(i, 0).
    const auto a_row = [&](int i) { return a_transposed ? A + i : A + i * lda; };
    for (; j + width <= N; j += width) {
        if (M == 1) {
            single_row_tile<R, nr_r, a_transposed>(K, A, lda, B + j, ldb, C + j, accumulate);
            continue;
        }
        int i = 0;
        for (; i + mr <= M; i += mr)
            tile<R, mr, nr_r, a_transposed, (in_registers<V>::per_vector > 1)>(
                K, a_row(i), lda, B + j, ldb, C + i * ldc + j, ldc, accumulate);
        if (i < M)
            tile_last_rows<R, nr_r, a_transposed, mr - 1>(M - i, K, a_row(i), lda, B + j, ldb,
                                                          C + i * ldc + j, ldc, accumulate);
    }
    if constexpr (nr > 1)
        return column_panels<V, nr - 1, mr, a_transposed>(j, M, N, K, A, lda, B, ldb, C, ldc,
                                                          accumulate);
    return j;
}

// C[M,N] = (accumulate ? C : 0) + A·B, B row-major [K, N]; A as in tile().
template <bool a_transposed>
void register_blocked_product(int M, int N, int K, const float* A, int lda, const float* B,
                              int ldb, float* C, int ldc, bool accumulate) {
    if (M <= 0 || N <= 0) return;
    int j = column_panels<vec, NR, MR, a_transposed>(0, M, N, K, A, lda, B, ldb, C, ldc,
                                                     accumulate);
    if constexpr (widest > 8)
        j = column_panels<f32x8, 1, edge_MR, a_transposed>(j, M, N, K, A, lda, B, ldb, C, ldc,
                                                           accumulate);
    if constexpr (widest > 4)
        j = column_panels<f32x4, 1, edge_MR, a_transposed>(j, M, N, K, A, lda, B, ldb, C, ldc,
                                                           accumulate);
    if constexpr (widest > 1)
        column_panels<float, 3, edge_MR, a_transposed>(j, M, N, K, A, lda, B, ldb, C, ldc,
                                                       accumulate);
}

// Row i of C = A·Bᵀ by dot products along K, four rows of B at a time: for a
// few rows of A this beats transposing B (which costs as much as one row).
void rowwise_dot_products_nt(int M, int N, int K, const float* A, int lda, const float* B,
                             int ldb, float* C, int ldc, bool accumulate) {
    constexpr int W = widest;
    for (int i = 0; i < M; ++i) {
        const float* a = A + i * lda;
        float* c = C + i * ldc;
        int j = 0;
        for (; j + 4 <= N; j += 4) {
            const float* b = B + j * ldb;
            vec s0 = splat<vec>(0.0f), s1 = s0, s2 = s0, s3 = s0;
            int k = 0;
            for (; k + W <= K; k += W) {
                const vec ak = load<vec>(a + k);
                s0 += ak * load<vec>(b + k);
                s1 += ak * load<vec>(b + ldb + k);
                s2 += ak * load<vec>(b + 2 * ldb + k);
                s3 += ak * load<vec>(b + 3 * ldb + k);
            }
            float d0 = reduce_add(s0), d1 = reduce_add(s1), d2 = reduce_add(s2),
                  d3 = reduce_add(s3);
            for (; k < K; ++k) {
                d0 += a[k] * b[k];
                d1 += a[k] * b[ldb + k];
                d2 += a[k] * b[2 * ldb + k];
                d3 += a[k] * b[3 * ldb + k];
            }
            const float before[4] = {accumulate ? c[j] : 0.0f, accumulate ? c[j + 1] : 0.0f,
                                     accumulate ? c[j + 2] : 0.0f, accumulate ? c[j + 3] : 0.0f};
            c[j] = before[0] + d0;
            c[j + 1] = before[1] + d1;
            c[j + 2] = before[2] + d2;
            c[j + 3] = before[3] + d3;
        }
        for (; j < N; ++j) {
            const float* b = B + j * ldb;
            vec s = splat<vec>(0.0f);
            int k = 0;
            for (; k + W <= K; k += W) s += load<vec>(a + k) * load<vec>(b + k);
            float d = reduce_add(s);
            for (; k < K; ++k) d += a[k] * b[k];
            c[j] = (accumulate ? c[j] : 0.0f) + d;
        }
    }
}

// t[K, N] = B[N, K]ᵀ (row strides ldb, ldt) in 4 × 4 blocks, moved as four
// vectors and transposed in registers where the build has SIMD.
void transpose_blocked(int N, int K, const float* B, int ldb, float* t, int ldt) {
    int j = 0;
    for (; j + 4 <= N; j += 4) {
        const float* b = B + j * ldb;
        int k = 0;
        if constexpr (widest > 1) {
            for (; k + 4 <= K; k += 4) {
                const f32x4 r0 = load<f32x4>(b + k), r1 = load<f32x4>(b + ldb + k),
                            r2 = load<f32x4>(b + 2 * ldb + k), r3 = load<f32x4>(b + 3 * ldb + k);
                const f32x4 t01lo = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
                const f32x4 t01hi = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
                const f32x4 t23lo = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
                const f32x4 t23hi = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
                store<f32x4>(t + k * ldt + j, __builtin_shufflevector(t01lo, t23lo, 0, 1, 4, 5));
                store<f32x4>(t + (k + 1) * ldt + j, __builtin_shufflevector(t01lo, t23lo, 2, 3, 6, 7));
                store<f32x4>(t + (k + 2) * ldt + j, __builtin_shufflevector(t01hi, t23hi, 0, 1, 4, 5));
                store<f32x4>(t + (k + 3) * ldt + j, __builtin_shufflevector(t01hi, t23hi, 2, 3, 6, 7));
            }
        }
        for (; k < K; ++k) {
            float* row = t + k * ldt + j;
            row[0] = b[k];
            row[1] = b[ldb + k];
            row[2] = b[2 * ldb + k];
            row[3] = b[3 * ldb + k];
        }
    }
    for (; j < N; ++j)
        for (int k = 0; k < K; ++k) t[k * ldt + j] = B[j * ldb + k];
}

// Bᵀ into a reused workspace as [K, N]: it grows, never shrinks, so there is no
// allocation once the largest product has been seen.
const float* transposed_into_workspace(int N, int K, const float* B, int ldb) {
    thread_local std::vector<float> workspace;
    if (workspace.size() < size_t(N) * size_t(K)) workspace.resize(size_t(N) * size_t(K));
    transpose_blocked(N, K, B, ldb, workspace.data(), N);
    return workspace.data();
}

// e^x lane-wise: x = k·ln2 + r with k = round(x / ln2), |r| ≤ ln2/2;
// e^x = 2^k · e^r, e^r by its Taylor series to degree 7 (float rounding
// dominates the truncation error). x is clamped to [−87, 88] so that
// k ∈ [−126, 127] and 2^k is a normal float made from its exponent bits.
template <class V>
V exp_lanes(V x) {
    using I = ivec_of<V>;
    x = clamp(x, -87.0f, 88.0f);
    // k = round(x / ln2): add ±0.5 (the sign of x), truncate
    const V scaled = x * 1.44269504f;
    const V half = bitcast<V>(bitcast<I>(splat<V>(0.5f)) | (bitcast<I>(scaled) & int(0x80000000u)));
    const I ki = truncate_to_int(scaled + half);
    const V k = to_float<V>(ki);
    const V r = (x - k * 0.693145752f) - k * 1.42860677e-6f;  // ln2 in two parts
    V p = splat<V>(1.0f / 5040.0f);
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    return p * bitcast<V>((ki + 127) << 23);
}

// A pair of 8-float halves (AVX2): each half as its own vector.
[[maybe_unused]] f32x8x2 exp_lanes(f32x8x2 x) { return {exp_lanes(x.lo), exp_lanes(x.hi)}; }

template <class V>
V tanh_lanes(V x) {
    return 1.0f - 2.0f / (exp_lanes(2.0f * x) + 1.0f);
}

// y = f(x) over n floats: whole vectors, then the tail through a zero-padded one.
template <class F>
void elementwise(float* y, const float* x, int n, F f) {
    int i = 0;
    for (; i + widest <= n; i += widest) store<vec>(y + i, f(load<vec>(x + i)));
    if (i < n) {
        float tail[widest] = {};
        std::memcpy(tail, x + i, sizeof(float) * size_t(n - i));
        store<vec>(tail, f(load<vec>(tail)));
        std::memcpy(y + i, tail, sizeof(float) * size_t(n - i));
    }
}

// The peak loop's registers: 12 accumulators and the two operands fit the 16 registers of AVX2
// and SIMD128 (V8's xmm0–15) without a spill, and 12 independent chains cover the 4-cycle latency
// of two FMA units (8 needed) or of a multiply then an add (V8's wasm, 2 × 3 cycles) with room.
using peak_register = vector_of<register_floats>::type;
constexpr int peak_registers = 12;

}  // namespace

int peak_accumulators() { return peak_registers; }
int peak_floats() { return peak_registers * register_floats; }

double peak_loop(long iterations, float a, float b, float* sink) {
    using R = peak_register;
    const R va = splat<R>(a), vb = splat<R>(b);
    R acc[peak_registers];
    LB_UNROLL
    for (int r = 0; r < peak_registers; ++r) acc[r] = splat<R>(float(r));
    for (long i = 0; i < iterations; ++i)
        LB_UNROLL
        for (int r = 0; r < peak_registers; ++r) acc[r] = acc[r] * va + vb;  // FMA where fused
    LB_UNROLL
    for (int r = 0; r < peak_registers; ++r) store<R>(sink + r * register_floats, acc[r]);
    return 2.0 * double(iterations) * double(peak_floats());
}

void exp_array(float* y, const float* x, int n) {
    elementwise(y, x, n, [](vec v) { return exp_lanes(v); });
}

void sigmoid_array(float* y, const float* x, int n) {
    elementwise(y, x, n, [](vec v) { return 1.0f / (1.0f + exp_lanes(-v)); });
}

void tanh_array(float* y, const float* x, int n) {
    elementwise(y, x, n, [](vec v) { return tanh_lanes(v); });
}

void additive_scores(float* e, float* u, const float* k, const float* q, const float* v, int L,
                     int H) {
    for (int j = 0; j < L; ++j) {
        const float* kj = k + size_t(j) * H;
        float* uj = u + size_t(j) * H;
        vec sum = splat<vec>(0.0f);
        int i = 0;
        for (; i + widest <= H; i += widest) {
            const vec t = tanh_lanes(load<vec>(kj + i) + load<vec>(q + i));
            store<vec>(uj + i, t);
            sum += load<vec>(v + i) * t;
        }
        if (i < H) {  // the tail through zero-padded vectors (tanh(0) = 0 adds nothing)
            float a[widest] = {}, b[widest] = {};
            for (int r = i; r < H; ++r) a[r - i] = kj[r] + q[r], b[r - i] = v[r];
            const vec t = tanh_lanes(load<vec>(a));
            store<vec>(a, t);
            sum += load<vec>(b) * t;
            std::memcpy(uj + i, a, sizeof(float) * size_t(H - i));
        }
        e[j] = reduce_add(sum);
    }
}

float dot(const float* a, const float* b, int n) {
    vec sum = splat<vec>(0.0f);
    int i = 0;
    for (; i + widest <= n; i += widest) sum += load<vec>(a + i) * load<vec>(b + i);
    float total = reduce_add(sum);
    for (; i < n; ++i) total += a[i] * b[i];
    return total;
}

void matmul_nn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    register_blocked_product<false>(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

void matmul_nt(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    if (M <= 0 || N <= 0) return;
    // Below about 4 rows of A the transpose would cost more than the product.
    if (M < 4 || K <= 0) {
        rowwise_dot_products_nt(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
        return;
    }
    const float* Bt = transposed_into_workspace(N, K, B, ldb);
    register_blocked_product<false>(M, N, K, A, lda, Bt, N, C, ldc, accumulate);
}

void matmul_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    register_blocked_product<true>(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

void transpose(int rows, int cols, const float* src, int ld_src, float* dst, int ld_dst) {
    transpose_blocked(rows, cols, src, ld_src, dst, ld_dst);
}

bool simd_enabled() { return widest > 1; }
int simd_width() { return widest; }

}  // namespace lb::kernels
