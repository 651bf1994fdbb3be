// base::CommandLine: the option table every tool parses its arguments with (spellings, values,
// positionals, the end of options, one-line errors naming the command and the option, the help).
#include "base/CommandLine.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using shmemsim::base::CommandLine;
using shmemsim::base::Given;
using shmemsim::base::UsageError;

/// A sweep-like command: a scenario, options of each kind, then PROGRAM [ARGS...].
struct Sweep {
  std::string scenario, out, trace;
  std::vector<std::string> sets, rest, env;
  std::string jobs = "1";
  bool quiet       = false;
  CommandLine cl{"shmemsim", "sweep"};
  Sweep()
  {
    cl.synopsis("SCENARIO.json [OPTIONS]\n [PROGRAM [ARGS...]]\n--collect DIR")
        .summary("Run the scenario's sweep.")
        .description("Runs every point.")
        .positional("SCENARIO.json", "the scenario", scenario)
        .rest("PROGRAM [ARGS...]", "the program each run runs", [this](const Given& g) { rest = g.values; })
        .option("--set", "KEY=VALUE", "override a key (repeatable)",
                [this](const Given& g) { sets.push_back(g.value()); })
        .option("-j, --jobs", "N", "N runs at once", jobs)
        .option("-o, --out", "DIR", "where the runs go", out)
        .flag("--quiet", "no progress lines", quiet)
        .section("other launchers' options:")
        .option("-genv", std::vector<std::string>{"VAR", "VALUE"}, "set VAR for the PEs",
                [this](const Given& g) { env.push_back(g.name + ":" + g.values[0] + "=" + g.values[1]); })
        .epilogue("exit status: 0 ok");
  }
  bool parse(std::vector<std::string> args) { return cl.parse(args); }
};

std::string error_of(Sweep& s, std::vector<std::string> args)
{
  try {
    s.parse(std::move(args));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommandLine, SpaceAndEqualsSpellingsGiveTheSameValues)
{
  Sweep a, b;
  ASSERT_TRUE(a.parse({"s.json", "--out", "d", "--set", "x=1", "--set", "y=2", "--jobs", "3"}));
  ASSERT_TRUE(b.parse({"--out=d", "--set=x=1", "s.json", "--set=y=2", "--jobs=3"}));
  for (const Sweep* s : {&a, &b}) {
    EXPECT_EQ(s->scenario, "s.json");
    EXPECT_EQ(s->out, "d");
    EXPECT_EQ(s->sets, (std::vector<std::string>{"x=1", "y=2"}));
    EXPECT_EQ(s->jobs, "3");
  }
}

TEST(CommandLine, OneLetterOptionsTakeAnAttachedValue)
{
  Sweep s;
  ASSERT_TRUE(s.parse({"-j4", "-oout", "s.json"}));
  EXPECT_EQ(s.jobs, "4");
  EXPECT_EQ(s.out, "out");
  Sweep t;
  ASSERT_TRUE(t.parse({"-j", "2", "s.json"}));
  EXPECT_EQ(t.jobs, "2");
}

TEST(CommandLine, ExactMultiLetterSingleDashNamesAndSeveralValues)
{
  Sweep s;
  ASSERT_TRUE(s.parse({"-genv", "A", "1", "-genv=B", "2", "s.json"}));
  EXPECT_EQ(s.env, (std::vector<std::string>{"-genv:A=1", "-genv:B=2"}));
  EXPECT_EQ(error_of(s, {"-genv", "A"}), "sweep: -genv needs 2 values (see 'shmemsim sweep --help')");
}

TEST(CommandLine, TheRestPositionalTakesEverythingAfterIt)
{
  Sweep s;
  ASSERT_TRUE(s.parse({"s.json", "--quiet", "prog", "-x", "--out", "o", "--help"}));
  EXPECT_TRUE(s.quiet);
  EXPECT_EQ(s.out, "");
  EXPECT_EQ(s.rest, (std::vector<std::string>{"prog", "-x", "--out", "o", "--help"}));
}

TEST(CommandLine, DoubleDashEndsTheOptions)
{
  Sweep s;
  ASSERT_TRUE(s.parse({"--", "-s.json", "--quiet"}));
  EXPECT_EQ(s.scenario, "-s.json");
  EXPECT_FALSE(s.quiet);
  EXPECT_EQ(s.rest, (std::vector<std::string>{"--quiet"}));
  // A lone dash is an argument (standard input, say), not an option.
  Sweep t;
  ASSERT_TRUE(t.parse({"-"}));
  EXPECT_EQ(t.scenario, "-");
}

TEST(CommandLine, MistakesAreOneLineNamingTheCommandAndTheOption)
{
  Sweep s;
  EXPECT_EQ(error_of(s, {"s.json", "-j"}), "sweep: -j needs a value (see 'shmemsim sweep --help')");
  EXPECT_EQ(error_of(s, {"--x"}), "sweep: unknown option '--x' (see 'shmemsim sweep --help')");
  EXPECT_EQ(error_of(s, {"-q"}), "sweep: unknown option '-q' (see 'shmemsim sweep --help')");
  EXPECT_EQ(error_of(s, {"--quiet=yes"}), "sweep: --quiet takes no value (see 'shmemsim sweep --help')");
  EXPECT_EQ(error_of(s, {"--outx=d"}), "sweep: unknown option '--outx=d' (see 'shmemsim sweep --help')");
  // A program without subcommands names itself once, in the hint only.
  CommandLine launcher("shmemsim-run", "");
  std::string np;
  launcher.option("-np, -n", "N", "number of PEs", np);
  try {
    launcher.parse(std::vector<std::string>{"--frobnicate"});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "unknown option '--frobnicate' (see 'shmemsim-run --help')");
  }
  // -np is its own name, not -n with the value "p"; -n4 is -n with 4.
  ASSERT_TRUE(launcher.parse(std::vector<std::string>{"-np", "8"}));
  EXPECT_EQ(np, "8");
  ASSERT_TRUE(launcher.parse(std::vector<std::string>{"-n4"}));
  EXPECT_EQ(np, "4");
}

TEST(CommandLine, TooManyPositionalsSayWhy)
{
  Sweep s;
  CommandLine one("shmemsim", "report");
  std::string dir;
  one.positional("DIR", "a run directory", dir).unexpected("one run directory");
  try {
    one.parse(std::vector<std::string>{"a", "b"});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "report: unexpected argument 'b' (one run directory) (see 'shmemsim report --help')");
  }
  CommandLine many("shmemsim", "plot");
  std::vector<std::string> dirs;
  many.positionals("DIR...", "run directories", [&](const Given& g) { dirs.push_back(g.value()); });
  ASSERT_TRUE(many.parse(std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(dirs, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(CommandLine, ActionsCanRefuseAValueWithTheirOwnLine)
{
  CommandLine cl("shmemsim", "limits");
  long long n = 0;
  cl.option("--cts", "LIST", "max_cts values", [&](const Given& g) {
    if (!shmemsim::base::parse_integer(g.value(), 1, 100, n))
      cl.fail(g.name + " " + g.value() + ": expected a number from 1 to 100");
  });
  ASSERT_TRUE(cl.parse(std::vector<std::string>{"--cts=7"}));
  EXPECT_EQ(n, 7);
  try {
    cl.parse(std::vector<std::string>{"--cts", "0"});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "limits: --cts 0: expected a number from 1 to 100 (see 'shmemsim limits --help')");
  }
  for (const char* bad : {"", "x", "1x", "+3", " 3", "101", "99999999999999999999"})
    EXPECT_FALSE(shmemsim::base::parse_integer(bad, 1, 100, n)) << bad;
}

TEST(CommandLine, HelpIsBuiltFromTheTableAndStopsTheParse)
{
  Sweep s;
  testing::internal::CaptureStdout();
  EXPECT_FALSE(s.parse({"s.json", "--help", "--bogus"})); // nothing after --help is looked at
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, s.cl.help());
  EXPECT_EQ(out.rfind("usage: shmemsim sweep SCENARIO.json [OPTIONS]\n"
                      "                      [PROGRAM [ARGS...]]\n"
                      "   or: shmemsim sweep --collect DIR\n\nRuns every point.\n",
                      0),
            0u)
      << out;
  for (const char* line :
       {"\narguments:\n  SCENARIO.json           the scenario\n",
        "\n  PROGRAM [ARGS...]       the program each run runs\n",
        "\noptions:\n  --set KEY=VALUE         override a key (repeatable)\n",
        "\n  -j, --jobs N            N runs at once\n", "\n  -h, --help              print this help and exit\n",
        "\nother launchers' options:\n  -genv VAR VALUE         set VAR for the PEs\n", "\n\nexit status: 0 ok\n"})
    EXPECT_NE(out.find(line), std::string::npos) << line << " not in:\n" << out;
  EXPECT_EQ(
      s.cl.listing(),
      "  sweep SCENARIO.json [OPTIONS]\n        [PROGRAM [ARGS...]]\n  sweep --collect DIR\n        Run the scenario's sweep.\n");
  testing::internal::CaptureStdout();
  EXPECT_FALSE(s.parse({"-h"}));
  EXPECT_EQ(testing::internal::GetCapturedStdout(), out);
}

TEST(CommandLine, WithoutASynopsisTheUsageLineNamesWhatTheTableHas)
{
  CommandLine keys("shmemsim", "keys");
  EXPECT_EQ(keys.help().rfind("usage: shmemsim keys\n", 0), 0u) << keys.help();
  EXPECT_EQ(keys.listing(), "  keys\n");
  CommandLine report("shmemsim", "report");
  std::string dir;
  bool quiet = false;
  report.positional("DIR", "a run directory", dir).flag("--quiet", "say nothing", quiet);
  EXPECT_EQ(report.help().rfind("usage: shmemsim report [OPTIONS] DIR\n", 0), 0u) << report.help();
}

TEST(CommandLine, LongHelpLinesAreWrappedUnderTheirColumn)
{
  CommandLine cl("shmemsim", "x");
  bool f = false;
  cl.flag("--a-rather-long-option-name", std::string(30, 'w') + " " + std::string(30, 'w') + " " + std::string(30, 'w'),
          f);
  const std::string h = cl.help();
  // The name does not fit the column: the help starts on the next line, at the column.
  EXPECT_NE(h.find("  --a-rather-long-option-name\n" + std::string(26, ' ') + std::string(30, 'w') + " " +
                   std::string(30, 'w') + "\n" + std::string(26, ' ') + std::string(30, 'w') + "\n"),
            std::string::npos)
      << h;
}

TEST(CommandLine, DeclarationMistakesAreCaughtAtOnce)
{
  CommandLine cl("shmemsim", "x");
  bool f = false;
  cl.flag("--quiet", "q", f);
  EXPECT_THROW(cl.flag("--quiet", "again", f), std::logic_error);
  EXPECT_THROW(cl.flag("--help", "mine", f), std::logic_error);
  EXPECT_THROW(cl.flag("quiet", "no dash", f), std::logic_error);
  cl.rest("PROGRAM [ARGS...]", "", [](const Given&) {});
  std::string p;
  EXPECT_THROW(cl.positional("AFTER", "", p), std::logic_error);
}

TEST(CommandLine, ACommandWithoutPositionalsRefusesArgumentsWithItsHint)
{
  CommandLine cl("shmemsim", "microbench");
  std::string sc;
  cl.option("--scenario", "FILE.json", "the scenario", sc)
      .unexpected("the scenario is given with --scenario FILE.json");
  try {
    cl.parse(std::vector<std::string>{"x.json"});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(), "microbench: unexpected argument 'x.json' (the scenario is given with --scenario FILE.json) "
                           "(see 'shmemsim microbench --help')");
  }
}

} // namespace
