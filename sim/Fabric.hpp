// The fabric seam: what the NICs and the network see of a topology (sim::FatTree, sim::Dragonfly),
// and what every topology shares: the packet, the statistics, and the per-pair injection order that
// counts reordered packets.
//
// A fabric moves packets from the port of their source node to the adapter of their destination
// node. Links are full duplex; each direction is an output port that serializes packets (per-port
// FIFO). Switching is virtual cut-through: a packet is forwarded switch_latency (+ seeded jitter)
// after its head arrives, once its output port is free. Out-of-order delivery comes only from packets
// of one node pair taking different paths.
#pragma once

#include "sim/FabricParams.hpp"
#include "sim/Histogram.hpp"
#include "sim/PairMap.hpp"
#include "base/Assert.hpp"
#include "base/NetworkObserver.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <string>

namespace shmemsim::sim {

/// A packet in flight. Owners (the NIC) derive from it to carry their own data.
struct Packet {
  int src_node             = 0;
  int dst_node             = 0;
  std::uint32_t wire_bytes = 0; ///< on the wire, header included
  // Fabric-private routing state (each topology says what its fields mean).
  int level       = 0;
  bool going_down = false;
  /// Fat tree: the switch within its level: index upper * B_level + bnum, where `upper` numbers the
  /// subtree below the switch's level the packet is in and `bnum` which of that subtree's switches it
  /// is. Dragonfly: `upper` is the switch the packet is at, `bnum` its intermediate group (-1: none).
  std::int64_t upper     = 0;
  std::int64_t bnum      = 0;
  Ps ser                 = 0; ///< time to serialize the packet on one link
  std::uint64_t flow_seq = 0;
  Ps waiting_since       = 0; ///< when it began to wait for its current output port
  std::uint64_t trace_id = 0; ///< the message it belongs to, for an observer (0: none)
  // Flow-control state (credit mode only).
  Packet* fifo_next   = nullptr; ///< next packet of the input buffer it waits in
  Packet* wait_next   = nullptr; ///< next input head waiting for the same output port
  std::int32_t in_buf = -1;      ///< the input buffer it is in: the port that sent it there (or the NIC's)
  bool last_link      = false;   ///< the output port it waits for leads to its destination node
  /// When its NIC handed it to the fabric (the `ready` of Fabric::inject; -1: it never entered one,
  /// e.g. a loopback inside the adapter). Set by the NIC, read by PacketLatency.
  Ps entered = -1;
};

/// Receives packets at their destination node (tail arrival).
class FabricClient {
public:
  virtual ~FabricClient()                   = default;
  virtual void on_packet_arrival(Packet* p) = 0;
};

/// An output port's clock, the same in every topology: a port sends one packet at a time.
struct FabricPort {
  Ps busy_until = 0; ///< when its current packet's tail has left
  Ps busy_total = 0; ///< time it has spent sending
  /// The port sends a packet that takes `ser` to serialize, from `start`.
  void carry(Ps start, Ps ser)
  {
    busy_until = start + ser;
    busy_total += ser;
  }
};

struct FabricStats {
  std::uint64_t packets           = 0;
  std::uint64_t wire_bytes        = 0;
  std::uint64_t hops              = 0;
  std::uint64_t reordered_packets = 0; ///< arrived after a later-injected packet of the same node pair
  Ps queueing_total               = 0; ///< time packets waited for busy output ports, summed over hops
  // Credit mode only.
  std::uint64_t credit_stalls = 0; ///< times an output port was free but its far buffer had no room
  Ps credit_wait_total        = 0; ///< time free output ports waited for credits, summed over ports
  // Dragonfly only.
  std::uint64_t nonminimal_packets = 0; ///< sent through an intermediate group (Valiant, or UGAL's choice)
  std::uint64_t global_hops        = 0; ///< global links crossed, summed over packets
  std::uint64_t max_switch_hops    = 0; ///< most switch-to-switch links one packet crossed
};

/// Per-packet fabric latency, from the moment the source NIC hands a packet to the fabric (it then
/// waits in the node port's queue: the source queue) to its tail's arrival at the destination NIC,
/// for the packets that entered in a measurement window [from, until); and the wire bytes that
/// arrived within the window (accepted throughput). Off (nothing recorded) until measure() is called:
/// an open-loop traffic pattern turns it on (traffic.injection = bernoulli, docs/runs.md).
class PacketLatency {
public:
  void measure(Ps from, Ps until)
  {
    SHMEMSIM_ASSERT(from <= until, "a latency window that ends before it begins");
    on_    = true;
    from_  = from;
    until_ = until;
  }
  bool on() const { return on_; }
  /// A packet's tail reached its destination NIC at `now`.
  void arrived(const Packet& p, Ps now)
  {
    if (!on_ || p.entered < 0)
      return;
    SHMEMSIM_ASSERT(now >= p.entered, "a packet arrived before it entered the fabric");
    if (p.entered >= from_ && p.entered < until_)
      latency_.add(now - p.entered);
    if (now >= from_ && now < until_)
      accepted_bytes_ += p.wire_bytes;
  }
  Ps from() const { return from_; }
  Ps until() const { return until_; }
  const Histogram& latency() const { return latency_; }
  std::uint64_t accepted_bytes() const { return accepted_bytes_; }

private:
  bool on_ = false;
  Ps from_ = 0, until_ = 0;
  Histogram latency_;
  std::uint64_t accepted_bytes_ = 0;
};

/// The node adapters' receive buffers: their size in bytes (0: unbounded) and the rate they drain
/// into host memory.
struct FabricSink {
  std::uint64_t buffer    = 0;
  std::uint64_t bandwidth = 0; ///< bit/s
};

class Fabric {
public:
  virtual ~Fabric() = default;

  virtual void attach(int node, FabricClient* client) = 0;
  /// Hand a packet from its source node's NIC to the fabric; it may leave at `ready`.
  /// Returns when its tail has left the node's port.
  virtual Ps inject(Packet* p, Ps ready) = 0;
  /// Number of links of the shortest path between two nodes (0 for the same node).
  virtual int path_links(int src, int dst) const = 0;
  /// Time for the tail of an uncontended, jitter-free packet to cross the fabric on its shortest path.
  virtual Ps uncontended_time(int src, int dst, std::uint32_t wire_bytes) const = 0;
  virtual const FabricParams& params() const                                    = 0;
  virtual const FabricStats& stats() const                                      = 0;
  /// Total transmission time of the busiest output port (node or switch).
  virtual Ps max_port_busy() const          = 0;
  virtual std::int64_t switch_count() const = 0;
  /// Links (output ports): one per node, then every switch port. Ids are stable for a shape.
  virtual int link_count() const                = 0;
  virtual std::string link_name(int link) const = 0;
  /// Report packet hops to `obs` (if it wants packets); null: nobody.
  virtual void set_observer(NetworkObserver* obs) = 0;
  /// Whether links use credit-based flow control (a finite switch or adapter buffer).
  virtual bool credit_mode() const = 0;
  /// Time to serialize `bytes` on one link.
  Ps serialization(std::uint32_t bytes) const { return transfer_time(bytes, params().link_bandwidth); }
  /// The per-packet latency statistic (the same for every topology: the NICs record it).
  PacketLatency& latency() { return latency_; }
  const PacketLatency& latency() const { return latency_; }

private:
  PacketLatency latency_;
};

/// Packets of each node pair in flight, numbered in injection order, to count the packets that
/// arrive after a later-injected one. A pair with nothing in flight is forgotten: numbering restarts
/// at 0, which changes nothing, since a packet can only be overtaken by packets injected while it was
/// in flight.
class FlowOrder {
public:
  /// The packet's number in its pair's injection order.
  std::uint64_t injected(int src, int dst)
  {
    Flow& f = flows_.at(static_cast<std::uint32_t>(src), static_cast<std::uint32_t>(dst));
    ++f.in_flight;
    return f.next++;
  }
  /// Whether the packet numbered `seq` arrives after a later-injected packet of its pair.
  bool arrived_late(int src, int dst, std::uint64_t seq)
  {
    const auto s = static_cast<std::uint32_t>(src), d = static_cast<std::uint32_t>(dst);
    Flow* flow = flows_.find(s, d);
    SHMEMSIM_ASSERT(flow != nullptr && flow->in_flight > 0, "a packet arrived on a flow with nothing in flight");
    const bool late = seq + 1 < flow->highest;
    if (!late)
      flow->highest = seq + 1;
    if (--flow->in_flight == 0)
      flows_.erase(s, d);
    return late;
  }

private:
  struct Flow {
    std::uint64_t next      = 0; ///< seq of the next packet injected
    std::uint64_t highest   = 0; ///< highest seq arrived + 1
    std::uint64_t in_flight = 0;
  };
  PairMap<Flow> flows_; ///< (src node, dst node)
};

} // namespace shmemsim::sim
