#include "sim/Dragonfly.hpp"

#include "base/Assert.hpp"

#include <algorithm>

namespace shmemsim::sim {

namespace {

/// The rank (0..g-2) of group `to` among the other groups of group `from`, as the arrangement orders
/// them (sim/Dragonfly.hpp).
int arrangement_rank(GlobalArrangement arr, int from, int to, int g)
{
  switch (arr) {
    case GlobalArrangement::Absolute:
      return to < from ? to : to - 1;
    case GlobalArrangement::Relative:
      return ((to - from - 1) % g + g) % g;
    case GlobalArrangement::Circulant: {
      const int d = ((to - from) % g + g) % g; // 1..g-1
      if (g % 2 == 0 && d == g / 2)
        return g - 2;
      return d <= (g - 1) / 2 ? 2 * (d - 1) : 2 * (g - d - 1) + 1;
    }
  }
  return 0;
}

} // namespace

Dragonfly::Dragonfly(const FabricParams& p, int nodes, EventQueue& q, Rng routing_rng, Rng jitter_rng, FabricSink sink)
    : params_(p), p_(p.dragonfly.endpoints_per_switch), a_(p.dragonfly.switches_per_group),
      h_(p.dragonfly.global_per_switch), g_(p.dragonfly.group_count()), pps_(p_ + a_ - 1 + h_), copies_(1),
      nodes_(nodes), local_latency_(p.link_latency),
      global_latency_(p.dragonfly.global_link_latency > 0 ? p.dragonfly.global_link_latency : p.link_latency), q_(q),
      routing_rng_(routing_rng), jitter_rng_(jitter_rng)
{
  SHMEMSIM_ASSERT(p.topology == Topology::Dragonfly && p.check().empty(),
                  "dragonfly parameters validated before construction");
  SHMEMSIM_ASSERT(nodes <= p.capacity(), "more nodes than the dragonfly holds");
  params_.dragonfly.groups = g_;
  copies_                  = a_ * h_ / (g_ - 1);
  const auto G             = static_cast<std::size_t>(g_);
  rank_.assign(G * G, -1);
  for (int i = 0; i < g_; ++i)
    for (int j = 0; j < g_; ++j)
      if (i != j)
        rank_[static_cast<std::size_t>(i) * G + static_cast<std::size_t>(j)] =
            arrangement_rank(p.dragonfly.arrangement, i, j, g_);
  // Copy c of the link between groups i and j joins port c*(g-1) + rank(i, j) of i and port
  // c*(g-1) + rank(j, i) of j.
  const std::size_t per_group = static_cast<std::size_t>(a_) * static_cast<std::size_t>(h_);
  far_switch_.assign(G * per_group, -1);
  for (int i = 0; i < g_; ++i)
    for (int j = 0; j < g_; ++j) {
      if (i == j)
        continue;
      for (int c = 0; c < copies_; ++c) {
        const int mine   = c * (g_ - 1) + rank_[static_cast<std::size_t>(i) * G + static_cast<std::size_t>(j)];
        const int theirs = c * (g_ - 1) + rank_[static_cast<std::size_t>(j) * G + static_cast<std::size_t>(i)];
        int& far         = far_switch_[static_cast<std::size_t>(i) * per_group + static_cast<std::size_t>(mine)];
        SHMEMSIM_ASSERT(far < 0, "a global port joined twice: the arrangement is not a matching");
        far = j * a_ + theirs / h_;
      }
    }
  for (int f : far_switch_)
    SHMEMSIM_ASSERT(f >= 0, "a global port left unconnected");
  ports_.resize(static_cast<std::size_t>(nodes) + static_cast<std::size_t>(a_) * G * static_cast<std::size_t>(pps_));
  clients_.assign(static_cast<std::size_t>(nodes), nullptr);
  if (p.buffer > 0 || sink.buffer > 0)
    setup_credits(sink);
}

void Dragonfly::setup_credits(const FabricSink& sink)
{
  SHMEMSIM_ASSERT(sink.buffer == 0 || sink.buffer >= params_.largest_packet_credits(),
                  "adapter buffer validated to hold one packet");
  SHMEMSIM_ASSERT(params_.buffer == 0 || params_.buffer >= params_.largest_packet_credits(),
                  "switch buffer validated to hold one packet");
  credits_ = std::make_unique<CreditLinks>(q_, static_cast<CreditRouter&>(*this), stats_, link_count(), nodes_,
                                           params_.dragonfly.virtual_channels(), sink);
  // A node's port and a switch's local and global ports feed a switch's input buffers; a switch's
  // endpoint ports feed the nodes' adapters.
  for (int id = 0; id < link_count(); ++id)
    credits_->bound(id, id >= nodes_ && (id - nodes_) % pps_ < p_ ? sink.buffer : params_.buffer);
}

Ps Dragonfly::max_port_busy() const
{
  Ps m = 0;
  for (const Port& p : ports_)
    m = std::max(m, p.busy_total);
  return m;
}

std::string Dragonfly::link_name(int link) const
{
  if (link < nodes_)
    return "node" + std::to_string(link) + ".up";
  const int sw = (link - nodes_) / pps_, k = (link - nodes_) % pps_;
  const std::string s = "sw" + std::to_string(sw);
  if (k < p_)
    return s + ".n" + std::to_string(k);
  if (k < p_ + a_ - 1) {
    const int j = k - p_;
    return s + ".l" + std::to_string(j < sw % a_ ? j : j + 1);
  }
  return s + ".g" + std::to_string(k - p_ - a_ + 1);
}

int Dragonfly::hops_minimal(int sw, int dst) const
{
  const int dsw = dst / p_;
  if (sw == dsw)
    return 0;
  const int grp = sw / a_, dgrp = dsw / a_;
  if (grp == dgrp)
    return 1;
  const int gp = gateway(grp, dgrp, dst);
  return (gp / h_ != sw % a_ ? 1 : 0) + 1 + (far_switch(grp, gp) != dsw ? 1 : 0);
}

int Dragonfly::hops_via(int sw, int inter, int dst) const
{
  const int gp = gateway(sw / a_, inter, dst);
  return (gp / h_ != sw % a_ ? 1 : 0) + 1 + hops_minimal(far_switch(sw / a_, gp), dst);
}

int Dragonfly::path_links(int src, int dst) const
{
  return src == dst ? 0 : 2 + hops_minimal(src / p_, dst);
}

Ps Dragonfly::uncontended_time(int src, int dst, std::uint32_t wire_bytes) const
{
  const int links = path_links(src, dst);
  if (links == 0)
    return 0;
  const int globals = (src / p_) / a_ != (dst / p_) / a_ ? 1 : 0;
  return (links - globals) * local_latency_ + globals * global_latency_ + (links - 1) * params_.switch_latency +
         serialization(wire_bytes);
}

int Dragonfly::first_port(int sw, int target, int dst) const
{
  const int gp = gateway(sw / a_, target, dst);
  const int gi = gp / h_;
  return gi == sw % a_ ? global_port(sw, gp) : local_port(sw, (sw / a_) * a_ + gi);
}

Ps Dragonfly::backlog(int port) const
{
  return std::max<Ps>(0, ports_[static_cast<std::size_t>(port)].busy_until - q_.now());
}

bool Dragonfly::ugal_minimal(int sw, int min_port, int val_port, int h_min, int h_val) const
{
  // UGAL-L: the queues of the two first output ports, weighed by the paths' lengths.
  SHMEMSIM_ASSERT(min_port >= port_id(sw, 0) && val_port >= port_id(sw, 0), "UGAL compares its own switch's ports");
  if (credit_mode()) {
    // Bytes queued on each port, those blocked for lack of credits included (CreditLinks::occupancy).
    const auto q_min = credits_->occupancy(min_port), q_val = credits_->occupancy(val_port);
    return q_min * static_cast<std::uint64_t>(h_min) <=
           q_val * static_cast<std::uint64_t>(h_val) + params_.dragonfly.ugal_threshold;
  }
  // Time until each port has sent what it holds.
  const Ps bias = transfer_time(params_.dragonfly.ugal_threshold, params_.link_bandwidth);
  return backlog(min_port) * h_min <= backlog(val_port) * h_val + bias;
}

void Dragonfly::choose_path(Packet& p)
{
  p.bnum        = -1;
  const int sw  = static_cast<int>(p.upper);
  const int grp = sw / a_, dgrp = (p.dst_node / p_) / a_;
  const DragonflyRouting r = params_.dragonfly.routing;
  if (r == DragonflyRouting::Minimal || grp == dgrp || g_ < 3)
    return;
  // A random group other than the source's and the destination's.
  int inter    = static_cast<int>(routing_rng_.below(static_cast<std::uint64_t>(g_ - 2)));
  const int lo = std::min(grp, dgrp), hi = std::max(grp, dgrp);
  inter += inter >= lo ? 1 : 0;
  inter += inter >= hi ? 1 : 0;
  if (r == DragonflyRouting::Ugal &&
      ugal_minimal(sw, first_port(sw, dgrp, p.dst_node), first_port(sw, inter, p.dst_node),
                   hops_minimal(sw, p.dst_node), hops_via(sw, inter, p.dst_node)))
    return;
  p.bnum = inter;
  ++stats_.nonminimal_packets;
}

int Dragonfly::next_port(Packet& p)
{
  const int sw  = static_cast<int>(p.upper);
  const int grp = sw / a_;
  const int dsw = p.dst_node / p_;
  if (p.bnum == grp)
    p.bnum = -1; // in the intermediate group: on to the destination
  const int target = p.bnum >= 0 ? static_cast<int>(p.bnum) : dsw / a_;
  if (sw == dsw) {
    p.last_link = true;
    p.vc        = 0;
    return port_id(sw, p.dst_node % p_);
  }
  ++p.level;      // switch-to-switch links crossed
  p.vc = p.phase; // the virtual channel: global links crossed before this link (file comment)
  if (grp == target) {
    p.upper = dsw;
    return local_port(sw, dsw);
  }
  const int gp = gateway(grp, target, p.dst_node);
  const int gi = gp / h_;
  if (gi != sw % a_) {
    p.upper = grp * a_ + gi;
    return local_port(sw, static_cast<int>(p.upper));
  }
  ++stats_.global_hops;
  ++p.phase;
  p.upper = far_switch(grp, gp);
  return global_port(sw, gp);
}

Ps Dragonfly::forward_delay()
{
  Ps d = params_.switch_latency;
  if (params_.jitter > 0)
    d += static_cast<Ps>(jitter_rng_.below(static_cast<std::uint64_t>(params_.jitter) + 1));
  return d;
}

Ps Dragonfly::reserve(int id, Ps ready, const Packet* p)
{
  const Ps start = std::max(ready, ports_[static_cast<std::size_t>(id)].busy_until);
  occupy(id, start, start - ready, p);
  return start;
}

void Dragonfly::occupy(int id, Ps start, Ps waited, const Packet* p)
{
#if SHMEMSIM_OBSERVERS
  if (obs_ != nullptr)
    obs_->packet_hop(start, p->trace_id, id, waited, p->wire_bytes);
#endif
  stats_.queueing_total += waited;
  ports_[static_cast<std::size_t>(id)].carry(start, p->ser);
  ++stats_.hops;
}

Ps Dragonfly::inject(Packet* p, Ps ready)
{
  SHMEMSIM_ASSERT(p->src_node != p->dst_node, "a packet to its own node entered the fabric");
  p->flow_seq      = flows_.injected(p->src_node, p->dst_node);
  p->waiting_since = ready;
  p->level         = 0;
  p->upper         = p->src_node / p_;
  p->bnum          = -1;
  p->going_down    = false; // path not chosen yet
  p->last_link     = false;
  p->ser           = serialization(p->wire_bytes);
  p->phase         = 0;
  stats_.wire_bytes += p->wire_bytes;
  if (credit_mode()) {
    credits_->inject(p, ready);
    return ready + p->ser;
  }
  const Ps start = reserve(p->src_node, ready, p);
  q_.schedule<&Dragonfly::hop>(start + local_latency_ + forward_delay(), this, reinterpret_cast<std::uint64_t>(p));
  return start + p->ser;
}

void Dragonfly::hop(std::uint64_t packet_ptr)
{
  auto* p        = reinterpret_cast<Packet*>(packet_ptr);
  const int id   = route(*p);
  const Ps start = reserve(id, q_.now(), p);
  if (p->last_link) {
    q_.schedule<&Dragonfly::arrive_event>(start + p->ser + local_latency_, this, packet_ptr);
    return;
  }
  q_.schedule<&Dragonfly::hop>(start + latency(id) + forward_delay(), this, packet_ptr);
}

int Dragonfly::route(Packet& p)
{
  if (!p.going_down) { // at the source switch
    choose_path(p);
    p.going_down = true;
  }
  return next_port(p);
}

void Dragonfly::arrive(Packet* p)
{
  ++stats_.packets;
  stats_.max_switch_hops = std::max(stats_.max_switch_hops, static_cast<std::uint64_t>(p->level));
  if (flows_.arrived_late(p->src_node, p->dst_node, p->flow_seq))
    ++stats_.reordered_packets;
  if (credit_mode())
    credits_->sink_drain(p);
  clients_[static_cast<std::size_t>(p->dst_node)]->on_packet_arrival(p);
}

} // namespace shmemsim::sim
