#pragma once
// The reference UEngine.Random is checked against (ScriptCore/src/Math/Random.cs), written here
// in C++: Marsaglia, "Xorshift RNGs" (2003), the xor128 generator, seeded word by word with the
// Mersenne Twister's multiplier as Unity seeds its Random.

#include <cstdint>

namespace scripthost::testing {

struct Xorshift128 {
    std::uint32_t x, y, z, w;
    explicit Xorshift128(std::int32_t seed)
        : x(static_cast<std::uint32_t>(seed)), y(x * 1812433253U + 1U), z(y * 1812433253U + 1U),
          w(z * 1812433253U + 1U) {}
    std::uint32_t next() {
        const std::uint32_t t = x ^ (x << 11);
        x = y;
        y = z;
        z = w;
        w = w ^ (w >> 19) ^ t ^ (t >> 8);
        return w;
    }
    /// Random.Range(int, int): an int in [min, max).
    std::int64_t range(std::int32_t min, std::int32_t max) { return min + next() % (max - min); }
    /// Random.Range(float, float): from 23 bits of the next word, both ends included.
    float range(float min, float max) {
        const float t = static_cast<float>(next() & 0x7FFFFFU) / 8388607.0f;
        return min + (max - min) * t;
    }
};

} // namespace scripthost::testing
