// Fabric parameters (platform.fabric.* keys) and their declared keys (base/Params.hpp).
#pragma once

#include "base/Params.hpp"
#include "base/Routing.hpp" // Routing: the emulator's paths take the same choice
#include "base/Time.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::sim {

struct FabricParams {
  /// Ports per switch when a scenario does not give them: the same for every level.
  static constexpr int kDefaultDown = 16;
  static constexpr int kDefaultUp   = 1;

  int levels = 1;
  std::vector<int> down{kDefaultDown};              ///< children per switch, per level (size = levels)
  std::vector<int> up{};                            ///< parents per switch, per level below the top (size = levels - 1)
  std::uint64_t link_bandwidth = 32'000'000'000ull; ///< bit/s, each direction
  Ps link_latency              = 10'000;
  Ps switch_latency            = 100'000;
  std::uint32_t mtu            = 2048; ///< payload bytes per packet
  std::uint32_t header_size    = 42;   ///< bytes added to every packet on the wire
  Routing routing              = Routing::DModK;
  Ps jitter                    = 0; ///< uniform extra delay in [0, jitter] per switch traversal
  /// Input buffer of every switch port, bytes (the data virtual lane's); 0: unbounded (no flow control).
  std::uint64_t buffer = 0;

  /// Number of nodes the shape can hold.
  std::int64_t capacity() const;
  /// Whole 64-byte credits of the largest packet (mtu + header).
  std::uint64_t largest_packet_credits() const { return (std::uint64_t{mtu} + header_size + 63) / 64 * 64; }
  /// Empty if the shape is possible, else why not.
  std::string check() const;

  /// The platform.fabric.* keys (platform.fabric.topology, fat_tree only, is the scenario's).
  static const ParamTable<FabricParams>& keys();
};

inline const ParamTable<FabricParams>& FabricParams::keys()
{
  using K                                     = ParamKind;
  constexpr std::uint64_t kU32Max             = 0xFFFF'FFFFu;
  static const ParamTable<FabricParams> table = {
      {.path  = "platform.fabric.levels",
       .kind  = K::Int,
       .doc   = "Switch levels of the fat tree.",
       .field = field(&FabricParams::levels),
       .min   = 1,
       .max   = 8},
      {.path  = "platform.fabric.down",
       .kind  = K::IntList,
       .doc   = "Down ports (children) per switch: one integer for every level, or an array of `levels` "
                "integers (level 1 first). The tree holds prod(down) nodes.",
       .field = field(&FabricParams::down),
       .min   = 1,
       .fill  = kDefaultDown},
      {.path  = "platform.fabric.up",
       .kind  = K::IntList,
       .doc   = "Up ports (parents) per switch below the top: one integer for every such level, or an array "
                "of `levels`-1 integers (empty when levels is 1).",
       .field = field(&FabricParams::up),
       .min   = 1,
       .fill  = kDefaultUp},
      {.path  = "platform.fabric.link_bandwidth",
       .kind  = K::Bandwidth,
       .doc   = "Data bandwidth of every link, each direction.",
       .field = field(&FabricParams::link_bandwidth),
       .umin  = 1},
      {.path  = "platform.fabric.link_latency",
       .kind  = K::Time,
       .doc   = "Propagation delay of every link (cable).",
       .field = field(&FabricParams::link_latency)},
      {.path  = "platform.fabric.switch_latency",
       .kind  = K::Time,
       .doc   = "Cut-through forwarding delay of a switch (head in to head out).",
       .field = field(&FabricParams::switch_latency)},
      {.path  = "platform.fabric.mtu",
       .kind  = K::Size,
       .doc   = "Payload bytes per packet.",
       .field = field(&FabricParams::mtu),
       .umin  = 1,
       .umax  = kU32Max},
      {.path  = "platform.fabric.header_size",
       .kind  = K::Size,
       .doc   = "Bytes added to every packet on the wire.",
       .field = field(&FabricParams::header_size),
       .umax  = kU32Max},
      {.path    = "platform.fabric.routing",
       .kind    = K::Enum,
       .doc     = "Uplink choice: dmodk (fixed per destination), random (per packet), adaptive (least-loaded "
                  "uplink).",
       .field   = field(&FabricParams::routing),
       .choices = routing_names(),
       .noun    = "routing"},
      {.path  = "platform.fabric.jitter",
       .kind  = K::Time,
       .doc   = "Uniform random extra delay in [0, jitter] per switch traversal.",
       .field = field(&FabricParams::jitter)},
      {.path  = "platform.fabric.buffer",
       .kind  = K::Size,
       .doc   = "Input buffer of every switch port: a packet is sent on a link only when the buffer at its far "
                "end has room for it (InfiniBand credit flow control, 64-byte credits), so congestion backs up "
                "towards the sources. 0: unbounded (output ports queue without limit, no flow control).",
       .field = field(&FabricParams::buffer),
       .umax  = std::uint64_t{1} << 40},
  };
  return table;
}

} // namespace shmemsim::sim
