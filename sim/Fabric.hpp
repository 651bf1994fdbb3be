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

#include "sim/EventQueue.hpp"
#include "sim/FabricParams.hpp"
#include "sim/Histogram.hpp"
#include "sim/PairMap.hpp"
#include "base/Assert.hpp"
#include "base/NetworkObserver.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <string>
#include <vector>

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
  std::int32_t in_buf = -1;      ///< the input buffer it is in (CreditLinks numbers them)
  bool last_link      = false;   ///< the output port it waits for leads to its destination node
  std::int16_t vc     = 0;       ///< the virtual channel it takes on the link it waits for
  std::int16_t phase  = 0;       ///< dragonfly: global links crossed so far (its virtual channel's index)
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

/// What the credit machinery (CreditLinks) asks of the topology it serves.
class CreditRouter {
public:
  virtual ~CreditRouter() = default;
  /// The output port by which the head of a switch input buffer leaves. Moves the packet's position
  /// to the far end of that port's link, sets Packet::vc (the virtual channel it takes there; 0 by
  /// default) and Packet::last_link on the way to its destination node.
  virtual int route(Packet& p)     = 0;
  virtual FabricPort& port(int id) = 0;
  /// The port starts sending `p` at `start`, after `waited` (the topology's statistics, observer
  /// and the port's clock).
  virtual void occupy(int port, Ps start, Ps waited, const Packet* p) = 0;
  /// Propagation delay of the port's link (a credit comes back over it in the same time).
  virtual Ps latency(int port) const = 0;
  /// Head in to head out of a switch: switch_latency plus the seeded jitter, drawn per traversal.
  virtual Ps forward_delay() = 0;
  /// The packet's tail reached its destination node.
  virtual void arrive(Packet* p) = 0;
};

/// Credit-based link-level flow control with virtual channels, the same for every topology.
///
/// Output ports are numbered 0..links-1, the first `nodes` being the nodes' own. The link of every
/// port carries `vcs` virtual channels; each has its own input buffer at the link's far end (a FIFO
/// of the packets switched into it) and its own credits, counted in 64-byte units. A packet is sent
/// on a link only when its VC's buffer at the far end has room for it. A buffer frees a packet's room
/// when the packet's tail has left it (a switch: sent on its output port; an adapter: written to host
/// memory at the sink's drain rate), and the credit reaches the sender one link latency later. Only
/// the head of an input buffer competes for an output port, and only once the tail of the packet
/// before it has left (head-of-line blocking). An output port serves one packet at a time: round
/// robin over its VCs, starting after the VC it served last, it sends the first VC's oldest waiting
/// head whose far buffer has room; within a VC, heads are served in the order they asked. With one
/// VC this is plain FIFO service in asking order. Each node's NIC queue feeds its port on VC 0.
class CreditLinks {
public:
  CreditLinks(EventQueue& q, CreditRouter& router, FabricStats& stats, int links, int nodes, int vcs, FabricSink sink);
  CreditLinks(const CreditLinks&)            = delete;
  CreditLinks& operator=(const CreditLinks&) = delete;

  /// Each VC's buffer at the far end of `port` holds `bytes` (0: unbounded).
  void bound(int port, std::uint64_t bytes);
  /// The NIC of the packet's source node hands it to its port at `ready`.
  void inject(Packet* p, Ps ready);
  /// The destination adapter drains the packet into host memory (call when its tail arrived).
  void sink_drain(Packet* p);
  /// The far buffer of `port`'s VC `vc` cannot take `p` now.
  bool short_of_room(int port, int vc, const Packet& p) const
  {
    const Vc& c = vc_[static_cast<std::size_t>(port) * vcs_ + static_cast<std::size_t>(vc)];
    return c.bounded && c.room < static_cast<std::int64_t>(credit_bytes(p.wire_bytes));
  }
  /// Serialization time of the heads waiting for `port`.
  Ps pending_ser(int port) const { return out_[static_cast<std::size_t>(port)].pending_ser; }
  /// Bytes queued on `port`: the heads waiting for it (for a busy port or for credits) and what it
  /// has sent into its far buffers whose credits have not come back (all VCs, in 64-byte credits).
  std::uint64_t occupancy(int port) const
  {
    const Out& o = out_[static_cast<std::size_t>(port)];
    return o.waiting_bytes + o.used_bytes;
  }
  int vcs() const { return vcs_; }
  /// Buffer room a packet of `wire_bytes` takes: whole 64-byte credits.
  static std::uint64_t credit_bytes(std::uint32_t wire_bytes) { return (std::uint64_t{wire_bytes} + 63) / 64 * 64; }

private:
  /// A VC of a port: the buffer at the link's far end, and the input heads waiting to enter it.
  struct Vc {
    std::int64_t room = 0; ///< free bytes
    std::int64_t size = 0; ///< bytes it holds (bounded only)
    bool bounded      = false;
    Packet* wait_head = nullptr; ///< in the order they asked
    Packet* wait_tail = nullptr;
  };
  struct Out {
    Ps pending_ser              = 0;  ///< serialization time of the waiting heads
    std::uint64_t waiting_bytes = 0;  ///< wire bytes of the waiting heads
    std::uint64_t used_bytes    = 0;  ///< bytes in the far buffers not yet credited back
    std::uint32_t waiting       = 0;  ///< waiting heads, all VCs
    std::int32_t next_vc        = 0;  ///< round robin: the VC looked at first
    Ps stalled_from             = -1; ///< since when the port is free but no waiting head has room (-1: not)
  };
  /// An input buffer: the packets switched and waiting in it, in arrival order. A packet leaves the
  /// list when its port starts sending it (its head may then reach further buffers before its tail
  /// has left this one); the buffer's next head asks for a port once the tail has left.
  struct InBuf {
    Packet* head                  = nullptr;
    Packet* tail                  = nullptr;
    std::uint32_t leaving_credits = 0; ///< 64-byte credits of the packet whose tail is leaving (0: none)
  };
  void credit_ready(std::uint64_t packet_ptr); ///< a packet is in its input buffer, switched
  void ask(Packet* p);                         ///< the head of an input buffer asks for its output port
  void serve(int port);                        ///< the port sends a waiting head if it can
  void sent(std::uint64_t port_and_buf);       ///< the tail left: port free, the input buffer's room freed
  void credit_return(std::uint64_t buf_and_credits);
  void arrived(std::uint64_t packet_ptr);

  EventQueue& q_;
  CreditRouter& router_;
  FabricStats& stats_;
  int links_, nodes_;
  std::size_t vcs_;
  FabricSink sink_;
  std::vector<Vc> vc_;         ///< per port, per VC: index port * vcs + vc (also the buffer's id)
  std::vector<Out> out_;       ///< per port
  std::vector<InBuf> in_bufs_; ///< per port and VC (the buffer its link feeds), then one per node (the NIC's queue)
  std::vector<Ps> sink_busy_;  ///< per node: its adapter's receive buffer drains until then
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
