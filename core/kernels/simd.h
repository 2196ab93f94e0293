// core/kernels/simd.h — the one portable SIMD abstraction of Lookback's kernels.
//
// A "vector" holds W floats: 16 on every x86-64 build with AVX2 and FMA (a clang/gcc vector
// extension in one AVX-512 register, or f32x8x2, two AVX2 registers, where the machine has no
// AVX-512), 8 with AVX alone, 4 with SSE or WASM SIMD128, and 1 (a plain float) for the scalar
// build (LOOKBACK_NO_SIMD). The kernels are templates over the vector type, so the same source
// becomes AVX-512 or AVX2 with `g++ -march=native`, SIMD128 with `em++ -msimd128`, and scalar code
// without it. Narrower types stay available for the edges of a matrix.
//
// Why 16 on AVX2 too: a vector's lanes are summed separately and then in a fixed tree
// (reduce_add), so the order of a dot product's additions follows W. With one W for AVX2 and
// AVX-512 machines alike, a native build trains the same weights on both (BENCHMARKS.md,
// "The same models on every x86-64 machine"). register_floats, what one register holds, sets the
// tile sizes.
//
// Only core/kernels*.cpp include this header; the model calls kernels.h.
#pragma once
#include <cstring>

namespace lb::simd {

#if defined(LOOKBACK_NO_SIMD)
inline constexpr int widest = 1;
inline constexpr int register_floats = 1;
#elif defined(__AVX512F__)
inline constexpr int widest = 16;
inline constexpr int register_floats = 16;
#elif defined(__AVX2__) && defined(__FMA__)
inline constexpr int widest = 16;  // f32x8x2: the same sums as with AVX-512
inline constexpr int register_floats = 8;
#elif defined(__AVX__)
inline constexpr int widest = 8;
inline constexpr int register_floats = 8;
#elif defined(__SSE2__) || defined(__wasm_simd128__) || defined(__ARM_NEON)
inline constexpr int widest = 4;
inline constexpr int register_floats = 4;
#else
inline constexpr int widest = 1;
inline constexpr int register_floats = 1;
#endif

typedef float f32x4 __attribute__((vector_size(16)));
typedef float f32x8 __attribute__((vector_size(32)));
typedef float f32x16 __attribute__((vector_size(64)));

// 16 floats as two 8-float halves, lane for lane what f32x16 computes: the 16-float vector of the
// x86-64 builds without AVX-512. Not f32x16 itself: GCC keeps a vector extension wider than the
// machine's registers in memory (its products ran at a tenth of the speed); two halves stay in
// registers. The operators the kernels use, lane-wise, with a float on either side too.
struct f32x8x2 {
    f32x8 lo, hi;
};
#define LB_PAIR_OPERATOR(op)                                                                   \
    inline f32x8x2 operator op(f32x8x2 a, f32x8x2 b) { return {a.lo op b.lo, a.hi op b.hi}; } \
    inline f32x8x2 operator op(f32x8x2 a, float b) { return {a.lo op b, a.hi op b}; }        \
    inline f32x8x2 operator op(float a, f32x8x2 b) { return {a op b.lo, a op b.hi}; }
LB_PAIR_OPERATOR(+)
LB_PAIR_OPERATOR(-)
LB_PAIR_OPERATOR(*)
LB_PAIR_OPERATOR(/)
#undef LB_PAIR_OPERATOR
inline f32x8x2 operator-(f32x8x2 a) { return {-a.lo, -a.hi}; }
inline f32x8x2& operator+=(f32x8x2& a, f32x8x2 b) { return a = a + b; }

// Lane count of a vector type (1 for plain float).
template <class V> inline constexpr int lanes = sizeof(V) / sizeof(float);

// The widest vector type of this build, and the one of a given width.
template <int W> struct vector_of;
template <> struct vector_of<1> { using type = float; };
template <> struct vector_of<4> { using type = f32x4; };
template <> struct vector_of<8> { using type = f32x8; };
#if defined(__AVX512F__) || !defined(__AVX2__)
template <> struct vector_of<16> { using type = f32x16; };
#else
template <> struct vector_of<16> { using type = f32x8x2; };
#endif
using vec = vector_of<widest>::type;

// Unaligned load/store: memcpy compiles to one vector move on every target.
template <class V> inline V load(const float* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
}
template <class V> inline void store(float* p, V v) { std::memcpy(p, &v, sizeof(V)); }
// A pair half by half: one memcpy of the whole struct goes through the stack in 16-byte pieces.
template <> inline f32x8x2 load<f32x8x2>(const float* p) {
    return {load<f32x8>(p), load<f32x8>(p + 8)};
}
template <> inline void store<f32x8x2>(float* p, f32x8x2 v) {
    store<f32x8>(p, v.lo);
    store<f32x8>(p + 8, v.hi);
}

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
inline float reduce_add(f32x8x2 v) { return reduce_add(v.lo + v.hi); }

}  // namespace lb::simd
