// Fabric parameters (platform.fabric.* keys) and their declared keys (base/Params.hpp).
#pragma once

#include "base/Params.hpp"
#include "base/Routing.hpp" // Routing: the emulator's paths take the same choice
#include "base/Time.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::sim {

enum class Topology { FatTree, Dragonfly };
/// How a dragonfly packet picks its path (platform.fabric.dragonfly.routing).
enum class DragonflyRouting {
  Minimal, ///< the one shortest path: local, global, local
  Valiant, ///< through a random intermediate group
  Ugal,    ///< per packet at the source switch: minimal or Valiant, whichever queue looks shorter (UGAL-L)
};
/// Which group each global port of a group leads to (platform.fabric.dragonfly.arrangement).
enum class GlobalArrangement { Absolute, Relative, Circulant };

/// A dragonfly's shape (Kim et al., "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA
/// 2008): groups of `a` switches joined all-to-all by local links, `p` endpoints and `h` global
/// links per switch, `g` groups.
struct DragonflyParams {
  // Kim et al. 2008 simulate a 1K-node dragonfly of radix-15 routers: p = h = 4, a = 8 (balanced:
  // a = 2p = 2h), g = a*h + 1 = 33 groups, 1056 endpoints.
  int endpoints_per_switch = 4;
  int switches_per_group   = 8;
  int global_per_switch    = 4;
  int groups               = 0; ///< 0: the largest, a*h + 1 (one global link between every two groups)
  GlobalArrangement arrangement = GlobalArrangement::Absolute;
  DragonflyRouting routing      = DragonflyRouting::Minimal;
  Ps global_link_latency        = 0; ///< 0: the same as link_latency
  /// UGAL's bias towards minimal paths, bytes: minimal when q_min*H_min <= q_val*H_val + threshold.
  std::uint64_t ugal_threshold = 0;

  /// g, with 0 resolved to a*h + 1.
  int group_count() const { return groups > 0 ? groups : switches_per_group * global_per_switch + 1; }
  /// Virtual channels per link under credit flow control: one per phase of the longest route
  /// (sim/Dragonfly.hpp): local, global, local (minimal: 2 on local links); Valiant and UGAL add a
  /// global and a local link (3).
  int virtual_channels() const { return routing == DragonflyRouting::Minimal ? 2 : 3; }
};

struct FabricParams {
  /// Ports per switch when a scenario does not give them: the same for every level.
  static constexpr int kDefaultDown = 16;
  static constexpr int kDefaultUp   = 1;

  Topology topology = Topology::FatTree;
  DragonflyParams dragonfly; ///< topology dragonfly only
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
  /// Input buffer of every switch port, bytes (the data virtual lane's; on a dragonfly each virtual
  /// channel's); 0: unbounded (no flow control).
  std::uint64_t buffer = 0;

  /// Number of nodes the shape can hold.
  std::int64_t capacity() const;
  /// Whole 64-byte credits of the largest packet (mtu + header).
  std::uint64_t largest_packet_credits() const { return (std::uint64_t{mtu} + header_size + 63) / 64 * 64; }
  /// Empty if the shape is possible, else why not.
  std::string check() const;

  /// The platform.fabric.* keys.
  static const ParamTable<FabricParams>& keys();
};

/// A field of FabricParams::dragonfly as a ParamField of FabricParams.
template <class T> ParamField dragonfly_field(T DragonflyParams::*m)
{
  ParamField inner = field(m);
  ParamField f;
  f.get         = [g = inner.get](const void* p) { return g(&static_cast<const FabricParams*>(p)->dragonfly); };
  f.set         = [s = inner.set](void* p, const ParamValue& v) { s(&static_cast<FabricParams*>(p)->dragonfly, v); };
  f.get_default = inner.get_default;
  return f;
}

inline const ParamTable<FabricParams>& FabricParams::keys()
{
  using K                                     = ParamKind;
  constexpr std::uint64_t kU32Max             = 0xFFFF'FFFFu;
  static const ParamTable<FabricParams> table = {
      {.path    = "platform.fabric.topology",
       .kind    = K::Enum,
       .doc     = "Fabric topology: fat_tree (levels, down, up, routing) or dragonfly (the dragonfly.* keys).",
       .field   = field(&FabricParams::topology),
       .choices = {"fat_tree", "dragonfly"},
       .noun    = "topology"},
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
                "towards the sources. On a dragonfly, each virtual channel's buffer (2 VCs per link with minimal "
                "routing, 3 with valiant or ugal). 0: unbounded (output ports queue without limit, no flow "
                "control).",
       .field = field(&FabricParams::buffer),
       .umax  = std::uint64_t{1} << 40},
      {.path  = "platform.fabric.dragonfly.endpoints_per_switch",
       .kind  = K::Int,
       .doc   = "Dragonfly: endpoints (nodes) per switch, p.",
       .field = dragonfly_field(&DragonflyParams::endpoints_per_switch),
       .min   = 1,
       .max   = 1024},
      {.path  = "platform.fabric.dragonfly.switches_per_group",
       .kind  = K::Int,
       .doc   = "Dragonfly: switches per group, a (all-to-all by local links).",
       .field = dragonfly_field(&DragonflyParams::switches_per_group),
       .min   = 1,
       .max   = 1024},
      {.path  = "platform.fabric.dragonfly.global_per_switch",
       .kind  = K::Int,
       .doc   = "Dragonfly: global links per switch, h.",
       .field = dragonfly_field(&DragonflyParams::global_per_switch),
       .min   = 1,
       .max   = 1024},
      {.path  = "platform.fabric.dragonfly.groups",
       .kind  = K::Int,
       .doc   = "Dragonfly: groups, g; the a*h global ports of a group split evenly over the g-1 other groups. "
                "0: the largest, a*h+1 (one global link between every two groups).",
       .field = dragonfly_field(&DragonflyParams::groups),
       .min   = 0,
       .max   = 1 << 20},
      {.path    = "platform.fabric.dragonfly.arrangement",
       .kind    = K::Enum,
       .doc     = "Dragonfly: which group each global port leads to (docs/model.md): absolute (port k of group i to "
                  "the k-th other group in group order), relative (to group i+k+1 mod g), circulant (ports in pairs "
                  "to groups i+m and i-m).",
       .field   = dragonfly_field(&DragonflyParams::arrangement),
       .choices = {"absolute", "relative", "circulant"},
       .noun    = "arrangement"},
      {.path    = "platform.fabric.dragonfly.routing",
       .kind    = K::Enum,
       .doc     = "Dragonfly: minimal (local-global-local), valiant (through a random intermediate group), ugal "
                  "(per packet at the source switch, minimal unless q_min*H_min > q_val*H_val + ugal_threshold).",
       .field   = dragonfly_field(&DragonflyParams::routing),
       .choices = {"minimal", "valiant", "ugal"},
       .noun    = "routing"},
      {.path  = "platform.fabric.dragonfly.global_link_latency",
       .kind  = K::Time,
       .doc   = "Dragonfly: propagation delay of a global link (long optical cables between groups); 0: the same "
                "as link_latency.",
       .field = dragonfly_field(&DragonflyParams::global_link_latency)},
      {.path  = "platform.fabric.dragonfly.ugal_threshold",
       .kind  = K::Size,
       .doc   = "Dragonfly, ugal: bias towards the minimal path, in bytes of output queue.",
       .field = dragonfly_field(&DragonflyParams::ugal_threshold),
       .umax  = std::uint64_t{1} << 40},
  };
  return table;
}

} // namespace shmemsim::sim
