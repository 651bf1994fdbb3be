// Built-in Portals-level traffic patterns (the `traffic` key): ping-pong, put streams, all-to-all,
// incast, fetch-add storms, uniform random puts and shifts (e to e + k). Each pattern instance gets its own portal
// table entry, buffers, MDs and CTs on every endpoint, runs one actor per active endpoint, and
// checks the data that landed when the run is over.
#pragma once

#include "scenarios/Scenario.hpp"
#include "sim/portals_model/Network.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace shmemsim::run {

using scenarios::TrafficParams;

struct TrafficResult {
  std::uint64_t operations = 0; ///< operations issued
  std::uint64_t bytes      = 0; ///< payload bytes requested
  Ps start                 = 0; ///< first issue
  Ps end                   = 0; ///< last completion seen by an issuing endpoint
  double half_rtt_s        = 0; ///< pingpong: mean one-way time (half a round trip)
  bool verified            = false;
  std::vector<std::string> failures;
};

class TrafficPattern {
public:
  /// Set up the pattern's Portals resources on every endpoint (before the run).
  TrafficPattern(portals::Network& net, const TrafficParams& p, int index, std::uint64_t seed);
  ~TrafficPattern();
  TrafficPattern(const TrafficPattern&)            = delete;
  TrafficPattern& operator=(const TrafficPattern&) = delete;

  /// Spawn the pattern's actors.
  void start();
  /// After the run: check the data that landed; fills result().verified/failures.
  void verify();

  const TrafficParams& params() const { return p_; }
  const TrafficResult& result() const { return result_; }
  /// bernoulli: one slot, the wire time of one put (its packets' headers included) on an endpoint link.
  Ps slot() const;

private:
  struct Endpoint;
  void run_endpoint(int ep);
  void issue_put(Endpoint& e, int target, std::uint64_t src_off, std::uint64_t dst_off, std::uint64_t tag);
  void window_wait(Endpoint& e, std::uint64_t issued);
  /// traffic.injection = bernoulli: a put per slot with probability traffic.load.
  void run_open_loop(Endpoint& e);
  void fail_setup(int ep, const char* call, portals::Status s);
  std::uint64_t slots_per_source() const;
  std::uint64_t dst_offset(int source, std::uint64_t iteration) const;
  /// The one endpoint `source` puts to (stream, incast, shift).
  int target_of(int source) const;
  void note_time(Ps start, Ps end);

  portals::Network& net_;
  TrafficParams p_;
  int index_;
  std::uint32_t pt_ = 0;
  std::uint64_t seed_;
  int n_;
  std::vector<std::unique_ptr<Endpoint>> eps_;
  TrafficResult result_;
  bool started_any_ = false;
};

/// The byte a payload carries at offset k of the put tagged `tag` from `source`.
inline std::uint8_t payload_byte(int source, std::uint64_t tag, std::uint64_t k)
{
  std::uint64_t x =
      (static_cast<std::uint64_t>(source) + 1) * 0x9E3779B97F4A7C15ull ^ (tag + 1) * 0xC2B2AE3D27D4EB4Full;
  x ^= (k + 1) * 0x165667B19E3779F9ull;
  x ^= x >> 29;
  return static_cast<std::uint8_t>(x ^ (x >> 8));
}

} // namespace shmemsim::run
