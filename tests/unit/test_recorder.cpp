// The trace recorders on their own: each message carries its own operation's id whatever was
// issued in between (threads of one PE interleave between a call and its message), events are
// written in date order through the reorder window, and an interval under way holds back later
// events. An emulated PE's part (PartRecorder): ids of its own PE's, messages named by pair so that
// the target's part names their deliveries alike, dates that never go back except computation's,
// and every event of several threads written whole.
#include "traces/Recorder.hpp"

#include "traces/Merge.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using shmemsim::traces::Event;
using shmemsim::traces::Level;
using shmemsim::traces::PartRecorder;
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

TEST(PartRecorder, NamesOperationsByPeAndMessagesByPairSoThatTheTargetsPartNamesTheirDeliveries)
{
  const fs::path dir = fresh_dir("part-ids");
  fs::create_directories(dir);
  const std::string pe2 = (dir / ".pe-2.evt").string(), pe0 = (dir / ".pe-0.evt").string();
  std::uint64_t a = 0, b = 0, m0 = 0, m1 = 0, m0b = 0;
  {
    PartRecorder part(pe2, 2, 1);
    a   = part.op_issued(100, 2, 0, 1, 2, 1, "put", 8, 0);
    m0  = part.msg_issued(110, "put", 2, 0, 8, a);
    b   = part.op_issued(120, 2, 1, 1, 2, 2, "get", 16, 1);
    m1  = part.msg_issued(130, "get", 2, 1, 16, b);
    m0b = part.msg_issued(140, "atomic", 2, 0, 8, 0);
    part.msg_done(300, m0);
    part.flush();
  }
  EXPECT_EQ(a, (std::uint64_t{3} << 40) + 1) << "PE 2's operations are numbered apart from other PEs'";
  EXPECT_EQ(b, (std::uint64_t{3} << 40) + 2);
  EXPECT_EQ(m0, shmemsim::pair_message_id(2, 0, 1));
  EXPECT_EQ(m1, shmemsim::pair_message_id(2, 1, 1));
  EXPECT_EQ(m0b, shmemsim::pair_message_id(2, 0, 2)) << "the second message of pair (2, 0)";
  {
    PartRecorder part(pe0, 0, 0);
    part.msg_delivered(200, shmemsim::pair_message_id(2, 0, 2), true, 0); // overtook the first one
    part.msg_delivered(210, shmemsim::pair_message_id(2, 0, 1), false, 1);
    part.ct_changed(210, 0, 0, 2, 0);
    part.flush();
  }
  const shmemsim::traces::Trace tr = shmemsim::traces::merge_traces({pe0, pe2}, {});
  std::map<std::uint64_t, std::uint64_t> op_of;
  std::map<std::uint64_t, int> delivered;
  std::map<int, int> node;
  for (const Event& e : tr.events) {
    if (e.type == Type::Pe)
      node[e.pe] = e.node;
    if (e.type == Type::Msg)
      op_of[e.id] = e.op;
    if (e.type == Type::Dlv) {
      EXPECT_TRUE(op_of.count(e.id)) << "a delivery names a message issued (and merged before it)";
      ++delivered[e.id];
    }
  }
  EXPECT_EQ(node, (std::map<int, int>{{0, 0}, {2, 1}}));
  EXPECT_EQ(op_of.at(m0), a);
  EXPECT_EQ(op_of.at(m1), b);
  EXPECT_EQ(delivered, (std::map<std::uint64_t, int>{{m0, 1}, {m0b, 1}}));
  fs::remove_all(dir);
}

TEST(PartRecorder, DatesNeverGoBackExceptComputationDatedAtItsStart)
{
  const fs::path dir = fresh_dir("part-dates");
  fs::create_directories(dir);
  const std::string path = (dir / ".pe-0.evt").string();
  {
    PartRecorder part(path, 0, 0);
    part.wait_begin(500, 0, 0, 0, 1, "quiet", 3);
    part.ct_changed(400, 0, 1, 3, 0); // read before the wait's date by another thread: flattened
    part.compute(100, 50, 0, 1);      // reported at its end, dated at its start
    part.wait_end(520, 0, 0, 3);
    part.flush();
  }
  const auto events = shmemsim::traces::read_trace_file(path, shmemsim::traces::DateOrder::Any).events;
  std::vector<std::pair<Type, std::int64_t>> got;
  for (const Event& e : events)
    if (e.type != Type::Pe)
      got.emplace_back(e.type, e.t);
  EXPECT_EQ(got, (std::vector<std::pair<Type, std::int64_t>>{
                     {Type::Wait, 500}, {Type::Ct, 500}, {Type::Comp, 100}, {Type::Wend, 520}}));
  EXPECT_EQ(events.back().type, Type::Wend);
  EXPECT_THROW(shmemsim::traces::read_trace_file(path), std::runtime_error)
      << "a part is not a run's trace: the merge sorts it";
  fs::remove_all(dir);
}

TEST(PartRecorder, ThreadsReportingAtOnceEachGetTheirEventsWrittenWhole)
{
  const fs::path dir = fresh_dir("part-threads");
  fs::create_directories(dir);
  const std::string path = (dir / ".pe-1.evt").string();
  constexpr int kThreads = 4, kOps = 2000;
  {
    PartRecorder part(path, 1, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([&part, t] {
        for (int i = 0; i < kOps; ++i) {
          const std::uint64_t op =
              part.op_issued(i, 1, t, 0, 1, static_cast<std::uint64_t>(i + 1), "put", 8, t % 2 == 0 ? 0 : 2);
          part.msg_issued(i, "put", 1, t % 2 == 0 ? 0 : 2, 8, op);
        }
      });
    for (std::thread& th : threads)
      th.join();
    part.flush();
  }
  const auto events = shmemsim::traces::read_trace_file(path, shmemsim::traces::DateOrder::Any).events;
  std::set<std::uint64_t> ops, msgs;
  std::map<std::uint64_t, int> thread_of_op;
  for (const Event& e : events) {
    if (e.type == Type::Op) {
      ops.insert(e.id);
      thread_of_op[e.id] = e.thr;
    }
    if (e.type == Type::Msg) {
      msgs.insert(e.id);
      EXPECT_EQ(thread_of_op.count(e.op), 1u) << "each message names an operation written before it";
    }
  }
  EXPECT_EQ(ops.size(), std::size_t{kThreads * kOps}) << "operation ids are unique";
  std::set<std::uint64_t> want;
  for (int target : {0, 2})
    for (std::uint64_t k = 1; k <= std::uint64_t{kThreads / 2 * kOps}; ++k)
      want.insert(shmemsim::pair_message_id(1, target, k));
  EXPECT_EQ(msgs, want) << "each pair's messages are numbered 1, 2, ... without gap or repeat";
  fs::remove_all(dir);
}
