// The figures of `shmemsim microbench` (tools/Microbench.hpp): read from the program's output
// lines, then written as a table, JSON, OSU-style text (MicrobenchOsu.cpp) and plots
// (MicrobenchPlots.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace shmemsim::tools {

/// One message size's figures between PE 0 and PE 1, in base units: seconds, bytes per second, puts
/// per second.
struct SizeFigures {
  std::uint64_t size = 0;
  double put_s = 0, put_quiet_s = 0, get_s = 0, put_bw_Bps = 0, put_rate_per_s = 0, get_bw_Bps = 0;
};

/// The 64-bit atomics' names, in the program's order (fetch, set, swap, compare_swap, inc, ...).
const std::vector<std::string>& microbench_atomics();

/// The collectives other than the barrier, in the program's order (broadcast, reduce, ...).
const std::vector<std::string>& microbench_collectives();

/// A collective's mean time per call: over the PEs, and the fastest and slowest PE's.
struct CollectiveTime {
  double mean_s = 0, min_s = 0, max_s = 0;
};

/// One size of the multi-pair stream: every sender's bandwidth and rate, summed.
struct MultiPairSize {
  std::uint64_t size = 0;
  double put_bw_Bps = 0, put_rate_per_s = 0;
};

/// The figures of one run on `pes` PEs: the multi-pair stream (an even number of PEs) and the
/// collectives.
struct PesFigures {
  int pes = 0;
  std::vector<MultiPairSize> multi_pair; ///< ascending sizes; empty for an odd number of PEs
  CollectiveTime barrier;
  /// By size (bytes; reduce: the bytes of the longs summed), then collective name.
  std::map<std::uint64_t, std::map<std::string, CollectiveTime>> collectives;
};

struct MicrobenchFigures {
  std::vector<SizeFigures> sizes;                        ///< ascending
  std::vector<std::pair<std::string, double>> atomics_s; ///< microbench_atomics() order
  double pingpong_s = 0;
  std::vector<PesFigures> pes; ///< one per --pes value, in the order given
};

/// Parses the program's lines "FIGURE SIZE VALUE" (shmem_microbench.c) of the two-PE run (parts
/// pair and atomics) into `f`. Throws ScenarioError naming `source` and the line when one is
/// malformed or a figure is missing.
void parse_pair_output(const std::string& text, const std::string& source, MicrobenchFigures& f);

/// The same for a run on `pes` PEs (parts multi, for an even number, and coll).
PesFigures parse_pes_output(const std::string& text, const std::string& source, int pes);

/// What the run was: shown above the table and stored in the JSON.
struct MicrobenchSetup {
  std::string scenario; ///< the scenario file, or a note that it is the default platform
  std::vector<std::string> sets;
  long iterations         = 0;
  long window             = 64;
  int pes_per_node        = 1;
  int nodes               = 0;                        ///< nodes PE 0 and PE 1 ran on (1 or 2; 0 unknown)
  bool emulated           = false;                    ///< real processes (shmemsim-run --emulate): wall-clock time
  nlohmann::json platform = nlohmann::json::object(); ///< the platform's key figures (resolved)
};

/// The table printed and written to DIR/microbench.md.
std::string microbench_table(const MicrobenchFigures& f, const MicrobenchSetup& s);

/// DIR/microbench.json: setup, what each figure measures, and the figures.
nlohmann::json microbench_json(const MicrobenchFigures& f, const MicrobenchSetup& s);

/// DIR/osu.txt: the figures as the OSU OpenSHMEM benchmarks print theirs ("# OSU-style ..." header
/// lines, then "# Size  Bandwidth (MB/s)", "# Operation  Latency (us)" and the like).
std::string microbench_osu_text(const MicrobenchFigures& f, const MicrobenchSetup& s);

/// Writes DIR/latency.svg, bandwidth.svg and rate.svg (against size), and with --pes
/// collectives.svg (against the number of PEs); returns their paths.
std::vector<std::string> write_microbench_plots(const MicrobenchFigures& f, const MicrobenchSetup& s,
                                                const std::string& dir);

} // namespace shmemsim::tools
