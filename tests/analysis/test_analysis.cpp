// The analysis on synthetic traces: interference, waits, overlap, reordering, resources; the
// Perfetto and Paje writers; the timing diagram and plots (well-formed, deterministic).
#include "TraceBuilder.hpp"

#include "analysis/Diagram.hpp"
#include "analysis/Figure.hpp"
#include "analysis/Index.hpp"
#include "analysis/Plot.hpp"
#include "analysis/Report.hpp"
#include "analysis/Svg.hpp"
#include "traces/Lifecycle.hpp"
#include "traces/Paje.hpp"
#include "traces/Perfetto.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <cmath>
#include <filesystem>
#include <optional>
#include <unistd.h>
#include <fstream>
#include <functional>
#include <sstream>

using namespace shmemsim;
using namespace shmemsim::testing;
using analysis::build_index;
using analysis::make_report;
using json   = nlohmann::ordered_json;
namespace pt = boost::property_tree;

namespace {

json report_of(const Trace& tr)
{
  const analysis::Index ix = build_index(tr);
  return analysis::report_json(make_report(ix));
}

const json& thread_of(const json& r, int pe, int thr)
{
  for (const json& t : r["threads"])
    if (t["pe"] == pe && t["thread"] == thr)
      return t;
  static const json none;
  ADD_FAILURE() << "no thread " << pe << "/" << thr;
  return none;
}

/// Parses XML (throws on a malformed document).
pt::ptree parse_xml(const std::string& text)
{
  std::istringstream in(text);
  pt::ptree tree;
  pt::read_xml(in, tree);
  return tree;
}

/// Visits every element (name, its subtree) below `t`.
void each_element(const pt::ptree& t, const std::function<void(const std::string&, const pt::ptree&)>& f)
{
  for (const auto& [name, child] : t) {
    if (name == "<xmlattr>" || name == "<xmlcomment>")
      continue;
    f(name, child);
    each_element(child, f);
  }
}

std::string attr(const pt::ptree& e, const char* name)
{
  return e.get<std::string>(std::string("<xmlattr>.") + name, "");
}

/// Thread 0 waits on the shared CT 0 for its own op (done at 3 us) and for ops of threads 1 and 2
/// that complete later (6 us: thread 2, 10 us: thread 1); its wait runs from 2 us to 10.5 us.
Trace shared_ct_trace()
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.op(0, 0, 1, 0, 0, "put_nbi", 4096, 1, 8 * kUs, 10 * kUs);      // thread 1, seq 1
  b.op(kUs / 2, 0, 2, 0, 0, "put_nbi", 1024, 1, 5 * kUs, 6 * kUs); // thread 2, seq 2
  b.op(1 * kUs, 0, 0, 0, 0, "put_nbi", 8, 1, 2 * kUs, 3 * kUs);    // thread 0, seq 3
  b.wait(2 * kUs, 10 * kUs + kUs / 2, 0, 0, 0, 0, "quiet", 3);
  return b.build();
}

} // namespace

TEST(Interference, ChargedToTheThreadsWhoseOperationsCompleteLater)
{
  const json r  = report_of(shared_ct_trace());
  const json& t = thread_of(r, 0, 0);
  // From max(begin 2us, own 3us) = 3 us: [3, 6] us to thread 2, [6, 10] us to thread 1; the last
  // half microsecond (after the last completion) is nobody's.
  EXPECT_DOUBLE_EQ(t["interference_s"].get<double>(), 7e-6);
  EXPECT_DOUBLE_EQ(t["interference_by_thread_s"]["2"].get<double>(), 3e-6);
  EXPECT_DOUBLE_EQ(t["interference_by_thread_s"]["1"].get<double>(), 4e-6);
  EXPECT_FALSE(t["interference_by_thread_s"].contains("0"));
  EXPECT_DOUBLE_EQ(thread_of(r, 0, 1)["interference_caused_s"].get<double>(), 4e-6);
  EXPECT_DOUBLE_EQ(r["interference"]["total_s"].get<double>(), 7e-6);
  // The matrix (victim -> culprit) has no diagonal.
  const json& m = r["interference"]["matrix_s"]["0"];
  ASSERT_EQ(m.size(), 3u);
  for (const auto& [victim, row] : m.items()) {
    EXPECT_FALSE(row.contains(victim)) << "diagonal entry for thread " << victim;
    EXPECT_EQ(row.size(), 2u);
  }
  EXPECT_DOUBLE_EQ(m["0"]["1"].get<double>(), 4e-6);
  EXPECT_DOUBLE_EQ(m["1"]["0"].get<double>(), 0.0);
}

TEST(Interference, ZeroWhenAllWaitedOperationsAreTheThreadsOwn)
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.op(0, 0, 0, 0, 0, "put_nbi", 64, 1, 2 * kUs, 4 * kUs);
  b.op(kUs, 0, 0, 0, 0, "put_nbi", 64, 1, 3 * kUs, 9 * kUs);
  b.op(kUs, 0, 1, 0, 1, "put_nbi", 64, 1, 3 * kUs, 20 * kUs); // another thread, another CT
  b.wait(2 * kUs, 9 * kUs, 0, 0, 0, 0, "quiet", 2);
  const json r = report_of(b.build());
  EXPECT_EQ(thread_of(r, 0, 0)["interference_s"].get<double>(), 0.0);
  EXPECT_EQ(r["interference"]["total_s"].get<double>(), 0.0);
  EXPECT_EQ(thread_of(r, 0, 0)["waits"]["waited_for"]["ops"], 2);
}

TEST(Waits, CountedPerThreadContextAndWhatWithTheOperationsWaitedFor)
{
  const json r  = report_of(shared_ct_trace());
  const json& w = thread_of(r, 0, 0)["waits"];
  EXPECT_EQ(w["count"], 1);
  EXPECT_DOUBLE_EQ(w["seconds"].get<double>(), 8.5e-6);
  EXPECT_EQ(w["by_what"]["quiet"]["count"], 1);
  EXPECT_EQ(w["waited_for"]["ops"], 3);
  EXPECT_EQ(w["waited_for"]["bytes"], 4096 + 1024 + 8);
  EXPECT_EQ(w["waited_for"]["by_kind"]["put_nbi"]["ops"], 3);
  ASSERT_EQ(w["by_context"].size(), 1u);
  EXPECT_EQ(w["by_context"][0]["ctx"], 0);
  EXPECT_EQ(r["waits"]["count"], 1);

  // Operations completed before the wait began, or beyond its target, are not waited for.
  TraceBuilder b;
  b.pe(0, 0);
  b.op(0, 0, 0, 0, 0, "put", 100, 0, kUs, 2 * kUs);           // done before the wait
  b.op(3 * kUs, 0, 0, 0, 0, "get", 200, 0, 4 * kUs, 5 * kUs); // waited for
  b.op(3 * kUs, 0, 0, 0, 0, "famo", 8, 0, 4 * kUs, 6 * kUs);  // beyond the target
  b.wait(3 * kUs, 5 * kUs, 0, 0, 0, 0, "get", 2);
  const json r2  = report_of(b.build());
  const json& w2 = thread_of(r2, 0, 0)["waits"];
  EXPECT_EQ(w2["waited_for"]["ops"], 1);
  EXPECT_EQ(w2["waited_for"]["by_kind"]["get"]["bytes"], 200);
}

TEST(Waits, SeqOrderMayDifferFromIssueOrder)
{
  // Thread 1 counted its op first (seq 1) but issued it late; thread 0's op (seq 2) was issued
  // and completed before thread 0's wait began.
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.op(10 * kUs, 0, 1, 0, 0, "put_nbi", 64, 1, 10 * kUs + kUs / 2, 11 * kUs); // seq 1
  b.op(1 * kUs, 0, 0, 0, 0, "put_nbi", 64, 1, kUs + kUs / 4, kUs + kUs / 2);  // seq 2
  b.wait(5 * kUs, 11 * kUs, 0, 0, 0, 0, "quiet", 2);
  const json r = report_of(b.build());
  EXPECT_EQ(thread_of(r, 0, 0)["waits"]["waited_for"]["ops"], 1);
  EXPECT_DOUBLE_EQ(thread_of(r, 0, 0)["interference_s"].get<double>(), 6e-6);
}

TEST(Overlap, NoneWhenTheWaitComesBeforeTheCompute)
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.op(0, 0, 0, 0, 0, "put", 4096, 1, 2 * kUs, 5 * kUs);
  b.wait(kUs / 10, 5 * kUs, 0, 0, 0, 0, "put", 1);
  b.comp(5 * kUs, 0, 0, 5 * kUs);
  const json o = thread_of(report_of(b.build()), 0, 0)["overlap"];
  EXPECT_EQ(o["hidden_s"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(o["exposed_s"].get<double>(), 4.9e-6);
  EXPECT_LT(o["ratio"].get<double>(), 0.01);
}

TEST(Overlap, SubstantialWhenTheComputeComesBeforeTheWait)
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.op(0, 0, 0, 0, 0, "put_nbi", 4096, 1, 2 * kUs, 5 * kUs);
  b.comp(kUs / 10, 0, 0, 39 * kUs / 10);
  b.wait(4 * kUs, 5 * kUs, 0, 0, 0, 0, "quiet", 1);
  const json r  = report_of(b.build());
  const json& o = thread_of(r, 0, 0)["overlap"];
  EXPECT_DOUBLE_EQ(o["hidden_s"].get<double>(), 3.9e-6);
  EXPECT_DOUBLE_EQ(o["exposed_s"].get<double>(), 1e-6);
  EXPECT_GT(o["ratio"].get<double>(), 0.75);
  // The timeline's bins add up to the totals.
  double h = 0, x = 0;
  for (const json& v : o["timeline"]["hidden_s"])
    h += v.get<double>();
  for (const json& v : o["timeline"]["exposed_s"])
    x += v.get<double>();
  EXPECT_NEAR(h, 3.9e-6, 1e-15);
  EXPECT_NEAR(x, 1e-6, 1e-15);
  EXPECT_EQ(r["overlap"]["timeline"]["hidden_s"].size(), 20u);
}

TEST(Network, OutOfOrderCountsAndReorderDepth)
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  // Issued m1, m2, m3; delivered m3 (overtook m1 and m2), m2 (overtook m1; m3 overtook it), m1
  // (m2 and m3 overtook it).
  b.op(0, 0, 0, 0, 0, "put_nbi", 100, 1, 9 * kUs, 10 * kUs, false, 2, kUs);
  b.op(0, 0, 0, 0, 0, "put_nbi", 100, 1, 8 * kUs, 10 * kUs, true, 1, 2 * kUs);
  b.op(0, 0, 0, 0, 0, "put_nbi", 100, 1, 7 * kUs, 10 * kUs, true, 0, 4 * kUs);
  const json n = report_of(b.build())["network"];
  EXPECT_EQ(n["deliveries"], 3);
  EXPECT_EQ(n["out_of_order"], 2);
  EXPECT_EQ(n["overtaken"], 2);
  EXPECT_EQ(n["reorder_depth"]["max"], 2);
  EXPECT_DOUBLE_EQ(n["reorder_depth"]["mean"].get<double>(), 1.5);
  ASSERT_EQ(n["nics"].size(), 1u);
  EXPECT_EQ(n["nics"][0]["node"], 0);
  EXPECT_EQ(n["nics"][0]["bytes"], 300);
  // NIC queueing is contention (1 + 2 + 4 us), never interference.
  EXPECT_DOUBLE_EQ(n["nics"][0]["contention"]["queued_s"].get<double>(), 7e-6);
  EXPECT_DOUBLE_EQ(n["contention"]["nic_queued_s"].get<double>(), 7e-6);
}

TEST(Network, LinksWithAndWithoutBandwidth)
{
  for (bool bw : {false, true}) {
    TraceBuilder b;
    if (bw)
      b.meta("link_bandwidth_Bps", "1000000000");
    b.pe(0, 0);
    b.pe(1, 1);
    b.link(0, "n0-s0");
    b.link(1, "s0-n1");
    b.op(0, 0, 0, 0, 0, "put", 1000, 1, 2 * kUs, 10 * kUs);
    b.hop(kUs / 2, 1, 0, 100 * kNs, 1000);
    b.hop(kUs, 1, 1, 0, 1000);
    const json n = report_of(b.build())["network"];
    ASSERT_EQ(n["links"].size(), 2u);
    EXPECT_EQ(n["links"][0]["name"], "n0-s0");
    EXPECT_EQ(n["links"][0]["bytes"], 1000);
    EXPECT_DOUBLE_EQ(n["links"][0]["contention"]["queued_s"].get<double>(), 1e-7);
    if (bw)
      EXPECT_DOUBLE_EQ(n["links"][0]["utilization"].get<double>(), 1000.0 / (1e9 * 10e-6));
    else
      EXPECT_TRUE(n["links"][0]["utilization"].is_null());
  }
}

TEST(Resources, ContextsLimitsAndVolatilePuts)
{
  TraceBuilder b;
  b.meta("max_cts", "3");
  b.meta("max_volatile_size", "64");
  b.pe(0, 0);
  b.pe(1, 1);
  b.ctx(0, 0, 0, 1, 1, "create");
  b.ctx(1, 0, 1, 2, 2, "create");
  b.ctx(2, 0, 2, 3, -1, "refuse");
  b.limit(2, 0, "ct");
  b.ctx(3, 0, 2, 3, 0, "share");
  b.ctx(4, 0, 0, 1, 1, "destroy");
  b.ctx(5, 0, 0, 4, 1, "create");
  b.op(6, 0, 0, 4, 1, "put", 64, 1, 10, 20);
  b.op(6, 0, 0, 4, 1, "put_nbi", 65, 1, 10, 20);
  const json r = report_of(b.build())["resources"];
  EXPECT_EQ(r["limits"]["max_cts"], 3);
  EXPECT_TRUE(r["limits"]["max_mds"].is_null());
  const json& c = r["pes"][0]["contexts"];
  EXPECT_EQ(c["created"], 3);
  EXPECT_EQ(c["destroyed"], 1);
  EXPECT_EQ(c["refused"], 1);
  EXPECT_EQ(c["shared"], 1);
  EXPECT_EQ(c["peak_in_use"], 2);
  EXPECT_EQ(r["pes"][0]["limit_events"]["ct"], 1);
  EXPECT_EQ(r["puts"]["volatile"]["ops"], 1);
  EXPECT_EQ(r["puts"]["buffered"]["bytes"], 65);
}

TEST(Report, NoInterferenceKeyHoldsAnythingButSeconds)
{
  const json r                                 = report_of(mandelbrot_like(Variant::Shared, 3, 4));
  std::function<void(const json&, bool)> check = [&](const json& j, bool inside) {
    if (j.is_object()) {
      for (const auto& [k, v] : j.items())
        check(v, inside || k.find("interference") != std::string::npos);
    } else if (j.is_array()) {
      for (const json& v : j)
        check(v, inside);
    } else if (inside) {
      EXPECT_TRUE(j.is_number_float()) << j.dump();
    }
  };
  check(r, false);
  EXPECT_GT(r["interference"]["total_s"].get<double>(), 0.0);
  EXPECT_EQ(report_of(mandelbrot_like(Variant::CtxPerThread, 3, 4))["interference"]["total_s"].get<double>(), 0.0);
}

TEST(Report, DeterministicThroughTheCompactFormat)
{
  const Trace tr = mandelbrot_like(Variant::Nbi, 3, 6);
  std::string text[2], rep[2];
  for (int i = 0; i < 2; ++i) {
    std::ostringstream o;
    traces::write_header(o, tr.level, tr.meta);
    for (const Event& e : tr.events)
      traces::write_event(o, e);
    text[i] = o.str();
    std::istringstream in(text[i]);
    const Trace back = traces::read_trace(in, "trace.evt");
    rep[i]           = report_of(back).dump(2);
  }
  EXPECT_EQ(text[0], text[1]);
  EXPECT_EQ(rep[0], rep[1]);
  EXPECT_EQ(rep[0], report_of(tr).dump(2));
  EXPECT_FALSE(analysis::format_report(make_report(build_index(tr))).empty());
}

TEST(Reader, MalformedLinesAndUnknownEventsNameFileAndLine)
{
  auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    try {
      traces::read_trace(in, "dir/trace.evt");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("#shmemsim-trace 1\n#level ops\nop 5 1 0 0 0 0 x put 8 1\n").find("dir/trace.evt:3:"),
            std::string::npos);
  const std::string unknown = error_of("#shmemsim-trace 1\npe 0 0\nbogus 1 2\n");
  EXPECT_NE(unknown.find("dir/trace.evt:3:"), std::string::npos);
  EXPECT_NE(unknown.find("unknown event type 'bogus'"), std::string::npos);
}

TEST(Time, ParsesUnits)
{
  std::int64_t ps = 0;
  ASSERT_TRUE(analysis::parse_time("10us", &ps));
  EXPECT_EQ(ps, 10 * kUs);
  ASSERT_TRUE(analysis::parse_time("1.5ms", &ps));
  EXPECT_EQ(ps, 1'500'000'000);
  ASSERT_TRUE(analysis::parse_time("200ns", &ps));
  EXPECT_EQ(ps, 200'000);
  ASSERT_TRUE(analysis::parse_time("0.002s", &ps));
  EXPECT_EQ(ps, 2'000'000'000);
  EXPECT_FALSE(analysis::parse_time("0.002", &ps)); // a bare number: refused, as every time given
  ASSERT_TRUE(analysis::parse_time("10 us", &ps)); // as in scenarios (base's parse_time)
  EXPECT_EQ(ps, 10 * kUs);
  EXPECT_FALSE(analysis::parse_time("10xs", &ps));
  EXPECT_FALSE(analysis::parse_time("us", &ps));
  EXPECT_FALSE(analysis::parse_time("-1us", &ps));
}

TEST(Perfetto, ValidJsonWithTracksFlowsAndCounters)
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.link(3, "n0-s0");
  const auto op = b.op(0, 0, 1, 0, 0, "put", 4096, 1, 2 * kUs, 3 * kUs, false, 0, kUs / 2);
  b.hop(kUs, op.id, 3, 123, 4096);
  b.comp(0, 0, 0, 4 * kUs);
  b.wait(kUs / 10, 3 * kUs, 0, 1, 0, 0, "put", 1);
  b.lock(0, 0, 1, kUs / 10);
  std::ostringstream o;
  traces::write_perfetto(b.build(), o);
  const nlohmann::json j = nlohmann::json::parse(o.str()); // throws if invalid
  std::map<std::string, int> names, phases;
  bool wait_args = false, ct_counter = false, outstanding = false, nic = false, link = false;
  for (const auto& e : j["traceEvents"]) {
    ++phases[e["ph"].get<std::string>()];
    if (e["ph"] == "M" && e["args"].contains("name"))
      ++names[e["args"]["name"].get<std::string>()];
    if (e["ph"] == "X" && e["name"] == "put" && e["cat"] == "wait")
      wait_args = e["args"]["ctx"] == 0 && e["args"]["ct"] == 0 && e["args"]["target"] == 1 &&
                  e["args"]["final_target"] == 1 && e["ts"] == 0.1 && e["dur"] == 2.9;
    if (e["ph"] == "C" && e["name"] == "ct 0")
      ct_counter = e["args"]["success"] == 1;
    if (e["ph"] == "C" && e["name"] == "outstanding ops, thread 1")
      outstanding = true;
    if (e["ph"] == "b" && e["pid"] == traces::kPerfettoNicPid)
      nic = true;
    if (e["pid"] == traces::kPerfettoFabricPid && e["ph"] == "i")
      link = e["tid"] == 3;
  }
  EXPECT_EQ(names["PE 0"], 1);
  EXPECT_EQ(names["PE 1"], 1);
  EXPECT_EQ(names["thread 0"], 1);
  EXPECT_EQ(names["thread 1"], 1);
  EXPECT_EQ(names["NIC of node 0"], 1);
  EXPECT_EQ(names["n0-s0"], 1);
  EXPECT_TRUE(wait_args);
  EXPECT_TRUE(ct_counter);
  EXPECT_TRUE(outstanding);
  EXPECT_TRUE(nic);
  EXPECT_TRUE(link);
  EXPECT_EQ(phases["s"], 2); // issue -> delivery, delivery -> ACK
  EXPECT_EQ(phases["f"], 2);
  EXPECT_GE(phases["X"], 5); // op, compute, wait, lock, delivery, ack
  // Timestamps: fixed microseconds from picoseconds, byte-identical.
  EXPECT_NE(o.str().find("\"ts\":0.500000"), std::string::npos);
  std::ostringstream again;
  traces::write_perfetto(b.build(), again);
  EXPECT_EQ(o.str(), again.str());
}

namespace {
traces::Event ev(traces::Type type, std::int64_t t, std::uint64_t id)
{
  traces::Event e;
  e.type = type;
  e.t    = t;
  e.id   = id;
  return e;
}
} // namespace

// The converters' shared bookkeeping: NIC queue and flight counts, a thread's outstanding
// operations (down once, when the last of an operation's messages is done), operations forgotten
// once nothing of them is under way.
TEST(Lifecycle, CountsQueuedInFlightAndOutstandingAndForgetsWhatEnded)
{
  traces::Endpoints ep;
  ep.pe_node = {{0, 0}, {1, 3}};
  traces::MessageLifecycle lc(ep);
  traces::Event op = ev(traces::Type::Op, 10, 7);
  op.pe = 1, op.thr = 2, op.target_pe = 0;
  lc.issue(op);
  EXPECT_EQ(lc.outstanding(1, 2), 1);
  for (std::uint64_t m : {100u, 101u}) { // two messages of operation 7, sent by PE 1 (node 3)
    traces::Event msg = ev(traces::Type::Msg, 11, m);
    msg.op = 7, msg.src = 1, msg.dst = 0, msg.what = "put";
    const auto o = lc.queue(msg);
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(o->issue, 10);
    EXPECT_EQ(o->thr, 2);
  }
  EXPECT_EQ(lc.queued(3), 2);
  const auto inj = lc.inject(ev(traces::Type::Inj, 12, 100));
  ASSERT_TRUE(inj.has_value());
  EXPECT_EQ(inj->node, 3);
  EXPECT_FALSE(lc.inject(ev(traces::Type::Inj, 12, 100)).has_value()) << "injected once";
  EXPECT_EQ(lc.queued(3), 1);
  EXPECT_EQ(lc.in_flight(3), 1);

  const auto d1 = lc.deliver(ev(traces::Type::Dlv, 13, 100));
  ASSERT_TRUE(d1 && d1->op);
  EXPECT_TRUE(d1->msg.injected);
  const auto d2 = lc.deliver(ev(traces::Type::Dlv, 13, 101)); // never injected: leaves the queue
  ASSERT_TRUE(d2.has_value());
  EXPECT_FALSE(d2->msg.injected);
  EXPECT_EQ(lc.queued(3), 0);
  EXPECT_EQ(lc.in_flight(3), 0);

  const auto c1 = lc.complete(ev(traces::Type::Done, 14, 100));
  ASSERT_TRUE(c1 && c1->op);
  EXPECT_FALSE(c1->op_completed);
  EXPECT_EQ(lc.outstanding(1, 2), 1);
  const auto c2 = lc.complete(ev(traces::Type::Done, 15, 101));
  ASSERT_TRUE(c2 && c2->op);
  EXPECT_TRUE(c2->op_completed);
  EXPECT_EQ(lc.outstanding(1, 2), 0);

  EXPECT_FALSE(lc.complete(ev(traces::Type::Done, 16, 101)).has_value()) << "message forgotten";
  traces::Event late = ev(traces::Type::Msg, 17, 102);
  late.op = 7, late.src = 1, late.dst = 0, late.what = "put";
  EXPECT_FALSE(lc.queue(late).has_value()) << "operation forgotten once it ended";
  EXPECT_FALSE(lc.deliver(ev(traces::Type::Dlv, 18, 999)).has_value()) << "unknown message";
}

TEST(Paje, HeaderContainersAndOrderedDates)
{
  std::ostringstream o;
  traces::write_paje(mandelbrot_like(Variant::Shared, 2, 2), o);
  const std::string s = o.str();
  for (const char* needle :
       {"%EventDef PajeDefineContainerType 0", "0 Thread PE Thread", "0 NIC Node NIC", "5 compute Activity",
        "5 wait Activity", "5 lock Activity", "4 Message 0 Thread PE Message", "1 ct0 PE"})
    EXPECT_NE(s.find(needle), std::string::npos) << needle;
  std::istringstream in(s);
  std::string line;
  double last = 0;
  int pushes = 0, pops = 0, starts = 0, ends = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '%' || line[0] == '#')
      continue;
    std::istringstream f(line);
    int code = 0;
    f >> code;
    if (code >= 6) {
      double t = 0;
      f >> t;
      EXPECT_GE(t, last) << line;
      last = t;
    }
    pushes += code == 12, pops += code == 13, starts += code == 15, ends += code == 16;
  }
  EXPECT_GT(pushes, 0);
  EXPECT_EQ(pushes, pops);
  EXPECT_EQ(starts, ends);
  EXPECT_NE(s.find("0.000001"), std::string::npos); // seconds
}

TEST(Diagram, WellFormedWithLanesArrowsAndLegend)
{
  const Trace tr            = mandelbrot_like(Variant::Shared, 3, 3);
  const analysis::Index ix  = build_index(tr);
  const analysis::Diagram d = analysis::make_diagram(ix, {});
  const pt::ptree doc       = parse_xml(d.svg);
  std::vector<std::string> lanes;
  int msgs = 0, acks = 0, quiets = 0, famos = 0, computes = 0;
  each_element(doc, [&](const std::string& name, const pt::ptree& e) {
    const std::string cls = attr(e, "class");
    if (name == "text" && cls == "lane-label")
      lanes.push_back(e.get_value<std::string>());
    msgs += cls == "msg", acks += cls == "ack", quiets += cls == "wait-quiet", famos += cls == "op-famo",
        computes += cls == "compute";
  });
  // Three threads of PE 0 and the two target PEs.
  ASSERT_EQ(lanes.size(), 5u);
  EXPECT_EQ(lanes[0], "PE 0 / thread 0");
  EXPECT_EQ(lanes[2], "PE 0 / thread 2");
  EXPECT_EQ(lanes[3], "PE 1 (target)");
  EXPECT_EQ(msgs, 18); // 3 threads x 3 rounds x (fetch-add + put)
  EXPECT_EQ(acks, 18);
  EXPECT_EQ(quiets, 3);
  EXPECT_EQ(famos, 9);
  EXPECT_EQ(computes, 9);
  EXPECT_NE(d.svg.find("simulated time (us)"), std::string::npos);
  EXPECT_EQ(d.svg, analysis::make_diagram(ix, {}).svg);

  // Selection and a window.
  analysis::DiagramOptions opt;
  opt.threads               = {1};
  opt.from                  = 5 * kUs;
  opt.to                    = 20 * kUs;
  const analysis::Diagram w = analysis::make_diagram(ix, opt);
  parse_xml(w.svg);
  EXPECT_EQ(w.from, 5 * kUs);
  EXPECT_NE(w.svg.find("PE 0 / thread 1"), std::string::npos);
  EXPECT_EQ(w.svg.find("PE 0 / thread 0"), std::string::npos);
  opt.threads = {7};
  EXPECT_THROW(analysis::make_diagram(ix, opt), std::invalid_argument);
}

TEST(Diagram, LongTracesGetADefaultWindowThatSaysSo)
{
  const Trace tr            = mandelbrot_like(Variant::Nbi, 4, 50);
  const analysis::Index ix  = build_index(tr);
  const analysis::Diagram d = analysis::make_diagram(ix, {});
  parse_xml(d.svg);
  EXPECT_NE(d.note.find("first 40 of 400 operations"), std::string::npos) << d.note;
  EXPECT_LT(d.to, ix.t_end / 4);
}

TEST(Diagram, DefaultLanesAreWholePEsThatFit)
{
  TraceBuilder b;
  for (int pe = 0; pe < 4; ++pe) {
    b.pe(pe, pe);
    for (int t = 0; t < 6; ++t)
      b.comp(t * kUs, pe, t, kUs);
  }
  const Trace tr            = b.build();
  const analysis::Index ix  = build_index(tr);
  const analysis::Diagram d = analysis::make_diagram(ix, {});
  EXPECT_EQ(d.lanes, 12);
  EXPECT_NE(d.note.find("lanes: 12 of 24 PE threads (PE 0 to 1"), std::string::npos) << d.note;
  analysis::DiagramOptions opt;
  opt.pes = {2, 3};
  EXPECT_EQ(analysis::make_diagram(ix, opt).lanes, 12);
  opt.pes     = {};
  opt.threads = {0};
  EXPECT_EQ(analysis::make_diagram(ix, opt).lanes, 4);
}

TEST(Plot, OneLinePerSeriesWellFormedAndDeterministic)
{
  std::vector<analysis::RunDocs> runs;
  for (const char* variant : {"no-contexts", "contexts"})
    for (int threads : {1, 2, 4, 8}) {
      analysis::RunDocs r;
      r.dir = std::string("run-") + variant + "-" + std::to_string(threads);
      r.docs.emplace_back("summary", nlohmann::json{{"sim_time_s", 1.0 / threads + (variant[0] == 'n' ? 0.1 : 0.0)}});
      r.docs.emplace_back("scenario", nlohmann::json{{"job", {{"threads", threads}, {"variant", variant}}}});
      runs.push_back(r);
    }
  analysis::PlotOptions opt;
  opt.x                  = "job.threads";
  opt.y                  = "sim_time_s";
  opt.series             = "scenario.job.variant";
  opt.logx               = true;
  const analysis::Plot p = analysis::make_plot(runs, opt);
  ASSERT_EQ(p.series.size(), 2u);
  EXPECT_EQ(p.points.size(), 8u);
  int lines = 0;
  each_element(parse_xml(p.svg), [&](const std::string& name, const pt::ptree& e) { lines += name == "polyline"; });
  EXPECT_EQ(lines, 2);
  EXPECT_NE(p.table.find("no-contexts"), std::string::npos);
  EXPECT_EQ(p.svg, analysis::make_plot(runs, opt).svg);
  opt.y = "no.such.key";
  EXPECT_THROW(analysis::make_plot(runs, opt), std::runtime_error);

  // Parameters from the directory's name.
  analysis::RunDocs r;
  r.dir = "out/v3-t11/";
  EXPECT_EQ(*analysis::value_of(r, "dir"), "v3-t11");
  EXPECT_EQ(*analysis::value_of(r, "dir:t([0-9]+)"), 11.0);
  EXPECT_EQ(*analysis::value_of(r, "dir:(v[0-9])"), "v3");
  EXPECT_FALSE(analysis::value_of(r, "dir:x([0-9]+)"));
}

TEST(Plot, ASweepVariableWinsOverAKeyOfTheSameNameInTheRunsFiles)
{
  // A sweep's run directory: report.json has a per-thread array "threads", point.json the swept value.
  const auto dir = std::filesystem::temp_directory_path() / ("shmemsim-point-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  nlohmann::json threads = nlohmann::json::array();
  for (int t = 0; t < 500; ++t)
    threads.push_back({{"thread", t}, {"busy_s", 0.5}});
  std::ofstream(dir / "report.json") << nlohmann::json{{"threads", threads}}.dump();
  std::ofstream(dir / "summary.json") << R"({"sim_time_s": 0.25})";
  std::ofstream(dir / "point.json") << R"({"point": 3, "values": {"threads": 11, "variant": "ctx"}})";
  const analysis::RunDocs r = analysis::load_run(dir.string());
  EXPECT_EQ(*analysis::value_of(r, "threads"), 11);
  EXPECT_EQ(*analysis::value_of(r, "point.variant"), "ctx");
  EXPECT_TRUE(analysis::value_of(r, "report.threads")->is_array());
  // A value that is not a number is cut in the error, not echoed whole.
  analysis::PlotOptions opt;
  opt.x = "report.threads";
  opt.y = "sim_time_s";
  try {
    analysis::make_plot({r}, opt);
    ADD_FAILURE() << "an array as x should be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_LT(std::string(e.what()).size(), 300u) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a number"), std::string::npos) << e.what();
  }
  opt.x = "threads";
  EXPECT_EQ(analysis::make_plot({r}, opt).points.at(0).x, 11);
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------- paper figures from sweeps

namespace {
/// Writes DIR/results.json as shmemsim sweep does: points with values and the mean of time_us.
void write_sweep(const std::filesystem::path& dir, const std::vector<std::tuple<int, std::string, double>>& pts)
{
  std::filesystem::create_directories(dir);
  nlohmann::json points = nlohmann::json::array();
  int i                 = 0;
  for (const auto& [x, series, t] : pts)
    points.push_back({{"point", i++},
                      {"values", {{"threads", x}, {"variant", series}}},
                      {"runs", 1},
                      {"failed", 0},
                      {"stats", {{"time_us", {{"mean", t}, {"min", t}, {"max", t}}}}}});
  std::ofstream(dir / "results.json") << nlohmann::json{{"points", points}}.dump(2);
}
} // namespace

TEST(Figure, GainsOverTheBaselineBesideThePublishedValues)
{
  const auto base = std::filesystem::temp_directory_path() / ("shmemsim-figure-" + std::to_string(::getpid()));
  write_sweep(base / "s", {{1, "a", 100}, {2, "a", 60}, {1, "b", 80}, {2, "b", 40}});
  const nlohmann::json spec = {
      {"title", "T"},
      {"y", "time_us"},
      {"derive", "gain"},
      {"baseline", "v a"},
      {"inputs", {{{"dir", "s"}, {"x", "threads"}, {"series", "variant"}, {"series_prefix", "v "}}}},
      {"published", {{{"series", "v b"}, {"x", 2}, {"y", 35}, {"source", "sec. 5.2"}}}}};
  const analysis::Figure f = analysis::make_figure(analysis::parse_figure_spec(spec, "spec.json"), base.string());
  ASSERT_EQ(f.plot.series, std::vector<std::string>{"v b"}); // the baseline's gain over itself is not drawn
  ASSERT_EQ(f.plot.points.size(), 2u);
  EXPECT_DOUBLE_EQ(f.plot.points[0].y, 25.0); // 100 / 80 - 1
  EXPECT_DOUBLE_EQ(f.plot.points[1].y, 50.0); // 60 / 40 - 1
  ASSERT_EQ(f.plot.references.size(), 1u);
  EXPECT_NE(f.table.find("sec. 5.2"), std::string::npos);
  EXPECT_NE(f.table.find("15"), std::string::npos); // simulated 50 - published 35
  EXPECT_NE(f.plot.svg.find("<g class=\"references\">"), std::string::npos);
  EXPECT_NE(f.plot.svg.find(">published</text>"), std::string::npos);

  // Rates and efficiencies from the same runs.
  nlohmann::json rate = spec;
  rate["derive"]      = "rate";
  rate["work"]        = 1000;
  rate["y_scale"]     = 1e-6;
  rate.erase("published");
  const analysis::Figure r = analysis::make_figure(analysis::parse_figure_spec(rate, "spec.json"), base.string());
  EXPECT_DOUBLE_EQ(r.plot.points[0].y, 1000 / 100e-6);
  nlohmann::json eff       = rate;
  eff["derive"]            = "efficiency";
  const analysis::Figure e = analysis::make_figure(analysis::parse_figure_spec(eff, "spec.json"), base.string());
  EXPECT_DOUBLE_EQ(e.plot.points[1].y, 100.0 * 100 / (2 * 60)); // series a: t(1) / (2 t(2))

  // A measured rate (more is better): gains and efficiencies turn over.
  nlohmann::json rated      = spec;
  rated["y_kind"]           = "rate";
  const analysis::Figure rg = analysis::make_figure(analysis::parse_figure_spec(rated, "spec.json"), base.string());
  EXPECT_DOUBLE_EQ(rg.plot.points[0].y, (80.0 / 100 - 1) * 100); // b's rate 80 against a's 100: -20 %
  EXPECT_DOUBLE_EQ(rg.plot.points[1].y, (40.0 / 60 - 1) * 100);
  rated["derive"]           = "efficiency";
  const analysis::Figure re = analysis::make_figure(analysis::parse_figure_spec(rated, "spec.json"), base.string());
  EXPECT_DOUBLE_EQ(re.plot.points[1].y, 100.0 * (60.0 / 2) / 100); // series a: r(2) / (2 r(1))
  rated["derive"] = "rate";
  rated["work"]   = 1000;
  EXPECT_THROW(
      {
        try {
          analysis::parse_figure_spec(rated, "spec.json");
        } catch (const std::runtime_error& x) {
          EXPECT_STREQ(x.what(),
                       "spec.json: derive: rate derives a rate from a time: y_kind rate is one already (use value)");
          throw;
        }
      },
      std::runtime_error);
  rated["y_kind"] = "speed";
  EXPECT_THROW(
      {
        try {
          analysis::parse_figure_spec(rated, "spec.json");
        } catch (const std::runtime_error& x) {
          EXPECT_STREQ(x.what(), "spec.json: y_kind: 'speed' is not one of time, rate");
          throw;
        }
      },
      std::runtime_error);

  // Errors name the file and the path, or the missing results.
  nlohmann::json bad = spec;
  bad["derive"]      = "speedup";
  EXPECT_THROW(
      {
        try {
          analysis::parse_figure_spec(bad, "spec.json");
        } catch (const std::runtime_error& x) {
          EXPECT_STREQ(x.what(), "spec.json: derive: 'speedup' is not one of value, rate, gain, efficiency");
          throw;
        }
      },
      std::runtime_error);
  bad                     = spec;
  bad["inputs"][0]["dir"] = "missing";
  EXPECT_THROW(analysis::make_figure(analysis::parse_figure_spec(bad, "spec.json"), base.string()), std::runtime_error);
  bad                           = spec;
  bad["published"][0]["series"] = "v z";
  EXPECT_THROW(analysis::make_figure(analysis::parse_figure_spec(bad, "spec.json"), base.string()), std::runtime_error);
  std::filesystem::remove_all(base);
}

TEST(Figure, SourcedBandBesideEachGainAndAsAnErrorBar)
{
  const auto base = std::filesystem::temp_directory_path() / ("shmemsim-band-" + std::to_string(::getpid()));
  write_sweep(base / "s", {{16, "base", 100}, {16, "ctx", 80}, {32, "base", 60}, {32, "ctx", 50}});
  nlohmann::json spec = {{"y", "time_us"},
                         {"derive", "gain"},
                         {"baseline", "base"},
                         {"inputs", {{{"dir", "s"}, {"x", "threads"}, {"series", "variant"}}}},
                         {"band", {{"file", "band.json"}, {"name", "fig6"}}}};
  // No band file yet: the figure is drawn without it and says how to get it.
  analysis::Figure f = analysis::make_figure(analysis::parse_figure_spec(spec, "spec.json"), base.string());
  EXPECT_NE(f.table.find("sourced band: no " + (base / "band.json").string()), std::string::npos) << f.table;
  EXPECT_EQ(f.plot.svg.find("error-bar"), std::string::npos);
  // The sensitivity's band for this figure (entries of other figures are ignored).
  std::ofstream(base / "band.json")
      << nlohmann::json{{"band_source", "bench/qdr16-sensitivity/run --figure fig6"},
                        {"figure_band",
                         {{{"figure", "fig6"}, {"series", "ctx"}, {"x", 16}, {"low", 18.5}, {"high", 31}},
                          {{"figure", "fig4-gains"}, {"series", "ctx"}, {"x", 32}, {"low", 1}, {"high", 2}}}}}
             .dump();
  f = analysis::make_figure(analysis::parse_figure_spec(spec, "spec.json"), base.string());
  ASSERT_EQ(f.plot.points.size(), 2u);
  EXPECT_DOUBLE_EQ(f.plot.points[0].y, 25.0); // 100 / 80 - 1
  EXPECT_DOUBLE_EQ(f.plot.points[0].lo, 18.5);
  EXPECT_DOUBLE_EQ(f.plot.points[0].hi, 31.0);
  EXPECT_TRUE(std::isnan(f.plot.points[1].lo)); // x 32: no band for this figure
  EXPECT_NE(f.table.find("18.5..31"), std::string::npos) << f.table;
  EXPECT_NE(f.table.find("sourced band: bench/qdr16-sensitivity/run --figure fig6"), std::string::npos);
  EXPECT_NE(f.plot.svg.find("error-bar"), std::string::npos);
  // A malformed band file and a spec without the band's name are errors naming them.
  std::ofstream(base / "band.json") << R"({"figure_band": [{"figure": "fig6", "series": "ctx"}]})";
  EXPECT_THROW(analysis::make_figure(analysis::parse_figure_spec(spec, "spec.json"), base.string()),
               std::runtime_error);
  spec["band"].erase("name");
  EXPECT_THROW(
      {
        try {
          analysis::parse_figure_spec(spec, "spec.json");
        } catch (const std::runtime_error& x) {
          EXPECT_STREQ(x.what(), "spec.json: band.name: missing (a string)");
          throw;
        }
      },
      std::runtime_error);
  std::filesystem::remove_all(base);
}

// ---------------------------------------------------------------- plots: units, log ticks, error bars

TEST(AxisUnits, NamesCarryUnitsAndValuesAreScaled)
{
  using analysis::Quantity;
  EXPECT_EQ(analysis::unit_from_name("sim_time_s").quantity, Quantity::Time);
  EXPECT_EQ(analysis::unit_from_name("sim_time_s").stem, "sim_time");
  EXPECT_EQ(analysis::unit_from_name("wait_ps").to_base, 1e-12);
  EXPECT_EQ(analysis::unit_from_name("size_bytes").quantity, Quantity::Size);
  EXPECT_EQ(analysis::unit_from_name("bandwidth_Bps").quantity, Quantity::Bandwidth);
  EXPECT_EQ(analysis::unit_from_name("link_bps").to_base, 0.125);
  EXPECT_EQ(analysis::unit_from_name("put_rate_per_s").quantity, Quantity::Rate);
  EXPECT_EQ(analysis::unit_from_name("threads").quantity, Quantity::Plain);
  EXPECT_EQ(analysis::unit_from_name("class").quantity, Quantity::Plain); // "_s" needs an underscore
  EXPECT_EQ(analysis::with_unit(1.745e-6, Quantity::Time), "1.745 us");
  EXPECT_EQ(analysis::with_unit(65536, Quantity::Size), "64 KiB");
  EXPECT_EQ(analysis::with_unit(3.2e9, Quantity::Bandwidth), "3.2 GB/s");
  EXPECT_EQ(analysis::with_unit(2e6, Quantity::Rate), "2 M/s");
  EXPECT_EQ(analysis::display_unit(Quantity::Time, 3e-3).name, "ms");
  EXPECT_EQ(analysis::display_unit(Quantity::Size, 1000).name, "B");
  EXPECT_EQ(analysis::axis_label("time", Quantity::Time, analysis::display_unit(Quantity::Time, 5e-6), false),
            "time (us)");
}

TEST(AxisUnits, LogTicksArePowersOfTwoForSizesAndOfTenOtherwise)
{
  using analysis::Quantity;
  const std::vector<double> sizes = analysis::log_ticks(std::log10(8.0), std::log10(1048576.0), Quantity::Size, {});
  EXPECT_EQ(sizes, (std::vector<double>{16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576}));
  const std::vector<double> times = analysis::log_ticks(-6.5, -3.2, Quantity::Time, {});
  EXPECT_EQ(times.size(), 3u); // 1 us, 10 us, 100 us
  EXPECT_NEAR(times[0], 1e-6, 1e-18);
  const std::vector<double> narrow = analysis::log_ticks(std::log10(1.5), std::log10(30.0), Quantity::Plain, {});
  EXPECT_EQ(narrow, (std::vector<double>{2, 5, 10, 20}));
}

namespace {
/// Runs with x = message size in bytes, y = a latency in seconds; `ys` per x (repeats).
std::vector<analysis::RunDocs> latency_runs(const std::vector<std::pair<double, std::vector<double>>>& data)
{
  std::vector<analysis::RunDocs> runs;
  for (const auto& [x, ys] : data)
    for (std::size_t r = 0; r < ys.size(); ++r) {
      analysis::RunDocs d;
      d.dir = "run-" + std::to_string(static_cast<long>(x)) + "-" + std::to_string(r);
      d.docs.emplace_back("summary", nlohmann::json{{"latency_s", ys[r]}, {"size_bytes", x}});
      runs.push_back(d);
    }
  return runs;
}
} // namespace

TEST(Plot, AxesCarryUnitsAndLogTicksAreReadable)
{
  const auto runs = latency_runs({{8, {1.5e-6}}, {1024, {2e-6}}, {65536, {20e-6}}, {1048576, {300e-6}}});
  analysis::PlotOptions opt;
  opt.x = "size_bytes", opt.y = "latency_s", opt.logx = true;
  const analysis::Plot p = analysis::make_plot(runs, opt);
  EXPECT_EQ(p.x_quantity, analysis::Quantity::Size);
  EXPECT_EQ(p.y_quantity, analysis::Quantity::Time);
  for (const char* tick : {">1 KiB<", ">64 KiB<", ">1 MiB<"})
    EXPECT_NE(p.svg.find(tick), std::string::npos) << tick;
  EXPECT_NE(p.svg.find(">size (log)<"), std::string::npos);
  EXPECT_NE(p.svg.find(">latency (us)<"), std::string::npos); // linear axis: one unit in the label
  EXPECT_NE(p.svg.find(">300<"), std::string::npos);          // and the ticks in it
  EXPECT_NE(p.table.find("1.5 us"), std::string::npos) << p.table;
  EXPECT_NE(p.table.find("64 KiB"), std::string::npos) << p.table;
  each_element(parse_xml(p.svg), [](const std::string&, const pt::ptree&) {}); // well-formed
  // A unit reader (the scenario layer's) reads values that carry their unit.
  analysis::RunDocs d;
  d.dir = "r";
  d.docs.emplace_back("scenario", nlohmann::json{{"platform", {{"fabric", {{"link_latency", "500ns"}}}}}});
  d.docs.emplace_back("summary", nlohmann::json{{"latency_s", 1e-6}});
  opt       = {};
  opt.x     = "platform.fabric.link_latency";
  opt.y     = "latency_s";
  opt.units = [](const std::string&, const nlohmann::json& v) -> std::optional<analysis::UnitValue> {
    if (v == "500ns")
      return analysis::UnitValue{analysis::Quantity::Time, 5e-7};
    return std::nullopt;
  };
  const analysis::Plot q = analysis::make_plot({d}, opt);
  ASSERT_EQ(q.points.size(), 1u);
  EXPECT_EQ(q.points[0].x, 5e-7);
  EXPECT_EQ(q.x_quantity, analysis::Quantity::Time);
}

TEST(Plot, RepeatsGiveErrorBarsNotASilentAverage)
{
  const auto runs = latency_runs({{8, {1e-6, 4e-6, 2e-6}}, {64, {3e-6}}});
  analysis::PlotOptions opt;
  opt.x = "size_bytes", opt.y = "latency_s";
  analysis::Plot p = analysis::make_plot(runs, opt);
  ASSERT_EQ(p.points.size(), 2u);
  EXPECT_EQ(p.points[0].runs, 3);
  EXPECT_DOUBLE_EQ(p.points[0].y, 2e-6); // the median
  EXPECT_DOUBLE_EQ(p.points[0].lo, 1e-6);
  EXPECT_DOUBLE_EQ(p.points[0].hi, 4e-6);
  EXPECT_TRUE(std::isnan(p.points[1].lo)); // one run: no bar
  int bars = 0;
  each_element(parse_xml(p.svg), [&](const std::string& name, const pt::ptree& e) {
    bars += name == "path" && e.get<std::string>("<xmlattr>.class", "") == "error-bar";
  });
  EXPECT_EQ(bars, 1);
  EXPECT_NE(p.table.find("median latency"), std::string::npos) << p.table;
  EXPECT_NE(p.table.find("4 us"), std::string::npos) << p.table;
  opt.spread = analysis::Spread::StdDev;
  p          = analysis::make_plot(runs, opt);
  EXPECT_NEAR(p.points[0].y, 7e-6 / 3, 1e-18); // the mean
  const double sd =
      std::sqrt((std::pow(1e-6 - 7e-6 / 3, 2) + std::pow(4e-6 - 7e-6 / 3, 2) + std::pow(2e-6 - 7e-6 / 3, 2)) / 2);
  EXPECT_NEAR(p.points[0].hi - p.points[0].y, sd, 1e-18);
  EXPECT_NEAR(p.points[0].y - p.points[0].lo, sd, 1e-18);
  EXPECT_NE(p.table.find("+stddev"), std::string::npos) << p.table;
}

namespace {
/// PE 0's thread 0 in a barrier (two fetch-adds to PE 1, the second delivered out of order) and
/// then a put, all inside routine spans.
Trace barrier_trace()
{
  TraceBuilder b;
  b.pe(0, 0);
  b.pe(1, 1);
  b.routine(kUs, 9 * kUs, 0, 0, "shmem_barrier_all");
  b.op(kUs, 0, 0, 0, 0, "famo", 8, 1, 5 * kUs, 6 * kUs);
  b.op(2 * kUs, 0, 0, 0, 0, "famo", 8, 1, 4 * kUs, 7 * kUs, true, 1);
  b.wait(2 * kUs, 7 * kUs, 0, 0, 0, 0, "amo", 2);
  b.comp(9 * kUs, 0, 0, 2 * kUs);
  b.routine(11 * kUs, 13 * kUs, 0, 0, "shmem_putmem");
  b.op(11 * kUs, 0, 0, 0, 0, "put", 64, 1, 12 * kUs, 13 * kUs);
  return b.build();
}
} // namespace

TEST(Trace, RoutineSpansRoundTripThroughTheCompactFormat)
{
  const Trace tr = barrier_trace();
  std::ostringstream o;
  traces::write_header(o, tr.level, tr.meta);
  for (const traces::Event& e : tr.events)
    traces::write_event(o, e);
  EXPECT_NE(o.str().find("\ncall 1000000 0 0 shmem_barrier_all\n"), std::string::npos) << o.str();
  EXPECT_NE(o.str().find("\nret 9000000 0 0\n"), std::string::npos) << o.str();
  std::istringstream in(o.str());
  const Trace back         = traces::read_trace(in, "t.evt");
  const analysis::Index ix = build_index(back);
  ASSERT_EQ(ix.routines.size(), 2u);
  EXPECT_EQ(ix.routines[0].name, "shmem_barrier_all");
  EXPECT_EQ(ix.routines[0].begin, kUs);
  EXPECT_EQ(ix.routines[0].end, 9 * kUs);
  EXPECT_EQ(ix.routines[1].name, "shmem_putmem");
  // Routine spans name what the threads did; they leave the report's figures as they were.
  Trace without = back;
  std::erase_if(without.events,
                [](const traces::Event& e) { return e.type == traces::Type::Call || e.type == traces::Type::Ret; });
  json with = report_of(back), plain = report_of(without);
  EXPECT_EQ(with["trace"]["events"].get<int>(), plain["trace"]["events"].get<int>() + 4); // two call, two ret
  with["trace"].erase("events");
  plain["trace"].erase("events");
  EXPECT_EQ(with, plain);
}

TEST(Diagram, MarksOutOfOrderDeliveriesNamesRoutinesAndSaysWhatItDraws)
{
  const Trace tr            = barrier_trace();
  const analysis::Index ix  = build_index(tr);
  const analysis::Diagram d = analysis::make_diagram(ix, {});
  int msgs = 0, ooo = 0, routines = 0, titled_msgs = 0;
  std::vector<std::string> legend, routine_names, tips;
  each_element(parse_xml(d.svg), [&](const std::string& name, const pt::ptree& e) {
    const std::string cls = attr(e, "class");
    if (name == "line" && (cls == "msg" || cls == "msg ooo")) {
      ++msgs;
      ooo += cls == "msg ooo";
      if (auto t = e.get_child_optional("title")) {
        ++titled_msgs;
        tips.push_back(t->get_value<std::string>());
      }
      if (cls == "msg ooo") {
        EXPECT_EQ(attr(e, "stroke"), "#d62728");
        EXPECT_EQ(attr(e, "stroke-dasharray"), "7,2");
      }
    }
    if (name == "rect" && cls == "routine")
      ++routines;
    if (name == "text" && cls == "routine-name")
      routine_names.push_back(e.get_value<std::string>());
  });
  EXPECT_EQ(msgs, 3);
  EXPECT_EQ(ooo, 1);
  EXPECT_EQ(titled_msgs, 3); // every arrow has a tooltip
  EXPECT_EQ(routines, 2);
  EXPECT_EQ(routine_names, (std::vector<std::string>{"barrier_all", "putmem"}));
  EXPECT_NE(d.svg.find(">out of order</text>"), std::string::npos); // the legend entry
  EXPECT_NE(d.svg.find(">SHMEM routine</text>"), std::string::npos);
  // Tooltips say kind, size, source, target and dates; the out-of-order one says so.
  ASSERT_EQ(tips.size(), 3u);
  bool ooo_tip = false;
  for (const std::string& t : tips) {
    EXPECT_NE(t.find("PE 0 / thread 0 to PE 1 (target)"), std::string::npos) << t;
    EXPECT_NE(t.find("issued "), std::string::npos) << t;
    EXPECT_NE(t.find("delivered "), std::string::npos) << t;
    ooo_tip |=
        t.find("fetch_atomic message 2, 8 B") != std::string::npos && t.find("out of order") != std::string::npos;
  }
  EXPECT_TRUE(ooo_tip);
  // The caption says what was drawn, as the note does.
  EXPECT_NE(d.note.find("drawn: 3 message arrows (1 out of order), 2 SHMEM routine spans"), std::string::npos)
      << d.note;
  EXPECT_NE(d.svg.find(analysis::svg::esc(d.note)), std::string::npos);
  EXPECT_NE(d.svg.find("simulated time ("), std::string::npos);
  EXPECT_EQ(d.svg, analysis::make_diagram(ix, {}).svg);

  // An emulated run's trace (meta clock real) is in real time.
  Trace emulated            = tr;
  emulated.meta["clock"]    = "real";
  const analysis::Index eix = build_index(emulated);
  const std::string esvg    = analysis::make_diagram(eix, {}).svg;
  EXPECT_NE(esvg.find(">real time ("), std::string::npos);
  EXPECT_EQ(esvg.find("simulated time"), std::string::npos);
}

TEST(Diagram, TheCaptionCountsTheArrowsOfALongTrace)
{
  const Trace tr            = mandelbrot_like(Variant::Nbi, 4, 50);
  const analysis::Index ix  = build_index(tr);
  const analysis::Diagram d = analysis::make_diagram(ix, {});
  int msgs                  = 0;
  each_element(parse_xml(d.svg), [&](const std::string& name, const pt::ptree& e) {
    msgs += name == "line" && attr(e, "class").rfind("msg", 0) == 0;
  });
  EXPECT_NE(d.note.find("window: the span of the first 40 of 400 operations"), std::string::npos) << d.note;
  EXPECT_NE(d.note.find("drawn: " + std::to_string(msgs) + " message arrows"), std::string::npos) << d.note;
}

TEST(Perfetto, RoutineSlicesAndAnOutOfOrderCategory)
{
  std::ostringstream o;
  traces::write_perfetto(barrier_trace(), o);
  const nlohmann::json j = nlohmann::json::parse(o.str());
  std::vector<std::pair<std::string, std::string>> routine; // phase, name
  int ooo = 0, in_order = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e.value("cat", "") == "routine")
      routine.emplace_back(e["ph"], e["name"]);
    if (e["ph"] == "X" && e.value("cat", "") == "delivery,out_of_order") {
      ++ooo;
      EXPECT_EQ(e["name"], "deliver fetch_atomic (out of order)");
    }
    in_order += e["ph"] == "X" && e.value("cat", "") == "delivery";
  }
  const std::vector<std::pair<std::string, std::string>> want = {
      {"B", "shmem_barrier_all"}, {"E", "shmem_barrier_all"}, {"B", "shmem_putmem"}, {"E", "shmem_putmem"}};
  EXPECT_EQ(routine, want);
  EXPECT_EQ(ooo, 1);
  EXPECT_EQ(in_order, 2);
}

TEST(Plot, LegendsNameTheVariableAndSeriesKeepTheirStyleAcrossPlots)
{
  // Two identical series (threads 2 and 4 give the same times) and a third.
  std::vector<analysis::RunDocs> runs;
  for (int threads : {2, 4, 8})
    for (int pes : {1, 2, 4}) {
      analysis::RunDocs r;
      r.dir = "t" + std::to_string(threads) + "-p" + std::to_string(pes);
      r.docs.emplace_back("point", nlohmann::json{{"threads", threads}, {"pes_per_node", pes}});
      r.docs.emplace_back("summary", nlohmann::json{{"sim_time_s", threads == 8 ? 2.0 / pes : 1.0 / pes}});
      runs.push_back(r);
    }
  analysis::PlotOptions opt;
  opt.x = "pes_per_node", opt.y = "sim_time_s", opt.series = "threads";
  const analysis::Plot p = analysis::make_plot(runs, opt);
  std::map<std::string, std::string> colour, dash, marker; // by legend text
  each_element(parse_xml(p.svg), [&](const std::string& name, const pt::ptree& e) {
    if (name != "g" || attr(e, "class") != "series")
      return;
    const std::string legend = e.get<std::string>("text");
    for (const auto& [child, c] : e)
      if (child == "polyline") {
        colour[legend] = attr(c, "stroke");
        dash[legend]   = attr(c, "stroke-dasharray");
      } else if (child != "text" && child != "line" && child != "<xmlattr>" && attr(c, "class") == "marker") {
        marker[legend] = child + attr(c, "fill");
      }
  });
  ASSERT_EQ(colour.size(), 3u) << p.svg;
  for (const char* l : {"threads = 2", "threads = 4", "threads = 8"})
    EXPECT_TRUE(colour.count(l)) << l;
  // The identical series 2 and 4 differ in colour, dash pattern and marker.
  EXPECT_NE(colour["threads = 2"], colour["threads = 4"]);
  EXPECT_NE(dash["threads = 2"], dash["threads = 4"]);
  EXPECT_NE(marker["threads = 2"], marker["threads = 4"]);
  // Axis titles: readable names with units, not raw keys.
  EXPECT_NE(p.svg.find(">simulated time (s)<"), std::string::npos) << p.svg;
  EXPECT_NE(p.svg.find(">PEs per node<"), std::string::npos);
  EXPECT_EQ(p.svg.find("sim_time_s"), std::string::npos);
  // A companion plot without the threads = 2 series: the others keep their colours.
  std::vector<analysis::RunDocs> some;
  for (const auto& r : runs)
    if (r.dir.rfind("t2-", 0) != 0)
      some.push_back(r);
  std::map<std::string, std::string> colour2;
  each_element(parse_xml(analysis::make_plot(some, opt).svg), [&](const std::string& name, const pt::ptree& e) {
    if (name == "g" && attr(e, "class") == "series")
      colour2[e.get<std::string>("text")] = attr(e.get_child("polyline"), "stroke");
  });
  EXPECT_EQ(colour2["threads = 4"], colour["threads = 4"]);
  EXPECT_EQ(colour2["threads = 8"], colour["threads = 8"]);
}
