// The `shmemsim` command as users see it: the real binary run as a subprocess (fork/exec, stdout
// and stderr captured separately, exit status checked), one fresh temporary directory per test.
//
// SHMEMSIM_BIN (the built tool) and SHMEMSIM_SOURCE_DIR (for the shipped scenarios) come from
// tests/CMakeLists.txt.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <regex>
#include <string>
#include <vector>

#ifndef SHMEMSIM_BIN
#error "SHMEMSIM_BIN must be defined (path of the shmemsim executable)"
#endif
#ifndef SHMEMSIM_SOURCE_DIR
#error "SHMEMSIM_SOURCE_DIR must be defined (the project's source directory)"
#endif

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kBin       = SHMEMSIM_BIN;
const fs::path kSource    = SHMEMSIM_SOURCE_DIR;
const fs::path kScenarios = kSource / "scenarios";

/// The hint that command-line usage errors print at the end of their one `shmemsim: ` line: the
/// help of the command named (`shmemsim run --help`), or `shmemsim --help` without one.
const std::regex kUsageHint(R"( \(see 'shmemsim( [a-z]+)? --help'\)$)");

// ---------------------------------------------------------------------------------------------
// Running the tool
// ---------------------------------------------------------------------------------------------

struct Result {
  bool exited    = false; ///< terminated normally (not by a signal)
  int status     = -1;    ///< exit status if exited
  int signal     = 0;     ///< terminating signal otherwise
  bool timed_out = false;
  std::string out, err;

  /// For failure messages.
  std::string describe() const
  {
    std::ostringstream o;
    if (timed_out)
      o << "TIMED OUT; ";
    if (exited)
      o << "exit status " << status;
    else
      o << "killed by signal " << signal << " (" << strsignal(signal) << ")";
    o << "\n--- stdout ---\n" << out << "--- stderr ---\n" << err << "--------------";
    return o.str();
  }
};

/// Runs `exe args...` in `cwd` (empty: the current directory), stdin from /dev/null, without a
/// shell. Kills the child after `timeout_s`.
Result run_in(const fs::path& cwd, const std::vector<std::string>& args, const fs::path& exe = kBin,
              double timeout_s = 60)
{
  Result r;
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << std::strerror(errno);
    return r;
  }
  std::vector<std::string> argv_s;
  argv_s.push_back(exe.string());
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string cwd_s = cwd.string();

  const pid_t pid = ::fork();
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here on.
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull < 0 || ::dup2(devnull, 0) < 0 || ::dup2(out_pipe[1], 1) < 0 || ::dup2(err_pipe[1], 2) < 0)
      ::_exit(126);
    if (!cwd_s.empty() && ::chdir(cwd_s.c_str()) != 0)
      ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);

  const auto deadline   = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  pollfd fds[2]         = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds          = 2;
  char buf[65536];
  while (open_fds > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      ADD_FAILURE() << "poll: " << std::strerror(errno);
      ::kill(pid, SIGKILL);
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0)
      ::close(f.fd);

  int ws = 0;
  while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(ws)) {
    r.exited = true;
    r.status = WEXITSTATUS(ws);
  } else if (WIFSIGNALED(ws)) {
    r.signal = WTERMSIG(ws);
  }
  EXPECT_FALSE(r.exited && r.status == 127) << "could not execute " << exe;
  EXPECT_FALSE(r.timed_out) << "shmemsim ran longer than " << timeout_s << " s";
  return r;
}

Result run(const std::vector<std::string>& args)
{
  return run_in({}, args);
}

std::vector<std::string> lines_of(const std::string& text)
{
  std::vector<std::string> r;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    r.push_back(l);
  return r;
}

bool starts_with(const std::string& s, const std::string& prefix)
{
  return s.rfind(prefix, 0) == 0;
}

std::string read_text(const fs::path& p)
{
  std::ifstream f(p, std::ios::binary);
  std::ostringstream o;
  o << f.rdbuf();
  return o.str();
}

json read_json(const fs::path& p)
{
  std::string text = read_text(p);
  json j           = json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << p << " is not valid JSON:\n" << text;
  return j;
}

fs::path scenario(const std::string& rel)
{
  return kScenarios / rel;
}

// ---------------------------------------------------------------------------------------------
// Fixture: a fresh temporary directory per test (mkdtemp), removed afterwards
// ---------------------------------------------------------------------------------------------

class CliTest : public ::testing::Test {
protected:
  void SetUp() override
  {
    ASSERT_TRUE(fs::is_regular_file(kBin)) << "shmemsim binary not found at " << kBin;
    std::string tmpl = (fs::temp_directory_path() / "shmemsim_cli_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr) << "mkdtemp: " << std::strerror(errno);
    dir_ = tmpl;
  }
  void TearDown() override
  {
    std::error_code ec;
    if (!dir_.empty())
      fs::remove_all(dir_, ec);
  }

  const fs::path& dir() const { return dir_; }

  fs::path write(const std::string& name, const std::string& text) const
  {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }

  fs::path mkdir(const std::string& name) const
  {
    fs::path p = dir_ / name;
    fs::create_directories(p);
    return p;
  }

  /// `shmemsim run SCENARIO --out DIR [extra...]`; expects exit 0 and returns summary.json.
  json run_ok(const fs::path& sc, const std::string& out_name, const std::vector<std::string>& extra = {})
  {
    std::vector<std::string> args = {"run", sc.string(), "--out", (dir_ / out_name).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    Result r = run(args);
    EXPECT_TRUE(r.exited && r.status == 0) << sc << ": " << r.describe();
    return read_json(dir_ / out_name / "summary.json");
  }

private:
  fs::path dir_;
};

// Test suites are named cli_* so that `ctest -R cli` selects them.
using cli_determinism = CliTest;
using cli_shipped     = CliTest;
using cli_output      = CliTest;
using cli_bad_input   = CliTest;
using cli_nic_limits  = CliTest;
using cli_info        = CliTest;
using cli_location    = CliTest;
using cli_checks      = CliTest;

/// Bad input: exit status 2 (not a crash), nothing on stdout, and exactly one line on stderr,
/// starting with "shmemsim: " and containing every one of `needles`. Command-line usage errors
/// (`usage`) end that line with the hint "(see 'shmemsim COMMAND --help')".
void expect_bad_input(const Result& r, std::initializer_list<std::string> needles, bool usage = false)
{
  ASSERT_TRUE(r.exited) << "crashed: " << r.describe();
  EXPECT_EQ(r.status, 2) << r.describe();
  EXPECT_EQ(r.out, "") << r.describe();
  ASSERT_FALSE(r.err.empty()) << r.describe();
  EXPECT_EQ(r.err.back(), '\n') << "stderr does not end with a newline: " << r.describe();
  std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << "expected one line on stderr: " << r.describe();
  const std::string& line = lines[0];
  if (usage) {
    EXPECT_TRUE(std::regex_search(line, kUsageHint)) << line;
  }
  EXPECT_TRUE(starts_with(line, "shmemsim: ")) << line;
  for (const std::string& n : needles)
    EXPECT_NE(line.find(n), std::string::npos) << "the message does not mention '" << n << "':\n  " << line;
}

// ---------------------------------------------------------------------------------------------
// 1. Determinism
// ---------------------------------------------------------------------------------------------

TEST_F(cli_determinism, SameScenarioAndSeedGiveByteIdenticalSummaries)
{
  const fs::path sc = scenario("net/alltoall.json");
  // Run 1: working directory w1, relative --out. Run 2: working directory w2, absolute --out
  // somewhere else.
  const fs::path w1 = mkdir("w1"), w2 = mkdir("w2"), elsewhere = mkdir("elsewhere");
  Result r1 = run_in(w1, {"run", sc.string(), "--out", "first"});
  ASSERT_TRUE(r1.exited && r1.status == 0) << r1.describe();
  Result r2 = run_in(w2, {"run", sc.string(), "--out", (elsewhere / "second").string()});
  ASSERT_TRUE(r2.exited && r2.status == 0) << r2.describe();

  const std::string s1 = read_text(w1 / "first" / "summary.json");
  const std::string s2 = read_text(elsewhere / "second" / "summary.json");
  ASSERT_FALSE(s1.empty());
  EXPECT_EQ(s1, s2) << "summary.json differs between two identical runs";

  json j = json::parse(s1, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << s1;
  for (const char* key :
       {"sim_time_s", "events", "deliveries", "out_of_order_deliveries", "latency", "bandwidth", "checks"})
    EXPECT_TRUE(j.contains(key)) << "summary.json has no top-level key " << key;
  EXPECT_GT(j["sim_time_s"].get<double>(), 0);
  EXPECT_GT(j["events"].get<std::uint64_t>(), 0u);
  EXPECT_GT(j["deliveries"].get<std::uint64_t>(), 0u);
  ASSERT_TRUE(j["checks"].is_object());
  EXPECT_EQ(j["checks"]["passed"], true);
}

TEST_F(cli_determinism, AnotherSeedGivesAnotherSummary)
{
  const fs::path sc    = scenario("net/alltoall.json");
  json a               = run_ok(sc, "seed1");
  json b               = run_ok(sc, "seed2", {"--set", "seed=2"});
  const std::string ta = read_text(dir() / "seed1" / "summary.json");
  const std::string tb = read_text(dir() / "seed2" / "summary.json");
  EXPECT_NE(ta, tb) << "--set seed=2 gave the same summary.json as seed 1";
  EXPECT_EQ(b["checks"]["passed"], true);
  // The seed reaches the run: the effective scenario records it.
  EXPECT_EQ(read_json(dir() / "seed2" / "scenario.json")["seed"], 2);
}

// ---------------------------------------------------------------------------------------------
// 2. Shipped scenarios
// ---------------------------------------------------------------------------------------------

TEST_F(cli_shipped, EveryShippedScenarioRunsAndPassesItsChecks)
{
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(kScenarios / "net"))
    if (e.is_regular_file() && e.path().extension() == ".json")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 5u) << "expected the shipped scenarios in " << (kScenarios / "net");
  files.push_back(scenario("default.json"));

  int i = 0;
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.string());
    const std::string out = "out" + std::to_string(i++);
    Result r              = run({"run", f.string(), "--out", (dir() / out).string()});
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.status, 0) << r.describe(); // in particular not 1: every data check passes
    EXPECT_EQ(r.err, "") << r.describe();
    json s = read_json(dir() / out / "summary.json");
    EXPECT_EQ(s["checks"]["passed"], true) << s["checks"].dump();
    ASSERT_TRUE(s["traffic"].is_array() && !s["traffic"].empty());
    for (const auto& t : s["traffic"])
      EXPECT_EQ(t["verified"], true) << "traffic pattern not verified: " << t.dump();
  }
}

TEST_F(cli_shipped, AllToAllDeliversOutOfOrder)
{
  json s = run_ok(scenario("net/alltoall.json"), "a2a");
  EXPECT_GT(s["out_of_order_deliveries"].get<std::uint64_t>(), 0u) << s.dump(2);
}

TEST_F(cli_shipped, DragonflyRoutingsOnGroupAdversarialTraffic)
{
  // Minimal: one global link per pair of groups carries a whole group's traffic, in order. UGAL sends
  // packets through intermediate groups, finishes sooner and delivers out of order.
  const fs::path sc = scenario("net/dragonfly-adversarial.json");
  json m = run_ok(sc, "df-min", {"--set", "platform.fabric.dragonfly.routing=minimal"});
  json u = run_ok(sc, "df-ugal");
  EXPECT_EQ(m["fabric"]["dragonfly"]["routing"], "minimal");
  EXPECT_EQ(m["fabric"]["dragonfly"]["nonminimal_packets"].get<std::uint64_t>(), 0u);
  EXPECT_EQ(m["fabric"]["reordered_packets"].get<std::uint64_t>(), 0u);
  EXPECT_LE(m["fabric"]["dragonfly"]["max_switch_hops"].get<std::uint64_t>(), 3u);
  EXPECT_EQ(u["fabric"]["dragonfly"]["routing"], "ugal");
  EXPECT_GT(u["fabric"]["dragonfly"]["nonminimal_packets"].get<std::uint64_t>(), 0u);
  EXPECT_GT(u["fabric"]["reordered_packets"].get<std::uint64_t>(), 0u);
  EXPECT_LE(u["fabric"]["dragonfly"]["max_switch_hops"].get<std::uint64_t>(), 5u);
  EXPECT_LT(u["sim_time_s"].get<double>(), m["sim_time_s"].get<double>());
  EXPECT_EQ(u["traffic"][0]["verified"], true);
}

TEST_F(cli_shipped, DragonflyWithCreditFlowControl)
{
  // Two packets of room per virtual channel: every put arrives and is verified, the senders stall
  // for credits, and UGAL, now seeing the backpressure, still finishes before minimal routing.
  const fs::path sc = scenario("net/dragonfly-adversarial.json");
  json m = run_ok(sc, "dfc-min",
                  {"--set", "platform.fabric.dragonfly.routing=minimal", "--set", "platform.fabric.buffer=8KiB",
                   "--set", "platform.nic.rx_buffer=8KiB"});
  json u = run_ok(sc, "dfc-ugal", {"--set", "platform.fabric.buffer=8KiB", "--set", "platform.nic.rx_buffer=8KiB"});
  for (const json* s : {&m, &u}) {
    EXPECT_EQ((*s)["traffic"][0]["verified"], true);
    EXPECT_GT((*s)["fabric"]["flow_control"]["credit_stalls"].get<std::uint64_t>(), 0u);
  }
  EXPECT_EQ(m["fabric"]["dragonfly"]["virtual_channels"], 2);
  EXPECT_EQ(u["fabric"]["dragonfly"]["virtual_channels"], 3);
  EXPECT_EQ(m["fabric"]["reordered_packets"].get<std::uint64_t>(), 0u);
  EXPECT_GT(u["fabric"]["dragonfly"]["nonminimal_packets"].get<std::uint64_t>(), 0u);
  EXPECT_LT(u["sim_time_s"].get<double>(), m["sim_time_s"].get<double>());
}

TEST_F(cli_shipped, OpenLoopLatencyAndAcceptedLoad)
{
  // Below saturation the fabric accepts what is offered; group-adversarial traffic under minimal
  // routing sends a group's 8 endpoints through one global link: it saturates at 1/8 of a link.
  const fs::path sc = scenario("net/dragonfly-open-loop.json");
  json low          = run_ok(sc, "ol-low");
  json mid          = run_ok(sc, "ol-mid", {"--set", "traffic.load=0.6"});
  json adv = run_ok(sc, "ol-adv", {"--set", "traffic.pattern=shift", "--set", "traffic.shift=8", "--set", "traffic.load=0.5"});
  const json& l = low["traffic"][0]["open_loop"];
  const json& a = adv["traffic"][0]["open_loop"];
  EXPECT_EQ(l["offered_load"].get<double>(), 0.1);
  EXPECT_NEAR(l["accepted_load"].get<double>(), 0.1, 0.01) << l.dump();
  EXPECT_GT(l["packets_measured"].get<std::uint64_t>(), 1000u) << l.dump();
  // An uncontended packet: 2 endpoint and 2 local links of 10 ns, a global one of 100 ns, 4 switches
  // of 3 ns and one 10 ns serialization at most; 2 links, a switch and a serialization at least.
  EXPECT_GT(l["latency_mean_s"].get<double>(), 33e-9) << l.dump();
  EXPECT_LT(l["latency_mean_s"].get<double>(), 162e-9 * 1.2) << l.dump();
  EXPECT_LE(l["latency_p50_s"].get<double>(), l["latency_p99_s"].get<double>());
  // The NIC never holds packets back: a uniform 60 % gets through, later than 10 %.
  const json& m = mid["traffic"][0]["open_loop"];
  EXPECT_NEAR(m["accepted_load"].get<double>(), 0.6, 0.03) << m.dump();
  EXPECT_GT(m["latency_mean_s"].get<double>(), l["latency_mean_s"].get<double>()) << m.dump();
  EXPECT_NEAR(a["accepted_load"].get<double>(), 0.125, 0.01) << a.dump();
  EXPECT_GT(a["latency_mean_s"].get<double>(), 10 * l["latency_mean_s"].get<double>()) << a.dump();
}

TEST_F(cli_shipped, ZeroPcieLatencyRuns)
{
  // Events scheduled with no delay at all: their date, read back from picoseconds, can fall a
  // rounding step before SimGrid's clock; the run must complete (it once aborted in SimGrid).
  const fs::path sc = scenario("net/dragonfly-open-loop.json");
  json s            = run_ok(sc, "pcie0", {"--set", "platform.nic.pcie_latency=0ns"});
  EXPECT_NEAR(s["traffic"][0]["open_loop"]["accepted_load"].get<double>(), 0.1, 0.01) << s.dump();
}

TEST_F(cli_bad_input, OpenLoopNeedsAnOpenLoopPatternAndNoAcks)
{
  const fs::path sc = scenario("net/dragonfly-open-loop.json");
  Result r          = run({"run", sc.string(), "--set", "traffic.pattern=pingpong"});
  EXPECT_TRUE(r.exited && r.status != 0) << r.describe();
  EXPECT_NE(r.err.find("traffic.injection"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("random or shift"), std::string::npos) << r.err;
  r = run({"run", sc.string(), "--set", "traffic.ack=ct"});
  EXPECT_TRUE(r.exited && r.status != 0) << r.describe();
  EXPECT_NE(r.err.find("traffic.ack"), std::string::npos) << r.err;
  r = run({"run", sc.string(), "--set", "traffic.warmup=1ms"});
  EXPECT_TRUE(r.exited && r.status != 0) << r.describe();
  EXPECT_NE(r.err.find("traffic.warmup"), std::string::npos) << r.err;
}

TEST_F(cli_shipped, OrderedHoldsBackReorderedPackets)
{
  json s = run_ok(scenario("net/ordered.json"), "ordered");
  EXPECT_EQ(s["out_of_order_deliveries"].get<std::uint64_t>(), 0u);
  EXPECT_GT(s["fabric"]["reordered_packets"].get<std::uint64_t>(), 0u)
      << "the fabric should still reorder packets under total data ordering";
}

TEST_F(cli_shipped, PingPongHalfRoundTripIsPositiveAndRepeatable)
{
  json a = run_ok(scenario("net/pingpong.json"), "p1");
  json b = run_ok(scenario("net/pingpong.json"), "p2");
  ASSERT_TRUE(a["traffic"].is_array() && !a["traffic"].empty());
  ASSERT_TRUE(a["traffic"][0].contains("half_round_trip_s")) << a["traffic"].dump();
  const double x = a["traffic"][0]["half_round_trip_s"].get<double>();
  const double y = b["traffic"][0]["half_round_trip_s"].get<double>();
  EXPECT_GT(x, 0.0);
  EXPECT_LE(std::fabs(x - y), 1e-12 * std::max(std::fabs(x), std::fabs(y))) << x << " vs " << y;
}

// Hours of simulated time: past 2^53 ps a picosecond date no longer survives SimGrid's double
// clock; the run must still advance (it used to spin forever at the first such date).
TEST_F(cli_shipped, PingPongOverHoursOfSimulatedTimeEnds)
{
  json a =
      run_ok(scenario("net/pingpong.json"), "long", {"--set", "traffic.gap=10s", "--set", "traffic.iterations=1000"});
  ASSERT_TRUE(a["traffic"].is_array() && !a["traffic"].empty());
  EXPECT_GT(a["sim_time_s"].get<double>(), 20000.0) << a.dump();
  EXPECT_NEAR(a["traffic"][0]["half_round_trip_s"].get<double>(), 10.0, 1e-5);
}

// ---------------------------------------------------------------------------------------------
// 3. Output
// ---------------------------------------------------------------------------------------------

TEST_F(cli_output, ReportNamesTheSummaryFile)
{
  const fs::path out = dir() / "report";
  Result r           = run({"run", scenario("net/pingpong.json").string(), "--out", out.string()});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_NE(r.out.find("summary written to"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find((out / "summary.json").string()), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(out / "summary.json"));
  EXPECT_TRUE(fs::is_regular_file(out / "scenario.json"));
  EXPECT_EQ(r.err, "");
}

TEST_F(cli_output, ReportWithoutOutWritesNoSummary)
{
  Result r = run_in(dir(), {"run", scenario("net/pingpong.json").string()});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_NE(r.out.find("checks"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("summary written to"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_empty(dir())) << "a run without --out wrote files into its working directory";
}

TEST_F(cli_output, QuietPrintsNothing)
{
  const fs::path out = dir() / "quiet";
  Result r           = run({"run", scenario("net/pingpong.json").string(), "--quiet", "--out", out.string()});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_regular_file(out / "summary.json")) << "--quiet must still write the summary";
}

TEST_F(cli_output, PerfGoesToStderr)
{
  Result r = run({"run", scenario("net/pingpong.json").string(), "--quiet", "--perf"});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_EQ(r.out, "");
  std::vector<std::string> lines = lines_of(r.err);
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return starts_with(l, "perf:"); }))
      << r.describe();

  // The same without --quiet: the report on stdout, perf still on stderr only.
  Result v = run({"run", scenario("net/pingpong.json").string(), "--perf"});
  ASSERT_TRUE(v.exited && v.status == 0) << v.describe();
  EXPECT_EQ(v.out.find("perf:"), std::string::npos) << v.out;
  EXPECT_TRUE(starts_with(v.err, "perf:")) << v.describe();
}

TEST_F(cli_output, OutRecordsATraceAtLevelOps)
{
  const fs::path out = dir() / "traced";
  Result r           = run({"run", scenario("net/alltoall.json").string(), "--out", out.string()});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_NE(r.out.find((out / "trace.evt").string()), std::string::npos)
      << "the report should say where the trace went:\n"
      << r.out;
  const std::string t = read_text(out / "trace.evt");
  ASSERT_TRUE(starts_with(t, "#shmemsim-trace 1\n#level ops\n")) << t.substr(0, 200);
  json s = read_json(out / "summary.json");
  // One `msg` and one `dlv` line per delivered message; out-of-order ones flagged as the summary counts.
  // The RDMA reads that pull puts above qdr-16's inline size are messages of their own, not requests
  // (no delivery of the summary's count).
  std::uint64_t msgs = 0, dlv = 0, ooo = 0, hops = 0, reads = 0;
  std::set<std::uint64_t> read_ids;
  for (const std::string& l : lines_of(t)) {
    hops += starts_with(l, "hop ");
    if (starts_with(l, "msg ")) {
      std::istringstream in(l.substr(4));
      std::uint64_t when = 0, id = 0, op = 0;
      int src = 0, dst = 0;
      std::string kind;
      in >> when >> id >> op >> src >> dst >> kind;
      if (kind == "rdma_read")
        read_ids.insert(id);
      else
        ++msgs;
    }
    if (starts_with(l, "dlv ")) {
      std::istringstream in(l.substr(4));
      std::uint64_t when = 0, id = 0;
      int flag = 0;
      in >> when >> id >> flag;
      if (read_ids.count(id)) {
        ++reads;
        continue;
      }
      ++dlv;
      ooo += flag == 1;
    }
  }
  EXPECT_EQ(reads, read_ids.size());
  EXPECT_EQ(dlv, s["deliveries"].get<std::uint64_t>());
  EXPECT_EQ(msgs, dlv);
  EXPECT_EQ(ooo, s["out_of_order_deliveries"].get<std::uint64_t>());
  EXPECT_GT(ooo, 0u);
  EXPECT_EQ(hops, 0u) << "level ops records no packet hops";
}

TEST_F(cli_output, TracePacketsRecordsLinksAndHopsAndIsDeterministic)
{
  const fs::path a = dir() / "p1", b = dir() / "p2";
  for (const fs::path& out : {a, b}) {
    Result r =
        run({"run", scenario("net/incast.json").string(), "--quiet", "--out", out.string(), "--trace", "packets"});
    ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  }
  const std::string t = read_text(a / "trace.evt");
  EXPECT_NE(t.find("#level packets\n"), std::string::npos);
  EXPECT_NE(t.find("\nlink 0 node0.up\n"), std::string::npos);
  EXPECT_NE(t.find("\nhop "), std::string::npos);
  EXPECT_EQ(t, read_text(b / "trace.evt")) << "two identical runs gave different traces";
}

TEST_F(cli_output, TraceOffWritesNoTrace)
{
  const fs::path out = dir() / "untraced";
  Result r           = run(
                {"run", scenario("net/pingpong.json").string(), "--quiet", "--out", out.string(), "--set", "output.trace=off"});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_TRUE(fs::is_regular_file(out / "summary.json"));
  EXPECT_FALSE(fs::exists(out / "trace.evt"));
}

TEST_F(cli_bad_input, TraceNeedsOutAndAKnownLevel)
{
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--trace", "ops"}), {"--trace ops", "--out"});
  expect_bad_input(
      run({"run", scenario("net/pingpong.json").string(), "--out", (dir() / "x").string(), "--trace", "verbose"}),
      {"--trace verbose", "off, ops or packets"});
}

// ---------------------------------------------------------------------------------------------
// 4. Bad input
// ---------------------------------------------------------------------------------------------

TEST_F(cli_bad_input, MalformedJsonNamesFileLineAndColumn)
{
  // The second comma on line 4 is at column 16.
  fs::path f = write("bad.json", "{\n  \"seed\": 1,\n  \"platform\": {\n    \"nodes\": 4,,\n  }\n}\n");
  expect_bad_input(run({"run", f.string()}), {f.string() + ":4:16:", "malformed JSON"});
}

TEST_F(cli_bad_input, UnknownKeyNamesPathAndSuggestion)
{
  fs::path f = write("unknown.json", R"({"platform": {"fabric": {"routnig": "dmodk"}}})");
  expect_bad_input(run({"run", f.string()}),
                   {f.string(), "platform.fabric.routnig", "unknown key", "did you mean", "routing"});
}

TEST_F(cli_bad_input, WrongTypeNamesPathAndValue)
{
  fs::path f = write("type.json", R"({"platform": {"nodes": "many"}})");
  expect_bad_input(run({"run", f.string()}), {f.string(), "platform.nodes", "\"many\"", "integer"});
}

TEST_F(cli_bad_input, BadUnitNamesPathValueAndForms)
{
  fs::path f = write("unit.json", R"({"platform": {"fabric": {"link_latency": "10 parsecs"}}})");
  expect_bad_input(run({"run", f.string()}), {f.string(), "platform.fabric.link_latency", "10 parsecs", "us"});
}

TEST_F(cli_bad_input, UnknownRoutingListsChoices)
{
  fs::path f = write("routing.json", R"({"platform": {"fabric": {"routing": "ecmp"}}})");
  expect_bad_input(run({"run", f.string()}),
                   {f.string(), "platform.fabric.routing", "ecmp", "dmodk", "random", "adaptive"});
}

TEST_F(cli_bad_input, ImpossibleFatTreeShape)
{
  fs::path f = write("shape.json", R"({"platform": {"fabric": {"levels": 2, "down": [4, 4, 4], "up": [4]}}})");
  expect_bad_input(run({"run", f.string()}), {f.string(), "platform.fabric", "down", "2", "3"});
}

TEST_F(cli_bad_input, BufferThatCannotHoldOnePacket)
{
  fs::path f = write("buffer.json", R"({"platform": {"fabric": {"buffer": "1KiB"}}})");
  expect_bad_input(run({"run", f.string()}), {f.string(), "platform.fabric.buffer", "1KiB", "cannot hold one packet"});
  fs::path g = write("rx.json", R"({"platform": {"fabric": {"mtu": 4096}, "nic": {"rx_buffer": 4096}}})");
  expect_bad_input(run({"run", g.string()}), {g.string(), "platform.nic.rx_buffer", "4160"});
}

TEST_F(cli_bad_input, ImpossibleDragonflies)
{
  const std::string df = R"("topology": "dragonfly", "dragonfly": {"switches_per_group": 4, "global_per_switch": 2)";
  fs::path f = write("df-groups.json", R"({"platform": {"fabric": {)" + df + R"(, "groups": 4}}}})");
  expect_bad_input(run({"run", f.string()}), {f.string(), "platform.fabric", "8 global ports", "3 other groups"});
  fs::path g = write("df-nodes.json", R"({"platform": {"nodes": 100, "fabric": {)" + df + R"(, "groups": 3}}}})");
  expect_bad_input(run({"run", g.string()}), {g.string(), "platform.nodes", "100", "capacity 48"});
  fs::path h = write("df-buffer.json", R"({"platform": {"fabric": {)" + df + R"(}, "buffer": "2KiB"}}})");
  expect_bad_input(run({"run", h.string()}), {h.string(), "platform.fabric.buffer", "2KiB", "cannot hold one packet"});
}

TEST_F(cli_bad_input, TooManyNodesForTheTree)
{
  fs::path f = write("nodes.json", R"({"platform": {"nodes": 100, "fabric": {"levels": 1, "down": 16}}})");
  expect_bad_input(run({"run", f.string()}), {f.string(), "platform.nodes", "100", "16"});
}

TEST_F(cli_bad_input, MissingFile)
{
  const fs::path f = dir() / "no-such-scenario.json";
  expect_bad_input(run({"run", f.string()}), {f.string(), "cannot read"});
  expect_bad_input(run({"validate", f.string()}), {f.string(), "cannot read"});
}

TEST_F(cli_bad_input, UnknownSetKeyNamesTheSetArgument)
{
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--set", "seeed=3"}),
                   {"--set seeed=3", "unknown key", "did you mean", "seed"});
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--set", "platform.fabric.routnig=random"}),
                   {"--set platform.fabric.routnig=random", "routnig", "did you mean", "routing"});
}

TEST_F(cli_bad_input, BadSetValueNamesTheSetArgument)
{
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--set", "platform.fabric.routing=ecmp"}),
                   {"--set platform.fabric.routing=ecmp", "ecmp", "dmodk", "random", "adaptive"});
}

TEST_F(cli_bad_input, BadCommandLineOption)
{
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--bogus"}),
                   {"run: unknown option '--bogus' (see 'shmemsim run --help')"}, /*usage=*/true);
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--set"}), {"run: --set needs a value"},
                   /*usage=*/true);
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--quiet=yes"}), {"run: --quiet takes no value"},
                   /*usage=*/true);
  expect_bad_input(run({"run", scenario("net/pingpong.json").string(), "--set", "nokeyvalue"}), {"--set", "KEY=VALUE"},
                   /*usage=*/true);
  expect_bad_input(run({"frobnicate"}), {"frobnicate", "(see 'shmemsim --help')"}, /*usage=*/true);
  expect_bad_input(run({}), {"command"}, /*usage=*/true);
}

TEST_F(cli_bad_input, MissingScenarioArgument)
{
  expect_bad_input(run({"run"}), {"SCENARIO"}, /*usage=*/true);
  expect_bad_input(run({"run", "--quiet"}), {"SCENARIO"}, /*usage=*/true);
  expect_bad_input(run({"validate"}), {"SCENARIO"}, /*usage=*/true);
}

TEST_F(cli_bad_input, RunWithTwoScenarioFiles)
{
  const std::string a = scenario("net/pingpong.json").string();
  const std::string b = scenario("net/stream.json").string();
  expect_bad_input(run({"run", a, b}), {b, "one scenario"}, /*usage=*/true);
  EXPECT_FALSE(fs::exists(dir() / "out"));
}

TEST_F(cli_bad_input, TrafficBuffersThatCannotExistAreRefused)
{
  // window x size wraps 64 bits: refused before any buffer is made (it used to write past one).
  const std::string sc = scenario("net/stream.json").string();
  expect_bad_input(run({"run", sc, "--set", "traffic.size=281474976710657", "--set", "traffic.window=65536", "--set",
                        "platform.nic.limits.max_msg_size=281474976710657"}),
                   {sc, "traffic[0] (stream)", "more than 2^64 bytes", "traffic.window"});
  expect_bad_input(run({"run", sc, "--set", "traffic.size=1073741824", "--set", "traffic.window=128", "--set",
                        "platform.nic.limits.max_msg_size=1073741824"}),
                   {sc, "137438953472 bytes", "at most 64 GiB"});
}

// ---------------------------------------------------------------------------------------------
// 5. NIC resources exhausted at setup
// ---------------------------------------------------------------------------------------------

TEST_F(cli_nic_limits, TooFewCountingEventsIsBadInput)
{
  // Every active endpoint of a pattern needs at least two counting events (target LE, source MD).
  const fs::path out = dir() / "cts";
  Result r           = run(
                {"run", scenario("net/alltoall.json").string(), "--set", "platform.nic.limits.max_cts=1", "--out", out.string()});
  expect_bad_input(r, {scenario("net/alltoall.json").string(), "PTL_NO_SPACE", "max_cts"});
  EXPECT_FALSE(fs::exists(out / "summary.json")) << "a run that could not start wrote a summary";
}

// ---------------------------------------------------------------------------------------------
// 6. keys, presets, validate, --help
// ---------------------------------------------------------------------------------------------

TEST_F(cli_info, KeysListsRoutingWithChoices)
{
  Result r = run({"keys"});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_EQ(r.err, "");
  std::vector<std::string> lines = lines_of(r.out);
  auto it                        = std::find_if(lines.begin(), lines.end(),
                                                [](const std::string& l) { return starts_with(l, "platform.fabric.routing "); });
  ASSERT_NE(it, lines.end()) << "no line for platform.fabric.routing in:\n" << r.out;
  for (const char* choice : {"dmodk", "random", "adaptive"})
    EXPECT_NE(it->find(choice), std::string::npos) << *it;
  for (const char* key : {"seed", "platform.nodes", "platform.nic.limits.max_cts", "job.pes", "traffic.pattern"})
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(),
                            [&](const std::string& l) { return starts_with(l, std::string(key) + " "); }))
        << "keys does not list " << key;
}

TEST_F(cli_info, PresetsListsEveryBuiltIn)
{
  Result r = run({"presets"});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  std::vector<std::string> lines = lines_of(r.out);
  // One line per preset: its name, then its description, the descriptions in one column.
  ASSERT_EQ(lines.size(), 3u) << r.out;
  const char* names[] = {"bxi-v2", "qdr-16", "slingshot-11"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_TRUE(starts_with(lines[i], std::string(names[i]) + " ")) << r.out;
    EXPECT_EQ(lines[i].find_first_not_of(' ', std::string(names[i]).size()), std::string("slingshot-11  ").size())
        << lines[i];
  }
}

TEST_F(cli_info, ValidatePrintsEveryEffectiveValueAsJson)
{
  Result r = run({"validate", scenario("net/pingpong.json").string(), "--set", "platform.fabric.routing=random"});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  EXPECT_EQ(r.err, "");
  json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (const char* section : {"platform", "job", "traffic"})
    EXPECT_TRUE(j.contains(section)) << "validate output lacks " << section << ":\n" << r.out;
  EXPECT_TRUE(j.contains("seed"));
  EXPECT_EQ(j["platform"]["fabric"]["routing"], "random");
  EXPECT_EQ(j["platform"]["preset"], "qdr-16");
  ASSERT_TRUE(j["traffic"].is_array() && j["traffic"].size() == 1u);
  EXPECT_EQ(j["traffic"][0]["pattern"], "pingpong");
  EXPECT_FALSE(fs::exists(dir() / "summary.json"));
}

TEST_F(cli_info, ValidateAcceptsTheEmptyScenario)
{
  fs::path f = write("empty.json", "{}");
  Result r   = run({"validate", f.string()});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  for (const char* section : {"platform", "job", "traffic"})
    EXPECT_TRUE(j.contains(section)) << section;
}

TEST_F(cli_info, HelpExitsZero)
{
  for (const char* flag : {"--help", "-h", "help"}) {
    Result r = run({flag});
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.status, 0) << flag << ": " << r.describe();
    EXPECT_NE(r.out.find("usage: shmemsim"), std::string::npos) << r.out;
    EXPECT_EQ(r.err, "");
  }
}

// ---------------------------------------------------------------------------------------------
// 7. Through a symlink, from another working directory
// ---------------------------------------------------------------------------------------------

TEST_F(cli_location, WorksThroughSymlinkFromAnotherDirectory)
{
  const fs::path link = mkdir("bin") / "shmemsim";
  fs::create_symlink(fs::absolute(kBin), link);
  const fs::path cwd = mkdir("somewhere/else");

  Result v = run_in(cwd, {"validate", scenario("net/alltoall.json").string()}, link);
  ASSERT_TRUE(v.exited && v.status == 0) << v.describe();
  json j = json::parse(v.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << v.out;
  EXPECT_EQ(j["platform"]["preset"], "qdr-16");

  Result p = run_in(cwd, {"presets"}, link);
  ASSERT_TRUE(p.exited && p.status == 0) << p.describe();
  EXPECT_NE(p.out.find("qdr-16"), std::string::npos);

  // A run through the symlink gives the same summary as the binary itself.
  Result r = run_in(cwd, {"run", scenario("net/pingpong.json").string(), "--quiet", "--out", "via-link"}, link);
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  json direct = run_ok(scenario("net/pingpong.json"), "direct");
  EXPECT_EQ(read_text(cwd / "via-link" / "summary.json"), read_text(dir() / "direct" / "summary.json"));
}

TEST_F(cli_location, PresetFileIsRelativeToTheScenarioNotTheWorkingDirectory)
{
  write("scen/platforms/tiny.json", R"({"description": "4 nodes", "platform": {"nodes": 4, "fabric": {"down": 4}}})");
  write("scen/tiny-pingpong.json",
        R"({"platform": {"preset": "platforms/tiny.json"}, "traffic": {"pattern": "pingpong", "iterations": 10}})");
  const fs::path cwd = mkdir("cwd");
  Result r           = run_in(cwd, {"validate", "../scen/tiny-pingpong.json"});
  ASSERT_TRUE(r.exited && r.status == 0) << r.describe();
  json j = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["platform"]["nodes"], 4);
  Result s = run_in(cwd, {"run", "../scen/tiny-pingpong.json", "--quiet"});
  EXPECT_TRUE(s.exited && s.status == 0) << s.describe();
}

// ---------------------------------------------------------------------------------------------
// 8. Traffic the NI's limits would reject is bad input, refused before the run
// ---------------------------------------------------------------------------------------------
//
// Landed data cannot be corrupted from outside the tool, so exit status 1 (a data check failed)
// is not reachable from here; the shipped scenarios never exit 1
// (cli_shipped.EveryShippedScenarioRunsAndPassesItsChecks). What users can do is ask for
// operations the platform's limits forbid: that is refused up front, in one line.

TEST_F(cli_checks, FetchAddAboveMaxFetchAtomicSizeIsRefusedBeforeTheRun)
{
  const fs::path out = dir() / "refused";
  Result r = run({"run", scenario("net/alltoall.json").string(), "--set", "platform.nic.limits.max_fetch_atomic_size=4",
                  "--out", out.string()});
  expect_bad_input(r, {"traffic[1] (fetch_add)", "max_fetch_atomic_size", "PTL_ARG_INVALID"});
  EXPECT_FALSE(fs::exists(out / "summary.json")) << "nothing ran, nothing to summarize";
}

TEST_F(cli_checks, PutsAboveMaxMsgSizeAreRefusedBeforeTheRun)
{
  Result r = run({"run", scenario("net/pingpong.json").string(), "--set", "platform.nic.limits.max_msg_size=4"});
  expect_bad_input(r, {"traffic[0] (pingpong)", "max_msg_size", "size 8 B"});
}

} // namespace

// ---------------------------------------------------------------------------------------------
// 9. Parser robustness: what the JSON parser accepts silently or cannot survive
// ---------------------------------------------------------------------------------------------

using cli_parser = CliTest;

TEST_F(cli_parser, DeepNestingIsRefusedNotACrash)
{
  // It used to overflow the stack (segmentation fault) when the value was echoed or walked.
  const std::size_t depth = 60000;
  fs::path f = write("deep.json", "{\"description\": " + std::string(depth, '[') + std::string(depth, ']') + "}");
  expect_bad_input(run({"validate", f.string()}), {f.string(), "nested deeper than 100 levels", "description"});
  expect_bad_input(run({"validate", scenario("net/pingpong.json").string(), "--set",
                        "description=" + std::string(depth, '[') + std::string(depth, ']')}),
                   {"--set description=[[[", "nested deeper than 100 levels"});
}

TEST_F(cli_parser, NulByteIsRefusedWithItsOffset)
{
  // Everything after a NUL used to be ignored, silently.
  fs::path f = write("nul.json", std::string("{\"seed\": 3}\0{\"platform\": 42}", 28));
  expect_bad_input(run({"validate", f.string()}), {f.string() + ":1:12:", "NUL byte at byte offset 11"});
}

TEST_F(cli_parser, JsonLibraryExceptionsAreNamedLines)
{
  // A number too large for a double: used to print "[json.exception.out_of_range.406] ..." alone.
  fs::path f = write("big.json", R"({"job": {"compute_scale": 1e400}})");
  Result r   = run({"validate", f.string()});
  expect_bad_input(r, {f.string() + ":1:", "number overflow", "1e400"});
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
  // An array index beyond 64 bits in --set: used to print "stoull" alone.
  r = run({"validate", scenario("net/alltoall.json").string(), "--set", "traffic.99999999999999999999999.size=8"});
  expect_bad_input(r, {"--set traffic.99999999999999999999999.size=8", "out of range"});
  EXPECT_EQ(r.err.find("stoull"), std::string::npos) << r.err;
  // Invalid UTF-8 in --set: used to print "[json.exception.type_error.316] invalid UTF-8 byte ..." alone.
  r = run({"validate", scenario("net/pingpong.json").string(), "--set", "description=caf\xE9"});
  expect_bad_input(r, {"--set description=caf", "not valid UTF-8", "byte 15"});
  EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
}

TEST_F(cli_parser, FileErrorIsNotBlamedOnAnUnrelatedSet)
{
  // The file's fabric shape is wrong; --set only changes the routing.
  fs::path f = write("shape.json", R"({"platform": {"fabric": {"levels": 2, "down": [4], "up": [4]}}})");
  Result r   = run({"validate", f.string(), "--set", "platform.fabric.routing=adaptive"});
  expect_bad_input(r, {f.string() + ": platform.fabric: down must give one port count per level"});
  EXPECT_EQ(r.err.find("--set"), std::string::npos) << r.err;
  // A --set that does make the shape wrong is still named.
  expect_bad_input(run({"validate", scenario("net/pingpong.json").string(), "--set", "platform.fabric.levels=2"}),
                   {"--set platform.fabric.levels=2: platform.fabric:"});
}

TEST_F(cli_parser, EchoedValuesAreCut)
{
  const std::string huge(10'000'000, '7');
  fs::path f = write("huge.json", R"({"platform": {"fabric": {"link_latency": ")" + huge + R"(parsecs"}}})");
  Result r   = run({"validate", f.string()});
  expect_bad_input(r, {f.string(), "platform.fabric.link_latency", "\"777", "...\""});
  EXPECT_LT(r.err.size(), 600u) << r.err.substr(0, 600);
  fs::path g = write("hugekey.json", "{\"" + huge + "\": 1}");
  r          = run({"validate", g.string()});
  expect_bad_input(r, {g.string(), "777...", "unknown key"});
  EXPECT_LT(r.err.size(), 600u) << r.err.substr(0, 600);
  r = run({"validate", scenario("net/pingpong.json").string(), "--set",
           "platform.fabric.jitter=" + huge.substr(0, 100000) + "s"});
  expect_bad_input(r, {"--set platform.fabric.jitter=777", "..."});
  EXPECT_LT(r.err.size(), 600u) << r.err.substr(0, 600);
}

TEST_F(cli_parser, OutOfMemoryNamesTheKeysThatSizeTheModel)
{
  // Under a 600 MB address-space limit, 256 NICs of 65536 injection queues cannot be built: this
  // used to print "std::bad_alloc" alone.
#if defined(SHMEMSIM_SANITIZED)
  GTEST_SKIP() << "AddressSanitizer's shadow memory needs far more address space than ulimit -v leaves";
#endif
  const std::string sc = scenario("net/pingpong.json").string();
  Result r =
      run_in({},
             {"-c", "ulimit -v 600000 && exec \"$0\" \"$@\"", kBin.string(), "run", sc, "--set", "platform.nodes=256",
              "--set", "platform.fabric.down=256", "--set", "platform.nic.injection_queues=65536"},
             "/bin/sh");
  expect_bad_input(r, {sc + ": not enough memory to build the platform's model", "platform.nodes 256",
                       "platform.nic.injection_queues 65536"});
  // Tables a NIC sizes from single keys are bounded at parse time.
  expect_bad_input(run({"validate", sc, "--set", "platform.nic.injection_queues=2147483647"}),
                   {"platform.nic.injection_queues", "between 1 and 65536"});
  expect_bad_input(run({"validate", sc, "--set", "platform.nic.limits.max_pt_index=2147483647"}),
                   {"platform.nic.limits.max_pt_index", "between 0 and 65535"});
}

TEST_F(cli_parser, DuplicateKeysAreRefused)
{
  fs::path f =
      write("dup.json", R"({"seed": 1, "platform": {"fabric": {"mtu": 1024, "routing": "random", "mtu": 4096}}})");
  expect_bad_input(run({"validate", f.string()}), {f.string(), "\"mtu\" appears twice in platform.fabric"});
  fs::path g = write("dup2.json", R"({"traffic": [{"size": 8}, {"size": 8, "size": 16}], "seed": 2})");
  expect_bad_input(run({"validate", g.string()}), {g.string(), "\"size\" appears twice in traffic[1]"});
  fs::path h = write("dup3.json", R"({"seed": 1, "seed": 2})");
  expect_bad_input(run({"validate", h.string()}), {h.string(), "\"seed\" appears twice in the top-level object"});
}

// ---------------------------------------------------------------------------------------------
// 10. Times and rates bounded so that the picosecond clock cannot overflow
// ---------------------------------------------------------------------------------------------

using cli_bounds = CliTest;

TEST_F(cli_bounds, TimesAboveAMillionSecondsAreRefused)
{
  const std::string sc = scenario("net/pingpong.json").string();
  expect_bad_input(run({"validate", sc, "--set", "platform.fabric.switch_latency=1e7s"}),
                   {"--set platform.fabric.switch_latency=1e7s", "platform.fabric.switch_latency", "\"1e7s\"",
                    "between 0ns and 1000000s"});
  expect_bad_input(run({"validate", sc, "--set", "platform.nic.pcie_latency=1e30s"}),
                   {"platform.nic.pcie_latency", "\"1e30s\"", "between 0ns and 1000000s"});
  expect_bad_input(run({"validate", sc, "--set", "job.compute_quantum=50ns"}),
                   {"job.compute_quantum", "\"50ns\"", "at least 100ns and at most 1000000s"});
  Result ok = run({"validate", sc, "--set", "platform.nic.pcie_latency=1000000s"});
  EXPECT_TRUE(ok.exited && ok.status == 0) << ok.describe();
}

TEST_F(cli_bounds, BandwidthsMustMoveTheLargestMessageInAMillionSeconds)
{
  // pingpong.json runs on qdr-16, whose largest message is 16 MiB.
  const std::string sc = scenario("net/pingpong.json").string();
  expect_bad_input(run({"validate", sc, "--set", "platform.nic.pcie_bandwidth=1B/s"}),
                   {"--set platform.nic.pcie_bandwidth=1B/s", "platform.nic.pcie_bandwidth", "\"8bps\"", "too low",
                    "16MiB", "16777216 s", "at least 135bps"});
  expect_bad_input(run({"validate", sc, "--set", "platform.fabric.link_bandwidth=100bps"}),
                   {"platform.fabric.link_bandwidth", "\"100bps\"", "too low", "max_msg_size"});
  expect_bad_input(run({"validate", sc, "--set", "platform.nic.limits.max_msg_size=4GiB", "--set",
                        "platform.nic.pcie_bandwidth=30Kbps"}),
                   {"--set platform.nic", "\"30Kbps\"", "4GiB", "at least 34.36Kbps"});
  // A smaller largest message makes slow channels acceptable.
  Result ok = run({"validate", sc, "--set", "platform.nic.pcie_bandwidth=10bps", "--set",
                   "platform.fabric.link_bandwidth=10bps", "--set", "platform.nic.limits.max_msg_size=64KiB"});
  EXPECT_TRUE(ok.exited && ok.status == 0) << ok.describe();
}

TEST_F(cli_bounds, RunsStopAtTheClocksHorizonInsteadOfOverflowing)
{
  // Each value is allowed, but 100 round trips of them pass 2^63 ps: these used to give silently
  // wrong times (switch_latency) or abort inside SimGrid (pcie_latency, gap).
  const std::string sc = scenario("net/pingpong.json").string();
  for (const char* set :
       {"platform.fabric.switch_latency=1e6s", "platform.nic.pcie_latency=1e5s", "traffic.gap=1e6s"}) {
    Result r = run({"run", sc, "--set", set});
    ASSERT_TRUE(r.exited) << set << ": " << r.describe();
    EXPECT_EQ(r.status, 4) << set << ": " << r.describe();
    EXPECT_TRUE(starts_with(r.err, "shmemsim: simulated time reached the clock's horizon (4e6 s"))
        << set << ": " << r.describe();
  }
}

// ---------------------------------------------------------------------------------------------
// 11. Fuzzing the scenario parser (bounded, seeded: 160 cases, a few seconds): every mutation of a
// shipped scenario ends with status 0 or 2, one stderr line when 2, never a crash, and leaves no
// file behind.
// ---------------------------------------------------------------------------------------------

using cli_fuzz = CliTest;

namespace {

/// A small deterministic generator (splitmix64): the same mutations on every machine.
struct Mix {
  std::uint64_t s;
  std::uint64_t next()
  {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z               = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z               = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

std::string mutate(const std::string& base, Mix& m)
{
  static const char* const kValues[] = {"1e400",
                                        "-1e400",
                                        "18446744073709551616",
                                        "-9223372036854775809",
                                        "1e-400",
                                        "0",
                                        "-1",
                                        "2147483648",
                                        "\"1e19s\"",
                                        "\"1e7s\"",
                                        "\"-5ns\"",
                                        "\"9e99Gbps\"",
                                        "\"1B/s\"",
                                        "\"0bps\"",
                                        "\"4KiBs\"",
                                        "\"1e30B\"",
                                        "\"0.5B\"",
                                        "\"NaNs\"",
                                        "\"\\u0000\"",
                                        "\"\\ud800\"",
                                        "\"13.32Gflop\"",
                                        "\"1e-300f\"",
                                        "\"\"",
                                        "null",
                                        "true",
                                        "[]",
                                        "{}",
                                        "[1,2,3,4,5,6,7,8,9]",
                                        "{\"bogus\": 1}",
                                        "\"\xC3\x28\"",
                                        "\"µs\"",
                                        "\"1.3 us\""};
  static const char* const kKeys[]   = {"\"bogus\"", "\"seed\"",    "\"platform\"",      "\"traffic\"",
                                        "\"job\"",   "\"pattern\"", "\"size\"",          "\"levels\"",
                                        "\"down\"",  "\"\"",        "\"platform.nodes\""};
  std::string t                      = base;
  switch (m.below(8)) {
    case 0: // flip bytes
      for (int k = 0, n = 1 + static_cast<int>(m.below(4)); k < n && !t.empty(); ++k)
        t[m.below(t.size())] ^= static_cast<char>(1u << m.below(8));
      break;
    case 1: // truncate
      t.resize(m.below(t.size() + 1));
      break;
    case 2: { // nest a value deeply (sometimes beyond the limit)
      const std::size_t depth = m.below(2) ? 50 + m.below(100) : 1000 + m.below(20000);
      const std::size_t at    = t.find(':', m.below(t.size()));
      if (at != std::string::npos) {
        const std::size_t end = t.find_first_of(",}", at);
        t                     = t.substr(0, at + 1) + std::string(depth, '[') + "1" + std::string(depth, ']') +
            (end == std::string::npos ? "" : t.substr(end));
      }
      break;
    }
    case 3: // replace a value with a big number or unit garbage
    case 4: {
      const std::size_t at = t.find(':', m.below(t.size()));
      if (at != std::string::npos) {
        const std::size_t end = t.find_first_of(",}\n", at + 1);
        t                     = t.substr(0, at + 1) + " " + kValues[m.below(std::size(kValues))] +
            (end == std::string::npos ? "" : t.substr(end));
      }
      break;
    }
    case 5: { // an unknown or duplicate key next to an existing one
      const std::size_t at = t.find('{', m.below(t.size()));
      if (at != std::string::npos)
        t.insert(at + 1,
                 std::string(kKeys[m.below(std::size(kKeys))]) + ": " + kValues[m.below(std::size(kValues))] + ", ");
      break;
    }
    case 6: // a stray byte (NUL, control, invalid UTF-8, bracket)
      if (!t.empty()) {
        static const char kBytes[] = {'\0', '\x01', '\xFF', '\xC3', '[', '{', '"', '\\', ',', '}'};
        t.insert(m.below(t.size()), 1, kBytes[m.below(sizeof kBytes)]);
      }
      break;
    default: // several of the above
      t = mutate(mutate(t, m), m);
      break;
  }
  return t;
}

} // namespace

TEST_F(cli_fuzz, MutatedShippedScenariosEndWithStatusZeroOrTwo)
{
  std::vector<std::string> bases = {"{}"};
  for (const auto& e : fs::recursive_directory_iterator(kScenarios))
    if (e.is_regular_file() && e.path().extension() == ".json" && e.path().parent_path().filename() != "presets")
      bases.push_back(read_text(e.path()));
  ASSERT_GT(bases.size(), 3u);
  Mix m{20240612};
  const fs::path work = mkdir("work");
  int refused = 0, accepted = 0;
  for (int i = 0; i < 160; ++i) {
    const std::string text = mutate(bases[m.below(bases.size())], m);
    const fs::path f       = work / "case.json";
    std::ofstream(f, std::ios::binary | std::ios::trunc) << text;
    Result r               = run_in(work, {"validate", "case.json"}, kBin, 20);
    const std::string what = "case " + std::to_string(i) + ": " + text.substr(0, 300);
    ASSERT_TRUE(r.exited) << what << "\n" << r.describe();
    ASSERT_TRUE(r.status == 0 || r.status == 2) << what << "\n" << r.describe();
    if (r.status == 2) {
      ++refused;
      ASSERT_EQ(lines_of(r.err).size(), 1u) << what << "\n" << r.describe();
      ASSERT_TRUE(starts_with(r.err, "shmemsim: ")) << what << "\n" << r.describe();
      ASSERT_EQ(r.out, "") << what;
      ASSERT_LT(r.err.size(), 2000u) << what << "\n" << r.describe();
    } else {
      ++accepted;
      ASSERT_FALSE(json::parse(r.out, nullptr, false).is_discarded()) << what << "\n" << r.describe();
    }
    // Nothing is left behind: the working directory holds only the input.
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(work))
      files += e.path().filename() != "case.json";
    ASSERT_EQ(files, 0u) << what;
  }
  EXPECT_GT(refused, 0);
  EXPECT_GT(accepted, 0);
  // No bound on the total time: it measures the machine (62 s under AddressSanitizer on a loaded
  // 2-core machine), not the tool; each case is bounded by run_in's 20 s limit, which catches a hang.
}
