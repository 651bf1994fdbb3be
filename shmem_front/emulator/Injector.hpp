// Delay and reordering injected above TCP (docs/emulator.md): each message from one PE to another
// gets a release time -- latency + size / bandwidth + a seeded jitter -- and a request may be held
// back until `depth` later requests of the same pair have overtaken it (probability
// emulator.reorder.probability, depth uniform in 1..emulator.reorder.max_depth, at most
// emulator.reorder.max_hold). TCP itself never reorders: this is where the application's
// reordering comes from. The decisions depend only on the seed, the pair and the message's rank
// in the pair's stream (requests and responses are separate streams), so the same seed gives the
// same decisions.
#pragma once

#include "shmem_front/emulator/Config.hpp"

#include <cstdint>
#include <random>

namespace shmemsim::emulator {

struct Decision {
  std::uint64_t index    = 0; ///< the message's rank in its stream (from 1)
  std::uint64_t delay_ns = 0; ///< release after this long
  int hold               = 0; ///< requests: later requests that must overtake it first (0: none)
};

class Injector {
public:
  Injector(const Config& cfg, int src, int dst)
      : cfg_(cfg), requests_(mix(cfg.seed, src, dst, 0)), responses_(mix(cfg.seed, src, dst, 1))
  {
  }

  Decision next(std::uint64_t bytes, bool request)
  {
    std::mt19937_64& rng = request ? requests_ : responses_;
    Decision d;
    d.index    = ++(request ? n_requests_ : n_responses_);
    d.delay_ns = cfg_.latency_ns;
    if (cfg_.bandwidth_Bps > 0)
      d.delay_ns += static_cast<std::uint64_t>(static_cast<double>(bytes) * 1e9 / cfg_.bandwidth_Bps);
    if (cfg_.jitter_ns > 0)
      d.delay_ns += rng() % (cfg_.jitter_ns + 1);
    if (request && cfg_.reorder_probability > 0) {
      const double u            = static_cast<double>(rng() >> 11) * 0x1.0p-53;
      const std::uint64_t depth = rng();
      if (u < cfg_.reorder_probability)
        d.hold =
            1 + static_cast<int>(depth % static_cast<std::uint64_t>(cfg_.reorder_depth > 0 ? cfg_.reorder_depth : 1));
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
  Config cfg_;
  std::mt19937_64 requests_, responses_;
  std::uint64_t n_requests_ = 0, n_responses_ = 0;
};

} // namespace shmemsim::emulator
