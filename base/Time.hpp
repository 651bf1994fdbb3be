// Simulated time in integer picoseconds, and the conversions the models need.
#pragma once

#include <cmath>
#include <cstdint>

namespace shmemsim {

/// A date or a duration in picoseconds. 2^63 ps is about 106 days of simulated time.
using Ps = std::int64_t;

constexpr Ps kPsPerSecond = 1'000'000'000'000;

constexpr double ps_to_seconds(Ps t)
{
  return static_cast<double>(t) / static_cast<double>(kPsPerSecond);
}

inline Ps seconds_to_ps(double s)
{
  return static_cast<Ps>(std::llround(s * static_cast<double>(kPsPerSecond)));
}

/// Time to push `bytes` through a channel of `bits_per_second`, rounded up to a whole picosecond.
/// Exact integer arithmetic, so that results never depend on floating-point rounding.
__extension__ using Uint128 = unsigned __int128;

inline Ps transfer_time(std::uint64_t bytes, std::uint64_t bits_per_second)
{
  if (bytes == 0)
    return 0;
  const Uint128 num = static_cast<Uint128>(bytes) * 8u * static_cast<Uint128>(kPsPerSecond);
  return static_cast<Ps>((num + bits_per_second - 1) / bits_per_second);
}

} // namespace shmemsim
