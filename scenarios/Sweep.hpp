// `shmemsim sweep`: runs a scenario's sweep (every point x repeat as a normal run, N at a time),
// exports its runs' command lines for a cluster, or collects the results of runs made elsewhere.
#pragma once

namespace shmemsim::scenarios {

/// The command's usage lines, for `shmemsim --help`.
const char* sweep_usage();

/// `shmemsim sweep ARGS`: `argv` holds the arguments after "sweep". Returns the exit status: 0 every
/// run succeeded, 1 a run failed (or did not run, or a plot could not be drawn), 2 bad input.
/// Throws ScenarioError on bad input.
int sweep_command(int argc, char** argv);

} // namespace shmemsim::scenarios
