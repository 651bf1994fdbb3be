// The emulator's parts that need no processes: the configuration the launcher hands each PE, the
// injector's seeded decisions and the merge of the PEs' traces (docs/emulator.md).
#include "base/NetworkObserver.hpp"
#include "shmem_front/emulator/Config.hpp"
#include "shmem_front/emulator/Injector.hpp"
#include "shmem_front/emulator/Launcher.hpp"
#include "traces/Merge.hpp"

#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <vector>

using namespace shmemsim::emulator;

namespace {
/// A configuration with a value other than the default in every struct it carries.
Config sample()
{
  Config c;
  c.npes                         = 5;
  c.rank                         = 3;
  c.epoch                        = 1700000000.25;
  c.heap_bytes                   = 1ull << 29;
  c.token                        = std::string(64, 'a');
  c.listen_host                  = "127.0.0.3";
  c.advertise                    = "10.0.0.7";
  c.contexts.mapping             = shmemsim::front::CtxMapping::Split;
  c.contexts.on_exhaustion       = shmemsim::front::OnExhaustion::RoundRobin;
  c.limits.max_cts               = 7;
  c.limits.total_data_ordering   = true;
  c.collectives.reduce           = shmemsim::front::ReduceAlgorithm::Ring;
  c.emulator.latency             = 1'500'000; // 1.5 us
  c.emulator.bandwidth           = "10Gbps";  // 1.25e9 B/s
  c.emulator.jitter              = 300'000;   // 300 ns
  c.emulator.reorder_probability = 0.125;
  c.emulator.reorder_max_depth   = 3;
  c.emulator.hosts               = {"node a", "node,b"};
  c.seed                         = 42;
  c.emulator.paths               = 3;
  c.routing                      = shmemsim::Routing::Random;
  return c;
}

std::vector<Decision> decisions(const Config& c, int src, int dst, int n)
{
  Injector inj(InjectedDelays(c.emulator), c.seed, src, dst);
  std::vector<Decision> out;
  for (int i = 0; i < n; ++i)
    out.push_back(inj.next(64, i % 3 != 0));
  return out;
}

std::string parse_error(const std::string& text)
{
  try {
    Config::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

/// `text` with the value of entry `key` replaced by `value`.
std::string with_entry(std::string text, const std::string& key, const std::string& value)
{
  const std::size_t at  = text.find(key + "=");
  const std::size_t end = text.find(' ', at);
  return text.replace(at, end == std::string::npos ? std::string::npos : end - at, key + "=" + value);
}
} // namespace

TEST(emulator_config, RoundTripsEveryField)
{
  const Config c = sample();
  const Config d = Config::parse(c.serialize());
  EXPECT_EQ(d.serialize(), c.serialize());
  EXPECT_EQ(d.rank, 3);
  EXPECT_EQ(d.contexts.on_exhaustion, shmemsim::front::OnExhaustion::RoundRobin);
  EXPECT_EQ(d.contexts.mapping, shmemsim::front::CtxMapping::Split);
  EXPECT_EQ(d.limits.max_cts, 7);
  EXPECT_TRUE(d.limits.total_data_ordering);
  EXPECT_EQ(d.collectives.reduce, shmemsim::front::ReduceAlgorithm::Ring);
  EXPECT_EQ(d.collectives.barrier, shmemsim::front::BarrierAlgorithm::Dissemination);
  EXPECT_DOUBLE_EQ(d.epoch, 1700000000.25);
  EXPECT_EQ(d.advertise, "10.0.0.7");
  EXPECT_EQ(d.emulator.latency, 1'500'000);
  EXPECT_EQ(d.emulator.bandwidth, "10Gbps");
  EXPECT_EQ(d.emulator.hosts, (std::vector<std::string>{"node a", "node,b"}));
  EXPECT_EQ(d.emulator.paths, 3);
  EXPECT_EQ(d.routing, shmemsim::Routing::Random);
  // The scenario's keys under their scenario paths, enums by name, times in picoseconds.
  const std::string text = c.serialize();
  EXPECT_NE(text.find(" platform.nic.limits.max_cts=7 "), std::string::npos) << text;
  EXPECT_NE(text.find(" platform.fabric.routing=random "), std::string::npos) << text;
  EXPECT_NE(text.find(" job.collectives.reduce=ring "), std::string::npos) << text;
  EXPECT_NE(text.find(" emulator.jitter=300000 "), std::string::npos) << text;
  EXPECT_EQ(text.find_first_of("\t\n"), std::string::npos);
}

TEST(emulator_config, BadTextNamesTheEntry)
{
  const std::string text = sample().serialize();
  EXPECT_EQ(parse_error(text.substr(0, text.find(" seed="))), "missing entry 'seed'");
  EXPECT_EQ(parse_error("npes=2"), "missing entry 'rank'");
  EXPECT_EQ(parse_error(text + " colour=red"), "unknown entry 'colour'");
  EXPECT_EQ(parse_error(text + " seed=1"), "entry 'seed' given twice");
  EXPECT_EQ(parse_error(with_entry(text, "rank", "9")), "bad value of 'rank': 9 is not below npes (5)");
  EXPECT_EQ(parse_error(with_entry(text, "emulator.paths", "0")),
            "bad value of 'emulator.paths': '0': integer out of range [1, 64]"); // a pair needs a connection
  EXPECT_EQ(parse_error(with_entry(text, "platform.fabric.routing", "3")),
            "bad value of 'platform.fabric.routing': '3': expected one of dmodk, random, adaptive");
  EXPECT_EQ(parse_error(with_entry(text, "token", "abc")), "bad value of 'token': expected 64 hex digits");
}

TEST(emulator_config, InjectedDelaysAreConvertedLast)
{
  const InjectedDelays d(sample().emulator);
  EXPECT_EQ(d.latency_ns, 1500u);
  EXPECT_EQ(d.jitter_ns, 300u);
  EXPECT_EQ(d.hold_ns, 200'000u); // emulator.reorder.max_hold's default, 200 us
  EXPECT_DOUBLE_EQ(d.bandwidth_Bps, 1.25e9);
  EXPECT_TRUE(d.any());
  EXPECT_FALSE(InjectedDelays(EmulatorParams{}).any()); // bandwidth "none", no latency or jitter
  EmulatorParams bad;
  bad.bandwidth = "fast";
  EXPECT_THROW(InjectedDelays{bad}, std::invalid_argument);
}

TEST(emulator_injector, SameSeedSameDecisionsOtherSeedOthers)
{
  const Config c = sample();
  const auto a = decisions(c, 1, 2, 500), b = decisions(c, 1, 2, 500);
  Config other = c;
  other.seed   = 43;
  const auto o = decisions(other, 1, 2, 500), pair = decisions(c, 2, 1, 500);
  int differ_seed = 0, differ_pair = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].delay_ns, b[i].delay_ns);
    EXPECT_EQ(a[i].hold, b[i].hold);
    differ_seed += a[i].delay_ns != o[i].delay_ns;
    differ_pair += a[i].delay_ns != pair[i].delay_ns;
  }
  EXPECT_GT(differ_seed, 400);
  EXPECT_GT(differ_pair, 400); // each ordered pair has a stream of its own
}

TEST(emulator_injector, DelaysAndHoldsStayInTheirRanges)
{
  const Config c = sample();
  // 64 bytes at 1.25e9 B/s: 51 ns of serialization on top of the latency, then up to 300 ns of jitter.
  const auto d = decisions(c, 0, 1, 3000);
  int held = 0, requests = 0;
  std::set<int> depths;
  for (std::size_t i = 0; i < d.size(); ++i) {
    EXPECT_GE(d[i].delay_ns, 1500u + 51u);
    EXPECT_LE(d[i].delay_ns, 1500u + 51u + 300u);
    const bool request = i % 3 != 0;
    requests += request;
    if (!request) {
      EXPECT_EQ(d[i].hold, 0) << "responses are never held";
    }
    if (d[i].hold > 0) {
      ++held;
      depths.insert(d[i].hold);
      EXPECT_LE(d[i].hold, 3);
    }
  }
  // Probability 1/8 of 2000 requests: 250 expected; 4 standard deviations (about 59) either side.
  EXPECT_NEAR(held, requests / 8, 60);
  EXPECT_EQ(depths, (std::set<int>{1, 2, 3}));
}

TEST(emulator_token, SixtyFourHexDigitsNeverTheSame)
{
  const std::string a = make_token(), b = make_token();
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

TEST(emulator_config, TraceFileEpochAndNodeRoundTrip)
{
  Config c       = sample();
  c.trace_file   = "/tmp/a dir/with=signs %20/.pe-3.evt"; // spaces and '=' survive the key=value text
  c.epoch_ns     = 1700000000250000001ull;
  c.node         = 2;
  const Config d = Config::parse(c.serialize());
  EXPECT_EQ(d.trace_file, c.trace_file);
  EXPECT_EQ(d.epoch_ns, c.epoch_ns);
  EXPECT_EQ(d.node, 2);
  EXPECT_EQ(Config::parse(sample().serialize()).trace_file, ""); // none
}

namespace {
std::string write_part(const std::string& path, const std::string& events)
{
  std::ofstream out(path);
  out << "#shmemsim-trace 1\n#level ops\n" << events;
  return path;
}
} // namespace

// The PEs' files merge by date, stable, with a message's delivery never before its issue (the
// two processes' clocks disagree) and its completion never before its delivery.
TEST(emulator_trace_merge, SortsByDateStablyAndKeepsCausality)
{
  const std::string dir = std::filesystem::temp_directory_path() / ("shmemsim_merge_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::uint64_t m = shmemsim::pair_message_id(0, 1, 1);
  const std::string a = write_part(dir + "/a", "pe 0 0\nop 100 7 0 0 1 2 1 put_nbi 8 1\nmsg 100 " + std::to_string(m) +
                                                   " 7 0 1 put 8\ndone 150 " + std::to_string(m) + "\n");
  const std::string b =
      write_part(dir + "/b", "pe 1 0\ndlv 90 " + std::to_string(m) + " 0 0\nct 100 1 0 1 0\nct 200 1 0 2 0\n");
  std::vector<std::string> missing;
  const shmemsim::traces::Trace tr =
      shmemsim::traces::merge_traces({a, b, dir + "/none"}, {{"mode", "emulated"}}, &missing);
  using shmemsim::traces::Type;
  std::vector<std::pair<Type, std::int64_t>> got;
  for (const auto& e : tr.events)
    got.emplace_back(e.type, e.type == Type::Pe ? -1 : e.t);
  const std::vector<std::pair<Type, std::int64_t>> want = {{Type::Pe, -1},    {Type::Pe, -1},  {Type::Op, 100},
                                                           {Type::Msg, 100},  {Type::Ct, 100}, {Type::Dlv, 100},
                                                           {Type::Done, 150}, {Type::Ct, 200}};
  EXPECT_EQ(got, want);
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], dir + "/none");
  EXPECT_EQ(tr.meta.at("mode"), "emulated");
  const std::vector<std::string> files = shmemsim::traces::write_trace_files(tr, dir);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(shmemsim::traces::read_trace_file(files[0]).events.size(), tr.events.size()); // it reads back
  std::filesystem::remove_all(dir);
}

// A PE's part holds `comp` lines dated at their start and written at their end: the merge takes
// them in any order and sorts them; a run's trace read as such must still never go backwards.
TEST(emulator_trace_merge, PartsMayHoldComputationDatedBeforeTheLineAboveRunTracesMayNot)
{
  const std::string dir = std::filesystem::temp_directory_path() / ("shmemsim_comp_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string part = write_part(dir + "/p", "pe 0 0\nct 100 0 0 1 0\ncomp 40 0 0 160\nct 300 0 0 2 0\n");
  try {
    shmemsim::traces::read_trace_file(part);
    ADD_FAILURE() << "a trace whose dates go backwards was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(part + ":5: dates go backwards"), std::string::npos) << e.what();
  }
  const shmemsim::traces::Trace tr = shmemsim::traces::merge_traces({part}, {});
  using shmemsim::traces::Type;
  std::vector<std::pair<Type, std::int64_t>> got;
  for (const auto& e : tr.events)
    got.emplace_back(e.type, e.type == Type::Pe ? -1 : e.t);
  const std::vector<std::pair<Type, std::int64_t>> want = {
      {Type::Pe, -1}, {Type::Comp, 40}, {Type::Ct, 100}, {Type::Ct, 300}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(tr.events[1].dur, 160);
  std::filesystem::remove_all(dir);
}

// A PE killed while writing leaves a partial last line: the merge of a failed job cuts it.
TEST(emulator_trace_merge, TrimsAPartialLastLine)
{
  const std::string path = std::filesystem::temp_directory_path() / ("shmemsim_trim_" + std::to_string(::getpid()));
  write_part(path, "pe 0 0\nct 100 0 0 1 0\nwait 200 0 0 -1 0 wai");
  EXPECT_THROW(shmemsim::traces::read_trace_file(path), std::runtime_error);
  shmemsim::traces::trim_partial_line(path);
  EXPECT_EQ(shmemsim::traces::read_trace_file(path).events.size(), 2u);
  shmemsim::traces::trim_partial_line(path); // complete already: unchanged
  EXPECT_EQ(shmemsim::traces::read_trace_file(path).events.size(), 2u);
  std::filesystem::remove(path);
}
