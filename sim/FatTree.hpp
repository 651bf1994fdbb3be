// The fabric: a generalized fat tree (k-ary n-tree and its XGFT relatives) of switches.
//
// Shape: `levels` switch levels; a switch at level l has down[l-1] children and, below the top,
// up[l-1] parents. Nodes hang off level-1 switches with one port each, so the tree holds
// prod(down) nodes. Links are full duplex; each direction is an output port that serializes
// packets (per-port FIFO), so contention and queueing are real. Switching is virtual
// cut-through: a packet is forwarded switch_latency (+ seeded jitter) after its head arrives,
// once the output port is free.
//
// Flow control: with `buffer` 0 (the default) output ports queue without bound, a packet waiting
// for a busy port as long as it takes. With a finite `buffer` (bytes per switch input port) or a
// finite `sink_buffer` (the node adapter's receive buffer), links use InfiniBand's credit-based
// link-level flow control: a packet is sent on a link only when the buffer at the link's far end has
// room for it (64-byte credits); the buffer frees its room when the packet's tail has left it (a
// switch: forwarded on its output port; an adapter: written to host memory at `sink_bandwidth`),
// and the credit reaches the sender one link latency later. Each input buffer is a FIFO (one data
// virtual lane): only its head packet competes for an output port, so a head waiting for a congested
// port blocks the packets behind it (head-of-line blocking) and congestion backs up towards the
// sources. Output ports serve the input heads that want them in the order they asked.
//
// Routing happens hop by hop: on the way up, `dmodk` picks uplink (dst / B_l) mod up (fixed per
// destination), `random` a uniform uplink per packet, `adaptive` the uplink whose port frees up
// first (ties broken at random). The way down is unique. Packets of one flow that take
// different uplinks can overtake each other: out-of-order delivery comes from multipath
// routing, not from a shuffle.
#pragma once

#include "sim/EventQueue.hpp"
#include "sim/Fabric.hpp"
#include "sim/Rng.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace shmemsim::sim {

class FatTree final : public Fabric, private CreditRouter {
public:
  using Sink = FabricSink;
  FatTree(const FabricParams& p, int nodes, EventQueue& q, Rng routing_rng, Rng jitter_rng, Sink sink = {});

  void attach(int node, FabricClient* client) override { clients_.at(static_cast<std::size_t>(node)) = client; }

  /// Hand a packet from its source node's NIC to the fabric; it may leave at `ready`.
  /// Returns when its tail has left the node's port.
  Ps inject(Packet* p, Ps ready) override;

  /// Number of links between two nodes (0 for the same node).
  int path_links(int src, int dst) const override;
  /// Time for the tail of an uncontended, jitter-free packet to cross the fabric.
  Ps uncontended_time(int src, int dst, std::uint32_t wire_bytes) const override;

  const FabricParams& params() const override { return p_; }
  const FabricStats& stats() const override { return stats_; }
  /// Total transmission time of the busiest output port (node or switch).
  Ps max_port_busy() const override;
  std::int64_t switch_count() const override;
  /// Links (output ports): one per node, then every switch port. Ids are stable for a shape.
  int link_count() const override { return nodes_ + static_cast<int>(switch_ports_.size()); }
  /// "node3.up" or "sw1.0.p4" (level 1, switch 0, port 4; ports below `down` go down).
  std::string link_name(int link) const override;
  /// Report packet hops to `obs` (if it wants packets); null: nobody.
  void set_observer(NetworkObserver* obs) override { obs_ = obs != nullptr && obs->wants_packets() ? obs : nullptr; }
  /// Whether links use credit-based flow control (a finite switch or adapter buffer).
  bool credit_mode() const override { return credits_ != nullptr; }

private:
  using Port = FabricPort;

  void hop(std::uint64_t packet_ptr);
  void arrive_event(std::uint64_t packet_ptr) { arrive(reinterpret_cast<Packet*>(packet_ptr)); }
  /// The output port (id: node ports first, then switch ports) a packet at a switch leaves by; moves
  /// the packet's position to the far end of that port's link (sets last_link on the way to its node).
  int next_port(Packet& p);
  Port& port_at(int id)
  {
    return id < nodes_ ? node_ports_[static_cast<std::size_t>(id)]
                       : switch_ports_[static_cast<std::size_t>(id - nodes_)];
  }
  // Credit mode (see the file's comment; the machinery is CreditLinks, one VC per link).
  void setup_credits(const Sink& sink);
  int route(Packet& p) override { return next_port(p); }
  FabricPort& port(int id) override { return port_at(id); }
  void occupy(int id, Ps start, Ps waited, const Packet* p) override { occupy(port_at(id), start, waited, p); }
  Ps latency(int) const override { return p_.link_latency; }
  void arrive(Packet* p) override;
  Ps forward_delay() override;
  /// The id (node ports first, then switch ports) of port `port` of switch `sw` of `level`.
  int switch_port_id(int level, std::int64_t sw, int port) const
  {
    return static_cast<int>(nodes_ + level_base_[level] + sw * pps_[level] + port);
  }
  /// Switch index within its level of the switch a packet is at.
  std::int64_t switch_of(const Packet& p) const { return p.upper * b_prefix_[p.level] + p.bnum; }
  /// Per node, per level l: the subtree of level l it is in (node / M_l, l = 0..levels), its
  /// digit at level l (the down port leading to it from a level-l switch above it, l = 1..levels),
  /// its d-mod-k uplink at level l (l = 1..levels-1). Computed once: no division per hop.
  const std::int32_t* route_of(int node) const { return &route_[static_cast<std::size_t>(node) * route_stride_]; }
  std::int32_t sub_at(const std::int32_t* r, int level) const { return r[level]; }
  std::int32_t digit_at(const std::int32_t* r, int level) const { return r[p_.levels + level]; }
  std::int32_t dmodk_at(const std::int32_t* r, int level) const { return r[2 * p_.levels + 1 + level]; }
  /// Ports of a switch of `level` (1 = leaves): its down ports, and its up ports below the top.
  int ports_per_switch(int level) const;
  Ps reserve(Port& port, Ps ready, const Packet* p);
  /// The port sends `p` from `start`, after it waited `waited` for it.
  void occupy(Port& port, Ps start, Ps waited, const Packet* p);
  int up_port(const Packet& p, int level);

  FabricParams p_;
  int nodes_;
  EventQueue& q_;
  Rng routing_rng_;
  Rng jitter_rng_;
  std::vector<std::int64_t> m_prefix_;   ///< M_l = prod(down[0..l-1]), M_0 = 1
  std::vector<std::int64_t> b_prefix_;   ///< B_l = prod(up[0..l-2]), B_1 = 1
  std::vector<std::int64_t> level_base_; ///< first port index of level l's switches
  std::vector<std::int64_t> pps_;        ///< ports per switch of level l
  std::vector<std::int32_t> route_;      ///< see route_of
  std::size_t route_stride_ = 0;
  std::vector<Port> node_ports_;
  std::vector<Port> switch_ports_;
  std::vector<FabricClient*> clients_;
  std::unique_ptr<CreditLinks> credits_; ///< null: no flow control
  Sink sink_;
  FlowOrder flows_;
  FabricStats stats_;
  NetworkObserver* obs_ = nullptr;
};

} // namespace shmemsim::sim
