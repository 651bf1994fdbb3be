// The platform seam: where a run's workload runs. Two implementations: SimulatedPlatform
// (run/Simulated.hpp: the models on SimGrid's clock; a traffic pattern set or an OpenSHMEM program
// as its workload) and EmulatedPlatform (run/Emulated.hpp: an OpenSHMEM program as real processes
// over TCP). The rest of a run is the same for both: the request (run/Request.hpp), the exit
// status and the run directory (run/Run.hpp).
#pragma once

#include "run/Outcome.hpp"

#include <string>
#include <vector>

namespace shmemsim::run {

class Platform {
public:
  virtual ~Platform() = default;
  /// Run the workload to its end: the exit status, the error lines, and the platform's and the
  /// workload's summary keys.
  virtual RunOutcome run() = 0;
  /// After run(): the trace files written into the run directory `dir` from what was recorded
  /// (none when nothing was). Throws std::runtime_error naming a file it cannot write.
  virtual std::vector<std::string> write_trace(const std::string& dir) = 0;
  /// What the trace's level and clock are, for the line naming its files ("ops", "ops, real time").
  virtual std::string trace_description() const = 0;
};

} // namespace shmemsim::run
