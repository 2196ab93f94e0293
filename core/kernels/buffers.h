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

}  // namespace lb
