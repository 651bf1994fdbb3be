// The software stack of Portals over InfiniBand: one NIC per process (platform.nic.per = pe), a
// progress thread that handles target work one item at a time (platform.nic.progress = thread).
// Dates are computed by hand from docs/model.md.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace shmemsim;
using namespace shmemsim::portals;
using shmemsim::Ps;
using shmemsim::testing::Cluster;
using shmemsim::testing::Endpoints;
using shmemsim::testing::isolated;

namespace {

/// Endpoints 0 and 1 each issue one 8-byte atomic sum to endpoint 2 at t=0; returns the dates the
/// target's counter reached 1 and 2, and the hand-computed date of the first.
nlohmann::json two_atomics(nic::TargetEngine engine)
{
  Cluster c;
  c.nic.progress        = engine;
  c.nic.recv_overhead   = 3'000'000; // large beside the few ns the two requests' arrivals differ by
  c.nic.atomic_overhead = 2'000'000;
  c.build();
  Endpoints e(*c.net, 8, 8, MD_EVENT_CT_ACK);
  for (int ep = 0; ep < 2; ++ep)
    c.sim->spawn("ep", ep,
                 [&, ep] { c.ni(ep).atomic(e[ep].md, 0, 8, AckReq::OcAck, 2, 0, 0, AtomicOp::Sum, Datatype::Uint64); });
  Ps first = -1, second = -1;
  c.sim->spawn("target", 2, [&] {
    CtEvent ev;
    c.ni(2).ct_wait(e[2].le_ct, 1, &ev);
    first = c.sim->queue().now();
    c.ni(2).ct_wait(e[2].le_ct, 2, &ev);
    second = c.sim->queue().now();
  });
  c.sim->run();
  const auto& n = c.nic;
  // Atomic operands travel in the command: no DMA read.
  const Ps arrive = n.pcie_latency + n.send_overhead + c.net->fabric().uncontended_time(0, 2, 8 + c.fabric.header_size);
  return {{"first", first},
          {"second", second},
          {"expect_first", arrive + n.recv_overhead + n.atomic_overhead},
          {"recv", n.recv_overhead},
          {"atomic", n.atomic_overhead}};
}

} // namespace

TEST(ProgressThread, TwoAtomicsToOneTargetCompleteOneAfterTheOther)
{
  auto r = isolated([] { return two_atomics(nic::TargetEngine::Thread); });
  // The first: its header, then its atomic, on the progress thread. The second waits for both.
  EXPECT_EQ(r["first"], r["expect_first"]);
  EXPECT_EQ(r["second"].get<Ps>(), r["first"].get<Ps>() + r["recv"].get<Ps>() + r["atomic"].get<Ps>());
}

TEST(ProgressThread, OffloadEnginesOverlapTheSameTwoAtomics)
{
  auto r = isolated([] { return two_atomics(nic::TargetEngine::Offload); });
  EXPECT_EQ(r["first"], r["expect_first"]);
  // The receive engine takes the second header while the atomic unit runs the first atomic: the
  // second completes one receive time (the longer stage) after the first.
  EXPECT_EQ(r["second"].get<Ps>(), r["first"].get<Ps>() + r["recv"].get<Ps>());
}

// One simulation per process (SimGrid's engine and clock are per process): one isolated run each.
nlohmann::json ack_date(nic::TargetEngine engine)
{
  Cluster c;
  c.nic.progress = engine;
  c.build();
  Endpoints e(*c.net, 64, 64, MD_EVENT_CT_ACK);
  Ps acked = -1;
  c.sim->spawn("sender", 0, [&] {
    CtEvent ev;
    c.ni(0).put(e[0].md, 0, 64, AckReq::OcAck, 1, 0, 0);
    c.ni(0).ct_wait(e[0].md_ct, 1, &ev);
    acked = c.sim->queue().now();
  });
  c.sim->run();
  const auto& n = c.nic;
  const auto& f = c.net->fabric();
  // docs/model.md, closed forms: delivery, then the ACK's crossing and PCIe, then (thread) the
  // initiator's progress thread.
  Ps expect = n.pcie_latency + n.send_overhead + n.pcie_latency + transfer_time(64, n.pcie_bandwidth) +
              f.uncontended_time(0, 1, 64 + c.fabric.header_size) + n.recv_overhead +
              transfer_time(64, n.pcie_bandwidth) + n.pcie_latency + f.uncontended_time(1, 0, c.fabric.header_size) +
              n.pcie_latency;
  if (engine == nic::TargetEngine::Thread)
    expect += n.recv_overhead;
  return {{"acked", acked}, {"expect", expect}};
}

TEST(ProgressThread, AckCountsAfterTheInitiatorsThreadHandledIt)
{
  auto off = isolated([] { return ack_date(nic::TargetEngine::Offload); });
  auto thr = isolated([] { return ack_date(nic::TargetEngine::Thread); });
  EXPECT_EQ(off["acked"], off["expect"]);
  EXPECT_EQ(thr["acked"], thr["expect"]);
}

TEST(NicScope, PerPeGivesEachPeItsOwnLimits)
{
  nlohmann::json r;
  for (auto scope : {nic::NicScope::Node, nic::NicScope::Pe})
    r.update(isolated([scope] {
      nlohmann::json j;
      Cluster c;
      c.node_of        = {0, 0, 1};
      c.limits.max_cts = 2;
      c.nic.per        = scope;
      c.build();
      CtHandle a, b, d;
      nlohmann::json k;
      k["pe0_first"]                                = to_string(c.ni(0).ct_alloc(&a));
      k["pe0_second"]                               = to_string(c.ni(0).ct_alloc(&b));
      k["pe1_first"]                                = to_string(c.ni(1).ct_alloc(&d)); // the other PE of node 0
      k["pe2_first"]                                = to_string(c.ni(2).ct_alloc(&d)); // node 1
      k["nics"]                                     = c.net->nic_count();
      j[scope == nic::NicScope::Pe ? "pe" : "node"] = k;
      return j;
    }));
  // One NIC per node: the node's two PEs share its 2 counters.
  EXPECT_EQ(r["node"]["pe0_second"], "PTL_OK");
  EXPECT_EQ(r["node"]["pe1_first"], "PTL_NO_SPACE");
  EXPECT_EQ(r["node"]["pe2_first"], "PTL_OK");
  EXPECT_EQ(r["node"]["nics"], 16);
  // One NI per PE: each has 2.
  EXPECT_EQ(r["pe"]["pe0_second"], "PTL_OK");
  EXPECT_EQ(r["pe"]["pe1_first"], "PTL_OK");
  EXPECT_EQ(r["pe"]["pe2_first"], "PTL_OK");
  EXPECT_EQ(r["pe"]["nics"], 3 + 14); // one per PE, and one for each node without PEs
}

TEST(NicScope, PerPeGivesEachPeItsOwnProgressThread)
{
  // Two PEs of node 1 each receive one atomic from node 0's two PEs: with one progress thread per
  // node the second waits for the first; with one per PE both complete together.
  nlohmann::json r;
  for (auto scope : {nic::NicScope::Node, nic::NicScope::Pe})
    r.update(isolated([scope] {
      nlohmann::json j;
      Cluster c;
      c.node_of             = {0, 0, 1, 1};
      c.nic.per             = scope;
      c.nic.progress        = nic::TargetEngine::Thread;
      c.nic.recv_overhead   = 3'000'000;
      c.nic.atomic_overhead = 2'000'000;
      c.build();
      Endpoints e(*c.net, 8, 8, MD_EVENT_CT_ACK);
      for (int ep = 0; ep < 2; ++ep)
        c.sim->spawn("ep", 0, [&, ep] {
          c.ni(ep).atomic(e[ep].md, 0, 8, AckReq::OcAck, 2 + ep, 0, 0, AtomicOp::Sum, Datatype::Uint64);
        });
      std::vector<Ps> done(2, -1);
      for (int t = 0; t < 2; ++t)
        c.sim->spawn("target", 1, [&, t] {
          CtEvent ev;
          c.ni(2 + t).ct_wait(e[2 + t].le_ct, 1, &ev);
          done[static_cast<std::size_t>(t)] = c.sim->queue().now();
        });
      c.sim->run();
      j[scope == nic::NicScope::Pe ? "pe" : "node"] = std::llabs(done[1] - done[0]);
      return j;
    }));
  EXPECT_EQ(r["node"], 5'000'000);       // recv + atomic of the other request
  EXPECT_LT(r["pe"].get<Ps>(), 100'000); // only the injection and PCIe of the two differ (shared PCIe)
}
