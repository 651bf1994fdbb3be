// `shmemsim microbench`: OSU-style microbenchmarks on any scenario in one command (docs/microbench.md).
// Builds the shipped program share/shmemsim/microbench/shmem_microbench.c with shmemsim-cc, runs it
// with shmemsim-run (or shmemsim-run --emulate) on two PEs (on two nodes unless asked otherwise) and
// once per --pes value, and reports put, put + quiet and get latency, put and get bandwidth and put
// message rate against message size, the latency of every 64-bit atomic and of a put ping-pong,
// multi-pair put streams and collective latencies against the number of PEs: a table (stdout,
// DIR/microbench.md), OSU-style text (DIR/osu.txt), JSON (DIR/microbench.json) and plots.
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
