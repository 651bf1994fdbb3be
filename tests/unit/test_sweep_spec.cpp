// The sweep's specification (tools/SweepSpec): expansion order, zipped groups, ranges, seeds;
// and the RESULT lines programs print (tools/SweepResults).
#include "scenarios/Scenario.hpp"
#include "tools/SweepResults.hpp"
#include "tools/SweepSpec.hpp"

#include <gtest/gtest.h>

#include <set>
#include <sstream>

using namespace shmemsim::tools;
using nlohmann::json;
using shmemsim::scenarios::ScenarioError;

namespace {

SweepSpec parse(const char* text)
{
  return SweepSpec::parse(json::parse(text), "t.json");
}

std::string error_of(const char* text)
{
  try {
    parse(text);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(no error)";
}

} // namespace

TEST(sweep_spec, NoSweepIsOnePoint)
{
  const SweepSpec s = SweepSpec::parse(json(), "t.json");
  EXPECT_EQ(s.point_count(), 1u);
  EXPECT_TRUE(s.point(0).empty());
}

TEST(sweep_spec, CartesianLastVariesFastestZipAdvancesTogether)
{
  const SweepSpec s = parse(R"({"cartesian": [{"key": "a", "values": [1, 2]},
                                              {"zip": [{"arg": "-x", "values": ["p", "q", "r"]}, {"env": "E", "values": [7, 8, 9]}]}],
                               "zip": [{"key": "b", "values": [true, false]}, {"key": "c", "values": ["u", "v"]}]})");
  ASSERT_EQ(s.variables().size(), 5u);
  EXPECT_EQ(s.variables()[1].name, "arg:-x");
  EXPECT_EQ(s.variables()[2].name, "env:E");
  EXPECT_EQ(s.point_count(), 2u * 3u * 2u);
  EXPECT_EQ(json(s.point(0)), json::parse(R"([1, "p", 7, true, "u"])"));
  EXPECT_EQ(json(s.point(1)), json::parse(R"([1, "p", 7, false, "v"])"));
  EXPECT_EQ(json(s.point(2)), json::parse(R"([1, "q", 8, true, "u"])"));
  EXPECT_EQ(json(s.point(11)), json::parse(R"([2, "r", 9, false, "v"])"));
}

TEST(sweep_spec, Ranges)
{
  EXPECT_EQ(
      json(parse(R"({"cartesian": [{"key": "a", "range": {"from": 1, "to": 11, "step": 5}}]})").variables()[0].values),
      json::parse("[1, 6, 11]"));
  EXPECT_EQ(
      json(parse(R"({"cartesian": [{"key": "a", "range": {"from": 10, "to": 1, "step": -4}}]})").variables()[0].values),
      json::parse("[10, 6, 2]"));
  EXPECT_EQ(
      json(parse(R"({"cartesian": [{"key": "a", "range": {"from": 1, "to": 64, "times": 4}}]})").variables()[0].values),
      json::parse("[1, 4, 16, 64]"));
  EXPECT_EQ(json(parse(R"({"cartesian": [{"key": "a", "range": {"from": 0.5, "to": 1.5, "step": 0.5}}]})")
                     .variables()[0]
                     .values),
            json::parse("[0.5, 1.0, 1.5]"));
  EXPECT_EQ(json(parse(R"({"cartesian": [{"key": "a", "range": {"from": 0.1, "to": 0.3, "step": 0.1}}]})")
                     .variables()[0]
                     .values),
            json::parse("[0.1, 0.2, 0.3]"));
  EXPECT_EQ(json(parse(R"({"cartesian": [{"key": "a", "range": {"from": 3, "to": 3}}]})").variables()[0].values),
            json::parse("[3]"));
}

TEST(sweep_spec, ErrorsNameTheJsonPath)
{
  EXPECT_EQ(
      error_of(R"({"cartesian": [{"key": "a", "values": [1]}, {"key": "a", "values": [2]}]})"),
      "t.json: sweep.cartesian[1].name: \"a\" is also the name of sweep.cartesian[0]; give each variable its own name");
  EXPECT_EQ(error_of(R"({"cartesian": [{"key": "a", "range": {"from": 1, "to": 2, "step": 0}}]})")
                .rfind("t.json: sweep.cartesian[0].range.step: ", 0),
            0u);
  EXPECT_EQ(error_of(R"({"cartesian": [{"key": "a", "range": {"from": 0, "to": 2, "times": 2}}]})")
                .rfind("t.json: sweep.cartesian[0].range: ", 0),
            0u);
  EXPECT_EQ(
      error_of(R"({"cartesian": [{"arg": "-x", "values": [[1]]}]})").rfind("t.json: sweep.cartesian[0].values[0]: ", 0),
      0u);
  EXPECT_EQ(
      error_of(R"({"cartesian": [{"key": "repeat", "values": [1]}]})").rfind("t.json: sweep.cartesian[0].key: ", 0),
      0u);
  EXPECT_EQ(error_of(R"({"cartesian": [{"key": "a", "arg": "-x", "values": [1]}]})")
                .rfind("t.json: sweep.cartesian[0]: give exactly one", 0),
            0u);
  EXPECT_EQ(error_of(R"({"plot": [{"x": "a", "file": "../p.svg"}]})").rfind("t.json: sweep.plot[0].file: ", 0), 0u);
  EXPECT_EQ(error_of(R"({"cartesian": [{"key": "a", "range": {"from": 1, "to": 1000, "step": 1}},
                                       {"key": "b", "range": {"from": 1, "to": 1001, "step": 1}}]})")
                .rfind("t.json: sweep: has ", 0),
            0u);
}

TEST(sweep_spec, PlotErrorBarsAreMinMaxOrStddev)
{
  EXPECT_EQ(parse(R"({"plot": {"x": "a"}})").plots().at(0).errors, "minmax");
  EXPECT_EQ(parse(R"({"plot": {"x": "a", "errors": "stddev"}})").plots().at(0).errors, "stddev");
  EXPECT_EQ(error_of(R"({"plot": {"x": "a", "errors": "mean"}})")
                .rfind("t.json: sweep.plot.errors: \"mean\" is neither minmax", 0),
            0u)
      << error_of(R"({"plot": {"x": "a", "errors": "mean"}})");
}

TEST(sweep_spec, SeedsDerivedDistinctDeterministic)
{
  EXPECT_EQ(derive_seed(42, 0), 42u);
  std::set<std::uint64_t> seen;
  for (std::uint64_t base : {0ull, 1ull, 2ull})
    for (int r = 1; r < 50; ++r) {
      const std::uint64_t s = derive_seed(base, r);
      EXPECT_LT(s, std::uint64_t{1} << 53);
      EXPECT_EQ(s, derive_seed(base, r));
      seen.insert(s);
    }
  EXPECT_EQ(seen.size(), 3u * 49u);
}

TEST(sweep_results, ReportedFigures)
{
  std::istringstream out(
      "hello\nRESULT time_us=12.5 n=3 name=abc\n[PE 0] RESULT bw=1e9 n=4 bad 9x=1\nRESULTS x=1\n RESULT y=2\n");
  const json r = parse_reported(out);
  EXPECT_EQ(r, json::parse(R"({"time_us": 12.5, "n": 4, "name": "abc", "bw": 1e9})"));
  EXPECT_TRUE(r["n"].is_number_integer());
}
