#include "sim/nic/Nic.hpp"

#include "base/Assert.hpp"

#include <algorithm>
#include <memory>
#include <cstring>

namespace shmemsim::nic {

const char* to_string(OpKind k)
{
  switch (k) {
    case OpKind::Put:
      return "put";
    case OpKind::Get:
      return "get";
    case OpKind::Atomic:
      return "atomic";
    case OpKind::FetchAtomic:
      return "fetch_atomic";
    case OpKind::Swap:
      return "swap";
  }
  return "?";
}

// A pulled put's read request goes from its target to its initiator, the read response back.
enum PacketDir : int { kRequest = 0, kAck = 1, kReply = 2, kReadRequest = 3, kReadResponse = 4 };

struct Nic::NicPacket : sim::Packet {
  Message* msg         = nullptr;
  int dir              = kRequest;
  std::uint32_t index  = 0;
  std::uint64_t offset = 0; ///< payload offset within the message
  std::uint32_t bytes  = 0; ///< payload bytes
};

PairState& Nic::pair(const Message& m)
{
  return pairs_.at(static_cast<std::uint32_t>(m.src_ep), static_cast<std::uint32_t>(m.dst_ep));
}

PairState* Nic::find_pair(const Message& m)
{
  PairState* st = pairs_.find(static_cast<std::uint32_t>(m.src_ep), static_cast<std::uint32_t>(m.dst_ep));
  SHMEMSIM_ASSERT(st != nullptr, "a message of a pair with no ordering state");
  return st;
}

namespace {
// Packets are recycled: a run allocates only as many as are ever in flight at once. Every packet
// ever made is owned here (freed at exit, in flight or not); the pool lists the free ones.
std::vector<void*>& packet_pool()
{
  static std::vector<void*> pool;
  return pool;
}
} // namespace

Nic::NicPacket* Nic::make_packet(Message* m, int dir, std::uint32_t index, std::uint64_t offset, std::uint32_t bytes,
                                 int dst_node)
{
  auto& pool = packet_pool();
  NicPacket* p;
  static std::vector<std::unique_ptr<NicPacket>> all; // every packet ever made (see packet_pool)
  if (pool.empty()) {
    p = all.emplace_back(std::make_unique<NicPacket>()).get();
  } else {
    p = static_cast<NicPacket*>(pool.back());
    pool.pop_back();
    *p = NicPacket{};
  }
  p->msg        = m;
  p->dir        = dir;
  p->index      = index;
  p->offset     = offset;
  p->bytes      = bytes;
  p->src_node   = node_;
  p->dst_node   = dst_node;
  p->wire_bytes = bytes + header_;
  p->trace_id   = dir == kReadRequest || dir == kReadResponse ? m->read_trace_id : m->trace_id;
  return p;
}

static void free_packet(void* p)
{
  packet_pool().push_back(p);
}

Nic::Nic(int index, int node, const NicParams& p, sim::Fabric& fabric, sim::EventQueue& q, const Directory& dir,
         LatencyStats& latency, Pcie& pcie, PairStates& pairs)
    : index_(index), node_(node), p_(p), fabric_(fabric), q_(q), dir_(dir), latency_(latency),
      mtu_(fabric.params().mtu), header_(fabric.params().header_size), pcie_(pcie), pairs_(pairs)
{
  for (std::size_t ep = 0; ep < dir.nic_of.size(); ++ep)
    SHMEMSIM_ASSERT(dir.nic_of[ep] != index || dir.node_of[ep] == node, "a NIC serves endpoints of its own node only");
  SHMEMSIM_ASSERT(p_.injection_queues >= 1, "a NIC needs an injection queue");
  queues_.resize(static_cast<std::size_t>(p_.injection_queues));
}

int Nic::packet_endpoint(const sim::Packet* sp)
{
  const auto* p = static_cast<const NicPacket*>(sp);
  return p->dir == kRequest || p->dir == kReadResponse ? p->msg->dst_ep : p->msg->src_ep;
}

void NodePort::on_packet_arrival(sim::Packet* p)
{
  const auto ep = static_cast<std::size_t>(Nic::packet_endpoint(p));
  dir_.nics[static_cast<std::size_t>(dir_.nic_of[ep])]->on_packet_arrival(p);
}

Ps Nic::progress(Ps ready, Ps cost)
{
  const Ps begin = std::max(ready, rx_busy_);
  rx_busy_       = begin + cost + progress_detours_.during(cost);
  return rx_busy_;
}

Nic::~Nic() = default;

int Nic::attach_endpoint()
{
  // Endpoint i of this NIC takes queue i mod n; independent MDs claim the queues left over.
  const int n = p_.injection_queues;
  const int q = endpoints_ % n;
  ++endpoints_;
  return q;
}

int Nic::claim_queue()
{
  // A queue no endpoint uses as its default and no MD has claimed.
  for (int i = p_.injection_queues - 1; i >= endpoints_; --i) {
    Queue& q = queues_[static_cast<std::size_t>(i)];
    if (!q.claimed) {
      q.claimed = true;
      ++stats_.independent_queues;
      return i;
    }
  }
  return -1;
}

void Nic::release_queue(int qi)
{
  if (qi >= 0 && qi < p_.injection_queues)
    queues_[static_cast<std::size_t>(qi)].claimed = false;
}

void Nic::submit(Message* m)
{
  const Ps now  = q_.now();
  m->issued_at  = now;
  PairState& st = pair(*m);
  m->pair_seq   = st.issued++;
  if (m->ordered)
    m->ordered_seq = st.ordered_issued++;
  const std::uint32_t chunks = packets_for(m->length);
  m->pulled                  = m->kind == OpKind::Put && m->length > p_.inline_size;
  m->request_packets         = has_request_payload(m->kind) && !m->pulled ? chunks : 1;
  m->reply_packets           = has_reply(m->kind) ? chunks : 0;
  if (has_request_payload(m->kind) && !m->has_request_data())
    m->alloc_request();
  ++stats_.messages;
  m->trace_id = 0;
#if SHMEMSIM_OBSERVERS
  if (obs_ != nullptr) [[unlikely]]
    m->trace_id = obs_->msg_issued(now, to_string(m->kind), m->src_ep, m->dst_ep, m->length, m->user_ptr);
#endif
  q_.schedule<&Nic::cmd_arrive>(now + p_.pcie_latency, this, reinterpret_cast<std::uint64_t>(m));
}

void Nic::cmd_arrive(std::uint64_t msg)
{
  auto* m  = reinterpret_cast<Message*>(msg);
  Queue& q = queues_[static_cast<std::size_t>(m->queue)];
  q.fifo.push_back(m);
  q.arrived_at.push_back(q_.now());
  if (!q.busy)
    start_next(m->queue);
}

void Nic::start_next(int qi)
{
  Queue& q = queues_[static_cast<std::size_t>(qi)];
  if (q.fifo.empty()) {
    q.busy = false;
    q.cur  = nullptr;
    return;
  }
  q.busy     = true;
  q.cur      = q.fifo.front();
  q.next_pkt = 0;
  stats_.queue_wait += q_.now() - q.arrived_at.front();
  SHMEMSIM_OBSERVE(obs_, msg_injected(q_.now(), q.cur->trace_id));
  q.fifo.pop_front();
  q.arrived_at.pop_front();
  q_.schedule<&Nic::queue_step>(q_.now() + p_.send_overhead, this, static_cast<std::uint64_t>(qi));
}

void Nic::queue_step(std::uint64_t qi)
{
  Queue& q                  = queues_[qi];
  Message* m                = q.cur;
  const Ps now              = q_.now();
  const auto i              = q.next_pkt;
  const PacketSpan span     = has_request_payload(m->kind) && !m->pulled ? packet_span(m->length, i) : PacketSpan{};
  const std::uint64_t off   = span.offset;
  const std::uint32_t bytes = span.bytes;
  Ps ready                  = now;
  if (bytes > 0 && !m->inline_payload) {
    // DMA read of this packet's payload from host memory (one PCIe round trip per message).
    const Ps begin  = std::max(now + (i == 0 ? p_.pcie_latency : 0), pcie_.read_busy);
    ready           = begin + transfer_time(bytes, p_.pcie_bandwidth);
    pcie_.read_busy = ready;
    std::memcpy(m->request_data() + off, m->source + off, bytes);
  }
  ++stats_.request_packets;
  send(make_packet(m, kRequest, i, off, bytes, node_of(m->dst_ep)), ready);
  if (i + 1 < m->request_packets) {
    q.next_pkt = i + 1;
    q_.schedule<&Nic::queue_step>(ready, this, qi);
    return;
  }
  // Payload fully read: the buffer is reusable; the counter update reaches the host later. A pulled
  // put's buffer is read by the target's RDMA read: its send completes with its ACK (ack_visible).
  if (!m->pulled)
    q_.schedule<&Nic::sent>(ready + p_.pcie_latency, this, reinterpret_cast<std::uint64_t>(m));
  if (ready == now) {
    start_next(static_cast<int>(qi));
  } else {
    q.cur = nullptr;
    q_.schedule(
        ready, [](void* o, std::uint64_t a) { static_cast<Nic*>(o)->start_next(static_cast<int>(a)); }, this, qi);
  }
}

void Nic::sent(std::uint64_t msg)
{
  auto* m      = reinterpret_cast<Message*>(msg);
  m->send_done = true;
  handler(m->src_ep).initiator_sent(*m);
  maybe_release(*m);
}

void Nic::send(NicPacket* p, Ps ready)
{
  if (p->dst_node == node_) {
    // Both endpoints on this node: loopback inside the adapter, no fabric.
    p->entered = -1;
    q_.schedule<&Nic::loopback_arrive>(ready, this, reinterpret_cast<std::uint64_t>(p));
    return;
  }
  p->entered = ready; // the fabric latency statistic (sim::PacketLatency) counts from here
  fabric_.inject(p, ready);
}

void Nic::loopback_arrive(std::uint64_t pkt)
{
  auto* p       = reinterpret_cast<NicPacket*>(pkt);
  const auto ep = static_cast<std::size_t>(packet_endpoint(p));
  dir_.nics[static_cast<std::size_t>(dir_.nic_of[ep])]->on_packet_arrival(p);
}

void Nic::on_packet_arrival(sim::Packet* sp)
{
  auto* p      = static_cast<NicPacket*>(sp);
  Message* m   = p->msg;
  const Ps now = q_.now();
  fabric_.latency().arrived(*p, now);
  switch (p->dir) {
    case kRequest:
      rx(p);
      return;
    case kAck: {
      ++stats_.acks_received;
      free_packet(p);
      // The ACK reaches host memory; a progress thread then handles it before the counter counts.
      const Ps seen = now + p_.pcie_latency;
      q_.schedule<&Nic::ack_visible>(threaded() ? progress(seen, p_.ack_overhead) : seen, this,
                                     reinterpret_cast<std::uint64_t>(m));
      return;
    }
    case kReadRequest:
      pull_serve(p);
      return;
    case kReadResponse:
      pull_response(p);
      return;
    case kReply: {
      // DMA write of the reply data into the initiator's memory.
      const Ps begin    = std::max(now, pcie_.write_busy);
      const Ps done     = begin + transfer_time(p->bytes, p_.pcie_bandwidth);
      pcie_.write_busy  = done;
      write_landed_max_ = std::max(write_landed_max_, done + p_.pcie_latency);
      q_.schedule<&Nic::reply_land>(done + p_.pcie_latency, this, reinterpret_cast<std::uint64_t>(p));
      return;
    }
  }
}

void Nic::rx(NicPacket* p)
{
  Message* m = p->msg;
  if (!m->ordered) {
    process_request(p);
    return;
  }
  // process_request neither adds nor drops pairs (deliveries complete in later events): `st` stays valid.
  PairState& st = *find_pair(*m);
  if (!may_pass(st, *m)) {
    if (!st.held)
      st.held = std::make_unique<std::map<std::uint64_t, std::vector<sim::Packet*>>>();
    (*st.held)[m->ordered_seq].push_back(p); // NicPackets, kept as their sim::Packet base
    ++stats_.held_packets;
    return;
  }
  process_request(p);
  if (m->arrived < m->request_packets)
    return;
  ++st.ordered_next;
  release_held(st);
}

bool Nic::may_pass(const PairState& st, const Message& m)
{
  // In issue order; behind an ordered pulled put whose data is not written yet, only other pulled
  // puts (their responses are written in issue order: pull_response).
  return m.ordered_seq == st.ordered_next && (m.pulled || !st.pulls_pending());
}

void Nic::release_held(PairState& st)
{
  // Release what waited, as long as whole messages complete.
  while (st.held && !st.held->empty()) {
    auto first  = st.held->begin();
    Message* hm = static_cast<NicPacket*>(first->second.front())->msg;
    if (!may_pass(st, *hm))
      break;
    std::vector<sim::Packet*> pkts = std::move(first->second);
    st.held->erase(first);
    for (sim::Packet* hp : pkts)
      process_request(static_cast<NicPacket*>(hp));
    if (hm->arrived < hm->request_packets)
      break;
    ++st.ordered_next;
  }
}

void Nic::process_request(NicPacket* p)
{
  Message& m   = *p->msg;
  const Ps now = q_.now();
  // The receive engine, or the progress thread, handles the request's header.
  const Ps t = progress(now, m.arrived == 0 ? p_.recv_overhead : 0);
  if (m.arrived == 0)
    handler(m.dst_ep).target_resolve(m);
  ++m.arrived;

  switch (m.kind) {
    case OpKind::Put: {
      if (m.pulled) {
        free_packet(p);
        // The progress thread (or receive engine) posts the RDMA read once it has handled the header.
        const std::uint64_t len = m.target_ok ? m.mlength : 0;
        if (len == 0) { // rejected or nothing accepted: no read, the put completes (the ACK says how)
          q_.schedule<&Nic::pull_done>(t, this, reinterpret_cast<std::uint64_t>(&m));
          return;
        }
        m.pull_packets = packets_for(len);
        if (m.ordered) {
          PairState& st = *find_pair(m);
          if (!st.pulls)
            st.pulls = std::make_unique<PairPulls>();
          st.pulls->fifo.push_back(&m);
        }
        q_.schedule<&Nic::pull_post>(t, this, reinterpret_cast<std::uint64_t>(&m));
        return;
      }
      const std::uint64_t writable =
          m.target_ok && p->offset < m.mlength ? std::min<std::uint64_t>(p->bytes, m.mlength - p->offset) : 0;
      Ps land = t;
      if (writable > 0) {
        Ps wbegin = std::max(t, pcie_.write_busy);
        if (m.ordered)
          wbegin = std::max({wbegin, read_done_max_, atomic_done_max_});
        const Ps done     = wbegin + transfer_time(writable, p_.pcie_bandwidth);
        pcie_.write_busy  = done;
        land              = done + p_.pcie_latency;
        write_landed_max_ = std::max(write_landed_max_, land);
      }
      q_.schedule<&Nic::request_land>(land, this, reinterpret_cast<std::uint64_t>(p));
      return;
    }
    case OpKind::Get: {
      free_packet(p);
      // Read the data from host memory (reads do not pass earlier writes), one reply per MTU.
      const std::uint64_t len = m.target_ok ? m.mlength : 0;
      if (len > 0)
        m.alloc_reply();
      m.reply_packets = packets_for(len);
      Ps cursor       = std::max({t + (len > 0 ? p_.pcie_latency : 0), pcie_.read_busy, write_landed_max_});
      for (std::uint32_t j = 0; j < m.reply_packets; ++j) {
        const PacketSpan span = packet_span(len, j);
        cursor += transfer_time(span.bytes, p_.pcie_bandwidth);
        NicPacket* r = make_packet(&m, kReply, j, span.offset, span.bytes, node_of(m.src_ep));
        q_.schedule<&Nic::reply_read>(cursor, this, reinterpret_cast<std::uint64_t>(r));
      }
      if (len > 0) {
        pcie_.read_busy = cursor;
        read_done_max_  = std::max(read_done_max_, cursor);
      }
      return;
    }
    case OpKind::Atomic:
    case OpKind::FetchAtomic:
    case OpKind::Swap: {
      free_packet(p);
      if (m.arrived < m.request_packets)
        return;
      // The atomic unit (or the progress thread itself) executes once the whole operand is in,
      // after earlier writes landed.
      Ps& unit         = threaded() ? rx_busy_ : au_busy_;
      const Ps begin2  = std::max({t, unit, write_landed_max_});
      unit             = begin2 + p_.atomic_overhead + progress_detours_.during(p_.atomic_overhead); // thread only
      atomic_done_max_ = std::max(atomic_done_max_, unit);
      q_.schedule<&Nic::atomic_exec>(unit, this, reinterpret_cast<std::uint64_t>(&m));
      return;
    }
  }
}

void Nic::request_land(std::uint64_t pkt)
{
  auto* p    = reinterpret_cast<NicPacket*>(pkt);
  Message& m = *p->msg;
  if (m.target_ok && p->offset < m.mlength) {
    const std::uint64_t n = std::min<std::uint64_t>(p->bytes, m.mlength - p->offset);
    std::memcpy(m.target_base + p->offset, m.request_data() + p->offset, n);
    stats_.bytes_delivered += n;
  }
  ++m.landed;
  free_packet(p);
  if (m.landed < m.request_packets)
    return;
  target_done(m);
  if (m.ack_requested)
    send_ack(m);
  maybe_release(m);
}

void Nic::reply_read(std::uint64_t pkt)
{
  auto* p    = reinterpret_cast<NicPacket*>(pkt);
  Message& m = *p->msg;
  if (p->bytes > 0)
    std::memcpy(m.reply_data() + p->offset, m.target_base + p->offset, p->bytes);
  if (p->index + 1 == m.reply_packets)
    target_done(m);
  send(p, q_.now());
}

void Nic::atomic_exec(std::uint64_t msg)
{
  auto* m = reinterpret_cast<Message*>(msg);
  if (has_reply(m->kind))
    m->alloc_reply();
  if (m->target_ok)
    handler(m->dst_ep).target_atomic(*m, m->reply_data());
  target_done(*m);
  if (has_reply(m->kind))
    send_reply_packets(*m, q_.now());
  else if (m->ack_requested)
    send_ack(*m);
  maybe_release(*m);
}

void Nic::pull_post(std::uint64_t msg)
{
  auto* m      = reinterpret_cast<Message*>(msg);
  const Ps now = q_.now();
  // The target posts an RDMA read of the accepted length; in traces a message of its own, from the
  // target to the initiator, of the put's operation.
#if SHMEMSIM_OBSERVERS
  if (obs_ != nullptr) [[unlikely]]
    m->read_trace_id = obs_->msg_issued(now, kRdmaReadKind, m->dst_ep, m->src_ep, m->mlength, m->user_ptr);
#endif
  // Its doorbell crosses PCIe and the adapter processes the work request, then the read request
  // (header only) leaves for the initiator.
  const Ps leave = now + p_.pcie_latency + p_.send_overhead;
  SHMEMSIM_OBSERVE(obs_, msg_injected(leave, m->read_trace_id));
  send(make_packet(m, kReadRequest, 0, 0, 0, node_of(m->src_ep)), leave);
}

void Nic::pull_serve(NicPacket* p)
{
  Message& m = *p->msg;
  free_packet(p);
  // The initiator's adapter serves the read without its host's CPU: it reads the payload from host
  // memory by DMA (one PCIe round trip, then each packet on the node's read channel) and sends each
  // packet back as it is read.
  Ps cursor = std::max(q_.now() + p_.pcie_latency, pcie_.read_busy);
  for (std::uint32_t j = 0; j < m.pull_packets; ++j) {
    const PacketSpan span = packet_span(m.mlength, j);
    cursor += transfer_time(span.bytes, p_.pcie_bandwidth);
    NicPacket* r = make_packet(&m, kReadResponse, j, span.offset, span.bytes, node_of(m.dst_ep));
    q_.schedule<&Nic::pull_read>(cursor, this, reinterpret_cast<std::uint64_t>(r));
  }
  pcie_.read_busy = cursor;
}

void Nic::pull_read(std::uint64_t pkt)
{
  auto* p      = reinterpret_cast<NicPacket*>(pkt);
  Message& m   = *p->msg;
  const Ps now = q_.now();
  // Read from host memory now (a volatile put's payload was copied at issue).
  if (!m.inline_payload)
    std::memcpy(m.request_data() + p->offset, m.source + p->offset, p->bytes);
  if (p->index + 1 == m.pull_packets)
    SHMEMSIM_OBSERVE(obs_, msg_delivered(now, m.read_trace_id, false, 0));
  send(p, now);
}

void Nic::pull_response(NicPacket* p)
{
  Message& m = *p->msg;
  if (m.ordered) {
    // Ordered pulls of a pair write their responses in issue order (multipath may reorder them).
    PairState& st = *find_pair(m);
    SHMEMSIM_ASSERT(st.pulls_pending(), "a read response of an ordered put that is not under way");
    if (st.pulls->fifo.front() != &m) {
      st.pulls->held.push_back(p);
      ++stats_.held_packets;
      return;
    }
  }
  pull_write(p);
}

void Nic::pull_write(NicPacket* p)
{
  Message& m = *p->msg;
  Ps wbegin  = std::max(q_.now(), pcie_.write_busy);
  if (m.ordered)
    wbegin = std::max({wbegin, read_done_max_, atomic_done_max_});
  const Ps done     = wbegin + transfer_time(p->bytes, p_.pcie_bandwidth);
  pcie_.write_busy  = done;
  const Ps land     = done + p_.pcie_latency;
  write_landed_max_ = std::max(write_landed_max_, land);
  q_.schedule<&Nic::pull_land>(land, this, reinterpret_cast<std::uint64_t>(p));
  if (++m.pull_written < m.pull_packets || !m.ordered)
    return;
  // Its whole response is on the write channel: what waited behind it may go (in issue order).
  PairState& st = *find_pair(m);
  PairPulls& pl = *st.pulls;
  SHMEMSIM_ASSERT(!pl.fifo.empty() && pl.fifo.front() == &m, "ordered read responses written out of issue order");
  pl.fifo.erase(pl.fifo.begin());
  if (pl.fifo.empty()) {
    release_held(st);
    return;
  }
  const Message* next = pl.fifo.front();
  std::vector<sim::Packet*> go;
  auto keep = std::stable_partition(pl.held.begin(), pl.held.end(),
                                    [&](sim::Packet* hp) { return static_cast<NicPacket*>(hp)->msg != next; });
  go.assign(keep, pl.held.end());
  pl.held.erase(keep, pl.held.end());
  for (sim::Packet* hp : go)
    pull_write(static_cast<NicPacket*>(hp));
}

void Nic::pull_land(std::uint64_t pkt)
{
  auto* p    = reinterpret_cast<NicPacket*>(pkt);
  Message& m = *p->msg;
  std::memcpy(m.target_base + p->offset, m.request_data() + p->offset, p->bytes);
  stats_.bytes_delivered += p->bytes;
  free_packet(p);
  if (++m.landed < m.pull_packets)
    return;
  const Ps now = q_.now();
  SHMEMSIM_OBSERVE(obs_, msg_done(now, m.read_trace_id));
  // The read's completion: the progress thread polls it from its completion queue and resumes the
  // request's state machine, as for a returning reply (reply_overhead); counting the put and posting
  // the ACK were charged with the request's recv_overhead.
  const Ps at = threaded() ? progress(now, p_.reply_overhead) : now;
  if (at > now) {
    q_.schedule<&Nic::pull_done>(at, this, reinterpret_cast<std::uint64_t>(&m));
    return;
  }
  pull_done(reinterpret_cast<std::uint64_t>(&m));
}

void Nic::pull_done(std::uint64_t msg)
{
  Message& m = *reinterpret_cast<Message*>(msg);
  target_done(m);
  send_ack(m); // always: the initiator learns from it that its buffer was read
  maybe_release(m);
}

std::uint32_t Nic::packets_for(std::uint64_t len) const
{
  return len == 0 ? 1 : static_cast<std::uint32_t>((len + mtu_ - 1) / mtu_);
}

Nic::PacketSpan Nic::packet_span(std::uint64_t len, std::uint32_t j) const
{
  const std::uint64_t off = static_cast<std::uint64_t>(j) * mtu_;
  return {off, static_cast<std::uint32_t>(len > off ? std::min<std::uint64_t>(mtu_, len - off) : 0)};
}

void Nic::send_reply_packets(Message& m, Ps ready)
{
  const std::uint64_t len = m.target_ok ? m.length : 0;
  m.reply_packets         = packets_for(len);
  for (std::uint32_t j = 0; j < m.reply_packets; ++j) {
    const PacketSpan span = packet_span(len, j);
    send(make_packet(&m, kReply, j, span.offset, span.bytes, node_of(m.src_ep)), ready);
  }
}

void Nic::target_done(Message& m)
{
  const Ps now   = q_.now();
  m.delivered_at = now;
  m.target_done  = true;
  ++stats_.deliveries;
  if (!m.target_ok)
    ++stats_.failed_deliveries;
  latency_.delivery.add(now - m.issued_at);
  PairState& d = *find_pair(m);
  SHMEMSIM_OBSERVE(obs_,
                   msg_delivered(now, m.trace_id, m.pair_seq != d.lowest,
                                 static_cast<std::uint64_t>(
                                     d.ahead.end() - std::upper_bound(d.ahead.begin(), d.ahead.end(), m.pair_seq))));
  if (m.pair_seq == d.lowest) {
    ++d.lowest;
    std::size_t drop = 0;
    while (drop < d.ahead.size() && d.ahead[drop] == d.lowest) {
      ++drop;
      ++d.lowest;
    }
    d.ahead.erase(d.ahead.begin(), d.ahead.begin() + static_cast<std::ptrdiff_t>(drop));
  } else {
    ++stats_.out_of_order;
    d.ahead.insert(std::upper_bound(d.ahead.begin(), d.ahead.end(), m.pair_seq), m.pair_seq);
  }
  if (d.lowest == d.issued) {
    // Every message of the pair is delivered: nothing left to order (see PairStates).
    SHMEMSIM_ASSERT(d.ahead.empty() && d.ordered_next == d.ordered_issued && (!d.held || d.held->empty()) &&
                        (!d.pulls || (d.pulls->fifo.empty() && d.pulls->held.empty())),
                    "a pair with every message delivered still holds ordering state");
    pairs_.erase(static_cast<std::uint32_t>(m.src_ep), static_cast<std::uint32_t>(m.dst_ep));
  }
  handler(m.dst_ep).target_complete(m);
}

Ps Nic::write_event(Ps at_nic, std::uint64_t bytes)
{
  const Ps begin   = std::max(at_nic, pcie_.write_busy);
  pcie_.write_busy = begin + transfer_time(bytes, p_.pcie_bandwidth);
  return pcie_.write_busy + p_.pcie_latency;
}

void Nic::send_ack(Message& m)
{
  ++stats_.acks_sent;
  send(make_packet(&m, kAck, 0, 0, 0, node_of(m.src_ep)), q_.now());
}

void Nic::ack_visible(std::uint64_t msg)
{
  auto* m = reinterpret_cast<Message*>(msg);
  if (m->pulled) {
    // The initiator learns that the target's read is over from the ACK only: the put's send
    // completes now (the ACK comes even if none was requested).
    m->send_done = true;
    handler(m->src_ep).initiator_sent(*m);
    if (!m->ack_requested) {
      maybe_release(*m);
      return;
    }
  }
  latency_.completion.add(q_.now() - m->issued_at);
  m->initiator_done = true;
  SHMEMSIM_OBSERVE(obs_, msg_done(q_.now(), m->trace_id));
  handler(m->src_ep).initiator_acked(*m);
  maybe_release(*m);
}

void Nic::reply_land(std::uint64_t pkt)
{
  auto* p    = reinterpret_cast<NicPacket*>(pkt);
  Message& m = *p->msg;
  if (m.target_ok && p->bytes > 0) {
    std::memcpy(m.reply_dest + p->offset, m.reply_data() + p->offset, p->bytes);
    stats_.bytes_delivered += p->bytes;
  }
  ++m.landed;
  free_packet(p);
  // Requests of gets and atomics carry no data to land, so `landed` counts reply packets here.
  if (m.landed < m.reply_packets)
    return;
  if (threaded()) {
    // A progress thread handles the reply before the counter counts.
    q_.schedule<&Nic::reply_done>(progress(q_.now(), p_.reply_overhead), this, reinterpret_cast<std::uint64_t>(&m));
    return;
  }
  reply_done(reinterpret_cast<std::uint64_t>(&m));
}

void Nic::reply_done(std::uint64_t msg)
{
  Message& m = *reinterpret_cast<Message*>(msg);
  ++stats_.replies_received;
  latency_.completion.add(q_.now() - m.issued_at);
  m.initiator_done = true;
  SHMEMSIM_OBSERVE(obs_, msg_done(q_.now(), m.trace_id));
  handler(m.src_ep).initiator_replied(m);
  maybe_release(m);
}

void Nic::maybe_release(Message& m)
{
  if (!m.send_done || !m.target_done)
    return;
  if ((m.ack_requested || has_reply(m.kind)) && !m.initiator_done)
    return;
  handler(m.src_ep).release(&m);
}

} // namespace shmemsim::nic
