// core/kernels.cpp — the fast kernels (see kernels.h). For now they forward to
// the reference; the speed work replaces them with SIMD micro-kernels.
#include "kernels.h"

namespace lb::kernels {

void matmul_nn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    ref::matmul_nn(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}
void matmul_nt(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    ref::matmul_nt(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}
void matmul_tn(int M, int N, int K, const float* A, int lda, const float* B, int ldb,
               float* C, int ldc, bool accumulate) {
    ref::matmul_tn(M, N, K, A, lda, B, ldb, C, ldc, accumulate);
}

bool simd_enabled() {
#if defined(LOOKBACK_NO_SIMD)
    return false;
#else
    return true;
#endif
}

}  // namespace lb::kernels
