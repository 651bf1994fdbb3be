#include "sim/portals_model/Network.hpp"

namespace shmemsim::portals {

Network::Network(sim::Simulation& sim, const sim::FabricParams& fabric, const nic::NicParams& nicp, const Limits& limits,
                 const std::vector<int>& node_of)
    : sim_(sim)
{
  const int nodes = sim.node_count();
  fabric_ = std::make_unique<sim::FatTree>(fabric, nodes, sim.queue(), sim.rng(sim::RngPurpose::Routing),
                                           sim.rng(sim::RngPurpose::Jitter));
  dir_.node_of = node_of;
  std::vector<int> per_node(static_cast<std::size_t>(nodes), 0);
  for (int n : node_of)
    dir_.local_of.push_back(per_node.at(static_cast<std::size_t>(n))++);
  dir_.handler_of.assign(node_of.size(), nullptr);
  for (int n = 0; n < nodes; ++n)
    nics_.push_back(std::make_unique<nic::Nic>(n, nicp, *fabric_, sim.queue(), dir_, latency_));
  const int eps = static_cast<int>(node_of.size());
  for (int ep = 0; ep < eps; ++ep) {
    nis_.push_back(std::make_unique<Ni>(sim, *nics_.at(static_cast<std::size_t>(node_of[static_cast<std::size_t>(ep)])), ep,
                                        eps, limits));
    dir_.handler_of[static_cast<std::size_t>(ep)] = nis_.back().get();
  }
}

Network::~Network() = default;

nic::NicStats Network::totals() const
{
  nic::NicStats t;
  for (const auto& n : nics_) {
    const nic::NicStats& s = n->stats();
    t.messages += s.messages;
    t.request_packets += s.request_packets;
    t.deliveries += s.deliveries;
    t.out_of_order += s.out_of_order;
    t.failed_deliveries += s.failed_deliveries;
    t.acks_sent += s.acks_sent;
    t.acks_received += s.acks_received;
    t.replies_received += s.replies_received;
    t.bytes_delivered += s.bytes_delivered;
    t.held_packets += s.held_packets;
    t.independent_queues += s.independent_queues;
    t.queue_wait += s.queue_wait;
  }
  return t;
}

void Network::set_observer(PortalsObserver* obs)
{
  fabric_->set_observer(obs);
  for (auto& n : nics_)
    n->set_observer(obs);
  for (auto& ni : nis_)
    ni->set_observer(obs);
}

} // namespace shmemsim::portals
