// The whole simulated network of a run: the fabric (a fat tree or a dragonfly), one NIC per node (platform.nic.per = node)
// or per endpoint (pe), and one Portals NI per endpoint (process), placed on nodes by the caller.
#pragma once

#include "sim/Fabric.hpp"
#include "sim/Simulation.hpp"
#include "sim/nic/Nic.hpp"
#include "base/PortalsObserver.hpp"
#include "sim/portals_model/Ni.hpp"

#include <memory>
#include <vector>

namespace shmemsim::portals {

class Network {
public:
  /// `node_of[ep]` places endpoint ep on a node of `sim`.
  Network(sim::Simulation& sim, const sim::FabricParams& fabric, const nic::NicParams& nic, const Limits& limits,
          const std::vector<int>& node_of);
  Network(const Network&)            = delete;
  Network& operator=(const Network&) = delete;
  ~Network();

  sim::Simulation& simulation() { return sim_; }
  sim::Fabric& fabric() { return *fabric_; }
  int endpoints() const { return static_cast<int>(nis_.size()); }
  int nodes() const { return static_cast<int>(pcie_.size()); }
  Ni& ni(int ep) { return *nis_.at(static_cast<std::size_t>(ep)); }
  /// The NICs: one per node, or one per endpoint (then those of nodes without endpoints).
  int nic_count() const { return static_cast<int>(nics_.size()); }
  nic::Nic& nic(int i) { return *nics_.at(static_cast<std::size_t>(i)); }

  /// Sum of every NIC's counters.
  nic::NicStats totals() const;
  const nic::LatencyStats& latency() const { return latency_; }
  /// Report what the fabric, the NICs and the NIs do to `obs` (null: nobody).
  void set_observer(PortalsObserver* obs);

private:
  sim::Simulation& sim_;
  std::unique_ptr<sim::Fabric> fabric_;
  nic::Directory dir_;
  nic::LatencyStats latency_;
  std::unique_ptr<nic::PairStates> pairs_;            ///< shared by the NICs
  std::vector<std::unique_ptr<nic::Pcie>> pcie_;      ///< per node
  std::vector<std::unique_ptr<nic::NodePort>> ports_; ///< per node
  std::vector<std::unique_ptr<nic::Nic>> nics_;
  std::vector<std::unique_ptr<ResourcePool>> pools_; ///< per NIC
  std::vector<std::unique_ptr<Ni>> nis_;
};

} // namespace shmemsim::portals
