// Credit-based link-level flow control (platform.fabric.buffer, platform.nic.rx_buffer): a link
// sends only what the buffer at its far end has room for, so a slow receiver paces the stream
// exactly, and a congested port blocks the packets queued behind its own in an input buffer.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include <gtest/gtest.h>

using namespace shmemsim;
using namespace shmemsim::portals;
using shmemsim::Ps;
using shmemsim::testing::Cluster;
using shmemsim::testing::Endpoints;
using shmemsim::testing::isolated;

namespace {

/// One switch, `nodes` nodes.
void one_switch(Cluster& c, int nodes)
{
  c.hosts.nodes   = nodes;
  c.fabric.levels = 1;
  c.fabric.down   = {nodes};
  c.fabric.up     = {};
  c.node_of.clear();
  for (int i = 0; i < nodes; ++i)
    c.node_of.push_back(i);
}

/// Endpoint 0 streams `count` puts of `msg` bytes to endpoint 1; the date the last one was counted
/// at the target, and the fabric's flow-control statistics.
nlohmann::json stream(std::uint64_t rx_buffer, std::uint64_t count, std::uint64_t msg)
{
  Cluster c;
  one_switch(c, 2);
  c.nic.rx_buffer = rx_buffer;
  c.build();
  Endpoints e(*c.net, msg, msg, MD_EVENT_CT_ACK);
  Ps done = 0;
  c.sim->spawn("sender", 0, [&] {
    for (std::uint64_t i = 0; i < count; ++i)
      c.ni(0).put(e[0].md, 0, msg, AckReq::CtAck, 1, 0, 0);
  });
  c.sim->spawn("receiver", 1, [&] {
    CtEvent ev;
    c.ni(1).ct_wait(e[1].le_ct, count, &ev);
    done = c.sim->queue().now();
  });
  c.sim->run();
  const auto& fs           = c.net->fabric().stats();
  const auto& f            = c.fabric;
  const std::uint32_t wire = f.mtu + f.header_size;
  // With room for one packet, the switch sends the next packet only when the adapter has written the
  // last one to memory and the credit is back: serialization + cable + drain + cable per packet.
  const Ps per_packet =
      c.net->fabric().serialization(wire) + 2 * f.link_latency + transfer_time(wire, c.nic.pcie_bandwidth);
  return {{"done", done},
          {"packets", count * ((msg + f.mtu - 1) / f.mtu)},
          {"per_packet", per_packet},
          {"credit_mode", c.net->fabric().credit_mode()},
          {"stalls", fs.credit_stalls},
          {"credit_wait", fs.credit_wait_total}};
}

} // namespace

TEST(FlowControl, AdapterWithRoomForOnePacketPacesTheStreamByItsCreditLoop)
{
  const std::uint64_t msg = 64 * 1024, count = 32;
  auto r = isolated([&] { return stream(2112, count, msg); }); // 2048 + 42 B in 64-byte credits
  ASSERT_TRUE(r["credit_mode"].get<bool>());
  const double packets  = r["packets"].get<double>();
  const double expected = packets * r["per_packet"].get<double>();
  // The first packet's way there, the issue and the last write add a few microseconds to ~1.2 ms.
  EXPECT_NEAR(r["done"].get<double>() / expected, 1.0, 0.01);
  EXPECT_GT(r["stalls"].get<std::uint64_t>(), 0u);
  EXPECT_GT(r["credit_wait"].get<Ps>(), 0);
}

TEST(FlowControl, UnboundedBuffersDoNotPaceTheStream)
{
  const std::uint64_t msg = 64 * 1024, count = 32;
  auto bounded   = isolated([&] { return stream(2112, count, msg); });
  auto unbounded = isolated([&] { return stream(0, count, msg); });
  EXPECT_FALSE(unbounded["credit_mode"].get<bool>());
  // Without flow control the stream runs at the PCIe rate (2048 B per 640 ns here), well under the
  // one-packet credit loop's 1.2 us per packet.
  EXPECT_LT(unbounded["done"].get<double>(), 0.6 * bounded["done"].get<double>());
  // Room for many packets hides the credit loop: the stream is as fast as without flow control
  // (within the drain's 42-byte header per packet).
  auto roomy = isolated([&] { return stream(64000, count, msg); });
  EXPECT_NEAR(roomy["done"].get<double>() / unbounded["done"].get<double>(), 1.0, 0.03);
}

namespace {

/// Nodes 1, 2 and 3 stream to node 0 (a hot spot: one link for three); node 1 also streams to node
/// 4, interleaving its messages. The time node 4 has all of node 1's data.
nlohmann::json victim(std::uint64_t buffer)
{
  Cluster c;
  one_switch(c, 5);
  c.fabric.buffer      = buffer;
  c.nic.pcie_bandwidth = 128'000'000'000ull; // adapters faster than links: the hot link is the bottleneck
  c.build();
  const std::uint64_t msg = 16 * 1024;
  const int rounds        = 48;
  Endpoints e(*c.net, msg, msg, MD_EVENT_CT_ACK);
  Ps victim_done = 0, hot_done = 0;
  for (int src = 1; src <= 3; ++src)
    c.sim->spawn("src" + std::to_string(src), src, [&, src] {
      for (int i = 0; i < rounds; ++i) {
        c.ni(src).put(e[src].md, 0, msg, AckReq::CtAck, 0, 0, 0);
        if (src == 1)
          c.ni(src).put(e[src].md, 0, msg, AckReq::CtAck, 4, 0, 0);
      }
    });
  c.sim->spawn("victim", 4, [&] {
    CtEvent ev;
    c.ni(4).ct_wait(e[4].le_ct, rounds, &ev);
    victim_done = c.sim->queue().now();
  });
  c.sim->spawn("hot", 0, [&] {
    CtEvent ev;
    c.ni(0).ct_wait(e[0].le_ct, 3 * rounds, &ev);
    hot_done = c.sim->queue().now();
  });
  c.sim->run();
  return {{"victim", victim_done}, {"hot", hot_done}};
}

} // namespace

TEST(FlowControl, CongestedPortBlocksTheFlowsBehindItInTheSameInputBuffer)
{
  auto open    = isolated([] { return victim(0); });
  auto bounded = isolated([] { return victim(8192); });
  // Without flow control node 1's packets for node 4 pass its queued hot-spot packets in the switch:
  // node 1's link is shared by its two flows and node 4 gets half of it. With finite input buffers the
  // hot-spot packets fill node 1's buffer and the packets for node 4 wait behind them (head-of-line
  // blocking): node 1 sends only as fast as the hot spot drains its share, so node 4 waits longer.
  EXPECT_GT(bounded["victim"].get<double>(), 1.3 * open["victim"].get<double>());
  // The hot spot's link is busy to the end without flow control (node 1's share of it waits in the
  // switch); with it, node 1's hot-spot packets come at the pace of its blocked link and arrive
  // last, after nodes 2 and 3 are done: the hot spot finishes later, never earlier.
  EXPECT_GT(bounded["hot"].get<double>(), open["hot"].get<double>());
}
