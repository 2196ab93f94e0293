// core/kernels/rng.h — the project's own small random number generator.
//
// Same seed, same numbers on every platform (native and WASM): no
// std::random_device, no std:: distributions (their output is not specified
// across standard libraries). SplitMix64 seeds the four words of a xoshiro256** generator.
#pragma once
#include <cstdint>
#include <cmath>

namespace lb {

class Rng {
public:
    explicit Rng(uint64_t seed = 1) { reseed(seed); }

    void reseed(uint64_t seed) {
        for (auto& word : s_) word = splitmix(seed);
    }

    // Uniform 64-bit integer (xoshiro256**).
    uint64_t next_u64() {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0]; s_[3] ^= s_[1]; s_[1] ^= s_[2]; s_[0] ^= s_[3];
        s_[2] ^= t; s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform integer in [0, n), n > 0 (rejection sampling, no modulo bias).
    uint64_t below(uint64_t n) {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x;
        do x = next_u64(); while (x >= limit);
        return x % n;
    }

    // Uniform double in [0, 1) from the top 53 bits.
    double uniform() { return double(next_u64() >> 11) * 0x1.0p-53; }

    // Uniform float in [lo, hi).
    float uniform(float lo, float hi) { return lo + float(uniform()) * (hi - lo); }

    // Standard normal (Box–Muller; one value per call, deterministic).
    double normal() {
        double u1 = uniform();
        while (u1 <= 0.0) u1 = uniform();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix(uint64_t& state) {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    uint64_t s_[4];
};

}  // namespace lb
