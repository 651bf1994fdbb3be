#include "sim/portals_model/Network.hpp"

#include "sim/Dragonfly.hpp"
#include "sim/FatTree.hpp"
#include "base/Assert.hpp"

namespace shmemsim::portals {

Network::Network(sim::Simulation& sim, const sim::FabricParams& fabric, const nic::NicParams& nicp,
                 const Limits& limits, const std::vector<int>& node_of)
    : sim_(sim)
{
  const int nodes = sim.node_count();
  const sim::FabricSink sink{.buffer = nicp.rx_buffer, .bandwidth = nicp.pcie_bandwidth};
  if (fabric.topology == sim::Topology::Dragonfly)
    fabric_ = std::make_unique<sim::Dragonfly>(fabric, nodes, sim.queue(), sim.rng(sim::RngPurpose::Routing),
                                               sim.rng(sim::RngPurpose::Jitter), sink);
  else
    fabric_ = std::make_unique<sim::FatTree>(fabric, nodes, sim.queue(), sim.rng(sim::RngPurpose::Routing),
                                             sim.rng(sim::RngPurpose::Jitter), sink);
  dir_.node_of      = node_of;
  pairs_            = std::make_unique<nic::PairStates>();
  const bool per_pe = nicp.per == nic::NicScope::Pe;
  const int eps     = static_cast<int>(node_of.size());
  // NIC index of each endpoint: its node's, or one of its own; endpoints number per NIC.
  std::vector<int> nic_node; // node of each NIC
  std::vector<int> node_nic(static_cast<std::size_t>(nodes), -1);
  std::vector<int> per_nic;
  for (int ep = 0; ep < eps; ++ep) {
    const int n = node_of[static_cast<std::size_t>(ep)];
    int& shared = node_nic.at(static_cast<std::size_t>(n));
    if (per_pe || shared < 0) {
      shared = static_cast<int>(nic_node.size());
      nic_node.push_back(n);
      per_nic.push_back(0);
    }
    dir_.nic_of.push_back(shared);
    dir_.local_of.push_back(per_nic[static_cast<std::size_t>(shared)]++);
  }
  // Nodes without endpoints still get a NIC (traffic patterns address nodes).
  for (int n = 0; n < nodes; ++n) {
    if (node_nic[static_cast<std::size_t>(n)] < 0) {
      node_nic[static_cast<std::size_t>(n)] = static_cast<int>(nic_node.size());
      nic_node.push_back(n);
    }
  }
  dir_.handler_of.assign(node_of.size(), nullptr);
  for (int n = 0; n < nodes; ++n) {
    pcie_.push_back(std::make_unique<nic::Pcie>());
    ports_.push_back(std::make_unique<nic::NodePort>(dir_));
    fabric_->attach(n, ports_.back().get());
  }
  for (std::size_t i = 0; i < nic_node.size(); ++i) {
    const int n = nic_node[i];
    nics_.push_back(std::make_unique<nic::Nic>(static_cast<int>(i), n, nicp, *fabric_, sim.queue(), dir_, latency_,
                                               *pcie_.at(static_cast<std::size_t>(n)), *pairs_));
    nics_.back()->set_progress_detours(sim.detours_for(sim::Simulation::kNoiseKeyOthers + i));
    dir_.nics.push_back(nics_.back().get());
    pools_.push_back(std::make_unique<ResourcePool>());
  }
  for (int ep = 0; ep < eps; ++ep) {
    const auto k = static_cast<std::size_t>(dir_.nic_of[static_cast<std::size_t>(ep)]);
    nis_.push_back(std::make_unique<Ni>(sim, *nics_.at(k), ep, eps, limits, *pools_.at(k)));
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
