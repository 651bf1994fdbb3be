#include "tools/SweepExecutor.hpp"

#include "scenarios/Scenario.hpp"
#include "base/Assert.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

extern char** environ;

namespace shmemsim::tools {

using scenarios::Scenario;
using scenarios::ScenarioError;

namespace fs = std::filesystem;

namespace {

/// The running children, for the signal handler (a fixed array: async-signal-safe to read).
volatile pid_t g_children[SweepExecutor::kMaxJobs];

void on_signal(int sig)
{
  for (volatile pid_t& p : g_children)
    if (p > 0)
      ::kill(p, SIGTERM);
  const char* msg = sig == SIGINT ? "shmemsim: sweep interrupted by SIGINT; running points stopped\n"
                                  : "shmemsim: sweep interrupted by SIGTERM; running points stopped\n";
  (void)!::write(2, msg, std::strlen(msg));
  ::_exit(128 + sig);
}

/// Starts `run` in its directory; returns the child's pid.
pid_t spawn(const SweepRun& run)
{
  // The run's environment variables are on its command line (shmemsim-run -x), so that its
  // scenario.json records them: the child inherits ours.
  std::vector<char*> argv;
  for (const std::string& a : run.argv)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string out = (fs::path(run.dir) / "stdout.txt").string(),
                    err = (fs::path(run.dir) / "stderr.txt").string();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0)
    throw ScenarioError(std::string("cannot start a run: fork: ") + std::strerror(errno));
  if (pid == 0) { // the child: async-signal-safe calls only
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    const int in = ::open("/dev/null", O_RDONLY);
    const int o  = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e  = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || o < 0 || e < 0 || ::dup2(in, 0) < 0 || ::dup2(o, 1) < 0 || ::dup2(e, 2) < 0 ||
        ::chdir(run.dir.c_str()) != 0)
      ::_exit(126);
    ::execve(argv[0], argv.data(), environ);
    const char* msg = "shmemsim sweep: cannot execute the run's command\n";
    (void)!::write(2, msg, std::strlen(msg));
    ::_exit(127);
  }
  return pid;
}

void write_status(const SweepRun& run, int status)
{
  std::ofstream(fs::path(run.dir) / "status") << status << "\n";
}

} // namespace

SweepExecutor::SweepExecutor(int jobs) : jobs_(jobs)
{
  SHMEMSIM_ASSERT(jobs >= 1 && jobs <= kMaxJobs, "-j was checked");
}

void SweepExecutor::run(const std::vector<SweepRun>& runs, const Done& done)
{
  using Clock = std::chrono::steady_clock;
  struct Running {
    std::size_t index;
    int slot;
    Clock::time_point start;
  };
  std::map<pid_t, Running> running;
  std::vector<bool> slot_busy(static_cast<std::size_t>(jobs_), false);
  for (volatile pid_t& p : g_children)
    p = 0;
  const auto old_int  = ::signal(SIGINT, on_signal);
  const auto old_term = ::signal(SIGTERM, on_signal);
  std::size_t next    = 0;
  while (next < runs.size() || !running.empty()) {
    while (next < runs.size() && running.size() < static_cast<std::size_t>(jobs_)) {
      int slot = 0;
      while (slot_busy[static_cast<std::size_t>(slot)])
        ++slot;
      const pid_t pid                           = spawn(runs[next]);
      g_children[slot]                          = pid;
      slot_busy[static_cast<std::size_t>(slot)] = true;
      running[pid]                              = {next++, slot, Clock::now()};
    }
    int st          = 0;
    const pid_t pid = ::waitpid(-1, &st, 0);
    if (pid < 0) {
      if (errno == EINTR)
        continue;
      throw ScenarioError(std::string("waiting for a run: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end())
      continue; // not one of ours
    const Running r = it->second;
    running.erase(it);
    g_children[r.slot]                          = 0;
    slot_busy[static_cast<std::size_t>(r.slot)] = false;
    const int status                            = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    write_status(runs[r.index], status);
    done(r.index, status, std::chrono::duration<double>(Clock::now() - r.start).count());
  }
  ::signal(SIGINT, old_int);
  ::signal(SIGTERM, old_term);
}

std::string first_error_line(const std::string& run_dir)
{
  std::ifstream in(fs::path(run_dir) / "stderr.txt");
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos && !line.starts_with("shmemsim-run: platform: "))
      return line.size() > 300 ? line.substr(0, 297) + "..." : line;
  return "";
}

} // namespace shmemsim::tools
