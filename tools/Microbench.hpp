// `shmemsim microbench`: OSU-style microbenchmarks on any scenario in one command (docs/microbench.md).
// Builds the shipped program share/shmemsim/microbench/shmem_microbench.c with shmemsim-cc, runs it
// with shmemsim-run on two PEs (on two nodes unless asked otherwise), and reports put, put + quiet
// and get latency, put bandwidth and message rate against message size, 8-byte fetch-add and add
// latency and the one-way latency of a put ping-pong: a table (stdout, DIR/microbench.md), JSON
// (DIR/microbench.json) and plots (DIR/latency.svg, bandwidth.svg, rate.svg).
#pragma once

#include <string>

namespace shmemsim::tools {

/// The command's synopsis and summary, for `shmemsim --help` (`shmemsim microbench --help`: its options).
std::string microbench_usage();

/// `shmemsim microbench ARGS` (`argv`: the arguments after "microbench"). Returns the exit status:
/// 0 done, the run's status when it failed (2 for bad input such as a bad --set). Throws
/// ScenarioError or base::UsageError on bad arguments.
int microbench_command(int argc, char** argv);

} // namespace shmemsim::tools
