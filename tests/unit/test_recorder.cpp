// The trace recorder on its own: each message carries its own operation's id whatever was issued
// in between (threads of one PE interleave between a call and its message), events are written in
// date order through the reorder window, and an interval under way holds back later events.
#include "traces/Recorder.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using shmemsim::traces::Event;
using shmemsim::traces::Level;
using shmemsim::traces::Recorder;
using shmemsim::traces::Type;

namespace {

fs::path fresh_dir(const std::string& name)
{
  const fs::path d = fs::temp_directory_path() / ("shmemsim-recorder-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  return d;
}

std::vector<Event> of_type(const std::vector<Event>& events, Type t)
{
  std::vector<Event> out;
  for (const Event& e : events)
    if (e.type == t)
      out.push_back(e);
  return out;
}

} // namespace

TEST(Recorder, EachMessageBelongsToTheOperationItWasIssuedFor)
{
  const fs::path dir = fresh_dir("attribution");
  {
    Recorder rec(Level::Ops, dir.string());
    rec.pe(0, 0);
    rec.pe(1, 1);
    // Threads 1, 2 and 3 of PE 0 issue in turn; their messages reach the NIC in another order
    // (each thread's initiate overhead ends at a different time).
    const std::uint64_t a = rec.op_issued(100, 0, 1, 0, 0, 1, "put_nbi", 8, 1);
    const std::uint64_t b = rec.op_issued(110, 0, 2, 0, 0, 2, "famo", 8, 1);
    const std::uint64_t c = rec.op_issued(120, 0, 3, 0, 0, 3, "get", 64, 0);
    EXPECT_NE(a, b);
    EXPECT_NE(b, c);
    const std::uint64_t mc = rec.msg_issued(200, "get", 0, 0, 64, c);
    const std::uint64_t ma = rec.msg_issued(210, "put", 0, 1, 8, a);
    const std::uint64_t mb = rec.msg_issued(220, "fetch_atomic", 0, 1, 8, b);
    const std::uint64_t mx = rec.msg_issued(230, "put", 1, 0, 8, 0); // not from a PE's call
    rec.finish();
    const auto msgs = of_type(shmemsim::traces::read_trace_file((dir / "trace.evt").string()).events, Type::Msg);
    ASSERT_EQ(msgs.size(), 4u);
    EXPECT_EQ(msgs[0].id, mc);
    EXPECT_EQ(msgs[0].op, c);
    EXPECT_EQ(msgs[1].id, ma);
    EXPECT_EQ(msgs[1].op, a);
    EXPECT_EQ(msgs[2].id, mb);
    EXPECT_EQ(msgs[2].op, b);
    EXPECT_EQ(msgs[3].id, mx);
    EXPECT_EQ(msgs[3].op, 0u);
  }
  fs::remove_all(dir);
}

TEST(Recorder, WritesEventsInDateOrderAndHoldsThemBehindAnOpenInterval)
{
  const fs::path dir = fresh_dir("order");
  {
    Recorder rec(Level::Ops, dir.string());
    std::int64_t now = 0;
    rec.set_clock([&] { return now; });
    rec.pe(0, 0);
    now = 50;
    rec.interval_open(20); // a computation from 20 whose length is not known yet
    rec.op_issued(40, 0, 0, 0, 0, 1, "put", 8, 0);
    EXPECT_EQ(rec.held(), 1u) << "an event after an interval under way waits for it";
    rec.interval_closed(20);
    rec.compute(20, 15, 0, 0);
    EXPECT_EQ(rec.held(), 0u) << "both are final once the interval closed";
    now = 100;
    rec.wait_begin(90, 0, 1, 0, 0, "quiet", 1);
    rec.wait_end(100, 0, 1, 1);
    rec.finish();
    const auto events = shmemsim::traces::read_trace_file((dir / "trace.evt").string()).events;
    std::vector<std::int64_t> dates;
    for (const Event& e : events)
      if (e.type != Type::Pe)
        dates.push_back(e.t);
    EXPECT_EQ(dates, (std::vector<std::int64_t>{20, 40, 90, 100}));
    EXPECT_TRUE(fs::exists(dir / "trace.evt"));
    EXPECT_FALSE(fs::exists(dir / "trace.evt.part"));
  }
  fs::remove_all(dir);
}
