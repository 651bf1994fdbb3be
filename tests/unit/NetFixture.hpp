// Helpers for model-level tests: a small cluster built directly from parameter structs.
#pragma once

#include "sim/Simulation.hpp"
#include "sim/portals_model/Network.hpp"

#include <memory>
#include <vector>

namespace shmemsim::testing {

struct Cluster {
  sim::HostParams hosts;
  sim::NoiseParams noise; ///< off unless a test turns it on
  sim::FabricParams fabric;
  nic::NicParams nic;
  portals::Limits limits;
  std::vector<int> node_of;
  std::unique_ptr<sim::Simulation> sim;
  std::unique_ptr<portals::Network> net;

  /// 16 nodes on a two-level fat tree (4 leaves of 4 nodes, 4 spines): 4 paths between leaves.
  Cluster()
  {
    hosts.nodes          = 16;
    hosts.cores_per_node = 4;
    fabric.levels        = 2;
    fabric.down          = {4, 4};
    fabric.up            = {4};
    for (int i = 0; i < 16; ++i)
      node_of.push_back(i);
  }

  void build(std::uint64_t seed = 1)
  {
    sim = std::make_unique<sim::Simulation>(hosts, seed, noise);
    net = std::make_unique<portals::Network>(*sim, fabric, nic, limits, node_of);
  }
  portals::Ni& ni(int ep) { return net->ni(ep); }
};

/// A target buffer on PT 0 of every endpoint, counted by a CT (CT_COMM), and a source MD counted
/// by another CT (CT_ACK | CT_REPLY).
struct Endpoints {
  struct Ep {
    std::vector<std::byte> src, dst;
    portals::CtHandle md_ct, le_ct;
    portals::MdHandle md;
    portals::LeHandle le;
  };
  std::vector<Ep> eps;

  Endpoints(portals::Network& net, std::size_t src_bytes, std::size_t dst_bytes, std::uint32_t md_options)
  {
    eps.resize(static_cast<std::size_t>(net.endpoints()));
    for (int i = 0; i < net.endpoints(); ++i) {
      Ep& e    = eps[static_cast<std::size_t>(i)];
      auto& ni = net.ni(i);
      e.src.resize(src_bytes);
      e.dst.resize(dst_bytes);
      ni.ct_alloc(&e.md_ct);
      ni.ct_alloc(&e.le_ct);
      std::uint32_t pt;
      ni.pt_alloc(0, &pt);
      portals::LeDesc le{e.dst.data(), e.dst.size(),
                         portals::LE_OP_PUT | portals::LE_OP_GET | portals::LE_EVENT_CT_COMM, e.le_ct};
      ni.le_append(0, le, &e.le);
      portals::MdDesc md{e.src.data(), e.src.size(), md_options, e.md_ct};
      ni.md_bind(md, &e.md);
    }
  }
  Ep& operator[](int i) { return eps[static_cast<std::size_t>(i)]; }
};

} // namespace shmemsim::testing
