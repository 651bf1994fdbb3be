// `shmemsim sweep`: runs a scenario's sweep (every point x repeat as a normal run, N at a time),
// exports its runs' command lines for a cluster, or collects the results of runs made elsewhere.
#pragma once

#include <string>

namespace shmemsim::tools {

/// The command's synopsis and summary, for `shmemsim --help` (`shmemsim sweep --help`: its options).
std::string sweep_usage();

/// `shmemsim sweep ARGS`: `argv` holds the arguments after "sweep". Returns the exit status: 0 every
/// run succeeded, 1 a run failed (or did not run, or a plot could not be drawn), 2 bad input.
/// Throws ScenarioError on bad input, base::UsageError on a bad command line.
int sweep_command(int argc, char** argv);

} // namespace shmemsim::tools
