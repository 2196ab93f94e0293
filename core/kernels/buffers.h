// core/kernels/buffers.h — the caches' flat float buffers, internal to the core's
// .cpp files: grown to the largest batch seen, never shrunk, so that a batch
// reuses what an earlier one allocated.
#pragma once
#include <cstring>
#include <xtensor/xtensor.hpp>

namespace lb {

// At least size floats (zeros where new); left as it is if it holds enough.
inline void grow(xt::xtensor<float, 1>& buffer, size_t size) {
    if (buffer.size() < size) buffer = xt::zeros<float>({size});
}
// Zeroes the first size floats: the part the batch at hand uses.
inline void zero(xt::xtensor<float, 1>& buffer, size_t size) {
    std::memset(buffer.data(), 0, sizeof(float) * size);
}

// Asks for floats [p, p + n) to be brought into the cache ahead of their use: a loop that reads
// short rows scattered through a large cache (a step's rows of the attention's tanh cache) would
// otherwise wait on each row's first load, as the hardware's prefetcher never gets ahead of
// rows so short. Changes no value (a no-op in WebAssembly).
inline void prefetch(const float* p, size_t n) {
    constexpr size_t line_floats = 64 / sizeof(float);
    for (size_t i = 0; i < n; i += line_floats) __builtin_prefetch(p + i);
}

}  // namespace lb
