// `shmemsim microbench` as users run it: the real binary as a subprocess (it builds the shipped
// program with shmemsim-cc and runs it with shmemsim-run), on the default platform. The figures
// must be sane and consistent with each other and with the platform; bad arguments are one line
// and status 2. SHMEMSIM_BIN (the build's bin/) comes from tests/CMakeLists.txt.
#include <gtest/gtest.h>
#include "../common/Subprocess.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;
using shmemsim::testing::quote;
using shmemsim::testing::Result;
using shmemsim::testing::run_in;
using shmemsim::testing::slurp;

namespace {

const fs::path kBin = SHMEMSIM_BIN;

class Microbench : public ::testing::Test {
protected:
  void SetUp() override
  {
    dir_ = fs::temp_directory_path() / ("shmemsim-microbench-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override
  {
    if (!HasFailure())
      fs::remove_all(dir_);
  }

  Result microbench(const std::string& args)
  {
    return run_in(dir_, quote((kBin / "shmemsim").string()) + " microbench " + args);
  }

  /// Runs the benchmark into DIR (under the test's directory) and returns its microbench.json.
  json figures(const std::string& out, const std::string& args)
  {
    const Result r = microbench("-o " + out + " --quiet " + args);
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(slurp(dir_ / out / "microbench.json"), nullptr, false);
  }

  static void expect_one_line_error(const Result& r, const std::string& text)
  {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  }

  fs::path dir_;
};

TEST_F(Microbench, FiguresAreSaneAndConsistent)
{
  // The exact machine (no operating-system noise): a detour falling in one figure's iterations and
  // not in another's would break the orderings checked below by a few picoseconds per iteration.
  const Result r = microbench("-o mb --sizes 8B..256KiB --iterations 20 --set platform.noise.enabled=false");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("put+quiet"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("on two nodes"), std::string::npos) << r.out;
  const json j = json::parse(slurp(dir_ / "mb" / "microbench.json"));
  EXPECT_EQ(j["nodes_used"], 2);
  const json& sizes = j["sizes"];
  ASSERT_EQ(sizes.size(), 16u); // 8 B .. 256 KiB, doubling
  EXPECT_EQ(sizes.front()["size_bytes"], 8);
  EXPECT_EQ(sizes.back()["size_bytes"], 256 * 1024);
  const double link = j["platform"]["link_bandwidth_Bps"].get<double>();
  const double pcie = j["platform"]["pcie_bandwidth_Bps"].get<double>();
  ASSERT_GT(link, 0);
  ASSERT_GT(pcie, 0);
  // Every put costs its issuing thread the NIC's initiate overhead (the run's resolved scenario).
  const json run_scenario    = json::parse(slurp(dir_ / "mb" / "run" / "scenario.json"));
  const std::string initiate = run_scenario["platform"]["nic"]["initiate_overhead"].get<std::string>();
  std::size_t unit_at      = 0;
  const double number      = std::stod(initiate, &unit_at);
  const std::string unit   = initiate.substr(unit_at);
  ASSERT_TRUE(unit == "ns" || unit == "us") << initiate;
  const double initiate_s = number * (unit == "ns" ? 1e-9 : 1e-6);
  ASSERT_GT(initiate_s, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const json& s = sizes[i];
    SCOPED_TRACE(s.dump());
    for (const char* k : {"put_s", "put_quiet_s", "get_s", "put_bw_Bps", "put_rate_per_s"})
      EXPECT_GT(s[k].get<double>(), 0) << k;
    EXPECT_GE(s["put_quiet_s"].get<double>(), s["put_s"].get<double>()); // a quiet only adds waiting
    // The stream is no faster than its bottleneck, each figure against the platform's own numbers:
    // bytes through the slower of the link and the adapter's PCIe, puts through one initiation each.
    EXPECT_LT(s["put_bw_Bps"].get<double>(), std::min(link, pcie) * (1 + 1e-9));
    EXPECT_LT(s["put_rate_per_s"].get<double>(), (1 + 1e-9) / initiate_s);
    if (i > 0) { // latency never shrinks with size
      for (const char* k : {"put_quiet_s", "get_s"})
        EXPECT_GE(s[k].get<double>(), sizes[i - 1][k].get<double>() * (1 - 1e-9)) << k;
    }
  }
  for (const char* k : {"put_s", "put_quiet_s", "get_s"}) // and it grows over the range
    EXPECT_GT(sizes.back()[k].get<double>(), 2 * sizes.front()[k].get<double>()) << k;
  EXPECT_GT(sizes.back()["put_bw_Bps"].get<double>(), 10 * sizes.front()["put_bw_Bps"].get<double>());
  // ... and reaches it where it binds: 8-byte puts are initiations back to back (a window of 64, then
  // one quiet's round trip), 256 KiB puts fill the PCIe (on qdr-16 slower than the link).
  // Each put also fetches the MD's and the buffer pool's lines back from the progress thread's
  // core, which updated them for an earlier put's ACK (qdr-16: the other socket, 100 ns each).
  const double transfer_s = 2 * 100e-9;
  EXPECT_GT(sizes.front()["put_rate_per_s"].get<double>(), 0.85 / (initiate_s + transfer_s));
  EXPECT_GT(sizes.back()["put_bw_Bps"].get<double>(), 0.95 * std::min(link, pcie));
  const double fadd = j["atomics"]["fetch_add_s"].get<double>(), add = j["atomics"]["add_s"].get<double>();
  EXPECT_GT(fadd, 0);
  EXPECT_GT(add, 0);
  EXPECT_LT(add, fadd); // the non-fetching add does not wait for the reply
  EXPECT_GT(j["pingpong_s"].get<double>(), 0);
  EXPECT_LT(j["pingpong_s"].get<double>(), sizes.front()["put_quiet_s"].get<double>()); // one way < round trip
  for (const char* f : {"latency.svg", "bandwidth.svg", "rate.svg", "microbench.md"})
    EXPECT_TRUE(fs::file_size(dir_ / "mb" / f) > 0) << f;
  const std::string lat = slurp(dir_ / "mb" / "latency.svg");
  EXPECT_NE(lat.find(">1 KiB<"), std::string::npos);    // log size axis, powers of 2 with units
  EXPECT_NE(lat.find("time (log)"), std::string::npos); // log time axis
  EXPECT_NE(lat.find(" us<"), std::string::npos);       // its ticks carry their unit
  EXPECT_EQ(slurp(dir_ / "mb" / "microbench.md"), r.out.substr(0, r.out.find("microbench: written")));
}

TEST_F(Microbench, ASlowerLinkGivesHigherLatencyAndTheRunIsDeterministic)
{
  // Without the operating-system noise: a detour falling in one run's few iterations and not in the
  // other's would blur the difference the link makes.
  const json base = figures("base", "--sizes 8B..64B --iterations 10 --set platform.noise.enabled=false");
  const json slow = figures("slow", "--sizes 8B..64B --iterations 10 --set platform.noise.enabled=false --set "
                                    "platform.fabric.link_latency=2us");
  ASSERT_TRUE(base.is_object() && slow.is_object());
  EXPECT_EQ(slow["platform"]["link_latency"], "2us");
  // One way crosses at least two links (node - switch - node): at least 2 x (2us - the default) more.
  const double extra = 2 * (2e-6 - base["platform"]["link_latency_s"].get<double>());
  EXPECT_GT(slow["pingpong_s"].get<double>(), base["pingpong_s"].get<double>() + 0.99 * extra);
  for (std::size_t i = 0; i < base["sizes"].size(); ++i) {
    EXPECT_GT(slow["sizes"][i]["put_quiet_s"].get<double>(),
              base["sizes"][i]["put_quiet_s"].get<double>() + 2 * 0.99 * extra);
    EXPECT_GT(slow["sizes"][i]["get_s"].get<double>(), base["sizes"][i]["get_s"].get<double>() + 2 * 0.99 * extra);
  }
  EXPECT_GT(slow["atomics"]["fetch_add_s"].get<double>(),
            base["atomics"]["fetch_add_s"].get<double>() + 2 * 0.99 * extra);
  const json again = figures("again", "--sizes 8B..64B --iterations 10 --set platform.noise.enabled=false");
  EXPECT_EQ(again, base);
}

TEST_F(Microbench, TwoPesOnOneNode)
{
  const json j = figures("one", "--sizes 8B..8B --iterations 5 --pes-per-node 2");
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["nodes_used"], 1);
  EXPECT_EQ(j["sizes"].size(), 1u);
}

TEST_F(Microbench, BadArgumentsAreOneLineAndStatusTwo)
{
  expect_one_line_error(microbench("--sizes 1MiB..8B"), "--sizes 1MiB..8B: the first size is larger than the last");
  expect_one_line_error(microbench("--sizes 8B..1TiB"), "--sizes 8B..1TiB: sizes go from 1B to 64MiB");
  expect_one_line_error(microbench("--sizes 8parsecs..1MiB"), "--sizes 8parsecs..1MiB");
  expect_one_line_error(microbench("--bogus"), "microbench: unknown option '--bogus'");
  expect_one_line_error(microbench("--iterations 0"), "--iterations 0: expected an integer from 1 to 1000000");
  expect_one_line_error(microbench("--pes-per-node 3"), "--pes-per-node 3");
  expect_one_line_error(microbench("--scenario missing.json"), "--scenario missing.json: no such file");
  expect_one_line_error(microbench("--set"), "--set needs a value");
  // A bad key reaches the run, which refuses it: still one line and status 2.
  const Result r = microbench("-o bad --sizes 8B..8B --iterations 1 --set platform.fabric.no_such_key=1");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err; // the "building" line, then the error
  EXPECT_NE(r.err.find("no_such_key"), std::string::npos) << r.err;
}

TEST_F(Microbench, HelpDescribesTheCommand)
{
  const Result r = microbench("--help");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("usage: shmemsim microbench", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("--sizes MIN..MAX"), std::string::npos);
  const Result all = run_in(dir_, quote((kBin / "shmemsim").string()) + " --help");
  EXPECT_NE(all.out.find("microbench [--scenario FILE.json]"), std::string::npos);
}

} // namespace
