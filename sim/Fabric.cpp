#include "sim/Fabric.hpp"

#include "base/Assert.hpp"

#include <algorithm>

namespace shmemsim::sim {

CreditLinks::CreditLinks(EventQueue& q, CreditRouter& router, FabricStats& stats, int links, int nodes, int vcs,
                         FabricSink sink)
    : q_(q), router_(router), stats_(stats), links_(links), nodes_(nodes), vcs_(static_cast<std::size_t>(vcs)),
      sink_(sink)
{
  SHMEMSIM_ASSERT(vcs >= 1 && vcs <= 8, "between 1 and 8 virtual channels per link");
  SHMEMSIM_ASSERT(sink.buffer == 0 || sink.bandwidth > 0, "a finite adapter buffer needs a drain rate");
  vc_.resize(static_cast<std::size_t>(links) * vcs_);
  out_.resize(static_cast<std::size_t>(links));
  in_bufs_.resize(static_cast<std::size_t>(links) * vcs_ + static_cast<std::size_t>(nodes));
  if (sink.buffer > 0)
    sink_busy_.assign(static_cast<std::size_t>(nodes), 0);
}

void CreditLinks::bound(int port, std::uint64_t bytes)
{
  for (std::size_t v = 0; v < vcs_; ++v) {
    Vc& c     = vc_[static_cast<std::size_t>(port) * vcs_ + v];
    c.bounded = bytes > 0;
    c.room    = static_cast<std::int64_t>(bytes);
    c.size    = static_cast<std::int64_t>(bytes);
  }
}

void CreditLinks::inject(Packet* p, Ps ready)
{
  // The NIC's own queue feeds its node's port: in_buf links * vcs + node.
  p->in_buf = static_cast<std::int32_t>(static_cast<std::size_t>(links_) * vcs_) + p->src_node;
  p->vc     = 0;
  q_.schedule<&CreditLinks::credit_ready>(ready, this, reinterpret_cast<std::uint64_t>(p));
}

void CreditLinks::credit_ready(std::uint64_t packet_ptr)
{
  // The packet's head is in its input buffer and switched (or the NIC handed it to its port).
  auto* p      = reinterpret_cast<Packet*>(packet_ptr);
  InBuf& buf   = in_bufs_[static_cast<std::size_t>(p->in_buf)];
  p->fifo_next = nullptr;
  if (buf.tail == nullptr) {
    buf.head = buf.tail = p;
    if (buf.leaving_credits == 0)
      ask(p);
    return;
  }
  buf.tail->fifo_next = p;
  buf.tail            = p;
}

void CreditLinks::ask(Packet* p)
{
  // A packet in a switch picks its output port now (adaptive routing sees the ports as they are);
  // the NIC's packet leaves by its node's port.
  const bool at_nic = static_cast<std::size_t>(p->in_buf) >= static_cast<std::size_t>(links_) * vcs_;
  p->vc             = 0;
  const int port    = at_nic ? p->src_node : router_.route(*p);
  SHMEMSIM_ASSERT(p->vc >= 0 && static_cast<std::size_t>(p->vc) < vcs_,
                  "a route chose a virtual channel the links lack");
  Vc& c            = vc_[static_cast<std::size_t>(port) * vcs_ + static_cast<std::size_t>(p->vc)];
  Out& o           = out_[static_cast<std::size_t>(port)];
  p->wait_next     = nullptr;
  p->waiting_since = q_.now();
  if (c.wait_tail == nullptr)
    c.wait_head = p;
  else
    c.wait_tail->wait_next = p;
  c.wait_tail = p;
  o.pending_ser += p->ser;
  o.waiting_bytes += p->wire_bytes;
  ++o.waiting;
  serve(port);
}

void CreditLinks::serve(int port)
{
  Out& o = out_[static_cast<std::size_t>(port)];
  if (o.waiting == 0)
    return;
  const Ps now = q_.now();
  if (router_.port(port).busy_until > now)
    return; // sent() serves it when the port frees
  // Round robin over the VCs, from the one after the VC served last.
  const std::size_t base = static_cast<std::size_t>(port) * vcs_;
  std::size_t chosen     = vcs_;
  for (std::size_t i = 0; i < vcs_ && chosen == vcs_; ++i) {
    const std::size_t v = (static_cast<std::size_t>(o.next_vc) + i) % vcs_;
    const Vc& c         = vc_[base + v];
    if (c.wait_head != nullptr && !short_of_room(port, static_cast<int>(v), *c.wait_head))
      chosen = v;
  }
  if (chosen == vcs_) {
    if (o.stalled_from < 0) {
      o.stalled_from = now;
      ++stats_.credit_stalls;
    }
    return; // credit_return() serves it
  }
  if (o.stalled_from >= 0) {
    stats_.credit_wait_total += now - o.stalled_from;
    o.stalled_from = -1;
  }
  o.next_vc   = static_cast<std::int32_t>((chosen + 1) % vcs_);
  Vc& c       = vc_[base + chosen];
  Packet* p   = c.wait_head;
  c.wait_head = p->wait_next;
  if (c.wait_head == nullptr)
    c.wait_tail = nullptr;
  o.pending_ser -= p->ser;
  o.waiting_bytes -= p->wire_bytes;
  --o.waiting;
  const auto room = credit_bytes(p->wire_bytes);
  if (c.bounded) {
    c.room -= static_cast<std::int64_t>(room);
    o.used_bytes += room;
  }
  router_.occupy(port, now, now - p->waiting_since, p);
  // The packet leaves its input buffer's list; the buffer's room frees when the tail has left.
  const int from = p->in_buf;
  InBuf& buf     = in_bufs_[static_cast<std::size_t>(from)];
  SHMEMSIM_ASSERT(buf.head == p && buf.leaving_credits == 0, "a port sends the head of an input buffer");
  buf.head = p->fifo_next;
  if (buf.head == nullptr)
    buf.tail = nullptr;
  buf.leaving_credits = static_cast<std::uint32_t>(room / 64);
  p->in_buf           = static_cast<std::int32_t>(base + chosen);
  const Ps tail_out   = now + p->ser;
  q_.schedule<&CreditLinks::sent>(tail_out, this,
                                  (static_cast<std::uint64_t>(port) << 32) | static_cast<std::uint32_t>(from));
  if (p->last_link)
    q_.schedule<&CreditLinks::arrived>(tail_out + router_.latency(port), this, reinterpret_cast<std::uint64_t>(p));
  else
    q_.schedule<&CreditLinks::credit_ready>(now + router_.latency(port) + router_.forward_delay(), this,
                                            reinterpret_cast<std::uint64_t>(p));
}

void CreditLinks::sent(std::uint64_t port_and_buf)
{
  // The tail left `port`: the port is free, and the input buffer the packet came from has its room
  // back (the credit reaches that buffer's sender one link latency later); its next head may ask.
  const auto port = static_cast<int>(port_and_buf >> 32);
  const auto from = static_cast<std::size_t>(port_and_buf & 0xFFFF'FFFFu);
  InBuf& buf      = in_bufs_[from];
  SHMEMSIM_ASSERT(buf.leaving_credits > 0, "a tail left an input buffer with nothing leaving");
  const std::uint32_t credits = buf.leaving_credits;
  buf.leaving_credits         = 0;
  if (from < vc_.size() && vc_[from].bounded)
    q_.schedule<&CreditLinks::credit_return>(q_.now() + router_.latency(static_cast<int>(from / vcs_)), this,
                                             (static_cast<std::uint64_t>(from) << 32) | credits);
  if (buf.head != nullptr)
    ask(buf.head);
  serve(port);
}

void CreditLinks::credit_return(std::uint64_t buf_and_credits)
{
  // Low 32 bits: 64-byte credits.
  const auto buf   = static_cast<std::size_t>(buf_and_credits >> 32);
  const auto bytes = (buf_and_credits & 0xFFFF'FFFFu) * 64;
  Vc& c            = vc_[buf];
  Out& o           = out_[buf / vcs_];
  c.room += static_cast<std::int64_t>(bytes);
  SHMEMSIM_ASSERT(c.room <= c.size && o.used_bytes >= bytes, "credits came back beyond the buffer's size");
  o.used_bytes -= bytes;
  serve(static_cast<int>(buf / vcs_));
}

void CreditLinks::arrived(std::uint64_t packet_ptr)
{
  router_.arrive(reinterpret_cast<Packet*>(packet_ptr));
}

void CreditLinks::sink_drain(Packet* p)
{
  // The adapter writes the packet from its receive buffer to host memory at its drain rate; its room
  // returns to the switch's port one link latency after.
  const auto buf = static_cast<std::size_t>(p->in_buf);
  if (!vc_[buf].bounded)
    return;
  Ps& busy = sink_busy_[static_cast<std::size_t>(p->dst_node)];
  busy     = std::max(busy, q_.now()) + transfer_time(p->wire_bytes, sink_.bandwidth);
  q_.schedule<&CreditLinks::credit_return>(busy + router_.latency(static_cast<int>(buf / vcs_)), this,
                                           (static_cast<std::uint64_t>(buf) << 32) | credit_bytes(p->wire_bytes) / 64);
}

} // namespace shmemsim::sim
