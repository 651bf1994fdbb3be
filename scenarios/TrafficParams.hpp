// One built-in Portals-level traffic pattern (the `traffic` key: an object or an array of them,
// all running concurrently; run/Traffic.hpp runs them) and its declared keys
// (base/Params.hpp), relative to one pattern.
#pragma once

#include "base/Params.hpp"
#include "base/Time.hpp"
#include "sim/portals_model/Types.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace shmemsim::scenarios {

enum class Pattern { PingPong, Stream, AllToAll, Incast, FetchAdd, Random, Shift };

/// Names of the patterns, in the order of the enumerators.
inline const std::vector<std::string>& pattern_names()
{
  static const std::vector<std::string> names = {"pingpong", "stream", "alltoall", "incast", "fetch_add", "random", "shift"};
  return names;
}

const char* to_string(Pattern p);

/// How an endpoint times its operations: closed loop (at most `window` in flight, `gap` apart) or an
/// open-loop Bernoulli process (a put per packet time with probability `load`, whatever completes).
enum class Injection { Closed, Bernoulli };

struct TrafficParams {
  Pattern pattern          = Pattern::PingPong;
  std::uint64_t size       = 8;   ///< bytes per operation
  std::uint64_t iterations = 100; ///< operations (or rounds) per sending endpoint
  int window               = 16;  ///< operations in flight per endpoint before it waits
  portals::AckReq ack      = portals::AckReq::CtAck;
  int root                 = 0;     ///< pingpong/stream source, incast/fetch_add target
  int peer                 = -1;    ///< pingpong/stream partner; -1: the last endpoint
  bool pairs               = false; ///< stream: endpoint e < n/2 streams to e + n/2
  int shift                = 1;     ///< shift: endpoint e puts to e + shift mod n
  Ps gap                   = 0;     ///< idle time between two issues of one endpoint
  bool volatile_md         = true;  ///< source MD marked PTL_MD_VOLATILE
  bool independent_md      = false; ///< source MD marked PTL_MD_INDEPENDENT
  bool verify              = true;  ///< check the data that landed at the end
  Injection injection      = Injection::Closed;
  double load              = 0.5; ///< bernoulli: offered load, a fraction of an endpoint link's bandwidth
  Ps warmup                = 0;   ///< bernoulli: packets that enter the fabric before this are not measured

  /// The keys of one pattern: traffic.<key>, or traffic[i].<key> in an array.
  static const ParamTable<TrafficParams>& keys();
};

inline const ParamTable<TrafficParams>& TrafficParams::keys()
{
  using K = ParamKind;
  using portals::AckReq;
  using shmemsim::field;
  using shmemsim::mapped;
  static const ParamTable<TrafficParams> table = {
      {.path    = "traffic.pattern",
       .kind    = K::Enum,
       .doc     = "pingpong/stream: root <-> peer; alltoall: every endpoint to every other; incast: all to root; "
                  "fetch_add: all fetch-add on root; random: uniformly random targets; shift: every endpoint e to e + shift "
                  "mod n (with shift = the endpoints of a dragonfly group: group-adversarial).",
       .field   = field(&TrafficParams::pattern),
       .choices = pattern_names(),
       .noun    = "pattern"},
      {.path  = "traffic.size",
       .kind  = K::Size,
       .doc   = "Bytes per operation (an integer is bytes).",
       .field = field(&TrafficParams::size)},
      {.path  = "traffic.iterations",
       .kind  = K::Int,
       .doc   = "Operations (or rounds) per sending endpoint.",
       .field = field(&TrafficParams::iterations),
       .min   = 1,
       .max   = std::numeric_limits<std::int64_t>::max()},
      {.path  = "traffic.window",
       .kind  = K::Int,
       .doc   = "Operations in flight per endpoint before it waits.",
       .field = field(&TrafficParams::window),
       .min   = 1},
      {.path    = "traffic.ack",
       .kind    = K::Enum,
       .doc     = "Ack request: ct (PTL_CT_ACK_REQ), oc (PTL_OC_ACK_REQ), none (PTL_NO_ACK_REQ).",
       .field   = mapped(&TrafficParams::ack, {AckReq::CtAck, AckReq::OcAck, AckReq::NoAck}),
       .choices = {"ct", "oc", "none"},
       .noun    = "ack type"},
      {.path  = "traffic.root",
       .kind  = K::Int,
       .doc   = "pingpong/stream source, incast/fetch_add target.",
       .field = field(&TrafficParams::root)},
      {.path  = "traffic.peer",
       .kind  = K::Int,
       .doc   = "pingpong/stream partner; -1: the last endpoint.",
       .field = field(&TrafficParams::peer),
       .min   = -1},
      {.path  = "traffic.pairs",
       .kind  = K::Bool,
       .doc   = "stream: every endpoint e of the first half streams to e + n/2 (root and peer ignored).",
       .field = field(&TrafficParams::pairs)},
      {.path  = "traffic.shift",
       .kind  = K::Int,
       .doc   = "shift: endpoint e puts to endpoint e + shift mod n (not a multiple of n); every put lands in a "
                "slot of its own (size x iterations bytes per endpoint), so all are checked.",
       .field = field(&TrafficParams::shift),
       .min   = 1},
      {.path  = "traffic.gap",
       .kind  = K::Time,
       .doc   = "Idle time between two issues of one endpoint.",
       .field = field(&TrafficParams::gap)},
      {.path  = "traffic.volatile",
       .kind  = K::Bool,
       .doc   = "Source MD marked PTL_MD_VOLATILE.",
       .field = field(&TrafficParams::volatile_md)},
      {.path  = "traffic.independent",
       .kind  = K::Bool,
       .doc   = "Source MD marked PTL_MD_INDEPENDENT (own injection queue while queues last).",
       .field = field(&TrafficParams::independent_md)},
      {.path  = "traffic.verify",
       .kind  = K::Bool,
       .doc   = "Check the data that landed at the end.",
       .field = field(&TrafficParams::verify)},
      {.path    = "traffic.injection",
       .kind    = K::Enum,
       .doc     = "closed: at most traffic.window operations in flight, traffic.gap apart; bernoulli: open loop "
                  "(random and shift only, traffic.ack none): in each time slot of one put's wire time on an "
                  "endpoint link, a put with probability traffic.load, for traffic.iterations slots; the summary "
                  "then gives the per-packet fabric latency and the accepted throughput (docs/runs.md).",
       .field   = mapped(&TrafficParams::injection, {Injection::Closed, Injection::Bernoulli}),
       .choices = {"closed", "bernoulli"},
       .noun    = "injection process"},
      {.path  = "traffic.load",
       .kind  = K::Number,
       .doc   = "bernoulli: offered load per endpoint, a fraction of its link's bandwidth (headers included).",
       .field = field(&TrafficParams::load),
       .min   = 0,
       .max   = 1},
      {.path  = "traffic.warmup",
       .kind  = K::Time,
       .doc   = "bernoulli: packets that enter the fabric earlier than this after the start are left out of "
                "the latency and throughput statistics.",
       .field = field(&TrafficParams::warmup)},
  };
  return table;
}

} // namespace shmemsim::scenarios
