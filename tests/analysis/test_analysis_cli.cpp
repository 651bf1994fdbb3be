// `shmemsim report|diagram|plot` run as subprocesses on synthetic run directories: outputs written,
// byte-identical twice, and bad input (missing directory or trace, malformed trace, unknown option,
// bad time unit) gets one line on stderr and exit status 2.
#include "TraceBuilder.hpp"

#include <gtest/gtest.h>
#include "../common/Subprocess.hpp"
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#if !defined(SHMEMSIM_BIN) || !defined(SHMEMSIM_SOURCE_DIR)
#error "SHMEMSIM_BIN and SHMEMSIM_SOURCE_DIR must be defined (the shmemsim executable, the source tree)"
#endif

namespace fs = std::filesystem;
using namespace shmemsim::testing;

namespace {

class AnalysisCli : public ::testing::Test {
protected:
  void SetUp() override
  {
    dir_ = fs::temp_directory_path() / ("shmemsim-analysis-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Result run(const std::vector<std::string>& args)
  {
    std::string cmd = quote(SHMEMSIM_BIN);
    for (const std::string& a : args)
      cmd += " " + quote(a);
    cmd += " </dev/null >" + quote((dir_ / "stdout").string()) + " 2>" + quote((dir_ / "stderr").string());
    const int st = std::system(cmd.c_str());
    Result r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    r.out    = slurp(dir_ / "stdout");
    r.err    = slurp(dir_ / "stderr");
    return r;
  }
  /// A run directory holding the trace (and scenario/summary JSON for plots).
  fs::path make_run(const std::string& name, const Trace& tr, const nlohmann::json& scenario = {},
                    const nlohmann::json& summary = {})
  {
    const fs::path d = dir_ / name;
    fs::create_directories(d);
    std::ofstream o(d / "trace.evt");
    shmemsim::traces::write_header(o, tr.level, tr.meta);
    for (const Event& e : tr.events)
      shmemsim::traces::write_event(o, e);
    if (!scenario.is_null())
      std::ofstream(d / "scenario.json") << scenario.dump(2);
    if (!summary.is_null())
      std::ofstream(d / "summary.json") << summary.dump(2);
    return d;
  }
  static void expect_bad_input(const Result& r, const std::string& needle)
  {
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
  }
  fs::path dir_;
};

} // namespace

TEST_F(AnalysisCli, ReportWritesTheSameJsonTwice)
{
  const fs::path d = make_run("run", mandelbrot_like(Variant::Shared, 3, 5));
  Result r         = run({"report", d.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("thread interference"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("PE 0 / thread 1"), std::string::npos) << r.out;
  const std::string first = slurp(d / "report.json");
  const auto j            = nlohmann::json::parse(first);
  EXPECT_GT(j["interference"]["total_s"].get<double>(), 0.0);
  ASSERT_EQ(run({"report", d.string(), "--quiet"}).status, 0);
  EXPECT_EQ(first, slurp(d / "report.json"));

  // --export: the Perfetto and Paje conversions, byte-identical too.
  ASSERT_EQ(run({"report", d.string(), "--quiet", "--export"}).status, 0);
  const std::string perfetto = slurp(d / "trace.json"), paje = slurp(d / "trace.paje");
  EXPECT_TRUE(nlohmann::json::accept(perfetto));
  ASSERT_EQ(run({"report", d.string(), "--quiet", "--export"}).status, 0);
  EXPECT_EQ(perfetto, slurp(d / "trace.json"));
  EXPECT_EQ(paje, slurp(d / "trace.paje"));
  // pajeng's reader, when installed (Debian package pajeng), accepts the Paje trace.
  if (fs::exists("/usr/bin/pj_dump")) {
    const int st = std::system(("/usr/bin/pj_dump " + quote((d / "trace.paje").string()) + " >/dev/null 2>&1").c_str());
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "pj_dump rejected " << (d / "trace.paje");
  }
}

TEST_F(AnalysisCli, DiagramWritesTheSameSvgTwice)
{
  const fs::path d = make_run("run", mandelbrot_like(Variant::Nbi, 3, 30));
  const fs::path a = dir_ / "a.svg", b = dir_ / "b.svg";
  Result r = run({"diagram", d.string(), "-o", a.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("first 40 of 180 operations"), std::string::npos) << r.out;
  ASSERT_EQ(run({"diagram", d.string(), "-o", b.string()}).status, 0);
  EXPECT_EQ(slurp(a), slurp(b));
  r = run({"diagram", d.string(), "--pes", "0", "--threads", "0-1", "--from", "10us", "--to", "0.05ms"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(d / "diagram.svg"));
}

TEST_F(AnalysisCli, DrawingsAlsoAsPngAndPdfAndAnUnknownExtensionIsOneLine)
{
  const fs::path d =
      make_run("run", mandelbrot_like(Variant::Nbi, 2, 4), {{"job", {{"threads", 2}}}}, {{"sim_time_s", 1.5}});
  const auto head = [](const fs::path& p, std::size_t n) { return slurp(p).substr(0, n); };
  ASSERT_EQ(run({"diagram", d.string(), "-o", (dir_ / "d.png").string()}).status, 0);
  EXPECT_EQ(head(dir_ / "d.png", 8), "\x89PNG\r\n\x1a\n");
  ASSERT_EQ(run({"diagram", d.string(), "-o", (dir_ / "d.PDF").string()}).status, 0);
  EXPECT_EQ(head(dir_ / "d.PDF", 5), "%PDF-");
  // The PNG is the SVG drawn at twice its size: its IHDR width is twice the SVG's (1200 px).
  const std::string png = slurp(dir_ / "d.png");
  ASSERT_GT(png.size(), 24u);
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(png[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(png[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(png[at + 3]));
  };
  EXPECT_EQ(be32(16), 2400u);
  ASSERT_EQ(
      run({"plot", d.string(), "--x", "job.threads", "--y", "sim_time_s", "-o", (dir_ / "p.png").string()}).status, 0);
  EXPECT_EQ(head(dir_ / "p.png", 4), "\x89PNG");
  ASSERT_EQ(
      run({"plot", d.string(), "--x", "job.threads", "--y", "sim_time_s", "-o", (dir_ / "p.pdf").string()}).status, 0);
  EXPECT_EQ(head(dir_ / "p.pdf", 5), "%PDF-");
  // Any other extension: one line naming the file and the formats, status 2, nothing written.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"diagram", d.string(), "-o", (dir_ / "d.jpg").string()},
        std::vector<std::string>{"plot", d.string(), "--x", "job.threads", "--y", "sim_time_s", "-o",
                                 (dir_ / "p").string()},
        std::vector<std::string>{"figure", "spec.json", dir_.string(), "-o", (dir_ / "f.gif").string()}}) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 2) << args[0];
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("expected .svg, .png or .pdf"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir_ / "d.jpg"));
}

TEST_F(AnalysisCli, FigureTitleOverridesTheSpecsForAReducedRun)
{
  // A sweep's results (two points of one series) and a figure spec over them.
  fs::create_directories(dir_ / "s");
  nlohmann::json points = nlohmann::json::array();
  for (int x : {1, 2})
    points.push_back({{"point", x - 1},
                      {"values", {{"threads", x}}},
                      {"runs", 1},
                      {"failed", 0},
                      {"stats", {{"rate_pps", {{"mean", 1e6 * x}, {"min", 1e6 * x}, {"max", 1e6 * x}}}}}});
  std::ofstream(dir_ / "s" / "results.json") << nlohmann::json{{"points", points}}.dump(2);
  std::ofstream(dir_ / "spec.json") << nlohmann::json{{"title", "The paper's Figure 4"},
                                                      {"y", "rate_pps"},
                                                      {"y_kind", "rate"},
                                                      {"inputs", {{{"dir", "s"}, {"x", "threads"}, {"label", "all"}}}}}
                                           .dump();
  const std::string quick = "fig4: QUICK REDUCED RUN (32 x 256 image), not the paper's figure";
  const Result r =
      run({"figure", (dir_ / "spec.json").string(), dir_.string(), "-o", (dir_ / "f.svg").string(), "--title", quick});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string svg = slurp(dir_ / "f.svg");
  EXPECT_NE(svg.find("QUICK REDUCED RUN (32 x 256 image), not the paper&apos;s figure"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("The paper"), std::string::npos);
  EXPECT_EQ(r.out.rfind(quick, 0), 0u) << r.out; // the table's title too
}

TEST_F(AnalysisCli, PlotDrawsOneLinePerVariantAndPrintsTheTable)
{
  std::vector<std::string> args = {"plot"};
  for (Variant v : {Variant::Shared, Variant::CtxPerThread})
    for (int threads : {1, 2, 3}) {
      const std::string name = std::string(to_string(v)) + "-" + std::to_string(threads);
      const fs::path d =
          make_run(name, mandelbrot_like(v, threads, 3), {{"job", {{"threads", threads}}}, {"variant", to_string(v)}},
                   {{"sim_time_s", 1.0 + threads}});
      ASSERT_EQ(run({"report", d.string(), "--quiet"}).status, 0);
      args.push_back(d.string());
    }
  const fs::path out = dir_ / "plot.svg";
  for (const char* a : {"--x", "job.threads", "--y", "report.interference.total_s", "--series", "variant", "-o"})
    args.push_back(a);
  args.push_back(out.string());
  const Result r = run(args);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("no-contexts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 series, 6 points"), std::string::npos) << r.out;
  const std::string svg = slurp(out);
  std::size_t lines     = 0;
  for (std::size_t p = svg.find("<polyline"); p != std::string::npos; p = svg.find("<polyline", p + 1))
    ++lines;
  EXPECT_EQ(lines, 2u);
}

TEST_F(AnalysisCli, RecordedScenarioRunEndToEnd)
{
  // A real run recorded at level packets: the report sees links (with the recorder's bandwidth
  // meta), the diagram draws a lane per PE that sent or received.
  const fs::path d = dir_ / "pingpong";
  Result r = run({"run", (fs::path(SHMEMSIM_SOURCE_DIR) / "scenarios/net/pingpong.json").string(), "--out", d.string(),
                  "--trace", "packets", "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  r = run({"report", d.string(), "--quiet"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rep = nlohmann::json::parse(slurp(d / "report.json"));
  EXPECT_EQ(rep["trace"]["level"], "packets");
  EXPECT_GT(rep["network"]["messages"].get<int>(), 0);
  ASSERT_FALSE(rep["network"]["links"].empty());
  EXPECT_TRUE(rep["network"]["links"][0]["utilization"].is_number());
  r = run({"diagram", d.string()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 lanes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("messages"), std::string::npos) << r.out;
}

TEST_F(AnalysisCli, BadInputExitsTwoWithOneLine)
{
  const fs::path good = make_run("good", mandelbrot_like(Variant::Shared, 2, 2));
  expect_bad_input(run({"report", (dir_ / "missing").string()}), "no such directory");
  fs::create_directories(dir_ / "empty");
  expect_bad_input(run({"report", (dir_ / "empty").string()}), "trace.evt: no trace");
  fs::create_directories(dir_ / "bad");
  std::ofstream(dir_ / "bad" / "trace.evt") << "#shmemsim-trace 1\n#level ops\npe 0 0\nop 1 2 3\n";
  expect_bad_input(run({"report", (dir_ / "bad").string()}), "trace.evt:4: malformed 'op' event");
  fs::create_directories(dir_ / "unknown");
  std::ofstream(dir_ / "unknown" / "trace.evt") << "#shmemsim-trace 1\nfoo 1\n";
  expect_bad_input(run({"diagram", (dir_ / "unknown").string()}), "trace.evt:2: unknown event type 'foo'");
  expect_bad_input(run({"report", good.string(), "--frobnicate"}), "unknown option '--frobnicate'");
  expect_bad_input(run({"diagram", good.string(), "--from", "10parsecs"}),
                   "--from 10parsecs: expected a time with a unit");
  // One rule for times everywhere (as --sim-time-limit): a bare number is refused, not read as seconds.
  expect_bad_input(run({"diagram", good.string(), "--from", "10"}), "--from 10: expected a time with a unit");
  expect_bad_input(run({"diagram", good.string(), "--pes", "x"}), "--pes x");
  expect_bad_input(run({"diagram", good.string(), "--threads", "9"}), "no PE thread matches");
  expect_bad_input(run({"diagram", good.string(), "--from", "5us", "--to", "1us"}), "--to must be after --from");
  expect_bad_input(run({"report"}), "missing DIR");
  expect_bad_input(run({"plot", good.string(), "--x", "job.threads"}), "--y KEY");
  expect_bad_input(run({"plot", good.string(), "--x", "a", "--y", "b"}),
                   "no scenario.json, summary.json or report.json");
  EXPECT_EQ(run({"--help"}).status, 0);
}

TEST_F(AnalysisCli, PlotHelpExamplesWork)
{
  const Result help = run({"plot", "--help"});
  ASSERT_EQ(help.status, 0) << help.err;
  // The example command lines: after "examples", each line whose first word is "shmemsim".
  std::vector<std::string> examples;
  std::istringstream in(help.out.substr(help.out.find("examples")));
  for (std::string line; std::getline(in, line);) {
    const std::size_t at = line.find_first_not_of(' ');
    if (at != std::string::npos && line.compare(at, 9, "shmemsim ") == 0)
      examples.push_back(line.substr(at));
  }
  ASSERT_GE(examples.size(), 3u) << help.out;
  fs::create_directory_symlink(fs::path(SHMEMSIM_SOURCE_DIR) / "scenarios",
                               dir_ / "scenarios"); // "from the source tree"
  const std::string path = "PATH=" + quote(fs::path(SHMEMSIM_BIN).parent_path().string()) + ":\"$PATH\" ";
  for (const std::string& e : examples) {
    const Result r = run_in(dir_, path + e);
    ASSERT_EQ(r.status, 0) << e << "\n" << r.out << r.err;
  }
  const std::string lat = slurp(dir_ / "lat.svg"), by = slurp(dir_ / "by-latency.svg");
  EXPECT_NE(lat.find(">64 B<"), std::string::npos);                  // a log size axis: powers of 2 with units
  EXPECT_NE(lat.find(">half round trip (log)<"), std::string::npos); // the y key, readable, its unit suffix dropped
  EXPECT_NE(lat.find("class=\"error-bar\""), std::string::npos);     // three runs per point
  EXPECT_NE(by.find(">link latency (us)<"), std::string::npos);      // a scenario key of kind time
  EXPECT_NE(by.find(">half round trip (us)<"), std::string::npos);
  EXPECT_NE(by.find(">size = 64B<"), std::string::npos); // legends name the series' variable
  // A sweep variable named apart from its key ("size" sets traffic.size) keeps the key's unit.
  ASSERT_EQ(run_in(dir_, path + "shmemsim plot lat/point-* --x size --y traffic.0.half_round_trip_s --series latency "
                                "--logx -o by-size.svg")
                .status,
            0);
  const std::string by_size = slurp(dir_ / "by-size.svg");
  EXPECT_NE(by_size.find(">1 KiB<"), std::string::npos) << by_size;
  EXPECT_NE(by_size.find(">latency = 100ns<"), std::string::npos);
  EXPECT_NE(by.find("class=\"error-bar\""), std::string::npos);
}

TEST_F(AnalysisCli, PlotErrorsOptionIsChecked)
{
  const fs::path good =
      make_run("good", mandelbrot_like(Variant::Shared, 2, 2), {{"job", {{"threads", 2}}}}, {{"sim_time_s", 1.0}});
  expect_bad_input(run({"plot", good.string(), "--x", "job.threads", "--y", "sim_time_s", "--errors", "sometimes"}),
                   "--errors sometimes: expected minmax");
  const Result r = run({"plot", good.string(), "--x", "job.threads", "--y", "sim_time_s", "--errors", "stddev", "-o",
                        (dir_ / "p.svg").string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(dir_ / "p.svg").find(">simulated time (s)<"), std::string::npos);
}
