// The dates of an emulated job's trace events: real picoseconds from the job-wide epoch (the
// launcher's CLOCK_REALTIME at its start, Config::epoch_ns), so that the PEs' parts -- even from
// several hosts with synchronized clocks -- share one time axis (docs/emulator.md, "Traces").
#pragma once

#include "base/Time.hpp"

#include <chrono>
#include <cstdint>

namespace shmemsim::emulator {

/// Now, in picoseconds from `epoch_ns` (0 before it).
inline Ps job_time(std::uint64_t epoch_ns)
{
  const auto now = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  return now > epoch_ns ? static_cast<Ps>(now - epoch_ns) * 1000 : 0;
}

} // namespace shmemsim::emulator
