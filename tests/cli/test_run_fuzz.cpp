// shmemsim-run's command line, fuzzed: a few hundred option sets drawn (seeded, so every run of
// the test draws the same ones) from valid and invalid options, values and scenario keys, each
// run on a small real program. Every run must end with status 0 (it ran), 2 (bad input: exactly
// one "shmemsim-run: " error line, after at most the informational notices), 3 or 4 (deadlock,
// time limit) — never a crash, a hang or an undocumented status — and leave nothing behind in
// its TMPDIR.
//
// SHMEMSIM_RUN (the launcher), SHMEMSIM_PROGRAM (a program built by shmemsim-cc) and
// SHMEMSIM_SOURCE_DIR come from tests/CMakeLists.txt.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  bool exited    = false;
  int status     = -1;
  int signal     = 0;
  bool timed_out = false;
  std::string err;
};

std::string slurp(const fs::path& p)
{
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Outcome run(const std::vector<std::string>& args, const fs::path& dir, double timeout_s)
{
  const fs::path err = dir / "stderr", out = dir / "stdout";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int e  = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int o  = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int in = ::open("/dev/null", O_RDONLY);
    ::dup2(e, 2);
    ::dup2(o, 1);
    ::dup2(in, 0);
    ::setenv("TMPDIR", (dir / "tmp").c_str(), 1);
    ::chdir(dir.c_str());
    std::vector<char*> argv;
    for (const std::string& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  Outcome r;
  int ws        = 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (::waitpid(pid, &ws, WNOHANG) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &ws, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(ws)) {
    r.exited = true;
    r.status = WEXITSTATUS(ws);
  } else if (WIFSIGNALED(ws)) {
    r.signal = WTERMSIG(ws);
  }
  r.err = slurp(err);
  return r;
}

/// One option set: options and values drawn from a vocabulary of valid and invalid ones.
std::vector<std::string> draw(std::mt19937_64& rng, const std::string& program, const std::string& scenario)
{
  static const std::vector<std::string> options = {"-np",
                                                   "-n",
                                                   "--pes-per-node",
                                                   "--scenario",
                                                   "--set",
                                                   "--seed",
                                                   "--sim-time-limit",
                                                   "--wall-time-limit",
                                                   "--out",
                                                   "--trace",
                                                   "--tag-output",
                                                   "--quiet",
                                                   "-N",
                                                   "--npernode",
                                                   "-ppn",
                                                   "--map-by",
                                                   "-x",
                                                   "-genv",
                                                   "--oversubscribe",
                                                   "--bind-to",
                                                   "--mca",
                                                   "-hostfile",
                                                   "-v",
                                                   "--bogus",
                                                   "-",
                                                   "--",
                                                   "-h"};
  static const std::vector<std::string> values  = {"0",
                                                   "1",
                                                   "2",
                                                   "3",
                                                   "4",
                                                   "-1",
                                                   "17",
                                                   "99999999999999999999",
                                                   "abc",
                                                   "",
                                                   "1ms",
                                                   "10s",
                                                   "-5s",
                                                   "1e400s",
                                                   "ppr:2:node",
                                                   "ppr:0:node",
                                                   "node",
                                                   "core",
                                                   "job.compute=none",
                                                   "job.compute=counted",
                                                   "job.pes=2",
                                                   "platform.nodes=0",
                                                   "platform.nodes=2",
                                                   "platform.fabric.routing=bogus",
                                                   "platform.fabric.routing=random",
                                                   "job.compute_quantum=1ns",
                                                   "job.compute_quantum=1us",
                                                   "job.symmetric_heap=1MiB",
                                                   "job.symmetric_heap=0",
                                                   "{",
                                                   "seed=x",
                                                   "FOO=bar",
                                                   "=",
                                                   "/nonexistent.json",
                                                   "out",
                                                   "packets",
                                                   "ops",
                                                   "off",
                                                   "x",
                                                   "btl",
                                                   "self",
                                                   "\xff\xfe",
                                                   "job.threads.per_pe=3",
                                                   "output.trace=packets",
                                                   "job.placement=cyclic"};
  std::vector<std::string> args                 = {SHMEMSIM_RUN};
  std::uniform_int_distribution<int> count(0, 5), pick_opt(0, static_cast<int>(options.size()) - 1),
      pick_val(0, static_cast<int>(values.size()) - 1), coin(0, 9);
  const int n = count(rng);
  bool has_np = false;
  for (int i = 0; i < n; ++i) {
    const std::string& o = options[static_cast<std::size_t>(pick_opt(rng))];
    args.push_back(o);
    has_np |= o == "-np" || o == "-n";
    if (o == "--scenario" && coin(rng) < 7)
      args.push_back(scenario);
    else if (coin(rng) < 8)
      args.push_back(values[static_cast<std::size_t>(pick_val(rng))]);
  }
  if (!has_np && coin(rng) < 8) { // keep most runs small
    args.push_back("-np");
    args.push_back(std::to_string(1 + coin(rng) % 4));
  }
  if (coin(rng) < 9)
    args.push_back(program);
  if (coin(rng) < 3)
    args.push_back("put");
  return args;
}

std::string show(const std::vector<std::string>& args)
{
  std::string s;
  for (const std::string& a : args)
    s += (s.empty() ? "" : " ") + ("'" + a + "'");
  return s;
}

TEST(cli_run_fuzz, EveryOptionSetEndsCleanly)
{
  const fs::path dir = fs::temp_directory_path() / ("shmemsim-run-fuzz-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "tmp");
  const std::string scenario = std::string(SHMEMSIM_SOURCE_DIR) + "/tests/programs/unordered.json";
  std::mt19937_64 rng(20261123);
  int ran = 0, refused = 0;
  for (int i = 0; i < 300; ++i) {
    const std::vector<std::string> args = draw(rng, SHMEMSIM_PROGRAM, scenario);
    const Outcome r                     = run(args, dir, 60);
    const std::string what              = "case " + std::to_string(i) + ": " + show(args) + "\nstderr:\n" + r.err;
    ASSERT_FALSE(r.timed_out) << what;
    ASSERT_TRUE(r.exited) << "killed by signal " << r.signal << ": " << what;
    const int s = r.status;
    EXPECT_TRUE(s == 0 || s == 2 || s == 3 || s == 4) << "status " << s << ": " << what;
    if (s == 2) {
      ++refused;
      // Informational notices may come first; exactly one error line ends the output.
      std::istringstream lines(r.err);
      std::vector<std::string> errors;
      for (std::string l; std::getline(lines, l);)
        if (l.rfind("shmemsim-run: no --scenario", 0) != 0 && l.find("ignored") == std::string::npos &&
            l.find("share their node") == std::string::npos)
          errors.push_back(l);
      EXPECT_EQ(errors.size(), 1u) << what;
      if (!errors.empty()) {
        EXPECT_LE(errors.back().size(), 600u) << "error line not truncated: " << what;
      }
    } else if (s == 0) {
      ++ran;
    }
    EXPECT_TRUE(fs::is_empty(dir / "tmp")) << "left in TMPDIR: " << what;
    fs::remove_all(dir / "tmp");
    fs::create_directories(dir / "tmp");
    fs::remove_all(dir / "out");
  }
  std::printf("%d option sets ran, %d were refused as bad input\n", ran, refused);
  EXPECT_GT(ran, 20);
  EXPECT_GT(refused, 20);
  fs::remove_all(dir);
}

} // namespace
