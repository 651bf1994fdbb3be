// Seeded random streams. The generator is fully specified (splitmix64 seeding a xoshiro256**),
// so a seed gives the same numbers on every platform and standard library.
#pragma once

#include <cstdint>

namespace shmemsim::sim {

class Rng {
public:
  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed)
  {
    std::uint64_t x = seed;
    for (auto& w : s_)
      w = splitmix(x);
  }

  /// A stream for one purpose (routing, jitter, traffic...), independent of the others.
  static Rng stream(std::uint64_t seed, std::uint64_t purpose)
  {
    return Rng(seed ^ (0x9E3779B97F4A7C15ull * (purpose + 1)));
  }

  std::uint64_t next()
  {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t      = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n), without modulo bias. n must be > 0.
  std::uint64_t below(std::uint64_t n)
  {
    const std::uint64_t limit = ~0ull - (~0ull % n);
    std::uint64_t v;
    do
      v = next();
    while (v >= limit);
    return v % n;
  }

private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix(std::uint64_t& x)
  {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t s_[4];
};

} // namespace shmemsim::sim
