// `shmemsim microbench` as users run it: the real binary as a subprocess (it builds the shipped
// program with shmemsim-cc and runs it with shmemsim-run), on the default platform. The figures
// must be sane and consistent with each other and with the platform; bad arguments are one line
// and status 2. SHMEMSIM_BIN (the build's bin/) comes from tests/CMakeLists.txt.
#include <gtest/gtest.h>
#include "../common/Subprocess.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <regex>
#include <sstream>
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
  std::size_t unit_at        = 0;
  const double number        = std::stod(initiate, &unit_at);
  const std::string unit     = initiate.substr(unit_at);
  ASSERT_TRUE(unit == "ns" || unit == "us") << initiate;
  const double initiate_s = number * (unit == "ns" ? 1e-9 : 1e-6);
  ASSERT_GT(initiate_s, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const json& s = sizes[i];
    SCOPED_TRACE(s.dump());
    for (const char* k : {"put_s", "put_quiet_s", "get_s", "put_bw_Bps", "put_rate_per_s", "get_bw_Bps"})
      EXPECT_GT(s[k].get<double>(), 0) << k;
    EXPECT_GE(s["put_quiet_s"].get<double>(), s["put_s"].get<double>()); // a quiet only adds waiting
    // The stream is no faster than its bottleneck, each figure against the platform's own numbers:
    // bytes through the slower of the link and the adapter's PCIe, puts through one initiation each.
    EXPECT_LT(s["put_bw_Bps"].get<double>(), std::min(link, pcie) * (1 + 1e-9));
    EXPECT_LT(s["get_bw_Bps"].get<double>(), std::min(link, pcie) * (1 + 1e-9));
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
  EXPECT_GT(sizes.back()["get_bw_Bps"].get<double>(), 0.95 * std::min(link, pcie));
  const double fadd = j["atomics"]["fetch_add_s"].get<double>(), add = j["atomics"]["add_s"].get<double>();
  EXPECT_GT(fadd, 0);
  EXPECT_GT(add, 0);
  EXPECT_LT(add, fadd); // the non-fetching add does not wait for the reply
  // Every atomic ran (the program checked each one's results): a fetching one waits for its reply,
  // a round trip, which the non-fetching ones do not.
  for (const char* op :
       {"fetch", "swap", "compare_swap", "fetch_inc", "fetch_add", "fetch_and", "fetch_or", "fetch_xor"})
    for (const char* quick : {"set", "inc", "add", "and", "or", "xor"})
      EXPECT_GT(j["atomics"][std::string(op) + "_s"].get<double>(),
                j["atomics"][std::string(quick) + "_s"].get<double>())
          << op << " vs " << quick;
  EXPECT_EQ(j["atomics"].size(), 15u); // 14 operations and size_bytes
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
  expect_one_line_error(microbench("--pes 1"), "--pes 1: '1' is not a number of PEs from 2 to 4096");
  expect_one_line_error(microbench("--pes 2,x"), "--pes 2,x: 'x' is not a number of PEs");
  expect_one_line_error(microbench("--pes 4,2,4"), "--pes 4,2,4: 4 is given twice");
  expect_one_line_error(microbench("--window 0"), "--window 0: expected an integer from 1 to 65536");
  expect_one_line_error(microbench("--coll-sizes 4B..8B"), "--coll-sizes 4B..8B: sizes go from 8B to 1MiB");
  expect_one_line_error(microbench("--coll-sizes 12B..1KiB"),
                        "--coll-sizes 12B..1KiB: the first size is not a multiple of 8");
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
  for (const char* o : {"--window N", "--pes N,N,...", "--coll-sizes MIN..MAX", "--emulate", "--osu"})
    EXPECT_NE(r.out.find(o), std::string::npos) << o;
  const Result all = run_in(dir_, quote((kBin / "shmemsim").string()) + " --help");
  EXPECT_NE(all.out.find("microbench [--scenario FILE.json]"), std::string::npos);
}

/// The value in the row of `size` in the OSU-style block that `title` heads (its second column).
double osu_value(const std::string& text, const std::string& title, std::uint64_t size)
{
  const std::size_t at = text.find("# OSU-style OpenSHMEM " + title + " (");
  if (at == std::string::npos)
    return -1;
  std::istringstream in(text.substr(at));
  for (std::string line; std::getline(in, line) && !line.empty();) {
    std::istringstream l(line);
    std::uint64_t s = 0;
    double v        = 0;
    if (line[0] != '#' && (l >> s >> v) && s == size)
      return v;
  }
  return -1;
}

TEST_F(Microbench, MultiPairBandwidthCollectivesAndOsuText)
{
  // Two pairs on four nodes use four independent links and adapters: twice one pair's bandwidth.
  const Result r = microbench("-o mp --sizes 64KiB..64KiB --iterations 4 --pes 2,4 --osu --set "
                              "platform.noise.enabled=false");
  ASSERT_EQ(r.status, 0) << r.err;
  const json j       = json::parse(slurp(dir_ / "mp" / "microbench.json"));
  const json& by_pes = j["by_pes"];
  ASSERT_EQ(by_pes.size(), 2u);
  EXPECT_EQ(by_pes[0]["pes"], 2);
  EXPECT_EQ(by_pes[1]["multi_pair"]["pairs"], 2);
  const json &one = by_pes[0]["multi_pair"]["sizes"][0], &two = by_pes[1]["multi_pair"]["sizes"][0];
  EXPECT_EQ(two["size_bytes"], 65536);
  EXPECT_NEAR(two["put_bw_Bps"].get<double>() / one["put_bw_Bps"].get<double>(), 2.0, 0.1);
  EXPECT_NEAR(two["put_rate_per_s"].get<double>() / one["put_rate_per_s"].get<double>(), 2.0, 0.1);
  // One pair's stream is the two-PE run's stream.
  EXPECT_NEAR(one["put_bw_Bps"].get<double>() / j["sizes"][0]["put_bw_Bps"].get<double>(), 1.0, 0.02);
  // Collectives: a barrier of four PEs takes longer than one of two; every figure's PEs agree.
  EXPECT_GT(by_pes[1]["barrier_s"].get<double>(), by_pes[0]["barrier_s"].get<double>());
  for (const json& p : by_pes) {
    ASSERT_EQ(p["collectives"].size(), 1u); // --coll-sizes default: 8 B
    const json& c = p["collectives"][0];
    EXPECT_EQ(c["size_bytes"], 8);
    for (const char* name : {"broadcast", "reduce", "collect", "fcollect", "alltoall"}) {
      const std::string k = name;
      EXPECT_GT(c[k + "_s"].get<double>(), 0) << k;
      EXPECT_LE(c[k + "_min_s"].get<double>(), c[k + "_s"].get<double>() * (1 + 1e-12)) << k;
      EXPECT_GE(c[k + "_max_s"].get<double>(), c[k + "_s"].get<double>() * (1 - 1e-12)) << k;
    }
  }
  // --osu prints DIR/osu.txt, whose rows are the JSON's figures in OSU's units.
  EXPECT_EQ(slurp(dir_ / "mp" / "osu.txt"), r.out.substr(0, r.out.find("microbench: written")));
  for (
      const char* h :
      {R"(\n# Size +Latency \(us\)\n)", R"(\n# Size +Bandwidth \(MB/s\)\n)", R"(\n# Size +Messages/s\n)",
       R"(\n# Operation +Latency \(us\)\nshmem_long_atomic_fetch +[0-9]+\.[0-9][0-9]\n)",
       R"(\n# OSU-style OpenSHMEM Multi-pair Put Bandwidth and Message Rate Test \(shmemsim microbench, )"
       R"(simulated time\)\n# 4 PEs, 2 pairs)",
       R"(\n# PEs +Size +Latency \(us\) +Min Latency \(us\) +Max Latency \(us\)\n2 +8( +[0-9]+\.[0-9][0-9]){3}\n4 +8 )"})
    EXPECT_TRUE(std::regex_search(r.out, std::regex(h))) << h << "\n" << r.out;
  EXPECT_NEAR(osu_value(r.out, "Put Bandwidth Test", 65536), j["sizes"][0]["put_bw_Bps"].get<double>() / 1e6, 0.006);
  EXPECT_NEAR(osu_value(r.out, "Get Latency Test", 65536), j["sizes"][0]["get_s"].get<double>() * 1e6, 0.006);
  EXPECT_NEAR(osu_value(r.out, "Multi-pair Put Bandwidth and Message Rate Test", 65536),
              one["put_bw_Bps"].get<double>() / 1e6, 0.006);
  EXPECT_TRUE(fs::file_size(dir_ / "mp" / "collectives.svg") > 0);
}

TEST_F(Microbench, AWiderWindowRaisesTheMessageRate)
{
  const std::string args = "--sizes 8B..8B --iterations 10 --set platform.noise.enabled=false --window ";
  const json w1 = figures("w1", args + "1"), w64 = figures("w64", args + "64");
  ASSERT_TRUE(w1.is_object() && w64.is_object());
  EXPECT_EQ(w1["window"], 1);
  const json &one = w1["sizes"][0], &wide = w64["sizes"][0];
  EXPECT_GT(wide["put_rate_per_s"].get<double>(), 1.5 * one["put_rate_per_s"].get<double>());
  EXPECT_GT(wide["get_bw_Bps"].get<double>(), 1.5 * one["get_bw_Bps"].get<double>());
  // One put per quiet: each waits for its acknowledgement, at most one put per round trip.
  EXPECT_LE(one["put_rate_per_s"].get<double>() * one["put_quiet_s"].get<double>(), 1.05);
}

TEST_F(Microbench, TheProgramCatchesAWrongAtomicResult)
{
  // Built to expect a value one too high, the atomics' check stops the run with one line.
  const std::string source = (kBin.parent_path() / "share/shmemsim/microbench/shmem_microbench.c").string();
  const Result cc =
      run_in(dir_, quote((kBin / "shmemsim-cc").string()) + " -O2 -DMICROBENCH_WRONG_MODEL -o wrong " + quote(source));
  ASSERT_EQ(cc.status, 0) << cc.err;
  const Result r = run_in(dir_, quote((kBin / "shmemsim-run").string()) +
                                    " -np 2 --quiet --trace off -- ./wrong atomics 2 8 8 1 8 8");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.err.find("shmem_microbench: PE 0: fetch: expected 1001, got 1000"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("amo_fetch"), std::string::npos) << r.out;
}

TEST_F(Microbench, TheSameCommandRunsEmulated)
{
  const Result r = microbench("-o emu --quiet --emulate --sizes 8B..64B --iterations 4 --pes 4");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("PE 0 -> PE 1, as real processes, 4 iterations; wall-clock time of each timed loop (emulated"),
            std::string::npos)
      << r.out;
  const json j = json::parse(slurp(dir_ / "emu" / "microbench.json"));
  EXPECT_EQ(j["emulated"], true);
  EXPECT_EQ(j["sizes"].size(), 4u);
  EXPECT_EQ(j["atomics"].size(), 15u); // each checked by the program, which would have failed the run
  for (const auto& [k, v] : j["atomics"].items())
    EXPECT_GT(v.get<double>(), 0) << k;
  ASSERT_EQ(j["by_pes"].size(), 1u);
  EXPECT_EQ(j["by_pes"][0]["multi_pair"]["pairs"], 2);
  EXPECT_GT(j["by_pes"][0]["collectives"][0]["alltoall_s"].get<double>(), 0);
  EXPECT_NE(slurp(dir_ / "emu" / "osu.txt").find("(shmemsim microbench, emulated: wall-clock time)"),
            std::string::npos);
}

TEST_F(Microbench, PlotTicksStayClearOfTheAxisTitle)
{
  // The y axis title is drawn rotated, centred at x = its translate(); the ticks end at their x.
  // Glyph widths of DejaVu Sans at 12 px (its advance widths in em x 12); others 0.7 em.
  const json j = figures("plots", "--sizes 8B..64KiB --iterations 2 --pes 2,4,8");
  ASSERT_TRUE(j.is_object());
  const auto width = [](const std::string& text) {
    double w = 0;
    for (char c : text)
      w += 12 * (std::isdigit(static_cast<unsigned char>(c)) ? 0.636
                 : c == ' ' || c == '.'                      ? 0.318
                 : c == '/'                                  ? 0.337
                 : c == 'M'                                  ? 0.863
                 : c == 'G' || c == 'B'                      ? 0.775
                                                             : 0.7);
    return w;
  };
  const std::regex tick(R"re(<text x="([0-9.]+)" y="[0-9.]+" text-anchor="end">([^<]*)</text>)re");
  const std::regex title(R"re(translate\(([0-9.]+),[0-9.]+\) rotate\(-90\))re");
  for (const char* plot : {"latency.svg", "bandwidth.svg", "rate.svg", "collectives.svg"}) {
    const std::string svg = slurp(dir_ / "plots" / plot);
    std::smatch t;
    ASSERT_TRUE(std::regex_search(svg, t, title)) << plot;
    const double title_right = std::stod(t[1]) + 0.24 * 12; // the rotated title's descent side
    int ticks                = 0;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it, ++ticks)
      EXPECT_GT(std::stod((*it)[1]) - width((*it)[2]), title_right + 2) << plot << ": tick '" << (*it)[2] << "'";
    EXPECT_GE(ticks, 2) << plot;
  }
}

} // namespace
