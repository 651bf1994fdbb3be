#include "sim/Noise.hpp"

#include "base/Assert.hpp"

namespace shmemsim::sim {

Detours::Detours(const NoiseParams& p, Rng rng)
{
  if (!p.enabled || p.duration <= 0)
    return;
  SHMEMSIM_ASSERT(p.duration < p.period, "a detour ends before the next one falls");
  period_   = p.period;
  duration_ = p.duration;
  phase_    = static_cast<Ps>(rng.below(static_cast<std::uint64_t>(p.period)));
}

} // namespace shmemsim::sim
