// Puts above platform.nic.inline_size, pulled by the target with an RDMA read (docs/model.md): the
// data arrives intact, one read round trip later than a pushed put, the initiator's CPU (its
// progress thread) does nothing for the read, the send event comes with the ACK, and ordered
// puts land in issue order around a pull, also when multipath routing reorders packets.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace shmemsim;
using namespace shmemsim::portals;
using shmemsim::Ps;
using shmemsim::testing::Cluster;
using shmemsim::testing::Endpoints;
using shmemsim::testing::isolated;

namespace {

constexpr std::uint64_t kSize = 4096;

/// Endpoint 0 puts 4 KiB to endpoint 1 (same leaf) at t=0 with the progress thread of the Portals
/// reference implementation, one packet per message (mtu 4 KiB); returns the dates the target
/// counted it and the initiator counted its send and ACK events, and whether the data is intact.
nlohmann::json one_put(std::uint64_t inline_size)
{
  Cluster c;
  c.nic.progress    = nic::TargetEngine::Thread;
  c.nic.inline_size = inline_size;
  c.fabric.mtu      = 4096;
  c.build();
  Endpoints e(*c.net, kSize, kSize, MD_EVENT_CT_SEND | MD_EVENT_CT_ACK);
  for (std::size_t i = 0; i < kSize; ++i)
    e[0].src[i] = static_cast<std::byte>(i * 7 + 3);
  Ps delivered = -1, first_event = -1;
  CtEvent at_first{};
  c.sim->spawn("sender", 0, [&] {
    c.ni(0).put(e[0].md, 0, kSize, AckReq::CtAck, 1, 0, 0);
    c.ni(0).ct_wait(e[0].md_ct, 1, &at_first); // the first of the send and ACK events
    first_event = c.sim->queue().now();
  });
  c.sim->spawn("receiver", 1, [&] {
    CtEvent ev;
    c.ni(1).ct_wait(e[1].le_ct, 1, &ev);
    delivered = c.sim->queue().now();
  });
  c.sim->run();
  const auto& n   = c.nic;
  const auto& fab = c.net->fabric();
  const Ps h      = fab.uncontended_time(0, 1, c.fabric.header_size); // a header-only packet
  const Ps d      = fab.uncontended_time(0, 1, static_cast<std::uint32_t>(kSize) + c.fabric.header_size);
  const Ps s      = transfer_time(kSize, n.pcie_bandwidth);
  const Ps P      = n.pcie_latency;
  const Ps pushed = P + n.send_overhead + P + s + d + n.recv_overhead + s + P;
  const Ps pulled = P + n.send_overhead + h + n.recv_overhead // the header, handled by the target's thread
                    + P + n.send_overhead + h                 // the read request: doorbell, adapter, wire
                    + P + s + d                               // served by the initiator's adapter alone
                    + s + P                                   // written at the target
                    + n.reply_overhead;                       // the read's completion, by the target's thread
  const Ps ack_seen = h + P + n.ack_overhead; // from delivery: the ACK back, handled by the initiator's thread
  return {{"delivered", delivered},
          {"first_event", first_event},
          {"success_at_first_event", at_first.success},
          {"pushed", pushed},
          {"pulled", pulled},
          {"ack_seen", ack_seen},
          {"intact", std::memcmp(e[0].src.data(), e[1].dst.data(), kSize) == 0},
          {"acks", c.net->totals().acks_received}};
}

/// Endpoint 0 puts `rounds` times a 4 KiB put then an 8-byte put, both at offset 0 of endpoint 15
/// (another leaf: 4 paths), each filled with its own byte, then waits for every ACK. Returns the
/// first byte and the last 4 KiB put's last byte at the target, and the packets held for ordering.
nlohmann::json pulled_then_inline(bool ordered, Routing routing, int rounds)
{
  Cluster c;
  c.nic.inline_size             = 936;
  c.fabric.routing              = routing;
  c.limits.total_data_ordering  = ordered;
  c.limits.max_waw_ordered_size = 1 << 20;
  // Hosts inject faster than links carry, so queues build in the fabric and differ per path.
  c.nic.pcie_bandwidth = 128'000'000'000ull;
  c.build(3);
  // Every put has its own source bytes (the MD is not volatile: the NIC reads them later).
  const std::size_t per = kSize + 8;
  Endpoints e(*c.net, per * static_cast<std::size_t>(rounds), kSize, MD_EVENT_CT_ACK);
  c.sim->spawn("sender", 0, [&] {
    for (int r = 0; r < rounds; ++r) {
      const std::size_t at = per * static_cast<std::size_t>(r);
      std::memset(e[0].src.data() + at, 2 * r + 1, kSize);
      std::memset(e[0].src.data() + at + kSize, 2 * r + 2, 8);
      c.ni(0).put(e[0].md, at, kSize, AckReq::CtAck, 15, 0, 0);
      c.ni(0).put(e[0].md, at + kSize, 8, AckReq::CtAck, 15, 0, 0);
    }
    CtEvent ev;
    c.ni(0).ct_wait(e[0].md_ct, 2 * static_cast<std::uint64_t>(rounds), &ev);
  });
  // Background traffic from the sender's leaf to the target's leaf loads the uplinks unevenly.
  for (int ep = 1; ep < 4; ++ep)
    c.sim->spawn("load" + std::to_string(ep), ep, [&, ep] {
      for (int r = 0; r < rounds; ++r)
        c.ni(ep).put(e[ep].md, 0, kSize, AckReq::CtAck, 11 + ep, 0, 0);
      CtEvent ev;
      c.ni(ep).ct_wait(e[ep].md_ct, static_cast<std::uint64_t>(rounds), &ev);
    });
  c.sim->run();
  return {{"first", static_cast<int>(e[15].dst[0])},
          {"tail", static_cast<int>(e[15].dst[kSize - 1])},
          {"held", c.net->totals().held_packets},
          {"ooo", c.net->totals().out_of_order},
          {"reordered", c.net->fabric().stats().reordered_packets}};
}

} // namespace

TEST(PulledPut, MovesItsDataOneReadRoundTripLater)
{
  const auto pushed = isolated([] { return one_put(nic::NicParams::kNoInlineLimit); });
  const auto pulled = isolated([] { return one_put(936); });
  EXPECT_TRUE(pushed["intact"].get<bool>());
  EXPECT_TRUE(pulled["intact"].get<bool>());
  // Exact dates (deterministic, no contention): the pushed put as before, the pulled one with the
  // read request's trip (doorbell, adapter, wire) on top, and nothing spent by the initiator's
  // progress thread to serve the read (no recv_overhead at the initiator before delivery).
  EXPECT_EQ(pushed["delivered"], pushed["pushed"]);
  EXPECT_EQ(pulled["delivered"], pulled["pulled"]);
  EXPECT_GT(pulled["delivered"].get<Ps>(), pushed["delivered"].get<Ps>());
  // Pushed: the send event (payload read) comes long before the ACK. Pulled: the initiator learns
  // from the ACK only that its buffer was read, so both events count together at the ACK.
  EXPECT_LT(pushed["first_event"].get<Ps>(), pushed["delivered"].get<Ps>());
  EXPECT_EQ(pushed["success_at_first_event"], 1);
  EXPECT_EQ(pulled["first_event"].get<Ps>(), pulled["delivered"].get<Ps>() + pulled["ack_seen"].get<Ps>());
  EXPECT_EQ(pulled["success_at_first_event"], 2);
  EXPECT_EQ(pulled["acks"], 1);
}

TEST(PulledPut, AtOrBelowTheInlineSizeNothingChanges)
{
  const auto pushed = isolated([] { return one_put(nic::NicParams::kNoInlineLimit); });
  const auto same   = isolated([] { return one_put(kSize); }); // 4 KiB is not above 4 KiB
  EXPECT_EQ(same["delivered"], pushed["delivered"]);
  EXPECT_EQ(same["first_event"], pushed["first_event"]);
}

TEST(PulledPut, OrderedPutsLandInIssueOrderAroundAPull)
{
  // Unordered, the small put behind the pull lands first and the pulled data overwrites it.
  const auto loose = isolated([] { return pulled_then_inline(false, Routing::DModK, 1); });
  EXPECT_EQ(loose["first"], 1);
  // Ordered, the small put waits for the pulled data: the last put issued wins.
  const auto one = isolated([] { return pulled_then_inline(true, Routing::DModK, 1); });
  EXPECT_EQ(one["first"], 2);
  EXPECT_EQ(one["tail"], 1);
  EXPECT_GE(one["held"].get<int>(), 1);
  // Many rounds over 4 paths with random routing: packets and read responses overtake each other
  // in the fabric, yet every write lands in issue order and no delivery is out of order.
  const auto many = isolated([] { return pulled_then_inline(true, Routing::Random, 40); });
  EXPECT_EQ(many["first"], 80);
  EXPECT_EQ(many["tail"], 79);
  EXPECT_EQ(many["ooo"], 0);
  EXPECT_GT(many["reordered"].get<int>(), 0) << "the fabric reordered nothing: the case tests nothing";
}
