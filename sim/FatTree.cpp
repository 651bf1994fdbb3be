#include "sim/FatTree.hpp"

#include "base/Assert.hpp"

#include <algorithm>

namespace shmemsim::sim {

FatTree::FatTree(const FabricParams& p, int nodes, EventQueue& q, Rng routing_rng, Rng jitter_rng, Sink sink)
    : p_(p), nodes_(nodes), q_(q), routing_rng_(routing_rng), jitter_rng_(jitter_rng), sink_(sink)
{
  SHMEMSIM_ASSERT(p_.check().empty(), "fat-tree parameters validated before construction");
  SHMEMSIM_ASSERT(nodes <= p_.capacity(), "more nodes than the fat tree holds");
  const int h = p_.levels;
  m_prefix_.assign(static_cast<std::size_t>(h) + 1, 1);
  for (int l = 1; l <= h; ++l)
    m_prefix_[l] = m_prefix_[l - 1] * p_.down[static_cast<std::size_t>(l - 1)];
  b_prefix_.assign(static_cast<std::size_t>(h) + 1, 1);
  for (int l = 2; l <= h; ++l)
    b_prefix_[l] = b_prefix_[l - 1] * p_.up[static_cast<std::size_t>(l - 2)];
  level_base_.assign(static_cast<std::size_t>(h) + 2, 0);
  for (int l = 1; l <= h; ++l) {
    const std::int64_t count = (m_prefix_[h] / m_prefix_[l]) * b_prefix_[l];
    level_base_[l + 1]       = level_base_[l] + count * ports_per_switch(l);
  }
  switch_ports_.resize(static_cast<std::size_t>(level_base_[h + 1]));
  pps_.assign(static_cast<std::size_t>(h) + 1, 0);
  for (int l = 1; l <= h; ++l)
    pps_[l] = ports_per_switch(l);
  // route_of: [sub 0..h][digit 1..h at h+1..2h][dmodk 1..h-1 at 2h+2..3h], 3h + 1 entries per node.
  route_stride_ = 3 * static_cast<std::size_t>(h) + 1;
  route_.assign(route_stride_ * static_cast<std::size_t>(nodes), 0);
  for (int n = 0; n < nodes; ++n) {
    std::int32_t* r = &route_[static_cast<std::size_t>(n) * route_stride_];
    for (int l = 0; l <= h; ++l)
      r[l] = static_cast<std::int32_t>(n / m_prefix_[l]);
    for (int l = 1; l <= h; ++l)
      r[h + l] = static_cast<std::int32_t>((n / m_prefix_[l - 1]) % p_.down[static_cast<std::size_t>(l - 1)]);
    for (int l = 1; l < h; ++l)
      r[2 * h + 1 + l] = static_cast<std::int32_t>((n / b_prefix_[l]) % p_.up[static_cast<std::size_t>(l - 1)]);
  }
  node_ports_.resize(static_cast<std::size_t>(nodes));
  clients_.assign(static_cast<std::size_t>(nodes), nullptr);
  if (p_.buffer > 0 || sink_.buffer > 0)
    setup_credits(sink_);
}

void FatTree::setup_credits(const Sink& sink)
{
  SHMEMSIM_ASSERT(sink.buffer == 0 || sink.buffer >= p_.largest_packet_credits(),
                  "adapter buffer validated to hold one packet");
  SHMEMSIM_ASSERT(p_.buffer == 0 || p_.buffer >= p_.largest_packet_credits(),
                  "switch buffer validated to hold one packet");
  credits_ =
      std::make_unique<CreditLinks>(q_, static_cast<CreditRouter&>(*this), stats_, link_count(), nodes_, 1, sink);
  // A node's port feeds a leaf switch; a switch's down port at level 1 feeds a node's adapter, every
  // other switch port another switch.
  for (int n = 0; n < nodes_; ++n)
    credits_->bound(n, p_.buffer);
  for (int l = 1; l <= p_.levels; ++l) {
    const std::int64_t per = pps_[l];
    for (std::int64_t i = level_base_[l]; i < level_base_[l + 1]; ++i) {
      const bool to_node = l == 1 && (i - level_base_[l]) % per < p_.down[0];
      credits_->bound(static_cast<int>(nodes_ + i), to_node ? sink.buffer : p_.buffer);
    }
  }
}

std::int64_t FatTree::switch_count() const
{
  std::int64_t n = 0;
  for (int l = 1; l <= p_.levels; ++l)
    n += (m_prefix_[p_.levels] / m_prefix_[l]) * b_prefix_[l];
  return n;
}

Ps FatTree::max_port_busy() const
{
  Ps m = 0;
  for (const Port& p : node_ports_)
    m = std::max(m, p.busy_total);
  for (const Port& p : switch_ports_)
    m = std::max(m, p.busy_total);
  return m;
}

std::string FatTree::link_name(int link) const
{
  if (link < nodes_)
    return "node" + std::to_string(link) + ".up";
  std::int64_t i = link - nodes_;
  for (int l = 1; l <= p_.levels; ++l) {
    if (i < level_base_[l + 1] - level_base_[l]) {
      const std::int64_t per = ports_per_switch(l);
      return "sw" + std::to_string(l) + "." + std::to_string(i / per) + ".p" + std::to_string(i % per);
    }
    i -= level_base_[l + 1] - level_base_[l];
  }
  return "link" + std::to_string(link);
}

int FatTree::path_links(int src, int dst) const
{
  if (src == dst)
    return 0;
  for (int l = 1; l <= p_.levels; ++l)
    if (src / m_prefix_[l] == dst / m_prefix_[l])
      return 2 * l;
  SHMEMSIM_ASSERT(false, "unknown routing policy");
  return 0;
}

Ps FatTree::uncontended_time(int src, int dst, std::uint32_t wire_bytes) const
{
  const int links = path_links(src, dst);
  if (links == 0)
    return 0;
  return links * p_.link_latency + (links - 1) * p_.switch_latency + serialization(wire_bytes);
}

int FatTree::ports_per_switch(int level) const
{
  const auto l = static_cast<std::size_t>(level - 1);
  return p_.down[l] + (level < p_.levels ? p_.up[l] : 0);
}

Ps FatTree::reserve(Port& port, Ps ready, const Packet* p)
{
  const Ps start = std::max(ready, port.busy_until);
  occupy(port, start, start - ready, p);
  return start;
}

void FatTree::occupy(Port& port, Ps start, Ps waited, const Packet* p)
{
  const Ps ser = p->ser;
#if SHMEMSIM_OBSERVERS
  if (obs_ != nullptr) {
    const bool node_port = &port >= node_ports_.data() && &port < node_ports_.data() + node_ports_.size();
    const int link       = node_port ? static_cast<int>(&port - node_ports_.data())
                                     : nodes_ + static_cast<int>(&port - switch_ports_.data());
    obs_->packet_hop(start, p->trace_id, link, waited, p->wire_bytes);
  }
#endif
  stats_.queueing_total += waited;
  port.carry(start, ser);
  ++stats_.hops;
}

Ps FatTree::forward_delay()
{
  Ps d = p_.switch_latency;
  if (p_.jitter > 0)
    d += static_cast<Ps>(jitter_rng_.below(static_cast<std::uint64_t>(p_.jitter) + 1));
  return d;
}

Ps FatTree::inject(Packet* p, Ps ready)
{
  SHMEMSIM_ASSERT(p->src_node != p->dst_node, "a packet to its own node entered the fabric");
  p->flow_seq      = flows_.injected(p->src_node, p->dst_node);
  p->waiting_since = ready;
  p->level         = 1;
  p->upper         = sub_at(route_of(p->src_node), 1);
  p->bnum          = 0;
  p->going_down    = false;
  p->last_link     = false;
  p->ser           = serialization(p->wire_bytes);
  stats_.wire_bytes += p->wire_bytes;
  if (credit_mode()) {
    credits_->inject(p, ready);
    return ready + p->ser;
  }
  Port& port     = node_ports_[static_cast<std::size_t>(p->src_node)];
  const Ps start = reserve(port, ready, p);
  q_.schedule<&FatTree::hop>(start + p_.link_latency + forward_delay(), this, reinterpret_cast<std::uint64_t>(p));
  return start + p->ser;
}

int FatTree::up_port(const Packet& p, int level)
{
  const int ups = p_.up[static_cast<std::size_t>(level - 1)];
  if (ups == 1)
    return 0;
  switch (p_.routing) {
    case Routing::DModK:
      return dmodk_at(route_of(p.dst_node), level);
    case Routing::Random:
      return static_cast<int>(routing_rng_.below(static_cast<std::uint64_t>(ups)));
    case Routing::Adaptive: {
      const int first       = p_.down[static_cast<std::size_t>(level - 1)];
      const Ps now          = q_.now();
      const std::int64_t sw = switch_of(p);
      Ps best               = INT64_MAX;
      bool best_short       = true;
      int best_port         = 0;
      int ties              = 0;
      for (int d = 0; d < ups; ++d) {
        const int id    = switch_port_id(level, sw, first + d);
        Ps free_at      = std::max(now, port_at(id).busy_until);
        bool room_short = false;
        if (credit_mode()) {
          // With flow control the port's own queue and its far buffer's room count too: a port whose
          // far buffer cannot take the packet comes after every port that can.
          free_at += credits_->pending_ser(id);
          room_short = credits_->short_of_room(id, 0, p);
        }
        if (room_short < best_short || (room_short == best_short && free_at < best)) {
          best       = free_at;
          best_short = room_short;
          best_port  = d;
          ties       = 1;
        } else if (room_short == best_short && free_at == best) {
          // Reservoir choice among equally good uplinks.
          ++ties;
          if (routing_rng_.below(static_cast<std::uint64_t>(ties)) == 0)
            best_port = d;
        }
      }
      return best_port;
    }
  }
  return 0;
}

int FatTree::next_port(Packet& p)
{
  const int l             = p.level;
  const std::int32_t* dst = route_of(p.dst_node);
  if (sub_at(dst, l) == p.upper) {
    // Destination below: go down through port c = digit l of dst.
    const int c       = digit_at(dst, l);
    const int port_id = switch_port_id(l, switch_of(p), c);
    p.going_down      = true;
    if (l == 1) {
      p.last_link = true;
      return port_id;
    }
    // The child below port c: the subtree of dst one level down, the same switch number modulo B_{l-1}.
    p.level = l - 1;
    p.upper = sub_at(dst, l - 1);
    p.bnum  = l - 1 == 1 ? 0 : p.bnum % b_prefix_[l - 1];
    return port_id;
  }
  SHMEMSIM_ASSERT(l < p_.levels && !p.going_down, "routing up past the top of the tree");
  const int d       = up_port(p, l);
  const int first   = p_.down[static_cast<std::size_t>(l - 1)];
  const int port_id = switch_port_id(l, switch_of(p), first + d);
  // The parent above uplink d: the subtree of the source one level up, switch number bnum + d * B_l.
  p.bnum  = p.bnum + d * b_prefix_[l];
  p.level = l + 1;
  p.upper = sub_at(route_of(p.src_node), l + 1);
  return port_id;
}

void FatTree::hop(std::uint64_t packet_ptr)
{
  auto* p        = reinterpret_cast<Packet*>(packet_ptr);
  const int id   = next_port(*p);
  const Ps start = reserve(port_at(id), q_.now(), p);
  if (p->last_link) {
    q_.schedule<&FatTree::arrive_event>(start + p->ser + p_.link_latency, this, packet_ptr);
    return;
  }
  q_.schedule<&FatTree::hop>(start + p_.link_latency + forward_delay(), this, packet_ptr);
}

void FatTree::arrive(Packet* p)
{
  ++stats_.packets;
  if (flows_.arrived_late(p->src_node, p->dst_node, p->flow_seq))
    ++stats_.reordered_packets;
  if (credit_mode())
    credits_->sink_drain(p);
  clients_[static_cast<std::size_t>(p->dst_node)]->on_packet_arrival(p);
}

} // namespace shmemsim::sim
