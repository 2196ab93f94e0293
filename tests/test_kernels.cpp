// The fast kernels against their plain twins (kernels.h): the products the
// models use and odd sizes, leading dimensions wider than the rows, accumulate
// on and off. The same cases run natively (AVX/AVX-512) and as WASM (SIMD128 or
// the scalar build), so every code path of each target is held to the reference.
//
// Tolerance, per element: both versions add the same K products (plus C when
// accumulating) in different orders, the fast one natively with fused
// multiply-adds. Any order of floating-point summation of n terms lands within
// γ_n · Σ|term| of the exact sum (Higham, Accuracy and Stability of Numerical
// Algorithms, §3.1: γ_n = n·u / (1 − n·u), u = 2⁻²⁴), so the two differ by at
// most 2·γ_{K+1} · (|C| + Σ_k |a_ik|·|b_kj|). That bound is computed from the
// operands, so it is exact for any values drawn, and it is tight enough to
// catch a dropped or doubled term (an error of the size of one product).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/rng.h"

namespace kernels = lb::kernels;

namespace {

enum class Product { nn, nt, tn };
const char* product_name(Product p) { return p == Product::nn ? "nn" : p == Product::nt ? "nt" : "tn"; }

using MatmulFn = void (*)(int, int, int, const float*, int, const float*, int, float*, int, bool);
MatmulFn fast_fn(Product p) {
    return p == Product::nn ? kernels::matmul_nn : p == Product::nt ? kernels::matmul_nt : kernels::matmul_tn;
}
MatmulFn ref_fn(Product p) {
    return p == Product::nn ? kernels::ref::matmul_nn
         : p == Product::nt ? kernels::ref::matmul_nt : kernels::ref::matmul_tn;
}

std::vector<float> random_values(lb::Rng& rng, size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = rng.uniform(-1.0f, 1.0f);
    return v;
}

// The stored A(i, k) and B(k, j) of a product, whatever its layout.
float a_at(Product p, const std::vector<float>& A, int lda, int i, int k) {
    return p == Product::tn ? A[size_t(k) * lda + i] : A[size_t(i) * lda + k];
}
float b_at(Product p, const std::vector<float>& B, int ldb, int k, int j) {
    return p == Product::nt ? B[size_t(j) * ldb + k] : B[size_t(k) * ldb + j];
}

// Runs fast and reference kernels on one shape; returns the number of elements
// outside the tolerance (and checks that padding between rows is untouched).
int compare_product(Product p, int M, int N, int K, int pad, bool accumulate, lb::Rng& rng) {
    // Stored shapes: A is [M, K] (tn: [K, M]), B is [K, N] (nt: [N, K]), C is [M, N].
    const int a_rows = p == Product::tn ? K : M, a_cols = p == Product::tn ? M : K;
    const int b_rows = p == Product::nt ? N : K, b_cols = p == Product::nt ? K : N;
    const int lda = a_cols + pad, ldb = b_cols + pad, ldc = N + pad;
    const std::vector<float> A = random_values(rng, size_t(a_rows) * lda + 1);
    const std::vector<float> B = random_values(rng, size_t(b_rows) * ldb + 1);
    const std::vector<float> C0 = random_values(rng, size_t(M) * ldc + 1);
    std::vector<float> fast = C0, ref = C0;
    fast_fn(p)(M, N, K, A.data(), lda, B.data(), ldb, fast.data(), ldc, accumulate);
    ref_fn(p)(M, N, K, A.data(), lda, B.data(), ldb, ref.data(), ldc, accumulate);

    const double u = std::ldexp(1.0, -24), n = K + 1;
    const double gamma = n * u / (1 - n * u);
    int bad = 0;
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            double magnitude = accumulate ? std::fabs(C0[size_t(i) * ldc + j]) : 0.0;
            for (int k = 0; k < K; ++k)
                magnitude += std::fabs(a_at(p, A, lda, i, k) * b_at(p, B, ldb, k, j));
            const double tolerance = 2 * gamma * magnitude;
            const double diff = std::fabs(double(fast[size_t(i) * ldc + j]) - ref[size_t(i) * ldc + j]);
            if (!(diff <= tolerance)) ++bad;  // also catches NaN
        }
        for (int j = N; j < ldc && size_t(i) * ldc + j < fast.size(); ++j)
            if (fast[size_t(i) * ldc + j] != C0[size_t(i) * ldc + j]) ++bad;  // wrote past the row
    }
    if (fast.back() != C0.back()) ++bad;  // wrote past the matrix
    return bad;
}

void check_product(Product p, int M, int N, int K, int pad, bool accumulate, lb::Rng& rng) {
    const int bad = compare_product(p, M, N, K, pad, accumulate, rng);
    INFO(product_name(p), " M=", M, " N=", N, " K=", K, " pad=", pad, " accumulate=", accumulate);
    CHECK(bad == 0);
}

const Product all_products[] = {Product::nn, Product::nt, Product::tn};

}  // namespace

TEST_CASE("kernels: fast matmul equals the reference on the models' shapes") {
    lb::Rng rng(41);
    // B = 64 rows (1 for one string); K, N among the widths: E = 16/32, H = 8..64,
    // 3H = 24..192, E + H; B·S rows for the whole-run input projection.
    const int shapes[][3] = {{64, 192, 64}, {64, 96, 32},  {64, 48, 16},   {64, 24, 8},
                             {64, 64, 192}, {64, 192, 96}, {1, 192, 64},   {1, 24, 8},
                             {1152, 96, 32}, {192, 64, 64}, {64, 13, 64},  {1, 64, 1280}};
    for (Product p : all_products)
        for (const auto& s : shapes)
            for (bool accumulate : {false, true}) check_product(p, s[0], s[1], s[2], 0, accumulate, rng);
}

TEST_CASE("kernels: fast matmul equals the reference on odd sizes and strides") {
    lb::Rng rng(7);
    const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 33, 47, 48, 49, 65, 96, 97, 129};
    const int n_sizes = sizeof(sizes) / sizeof(sizes[0]);
    for (Product p : all_products)
        for (int trial = 0; trial < 80; ++trial) {
            const int M = sizes[rng.below(n_sizes)], N = sizes[rng.below(n_sizes)],
                      K = sizes[rng.below(n_sizes)];
            const int pad = int(rng.below(3)) * 3;  // leading dimension = row, row + 3, row + 6
            check_product(p, M, N, K, pad, rng.below(2) == 1, rng);
        }
}

TEST_CASE("kernels: every row count at every column edge") {
    // Rows 1..17 cover each partial register tile (up to 8 rows) and the nt
    // switch between dot products and a transposed B; columns 1..35 cover every
    // vector width's remainder.
    lb::Rng rng(3);
    for (Product p : all_products)
        for (int M = 1; M <= 17; ++M)
            for (int N = 1; N <= 35; N += 2) check_product(p, M, N, 1 + (M * N) % 23, 1, (M + N) % 2 == 0, rng);
}

TEST_CASE("kernels: empty products") {
    lb::Rng rng(5);
    for (Product p : all_products) {
        check_product(p, 5, 7, 0, 2, true, rng);   // K = 0 keeps C
        check_product(p, 5, 7, 0, 2, false, rng);  // ... or zeroes it
        check_product(p, 0, 7, 3, 0, true, rng);
        check_product(p, 5, 0, 3, 0, true, rng);
    }
}

TEST_CASE("kernels: transpose equals the reference") {
    lb::Rng rng(11);
    for (int rows : {1, 3, 4, 8, 17, 192})
        for (int cols : {1, 2, 4, 5, 16, 64, 67}) {
            const int ld_src = cols + 2, ld_dst = rows + 1;
            const std::vector<float> src = random_values(rng, size_t(rows) * ld_src);
            std::vector<float> fast(size_t(cols) * ld_dst, -7.0f), ref = fast;
            kernels::transpose(rows, cols, src.data(), ld_src, fast.data(), ld_dst);
            kernels::ref::transpose(rows, cols, src.data(), ld_src, ref.data(), ld_dst);
            INFO("rows=", rows, " cols=", cols);
            CHECK(fast == ref);
        }
}

TEST_CASE("kernels: the build reports its SIMD width") {
    const int w = kernels::simd_width();
    CHECK((w == 1 || w == 4 || w == 8 || w == 16));
    CHECK(kernels::simd_enabled() == (w > 1));
}

// --- activations and dot ---------------------------------------------------------
// Stated accuracy of the fast activations (kernels.h): exp within 4e-7 relative
// of the exact e^x (x clamped to [−87, 88]), σ and tanh within 2e-7 absolute —
// checked against double-precision libm. Against the float reference twins the
// bound widens by the twin's own rounding (half an ulp, 2⁻²⁴ relative).

namespace {

// A dense sweep: ±0; every 1/256 over [−20, 20]; 64 points per binade from 2⁻³⁰
// to 2⁷, both signs (tiny arguments and the saturating range); the exp clamp's
// edges; huge values.
std::vector<float> activation_inputs() {
    std::vector<float> x = {0.0f, -0.0f, 87.0f, -87.0f, 88.0f, -88.0f, 89.0f, -89.0f,
                            1e30f, -1e30f, 3.0e38f, -3.0e38f};
    for (int i = -20 * 256; i <= 20 * 256; ++i) x.push_back(float(i) / 256.0f);
    for (int e = -30; e < 7; ++e)
        for (int m = 0; m < 64; ++m) {
            const float v = std::ldexp(1.0f + float(m) / 64.0f, e);
            x.push_back(v);
            x.push_back(-v);
        }
    return x;
}

double exact_exp(double x) { return std::exp(std::min(std::max(x, -87.0), 88.0)); }
double exact_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

TEST_CASE("kernels: exp, sigmoid, tanh within their stated error of the exact functions") {
    const std::vector<float> x = activation_inputs();
    const int n = int(x.size());
    std::vector<float> e(x.size()), s(x.size()), t(x.size());
    kernels::exp_array(e.data(), x.data(), n);
    kernels::sigmoid_array(s.data(), x.data(), n);
    kernels::tanh_array(t.data(), x.data(), n);
    int bad = 0;
    double first_bad = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        const double xi = x[i];
        const bool ok = std::fabs(e[i] - exact_exp(xi)) <= 4e-7 * exact_exp(xi) &&
                        std::fabs(s[i] - exact_sigmoid(xi)) <= 2e-7 &&
                        std::fabs(t[i] - std::tanh(xi)) <= 2e-7;
        if (!ok && bad++ == 0) first_bad = xi;
    }
    INFO("first failure at x = ", first_bad);
    CHECK(bad == 0);
    // the fixed points, exactly
    CHECK(e[0] == 1.0f);
    CHECK(e[1] == 1.0f);
    CHECK(s[0] == 0.5f);
    CHECK(std::fabs(t[0]) == 0.0f);
    CHECK(std::fabs(t[1]) == 0.0f);
}

TEST_CASE("kernels: fast activations equal the reference twins, every length, in place") {
    const std::vector<float> all = activation_inputs();
    const double ulp = std::ldexp(1.0, -24);
    using Fn = void (*)(float*, const float*, int);
    struct Case { const char* name; Fn fast, ref; bool relative; double tolerance; };
    const Case cases[] = {{"exp", kernels::exp_array, kernels::ref::exp_array, true, 4e-7 + ulp},
                          {"sigmoid", kernels::sigmoid_array, kernels::ref::sigmoid_array, false, 2e-7 + ulp},
                          {"tanh", kernels::tanh_array, kernels::ref::tanh_array, false, 2e-7 + ulp}};
    for (const Case& c : cases) {
        // lengths 0..40 cover every vector width's tail; then the whole sweep at once
        for (int n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 40, int(all.size())}) {
            const int offset = int(all.size()) / 3;  // from mid-range inputs, not only ±0
            const std::vector<float> x(all.begin() + (n == int(all.size()) ? 0 : offset),
                                       all.begin() + (n == int(all.size()) ? 0 : offset) + n);
            std::vector<float> fast = x, ref(x.size() + 1, -7.0f);
            c.fast(fast.data(), fast.data(), n);  // in place: y == x
            c.ref(ref.data(), x.data(), n);
            int bad = 0;
            for (int i = 0; i < n; ++i) {
                const double tol = c.relative ? c.tolerance * std::fabs(ref[size_t(i)]) : c.tolerance;
                if (!(std::fabs(double(fast[size_t(i)]) - ref[size_t(i)]) <= tol)) ++bad;
            }
            INFO(c.name, " n=", n);
            CHECK(bad == 0);
            CHECK(ref.back() == -7.0f);
        }
    }
}

TEST_CASE("kernels: fast dot equals the reference") {
    // Same bound as the products: 2·γ_n · Σ|a_i·b_i|.
    lb::Rng rng(13);
    for (int n : {0, 1, 3, 4, 7, 8, 11, 16, 17, 31, 64, 65, 100, 1280}) {
        const std::vector<float> a = random_values(rng, size_t(n)), b = random_values(rng, size_t(n));
        double magnitude = 0;
        for (int i = 0; i < n; ++i) magnitude += std::fabs(a[size_t(i)] * b[size_t(i)]);
        const double u = std::ldexp(1.0, -24), gamma = n * u / (1 - n * u);
        const double diff = std::fabs(double(kernels::dot(a.data(), b.data(), n)) -
                                      kernels::ref::dot(a.data(), b.data(), n));
        INFO("n=", n);
        CHECK(diff <= 2 * gamma * magnitude);
    }
    const float a[11] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    CHECK(kernels::dot(a, a, 11) == 506.0f);
}

TEST_CASE("kernels: fused additive scores equal the reference") {
    // u within tanh's stated 2e-7 (+ the twin's half ulp); e = v·u then within
    // Σ|v_i|·that + the summation bound 2·γ_H · Σ|v_i·u_i|.
    lb::Rng rng(17);
    const double u_tol = 2e-7 + std::ldexp(1.0, -24);
    for (int H : {1, 3, 4, 8, 15, 16, 17, 32, 64, 67})
        for (int L : {0, 1, 5, 18}) {
            const std::vector<float> k = random_values(rng, size_t(L) * H), q = random_values(rng, size_t(H));
            std::vector<float> v = random_values(rng, size_t(H));
            for (float& x : v) x *= 3.0f;
            std::vector<float> e_fast(size_t(L) + 1, -7.0f), e_ref = e_fast;
            std::vector<float> u_fast(size_t(L) * H + 1, -7.0f), u_ref = u_fast;
            kernels::additive_scores(e_fast.data(), u_fast.data(), k.data(), q.data(), v.data(), L, H);
            kernels::ref::additive_scores(e_ref.data(), u_ref.data(), k.data(), q.data(), v.data(), L, H);
            int bad = 0;
            for (size_t n = 0; n < size_t(L) * H; ++n)
                if (!(std::fabs(double(u_fast[n]) - u_ref[n]) <= u_tol)) ++bad;
            double v_abs = 0;
            for (float x : v) v_abs += std::fabs(x);
            const double u = std::ldexp(1.0, -24), gamma = H * u / (1 - H * u);
            for (int j = 0; j < L; ++j) {
                double magnitude = 0;
                for (int i = 0; i < H; ++i) magnitude += std::fabs(v[size_t(i)] * u_ref[size_t(j) * H + i]);
                const double tol = v_abs * u_tol + 2 * gamma * magnitude;
                if (!(std::fabs(double(e_fast[size_t(j)]) - e_ref[size_t(j)]) <= tol)) ++bad;
            }
            INFO("H=", H, " L=", L);
            CHECK(bad == 0);
            CHECK(e_fast.back() == -7.0f);  // nothing written past e[L−1] or u[L·H−1]
            CHECK(u_fast.back() == -7.0f);
        }
}

// --- the peak loop ------------------------------------------------------------------
TEST_CASE("kernels: the peak loop does the multiply-adds it counts") {
    // With a = b = 1 each round adds exactly 1 to every lane (the numbers stay exact integers),
    // so after n rounds an accumulator started at r holds r + n in each lane: every lane of
    // every accumulator took part in every round, and the FLOPs returned are 2 per lane-round.
    const int floats = kernels::peak_floats();
    const int per_register = floats / kernels::peak_accumulators();
    CHECK(kernels::peak_accumulators() >= 8);  // enough to cover two FMA units' latency
    CHECK(floats == kernels::peak_accumulators() * per_register);
    CHECK((per_register == 1 || per_register == 4 || per_register == 8 || per_register == 16));
    for (long n : {0L, 1L, 7L, 1000L}) {
        std::vector<float> sink(size_t(floats) + 1, -1.0f);  // one past the end: untouched
        const double flops = kernels::peak_loop(n, 1.0f, 1.0f, sink.data());
        INFO("rounds=", n);
        CHECK(flops == 2.0 * double(n) * floats);
        for (int i = 0; i < floats; ++i) CHECK(sink[size_t(i)] == float(i / per_register + n));
        CHECK(sink[size_t(floats)] == -1.0f);
    }
    // The bench's operands: every lane converges to b / (1 − a) = 1.
    std::vector<float> sink(static_cast<size_t>(floats));
    kernels::peak_loop(200, 0.5f, 0.5f, sink.data());
    for (float x : sink) CHECK(x == 1.0f);
}
