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
#include <set>
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
  const std::string opts = " -np 2 --quiet --set emulator.stall_timeout=20s --wall-time-limit 60s --out ";
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

// One step from a run to its report and diagram, in both backends: --report and --diagram write
// what `shmemsim report` and `shmemsim diagram` write on the same directory, and the program's
// stdout and its RESULT figures stay in the run directory (output.txt, reported.json).
TEST_F(Runs, ReportDiagramAndResultFiguresWithTheRun)
{
  const std::string program = std::string(SHMEMSIM_RESULT_PROGRAM) + " -s 64 -n 3";
  for (const std::string mode : {"", " --emulate"}) {
    const std::string d = mode.empty() ? "sim" : "emu";
    const Result r = sh(launcher() + mode + " -np 2 --wall-time-limit 60s --set emulator.stall_timeout=20s --out " + d +
                        " --report --diagram " + program);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(slurp(dir_ / d / "output.txt"), r.out) << d;
    const json reported = json::parse(slurp(dir_ / d / "reported.json"));
    EXPECT_EQ(reported["n"], 3) << d;
    EXPECT_EQ(reported["size"], 64) << d;
    EXPECT_GT(reported["time_us"].get<double>(), 0.0) << d;
    EXPECT_NE(r.err.find("report written to " + d + "/report.json"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("report written"), std::string::npos) << "the report's lines belong on stderr";
    const std::string report = slurp(dir_ / d / "report.json"), diagram = slurp(dir_ / d / "diagram.svg");
    ASSERT_FALSE(report.empty());
    ASSERT_NE(diagram.find("<svg"), std::string::npos);
    // The same files as the analysis commands write afterwards.
    ASSERT_EQ(sh(shmemsim() + " report " + d + " --quiet").status, 0);
    ASSERT_EQ(sh(shmemsim() + " diagram " + d).status, 0);
    EXPECT_EQ(slurp(dir_ / d / "report.json"), report) << d;
    EXPECT_EQ(slurp(dir_ / d / "diagram.svg"), diagram) << d;
  }
  // Without a run directory or a trace there is nothing to analyse: one line, status 2, before running.
  for (const std::string& bad : {std::string(" --report "), std::string(" --out x --trace off --diagram ")}) {
    const Result r = sh(launcher() + " -np 2" + bad + program);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

/// Every key path of `j` ("a.b", arrays as "a[]" over all their elements), not descending into
/// the maps whose keys are data (kinds, wait reasons, contexts, PEs, limits, and the trace header's
/// values, where an emulated trace says its clock is real): those are listed as a path.
void key_paths(const json& j, const std::string& path, std::set<std::string>& out)
{
  static const std::set<std::string> data_keyed = {"by_kind", "by_what", "by_context", "matrix_s", "limits", "meta"};
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string p = path.empty() ? it.key() : path + "." + it.key();
      out.insert(p);
      if (!data_keyed.count(it.key()))
        key_paths(*it, p, out);
    }
  } else if (j.is_array()) {
    for (const json& e : j)
      key_paths(e, path + "[]", out);
  }
}

std::set<std::string> key_paths(const json& j)
{
  std::set<std::string> out;
  key_paths(j, "", out);
  return out;
}

TEST_F(Runs, OneVocabularyInBothBackends)
{
  // One program, simulated and emulated: the summaries' shared blocks and the reports have the
  // same keys (values differ: simulated against real time), the messages the same kinds, and each
  // run's summary counts the deliveries its report (its trace) has -- PE 0 ends its part before
  // PE 1's last requests reach it, so the emulated summary must count them after its end.
  const std::string opts = " -np 2 --quiet --trace ops --set emulator.stall_timeout=20s --wall-time-limit 60s --out ";
  const Result sim       = sh(launcher() + opts + "sim " + SHMEMSIM_VOCAB_PROGRAM);
  ASSERT_EQ(sim.status, 0) << sim.err;
  EXPECT_NE(sim.out.find("vocab: OK on 2 PEs"), std::string::npos) << sim.out;
  const Result emu = sh(launcher() + " --emulate" + opts + "emu " + SHMEMSIM_VOCAB_PROGRAM);
  ASSERT_EQ(emu.status, 0) << emu.err;
  EXPECT_NE(emu.out.find("vocab: OK on 2 PEs"), std::string::npos) << emu.out;
  for (const char* d : {"sim", "emu"})
    ASSERT_EQ(sh(shmemsim() + " report " + d + " > /dev/null").status, 0) << d;

  const json ss = summary("sim"), es = summary("emu");
  for (const char* key : {"sim_time_s", "deliveries", "out_of_order_deliveries", "operations", "latency", "bandwidth",
                          "pes", "endpoints", "nodes", "status", "checks", "exit_status", "platform"}) {
    ASSERT_TRUE(ss.contains(key) && es.contains(key)) << key << " missing in " << (ss.contains(key) ? "emu" : "sim");
    EXPECT_EQ(key_paths(ss[key]), key_paths(es[key])) << key;
  }
  EXPECT_GT(es["sim_time_s"].get<double>(), 0);
  EXPECT_EQ(es["sim_time_s"], es["wall_time_s"]);
  for (const json* s : {&ss, &es}) {
    const std::uint64_t issued = (*s)["operations"]["issued"].get<std::uint64_t>();
    EXPECT_EQ((*s)["deliveries"].get<std::uint64_t>(), issued);
    EXPECT_EQ((*s)["operations"]["acks_received"].get<std::uint64_t>() +
                  (*s)["operations"]["replies_received"].get<std::uint64_t>(),
              issued);
    EXPECT_EQ((*s)["latency"]["delivery"]["count"].get<std::uint64_t>(), issued);
    EXPECT_EQ((*s)["latency"]["completion"]["count"].get<std::uint64_t>(), issued);
    EXPECT_GT((*s)["bandwidth"]["payload_bytes"].get<std::uint64_t>(), 0u);
  }

  json sr = json::parse(slurp(dir_ / "sim" / "report.json"), nullptr, false);
  json er = json::parse(slurp(dir_ / "emu" / "report.json"), nullptr, false);
  ASSERT_FALSE(sr.is_discarded() || er.is_discarded());
  EXPECT_EQ(key_paths(sr), key_paths(er));
  // Deliveries: the summary's count is the report's (the trace's), in both backends.
  EXPECT_EQ(ss["deliveries"], sr["network"]["deliveries"]);
  EXPECT_EQ(es["deliveries"], er["network"]["deliveries"]);
  // Message kinds: the simulated NIC's words in both (no amo/fetch_amo).
  std::map<std::string, std::set<std::string>> kinds;
  using Named = std::pair<std::string, const json*>;
  for (const auto& [name, r] : {Named{"sim", &sr}, Named{"emu", &er}})
    for (const json& nic : (*r)["network"]["nics"])
      for (auto it = nic["by_kind"].begin(); it != nic["by_kind"].end(); ++it)
        kinds[name].insert(it.key());
  EXPECT_EQ(kinds["sim"], (std::set<std::string>{"atomic", "fetch_atomic", "get", "put", "swap"}));
  EXPECT_EQ(kinds["emu"], kinds["sim"]);
}

TEST_F(Runs, EmulatedProgramThatCannotBeLoadedIsOneLine)
{
  // Every PE fails to load it alike: the launcher prints the first PE's line, not one per PE.
  std::ofstream(dir_ / "junk.so") << "not a shared object\n";
  const Result r = sh(launcher() + " --emulate -np 6 --quiet --wall-time-limit 60s junk.so");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("shmemsim-run: PE ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(": cannot load the program: "), std::string::npos) << r.err;
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

// One rule for every time given on a command line: a number with its unit; a bare number is refused
// by the simulated time limit and the wall-clock one alike (and by diagram's --from/--to).
TEST_F(Runs, BareNumberTimesAreRefusedEverywhere)
{
  const Result sim = sh(launcher() + " -np 2 --sim-time-limit 10 " + SHMEMSIM_PROGRAM);
  EXPECT_EQ(sim.status, 2);
  EXPECT_NE(sim.err.find("--sim-time-limit 10: "), std::string::npos) << sim.err;
  const Result wall = sh(launcher() + " -np 2 --wall-time-limit 60 " + SHMEMSIM_PROGRAM);
  EXPECT_EQ(wall.status, 2);
  EXPECT_NE(wall.err.find("shmemsim-run: --wall-time-limit 60: expected a time with a unit"), std::string::npos)
      << wall.err;
  EXPECT_EQ(std::count(wall.err.begin(), wall.err.end(), '\n'), 1) << wall.err;
  const Result ok = sh(launcher() + " -np 2 --quiet --wall-time-limit 60s " + SHMEMSIM_PROGRAM);
  EXPECT_EQ(ok.status, 0) << ok.err;
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

TEST_F(Runs, CompareTwoSweepsPointByPoint)
{
  // Two sweeps of a ping-pong over message size, B on slower links and with one size more: the
  // points are matched by their values, figures side by side; B's extra point is listed.
  auto sweep_scenario = [&](const std::string& name, const std::string& latency, const json& sizes) {
    const json sc = {
        {"platform", {{"nodes", 2}, {"fabric", {{"levels", 1}, {"down", 2}, {"link_latency", latency}}}}},
        {"traffic", {{"pattern", "pingpong"}, {"iterations", 5}}},
        {"output", {{"trace", "off"}}},
        {"sweep", {{"cartesian", json::array({{{"key", "traffic.size"}, {"values", sizes}, {"name", "size"}}})}}}};
    std::ofstream(dir_ / name) << sc.dump(2);
  };
  sweep_scenario("a.json", "100ns", {8, 64});
  sweep_scenario("b.json", "1us", {8, 64, 512});
  ASSERT_EQ(sh(shmemsim() + " sweep a.json -o sa --quiet").status, 0);
  ASSERT_EQ(sh(shmemsim() + " sweep b.json -o sb --quiet").status, 0);

  const Result j = sh(shmemsim() + " compare sa sb --json");
  ASSERT_EQ(j.status, 0) << j.err;
  const json c = json::parse(j.out, nullptr, false);
  ASSERT_FALSE(c.is_discarded()) << j.out;
  ASSERT_EQ(c["points"].size(), 2u) << j.out;
  EXPECT_EQ(c["only_a"], json::array());
  EXPECT_EQ(c["only_b"], json::array({"size=512"}));
  for (std::size_t i = 0; i < 2; ++i) {
    const json& p   = c["points"][i];
    const int size  = i == 0 ? 8 : 64;
    const json sa_s = summary("sa/point-000" + std::to_string(i)), sb_s = summary("sb/point-000" + std::to_string(i));
    EXPECT_EQ(p["values"], json({{"size", size}}));
    EXPECT_EQ(p["label"], "size=" + std::to_string(size));
    const json& t = p["keys"]["summary.sim_time_s"];
    EXPECT_EQ(t["a"], sa_s["sim_time_s"]);
    EXPECT_EQ(t["b"], sb_s["sim_time_s"]);
    EXPECT_GT(t["ratio"].get<double>(), 1.0); // slower links
    EXPECT_EQ(p["keys"]["summary.traffic.0.bytes"]["ratio"], 1.0);
  }

  // The text: per point its label, the headline first, --top and --keys as for two runs.
  const Result text = sh(shmemsim() + " compare sa sb --keys 'sim_time|latency\\.delivery' --top 1");
  ASSERT_EQ(text.status, 0) << text.err;
  const std::string& o = text.out;
  const std::size_t p8 = o.find("\npoint size=8 "), p64 = o.find("\npoint size=64 ");
  ASSERT_NE(p8, std::string::npos) << o;
  ASSERT_NE(p64, std::string::npos) << o;
  EXPECT_LT(o.find("headline\n", p8), p64) << o;
  EXPECT_NE(o.find("summary.sim_time_s", p8), std::string::npos) << o;
  EXPECT_EQ(o.find("summary.traffic"), std::string::npos) << o; // --keys
  EXPECT_NE(o.find("(the first 1 shown: --top)"), std::string::npos) << o;
  EXPECT_NE(o.find("2 points compared, 2 with differing keys\n"), std::string::npos) << o;
  EXPECT_NE(o.find("points only in B (1): [size=512]\n"), std::string::npos) << o;

  // A sweep against a run is refused in one line; so is a sweep without its index.
  expect_one_line_error(sh(shmemsim() + " compare sa sa/point-0000"), "shmemsim",
                        "sa is a sweep directory and sa/point-0000 is not");
  std::ofstream(dir_ / "sb" / "sweep.json") << "{";
  expect_one_line_error(sh(shmemsim() + " compare sa sb"), "shmemsim", "sb/sweep.json: not valid JSON");
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

TEST_F(Runs, LimitsSweepsTriggeredOperations)
{
  // job.collectives.barrier=triggered on 2 PEs: the root holds one triggered put per barrier. With
  // max_triggered_ops 0 the run stops (status 2, its line in the sweep); with 64 the table shows
  // the peak pending against the limit.
  const std::string sc = std::string(SHMEMSIM_SOURCE_DIR) + "/tests/programs/unordered.json";
  const Result r       = sh(shmemsim() + " limits " + sc +
                            " --cts 8 --triggered 0,64 --policies share --set job.pes=2"
                                  " --set job.collectives.barrier=triggered -o lim --quiet " +
                            SHMEMSIM_CTX_PROGRAM + " 3");
  EXPECT_EQ(r.status, 1) << r.err; // one run failed
  EXPECT_NE(r.err.find("max_triggered_ops (0) triggered operations already wait on their thresholds"),
            std::string::npos)
      << r.err;
  const json rows = json::parse(slurp(dir_ / "lim" / "limits.json"))["rows"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["max_triggered_ops"], 0);
  EXPECT_EQ(rows[0]["status"], 2);
  EXPECT_EQ(rows[1]["max_triggered_ops"], 64);
  EXPECT_EQ(rows[1]["status"], 0);
  EXPECT_EQ(rows[1]["triggered_peak"], 1);
  const std::string table = slurp(dir_ / "lim" / "limits.md");
  EXPECT_NE(table.find("triggered peak/limit (1 PE)"), std::string::npos) << table;
  EXPECT_NE(table.find("| 1/64 "), std::string::npos) << table;
}

TEST_F(Runs, LimitsSweepsEventQueues)
{
  // job.portals.event_queue: one event queue per PE. With max_eqs 0 the run stops at setup (status
  // 2, one line naming the limit); with 4 the table shows 1 of 4 per endpoint.
  const std::string sc = std::string(SHMEMSIM_SOURCE_DIR) + "/tests/programs/unordered.json";
  const Result r       = sh(shmemsim() + " limits " + sc +
                            " --cts 8 --eqs 0,4 --policies share --set job.pes=2"
                                  " --set job.portals.event_queue=true -o lim --quiet " +
                            SHMEMSIM_CTX_PROGRAM + " 3");
  EXPECT_EQ(r.status, 1) << r.err; // one run failed
  EXPECT_NE(r.err.find("cannot allocate its event queue (job.portals.event_queue): max_eqs (0) event queues already "
                       "allocated (raise platform.nic.limits.max_eqs)"),
            std::string::npos)
      << r.err;
  const json rows = json::parse(slurp(dir_ / "lim" / "limits.json"))["rows"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["max_eqs"], 0);
  EXPECT_EQ(rows[0]["status"], 2);
  EXPECT_EQ(rows[1]["max_eqs"], 4);
  EXPECT_EQ(rows[1]["status"], 0);
  EXPECT_EQ(rows[1]["eqs_peak"], 1);
  const std::string table = slurp(dir_ / "lim" / "limits.md");
  EXPECT_NE(table.find("EQs peak/limit (1 PE)"), std::string::npos) << table;
  EXPECT_NE(table.find("| 1/4 "), std::string::npos) << table;
}

TEST_F(Runs, EventQueueCompletesBlockingLongPutsAtTheirSendEvent)
{
  // 20 blocking puts of 4 KiB per PE (above max_volatile_size): with job.portals.event_queue each
  // returns at its PTL_EVENT_SEND (payload read) instead of at its ACK, so the timed section is
  // shorter; every put posts one SEND event, none is lost.
  const std::string program = std::string(SHMEMSIM_RESULT_PROGRAM) + " -s 4096 -n 20";
  double time_us[2]         = {0, 0};
  for (int on = 0; on < 2; ++on) {
    const std::string d = on != 0 ? "on" : "off";
    const Result r =
        sh(launcher() + " -np 2 --set job.compute=none --set job.portals.event_queue=" + (on != 0 ? "true" : "false") +
           " --out " + d + " " + program);
    ASSERT_EQ(r.status, 0) << r.err;
    time_us[on]     = json::parse(slurp(dir_ / d / "reported.json"))["time_us"].get<double>();
    const json s    = json::parse(slurp(dir_ / d / "summary.json"));
    const json& nic = s["nic"];
    if (on == 0) {
      EXPECT_FALSE(nic.contains("event_queues")) << nic.dump();
      continue;
    }
    ASSERT_TRUE(nic.contains("event_queues")) << nic.dump();
    EXPECT_EQ(nic["event_queues"]["peak_per_endpoint"], 1);
    EXPECT_EQ(nic["event_queues"]["slots_peak_per_endpoint"], 2048);
    EXPECT_EQ(nic["event_queues"]["events_posted"], 2 * 20);
    EXPECT_EQ(nic["event_queues"]["events_dropped"], 0);
  }
  EXPECT_LT(time_us[1], time_us[0]);
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
