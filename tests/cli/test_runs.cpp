// One run library (run/) for both front ends and both platforms: `shmemsim run` (traffic) and
// `shmemsim-run` (programs, simulated or emulated) end with the same exit statuses, the same report
// lines and one summary.json schema (docs/runs.md).
// SHMEMSIM_BIN (the build's bin/), SHMEMSIM_PROGRAM (spin_wait, built by shmemsim-cc) and
// SHMEMSIM_SOURCE_DIR come from tests/CMakeLists.txt.
#include <gtest/gtest.h>
#include "../common/Subprocess.hpp"

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <tuple>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using shmemsim::testing::Result;
using shmemsim::testing::slurp;

class Runs : public ::testing::Test {
protected:
  void SetUp() override
  {
    dir_ = fs::temp_directory_path() / ("shmemsim-runs-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Run `command` (a shell command line) in the test's directory.
  Result sh(const std::string& command) { return shmemsim::testing::run_in(dir_, command); }
  json summary(const std::string& out)
  {
    json j = json::parse(slurp(dir_ / out / "summary.json"), nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << out << "/summary.json is not JSON";
    return j;
  }
  static std::string shmemsim() { return std::string(SHMEMSIM_BIN) + "/shmemsim"; }
  static std::string launcher() { return std::string(SHMEMSIM_BIN) + "/shmemsim-run"; }
  static std::string scenario(const std::string& name)
  {
    return std::string(SHMEMSIM_SOURCE_DIR) + "/scenarios/" + name;
  }

  fs::path dir_;
};

/// Iterations of net/pingpong.json that take a few seconds of wall time (the progress line shows
/// from half a second on).
const char* const kLongIterations = "400000";

/// The keys every run's summary.json has (docs/runs.md, "Platform keys").
void expect_platform_keys(const json& s, const std::string& who)
{
  for (const char* key : {"status", "checks", "sim_time_s", "events", "endpoints", "nodes", "deliveries",
                          "out_of_order_deliveries", "operations", "latency", "bandwidth", "fabric", "nic"})
    EXPECT_TRUE(s.contains(key)) << who << ": summary.json has no key " << key;
  for (const char* key : {"issued", "failed_at_target", "acks_received", "replies_received"})
    EXPECT_TRUE(s["operations"].contains(key)) << who << ": summary.json has no operations." << key;
  for (const char* key : {"cts_peak_per_endpoint", "mds_peak_per_endpoint", "volatile_puts", "dma_puts"})
    EXPECT_TRUE(s["nic"].contains(key)) << who << ": summary.json has no nic." << key;
}

TEST_F(Runs, TrafficAndProgramSummariesShareOneSchema)
{
  const Result t = sh(shmemsim() + " run " + scenario("net/alltoall.json") + " --quiet --out traffic");
  ASSERT_EQ(t.status, 0) << t.err;
  const Result p = sh(launcher() + " -np 4 --quiet --out program " + SHMEMSIM_PROGRAM + " put");
  ASSERT_EQ(p.status, 0) << p.err;

  const json ts = summary("traffic"), ps = summary("program");
  expect_platform_keys(ts, "shmemsim run");
  expect_platform_keys(ps, "shmemsim-run");
  EXPECT_EQ(ts["status"], 0);
  EXPECT_EQ(ps["status"], 0);
  EXPECT_EQ(ps["checks"]["passed"], true);
  EXPECT_TRUE(ts.contains("traffic"));
  // The program's own keys: one exit status per PE, its contexts.
  EXPECT_EQ(ps["pes"], 4);
  EXPECT_EQ(ps["endpoints"], 4);
  EXPECT_EQ(ps["exit_status"], json::array({0, 0, 0, 0}));
  EXPECT_TRUE(ps.contains("contexts"));
  // PE 0 put a flag to each of the 3 others: the network carried them, and the CTs the transport
  // allocated show in the NIC's peaks.
  EXPECT_GE(ps["operations"]["issued"].get<std::uint64_t>(), 3u);
  EXPECT_GE(ps["deliveries"].get<std::uint64_t>(), 3u);
  EXPECT_GE(ps["nic"]["cts_peak_per_endpoint"].get<std::uint64_t>(), 1u);
}

/// The "#meta KEY VALUE" lines of a trace's header.
std::map<std::string, std::string> trace_meta(const fs::path& evt)
{
  std::map<std::string, std::string> meta;
  std::istringstream in(slurp(evt));
  for (std::string line; std::getline(in, line) && line.rfind('#', 0) == 0;)
    if (line.rfind("#meta ", 0) == 0) {
      const std::size_t sp         = line.find(' ', 6);
      meta[line.substr(6, sp - 6)] = sp == std::string::npos ? "" : line.substr(sp + 1);
    }
  return meta;
}

TEST_F(Runs, SimulatedAndEmulatedRunsWriteOneRunDirectory)
{
  // The same program and options on both platforms: one request, so one scenario.json; the
  // summary's common keys and the trace header's come from the same writer (run/Run.cpp).
  const std::string opts = " -np 2 --quiet --set emulator.stall_timeout=20s --wall-time-limit 60 --out ";
  const Result sim       = sh(launcher() + opts + "sim " + SHMEMSIM_PROGRAM + " put");
  ASSERT_EQ(sim.status, 0) << sim.err;
  const Result emu = sh(launcher() + " --emulate" + opts + "emu " + SHMEMSIM_PROGRAM + " put");
  ASSERT_EQ(emu.status, 0) << emu.err;

  EXPECT_EQ(slurp(dir_ / "sim" / "scenario.json"), slurp(dir_ / "emu" / "scenario.json"));
  const json ss = summary("sim"), es = summary("emu");
  EXPECT_FALSE(ss.contains("mode"));
  EXPECT_EQ(es["mode"], "emulated");
  for (const json* s : {&ss, &es}) {
    EXPECT_EQ((*s)["status"], 0);
    EXPECT_EQ((*s)["checks"], json({{"passed", true}, {"failures", json::array()}}));
    EXPECT_EQ((*s)["pes"], 2);
    EXPECT_EQ((*s)["endpoints"], 2);
    EXPECT_EQ((*s)["exit_status"], json::array({0, 0}));
  }
  EXPECT_EQ(ss["platform"], es["platform"]);

  std::map<std::string, std::string> sm = trace_meta(dir_ / "sim" / "trace.evt"),
                                     em = trace_meta(dir_ / "emu" / "trace.evt");
  for (const char* key : {"scenario", "seed", "pes", "max_cts", "max_mds", "max_volatile_size", "program"}) {
    EXPECT_TRUE(sm.count(key) == 1 && em.count(key) == 1) << "trace header without " << key;
    EXPECT_EQ(sm[key], em[key]) << key;
  }
  EXPECT_EQ(sm["pes"], "2");
  EXPECT_EQ(em["nodes"], "1"); // the hosts: this machine
  EXPECT_EQ(em["clock"], "real");
  EXPECT_EQ(sm.count("clock"), 0u);
}

TEST_F(Runs, SimulatedTimeLimitEndsTrafficAndProgramsAlike)
{
  // A traffic scenario stopped at 1 us: status 4, one heading line, then what still ran.
  const Result t =
      sh(shmemsim() + " run " + scenario("net/alltoall.json") + " --sim-time-limit 1us --quiet --out traffic");
  EXPECT_EQ(t.status, 4) << t.err;
  EXPECT_NE(t.err.find("shmemsim: simulated-time limit of 1us reached; still running:\n"), std::string::npos) << t.err;
  EXPECT_NE(t.err.find("shmemsim:   "), std::string::npos) << "no blocked or running party listed:\n" << t.err;
  const json ts = summary("traffic");
  EXPECT_EQ(ts["status"], 4);
  EXPECT_EQ(ts["checks"]["passed"], false);
  EXPECT_LE(ts["sim_time_s"].get<double>(), 1e-6 + 1e-12);

  // A program spinning forever: the same status and heading, naming the PE that computed.
  const Result p =
      sh(launcher() + " -np 2 --quiet --sim-time-limit 2ms --out program " + SHMEMSIM_PROGRAM + " forever");
  EXPECT_EQ(p.status, 4) << p.err;
  EXPECT_NE(p.err.find("shmemsim-run: simulated-time limit of 2ms reached; still running:\n"), std::string::npos)
      << p.err;
  EXPECT_NE(p.err.find("PE 0 was computing"), std::string::npos) << p.err;
  const json ps = summary("program");
  EXPECT_EQ(ps["status"], 4);
  EXPECT_EQ(ps["checks"]["passed"], false);
  ASSERT_TRUE(ps["checks"]["failures"].is_array());
  EXPECT_EQ(ps["checks"]["failures"][0], "simulated-time limit of 2ms reached; still running:");
}

TEST_F(Runs, ARunThatEndsBeforeItsTimeLimitReportsWhenItEnded)
{
  // The limit only stops runs that reach it: one that ends first reports its own end, the same
  // date as without a limit (not the limit's).
  ASSERT_EQ(sh(launcher() + " -np 2 --quiet --out free " + SHMEMSIM_PROGRAM).status, 0);
  const Result r = sh(launcher() + " -np 2 --quiet --sim-time-limit 1s --out limited " + SHMEMSIM_PROGRAM);
  ASSERT_EQ(r.status, 0) << r.err;
  const double free_s = summary("free")["sim_time_s"].get<double>();
  EXPECT_GT(free_s, 0);
  EXPECT_LT(free_s, 0.1);
  EXPECT_EQ(summary("limited")["sim_time_s"].get<double>(), free_s);
  ASSERT_EQ(sh(shmemsim() + " run " + scenario("net/alltoall.json") + " --quiet --out t_free").status, 0);
  ASSERT_EQ(
      sh(shmemsim() + " run " + scenario("net/alltoall.json") + " --sim-time-limit 10s --quiet --out t_limited").status,
      0);
  EXPECT_EQ(summary("t_limited")["sim_time_s"].get<double>(), summary("t_free")["sim_time_s"].get<double>());
}

TEST_F(Runs, BadTimeLimitIsOneLineAndStatusTwo)
{
  const Result t = sh(shmemsim() + " run " + scenario("net/alltoall.json") + " --sim-time-limit 3parsecs");
  EXPECT_EQ(t.status, 2);
  EXPECT_NE(t.err.find("shmemsim: run: --sim-time-limit 3parsecs: "), std::string::npos) << t.err;
  EXPECT_EQ(std::count(t.err.begin(), t.err.end(), '\n'), 1) << t.err;
}

// ---------------------------------------------------------------------------------------------
// The workflow around a run (issue 16): --help everywhere, unknown options refused, presets
// described, compare, the progress line.
// ---------------------------------------------------------------------------------------------

/// One line on stderr, starting with `who: ` and naming `needle`; status 2; nothing on stdout.
void expect_one_line_error(const Result& r, const std::string& who, const std::string& needle)
{
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind(who + ": ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST_F(Runs, HelpOnEveryCommand)
{
  for (const char* cmd : {"run", "validate", "keys", "presets", "sweep", "limits", "microbench", "calibrate", "report",
                          "diagram", "plot", "figure", "compare"}) {
    for (const char* flag : {"--help", "-h"}) {
      const Result r = sh(shmemsim() + " " + cmd + " " + flag);
      EXPECT_EQ(r.status, 0) << cmd << " " << flag << ": " << r.err;
      EXPECT_EQ(r.err, "") << cmd;
      EXPECT_NE(r.out.find("usage: shmemsim"), std::string::npos) << cmd << ":\n" << r.out;
      EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd << ":\n" << r.out;
    }
  }
  // The command's own part only: run's help does not describe validate.
  const Result run = sh(shmemsim() + " run --help");
  EXPECT_NE(run.out.find("--sim-time-limit"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("validate"), std::string::npos) << run.out;
  // Even after other arguments.
  EXPECT_EQ(sh(shmemsim() + " run " + scenario("net/pingpong.json") + " --help").status, 0);
  for (const char* flag : {"--help", "-h"}) {
    const Result r = sh(launcher() + " " + flag);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("usage: shmemsim-run"), std::string::npos) << r.out;
  }
}

TEST_F(Runs, UnknownOptionsAreOneLineAndStatusTwoEverywhere)
{
  for (const char* cmd : {"run", "validate", "keys", "presets", "report", "diagram", "plot", "figure", "compare",
                          "sweep", "limits", "microbench", "calibrate"})
    expect_one_line_error(sh(shmemsim() + " " + cmd + " --bogus"), "shmemsim",
                          std::string(cmd) + ": unknown option '--bogus' (see 'shmemsim " + cmd + " --help')");
  expect_one_line_error(sh(shmemsim() + " run " + scenario("net/pingpong.json") + " --bogus"), "shmemsim", "--bogus");
  expect_one_line_error(sh(shmemsim() + " presets extra"), "shmemsim", "extra");
  const Result sweep = sh(shmemsim() + " sweep --bogus");
  EXPECT_EQ(sweep.status, 2) << sweep.err;
  EXPECT_NE(sweep.err.find("--bogus"), std::string::npos) << sweep.err;
  expect_one_line_error(sh(launcher() + " --bogus"), "shmemsim-run", "--bogus");
}

TEST_F(Runs, EveryCommandTakesTheSameSpellings)
{
  // One table per command (base/CommandLine): --opt=VALUE and -jN wherever the option exists, and
  // the same one-line mistakes, checked here before anything runs.
  const std::string sc = scenario("net/pingpong.json");
  expect_one_line_error(sh(shmemsim() + " sweep " + sc + " -j0"), "shmemsim",
                        "sweep: -j 0: expected a number of runs at once, 1 to ");
  expect_one_line_error(sh(shmemsim() + " sweep " + sc + " --jobs=x"), "shmemsim",
                        "sweep: -j x: expected a number of runs at once");
  expect_one_line_error(sh(shmemsim() + " sweep " + sc + " -j"), "shmemsim",
                        "sweep: -j needs a value (see 'shmemsim sweep --help')");
  expect_one_line_error(sh(shmemsim() + " limits " + sc + " --cts=0"), "shmemsim",
                        "limits: --cts 0: expected numbers of at least 1");
  expect_one_line_error(sh(shmemsim() + " microbench --iterations=0"), "shmemsim",
                        "microbench: --iterations 0: expected an integer from 1 to 1000000");
  expect_one_line_error(sh(shmemsim() + " microbench -o"), "shmemsim", "microbench: -o needs a value");
  expect_one_line_error(sh(shmemsim() + " report --bins=0 somewhere"), "shmemsim",
                        "report: --bins 0: expected an integer from 1 to 10000");
  expect_one_line_error(sh(shmemsim() + " run " + sc + " --trace"), "shmemsim", "run: --trace needs a value");
  expect_one_line_error(sh(shmemsim() + " calibrate --runs=0 -o x.json"), "shmemsim",
                        "calibrate: --runs 0: expected a positive integer");
  expect_one_line_error(sh(shmemsim() + " calibrate --quick"), "shmemsim", "calibrate: missing -o FILE");
  // --opt=VALUE reaches the run as --opt VALUE does: the same summary.
  ASSERT_EQ(sh(shmemsim() + " run " + sc + " --quiet --set=seed=5 --out=eq").status, 0);
  ASSERT_EQ(sh(shmemsim() + " run " + sc + " --quiet --set seed=5 --out sp").status, 0);
  EXPECT_EQ(slurp(dir_ / "eq" / "summary.json"), slurp(dir_ / "sp" / "summary.json"));
  EXPECT_NE(slurp(dir_ / "eq" / "scenario.json").find("\"seed\": 5"), std::string::npos);
}

TEST_F(Runs, PresetsDescribesEachPreset)
{
  const Result r = sh(shmemsim() + " presets");
  ASSERT_EQ(r.status, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  bool qdr = false;
  while (std::getline(in, line)) {
    EXPECT_GT(line.size(), 12u) << "no description: " << line;
    if (line.rfind("qdr-16 ", 0) == 0) {
      qdr = true;
      EXPECT_NE(line.find("contexts paper"), std::string::npos) << line;
    }
  }
  EXPECT_TRUE(qdr) << r.out;
}

TEST_F(Runs, CompareTwoRuns)
{
  const std::string pp = scenario("net/pingpong.json") + " --quiet --set traffic.iterations=100";
  ASSERT_EQ(sh(shmemsim() + " run " + pp + " --set platform.fabric.link_latency=15ns --out a").status, 0);
  ASSERT_EQ(sh(shmemsim() + " run " + pp + " --set platform.fabric.link_latency=500ns --out b").status, 0);
  const json sa = summary("a"), sb = summary("b");
  const double want = sb["sim_time_s"].get<double>() / sa["sim_time_s"].get<double>();
  ASSERT_GT(want, 1.0);

  const Result j = sh(shmemsim() + " compare a b --json");
  ASSERT_EQ(j.status, 0) << j.err;
  const json c = json::parse(j.out, nullptr, false);
  ASSERT_FALSE(c.is_discarded()) << j.out;
  const json& t = c["keys"]["summary.sim_time_s"];
  EXPECT_DOUBLE_EQ(t["a"].get<double>(), sa["sim_time_s"].get<double>());
  EXPECT_DOUBLE_EQ(t["b"].get<double>(), sb["sim_time_s"].get<double>());
  EXPECT_NEAR(t["ratio"].get<double>(), want, 1e-12 * want);
  EXPECT_NEAR(t["difference"].get<double>(), sb["sim_time_s"].get<double>() - sa["sim_time_s"].get<double>(), 1e-15);
  EXPECT_TRUE(c["keys"].contains("summary.nodes"));
  EXPECT_EQ(c["keys"]["summary.nodes"]["ratio"], 1.0);
  EXPECT_GT(c["differing"].get<int>(), 0);
  // Order: largest |log ratio| first.
  ASSERT_GT(c["order"].size(), 1u);

  const Result text = sh(shmemsim() + " compare a b");
  ASSERT_EQ(text.status, 0) << text.err;
  std::istringstream in(text.out);
  std::string line;
  bool found = false;
  while (std::getline(in, line))
    if (line.rfind("summary.sim_time_s ", 0) == 0)
      found = true;
  EXPECT_TRUE(found) << text.out;
  EXPECT_NE(text.out.find("numeric keys differ"), std::string::npos) << text.out;
  // The headline figures come first; equal runs differ in nothing.
  ASSERT_NE(text.out.find("headline\n"), std::string::npos) << text.out;
  EXPECT_LT(text.out.find("headline\n"), text.out.find("numeric keys differ")) << text.out;
  const std::string same = sh(shmemsim() + " compare a a").out;
  EXPECT_NE(same.find("no numeric key differs"), std::string::npos) << same;
  EXPECT_LT(same.find("summary.sim_time_s"), same.find("no numeric key differs")) << same; // in the headline

  // --keys selects keys by a regular expression, --top keeps the largest changes.
  const Result sel = sh(shmemsim() + " compare a b --keys 'latency\\.delivery' --top 2");
  ASSERT_EQ(sel.status, 0) << sel.err;
  std::istringstream sin(sel.out);
  int table_rows = 0;
  bool other     = false;
  while (std::getline(sin, line))
    if (line.rfind("summary.", 0) == 0 || line.rfind("report.", 0) == 0) {
      ++table_rows;
      other = other || line.find("latency.delivery") == std::string::npos;
    }
  EXPECT_EQ(table_rows, 2) << sel.out;
  EXPECT_FALSE(other) << sel.out;
  EXPECT_NE(sel.out.find("(the first 2 shown: --top)"), std::string::npos) << sel.out;
  const json cj =
      json::parse(sh(shmemsim() + " compare a b --json --keys '^summary\\.sim_time_s$'").out, nullptr, false);
  ASSERT_EQ(cj["keys"].size(), 1u) << cj.dump();
  expect_one_line_error(sh(shmemsim() + " compare a b --keys '('"), "shmemsim",
                        "--keys: '(' is not a regular expression");
  expect_one_line_error(sh(shmemsim() + " compare a b --top 0"), "shmemsim", "--top");

  // A key on one side only is listed as such.
  std::ofstream(dir_ / "b" / "reported.json") << R"({"rate": 2.5})";
  const json c2 = json::parse(sh(shmemsim() + " compare a b --json").out, nullptr, false);
  ASSERT_TRUE(c2["only_b"].is_array());
  EXPECT_EQ(c2["only_b"][0], "reported.rate");

  expect_one_line_error(sh(shmemsim() + " compare a missing"), "shmemsim", "missing: no such directory");
  expect_one_line_error(sh(shmemsim() + " compare a"), "shmemsim", "two run directories");
}

TEST_F(Runs, NoProgressLineWhenStderrIsNotATerminal)
{
  const Result r =
      sh(shmemsim() + " run " + scenario("net/pingpong.json") + " --set traffic.iterations=" + kLongIterations);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST_F(Runs, ProgressLineOnATerminal)
{
  if (std::system("command -v script > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "no script(1) to make a pseudo-terminal";
  const std::string cmd =
      shmemsim() + " run " + scenario("net/pingpong.json") + " --set traffic.iterations=" + kLongIterations;
  const Result r = sh("script -q -e -c '" + cmd + "' /dev/null");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("shmemsim: running: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shmemsim: run ended: "), std::string::npos) << r.out;
  // --quiet: nothing.
  const Result q = sh("script -q -e -c '" + cmd + " --quiet' /dev/null");
  EXPECT_EQ(q.status, 0);
  EXPECT_EQ(q.out.find("shmemsim: run"), std::string::npos) << q.out;

  // shmemsim-run: the same line from the same simulated platform (run/), with its own prefix.
  const Result p =
      sh("script -q -e -c '" + launcher() + " -np 2 --sim-time-limit 1s " + SHMEMSIM_PROGRAM + " forever' /dev/null");
  EXPECT_EQ(p.status, 4) << p.out;
  EXPECT_NE(p.out.find("shmemsim-run: running: "), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("shmemsim-run: run ended: "), std::string::npos) << p.out;
}

} // namespace

namespace {
/// The report's context counts summed over its PEs.
json report_contexts(const json& report)
{
  json sum = {{"created", 0}, {"refused", 0}, {"shared", 0}};
  for (const json& p : report["resources"]["pes"])
    for (const char* k : {"created", "refused", "shared"})
      sum[k] = sum[k].get<std::uint64_t>() + p["contexts"][k].get<std::uint64_t>();
  return sum;
}
} // namespace

TEST_F(Runs, SummaryAndReportAgreeOnContextsUnderEveryExhaustionPolicy)
{
  // 4 PEs each create 7 contexts with max_cts 4 (2 kept by the runtime: 2 of their own each).
  const std::map<std::string, json> expect = {
      {"fail", {{"created", 8 + 4}, {"refused", 20}, {"shared", 0}}},
      {"share", {{"created", 8 + 4}, {"refused", 0}, {"shared", 20}}},
      {"round_robin", {{"created", 8 + 4}, {"refused", 0}, {"shared", 20}}},
      {"keep_private", {{"created", 8 + 4}, {"refused", 0}, {"shared", 20}}},
  };
  for (const auto& [policy, want] : expect) {
    const std::string out = "run_" + policy;
    const Result p        = sh(launcher() + " -np 4 --quiet --out " + out + " --set platform.nic.limits.max_cts=4" +
                               " --set job.contexts.on_exhaustion=" + policy + " " + SHMEMSIM_CTX_PROGRAM + " 7");
    ASSERT_EQ(p.status, 0) << policy << ": " << p.err;
    const Result r = sh(shmemsim() + " report " + out + " --quiet");
    ASSERT_EQ(r.status, 0) << policy << ": " << r.err;
    const json rep        = json::parse(slurp(dir_ / out / "report.json"));
    const json s          = summary(out)["contexts"];
    const json fromreport = report_contexts(rep);
    for (const char* k : {"created", "refused", "shared"}) {
      EXPECT_EQ(s.value(k, json()), fromreport[k]) << policy << ": summary.json and report disagree on " << k;
      EXPECT_EQ(s.value(k, json()), want.at(k)) << policy << ": contexts " << k;
    }
  }
}

TEST_F(Runs, LimitsRunsTheProgramOverLimitsAndPolicies)
{
  const std::string sc = std::string(SHMEMSIM_SOURCE_DIR) + "/tests/programs/unordered.json";
  const Result r =
      sh(shmemsim() + " limits " + sc + " --cts 3,4 --policies fail,round_robin --set job.pes=2 -j 2 -o lim --quiet " +
         SHMEMSIM_CTX_PROGRAM + " 5");
  ASSERT_EQ(r.status, 0) << r.err;
  // The table: one row per point, in sweep order (max_cts, then the policy).
  EXPECT_NE(r.out.find("| policy "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("usable"), std::string::npos) << "the program's RESULT figure is the time column\n" << r.out;
  // Columns say their unit and what they cover (the run, one PE, the sum over threads).
  for (const char* col : {"| usable (run) ", "| ctx created (run) ", "| CTs peak/limit (1 PE) ",
                          "| interference (s, sum of threads) ", "| hidden (% of comm.) "})
    EXPECT_NE(r.out.find(col), std::string::npos) << col << "\n" << r.out;
  EXPECT_EQ(r.out.find("interference_s"), std::string::npos) << r.out;
  const json rows = json::parse(slurp(dir_ / "lim" / "limits.json"))["rows"];
  ASSERT_EQ(rows.size(), 4u);
  const std::vector<std::tuple<int, std::string, int, int, int>> want = {
      // max_cts, policy, created, refused, shared (2 PEs x 5 contexts, then one more each)
      {3, "fail", 2 + 2, 8, 0},
      {3, "round_robin", 2 + 2, 0, 8},
      {4, "fail", 4 + 2, 6, 0},
      {4, "round_robin", 4 + 2, 0, 6}};
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& [cts, policy, created, refused, shared] = want[i];
    EXPECT_EQ(rows[i]["max_cts"], cts) << i;
    EXPECT_EQ(rows[i]["policy"], policy) << i;
    EXPECT_EQ(rows[i]["created"], created) << i;
    EXPECT_EQ(rows[i]["refused"], refused) << i;
    EXPECT_EQ(rows[i]["shared"], shared) << i;
    EXPECT_LE(rows[i]["cts_peak"].get<int>(), cts) << i;
    EXPECT_EQ(rows[i]["time_name"], "usable") << i;
  }
  EXPECT_EQ(rows[0]["time"], 1);
  EXPECT_EQ(rows[1]["time"], 5);
  EXPECT_TRUE(fs::exists(dir_ / "lim" / "limits.svg"));
  EXPECT_TRUE(fs::exists(dir_ / "lim" / "limits-shared.svg"));
  EXPECT_TRUE(fs::exists(dir_ / "lim" / "limits.md"));
  // Deterministic: the same table again.
  const std::string first = slurp(dir_ / "lim" / "limits.md");
  ASSERT_EQ(sh(shmemsim() + " limits " + sc + " --cts 3,4 --policies fail,round_robin --set job.pes=2 -o lim --quiet " +
               SHMEMSIM_CTX_PROGRAM + " 5")
                .status,
            0);
  EXPECT_EQ(slurp(dir_ / "lim" / "limits.md"), first);
  // Bad input: one line, status 2.
  const Result bad = sh(shmemsim() + " limits " + sc + " --cts 0,4 " + SHMEMSIM_CTX_PROGRAM);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(
      bad.err,
      "shmemsim: limits: --cts 0,4: expected numbers of at least 1 separated by commas, e.g. 3,4,8 (see 'shmemsim limits --help')\n");
}

TEST_F(Runs, LimitsSweepsMdsAndInjectionQueuesToo)
{
  // max_mds 2 leaves one context of its own per PE (the runtime keeps 1 MD); the MD limit shows
  // in the table, and the swept injection queues are each run's limit.
  const std::string sc = std::string(SHMEMSIM_SOURCE_DIR) + "/tests/programs/unordered.json";
  const Result r       = sh(shmemsim() + " limits " + sc +
                            " --cts 8 --mds 2,8 --queues 1,4 --policies share --set job.pes=2 -o lim --quiet " +
                            SHMEMSIM_CTX_PROGRAM + " 3");
  ASSERT_EQ(r.status, 0) << r.err;
  const json rows = json::parse(slurp(dir_ / "lim" / "limits.json"))["rows"];
  ASSERT_EQ(rows.size(), 4u);
  // Order: max_cts, policy, max_mds, injection_queues (the last fastest).
  EXPECT_EQ(rows[0]["max_mds"], 2);
  EXPECT_EQ(rows[0]["injection_queues"], 1);
  EXPECT_EQ(rows[1]["injection_queues"], 4);
  EXPECT_EQ(rows[0]["created"], 2 + 2);
  EXPECT_EQ(rows[0]["shared"], 4);
  EXPECT_EQ(rows[0]["mds_peak"], 2);
  EXPECT_EQ(rows[2]["max_mds"], 8);
  EXPECT_EQ(rows[2]["created"], 6 + 2);
  EXPECT_EQ(rows[2]["shared"], 0);
  EXPECT_EQ(rows[0]["time_name"], "usable");
  // A policy that does not exist: one line, status 2.
  const Result bad = sh(shmemsim() + " limits " + sc + " --policies fail,sometimes " + SHMEMSIM_CTX_PROGRAM);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(
      bad.err,
      "shmemsim: limits: --policies fail,sometimes: 'sometimes' is none of fail, share, round_robin, keep_private "
      "(see 'shmemsim limits --help')\n");
  const Result noprog = sh(shmemsim() + " limits " + sc);
  EXPECT_EQ(noprog.status, 2);
  EXPECT_EQ(std::count(noprog.err.begin(), noprog.err.end(), '\n'), 1) << noprog.err;
}

TEST_F(Runs, LimitsWhatIfIndependentMds)
{
  // The paper's proposed PTL_MD_INDEPENDENT, with and without, side by side: with 4 injection
  // queues per NIC, the contexts' independent MDs are granted all 4 queues of each of the 2 PEs'
  // NICs (the program's contexts have more MDs than that); without, none (every MD shares the
  // queues round-robin).
  const std::string sc = std::string(SHMEMSIM_SOURCE_DIR) + "/tests/programs/unordered.json";
  const Result r = sh(shmemsim() + " limits " + sc + " --cts 8 --queues 4 --policies share --independent yes,no " +
                      "--set job.pes=2 -o lim --quiet " + SHMEMSIM_CTX_PROGRAM + " 3");
  ASSERT_EQ(r.status, 0) << r.err;
  const json rows = json::parse(slurp(dir_ / "lim" / "limits.json"))["rows"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["independent_mds"], true);
  EXPECT_EQ(rows[1]["independent_mds"], false);
  EXPECT_EQ(rows[0]["independent_queues"], 8);
  EXPECT_EQ(rows[1]["independent_queues"], 0);
  EXPECT_NE(slurp(dir_ / "lim" / "limits.md").find("| indep. MDs |"), std::string::npos);
  const Result bad = sh(shmemsim() + " limits " + sc + " --independent maybe " + SHMEMSIM_CTX_PROGRAM);
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err, "shmemsim: limits: --independent maybe: 'maybe' is neither yes nor no (e.g. yes,no for both) "
                     "(see 'shmemsim limits --help')\n");
}

TEST_F(Runs, SummaryComparesTheAsyncRuntimeDesigns)
{
  // AsyncSHMEM (seed 001): summary.json says which design ran and what it counted per PE. Offload
  // hands every SHMEM call of the task phase to the communication worker; contexts hands none.
  for (const std::string design : {"offload", "contexts"}) {
    const std::string out = "async-" + design;
    const Result r        = sh(launcher() + " -np 3 --quiet --out " + out + " --set job.async.runtime=" + design +
                               " --set job.async.workers=4 " + SHMEMSIM_ASYNC_PROGRAM);
    ASSERT_EQ(r.status, 0) << r.err;
    const json s = json::parse(slurp(dir_ / out / "summary.json"));
    ASSERT_TRUE(s.contains("async")) << s.dump();
    EXPECT_EQ(s["async"]["runtime"], design);
    ASSERT_EQ(s["async"]["pes"].size(), 3u);
    for (const json& pe : s["async"]["pes"]) {
      EXPECT_EQ(pe["workers"], 4);
      EXPECT_GT(pe["tasks"].get<unsigned long>(), 0u);
      if (design == "offload") {
        EXPECT_GT(pe["offloaded_ops"].get<unsigned long>(), 0u);
        EXPECT_GT(pe["comm_utilisation"].get<double>(), 0.0);
        EXPECT_LE(pe["comm_utilisation"].get<double>(), 1.0);
      } else {
        EXPECT_EQ(pe["offloaded_ops"], 0);
      }
    }
  }
}
