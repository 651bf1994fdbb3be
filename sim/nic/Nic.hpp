// One NIC per node (platform.nic.per = node) or per endpoint (pe): injection queues, receive engine
// or progress thread, atomic unit, ACK and reply generation, ordering at the target; the PCIe DMA
// channels and the fabric port are the node's. All timing rules are in docs/model.md.
#pragma once

#include "sim/EventQueue.hpp"
#include "sim/Fabric.hpp"
#include "sim/Histogram.hpp"
#include "sim/Noise.hpp"
#include "base/NetworkObserver.hpp"
#include "sim/PairMap.hpp"
#include "sim/nic/DeliveryHandler.hpp"
#include "sim/nic/Message.hpp"
#include "sim/nic/NicParams.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <vector>

namespace shmemsim::nic {

class Nic;

/// Who is where: endpoint -> node, NIC and handler. Shared by every NIC of a run.
struct Directory {
  std::vector<int> node_of;
  std::vector<int> nic_of;   ///< index (in `nics`) of the NIC serving the endpoint
  std::vector<int> local_of; ///< index of the endpoint among those of its NIC
  std::vector<DeliveryHandler*> handler_of;
  std::vector<Nic*> nics;
};

/// The host<->adapter channels of one node, shared by the NICs (NIs) of the node.
struct Pcie {
  Ps read_busy  = 0; ///< the DMA read channel is busy until then
  Ps write_busy = 0; ///< the DMA write channel is busy until then
};

/// A node's fabric port: hands each arriving packet to the NIC of the endpoint it is for.
class NodePort final : public sim::FabricClient {
public:
  explicit NodePort(const Directory& dir) : dir_(dir) {}
  void on_packet_arrival(sim::Packet* p) override;

private:
  const Directory& dir_;
};

/// The ordered pulled puts of a pair under way at the target (see PairState::pulls).
struct PairPulls {
  /// Ordered pulled puts whose header passed the receive engine and whose read response is not
  /// yet all written to host memory, in issue order: the front one's response is written first.
  std::vector<Message*> fifo;
  /// Response packets of later pulls that arrived before the front one's were all written.
  std::vector<sim::Packet*> held;
};

/// One pair's ordering state (see PairStates).
struct PairState {
  std::uint64_t issued         = 0; ///< messages issued: the next pair_seq
  std::uint64_t ordered_issued = 0; ///< ordered messages issued: the next ordered_seq
  std::uint64_t lowest         = 0; ///< every message below this pair_seq is delivered
  std::vector<std::uint64_t> ahead; ///< pair_seqs delivered early (above lowest), sorted
  std::uint64_t ordered_next = 0;   ///< the ordered_seq the target processes next
  /// Request packets of ordered messages that arrived early, by ordered_seq (made when first needed).
  std::unique_ptr<std::map<std::uint64_t, std::vector<sim::Packet*>>> held;
  /// Ordered pulled puts under way (made when first needed). While there are some, the pair's later
  /// ordered requests other than pulled puts wait before the receive engine (docs/model.md, Ordering).
  std::unique_ptr<PairPulls> pulls;
  bool pulls_pending() const { return pulls && !pulls->fifo.empty(); }
};

/// What the NICs know about each pair of endpoints (src, dst) with messages in flight: issue order
/// at the initiator, delivery order and held packets at the target. Shared by every NIC of a
/// network; a pair's entry is dropped once every message it issued is delivered (then its numbering
/// restarts at 0, which changes nothing: ordering only relates messages in flight together). So
/// memory follows the pairs communicating at a time, not the square of the endpoints.
using PairStates = sim::PairMap<PairState>;

/// Counters of one NIC (sum them for the whole network).
struct NicStats {
  std::uint64_t messages           = 0; ///< requests issued by this NIC
  std::uint64_t request_packets    = 0;
  std::uint64_t deliveries         = 0; ///< requests completed at this NIC as target
  std::uint64_t out_of_order       = 0; ///< deliveries before an earlier-issued request of the same pair
  std::uint64_t failed_deliveries  = 0; ///< rejected by the target (no entry, permissions, bounds)
  std::uint64_t acks_sent          = 0;
  std::uint64_t acks_received      = 0;
  std::uint64_t replies_received   = 0;
  std::uint64_t bytes_delivered    = 0; ///< request/reply payload bytes that landed in memory
  std::uint64_t held_packets       = 0; ///< request packets held back for total data ordering
  std::uint64_t independent_queues = 0; ///< queues granted to independent MDs
  Ps queue_wait                    = 0; ///< time commands waited for a busy injection queue
};

/// Latency distributions, shared by every NIC of a network (one cache-friendly copy).
struct LatencyStats {
  sim::Histogram delivery;   ///< issue -> delivered at the target
  sim::Histogram completion; ///< issue -> ACK or reply visible at the initiator
};

class Nic : public sim::FabricClient {
public:
  /// Whether a software progress thread handles the target side and returning ACKs and replies.
  bool has_progress_thread() const { return p_.progress == TargetEngine::Thread; }
  /// NIC `index` of `dir.nics` on `node`, serving the endpoints whose dir.nic_of is `index`, with
  /// the node's PCIe channels `pcie`. The node's NodePort (not the NIC) is the fabric's client.
  Nic(int index, int node, const NicParams& p, sim::Fabric& fabric, sim::EventQueue& q, const Directory& dir,
      LatencyStats& latency, Pcie& pcie, PairStates& pairs);
  ~Nic() override;

  int node() const { return node_; }
  /// Host CPU time a Portals call spends on the calling thread before its command reaches the NIC.
  Ps initiate_overhead() const { return p_.initiate_overhead; }
  /// The endpoint an arriving packet is for (the target of a request, the initiator otherwise).
  static int packet_endpoint(const sim::Packet* p);
  const NicParams& params() const { return p_; }

  /// A new endpoint on this NIC: returns its default injection queue (one per endpoint while
  /// queues last, then shared round-robin).
  int attach_endpoint();
  /// A queue of its own for an independent MD, or -1 if none is left (the MD then uses its
  /// endpoint's queue).
  int claim_queue();
  void release_queue(int q);

  /// Issue a request (from the initiator endpoint's actor, at the current date). The NIC takes
  /// the message; it hands it back through DeliveryHandler::release when done.
  void submit(Message* m);

  /// A full event record of `bytes` (a Portals event queue entry) that the NIC has at `at_nic` and
  /// writes into host memory: it takes the node's DMA write channel after what is queued there and
  /// lands one PCIe crossing later. Returns the date it is visible to the host.
  Ps write_event(Ps at_nic, std::uint64_t bytes);

  void on_packet_arrival(sim::Packet* p) override;

  const NicStats& stats() const { return stats_; }
  /// Report messages to `obs` (null: nobody).
  void set_observer(NetworkObserver* obs) { obs_ = obs; }
  /// The operating-system noise of the progress thread (platform.nic.progress = thread): its
  /// detours lengthen the work it does. Hardware engines (offload) have none.
  void set_progress_detours(sim::Detours d)
  {
    if (threaded())
      progress_detours_ = d;
  }
  const sim::Detours& progress_detours() const { return progress_detours_; }

private:
  struct NicPacket;
  struct Queue {
    std::deque<Message*> fifo;
    std::deque<Ps> arrived_at;
    Message* cur           = nullptr;
    std::uint32_t next_pkt = 0;
    bool busy              = false;
    bool claimed           = false;
  };
  PairState& pair(const Message& m);
  PairState* find_pair(const Message& m);
  DeliveryHandler& handler(int ep) const { return *dir_.handler_of[static_cast<std::size_t>(ep)]; }
  int node_of(int ep) const { return dir_.node_of[static_cast<std::size_t>(ep)]; }

  NicPacket* make_packet(Message* m, int dir, std::uint32_t index, std::uint64_t offset, std::uint32_t bytes,
                         int dst_node);
  void send(NicPacket* p, Ps ready);

  void cmd_arrive(std::uint64_t msg);
  void start_next(int qi);
  void queue_step(std::uint64_t qi);
  void sent(std::uint64_t msg);
  void loopback_arrive(std::uint64_t pkt);
  void rx(NicPacket* p);
  void process_request(NicPacket* p);
  /// Process the held request packets of the pair that may now pass, in issue order.
  void release_held(PairState& st);
  /// Whether an ordered request may pass the receive engine now.
  static bool may_pass(const PairState& st, const Message& m);
  // A pulled put (docs/model.md): the target posts the read, the initiator's NIC serves it, the
  // target writes the response and completes the put.
  void pull_post(std::uint64_t msg);
  void pull_serve(NicPacket* p);
  void pull_read(std::uint64_t pkt);
  void pull_response(NicPacket* p);
  void pull_write(NicPacket* p);
  void pull_land(std::uint64_t pkt);
  void pull_done(std::uint64_t msg);
  void request_land(std::uint64_t pkt);
  void reply_read(std::uint64_t pkt);
  void atomic_exec(std::uint64_t msg);
  void target_done(Message& m);
  void send_ack(Message& m);
  void send_reply_packets(Message& m, Ps ready);
  /// Packets a payload of `len` bytes travels in (one, empty, when there is none).
  std::uint32_t packets_for(std::uint64_t len) const;
  /// Where packet `j` of a payload of `len` bytes starts, and its size (0 past the end).
  struct PacketSpan {
    std::uint64_t offset = 0;
    std::uint32_t bytes  = 0;
  };
  PacketSpan packet_span(std::uint64_t len, std::uint32_t j) const;
  void ack_visible(std::uint64_t msg);
  void reply_land(std::uint64_t pkt);
  void reply_done(std::uint64_t msg);
  /// With a progress thread, occupy it for `cost` from `ready` on; returns when it is done.
  Ps progress(Ps ready, Ps cost);
  bool threaded() const { return p_.progress == TargetEngine::Thread; }
  void maybe_release(Message& m);

  int index_;
  int node_;
  NicParams p_;
  sim::Fabric& fabric_;
  sim::EventQueue& q_;
  const Directory& dir_;
  LatencyStats& latency_;
  std::uint32_t mtu_;
  std::uint32_t header_;
  std::vector<Queue> queues_;
  int endpoints_ = 0;
  Pcie& pcie_;
  Ps rx_busy_ = 0;                ///< receive engine (offload) or progress thread (thread)
  sim::Detours progress_detours_; ///< the progress thread's operating-system noise
  Ps au_busy_          = 0;       ///< atomic unit (offload only)
  Ps write_landed_max_ = 0;       ///< when the last write issued so far is visible in memory
  Ps read_done_max_    = 0;       ///< when the last read issued so far completes
  Ps atomic_done_max_  = 0;       ///< when the last atomic issued so far completes
  PairStates& pairs_;
  NicStats stats_;
  NetworkObserver* obs_ = nullptr;
};

} // namespace shmemsim::nic
