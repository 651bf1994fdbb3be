// The network model against what users rely on: hand-computed latency and bandwidth, ordering
// (violated under multipath routing, kept with total data ordering), counters, volatile puts,
// atomics under contention, resource limits, deadlock reports, determinism.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include "sim/Notifier.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace shmemsim;
using namespace shmemsim::portals;
using shmemsim::Ps;
using shmemsim::testing::Cluster;
using shmemsim::testing::Endpoints;
using shmemsim::testing::isolated;

namespace {

/// Issue one put from endpoint 0 to `dst` at t=0; return when the target's counter saw it.
nlohmann::json one_put(std::uint32_t md_options, std::uint64_t size, int dst)
{
  Cluster c;
  c.build();
  Endpoints e(*c.net, size, size, md_options);
  Ps seen = -1;
  c.sim->spawn("sender", 0, [&] { c.ni(0).put(e[0].md, 0, size, AckReq::CtAck, dst, 0, 0); });
  c.sim->spawn("receiver", c.node_of[static_cast<std::size_t>(dst)], [&] {
    CtEvent ev;
    c.ni(dst).ct_wait(e[dst].le_ct, 1, &ev);
    seen = c.sim->queue().now();
  });
  c.sim->run();
  const auto& n             = c.nic;
  const auto& f             = c.fabric;
  const bool inline_payload = (md_options & MD_VOLATILE) != 0 && size <= c.limits.max_volatile_size;
  Ps expect                 = n.pcie_latency + n.send_overhead;
  if (!inline_payload)
    expect += n.pcie_latency + transfer_time(size, n.pcie_bandwidth);
  expect += c.net->fabric().uncontended_time(0, c.node_of[static_cast<std::size_t>(dst)],
                                             static_cast<std::uint32_t>(size) + f.header_size);
  expect += n.recv_overhead + transfer_time(size, n.pcie_bandwidth) + n.pcie_latency;
  return {{"seen", seen},
          {"expect", expect},
          {"links", c.net->fabric().path_links(0, c.node_of[static_cast<std::size_t>(dst)])}};
}

struct AllToAllResult {
  std::uint64_t ooo, deliveries, reordered, held;
};

/// Every endpoint puts `rounds` bursts of `kBurst` messages of `size` bytes to every other
/// endpoint, 64 in flight. Back-to-back messages of one pair are what can overtake each other.
constexpr int kBurst = 8;
nlohmann::json alltoall(Routing routing, bool tdo, std::uint64_t size, int rounds, bool lookahead = true,
                        std::uint64_t seed = 7)
{
  Cluster c;
  // Hosts inject at wire speed, so the fabric itself is the bottleneck and queues differ per path.
  c.nic.pcie_bandwidth          = 128'000'000'000ull;
  c.fabric.routing              = routing;
  c.limits.total_data_ordering  = tdo;
  c.limits.max_waw_ordered_size = 1 << 20;
  c.build(seed);
  c.sim->queue().set_lookahead(lookahead);
  const int n = c.net->endpoints();
  Endpoints e(*c.net, size, size * static_cast<std::size_t>(n), MD_EVENT_CT_ACK);
  for (int ep = 0; ep < n; ++ep)
    c.sim->spawn("ep" + std::to_string(ep), ep, [&, ep] {
      auto& ni             = c.ni(ep);
      std::uint64_t issued = 0;
      CtEvent ev;
      for (int r = 0; r < rounds; ++r)
        for (int k = 1; k < n; ++k)
          for (int b = 0; b < kBurst; ++b) {
            if (issued >= 64)
              ni.ct_wait(e[ep].md_ct, issued - 63, &ev);
            ni.put(e[ep].md, 0, size, AckReq::CtAck, (ep + k) % n, 0, static_cast<std::uint64_t>(ep) * size);
            ++issued;
          }
      ni.ct_wait(e[ep].md_ct, issued, &ev);
    });
  const auto status        = c.sim->run();
  const auto t             = c.net->totals();
  std::uint64_t ct_success = 0;
  for (int ep = 0; ep < n; ++ep) {
    CtEvent ev;
    c.ni(ep).ct_get(e[ep].md_ct, &ev);
    ct_success += ev.success;
  }
  return {{"status", static_cast<int>(status)},
          {"ooo", t.out_of_order},
          {"deliveries", t.deliveries},
          {"reordered", c.net->fabric().stats().reordered_packets},
          {"held", t.held_packets},
          {"acks", t.acks_received},
          {"ct_success", ct_success},
          {"events", c.sim->queue().events_processed()},
          {"end", c.sim->end_time()},
          {"delivery_p99", c.net->latency().delivery.quantile(0.99)}};
}

} // namespace

TEST(Latency, VolatilePutAcrossTheTreeMatchesHandComputation)
{
  auto r = isolated([] { return one_put(MD_VOLATILE | MD_EVENT_CT_ACK, 8, 15); });
  EXPECT_EQ(r["links"], 4); // node 0 -> leaf -> spine -> leaf -> node 15
  EXPECT_EQ(r["seen"], r["expect"]);
}

TEST(Latency, DmaPutWithinOneLeafMatchesHandComputation)
{
  auto r = isolated([] { return one_put(MD_EVENT_CT_ACK, 1000, 1); });
  EXPECT_EQ(r["links"], 2);
  EXPECT_EQ(r["seen"], r["expect"]);
}

TEST(Latency, PingPongRoundTripIsTwiceTheOneWayTime)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, 8, 8, MD_VOLATILE | MD_EVENT_CT_ACK);
    const int iters = 10;
    Ps elapsed      = 0;
    c.sim->spawn("ping", 0, [&] {
      CtEvent ev;
      for (int i = 0; i < iters; ++i) {
        c.ni(0).put(e[0].md, 0, 8, AckReq::CtAck, 15, 0, 0);
        c.ni(0).ct_wait(e[0].le_ct, static_cast<std::uint64_t>(i) + 1, &ev);
      }
      elapsed = c.sim->queue().now();
    });
    c.sim->spawn("pong", 15, [&] {
      CtEvent ev;
      for (int i = 0; i < iters; ++i) {
        c.ni(15).ct_wait(e[15].le_ct, static_cast<std::uint64_t>(i) + 1, &ev);
        c.ni(15).put(e[15].md, 0, 8, AckReq::CtAck, 0, 0, 0);
      }
    });
    c.sim->run();
    const auto& n    = c.nic;
    const Ps one_way = n.pcie_latency + n.send_overhead +
                       c.net->fabric().uncontended_time(0, 15, 8 + c.fabric.header_size) + n.recv_overhead +
                       transfer_time(8, n.pcie_bandwidth) + n.pcie_latency;
    return nlohmann::json{{"elapsed", elapsed}, {"expect", 2 * iters * one_way}};
  });
  EXPECT_EQ(r["elapsed"], r["expect"]);
}

TEST(Bandwidth, LongStreamRunsAtTheBottleneckRate)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    const std::uint64_t msg = 1 << 20;
    const int count         = 64;
    Endpoints e(*c.net, msg, msg, MD_EVENT_CT_ACK);
    Ps done = 0;
    c.sim->spawn("stream", 0, [&] {
      CtEvent ev;
      for (int i = 0; i < count; ++i) {
        if (i >= 4)
          c.ni(0).ct_wait(e[0].md_ct, static_cast<std::uint64_t>(i - 3), &ev);
        c.ni(0).put(e[0].md, 0, msg, AckReq::CtAck, 15, 0, 0);
      }
      c.ni(0).ct_wait(e[0].md_ct, count, &ev);
      done = c.sim->queue().now();
    });
    c.sim->run();
    const double measured = static_cast<double>(msg * count) / ps_to_seconds(done);
    const double pcie     = static_cast<double>(c.nic.pcie_bandwidth) / 8;
    const double wire =
        static_cast<double>(c.fabric.link_bandwidth) / 8 * c.fabric.mtu / (c.fabric.mtu + c.fabric.header_size);
    return nlohmann::json{{"measured", measured}, {"expect", std::min(pcie, wire)}};
  });
  EXPECT_NEAR(r["measured"].get<double>() / r["expect"].get<double>(), 1.0, 0.01);
}

TEST(Bandwidth, WireBoundStreamWhenPcieIsFaster)
{
  auto r = isolated([] {
    Cluster c;
    c.nic.pcie_bandwidth = 128'000'000'000ull;
    c.build();
    const std::uint64_t msg = 1 << 20;
    Endpoints e(*c.net, msg, msg, MD_EVENT_CT_ACK);
    Ps done = 0;
    c.sim->spawn("stream", 0, [&] {
      CtEvent ev;
      for (int i = 0; i < 32; ++i)
        c.ni(0).put(e[0].md, 0, msg, AckReq::CtAck, 15, 0, 0);
      c.ni(0).ct_wait(e[0].md_ct, 32, &ev);
      done = c.sim->queue().now();
    });
    c.sim->run();
    const double measured = static_cast<double>(msg * 32) / ps_to_seconds(done);
    const double wire =
        static_cast<double>(c.fabric.link_bandwidth) / 8 * c.fabric.mtu / (c.fabric.mtu + c.fabric.header_size);
    return nlohmann::json{{"measured", measured}, {"expect", wire}};
  });
  EXPECT_NEAR(r["measured"].get<double>() / r["expect"].get<double>(), 1.0, 0.01);
}

TEST(Ordering, RandomRoutingDeliversOutOfOrder)
{
  auto r = isolated([] { return alltoall(Routing::Random, false, 4096, 4); });
  EXPECT_EQ(r["status"], 0);
  EXPECT_GT(r["ooo"].get<std::uint64_t>(), 0u);
  EXPECT_GT(r["reordered"].get<std::uint64_t>(), 0u);
}

TEST(Ordering, AdaptiveRoutingDeliversOutOfOrder)
{
  auto r = isolated([] { return alltoall(Routing::Adaptive, false, 4096, 4); });
  EXPECT_EQ(r["status"], 0);
  EXPECT_GT(r["ooo"].get<std::uint64_t>(), 0u);
}

TEST(Ordering, DeterministicRoutingKeepsOrder)
{
  auto r = isolated([] { return alltoall(Routing::DModK, false, 4096, 4); });
  EXPECT_EQ(r["ooo"], 0);
  EXPECT_EQ(r["reordered"], 0);
}

TEST(Ordering, TotalDataOrderingNeverDeliversOutOfOrder)
{
  for (auto routing : {Routing::Random, Routing::Adaptive}) {
    auto r = isolated([routing] { return alltoall(routing, true, 4096, 4); });
    EXPECT_EQ(r["status"], 0);
    EXPECT_EQ(r["ooo"], 0) << to_string(routing);
    EXPECT_GT(r["reordered"].get<std::uint64_t>(), 0u) << "the fabric still reorders; the NIC restores order";
    EXPECT_GT(r["held"].get<std::uint64_t>(), 0u);
  }
}

TEST(Ordering, MessagesAboveMaxWawOrderedSizeAreNotOrdered)
{
  auto r = isolated([] {
    Cluster c;
    c.nic.pcie_bandwidth          = 128'000'000'000ull;
    c.fabric.routing              = Routing::Random;
    c.limits.total_data_ordering  = true;
    c.limits.max_waw_ordered_size = 64; // 4 KiB messages exceed it
    c.build(7);
    const int n = 16;
    Endpoints e(*c.net, 4096, 4096 * n, MD_EVENT_CT_ACK);
    for (int ep = 0; ep < n; ++ep)
      c.sim->spawn("ep", ep, [&, ep] {
        CtEvent ev;
        for (int r = 0; r < 4; ++r)
          for (int k = 1; k < n; ++k)
            for (int b = 0; b < kBurst; ++b)
              c.ni(ep).put(e[ep].md, 0, 4096, AckReq::CtAck, (ep + k) % n, 0, 0);
        c.ni(ep).ct_wait(e[ep].md_ct, 4 * (n - 1) * kBurst, &ev);
      });
    c.sim->run();
    return nlohmann::json{{"ooo", c.net->totals().out_of_order}, {"held", c.net->totals().held_packets}};
  });
  EXPECT_GT(r["ooo"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(r["held"], 0);
}

TEST(Counters, CtSuccessEqualsAcksReceived)
{
  auto r = isolated([] { return alltoall(Routing::Adaptive, false, 100, 3); });
  EXPECT_EQ(r["acks"], r["ct_success"]);
  EXPECT_EQ(r["acks"].get<std::uint64_t>(), 16u * 15u * 3u * kBurst);
  EXPECT_EQ(r["deliveries"].get<std::uint64_t>(), 16u * 15u * 3u * kBurst);
}

TEST(Counters, FailedDeliveryCountsAsFailureNotSuccess)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    std::vector<std::byte> src(64), dst(16);
    auto& a = c.ni(0);
    auto& b = c.ni(1);
    CtHandle ct, lect;
    a.ct_alloc(&ct);
    b.ct_alloc(&lect);
    MdHandle md;
    a.md_bind(MdDesc{src.data(), src.size(), MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY, ct}, &md);
    std::uint32_t pt;
    b.pt_alloc(3, &pt);
    LeHandle le;
    b.le_append(3, LeDesc{dst.data(), dst.size(), LE_OP_PUT | LE_NO_TRUNCATE | LE_EVENT_CT_COMM, lect}, &le);
    CtEvent ev;
    c.sim->spawn("a", 0, [&] {
      a.put(md, 0, 8, AckReq::CtAck, 1, 5, 0);  // no such portal entry: dropped
      a.put(md, 0, 64, AckReq::CtAck, 1, 3, 0); // does not fit, no truncation: dropped
      a.get(md, 0, 8, 1, 3, 0);                 // the entry does not allow gets
      a.put(md, 0, 8, AckReq::CtAck, 1, 3, 8);  // fits
      a.ct_wait(ct, 4, &ev);
    });
    c.sim->run();
    CtEvent target;
    b.ct_get(lect, &target);
    return nlohmann::json{{"success", ev.success}, {"failure", ev.failure}, {"target", target.success}};
  });
  EXPECT_EQ(r["success"], 1);
  EXPECT_EQ(r["failure"], 3);
  EXPECT_EQ(r["target"], 1);
}

TEST(DataMovement, VolatilePutCompletesLocallyAtIssue)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, 4096, 4096, MD_VOLATILE | MD_EVENT_CT_ACK);
    c.sim->spawn("writer", 0, [&] {
      std::memset(e[0].src.data(), 0x11, 4096);
      c.ni(0).put(e[0].md, 0, 64, AckReq::CtAck, 9, 0, 0);    // small: copied at issue
      std::memset(e[0].src.data(), 0x22, 4096);               // reuse the buffer at once
      c.ni(0).put(e[0].md, 0, 4096, AckReq::CtAck, 10, 0, 0); // large: read by DMA later
      std::memset(e[0].src.data(), 0x33, 4096);               // too early: the NIC reads this
      CtEvent ev;
      c.ni(0).ct_wait(e[0].md_ct, 2, &ev);
    });
    c.sim->run();
    const auto& u = c.ni(0).usage();
    return nlohmann::json{{"small", static_cast<int>(e[9].dst[0])},
                          {"small_last", static_cast<int>(e[9].dst[63])},
                          {"large", static_cast<int>(e[10].dst[0])},
                          {"volatile_puts", u.volatile_puts},
                          {"dma_puts", u.dma_puts}};
  });
  EXPECT_EQ(r["small"], 0x11);
  EXPECT_EQ(r["small_last"], 0x11);
  EXPECT_EQ(r["large"], 0x33);
  EXPECT_EQ(r["volatile_puts"], 1);
  EXPECT_EQ(r["dma_puts"], 1);
}

TEST(DataMovement, GetReadsRemoteMemoryAndCountsReply)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, 10000, 10000, MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY);
    for (std::size_t i = 0; i < 10000; ++i)
      e[12].dst[i] = static_cast<std::byte>(i * 7);
    c.sim->spawn("getter", 3, [&] {
      CtEvent ev;
      c.ni(3).get(e[3].md, 0, 10000, 12, 0, 0);
      c.ni(3).ct_wait(e[3].md_ct, 1, &ev);
    });
    c.sim->run();
    bool same = std::memcmp(e[3].src.data(), e[12].dst.data(), 10000) == 0;
    return nlohmann::json{{"same", same}};
  });
  EXPECT_TRUE(r["same"].get<bool>());
}

TEST(Atomics, FetchAddUnderContentionReturnsEveryValueOnce)
{
  auto r = isolated([] {
    Cluster c;
    c.fabric.routing = Routing::Adaptive;
    c.build(3);
    const int n = 16, per = 50;
    Endpoints e(*c.net, 8, 8, MD_VOLATILE | MD_EVENT_CT_REPLY);
    std::vector<std::vector<std::uint64_t>> got(n, std::vector<std::uint64_t>(per));
    std::vector<MdHandle> fetch_md(n);
    std::vector<CtHandle> fetch_ct(n);
    for (int ep = 0; ep < n; ++ep) {
      const std::uint64_t one = 1;
      std::memcpy(e[ep].src.data(), &one, 8);
      c.ni(ep).ct_alloc(&fetch_ct[static_cast<std::size_t>(ep)]);
      c.ni(ep).md_bind(MdDesc{got[static_cast<std::size_t>(ep)].data(), per * 8, MD_EVENT_CT_REPLY,
                              fetch_ct[static_cast<std::size_t>(ep)]},
                       &fetch_md[static_cast<std::size_t>(ep)]);
      c.sim->spawn("ep", ep, [&, ep] {
        CtEvent ev;
        for (int i = 0; i < per; ++i)
          c.ni(ep).fetch_atomic(fetch_md[static_cast<std::size_t>(ep)], static_cast<std::uint64_t>(i) * 8, e[ep].md, 0,
                                8, 5, 0, 0, AtomicOp::Sum, Datatype::Uint64);
        c.ni(ep).ct_wait(fetch_ct[static_cast<std::size_t>(ep)], per, &ev);
      });
    }
    c.sim->run();
    std::uint64_t counter;
    std::memcpy(&counter, e[5].dst.data(), 8);
    std::vector<int> seen(n * per, 0);
    bool ok = true;
    for (auto& v : got)
      for (auto x : v) {
        if (x >= seen.size() || seen[x]++)
          ok = false;
      }
    return nlohmann::json{{"counter", counter}, {"permutation", ok}};
  });
  EXPECT_EQ(r["counter"], 16 * 50);
  EXPECT_TRUE(r["permutation"].get<bool>());
}

TEST(Atomics, SwapFamilyThroughTheNetwork)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, 8, 8, MD_EVENT_CT_REPLY | MD_EVENT_CT_ACK);
    std::uint64_t target_init = 100;
    std::memcpy(e[7].dst.data(), &target_init, 8);
    std::uint64_t out[4] = {};
    CtHandle ct;
    MdHandle getmd;
    c.ni(0).ct_alloc(&ct);
    c.ni(0).md_bind(MdDesc{out, sizeof out, MD_EVENT_CT_REPLY, ct}, &getmd);
    c.sim->spawn("swapper", 0, [&] {
      CtEvent ev;
      std::uint64_t v = 5, cmp = 99;
      std::memcpy(e[0].src.data(), &v, 8);
      c.ni(0).swap(getmd, 0, e[0].md, 0, 8, 7, 0, 0, &cmp, AtomicOp::Cswap, Datatype::Uint64); // 99 != 100: no swap
      c.ni(0).ct_wait(ct, 1, &ev);
      cmp = 100;
      c.ni(0).swap(getmd, 8, e[0].md, 0, 8, 7, 0, 0, &cmp, AtomicOp::Cswap, Datatype::Uint64); // swaps in 5
      c.ni(0).ct_wait(ct, 2, &ev);
      c.ni(0).swap(getmd, 16, e[0].md, 0, 8, 7, 0, 0, nullptr, AtomicOp::Swap, Datatype::Uint64);
      c.ni(0).ct_wait(ct, 3, &ev);
    });
    c.sim->run();
    std::uint64_t final_value;
    std::memcpy(&final_value, e[7].dst.data(), 8);
    return nlohmann::json{{"f0", out[0]}, {"f1", out[1]}, {"f2", out[2]}, {"final", final_value}};
  });
  EXPECT_EQ(r["f0"], 100);
  EXPECT_EQ(r["f1"], 100);
  EXPECT_EQ(r["f2"], 5);
  EXPECT_EQ(r["final"], 5);
}

TEST(Watch, WritesIntoAWatchedWordAreToldAfterTheyLand)
{
  // Endpoint 5 watches the word at offset 8 of its buffer. Of endpoint 0's operations, the atomic
  // add into it and the put that covers part of it are told, with the value they left; the put
  // beside it and the get of it are not.
  auto r = isolated([] {
    struct Log final : WriteWatcher {
      nlohmann::json seen  = nlohmann::json::array();
      sim::Simulation* sim = nullptr;
      void watched_write(Ps t, int target, int initiator, const std::uint64_t* word,
                         const std::uint64_t* before) override
      {
        seen.push_back({{"t", t},
                        {"now", sim->queue().now()},
                        {"target", target},
                        {"from", initiator},
                        {"value", *word},
                        {"before", before != nullptr ? nlohmann::json(*before) : nlohmann::json()}});
      }
    } log;
    Cluster c;
    c.build();
    log.sim = c.sim.get();
    Endpoints e(*c.net, 32, 32, MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY);
    auto* word = reinterpret_cast<std::uint64_t*>(e[5].dst.data() + 8);
    *word      = 5;
    c.ni(5).watch_word(word, &log);
    c.sim->spawn("writer", 0, [&] {
      CtEvent ev;
      const std::uint64_t add = 7;
      std::memcpy(e[0].src.data(), &add, 8);
      c.ni(0).atomic(e[0].md, 0, 8, AckReq::CtAck, 5, 0, 8, AtomicOp::Sum, Datatype::Uint64);
      c.ni(0).ct_wait(e[0].md_ct, 1, &ev);
      std::memset(e[0].src.data(), 0x01, 32);
      c.ni(0).put(e[0].md, 0, 8, AckReq::CtAck, 5, 0, 0); // [0, 8): beside the word
      c.ni(0).ct_wait(e[0].md_ct, 2, &ev);
      c.ni(0).put(e[0].md, 0, 8, AckReq::CtAck, 5, 0, 12); // [12, 20): its upper half
      c.ni(0).ct_wait(e[0].md_ct, 3, &ev);
      c.ni(0).get(e[0].md, 16, 8, 5, 0, 8);
      c.ni(0).ct_wait(e[0].md_ct, 4, &ev);
    });
    c.sim->run();
    return log.seen;
  });
  ASSERT_EQ(r.size(), 2u) << r.dump();
  EXPECT_EQ(r[0]["target"], 5);
  EXPECT_EQ(r[0]["from"], 0);
  EXPECT_EQ(r[0]["value"], 12u);
  EXPECT_EQ(r[0]["before"], 5u);
  EXPECT_EQ(r[1]["from"], 0);
  EXPECT_EQ(r[1]["value"], 0x010101010000000cull);
  EXPECT_TRUE(r[1]["before"].is_null()); // a put: not known
  EXPECT_GT(r[0]["t"].get<Ps>(), 0);
  EXPECT_EQ(r[0]["t"], r[0]["now"]);
  EXPECT_GT(r[1]["t"].get<Ps>(), r[0]["t"].get<Ps>());
}

TEST(Limits, ExhaustingCtsAndMdsReportsNoSpaceAndPtFreeChecksItsEntries)
{
  auto r = isolated([] {
    Cluster c;
    c.limits.max_cts     = 2;
    c.limits.max_mds     = 1;
    c.limits.max_entries = 1;
    c.build();
    auto& ni = c.ni(0);
    std::vector<std::byte> buf(8);
    CtHandle a, b, d;
    MdHandle m1, m2;
    LeHandle l1, l2;
    std::uint32_t pt;
    nlohmann::json j;
    j["ct1"]     = to_string(ni.ct_alloc(&a));
    j["ct2"]     = to_string(ni.ct_alloc(&b));
    j["ct3"]     = to_string(ni.ct_alloc(&d));
    j["ct3_why"] = ni.last_error();
    j["md1"]     = to_string(ni.md_bind(MdDesc{buf.data(), 8, 0, CT_NONE}, &m1));
    j["md2"]     = to_string(ni.md_bind(MdDesc{buf.data(), 8, 0, CT_NONE}, &m2));
    ni.pt_alloc(0, &pt);
    j["le1"]      = to_string(ni.le_append(0, LeDesc{buf.data(), 8}, &l1));
    j["le2"]      = to_string(ni.le_append(0, LeDesc{buf.data(), 8}, &l2));
    j["pt_again"] = to_string(ni.pt_alloc(0, &pt));
    // PtlPTFree: refused while an entry is appended (PTL_PT_IN_USE), and for a PT not allocated.
    j["pt_free_busy"] = to_string(ni.pt_free(0));
    ni.le_unlink(l1);
    j["pt_free"]       = to_string(ni.pt_free(0));
    j["pt_free_again"] = to_string(ni.pt_free(0));
    j["pt_realloc"]    = to_string(ni.pt_alloc(0, &pt));
    // Freeing makes room again.
    ni.ct_free(b);
    j["ct_after_free"]  = to_string(ni.ct_alloc(&d));
    j["bad_target"]     = to_string(ni.put(m1, 0, 8, AckReq::NoAck, 99, 0, 0));
    j["bad_target_why"] = ni.last_error();
    j["too_long"]       = to_string(ni.put(m1, 0, 9, AckReq::NoAck, 1, 0, 0));
    return j;
  });
  EXPECT_EQ(r["ct1"], "PTL_OK");
  EXPECT_EQ(r["ct2"], "PTL_OK");
  EXPECT_EQ(r["ct3"], "PTL_NO_SPACE");
  EXPECT_NE(r["ct3_why"].get<std::string>().find("max_cts"), std::string::npos);
  EXPECT_EQ(r["md1"], "PTL_OK");
  EXPECT_EQ(r["md2"], "PTL_NO_SPACE");
  EXPECT_EQ(r["le1"], "PTL_OK");
  EXPECT_EQ(r["le2"], "PTL_NO_SPACE");
  EXPECT_EQ(r["pt_again"], "PTL_PT_IN_USE");
  EXPECT_EQ(r["pt_free_busy"], "PTL_PT_IN_USE");
  EXPECT_EQ(r["pt_free"], "PTL_OK");
  EXPECT_EQ(r["pt_free_again"], "PTL_ARG_INVALID");
  EXPECT_EQ(r["pt_realloc"], "PTL_OK");
  EXPECT_EQ(r["ct_after_free"], "PTL_OK");
  EXPECT_EQ(r["bad_target"], "PTL_ARG_INVALID");
  EXPECT_NE(r["bad_target_why"].get<std::string>().find("target 99"), std::string::npos);
  EXPECT_EQ(r["too_long"], "PTL_ARG_INVALID");
}

TEST(Engine, DeadlockNamesWhoWaitsOnWhat)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, 8, 8, MD_EVENT_CT_ACK);
    c.sim->spawn("endpoint 4", 4, [&] {
      CtEvent ev;
      c.ni(4).ct_wait(e[4].le_ct, 1, &ev); // nobody ever sends
    });
    const auto status = c.sim->run();
    return nlohmann::json{{"status", static_cast<int>(status)}, {"blocked", c.sim->blocked()}};
  });
  EXPECT_EQ(r["status"], static_cast<int>(sim::RunStatus::Deadlock));
  ASSERT_EQ(r["blocked"].size(), 1u);
  const std::string line = r["blocked"][0];
  EXPECT_NE(line.find("endpoint 4 waits in PtlCTWait"), std::string::npos) << line;
  EXPECT_NE(line.find("reaching 1"), std::string::npos) << line;
}

TEST(Engine, SameSeedSameResultsWithAndWithoutLookahead)
{
  auto a = isolated([] { return alltoall(Routing::Random, false, 3000, 3, true, 11); });
  auto b = isolated([] { return alltoall(Routing::Random, false, 3000, 3, false, 11); });
  auto c = isolated([] { return alltoall(Routing::Random, false, 3000, 3, true, 11); });
  EXPECT_EQ(a, c);
  EXPECT_EQ(a["end"], b["end"]);
  EXPECT_EQ(a["ooo"], b["ooo"]);
  EXPECT_EQ(a["delivery_p99"], b["delivery_p99"]);
  EXPECT_EQ(a["events"], b["events"]);
  auto d = isolated([] { return alltoall(Routing::Random, false, 3000, 3, true, 12); });
  EXPECT_NE(a["end"], d["end"]) << "another seed routes differently";
}

namespace {
/// Endpoint 0 issues a 1 MiB DMA put on its MD, then an 8-byte volatile put on a second MD
/// (independent or not); returns when the small put's ACK came back.
nlohmann::json small_behind_large(bool independent, int queues)
{
  Cluster c;
  c.nic.injection_queues = queues;
  c.build();
  std::vector<std::byte> big(1 << 20), small(8), dst(1 << 20);
  auto& a = c.ni(0);
  auto& b = c.ni(1);
  CtHandle big_ct, small_ct, le_ct;
  a.ct_alloc(&big_ct);
  a.ct_alloc(&small_ct);
  b.ct_alloc(&le_ct);
  MdHandle big_md, small_md;
  a.md_bind(MdDesc{big.data(), big.size(), MD_EVENT_CT_ACK, big_ct}, &big_md);
  a.md_bind(MdDesc{small.data(), 8, MD_EVENT_CT_ACK | MD_VOLATILE | (independent ? MD_INDEPENDENT : 0u), small_ct},
            &small_md);
  std::uint32_t pt;
  b.pt_alloc(0, &pt);
  LeHandle le;
  b.le_append(0, LeDesc{dst.data(), dst.size(), LE_OP_PUT, le_ct}, &le);
  Ps small_done = 0;
  c.sim->spawn("a", 0, [&] {
    CtEvent ev;
    a.put(big_md, 0, big.size(), AckReq::CtAck, 1, 0, 0);
    a.put(small_md, 0, 8, AckReq::CtAck, 1, 0, 0);
    a.ct_wait(small_ct, 1, &ev);
    small_done = c.sim->queue().now();
    a.ct_wait(big_ct, 1, &ev);
  });
  c.sim->run();
  return {{"small_done", small_done}, {"independent_queues", c.net->totals().independent_queues}};
}
} // namespace

TEST(InjectionQueues, IndependentMdAvoidsHeadOfLineBlocking)
{
  auto shared = isolated([] { return small_behind_large(false, 4); });
  auto own    = isolated([] { return small_behind_large(true, 4); });
  auto none   = isolated([] { return small_behind_large(true, 1); }); // no queue left to give
  EXPECT_EQ(shared["independent_queues"], 0);
  EXPECT_EQ(own["independent_queues"], 1);
  EXPECT_EQ(none["independent_queues"], 0);
  // Behind a 1 MiB DMA the small put waits for the whole payload read (~330 us at 25.6 Gb/s);
  // on its own queue it only shares the wire and PCIe packet by packet.
  EXPECT_GT(shared["small_done"].get<Ps>(), 300'000'000);
  EXPECT_LT(own["small_done"].get<Ps>(), 20'000'000);
  EXPECT_EQ(none["small_done"], shared["small_done"]);
}

TEST(Counters, CtIncAndSetWakeWaiters)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    auto& ni = c.ni(0);
    CtHandle ct;
    ni.ct_alloc(&ct);
    std::vector<std::pair<std::string, Ps>> log;
    c.sim->spawn("waiter", 0, [&] {
      CtEvent ev;
      ni.ct_wait(ct, 3, &ev);
      log.emplace_back("reached 3 with success " + std::to_string(ev.success) + " failure " +
                           std::to_string(ev.failure),
                       c.sim->queue().now());
      ni.ct_wait(ct, 10, &ev);
      log.emplace_back("reached 10 with success " + std::to_string(ev.success), c.sim->queue().now());
    });
    c.sim->spawn("poker", 1, [&] {
      c.sim->sleep_for(1000);
      ni.ct_inc(ct, CtEvent{1, 0});
      c.sim->sleep_for(1000);
      ni.ct_inc(ct, CtEvent{1, 1}); // success 2 + failure 1 = 3
      c.sim->sleep_for(1000);
      ni.ct_set(ct, CtEvent{10, 0});
    });
    c.sim->run();
    nlohmann::json j = nlohmann::json::array();
    for (auto& [what, when] : log)
      j.push_back({what, when});
    return j;
  });
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0][0], "reached 3 with success 2 failure 1");
  EXPECT_EQ(r[0][1], 2000);
  EXPECT_EQ(r[1][0], "reached 10 with success 10");
  EXPECT_EQ(r[1][1], 3000);
}
