// `shmemsim limits`: a program over a range of NIC limits (max_cts, and max_mds and
// platform.nic.injection_queues when asked) under each job.contexts.on_exhaustion policy, as one
// generated `shmemsim sweep`; then, per point, the contexts created, refused and shared, the peak
// use of each resource against its limit, the time (the program's first RESULT figure, else
// sim_time_s), thread interference and overlap, as a table (stdout, DIR/limits.md, limits.json)
// and plots (DIR/limits.svg, limits-shared.svg). docs/limits.md.
#pragma once

#include <string>

namespace shmemsim::tools {

/// The command's synopsis and summary, for `shmemsim --help` (`shmemsim limits --help`: its options).
std::string limits_usage();

/// `shmemsim limits ARGS` (`argv`: the arguments after "limits"). Returns the exit status: 0 every
/// run succeeded, 1 a run failed (the table says which) or a plot could not be drawn. Throws
/// ScenarioError on bad input, base::UsageError on a bad command line.
int limits_command(int argc, char** argv);

} // namespace shmemsim::tools
