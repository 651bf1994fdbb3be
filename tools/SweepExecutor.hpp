// Runs a sweep's runs as subprocesses, at most N at a time: each in its own directory, stdout and
// stderr to stdout.txt and stderr.txt there, its exit status (128 + signal when killed) written to
// `status` there, as the exported shell line does.
#pragma once

#include "tools/SweepPlan.hpp"

#include <functional>
#include <string>
#include <vector>

namespace shmemsim::tools {

class SweepExecutor {
public:
  /// The most runs at once.
  static constexpr int kMaxJobs = 256;

  explicit SweepExecutor(int jobs);

  /// Called after each run ends: its index in `runs`, exit status, wall-clock seconds.
  using Done = std::function<void(std::size_t index, int status, double wall_s)>;

  /// Runs every run, starting them in order as slots free up; returns when all have ended. SIGINT
  /// and SIGTERM meanwhile stop the running ones, print one line and exit with 128 + signal.
  void run(const std::vector<SweepRun>& runs, const Done& done);

private:
  int jobs_;
};

/// The first non-empty line of a run's stderr.txt (its error line), else "" (shmemsim-run's platform
/// line, which every simulated run prints first, is not an error).
std::string first_error_line(const std::string& run_dir);

} // namespace shmemsim::tools
