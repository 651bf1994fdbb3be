// Delay and reordering injected above TCP (docs/emulator.md): each message from one PE to another
// gets a release time -- latency + size / bandwidth + a seeded jitter -- and a request may be held
// back until `depth` later requests of the same pair have overtaken it (probability
// emulator.reorder.probability, depth uniform in 1..emulator.reorder.max_depth, at most
// emulator.reorder.max_hold). TCP itself never reorders: this is where the application's
// reordering comes from. The decisions depend only on the seed, the pair and the message's rank
// in the pair's stream (requests and responses are separate streams), so the same seed gives the
// same decisions.
#pragma once

#include "shmem_front/emulator/EmulatorParams.hpp"

#include <cstdint>
#include <random>

namespace shmemsim::emulator {

/// The emulator.* delays in the units the injector works in: nanoseconds (it releases messages on a
/// nanosecond clock) and bytes per second. emulator.* keeps picoseconds and the bandwidth's text;
/// this is their last conversion.
struct InjectedDelays {
  std::uint64_t latency_ns   = 0;
  double bandwidth_Bps       = 0; ///< 0: no serialization delay
  std::uint64_t jitter_ns    = 0;
  double reorder_probability = 0;
  int reorder_depth          = 4;
  std::uint64_t hold_ns      = 0; ///< longest a held request waits (emulator.reorder.max_hold)

  InjectedDelays() = default;
  /// Throws std::invalid_argument when emulator.bandwidth is neither a bandwidth nor "none".
  explicit InjectedDelays(const EmulatorParams& p)
      : latency_ns(static_cast<std::uint64_t>(p.latency / 1000)),
        bandwidth_Bps(static_cast<double>(p.bandwidth_bps()) / 8.0),
        jitter_ns(static_cast<std::uint64_t>(p.jitter / 1000)), reorder_probability(p.reorder_probability),
        reorder_depth(p.reorder_max_depth), hold_ns(static_cast<std::uint64_t>(p.reorder_max_hold / 1000))
  {
  }

  /// Whether any message is delayed or held (else messages go at once, batched).
  bool any() const { return latency_ns > 0 || bandwidth_Bps > 0 || jitter_ns > 0 || reorder_probability > 0; }
};

struct Decision {
  std::uint64_t index    = 0; ///< the message's rank in its stream (from 1)
  std::uint64_t delay_ns = 0; ///< release after this long
  int hold               = 0; ///< requests: later requests that must overtake it first (0: none)
};

class Injector {
public:
  /// The decisions for messages from PE `src` to PE `dst`, from the job's `seed`.
  Injector(const InjectedDelays& delays, std::uint64_t seed, int src, int dst)
      : delays_(delays), requests_(mix(seed, src, dst, 0)), responses_(mix(seed, src, dst, 1))
  {
  }

  Decision next(std::uint64_t bytes, bool request)
  {
    std::mt19937_64& rng = request ? requests_ : responses_;
    Decision d;
    d.index    = ++(request ? n_requests_ : n_responses_);
    d.delay_ns = delays_.latency_ns;
    if (delays_.bandwidth_Bps > 0)
      d.delay_ns += static_cast<std::uint64_t>(static_cast<double>(bytes) * 1e9 / delays_.bandwidth_Bps);
    if (delays_.jitter_ns > 0)
      d.delay_ns += rng() % (delays_.jitter_ns + 1);
    if (request && delays_.reorder_probability > 0) {
      const double u            = static_cast<double>(rng() >> 11) * 0x1.0p-53;
      const std::uint64_t depth = rng();
      if (u < delays_.reorder_probability)
        d.hold = 1 + static_cast<int>(
                         depth % static_cast<std::uint64_t>(delays_.reorder_depth > 0 ? delays_.reorder_depth : 1));
    }
    return d;
  }

  /// The seed of stream `stream` of the pair (src, dst): 0 and 1 are the injector's, 2 the
  /// paths' random routing (Nic).
  static std::uint64_t mix(std::uint64_t seed, int src, int dst, int stream)
  {
    // splitmix64 of the seed and the stream's identity: independent streams per pair.
    std::uint64_t z = seed ^ (static_cast<std::uint64_t>(src) << 40) ^ (static_cast<std::uint64_t>(dst) << 8) ^
                      static_cast<std::uint64_t>(stream);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

private:
  InjectedDelays delays_;
  std::mt19937_64 requests_, responses_;
  std::uint64_t n_requests_ = 0, n_responses_ = 0;
};

} // namespace shmemsim::emulator
