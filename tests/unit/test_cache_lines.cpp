// Shared cache lines (sim/CacheLines.hpp): what a locked update costs by where the line was last
// written, and how cores that want one line take turns.
#include "sim/CacheLines.hpp"

#include <gtest/gtest.h>

using namespace shmemsim;
using shmemsim::Ps;

namespace {

constexpr Ps kSame  = 22'500;  // 22.5 ns
constexpr Ps kCross = 100'000; // 100 ns

sim::CacheLines westmere_node()
{
  sim::HostParams p;
  p.sockets_per_node  = 2;
  p.line_same_socket  = kSame;
  p.line_cross_socket = kCross;
  return sim::CacheLines(p, 12);
}

} // namespace

TEST(CacheLines, CoresAreDividedAmongSocketsInOrder)
{
  const sim::CacheLines lines = westmere_node();
  for (int core = 0; core < 6; ++core)
    EXPECT_EQ(lines.socket_of(core), 0) << core;
  for (int core = 6; core < 12; ++core)
    EXPECT_EQ(lines.socket_of(core), 1) << core;
}

TEST(CacheLines, ALineHeldByTheCoreCostsNothing)
{
  sim::CacheLines lines = westmere_node();
  EXPECT_EQ(lines.update(7, 3, 1000), 1000); // never used: free
  EXPECT_EQ(lines.update(7, 3, 5000), 5000); // still this core's
  EXPECT_EQ(lines.transfers(), 0u);
  EXPECT_EQ(lines.wait_time(), 0);
}

TEST(CacheLines, ALineFromAnotherCoreCostsItsTransferBySocket)
{
  sim::CacheLines lines = westmere_node();
  lines.update(1, 0, 0);
  EXPECT_EQ(lines.update(1, 5, 1'000'000), 1'000'000 + kSame);  // core 0 -> 5: one socket
  EXPECT_EQ(lines.update(1, 6, 2'000'000), 2'000'000 + kCross); // core 5 -> 6: across
  EXPECT_EQ(lines.update(1, 6, 3'000'000), 3'000'000);          // kept
  EXPECT_EQ(lines.update(2, 11, 0), 0);                         // another line: its own
  EXPECT_EQ(lines.transfers(), 2u);
  EXPECT_EQ(lines.wait_time(), kSame + kCross);
}

TEST(CacheLines, CoresThatWantOneLineTakeTurnsInTheOrderTheyAsk)
{
  sim::CacheLines lines = westmere_node();
  lines.update(9, 0, 0);
  // Three cores of socket 0 ask at the same date: each waits for the one before it.
  EXPECT_EQ(lines.update(9, 1, 1000), 1000 + kSame);
  EXPECT_EQ(lines.update(9, 2, 1000), 1000 + 2 * kSame);
  EXPECT_EQ(lines.update(9, 3, 1000), 1000 + 3 * kSame);
  // A core of socket 1 asking later than the last turn ends pays only its own transfer.
  EXPECT_EQ(lines.update(9, 8, 1'000'000), 1'000'000 + kCross);
  // The core that holds the line but asks while another core's turn is queued waits for it.
  EXPECT_EQ(lines.update(9, 4, 2'000'000), 2'000'000 + kCross); // from core 8, across
  EXPECT_EQ(lines.update(9, 4, 2'000'000), 2'000'000 + kCross); // its next update follows its own
}

TEST(CacheLines, FreeTransfersCostNothing)
{
  sim::HostParams p;
  p.line_same_socket  = 0;
  p.line_cross_socket = 0;
  sim::CacheLines lines(p, 12);
  EXPECT_FALSE(lines.costs_time()); // the transport then leaves the model out
  EXPECT_TRUE(westmere_node().costs_time());
  lines.update(4, 0, 0);
  EXPECT_EQ(lines.update(4, 11, 500), 500);
  EXPECT_EQ(lines.update(4, 1, 500), 500);
}

TEST(CacheLines, ANodeOfOneCoreNeverWaits)
{
  sim::HostParams p;
  p.line_same_socket  = kSame;
  p.line_cross_socket = kCross;
  sim::CacheLines lines(p, 1);
  EXPECT_FALSE(lines.costs_time()); // the transport then leaves the model out (issue 29)
  // What the model would say: every update of every line is the one core's, dated when it asks.
  EXPECT_EQ(lines.update(3, 0, 0), 0);
  EXPECT_EQ(lines.update(3, 0, 700), 700);
  EXPECT_EQ(lines.update(5, 0, 700), 700);
  EXPECT_EQ(lines.transfers(), 0u);
  EXPECT_EQ(lines.wait_time(), 0);
}
