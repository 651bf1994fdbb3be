// Scenario loading: defaults, units, presets, --set, error messages, resolved JSON.
#include "scenarios/Scenario.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace shmemsim;
using namespace shmemsim::scenarios;
namespace fs = std::filesystem;

namespace {

/// A fresh directory per test, removed afterwards.
class TempDir {
public:
  TempDir()
  {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() / ("shmemsim_test_scenario_" + std::string(info->test_suite_name()) + "_" +
                                         info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string write(const std::string& name, const std::string& text) const
  {
    fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

Scenario parse(const std::string& text, const std::vector<std::string>& sets = {})
{
  return parse_scenario(text, "net.json", sets);
}

/// The message of the ScenarioError thrown by parsing `text`; fails the test if none is thrown.
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {})
{
  try {
    parse(text, sets);
  } catch (const ScenarioError& e) {
    std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "message must be one line: " << msg;
    return msg;
  }
  ADD_FAILURE() << "no ScenarioError for " << text;
  return {};
}

#define EXPECT_CONTAINS(haystack, needle)                                                                              \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "in: " << (haystack)

} // namespace

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

TEST(scenario_defaults, EmptyObjectGivesDocumentedDefaults)
{
  Scenario s = parse("{}");
  EXPECT_EQ(s.source, "net.json");
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.platform.preset, "");
  EXPECT_EQ(s.platform.hosts.nodes, 16);
  EXPECT_EQ(s.platform.hosts.cores_per_node, 12);
  EXPECT_DOUBLE_EQ(s.platform.hosts.core_speed, 13.32e9);

  const auto& f = s.platform.fabric;
  EXPECT_EQ(f.levels, 1);
  EXPECT_EQ(f.down, std::vector<int>{16});
  EXPECT_TRUE(f.up.empty());
  EXPECT_EQ(f.link_bandwidth, 32'000'000'000ull);
  EXPECT_EQ(f.link_latency, 10'000);
  EXPECT_EQ(f.switch_latency, 100'000);
  EXPECT_EQ(f.mtu, 2048u);
  EXPECT_EQ(f.header_size, 42u);
  EXPECT_EQ(f.routing, Routing::DModK);
  EXPECT_EQ(f.jitter, 0);

  const auto& n = s.platform.nic;
  EXPECT_EQ(n.injection_queues, 16);
  EXPECT_EQ(n.send_overhead, 200'000);
  EXPECT_EQ(n.recv_overhead, 200'000);
  EXPECT_EQ(n.pcie_latency, 250'000);
  EXPECT_EQ(n.pcie_bandwidth, 25'600'000'000ull);
  EXPECT_EQ(n.atomic_overhead, 100'000);

  const portals::Limits def{};
  const auto& l = s.platform.limits;
  EXPECT_EQ(l.max_cts, def.max_cts);
  EXPECT_EQ(l.max_mds, def.max_mds);
  EXPECT_EQ(l.max_entries, def.max_entries);
  EXPECT_EQ(l.max_pt_index, def.max_pt_index);
  EXPECT_EQ(l.max_volatile_size, def.max_volatile_size);
  EXPECT_EQ(l.max_atomic_size, def.max_atomic_size);
  EXPECT_EQ(l.max_fetch_atomic_size, def.max_fetch_atomic_size);
  EXPECT_EQ(l.max_waw_ordered_size, def.max_waw_ordered_size);
  EXPECT_EQ(l.max_msg_size, std::uint64_t{4} << 30);
  EXPECT_FALSE(l.total_data_ordering);

  EXPECT_EQ(s.job.pes, 16); // 0 means nodes x pes_per_node
  EXPECT_EQ(s.job.pes_per_node, 1);
  EXPECT_EQ(s.job.placement, Placement::Block);

  ASSERT_EQ(s.traffic.size(), 1u);
  const auto& t = s.traffic[0];
  EXPECT_EQ(t.pattern, Pattern::PingPong);
  EXPECT_EQ(t.size, 8u);
  EXPECT_EQ(t.iterations, 100u);
  EXPECT_EQ(t.window, 16);
  EXPECT_EQ(t.ack, portals::AckReq::CtAck);
  EXPECT_EQ(t.root, 0);
  EXPECT_EQ(t.peer, -1);
  EXPECT_EQ(t.gap, 0);
  EXPECT_TRUE(t.volatile_md);
  EXPECT_FALSE(t.independent_md);
  EXPECT_TRUE(t.verify);
}

TEST(scenario_defaults, ResolvedHasEveryKey)
{
  Scenario s    = parse("{}");
  const auto& r = s.resolved;
  EXPECT_EQ(r["seed"], 1);
  EXPECT_EQ(r["platform"]["nodes"], 16);
  EXPECT_EQ(r["platform"]["core_speed"], "13.32Gf");
  EXPECT_EQ(r["platform"]["fabric"]["routing"], "dmodk");
  EXPECT_EQ(r["platform"]["fabric"]["down"], nlohmann::json::array({16}));
  EXPECT_EQ(r["platform"]["fabric"]["up"], nlohmann::json::array());
  EXPECT_EQ(r["platform"]["fabric"]["link_latency"], "10ns");
  EXPECT_EQ(r["platform"]["fabric"]["mtu"], "2KiB");
  EXPECT_EQ(r["platform"]["nic"]["pcie_bandwidth"], "25.6Gbps");
  EXPECT_EQ(r["platform"]["nic"]["limits"]["max_msg_size"], "4GiB");
  EXPECT_EQ(r["platform"]["nic"]["features"]["total_data_ordering"], false);
  EXPECT_EQ(r["job"]["pes"], 16);
  EXPECT_EQ(r["job"]["placement"], "block");
  ASSERT_TRUE(r["traffic"].is_array());
  ASSERT_EQ(r["traffic"].size(), 1u);
  EXPECT_EQ(r["traffic"][0]["pattern"], "pingpong");
  EXPECT_EQ(r["traffic"][0]["size"], "8B");
  EXPECT_EQ(r["traffic"][0]["ack"], "ct");
  EXPECT_EQ(r["traffic"][0]["volatile"], true);
  for (const char* k : {"seed", "description", "platform", "job", "traffic"})
    EXPECT_TRUE(r.contains(k)) << k;
}

TEST(scenario_defaults, ResolvedIsDeterministicAndReparses)
{
  const std::string text = R"({"seed": 7, "platform": {"fabric": {"levels": 2, "down": 4, "up": [2],
    "link_latency": "1.3us", "link_bandwidth": "12.5GB/s"}}, "traffic": {"pattern": "stream", "size": "1.5KiB"}})";
  Scenario a             = parse(text);
  Scenario b             = parse(text);
  EXPECT_EQ(a.resolved.dump(), b.resolved.dump());
  EXPECT_EQ(a.resolved["platform"]["fabric"]["link_latency"], "1.3us");
  EXPECT_EQ(a.resolved["platform"]["fabric"]["link_bandwidth"], "100Gbps");
  EXPECT_EQ(a.resolved["platform"]["fabric"]["down"], nlohmann::json::array({4, 4}));
  EXPECT_EQ(a.resolved["traffic"][0]["size"], "1536B");
  // The resolved form is itself a valid scenario that resolves to the same thing.
  Scenario c = parse(a.resolved.dump());
  EXPECT_EQ(c.resolved.dump(), a.resolved.dump());
}

TEST(scenario_defaults, ResolvedUsesCanonicalUnits)
{
  Scenario s = parse(R"({"platform": {"core_speed": "1330Mf", "fabric": {"jitter": "1500ps", "switch_latency": "0.1us",
    "link_bandwidth": "3.2GBps", "mtu": 4096}, "nic": {"pcie_latency": "1e3ns", "pcie_bandwidth": "9600bps",
    "limits": {"max_msg_size": 1000000}}}, "traffic": {"size": 1536, "gap": "2s"}})");
  const auto& r = s.resolved;
  EXPECT_EQ(r["platform"]["core_speed"], "1.33Gf");
  EXPECT_EQ(r["platform"]["fabric"]["jitter"], "1.5ns");
  EXPECT_EQ(r["platform"]["fabric"]["switch_latency"], "100ns");
  EXPECT_EQ(r["platform"]["fabric"]["link_bandwidth"], "25.6Gbps");
  EXPECT_EQ(r["platform"]["fabric"]["mtu"], "4KiB");
  EXPECT_EQ(r["platform"]["nic"]["pcie_latency"], "1us");
  EXPECT_EQ(r["platform"]["nic"]["pcie_bandwidth"], "9.6Kbps");
  EXPECT_EQ(r["platform"]["nic"]["limits"]["max_msg_size"], "1MB");
  EXPECT_EQ(r["traffic"][0]["size"], "1536B");
  EXPECT_EQ(r["traffic"][0]["gap"], "2s");
}

TEST(scenario_defaults, DescribeKeysListsEveryKeyAndPresets)
{
  std::string d = describe_keys();
  for (const char* k :
       {"seed", "platform.preset", "platform.nodes", "platform.fabric.routing", "platform.fabric.down",
        "platform.nic.limits.max_cts", "platform.nic.limits.max_msg_size", "platform.nic.features.total_data_ordering",
        "job.placement", "traffic.pattern", "traffic.verify", "dmodk | random | adaptive", "qdr-16", "\"4GiB\""})
    EXPECT_CONTAINS(d, k);
  EXPECT_EQ(preset_names(), (std::vector<std::string>{"bxi-v2", "qdr-16", "slingshot-11"}));
  EXPECT_STREQ(to_string(Pattern::FetchAdd), "fetch_add");
  EXPECT_STREQ(to_string(Pattern::AllToAll), "alltoall");
}

// ---------------------------------------------------------------------------------------------
// Units
// ---------------------------------------------------------------------------------------------

TEST(scenario_units, Time)
{
  EXPECT_EQ(parse_time("1.3us"), 1'300'000);
  EXPECT_EQ(parse_time("100ns"), 100'000);
  EXPECT_EQ(parse_time("2ms"), 2'000'000'000);
  EXPECT_EQ(parse_time("0.5s"), 500'000'000'000);
  EXPECT_EQ(parse_time("500ps"), 500);
  EXPECT_EQ(parse_time("1e3ns"), 1'000'000);
  EXPECT_EQ(parse_time("0ns"), 0);
  EXPECT_EQ(parse_time("0.0004ns"), 0); // rounds to the nearest ps
  EXPECT_EQ(parse_time("1.5ps"), 2);    // half away from zero
  EXPECT_EQ(parse_time("2.5e-3us"), 2'500);
  for (const char* bad : {"10", "10 parsecs", "ns", "1.3", "1.3 hours", "-5ns", "1e30s", "", "1.2.3ns", "NaNs"})
    EXPECT_THROW(parse_time(bad), std::invalid_argument) << bad;
  try {
    parse_time("10 parsecs");
  } catch (const std::invalid_argument& e) {
    EXPECT_CONTAINS(e.what(), "\"10 parsecs\" is not a time");
    EXPECT_CONTAINS(e.what(), "ps, ns, us, ms or s");
  }
}

TEST(scenario_units, Bandwidth)
{
  EXPECT_EQ(parse_bandwidth("40Gbps"), 40'000'000'000ull);
  EXPECT_EQ(parse_bandwidth("32Gb/s"), 32'000'000'000ull);
  EXPECT_EQ(parse_bandwidth("25.6Gbit/s"), 25'600'000'000ull);
  EXPECT_EQ(parse_bandwidth("3.2GBps"), 25'600'000'000ull);
  EXPECT_EQ(parse_bandwidth("1GB/s"), 8'000'000'000ull);
  EXPECT_EQ(parse_bandwidth("100Mbps"), 100'000'000ull);
  EXPECT_EQ(parse_bandwidth("1Kbps"), 1'000ull);
  EXPECT_EQ(parse_bandwidth("1Tbps"), 1'000'000'000'000ull);
  EXPECT_EQ(parse_bandwidth("1KiBps"), 8'192ull);
  EXPECT_EQ(parse_bandwidth("1GiBps"), 8ull << 30);
  EXPECT_EQ(parse_bandwidth("9600bps"), 9'600ull);
  for (const char* bad : {"40", "40G", "40Gbpm", "0Gbps", "-1Gbps", "fast", "40 gigabits"})
    EXPECT_THROW(parse_bandwidth(bad), std::invalid_argument) << bad;
}

TEST(scenario_units, Size)
{
  EXPECT_EQ(parse_size("4KiB"), 4096u);
  EXPECT_EQ(parse_size("2048B"), 2048u);
  EXPECT_EQ(parse_size("1MB"), 1'000'000u);
  EXPECT_EQ(parse_size("1MiB"), 1u << 20);
  EXPECT_EQ(parse_size("4GiB"), std::uint64_t{4} << 30);
  EXPECT_EQ(parse_size("1.5KiB"), 1536u);
  EXPECT_EQ(parse_size("1.1KB"), 1100u);
  EXPECT_EQ(parse_size("0B"), 0u);
  for (const char* bad : {"0.3B", "4096", "4kib", "4 KiBs", "-1B", "1.0000001KB", "KiB"})
    EXPECT_THROW(parse_size(bad), std::invalid_argument) << bad;
  try {
    parse_size("0.3B");
  } catch (const std::invalid_argument& e) {
    EXPECT_CONTAINS(e.what(), "whole number of bytes");
  }
}

TEST(scenario_units, SymmetricSize)
{
  // SHMEM_SYMMETRIC_SIZE as the OpenSHMEM specification defines it: powers-of-two suffixes in
  // either case, decimals rounded up, a bare number is bytes.
  EXPECT_EQ(parse_symmetric_size("512M"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_symmetric_size("512m"), std::uint64_t{512} << 20);
  EXPECT_EQ(parse_symmetric_size("1G"), std::uint64_t{1} << 30);
  EXPECT_EQ(parse_symmetric_size("2g"), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_symmetric_size("1t"), std::uint64_t{1} << 40);
  EXPECT_EQ(parse_symmetric_size("4k"), 4096u);
  EXPECT_EQ(parse_symmetric_size("4K"), 4096u);
  EXPECT_EQ(parse_symmetric_size("1024"), 1024u);
  EXPECT_EQ(parse_symmetric_size("20m"), 20971520u);
  EXPECT_EQ(parse_symmetric_size("3.1m"), 3250586u); // the specification's example: the ceiling
  EXPECT_EQ(parse_symmetric_size(".5m"), parse_symmetric_size("0.5m"));
  EXPECT_EQ(parse_symmetric_size("0"), 0u);
  EXPECT_EQ(parse_symmetric_size("1.5"), 2u);
  // The scenario's units keep working.
  EXPECT_EQ(parse_symmetric_size("64MiB"), std::uint64_t{64} << 20);
  EXPECT_EQ(parse_symmetric_size("1GB"), 1'000'000'000u);
  for (const char* bad : {"20kk", "1x", "-1m", "+1m", "m", "", "lots", "1 gigabyte", "99999999999t"})
    EXPECT_THROW(parse_symmetric_size(bad), std::invalid_argument) << bad;
  try {
    parse_symmetric_size("20kk");
  } catch (const std::invalid_argument& e) {
    EXPECT_CONTAINS(e.what(), "\"20kk\" is not a size");
    EXPECT_CONTAINS(e.what(), "\"512m\"");
  }
}

TEST(scenario_units, Speed)
{
  EXPECT_DOUBLE_EQ(parse_speed("13.32Gf"), 13.32e9);
  EXPECT_DOUBLE_EQ(parse_speed("1e9f"), 1e9);
  EXPECT_DOUBLE_EQ(parse_speed("2Tf"), 2e12);
  EXPECT_DOUBLE_EQ(parse_speed("500Mf"), 5e8);
  EXPECT_DOUBLE_EQ(parse_speed("3Kf"), 3e3);
  for (const char* bad : {"13.32", "13.32GHz", "0f", "-1Gf", "Gf"})
    EXPECT_THROW(parse_speed(bad), std::invalid_argument) << bad;
}

TEST(scenario_units, ScenarioFieldsUseUnits)
{
  Scenario s = parse(R"({"platform": {"core_speed": "1Gf", "fabric": {"link_latency": "1.3us", "jitter": "5ns",
    "link_bandwidth": "100Gb/s", "mtu": 4096, "header_size": "0B"}, "nic": {"pcie_bandwidth": "8GBps",
    "limits": {"max_volatile_size": 256, "max_msg_size": "1MiB"}}},
    "traffic": {"size": "64KiB", "gap": "1us"}})");
  EXPECT_DOUBLE_EQ(s.platform.hosts.core_speed, 1e9);
  EXPECT_EQ(s.platform.fabric.link_latency, 1'300'000);
  EXPECT_EQ(s.platform.fabric.jitter, 5'000);
  EXPECT_EQ(s.platform.fabric.link_bandwidth, 100'000'000'000ull);
  EXPECT_EQ(s.platform.fabric.mtu, 4096u);
  EXPECT_EQ(s.platform.fabric.header_size, 0u);
  EXPECT_EQ(s.platform.nic.pcie_bandwidth, 64'000'000'000ull);
  EXPECT_EQ(s.platform.limits.max_volatile_size, 256u);
  EXPECT_EQ(s.platform.limits.max_msg_size, 1u << 20);
  EXPECT_EQ(s.traffic[0].size, 65536u);
  EXPECT_EQ(s.traffic[0].gap, 1'000'000);
}

// ---------------------------------------------------------------------------------------------
// Presets
// ---------------------------------------------------------------------------------------------

TEST(scenario_presets, Qdr16Values)
{
  Scenario s = parse(R"({"platform": {"preset": "qdr-16"}})");
  EXPECT_EQ(s.platform.preset, "qdr-16");
  EXPECT_EQ(s.platform.hosts.nodes, 16);
  EXPECT_EQ(s.platform.hosts.cores_per_node, 12);
  EXPECT_DOUBLE_EQ(s.platform.hosts.core_speed, 13.32e9);
  EXPECT_EQ(s.platform.fabric.levels, 1);
  EXPECT_EQ(s.platform.fabric.down, std::vector<int>{16});
  EXPECT_EQ(s.platform.fabric.link_bandwidth, 32'000'000'000ull);
  EXPECT_EQ(s.platform.fabric.mtu, 2048u);
  EXPECT_EQ(s.platform.fabric.header_size, 42u);
  EXPECT_EQ(s.platform.fabric.link_latency, 15'000);
  EXPECT_EQ(s.platform.nic.pcie_bandwidth, 25'600'000'000ull);
  EXPECT_EQ(s.platform.nic.send_overhead, 100'000);
  EXPECT_EQ(s.platform.nic.initiate_overhead, 1'040'000);
  EXPECT_EQ(s.platform.nic.recv_overhead, 550'000);
  EXPECT_EQ(s.platform.nic.ack_overhead, 140'000);
  EXPECT_EQ(s.platform.nic.reply_overhead, 185'000);
  EXPECT_EQ(s.platform.nic.atomic_overhead, 40'000);
  EXPECT_EQ(s.platform.hosts.sockets_per_node, 2);
  EXPECT_EQ(s.platform.hosts.line_same_socket, 22'500);
  EXPECT_EQ(s.platform.hosts.line_cross_socket, 100'000);
  EXPECT_EQ(s.platform.nic.per, nic::NicScope::Pe);
  EXPECT_EQ(s.platform.nic.progress, nic::TargetEngine::Thread);
  EXPECT_EQ(s.platform.nic.injection_queues, 1);
  EXPECT_EQ(s.platform.limits.max_volatile_size, 936u);
  EXPECT_EQ(s.platform.nic.inline_size, 936u);
  EXPECT_EQ(s.platform.limits.max_waw_ordered_size, 16u << 20);
  EXPECT_TRUE(s.platform.limits.total_data_ordering);
  EXPECT_EQ(s.platform.limits.max_msg_size, 16u << 20);
  EXPECT_EQ(s.platform.limits.max_pt_index, 64);
  EXPECT_EQ(s.resolved["platform"]["preset"], "qdr-16");
  // Operating-system noise is on, at the measured Linux timer interrupt (qdr-16.md).
  EXPECT_TRUE(s.platform.noise.enabled);
  EXPECT_EQ(s.platform.noise.period, 1'000'000'000);
  EXPECT_EQ(s.platform.noise.duration, 1'458'000);
  EXPECT_EQ(s.resolved["platform"]["noise"]["enabled"], true);
}

TEST(scenario_errors, BadInlineSizeNamesTheKey)
{
  EXPECT_EQ(parse("{}", {"platform.nic.inline_size=2KiB"}).platform.nic.inline_size, 2048u);
  EXPECT_EQ(parse("{}").platform.nic.inline_size, nic::NicParams::kNoInlineLimit); // no limit: every put pushed
  EXPECT_CONTAINS(error_of("{}", {"platform.nic.inline_size=lots"}), "platform.nic.inline_size");
  EXPECT_CONTAINS(error_of(R"({"platform": {"nic": {"inline_size": -1}}})"), "platform.nic.inline_size");
}

TEST(scenario_presets, NoiseIsOffWithoutPresetAndSwitchesOff)
{
  // The generic platform is an exact machine; a preset's noise is switched off by one key.
  EXPECT_FALSE(parse("{}").platform.noise.enabled);
  const Scenario off = parse(R"({"platform": {"preset": "qdr-16"}})", {"platform.noise.enabled=false"});
  EXPECT_FALSE(off.platform.noise.enabled);
  EXPECT_EQ(off.resolved["platform"]["noise"]["enabled"], false);
  const Scenario on =
      parse("{}", {"platform.noise.enabled=true", "platform.noise.period=10us", "platform.noise.duration=250ns"});
  EXPECT_TRUE(on.platform.noise.enabled);
  EXPECT_EQ(on.platform.noise.period, 10'000'000);
  EXPECT_EQ(on.platform.noise.duration, 250'000);
}

TEST(scenario_errors, NoiseDetourLongerThanItsPeriodIsRefused)
{
  const std::string e = error_of(R"({"platform": {"noise": {"enabled": true, "period": "1us", "duration": "1us"}}})");
  EXPECT_CONTAINS(e, "net.json: platform.noise.duration: \"1us\" is not shorter than platform.noise.period "
                     "(\"1us\"): a detour must end before the next one falls");
  EXPECT_CONTAINS(error_of(R"({"platform": {"noise": {"period": "0ns"}}})"), "platform.noise.period");
  // Off, the values are not used: nothing to refuse.
  EXPECT_NO_THROW(parse(R"({"platform": {"noise": {"enabled": false, "period": "1us", "duration": "2us"}}})"));
}

TEST(scenario_presets, ScenarioOverridesPresetDeeply)
{
  Scenario s = parse(R"({"platform": {"preset": "qdr-16", "nodes": 8,
    "fabric": {"routing": "adaptive"}, "nic": {"limits": {"max_cts": 4}}}})");
  EXPECT_EQ(s.platform.hosts.nodes, 8);                    // scenario wins
  EXPECT_EQ(s.platform.hosts.cores_per_node, 12);          // preset kept
  EXPECT_EQ(s.platform.fabric.routing, Routing::Adaptive); // scenario wins
  EXPECT_EQ(s.platform.fabric.mtu, 2048u);                 // preset sibling kept
  EXPECT_EQ(s.platform.limits.max_cts, 4);                 // scenario wins
  EXPECT_EQ(s.platform.limits.max_mds, 1024);              // preset sibling kept
  EXPECT_EQ(s.platform.limits.max_volatile_size, 936u);
  EXPECT_EQ(s.job.pes, 8);
}

TEST(scenario_presets, PresetFileRelativeToScenario)
{
  TempDir dir;
  dir.write("plat/small.json", R"({"platform": {"nodes": 4, "fabric": {"down": 4}}})");
  std::string scn = dir.write("scn/run.json", R"({"platform": {"preset": "../plat/small.json", "cores_per_node": 2}})");
  Scenario s      = load_scenario(scn, {});
  EXPECT_EQ(s.platform.hosts.nodes, 4);
  EXPECT_EQ(s.platform.hosts.cores_per_node, 2);
  EXPECT_EQ(s.platform.fabric.down, std::vector<int>{4});
  EXPECT_EQ(s.source, scn);
}

TEST(scenario_presets, UnknownPresetListsBuiltins)
{
  std::string e = error_of(R"({"platform": {"preset": "qdr-32"}})");
  EXPECT_CONTAINS(e, "net.json: platform.preset: \"qdr-32\" is not a preset; choose bxi-v2, qdr-16, slingshot-11 or a path to a .json file");
  EXPECT_CONTAINS(e, ".json");
}

TEST(scenario_presets, MissingPresetFile)
{
  TempDir dir;
  std::string scn = dir.write("run.json", R"({"platform": {"preset": "nothere.json"}})");
  try {
    load_scenario(scn, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), "run.json: platform.preset: cannot read preset file");
    EXPECT_CONTAINS(e.what(), "nothere.json: No such file or directory");
  }
}

TEST(scenario_presets, KeysInsidePresetAreValidatedAndNamed)
{
  TempDir dir;
  dir.write("bad.json", R"({"platform": {"fabric": {"rooting": "dmodk"}}})");
  std::string scn = dir.write("run.json", R"({"platform": {"preset": "bad.json"}})");
  try {
    load_scenario(scn, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    std::string m = e.what();
    EXPECT_CONTAINS(m, "bad.json: platform.fabric.rooting: unknown key");
    EXPECT_CONTAINS(m, "did you mean 'routing'?");
  }
  dir.write("bad2.json", R"({"platform": {"nic": {"send_overhead": "fast"}}})");
  scn = dir.write("run2.json", R"({"platform": {"preset": "bad2.json"}})");
  try {
    load_scenario(scn, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), "bad2.json: platform.nic.send_overhead: \"fast\" is not a time");
  }
  dir.write("bad3.json", R"({"nodes": 4})");
  scn = dir.write("run3.json", R"({"platform": {"preset": "bad3.json"}})");
  try {
    load_scenario(scn, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), "bad3.json: nodes: unknown key; valid keys here: platform");
  }
}

// ---------------------------------------------------------------------------------------------
// --set
// ---------------------------------------------------------------------------------------------

TEST(scenario_set, CreatesAndOverridesKeys)
{
  Scenario s = parse(R"({"platform": {"nodes": 4, "fabric": {"down": 4}}})",
                     {"platform.nodes=2", "platform.fabric.routing=random", "job.placement=cyclic",
                      "platform.fabric.link_latency=1.3us", "seed=42", "description=hello world"});
  EXPECT_EQ(s.platform.hosts.nodes, 2);                  // JSON number
  EXPECT_EQ(s.platform.fabric.routing, Routing::Random); // string, created the key
  EXPECT_EQ(s.job.placement, Placement::Cyclic);         // created the `job` object
  EXPECT_EQ(s.platform.fabric.link_latency, 1'300'000);
  EXPECT_EQ(s.seed, 42u);
  EXPECT_EQ(s.resolved["description"], "hello world");
}

TEST(scenario_set, ParsesJsonValues)
{
  Scenario s = parse("{}", {"platform.fabric.levels=2", "platform.fabric.down=[4,8]", "platform.fabric.up=[2]",
                            "platform.nic.features.total_data_ordering=true",
                            R"(traffic=[{"pattern":"stream"},{"pattern":"incast","size":64}])"});
  EXPECT_EQ(s.platform.fabric.down, (std::vector<int>{4, 8}));
  EXPECT_EQ(s.platform.fabric.up, std::vector<int>{2});
  EXPECT_TRUE(s.platform.limits.total_data_ordering);
  ASSERT_EQ(s.traffic.size(), 2u);
  EXPECT_EQ(s.traffic[1].pattern, Pattern::Incast);
  EXPECT_EQ(s.traffic[1].size, 64u);
  // "true" is JSON, so a string key given `true` is a type error, not the string "true".
  std::string e = error_of("{}", {"platform.preset=true"});
  EXPECT_CONTAINS(e, "--set platform.preset=true: platform.preset: expected a string");
  // A quoted JSON string stays a string.
  Scenario q = parse("{}", {R"(description="42")"});
  EXPECT_EQ(q.resolved["description"], "42");
}

TEST(scenario_set, ThreadsPerPe)
{
  EXPECT_EQ(parse("{}").job.runtime.threads_per_pe, 0); // 0: the node's program cores divided among its PEs
  EXPECT_EQ(parse("{}", {"job.threads.per_pe=6"}).job.runtime.threads_per_pe, 6);
  EXPECT_EQ(parse(R"({"job": {"threads": {"per_pe": 3, "library_lock": "50ns"}}})").job.runtime.threads_per_pe, 3);
  EXPECT_CONTAINS(error_of("{}", {"job.threads.per_pe=-1"}), "job.threads.per_pe");
  // The short form: "threads": N.
  EXPECT_EQ(parse(R"({"job": {"threads": 11}})").job.runtime.threads_per_pe, 11);
  EXPECT_EQ(parse("{}", {"job.threads=5"}).job.runtime.threads_per_pe, 5);
  EXPECT_CONTAINS(error_of(R"({"job": {"threads": -2}})"), "job.threads.per_pe");
}

TEST(scenario_set, PresetBeforeResolution)
{
  Scenario s = parse("{}", {"platform.preset=qdr-16", "platform.nic.limits.max_cts=3"});
  EXPECT_EQ(s.platform.preset, "qdr-16");
  EXPECT_EQ(s.platform.nic.injection_queues, 1);
  EXPECT_EQ(s.platform.limits.max_cts, 3);
}

// A program run's default platform (shmemsim-run): a scenario that names no preset starts from it,
// its platform keys overriding the preset's; "" names none; a named preset wins; without a default
// (shmemsim run) nothing changes.
TEST(scenario_presets, DefaultPresetWhenNoneIsNamed)
{
  const Scenario none  = parse_scenario(R"({"job": {"compute": "none"}})", "p.json", {}, kProgramPreset);
  const Scenario named = parse_scenario(R"({"platform": {"preset": "qdr-16"}})", "p.json", {});
  EXPECT_EQ(none.platform.preset, "qdr-16");
  EXPECT_TRUE(none.platform.preset_by_default);
  EXPECT_TRUE(none.platform.keys_given.empty());
  EXPECT_EQ(none.resolved["platform"], named.resolved["platform"]); // the same platform, every key
  EXPECT_FALSE(named.platform.preset_by_default);
  EXPECT_EQ(describe_platform(none.platform), "qdr-16; 16 nodes x 12 cores");
  EXPECT_EQ(platform_record(none.platform),
            nlohmann::json({{"preset", "qdr-16"}, {"by_default", true}, {"keys_given", nlohmann::json::array()}}));

  const Scenario keys = parse_scenario(R"({"platform": {"nodes": 4, "fabric": {"jitter": "1ns", "down": [4]}}})",
                                       "p.json", {"platform.nic.initiate_overhead=1us"}, kProgramPreset);
  EXPECT_EQ(keys.platform.preset, "qdr-16");
  EXPECT_TRUE(keys.platform.preset_by_default);
  EXPECT_EQ(keys.platform.hosts.nodes, 4);
  EXPECT_EQ(keys.platform.hosts.cores_per_node, 12); // the preset's
  EXPECT_EQ(keys.platform.keys_given,
            (std::vector<std::string>{"fabric.down", "fabric.jitter", "nic.initiate_overhead", "nodes"}));
  EXPECT_EQ(
      describe_platform(keys.platform),
      "qdr-16 with 4 of its keys set (fabric.down, fabric.jitter, nic.initiate_overhead, nodes); 4 nodes x 12 cores");

  const Scenario custom = parse_scenario(R"({"platform": {"preset": "", "nodes": 3}})", "p.json", {}, kProgramPreset);
  EXPECT_EQ(custom.platform.preset, "");
  EXPECT_FALSE(custom.platform.preset_by_default);
  EXPECT_EQ(custom.platform.hosts.nodes, 3);
  EXPECT_EQ(describe_platform(custom.platform).substr(0, 34), "custom (no preset; keys given: nod");
  EXPECT_EQ(platform_record(custom.platform)["preset"], "custom");

  const Scenario traffic = parse_scenario(R"({"job": {"compute": "none"}})", "p.json", {});
  EXPECT_EQ(traffic.platform.preset, "");
  EXPECT_FALSE(traffic.platform.preset_by_default);
  const Scenario empty = parse("{}");
  EXPECT_EQ(traffic.resolved["platform"], empty.resolved["platform"]);

  const Scenario by_set = parse_scenario("{}", "p.json", {"platform.preset=qdr-16"}, kProgramPreset);
  EXPECT_FALSE(by_set.platform.preset_by_default);
  EXPECT_EQ(by_set.resolved["platform"], named.resolved["platform"]);
}

TEST(scenario_presets, DefaultPresetKeysAreValidatedAndNamed)
{
  // A bad key given beside the default preset is named with its source, as beside a named one.
  try {
    parse_scenario(R"({"platform": {"nodes": "many"}})", "p.json", {}, kProgramPreset);
    ADD_FAILURE() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), "p.json: platform.nodes");
  }
  // `platform` that is not an object is refused, not replaced by the preset.
  try {
    parse_scenario(R"({"platform": 5})", "p.json", {}, kProgramPreset);
    ADD_FAILURE() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), "p.json: platform: expected an object");
  }
}

TEST(scenario_set, IndexesIntoTrafficArrays)
{
  Scenario s = parse(R"({"traffic": [{}, {"pattern": "alltoall"}]})", {"traffic.1.size=1KiB"});
  EXPECT_EQ(s.traffic[1].size, 1024u);
  EXPECT_EQ(s.traffic[0].size, 8u);
  EXPECT_EQ(error_of(R"({"traffic": [{}]})", {"traffic.size=64"}),
            "--set traffic.size=64: traffic is an array of 1; name an element by index, e.g. traffic.0.size");
}

TEST(scenario_set, UnknownKeyNamesSet)
{
  std::string e = error_of("{}", {"platform.fabric.rooting=adaptive"});
  EXPECT_CONTAINS(e, "--set platform.fabric.rooting=adaptive: platform.fabric.rooting: unknown key; valid keys "
                     "here: topology, levels, down, up, link_bandwidth");
  EXPECT_CONTAINS(e, "(did you mean 'routing'?)");
  e = error_of("{}", {"platfrom.nodes=3"});
  EXPECT_CONTAINS(e, "--set platfrom.nodes=3: platfrom: unknown key; valid keys here: seed, description, "
                     "platform, job, output, traffic, repeat, sweep, emulator (did you mean 'platform'?)");
}

TEST(scenario_set, BadValueNamesSet)
{
  std::string e = error_of(R"({"platform": {"nodes": 4}})", {"platform.nodes=four"});
  EXPECT_EQ(e, "--set platform.nodes=four: platform.nodes: expected an integer >= 1, got \"four\"");
}

TEST(scenario_set, MalformedArguments)
{
  std::string e = error_of("{}", {"platform.nodes"});
  EXPECT_CONTAINS(e, "--set platform.nodes: expected dotted.path=VALUE");
  e = error_of("{}", {"platform..nodes=3"});
  EXPECT_CONTAINS(e, "--set platform..nodes=3:");
  e = error_of(R"({"platform": {"nodes": 4}})", {"platform.nodes.x=3"});
  EXPECT_CONTAINS(e, "--set platform.nodes.x=3: platform.nodes is 4, not an object; cannot set platform.nodes.x");
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

TEST(scenario_errors, MalformedJsonHasLineAndColumn)
{
  std::string e = error_of("{\n  \"seed\": 1,\n  \"platform\": {\"nodes\" 4}\n}");
  EXPECT_CONTAINS(e, "net.json:3:24: malformed JSON: ");
  e = error_of("");
  EXPECT_CONTAINS(e, "net.json:1:1: malformed JSON: ");
}

TEST(scenario_errors, MissingFile)
{
  TempDir dir;
  std::string p = (dir.path() / "missing.json").string();
  try {
    load_scenario(p, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), p + ": cannot read scenario file: No such file or directory");
  }
}

TEST(scenario_errors, FileBasedErrorNamesFile)
{
  TempDir dir;
  std::string p = dir.write("net.json", "{\n  \"platform\": {\n    \"fabric\": {\n      \"rooting\": 3}}}\n");
  try {
    load_scenario(p, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()),
              p + ": platform.fabric.rooting: unknown key; valid keys here: topology, levels, down, up, "
                  "link_bandwidth, link_latency, switch_latency, mtu, header_size, routing, jitter, buffer, dragonfly (did you mean "
                  "'routing'?)");
  }
  p = dir.write("broken.json", "{\n  \"seed\": 1,,\n}");
  try {
    load_scenario(p, {});
    FAIL() << "expected an error";
  } catch (const ScenarioError& e) {
    EXPECT_CONTAINS(e.what(), p + ":2:13: malformed JSON: ");
  }
}

TEST(scenario_errors, TopLevelMustBeObject)
{
  EXPECT_CONTAINS(error_of("[1, 2]"), "net.json: expected a JSON object at the top level, got array");
}

TEST(scenario_errors, EnumValues)
{
  EXPECT_EQ(error_of(R"({"platform": {"fabric": {"routing": "foo"}}})"),
            "net.json: platform.fabric.routing: \"foo\" is not a routing; choose dmodk, random or adaptive");
  EXPECT_EQ(error_of(R"({"job": {"placement": "scatter"}})"),
            "net.json: job.placement: \"scatter\" is not a placement; choose block or cyclic");
  EXPECT_EQ(error_of(R"({"traffic": {"ack": 1}})"),
            "net.json: traffic.ack: 1 is not an ack type; choose ct, oc or none");
  EXPECT_CONTAINS(error_of(R"({"traffic": [{}, {"pattern": "broadcast"}]})"),
                  "net.json: traffic[1].pattern: \"broadcast\" is not a pattern; choose pingpong, stream, alltoall, "
                  "incast, fetch_add, random or shift");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"topology": "torus"}}})"),
                  "platform.fabric.topology: \"torus\" is not a topology; choose fat_tree or dragonfly");
}

TEST(scenario_errors, UnitValues)
{
  EXPECT_EQ(error_of(R"({"platform": {"fabric": {"link_latency": "10 parsecs"}}})"),
            "net.json: platform.fabric.link_latency: \"10 parsecs\" is not a time; use a number with ps, ns, us, ms "
            "or s, e.g. \"1.3us\"");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"link_latency": 10}}})"),
                  "net.json: platform.fabric.link_latency: 10 is not a time (units are required); use a number "
                  "with ps, ns, us, ms or s");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"link_bandwidth": "40G"}}})"),
                  "net.json: platform.fabric.link_bandwidth: \"40G\" is not a bandwidth; use a number with bps");
  EXPECT_CONTAINS(error_of(R"({"platform": {"nic": {"pcie_bandwidth": 40}}})"),
                  "platform.nic.pcie_bandwidth: 40 is not a bandwidth (units are required)");
  EXPECT_CONTAINS(error_of(R"({"platform": {"core_speed": 3.3e9}})"),
                  "platform.core_speed: 3300000000.0 is not a speed (units are required); use a number with f, Kf");
  EXPECT_CONTAINS(error_of(R"({"traffic": {"size": "0.3B"}})"),
                  "net.json: traffic.size: \"0.3B\" is not a whole number of bytes; use a whole number of bytes");
  EXPECT_CONTAINS(error_of(R"({"traffic": {"size": -4}})"), "traffic.size: -4 is not a size");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"mtu": 0}}})"),
                  "platform.fabric.mtu: 0 is out of range; expected a size between 1B and 4294967295B");
  EXPECT_CONTAINS(error_of(R"({"platform": {"nic": {"recv_overhead": "-3ns"}}})"),
                  "platform.nic.recv_overhead: \"-3ns\" is negative");
}

TEST(scenario_errors, WrongTypesAndRanges)
{
  EXPECT_EQ(error_of(R"({"platform": {"nodes": "four"}})"),
            "net.json: platform.nodes: expected an integer >= 1, got \"four\"");
  EXPECT_EQ(error_of(R"({"platform": {"nodes": 0}})"), "net.json: platform.nodes: expected an integer >= 1, got 0");
  EXPECT_EQ(error_of(R"({"platform": {"nodes": 2.5}})"), "net.json: platform.nodes: expected an integer >= 1, got 2.5");
  EXPECT_EQ(error_of(R"({"platform": {"fabric": {"levels": 9}}})"),
            "net.json: platform.fabric.levels: expected an integer between 1 and 8, got 9");
  EXPECT_EQ(error_of(R"({"seed": -1})"), "net.json: seed: expected a non-negative integer, got -1");
  EXPECT_EQ(error_of(R"({"traffic": {"verify": "yes"}})"),
            "net.json: traffic.verify: expected true or false, got \"yes\"");
  EXPECT_EQ(error_of(R"({"traffic": {"peer": -2}})"), "net.json: traffic.peer: expected an integer >= -1, got -2");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"down": [4, 0]}}})"),
                  "net.json: platform.fabric.down[1]: expected an integer >= 1 or an array of them, got 0");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": 3}})"),
                  "net.json: platform.fabric: expected an object with keys topology, levels, down");
  EXPECT_CONTAINS(error_of(R"({"traffic": 3})"), "net.json: traffic: expected an object or an array of objects");
  EXPECT_CONTAINS(error_of(R"({"traffic": [{}, 3]})"), "net.json: traffic[1]: expected an object");
}

TEST(scenario_errors, UnknownKeys)
{
  EXPECT_EQ(error_of(R"({"platform": {"fabric": {"rooting": "dmodk"}}})"),
            "net.json: platform.fabric.rooting: unknown key; valid keys here: topology, levels, down, up, "
            "link_bandwidth, link_latency, switch_latency, mtu, header_size, routing, jitter, buffer, dragonfly (did you mean "
            "'routing'?)");
  EXPECT_EQ(error_of(R"({"traffic": {"patern": "stream"}})"),
            "net.json: traffic.patern: unknown key; valid keys here: pattern, size, iterations, window, ack, root, "
            "peer, pairs, shift, gap, volatile, independent, verify, injection, load, warmup (did you mean 'pattern'?)");
  // No suggestion when nothing is close.
  std::string e = error_of(R"({"zzzzzz": 1})");
  EXPECT_CONTAINS(e,
                  "net.json: zzzzzz: unknown key; valid keys here: seed, description, platform, job, output, traffic");
  EXPECT_EQ(e.find("did you mean"), std::string::npos);
  EXPECT_CONTAINS(error_of(R"({"platform": {"nic": {"limits": {"max_ct": 4}}}})"),
                  "platform.nic.limits.max_ct: unknown key; valid keys here: max_cts, max_mds, "
                  "max_entries, max_pt_index, max_volatile_size");
}

// ---------------------------------------------------------------------------------------------
// Fabric shapes, job and traffic checks
// ---------------------------------------------------------------------------------------------

TEST(scenario_fabric, ScalarsExpandPerLevel)
{
  Scenario s = parse(R"({"platform": {"nodes": 64, "fabric": {"levels": 3, "down": 4, "up": 2}}})");
  EXPECT_EQ(s.platform.fabric.down, (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(s.platform.fabric.up, (std::vector<int>{2, 2}));
  Scenario t = parse(R"({"platform": {"nodes": 24, "fabric": {"levels": 2, "down": [8, 3], "up": [4]}}})");
  EXPECT_EQ(t.platform.fabric.down, (std::vector<int>{8, 3}));
  EXPECT_EQ(t.platform.fabric.up, std::vector<int>{4});
  Scenario one = parse(R"({"platform": {"fabric": {"up": 7}}})"); // scalar up ignored with one level
  EXPECT_TRUE(one.platform.fabric.up.empty());
}

TEST(scenario_fabric, ImpossibleShapesRejected)
{
  EXPECT_EQ(error_of(R"({"platform": {"fabric": {"levels": 2, "down": [4, 4, 4], "up": 1}}})"),
            "net.json: platform.fabric: down must give one port count per level (2), got 3");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"up": [2]}}})"),
                  "net.json: platform.fabric: up must give one port count per level below the top (0), got 1");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"levels": 8, "down": 64, "up": 64}}})"),
                  "net.json: platform.fabric: the tree would have more than");
  // From --set: named as the source.
  EXPECT_CONTAINS(error_of("{}", {"platform.fabric.levels=2", "platform.fabric.down=[16]"}),
                  "--set platform.fabric.down=[16]: platform.fabric: down must give one port count per level (2), "
                  "got 1");
}

TEST(scenario_fabric, TooManyNodes)
{
  EXPECT_EQ(error_of(R"({"platform": {"nodes": 40}})"),
            "net.json: platform.nodes: 40 nodes do not fit a fat tree of capacity 16 (levels 1, down [16]); raise "
            "platform.fabric.down or levels");
  EXPECT_CONTAINS(error_of(R"({"platform": {"nodes": 17, "fabric": {"levels": 2, "down": [4, 4], "up": [2]}}})"),
                  "17 nodes do not fit a fat tree of capacity 16 (levels 2, down [4, 4])");
}

TEST(scenario_job, PesAndPlacement)
{
  Scenario s = parse(R"({"platform": {"nodes": 4, "fabric": {"down": 4}}, "job": {"pes_per_node": 3}})");
  EXPECT_EQ(s.job.pes, 12);
  EXPECT_EQ(s.resolved["job"]["pes"], 12);
  Scenario t = parse(R"({"platform": {"nodes": 4}, "job": {"pes": 5, "pes_per_node": 2, "placement": "cyclic"}})");
  EXPECT_EQ(t.job.pes, 5);
  EXPECT_EQ(t.job.placement, Placement::Cyclic);
  EXPECT_EQ(error_of(R"({"platform": {"nodes": 4}, "job": {"pes": 9, "pes_per_node": 2}})"),
            "net.json: job.pes: 9 endpoints do not fit 4 nodes x 2 pes_per_node = 8; raise job.pes_per_node or "
            "platform.nodes");
}

TEST(scenario_traffic, ObjectVersusArray)
{
  Scenario one = parse(R"({"traffic": {"pattern": "incast", "root": 3, "size": 4096, "ack": "oc"}})");
  ASSERT_EQ(one.traffic.size(), 1u);
  EXPECT_EQ(one.traffic[0].pattern, Pattern::Incast);
  EXPECT_EQ(one.traffic[0].root, 3);
  EXPECT_EQ(one.traffic[0].size, 4096u);
  EXPECT_EQ(one.traffic[0].ack, portals::AckReq::OcAck);
  ASSERT_TRUE(one.resolved["traffic"].is_array());
  EXPECT_EQ(one.resolved["traffic"].size(), 1u);

  Scenario two = parse(R"({"traffic": [{"pattern": "stream", "peer": 5, "window": 4, "ack": "none",
    "volatile": false, "independent": true, "verify": false, "iterations": 7},
    {"pattern": "fetch_add", "size": "8B", "root": 2}]})");
  ASSERT_EQ(two.traffic.size(), 2u);
  EXPECT_EQ(two.traffic[0].pattern, Pattern::Stream);
  EXPECT_EQ(two.traffic[0].peer, 5);
  EXPECT_EQ(two.traffic[0].window, 4);
  EXPECT_EQ(two.traffic[0].ack, portals::AckReq::NoAck);
  EXPECT_FALSE(two.traffic[0].volatile_md);
  EXPECT_TRUE(two.traffic[0].independent_md);
  EXPECT_FALSE(two.traffic[0].verify);
  EXPECT_EQ(two.traffic[0].iterations, 7u);
  EXPECT_EQ(two.traffic[1].pattern, Pattern::FetchAdd);
  EXPECT_EQ(two.resolved["traffic"].size(), 2u);
  EXPECT_EQ(two.resolved["traffic"][1]["pattern"], "fetch_add");

  Scenario none = parse(R"({"traffic": []})");
  EXPECT_TRUE(none.traffic.empty());
}

TEST(scenario_traffic, EndpointChecks)
{
  EXPECT_EQ(error_of(R"({"traffic": {"root": 16}})"),
            "net.json: traffic.root: 16 is not an endpoint; expected 0..15 (the job has 16 endpoints)");
  EXPECT_CONTAINS(error_of(R"({"traffic": [{}, {"pattern": "stream", "peer": 20}]})"),
                  "net.json: traffic[1].peer: 20 is not an endpoint; expected 0..15");
  EXPECT_CONTAINS(error_of(R"({"traffic": {"peer": 0}})"),
                  "net.json: traffic.peer: 0 is the root; pingpong needs a peer other than the root");
  EXPECT_CONTAINS(error_of(R"({"traffic": {"pattern": "stream", "root": 15}})"),
                  "net.json: traffic.peer: -1 means the last endpoint (15), which is the root");
  EXPECT_CONTAINS(error_of(R"({"platform": {"nodes": 1}})"),
                  "net.json: traffic.pattern: pingpong needs at least 2 endpoints, the job has 1");
  // Patterns that do not need a partner are fine on one endpoint.
  EXPECT_NO_THROW(parse(R"({"platform": {"nodes": 1}, "traffic": {"pattern": "incast"}})"));
  EXPECT_EQ(error_of(R"({"traffic": {"pattern": "fetch_add", "size": 16}})"),
            "net.json: traffic.size: \"16B\" is not valid for fetch_add, which adds 8-byte integers; use 8");
}

// ---------------------------------------------------------------------------------------------
// Declared parameters: defaults written once, in the structs' initialisers
// ---------------------------------------------------------------------------------------------

namespace {

/// Every key of `table` resolves, for {}, to the field of a default-constructed struct.
template <class P> void expect_defaults_from_struct(const ParamTable<P>& table, const P& parsed)
{
  const P def{};
  for (const auto& k : table) {
    const ParamValue a = k.get(def), b = k.get(parsed);
    EXPECT_TRUE(a.i == b.i && a.u == b.u && a.d == b.d && a.b == b.b && a.s == b.s && a.choice == b.choice &&
                a.ints == b.ints && a.strings == b.strings)
        << k.path << ": {} does not give the struct's default";
  }
}

} // namespace

TEST(scenario_params, EmptyScenarioGivesTheStructDefaults)
{
  Scenario s = parse("{}");
  expect_defaults_from_struct(sim::HostParams::keys(), s.platform.hosts);
  expect_defaults_from_struct(sim::NoiseParams::keys(), s.platform.noise);
  expect_defaults_from_struct(sim::FabricParams::keys(), s.platform.fabric);
  expect_defaults_from_struct(nic::NicParams::keys(), s.platform.nic);
  expect_defaults_from_struct(portals::Limits::keys(), s.platform.limits);
  expect_defaults_from_struct(front::CollectiveParams::keys(), s.job.runtime.collectives);
  expect_defaults_from_struct(front::AsyncParams::keys(), s.job.runtime.async);
  expect_defaults_from_struct(front::RuntimeParams::keys(), s.job.runtime);
  expect_defaults_from_struct(front::ContextParams::keys(), s.job.contexts);
  JobParams job = s.job;
  job.pes       = JobParams{}.pes; // resolved from nodes x pes_per_node
  expect_defaults_from_struct(JobParams::keys(), job);
  ASSERT_EQ(s.traffic.size(), 1u);
  expect_defaults_from_struct(TrafficParams::keys(), s.traffic[0]);
  const Scenario def{};
  EXPECT_EQ(s.seed, def.seed);
  EXPECT_EQ(s.output_trace, def.output_trace);
  EXPECT_EQ(s.platform.progress_core, def.platform.progress_core);
  EXPECT_EQ(s.platform.preset, def.platform.preset);
}

TEST(scenario_params, StructDefaultsAreTheScenarioDefaults)
{
  // These used to differ (HostParams{} was 1 node of 1 core at 1 Gf; Scenario{}.seed was 0).
  const sim::HostParams h{};
  EXPECT_EQ(h.nodes, 16);
  EXPECT_EQ(h.cores_per_node, 12);
  EXPECT_DOUBLE_EQ(h.core_speed, 13.32e9);
  EXPECT_EQ(Scenario{}.seed, 1u);
  // The per-level fill of down/up gives the struct's lists at the default number of levels.
  const sim::FabricParams f{};
  for (const auto& k : sim::FabricParams::keys()) {
    if (k.kind != ParamKind::IntList)
      continue;
    const std::size_t n =
        k.path.ends_with(".down") ? static_cast<std::size_t>(f.levels) : static_cast<std::size_t>(f.levels - 1);
    EXPECT_EQ(k.get(f).ints, std::vector<int>(n, static_cast<int>(k.fill))) << k.path;
  }
}

TEST(scenario_params, EveryDeclaredKeyIsListedOnce)
{
  const std::string d = describe_keys();
  auto listed         = [&](const std::string& path) {
    std::size_t n = 0;
    for (std::size_t at = d.find("\n" + path + " "); at != std::string::npos; at = d.find("\n" + path + " ", at + 1))
      ++n;
    return n;
  };
  auto each = [&](const auto& table) {
    for (const auto& k : table) {
      EXPECT_EQ(listed(k.path), 1u) << k.path;
      EXPECT_FALSE(k.doc.empty()) << k.path;
      EXPECT_EQ(k.doc.find('\n'), std::string::npos) << k.path;
      if (k.kind == ParamKind::Enum) {
        EXPECT_FALSE(k.choices.empty()) << k.path;
        EXPECT_LT(static_cast<std::size_t>(k.default_value().choice), k.choices.size()) << k.path;
      }
    }
  };
  each(sim::HostParams::keys());
  each(sim::NoiseParams::keys());
  each(sim::FabricParams::keys());
  each(nic::NicParams::keys());
  each(portals::Limits::keys());
  each(JobParams::keys());
  each(front::CollectiveParams::keys());
  each(front::AsyncParams::keys());
  each(front::RuntimeParams::keys());
  each(front::ContextParams::keys());
  each(emulator::EmulatorParams::keys());
  each(TrafficParams::keys());
}

TEST(scenario_params, CollectiveAlgorithmsAreTyped)
{
  Scenario s = parse(R"({"job": {"collectives": {"barrier": "tree", "reduce": "ring"}}})");
  EXPECT_EQ(s.job.runtime.collectives.barrier, front::BarrierAlgorithm::Tree);
  EXPECT_EQ(s.job.runtime.collectives.broadcast, front::BroadcastAlgorithm::Binomial);
  EXPECT_EQ(s.job.runtime.collectives.collect, front::CollectAlgorithm::Ring);
  EXPECT_EQ(s.job.runtime.collectives.reduce, front::ReduceAlgorithm::Ring);
  EXPECT_EQ(s.resolved["job"]["collectives"]["barrier"], "tree");
  EXPECT_EQ(s.resolved["job"]["collectives"]["collect"], "ring");
  std::string e = error_of(R"({"job": {"collectives": {"reduce": "butterfly"}}})");
  EXPECT_CONTAINS(e, "job.collectives.reduce");
  EXPECT_CONTAINS(e, "recursive_doubling, linear, ring or triggered");
}

TEST(scenario_params, AsyncSettingsAreTyped)
{
  Scenario s = parse(R"({"job": {"async": {"workers": 11, "runtime": "contexts"}}})");
  EXPECT_EQ(s.job.runtime.async.workers, 11);
  EXPECT_EQ(s.job.runtime.async.design, front::AsyncDesign::Contexts);
  EXPECT_EQ(s.resolved["job"]["async"]["runtime"], "contexts");
  EXPECT_EQ(parse("{}").job.runtime.async.design, front::AsyncDesign::Offload);
  std::string e = error_of(R"({"job": {"async": {"runtime": "fibers"}}})");
  EXPECT_CONTAINS(e, "job.async.runtime");
  EXPECT_CONTAINS(e, "offload or contexts");
  e = error_of(R"({"job": {"async": {"workers": -1}}})");
  EXPECT_CONTAINS(e, "job.async.workers");
}

// ---------------------------------------------------------------------------------------------
// Bounds: no time or rate can overflow the picosecond clock
// ---------------------------------------------------------------------------------------------

TEST(scenario_bounds, TimesAreAtMostAMillionSeconds)
{
  for (const std::string key :
       {R"("fabric": {"switch_latency")", R"("fabric": {"link_latency")", R"("fabric": {"jitter")",
        R"("nic": {"pcie_latency")", R"("nic": {"send_overhead")", R"("nic": {"atomic_overhead")"}) {
    EXPECT_NO_THROW(parse(R"({"platform": {)" + key + R"(: "1e5s"}}})")) << key;
    EXPECT_NO_THROW(parse(R"({"platform": {)" + key + R"(: "1000000s"}}})")) << key;
    for (const char* bad : {"1000000.000000000001s", "1e7s", "9223372036854775807ps", "1e30s"}) {
      std::string e = error_of(R"({"platform": {)" + key + R"(: ")" + bad + R"("}}})");
      EXPECT_CONTAINS(e, std::string("\"") + bad + "\" is out of range; expected a time between 0ns and 1000000s");
    }
  }
  EXPECT_CONTAINS(error_of(R"({"traffic": {"gap": "2e6s"}})"), "traffic.gap: \"2e6s\" is out of range");
  EXPECT_CONTAINS(error_of(R"({"job": {"threads": {"library_lock": "1e9s"}}})"), "job.threads.library_lock");
  EXPECT_CONTAINS(error_of(R"({"platform": {"coherence": {"same_socket": "2ms"}}})"),
                  "platform.coherence.same_socket: \"2ms\" is out of range; expected a time between 0ns and 1ms");
  EXPECT_CONTAINS(error_of(R"({"platform": {"coherence": {"cross_socket": "fast"}}})"), "platform.coherence.cross_socket");
  EXPECT_CONTAINS(error_of(R"({"platform": {"sockets_per_node": 0}})"), "platform.sockets_per_node");
  EXPECT_CONTAINS(error_of(R"({"platform": {"coherence": {"one_hop": "1ns"}}})"), "one_hop");
  const Scenario lines = parse(R"({"platform": {"sockets_per_node": 4, "coherence": {"same_socket": "30ns",
    "cross_socket": "0.12us"}}})");
  EXPECT_EQ(lines.platform.hosts.sockets_per_node, 4);
  EXPECT_EQ(lines.platform.hosts.line_same_socket, 30'000);
  EXPECT_EQ(lines.platform.hosts.line_cross_socket, 120'000);
  EXPECT_CONTAINS(error_of(R"({"job": {"compute_quantum": "99ns"}})"), "at least 100ns and at most 1000000s");
}

TEST(scenario_bounds, BandwidthsMoveTheLargestMessageInAMillionSeconds)
{
  // 4 GiB in 1e6 s needs 34359.74 bit/s over PCIe; on a link, with 42 B of header per 2 KiB.
  EXPECT_NO_THROW(parse(R"({"platform": {"nic": {"pcie_bandwidth": "34360bps"}}})"));
  std::string e = error_of(R"({"platform": {"nic": {"pcie_bandwidth": "34359bps"}}})");
  EXPECT_CONTAINS(e, "net.json: platform.nic.pcie_bandwidth: \"34.359Kbps\" is too low");
  EXPECT_CONTAINS(e, "at least 34.36Kbps");
  e = error_of(R"({"platform": {"nic": {"pcie_bandwidth": "1B/s"}}})");
  EXPECT_CONTAINS(e, "a message of platform.nic.limits.max_msg_size (4GiB) would take 4294967296 s over PCIe");
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"link_bandwidth": "34360bps"}}})"),
                  "platform.fabric.link_bandwidth: \"34.36Kbps\" is too low");
  // A smaller largest message admits slower channels; the message names the file.
  EXPECT_NO_THROW(parse(R"({"platform": {"fabric": {"link_bandwidth": "9600bps"}, "nic": {"pcie_bandwidth": "9600bps",
    "limits": {"max_msg_size": "1MB"}}}})"));
  e = error_of(R"({"platform": {"nic": {"limits": {"max_msg_size": 18446744073709551615}}}})");
  EXPECT_CONTAINS(e, "net.json: platform.fabric.link_bandwidth: \"32Gbps\" is too low");
  EXPECT_CONTAINS(e, "(18446744073709551615B) would take 4706261610 s on a link");
  // A packet on the wire fits 32 bits.
  EXPECT_CONTAINS(error_of(R"({"platform": {"fabric": {"mtu": 4294967295, "header_size": "1B"}}})"),
                  "a packet on the wire must be at most 4294967295 bytes");
  // Speeds are at least one flop per second.
  EXPECT_CONTAINS(error_of(R"({"platform": {"core_speed": "1e-300f"}})"), "at least 1f");
}

// ---------------------------------------------------------------------------------------------
// Parser robustness
// ---------------------------------------------------------------------------------------------

TEST(scenario_robustness, NestingIsBounded)
{
  const std::string deep = std::string(101, '[') + std::string(101, ']');
  std::string e          = error_of(R"({"job": {"args": )" + deep + "}}");
  EXPECT_CONTAINS(e, "net.json: JSON nested deeper than 100 levels (at job.args");
  EXPECT_CONTAINS(error_of("{}", {"description=" + deep}), "--set description=[[[");
  // 100 levels is JSON the parser walks; the scenario just refuses the value.
  EXPECT_CONTAINS(error_of(R"({"job": {"args": )" + std::string(97, '[') + std::string(97, ']') + "}}"),
                  "job.args[0]: expected a string");
}

TEST(scenario_robustness, NulByteIsRefused)
{
  EXPECT_CONTAINS(error_of(std::string("{\"seed\": 3}\n\0 trailing", 22)),
                  "net.json:2:1: a NUL byte at byte offset 12");
  EXPECT_CONTAINS(error_of(std::string("{\"description\": \"a\0b\"}", 22)), "NUL byte at byte offset 18");
}

TEST(scenario_robustness, LibraryExceptionsBecomeNamedErrors)
{
  EXPECT_CONTAINS(error_of(R"({"seed": 1e400})"), "net.json:1:14: malformed JSON: number overflow parsing '1e400'");
  EXPECT_CONTAINS(
      error_of(R"({"traffic": [{}]})", {"traffic.18446744073709551616.size=8"}),
      "--set traffic.18446744073709551616.size=8: traffic has 1 element; index 18446744073709551616 is out of range");
  EXPECT_CONTAINS(error_of("{}", {"description=\xFF"}), "--set description=\xFF: not valid UTF-8 (byte 12");
  EXPECT_CONTAINS(error_of("{}", {"job.program=a\xC3"}), "not valid UTF-8 (byte 13");
  EXPECT_CONTAINS(error_of("{}", {"job.args=[\"\xED\xA0\x80\"]"}), "not valid UTF-8 (byte 11");
  EXPECT_NO_THROW(parse("{}", {"description=caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"}));
}

TEST(scenario_robustness, DuplicateKeysAreRefused)
{
  EXPECT_CONTAINS(error_of(R"({"platform": {"nic": {"limits": {"max_cts": 2, "max_cts": 3}}}})"),
                  "net.json: the key \"max_cts\" appears twice in platform.nic.limits; give each key once");
  EXPECT_CONTAINS(error_of(R"({"traffic": [{}, {"pattern": "stream", "pattern": "incast"}]})"),
                  "appears twice in traffic[1]");
  EXPECT_CONTAINS(error_of("{}", {R"(platform={"nodes": 2, "nodes": 4})"}),
                  R"(--set platform={"nodes": 2, "nodes": 4}: the key "nodes" appears twice in the top-level object)");
  // The same key in two objects is fine.
  EXPECT_NO_THROW(parse(R"({"traffic": [{"size": 8}, {"size": 16}]})"));
}

TEST(scenario_robustness, ErrorsInTheFileAreNotBlamedOnUnrelatedSets)
{
  const std::string shape = R"({"platform": {"fabric": {"levels": 2, "down": [4], "up": [2]}}})";
  EXPECT_CONTAINS(error_of(shape, {"platform.fabric.routing=adaptive", "seed=4"}),
                  "net.json: platform.fabric: down must give one port count per level");
  EXPECT_CONTAINS(error_of(shape, {"platform.fabric.down=[4]"}), "--set platform.fabric.down=[4]: platform.fabric:");
  EXPECT_CONTAINS(error_of(R"({"platform": {"nodes": 64}})", {"platform.fabric.jitter=1ns"}),
                  "net.json: platform.nodes: 64 nodes do not fit");
}

TEST(scenario_robustness, EchoedValuesAreCut)
{
  const std::string huge(100000, '9');
  for (const std::string& e :
       {error_of(R"({"platform": {"fabric": {"link_latency": ")" + huge + R"(ns"}}})"),
        error_of(R"({"platform": {"nodes": ")" + huge + R"("}})"), error_of("{\"" + huge + "\": 1}"),
        error_of(R"({"job": {"placement": ")" + huge + R"("}})"), error_of("{}", {"job.placement=" + huge}),
        error_of("{}", {"platform.fabric.mtu=" + huge + "B"}), error_of("{}", {huge + "=1"}),
        error_of(R"({"platform": {"preset": ")" + huge + R"(.json"}})")}) {
    EXPECT_LT(e.size(), 500u) << e.substr(0, 500);
    EXPECT_TRUE(e.find("999...") != std::string::npos || e.find("...999") != std::string::npos) << e;
  }
}

TEST(scenario_keys, KindsOfKeysForThePlotsUnits)
{
  EXPECT_EQ(key_kind("platform.fabric.link_latency"), ParamKind::Time);
  EXPECT_EQ(key_kind("platform.fabric.link_bandwidth"), ParamKind::Bandwidth);
  EXPECT_EQ(key_kind("platform.fabric.mtu"), ParamKind::Size);
  EXPECT_EQ(key_kind("traffic.size"), ParamKind::Size);
  EXPECT_EQ(key_kind("traffic.0.size"), ParamKind::Size); // the first pattern's size
  EXPECT_EQ(key_kind("job.pes"), ParamKind::Int);
  EXPECT_FALSE(key_kind("platform.fabric.no_such_key"));
  EXPECT_FALSE(key_kind("traffic")); // the list itself
  EXPECT_FALSE(key_kind("sweep"));
}
