// core/kernels/simd.h — the one portable SIMD abstraction of Lookback's kernels.
//
// A "vector" is a clang/gcc vector extension of W floats, where W is the widest
// width this build's target has: 16 with AVX-512, 8 with AVX, 4 with SSE or WASM
// SIMD128, and 1 (a plain float) for the scalar build (LOOKBACK_NO_SIMD). The
// kernels are templates over the vector type, so the same source becomes
// AVX-512 with `g++ -march=native`, SIMD128 with `em++ -msimd128`, and scalar
// code without it. Narrower types stay available for the edges of a matrix.
//
// Only core/kernels*.cpp include this header; the model calls kernels.h.
#pragma once
#include <cstring>

namespace lb::simd {

#if defined(LOOKBACK_NO_SIMD)
inline constexpr int widest = 1;
#elif defined(__AVX512F__)
inline constexpr int widest = 16;
#elif defined(__AVX__)
inline constexpr int widest = 8;
#elif defined(__SSE2__) || defined(__wasm_simd128__) || defined(__ARM_NEON)
inline constexpr int widest = 4;
#else
inline constexpr int widest = 1;
#endif

typedef float f32x4 __attribute__((vector_size(16)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x16 __attribute__((vector_size(64)));

// Lane count of a vector type (1 for plain float).
template <class V> inline constexpr int lanes = sizeof(V) / sizeof(float);

// The widest vector type of this build, and the one of a given width.
template <int W> struct vector_of;
template <> struct vector_of<1> { using type = float; };
template <> struct vector_of<4> { using type = f32x4; };
template <> struct vector_of<8> { using type = f32x8; };
template <> struct vector_of<16> { using type = f32x16; };
using vec = vector_of<widest>::type;

// Unaligned load/store: memcpy compiles to one vector move on every target.
template <class V> inline V load(const float* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
}
template <class V> inline void store(float* p, V v) { std::memcpy(p, &v, sizeof(V)); }

// All lanes equal to x (a vector-extension operand may be a scalar; this makes it explicit).
template <class V> inline V splat(float x) {
    if constexpr (lanes<V> == 1) return x;
    else return V{} + x;
}

// The integer vector with the lanes of V (int32_t for plain float), for bit tricks.
typedef int i32x4 __attribute__((vector_size(16)));
typedef int i32x8 __attribute__((vector_size(32)));
typedef int i32x16 __attribute__((vector_size(64)));
template <class V> struct int_vector_of;
template <> struct int_vector_of<float> { using type = int; };
template <> struct int_vector_of<f32x4> { using type = i32x4; };
template <> struct int_vector_of<f32x8> { using type = i32x8; };
template <> struct int_vector_of<f32x16> { using type = i32x16; };
template <class V> using ivec_of = typename int_vector_of<V>::type;

// The same bits seen as another type of the same size.
template <class To, class From> inline To bitcast(From x) {
    static_assert(sizeof(To) == sizeof(From));
    To y;
    std::memcpy(&y, &x, sizeof(To));
    return y;
}

// Lane-wise conversions float → int (truncating toward zero) and int → float.
template <class V> inline ivec_of<V> truncate_to_int(V x) {
    if constexpr (lanes<V> == 1) return int(x);
    else return __builtin_convertvector(x, ivec_of<V>);
}
template <class V> inline V to_float(ivec_of<V> k) {
    if constexpr (lanes<V> == 1) return float(k);
    else return __builtin_convertvector(k, V);
}

// Lane-wise min(max(x, lo), hi): vector `?:` (GNU C++, clang and gcc alike)
// compiles to one max and one min.
template <class V> inline V clamp(V x, float lo, float hi) {
    const V l = splat<V>(lo), h = splat<V>(hi);
    x = x < l ? l : x;
    return x > h ? h : x;
}

// Sum of the lanes: add the two halves until one vector of 4 is left. Halves
// by shuffles, not memcpy, so the argument can stay in a register.
inline float reduce_add(float v) { return v; }
inline float reduce_add(f32x4 v) { return (v[0] + v[2]) + (v[1] + v[3]); }
inline float reduce_add(f32x8 v) {
    return reduce_add(__builtin_shufflevector(v, v, 0, 1, 2, 3) +
                      __builtin_shufflevector(v, v, 4, 5, 6, 7));
}
inline float reduce_add(f32x16 v) {
    return reduce_add(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7) +
                      __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15));
}

}  // namespace lb::simd
