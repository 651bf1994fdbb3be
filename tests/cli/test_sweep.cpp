// `shmemsim sweep` as users run it: the real binary as a subprocess, on small traffic scenarios and
// on a tiny program (tests/programs/sweep_result) that reports its timed section as a RESULT line.
// SHMEMSIM_BIN (the build's bin/), SHMEMSIM_PROGRAM and SHMEMSIM_SOURCE_DIR come from
// tests/CMakeLists.txt.
#include <gtest/gtest.h>
#include "../common/Subprocess.hpp"

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kBin     = SHMEMSIM_BIN;
const fs::path kProgram = SHMEMSIM_PROGRAM;

using shmemsim::testing::Result;
using shmemsim::testing::slurp;

std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    v.push_back(l);
  return v;
}

std::vector<std::string> cells(const std::string& row)
{
  std::vector<std::string> v;
  std::istringstream in(row);
  for (std::string c; std::getline(in, c, ',');)
    v.push_back(c);
  if (!row.empty() && row.back() == ',')
    v.emplace_back();
  return v;
}

/// A CSV file as rows of (column name -> cell); no quoted cells in these tests' columns of interest.
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p)
{
  const std::vector<std::string> ls = lines(slurp(p));
  std::vector<std::map<std::string, std::string>> rows;
  if (ls.empty())
    return rows;
  const std::vector<std::string> head = cells(ls[0]);
  for (std::size_t i = 1; i < ls.size(); ++i) {
    const std::vector<std::string> c = cells(ls[i]);
    std::map<std::string, std::string> row;
    for (std::size_t k = 0; k < head.size() && k < c.size(); ++k)
      row[head[k]] = c[k];
    rows.push_back(row);
  }
  return rows;
}

/// A small traffic scenario: 4 nodes on one switch, a short ping-pong.
json traffic_scenario(const json& sweep)
{
  json s = {{"platform", {{"nodes", 4}, {"fabric", {{"levels", 1}, {"down", 4}}}}},
            {"traffic", {{"pattern", "pingpong"}, {"size", 8}, {"iterations", 5}}}};
  if (!sweep.is_null())
    s["sweep"] = sweep;
  return s;
}

class Sweep : public ::testing::Test {
protected:
  void SetUp() override
  {
    dir_ = fs::temp_directory_path() / ("shmemsim-sweep-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override
  {
    if (!HasFailure())
      fs::remove_all(dir_);
  }

  /// Writes `scenario` to DIR/name and returns its path.
  fs::path scenario(const json& scenario, const std::string& name = "s.json")
  {
    std::ofstream(dir_ / name) << scenario.dump(2);
    return dir_ / name;
  }

  /// Runs `shmemsim ARGS` (a shell fragment) in the test's directory.
  Result shmemsim(const std::string& args) { return sh("'" + (kBin / "shmemsim").string() + "' " + args); }

  Result sh(const std::string& command) { return shmemsim::testing::run_in(dir_, command); }

  fs::path dir_;
};

TEST_F(Sweep, CartesianTimesZipGivesEveryCombination)
{
  const json sw = {
      {"cartesian", json::array({{{"key", "platform.fabric.link_latency"}, {"values", {"100ns", "1us"}}},
                                 {{"key", "traffic.size"}, {"range", {{"from", 8}, {"to", 32}, {"times", 2}}}}})},
      {"zip", json::array({{{"key", "traffic.iterations"}, {"values", {2, 3}}},
                           {{"key", "seed"}, {"values", {5, 6}}, {"name", "s"}}})}};
  const fs::path s = scenario(traffic_scenario(sw));
  const Result r   = shmemsim("sweep s.json -o out --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = read_csv(dir_ / "out" / "results.csv");
  ASSERT_EQ(rows.size(), 2u * 3u * 2u);
  std::set<std::string> combos;
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("status"), "0");
    // zipped: iterations and seed advance together
    EXPECT_EQ(row.at("s"), row.at("traffic.iterations") == "2" ? "5" : "6");
    EXPECT_EQ(row.at("seed"), row.at("s")); // repeat 1: the point's own seed
    combos.insert(row.at("platform.fabric.link_latency") + "/" + row.at("traffic.size") + "/" +
                  row.at("traffic.iterations"));
  }
  EXPECT_EQ(combos.size(), 12u);
  EXPECT_TRUE(combos.count("1us/32/3"));
  EXPECT_EQ(rows[0].at("run"), "point-0000");
  EXPECT_EQ(rows[1].at("traffic.iterations"), "3"); // the zip varies fastest
  EXPECT_EQ(rows[2].at("traffic.size"), "16");
  // Each point is a normal run directory whose scenario.json has the swept values.
  const json sc = json::parse(slurp(dir_ / "out" / "point-0011" / "scenario.json"));
  EXPECT_EQ(sc["platform"]["fabric"]["link_latency"], "1us");
  EXPECT_EQ(sc["traffic"][0]["size"], "32B");
  EXPECT_EQ(sc["seed"], 6);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "point-0011" / "summary.json"));
  const json point = json::parse(slurp(dir_ / "out" / "point-0011" / "point.json"));
  EXPECT_EQ(point["values"]["traffic.size"], 32);
  EXPECT_NE(point["shell"].get<std::string>().find("--set traffic.size=32"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "plot.svg")); // default plot: sim_time_s vs the first variable
}

TEST_F(Sweep, RepeatsGetDerivedDistinctSeedsAndPointStats)
{
  json sc      = traffic_scenario({{"cartesian", json::array({{{"key", "traffic.size"}, {"values", {8, 64}}}})}});
  sc["seed"]   = 7;
  sc["repeat"] = 3;
  sc["platform"]["fabric"]["jitter"] = "50ns";
  scenario(sc);
  const Result r = shmemsim("sweep s.json -o out --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = read_csv(dir_ / "out" / "results.csv");
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[0].at("run"), "point-0000-r0");
  EXPECT_EQ(rows[0].at("seed"), "7");
  std::set<std::string> seeds;
  for (std::size_t i = 0; i < 3; ++i) {
    seeds.insert(rows[i].at("seed"));
    EXPECT_EQ(rows[i].at("seed"), rows[i + 3].at("seed")); // the same seeds at every point
    const json run_sc = json::parse(slurp(dir_ / "out" / rows[i].at("run") / "scenario.json"));
    EXPECT_EQ(std::to_string(run_sc["seed"].get<std::uint64_t>()), rows[i].at("seed"));
  }
  EXPECT_EQ(seeds.size(), 3u);
  const auto points = read_csv(dir_ / "out" / "points.csv");
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].at("runs"), "3");
  EXPECT_FALSE(points[0].at("sim_time_s.mean").empty());
  EXPECT_LE(std::stod(points[0].at("sim_time_s.min")), std::stod(points[0].at("sim_time_s.mean")));
  EXPECT_LE(std::stod(points[0].at("sim_time_s.mean")), std::stod(points[0].at("sim_time_s.max")));
  // The same directory again, without repeats: the earlier runs' directories go.
  sc["repeat"] = 1;
  scenario(sc);
  ASSERT_EQ(shmemsim("sweep s.json -o out --quiet").status, 0);
  EXPECT_TRUE(fs::exists(dir_ / "out" / "point-0001" / "summary.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "point-0000-r0"));
  EXPECT_EQ(read_csv(dir_ / "out" / "results.csv").size(), 2u);
}

TEST_F(Sweep, ParallelRunsGiveByteIdenticalResults)
{
  json sc = traffic_scenario(
      {{"cartesian", json::array({{{"key", "traffic.size"}, {"values", {8, 64, 512}}},
                                  {{"key", "platform.fabric.routing"}, {"values", {"dmodk", "random"}}}})}});
  sc["repeat"] = 2;
  scenario(sc);
  ASSERT_EQ(shmemsim("sweep s.json -o j1 -j 1").status, 0);
  const Result r = shmemsim("sweep s.json -o j2 -j2");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const char* f : {"results.csv", "results.json", "points.csv", "plot.svg"})
    EXPECT_EQ(slurp(dir_ / "j1" / f), slurp(dir_ / "j2" / f)) << f;
  // Progress: one line per run, with an ETA.
  const std::vector<std::string> ls = lines(r.err);
  EXPECT_EQ(std::count_if(ls.begin(), ls.end(),
                          [](const std::string& l) { return l.find(" done in ") != std::string::npos; }),
            12);
  EXPECT_NE(r.err.find("[12/12] point-"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", ETA "), std::string::npos) << r.err;
}

TEST_F(Sweep, ProgramFiguresArgumentsAndEnvironment)
{
  const json sw = {{"cartesian", json::array({{{"key", "job.pes"}, {"values", {2, 4}}},
                                              {{"arg", "-n"}, {"values", {1, 8}}, {"name", "puts"}},
                                              {{"env", "SWEEP_TAG"}, {"values", {"a b"}}}})},
                   {"plot", {{"x", "puts"}, {"y", "time_us"}, {"series", "job.pes"}, {"file", "time.svg"}}}};
  json sc       = {{"platform", {{"preset", "qdr-16"}}}, {"job", {{"compute", "none"}}}, {"sweep", sw}};
  scenario(sc);
  const Result r = shmemsim("sweep s.json -o out --quiet -j 2 '" + kProgram.string() + "' -s 256 -n 3");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = read_csv(dir_ / "out" / "results.csv");
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("n"), row.at("puts"));      // the program saw the swept argument
    EXPECT_EQ(row.at("pes"), row.at("job.pes")); // and the swept key
    EXPECT_EQ(row.at("size"), "256");            // and its other arguments
    EXPECT_EQ(row.at("tag"), "a");               // SWEEP_TAG="a b": a RESULT field ends at a space
    EXPECT_GT(std::stod(row.at("time_us")), 0.0);
    EXPECT_LT(std::stod(row.at("time_us")) * 1e-6, std::stod(row.at("sim_time_s"))); // the timed section only
  }
  EXPECT_LT(std::stod(rows[0].at("time_us")), std::stod(rows[1].at("time_us"))); // 1 put < 8 puts
  const json point = json::parse(slurp(dir_ / "out" / "point-0001" / "point.json"));
  EXPECT_EQ(point["env"]["SWEEP_TAG"], "a b");
  // Programs are deterministic too: -j 1 writes the same results as -j 2.
  ASSERT_EQ(shmemsim("sweep s.json -o out1 --quiet '" + kProgram.string() + "' -s 256 -n 3").status, 0);
  for (const char* f : {"results.csv", "results.json", "points.csv", "time.svg"})
    EXPECT_EQ(slurp(dir_ / "out" / f), slurp(dir_ / "out1" / f)) << f;
  const json run_sc = json::parse(slurp(dir_ / "out" / "point-0001" / "scenario.json"));
  EXPECT_EQ(run_sc["job"]["program"], kProgram.string());
  EXPECT_EQ(run_sc["job"]["args"], json({"-s", "256", "-n", "8"}));
  EXPECT_EQ(run_sc["job"]["env"], json({"SWEEP_TAG=a b"})); // the scenario reruns the point: environment included
  EXPECT_EQ(json::parse(slurp(dir_ / "out" / "point-0001" / "reported.json"))["n"], 8);
  const std::string svg = slurp(dir_ / "out" / "time.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"4\""), std::string::npos);
  // shmemsim plot reads the program's figures from a sweep's run directories too.
  const Result p = shmemsim("plot out/point-0000 out/point-0002 --x job.pes --y reported.time_us -o p.svg");
  EXPECT_EQ(p.status, 0) << p.err;
}

// A program figure named like a swept variable gets a column of its own ("reported.n"): a CSV
// file's column names are distinct, so a reader keyed by name sees both values.
TEST_F(Sweep, ProgramFigureNamedLikeASweptVariableKeepsItsOwnColumn)
{
  const json sw = {{"cartesian", json::array({{{"arg", "-n"}, {"values", {1, 2}}, {"name", "n"}}})}};
  scenario({{"platform", {{"preset", "qdr-16"}}}, {"job", {{"compute", "none"}, {"pes", 2}}}, {"sweep", sw}});
  ASSERT_EQ(shmemsim("sweep s.json -o out --quiet '" + kProgram.string() + "' -s 8").status, 0);
  for (const char* f : {"results.csv", "points.csv"}) {
    const std::vector<std::string> head = cells(lines(slurp(dir_ / "out" / f))[0]);
    const std::set<std::string> distinct(head.begin(), head.end());
    EXPECT_EQ(distinct.size(), head.size()) << f << ": " << lines(slurp(dir_ / "out" / f))[0];
  }
  const auto rows = read_csv(dir_ / "out" / "results.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].at("n"), "2");
  EXPECT_EQ(rows[1].at("reported.n"), "2");
  EXPECT_NE(lines(slurp(dir_ / "out" / "points.csv"))[0].find("reported.n.mean"), std::string::npos);
}

// --report: every run writes its report.json, and the sweep's plots reach its figures (report.KEY),
// traffic and program sweeps alike; the report is the one `shmemsim report` writes on the run.
TEST_F(Sweep, ReportsPerRunAndPlotsOfTheirFigures)
{
  json sc = traffic_scenario({{"cartesian", json::array({{{"key", "traffic.size"}, {"values", {8, 4096}}}})},
                              {"plot", {{"x", "traffic.size"}, {"y", "report.network.bytes"}, {"file", "bytes.svg"}}}});
  scenario(sc);
  const Result r = shmemsim("sweep s.json -o out --quiet --report");
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<json> reports;
  for (const char* point : {"point-0000", "point-0001"}) {
    const fs::path d = dir_ / "out" / point;
    ASSERT_TRUE(fs::exists(d / "report.json")) << point;
    const std::string written = slurp(d / "report.json");
    ASSERT_EQ(shmemsim("report out/" + std::string(point) + " --quiet").status, 0);
    EXPECT_EQ(slurp(d / "report.json"), written) << point;
    reports.push_back(json::parse(written));
  }
  // 4096-byte messages move 512 times the bytes of 8-byte ones, the same number of times.
  EXPECT_EQ(reports[1]["network"]["bytes"].get<double>(), 512 * reports[0]["network"]["bytes"].get<double>());
  const std::string svg = slurp(dir_ / "out" / "bytes.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos) << r.err;
  // A program sweep asks shmemsim-run for the report the same way.
  scenario({{"platform", {{"preset", "qdr-16"}}},
            {"job", {{"compute", "none"}, {"pes", 2}}},
            {"sweep", {{"cartesian", json::array({{{"arg", "-n"}, {"values", {1, 4}}}})}}}});
  ASSERT_EQ(shmemsim("sweep s.json -o prog --quiet --report '" + kProgram.string() + "' -s 8").status, 0);
  const json pr = json::parse(slurp(dir_ / "prog" / "point-0001" / "report.json"));
  EXPECT_GT(pr["network"]["messages"].get<int>(), 0);
  // Without traces there is nothing to report on: one line, before anything runs.
  const Result bad = shmemsim("sweep s.json -o never --report --trace off '" + kProgram.string() + "'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--report: needs the runs' traces"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "never"));
}

TEST_F(Sweep, FailingPointIsReportedOthersRun)
{
  const json sw = {{"cartesian", json::array({{{"arg", "-f"}, {"values", {0, 3, 0}}}})}};
  scenario({{"platform", {{"preset", "qdr-16"}}}, {"job", {{"compute", "none"}, {"pes", 2}}}, {"sweep", sw}});
  const Result r = shmemsim("sweep s.json -o out '" + kProgram.string() + "'");
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_NE(r.err.find("point-0001 FAILED (status 3)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 of 3 runs failed"), std::string::npos) << r.err;
  const auto rows = read_csv(dir_ / "out" / "results.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].at("status"), "0");
  EXPECT_EQ(rows[1].at("status"), "3");
  EXPECT_EQ(rows[2].at("status"), "0");
  EXPECT_FALSE(rows[2].at("time_us").empty());
}

TEST_F(Sweep, BadSpecIsOneLineNamingThePath)
{
  struct Case {
    json sweep;
    std::string path;
  };
  const std::vector<Case> cases = {
      {{{"cartesian", json::array({{{"key", "traffic.size"}, {"values", json::array()}}})}},
       "sweep.cartesian[0].values: "},
      {{{"cartesian", json::array({{{"key", "traffic.size"}}})}}, "sweep.cartesian[0]: give exactly one of values"},
      {{{"zip", json::array({{{"key", "traffic.size"}, {"values", {8, 16}}}, {{"key", "seed"}, {"values", {1}}}})}},
       "sweep.zip[1]: "},
      {{{"cartesian", json::array({{{"key", "traffic.size"}, {"range", {{"from", 1}, {"to", 5}, {"step", -1}}}}})}},
       "sweep.cartesian[0].range.step: "},
      {{{"cartesians", json::array()}}, "sweep.cartesians: unknown key"},
      {{{"cartesian", json::array({{{"env", "1X"}, {"values", {1}}}})}}, "sweep.cartesian[0].env: "},
      {{{"cartesian", json::array({{{"key", "platform.nodes"}, {"values", {4, 99999}}}})}},
       "sweep: point-0001 (platform.nodes=99999)"},
      {{{"cartesian", json::array({{{"arg", "-n"}, {"values", {1}}}})}}, "sweep.cartesian[0]: program arguments"},
      {{{"plot", {{"y", "sim_time_s"}}}}, "sweep.plot.x: missing"},
      {{{"cartesian", json::array({{{"key", "platform.fabric.link_latency"}, {"values", {"1us"}}, {"name", "lat"}}})},
        {"plot", json::array({{{"x", "traffic.size"}}, {{"x", "lat"}}})}},
       "sweep.plot[1].x: \"lat\" has values that are not numbers"},
      {json(3), "sweep: expected an object"},
  };
  for (const Case& c : cases) {
    scenario(traffic_scenario(c.sweep));
    const Result r = shmemsim("sweep s.json -o out");
    EXPECT_EQ(r.status, 2) << c.sweep.dump() << "\n" << r.err;
    EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.path), std::string::npos) << "expected '" << c.path << "' in: " << r.err;
    EXPECT_EQ(r.err.rfind("shmemsim: ", 0), 0u) << r.err;
    // validate and run check the sweep object as sweep does (a mistake in a scenario is said by every
    // command reading it), but those found only by expanding points or with a program are sweep's.
    if (c.path.find("point-") != std::string::npos || c.path.find("program arguments") != std::string::npos)
      continue;
    for (const char* cmd : {"validate", "run"}) {
      const Result v = shmemsim(std::string(cmd) + (std::string(cmd) == "run" ? " s.json --quiet" : " s.json"));
      EXPECT_EQ(v.status, 2) << cmd << " " << c.sweep.dump() << "\n" << v.err;
      EXPECT_EQ(lines(v.err).size(), 1u) << v.err;
      EXPECT_NE(v.err.find(c.path), std::string::npos) << cmd << ": expected '" << c.path << "' in: " << v.err;
    }
  }
  EXPECT_EQ(shmemsim("sweep s.json -j 0").status, 2);
  EXPECT_EQ(shmemsim("sweep").status, 2);
  // shmemsim run ignores a valid sweep's keys; keys lists them.
  scenario(traffic_scenario({{"cartesian", json::array({{{"key", "traffic.size"}, {"values", {8}}}})}}));
  EXPECT_EQ(shmemsim("run s.json --quiet").status, 0);
  const Result k = shmemsim("keys");
  EXPECT_NE(k.out.find("\nsweep "), std::string::npos);
  EXPECT_NE(k.out.find("\nrepeat "), std::string::npos);
}

TEST_F(Sweep, ExportListsRunnableCommandsThenCollect)
{
  json sc      = traffic_scenario({{"cartesian", json::array({{{"key", "traffic.size"}, {"values", {8, 64}}}})}});
  sc["repeat"] = 2;
  scenario(sc);
  ASSERT_EQ(shmemsim("sweep s.json -o local").status, 0);
  const Result e = shmemsim("sweep s.json -o exported --export cmds.txt");
  ASSERT_EQ(e.status, 0) << e.err;
  const std::vector<std::string> cmds = lines(slurp(dir_ / "cmds.txt"));
  ASSERT_EQ(cmds.size(), 4u);
  EXPECT_FALSE(fs::exists(dir_ / "exported" / "point-0000-r0" / "summary.json")); // not run
  for (const std::string& c : cmds) {
    EXPECT_EQ(c.rfind("cd /", 0), 0u) << c; // absolute paths
    EXPECT_NE(c.find("/shmemsim run /"), std::string::npos) << c;
  }
  // Collecting before the runs: each is reported as not run.
  const Result early = shmemsim("sweep --collect exported");
  EXPECT_EQ(early.status, 1);
  EXPECT_NE(early.err.find("point-0000-r0 failed (not run)"), std::string::npos) << early.err;
  // Run the lines from another directory, as a job array would, then collect.
  fs::create_directories(dir_ / "elsewhere");
  for (const std::string& c : cmds) {
    std::ofstream(dir_ / "line.sh") << c << "\n";
    ASSERT_EQ(sh("cd elsewhere && sh ../line.sh").status, 0) << c;
    EXPECT_EQ(slurp(dir_ / "exported" / c.substr(c.find("/exported/") + 10, 13) / "status"), "0\n") << c;
  }
  const Result col = shmemsim("sweep --collect exported");
  ASSERT_EQ(col.status, 0) << col.err;
  for (const char* f : {"results.csv", "results.json", "points.csv"}) {
    std::string local = slurp(dir_ / "local" / f), exported = slurp(dir_ / "exported" / f);
    EXPECT_FALSE(local.empty());
    EXPECT_EQ(local, exported) << f;
  }
}

} // namespace
