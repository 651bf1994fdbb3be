// The fabric as a dragonfly (Kim, Dally, Scott, Abts, "Technology-Driven, Highly-Scalable Dragonfly
// Topology", ISCA 2008): g groups of a switches; the switches of a group are joined all-to-all by
// local links; every switch has p endpoint ports and h global links to switches of other groups.
//
// Global links: a group has a*h global ports, numbered k = switch * h + port; they split evenly over
// the g-1 other groups, c = a*h/(g-1) links per pair of groups. Port k = copy * (g-1) + t leads to the
// t-th other group as the arrangement orders them (docs/model.md, Fabric): absolute (t-th other
// group in group order), relative (group i+t+1 mod g) or circulant (port 2m to group i+m+1, port
// 2m+1 to group i-m-1; with g even the last port to group i+g/2). Copy c of the link from group i to
// group j ends at port copy * (g-1) + t' of group j, t' being group i's rank seen from j.
//
// Ports, switching and statistics are the fat tree's (sim/Fabric.hpp): per-port FIFO serialization,
// virtual cut-through, seeded jitter per switch traversal, reordered packets counted per node pair.
//
// Flow control: with platform.fabric.buffer and platform.nic.rx_buffer 0 (the default) output ports
// queue without bound. With either finite, links use credit flow control (CreditLinks, sim/Fabric.hpp:
// the fat tree's, with virtual channels): `buffer` bytes for each virtual channel (VC) of every switch
// input port, `rx_buffer` for the node adapter's receive buffer, 64-byte credits returned one link
// latency (local or global) after a packet's tail has left the buffer. A dragonfly's routes can close
// a cycle of buffers (a packet turning at an intermediate group uses a group's local links after a
// global link, others use the same links before one), so links carry virtual channels by hop phase:
// Kim et al. 2008 (section 4) and Abts and Kim ("High Performance Datacenter Networks", 2011,
// section 5.5.3: "two VCs are needed for minimal routing and three VCs are required for
// non-minimal routing"); BookSim2's dragonflynew routings also pick the VC from the packet's phase.
// Here a packet takes VC = the number of global links it has crossed so far, on local and global
// links alike. Ordering the channels local VC0 < global VC0 < local VC1 < global VC1 < local VC2,
// every route (at most local, global, local, global, local; never two local links in a row) climbs
// strictly, so the channel dependency graph has no cycle and the network cannot deadlock (Dally and
// Seitz 1987); the adapters drain whatever the fabric delivers. Minimal routing needs 2 VCs (local
// links before and after the global one), Valiant and UGAL 3; the count follows the routing
// (DragonflyParams::virtual_channels), so no configuration has too few. An output port serves its
// VCs round robin: the oldest head of the first VC, after the one it served last, whose far buffer
// has room.
//
// Routing, decided once at the source switch: minimal takes the shortest path (at most local,
// global, local: 3 switch-to-switch links), the copy of the global link fixed per destination node;
// valiant goes minimally to a random intermediate group other than the source's and the
// destination's, then minimally on (at most 5 switch-to-switch links); ugal (UGAL-L, Kim et al.
// 2008, section 4.2) draws such an intermediate group per packet and goes minimal when
// q_min * H_min <= q_val * H_val + threshold, q being the queue of the first output port of each
// path at the source switch and H its switch-to-switch links. Without flow control q is the port's
// backlog (time until it has sent what it holds); with credits it is the port's occupancy in bytes:
// the packets waiting for it (busy port or no credits) plus what it has sent into its far buffers
// whose credits have not come back, all VCs (BookSim2's UGAL-L counts the latter, in flits: the
// downstream buffer's occupancy as its credits show). Backpressure from a congested global link thus
// reaches the source switches of its group. Packets within a group always go
// minimal (one local link; no global link to spare). With nonminimal paths, packets of a pair take
// different routes and arrive out of order.
#pragma once

#include "sim/EventQueue.hpp"
#include "sim/Fabric.hpp"
#include "sim/Rng.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace shmemsim::sim {

class Dragonfly final : public Fabric, private CreditRouter {
public:
  Dragonfly(const FabricParams& p, int nodes, EventQueue& q, Rng routing_rng, Rng jitter_rng, FabricSink sink = {});

  void attach(int node, FabricClient* client) override { clients_.at(static_cast<std::size_t>(node)) = client; }
  Ps inject(Packet* p, Ps ready) override;
  int path_links(int src, int dst) const override;
  Ps uncontended_time(int src, int dst, std::uint32_t wire_bytes) const override;
  const FabricParams& params() const override { return params_; }
  const FabricStats& stats() const override { return stats_; }
  Ps max_port_busy() const override;
  std::int64_t switch_count() const override { return std::int64_t{a_} * g_; }
  int link_count() const override { return static_cast<int>(ports_.size()); }
  /// "node3.up"; switch 5's ports: "sw5.n0" (to its endpoint 0), "sw5.l2" (local link to switch 2 of
  /// its group), "sw5.g1" (its global port 1).
  std::string link_name(int link) const override;
  void set_observer(NetworkObserver* obs) override { obs_ = obs != nullptr && obs->wants_packets() ? obs : nullptr; }
  bool credit_mode() const override { return credits_ != nullptr; }

  int group_count() const { return g_; }
  /// The group global port `port` (0..a*h-1: switch port / h of the group, its global port port % h)
  /// of group `group` leads to.
  int global_target(int group, int port) const
  {
    return far_switch_[static_cast<std::size_t>(group) * a_ * h_ + static_cast<std::size_t>(port)] / a_;
  }
  /// Switch-to-switch links of the minimal path from node `src` to node `dst`.
  int minimal_switch_hops(int src, int dst) const { return hops_minimal(src / p_, dst); }

private:
  using Port = FabricPort;

  void hop(std::uint64_t packet_ptr);
  void arrive_event(std::uint64_t packet_ptr) { arrive(reinterpret_cast<Packet*>(packet_ptr)); }
  // The route and the ports, for the packet's hops and for CreditLinks (credit mode).
  void setup_credits(const FabricSink& sink);
  /// At the source switch, choose the path; then the next output port (next_port).
  int route(Packet& p) override;
  FabricPort& port(int id) override { return ports_[static_cast<std::size_t>(id)]; }
  void occupy(int id, Ps start, Ps waited, const Packet* p) override;
  Ps latency(int id) const override { return is_global(id) ? global_latency_ : local_latency_; }
  Ps forward_delay() override;
  void arrive(Packet* p) override;
  /// UGAL-L at switch `sw`: whether the minimal path (first port, switch-to-switch links) wins.
  bool ugal_minimal(int sw, int min_port, int val_port, int h_min, int h_val) const;
  /// At the source switch: minimal or through an intermediate group (sets Packet::bnum).
  void choose_path(Packet& p);
  /// The output port a packet at switch Packet::upper leaves by; moves it to the far end.
  int next_port(Packet& p);
  /// The group-level global port (0..a*h-1) of `group` towards `target` that a packet for `dst` takes.
  int gateway(int group, int target, int dst) const
  {
    const int t = rank_[static_cast<std::size_t>(group) * g_ + static_cast<std::size_t>(target)];
    return (dst % copies_) * (g_ - 1) + t;
  }
  /// The first output port, from switch `sw`, of the minimal way to group `target` (not sw's).
  int first_port(int sw, int target, int dst) const;
  /// Switch-to-switch links from switch `sw` to node `dst`, minimal.
  int hops_minimal(int sw, int dst) const;
  /// The same through group `inter`.
  int hops_via(int sw, int inter, int dst) const;
  int port_id(int sw, int k) const { return nodes_ + sw * pps_ + k; }
  int local_port(int sw, int to_sw) const
  {
    const int i = sw % a_, j = to_sw % a_;
    return port_id(sw, p_ + (j < i ? j : j - 1));
  }
  int global_port(int sw, int gport) const { return port_id(sw, p_ + a_ - 1 + gport % h_); }
  int far_switch(int group, int gport) const
  {
    return far_switch_[static_cast<std::size_t>(group) * a_ * h_ + static_cast<std::size_t>(gport)];
  }
  bool is_global(int port) const { return port >= nodes_ && (port - nodes_) % pps_ >= p_ + a_ - 1; }
  Ps backlog(int port) const;
  Ps reserve(int port, Ps ready, const Packet* p);

  FabricParams params_;
  int p_, a_, h_, g_;
  int pps_;    ///< ports per switch: p + a-1 + h
  int copies_; ///< global links between two groups
  int nodes_;
  Ps local_latency_, global_latency_;
  EventQueue& q_;
  Rng routing_rng_;
  Rng jitter_rng_;
  std::vector<std::int32_t> rank_;       ///< per (group, other group): its rank t among the other groups
  std::vector<std::int32_t> far_switch_; ///< per (group, global port): the switch at the link's far end
  std::vector<Port> ports_;              ///< per link id: node ports, then switch s's ports at nodes + s*pps
  std::vector<FabricClient*> clients_;
  std::unique_ptr<CreditLinks> credits_; ///< null: no flow control (unbounded output queues)
  FlowOrder flows_;
  FabricStats stats_;
  NetworkObserver* obs_ = nullptr;
};

} // namespace shmemsim::sim
