// Operating-system noise (platform.noise.* keys): the detours a thread's execution takes through
// the kernel. A Linux node's periodic timer interrupt stops whatever runs on a core every `period`
// of time for `duration`; a thread that is running when one falls is late by that much. Each
// thread (a program's thread, the NIC's progress thread) has its own detours: the same period, a
// phase of its own drawn from the run's seed, counted on the thread's own execution time (a thread
// that waits or sleeps is not running: the interrupts of that time hit an idle core). The values
// and their source: docs/model.md, "Operating-system noise", and scenarios/presets/qdr-16.md.
#pragma once

#include "base/Params.hpp"
#include "sim/Rng.hpp"
#include "base/Time.hpp"

#include <cstdint>

namespace shmemsim::sim {

struct NoiseParams {
  bool enabled = false;
  /// Time between two detours of one thread: Linux's timer tick at HZ = 1000.
  Ps period = 1'000'000'000;
  /// Time one detour takes from the thread: the mean measured timer interrupt (docs/model.md).
  Ps duration = 1'458'000;

  static const ParamTable<NoiseParams>& keys();
};

/// The detours of one thread. Interrupt k falls when the thread's execution clock (the time it has
/// run, detours excluded) passes phase + k x period; phase is uniform in [0, period), drawn once.
class Detours {
public:
  /// No noise: during() is always 0.
  Detours() = default;
  /// Detours of `p` (none if !p.enabled) at a phase drawn from `rng`. p.duration < p.period (the
  /// scenario layer refuses other values).
  Detours(const NoiseParams& p, Rng rng);

  bool active() const { return period_ > 0; }
  /// The thread runs `busy` more of its own execution: the time the detours that fall meanwhile
  /// add to it (a whole number of `duration`s).
  Ps during(Ps busy)
  {
    if (period_ <= 0 || busy <= 0)
      return 0;
    const std::int64_t n = falls_before(clock_ + busy) - falls_before(clock_);
    clock_ += busy;
    count_ += static_cast<std::uint64_t>(n);
    return n * duration_;
  }

  Ps phase() const { return phase_; }
  /// The thread's execution so far (detours excluded).
  Ps executed() const { return clock_; }
  /// Detours so far, and the time they took.
  std::uint64_t count() const { return count_; }
  Ps time() const { return static_cast<Ps>(count_) * duration_; }

private:
  /// Interrupts that fell before the execution clock reached `t`.
  std::int64_t falls_before(Ps t) const { return t <= phase_ ? 0 : (t - phase_ + period_ - 1) / period_; }

  Ps period_           = 0;
  Ps duration_         = 0;
  Ps phase_            = 0;
  Ps clock_            = 0;
  std::uint64_t count_ = 0;
};

inline const ParamTable<NoiseParams>& NoiseParams::keys()
{
  using K                                    = ParamKind;
  static const ParamTable<NoiseParams> table = {
      {.path  = "platform.noise.enabled",
       .kind  = K::Bool,
       .doc   = "Operating-system noise: every thread (program threads, the NIC's progress thread) is interrupted "
                "every platform.noise.period of its execution for platform.noise.duration, at a phase of its own "
                "drawn from the seed (docs/model.md). Off: software costs are exact (a symmetric program may then "
                "repeat the same interleaving forever).",
       .field = field(&NoiseParams::enabled)},
      {.path  = "platform.noise.period",
       .kind  = K::Time,
       .doc   = "Time between two detours of a running thread (the kernel's timer tick: 1ms at HZ=1000).",
       .field = field(&NoiseParams::period),
       .min   = 1},
      {.path  = "platform.noise.duration",
       .kind  = K::Time,
       .doc   = "Time one detour takes from the running thread (a timer interrupt's handling), below the period.",
       .field = field(&NoiseParams::duration)},
  };
  return table;
}

} // namespace shmemsim::sim
