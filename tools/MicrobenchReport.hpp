// The figures of `shmemsim microbench` (tools/Microbench.hpp): read from the program's output
// lines, then written as a table, JSON and plots.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace shmemsim::tools {

/// One message size's figures, in base units: seconds, bytes per second, puts per second.
struct SizeFigures {
  std::uint64_t size = 0;
  double put_s = 0, put_quiet_s = 0, get_s = 0, put_bw_Bps = 0, put_rate_per_s = 0;
};

struct MicrobenchFigures {
  std::vector<SizeFigures> sizes; ///< ascending
  double fetch_add_s = 0, add_s = 0, pingpong_s = 0;
};

/// Parses the program's lines "FIGURE SIZE VALUE" (shmem_microbench.c). Throws ScenarioError naming
/// `source` and the line when one is malformed or a figure is missing.
MicrobenchFigures parse_microbench_output(const std::string& text, const std::string& source);

/// What the run was: shown above the table and stored in the JSON.
struct MicrobenchSetup {
  std::string scenario; ///< the scenario file, or a note that it is the default platform
  std::vector<std::string> sets;
  long iterations         = 0;
  int pes_per_node        = 1;
  int nodes               = 0;                        ///< nodes PE 0 and PE 1 ran on (1 or 2; 0 unknown)
  nlohmann::json platform = nlohmann::json::object(); ///< the platform's key figures (resolved)
};

/// The table printed and written to DIR/microbench.md.
std::string microbench_table(const MicrobenchFigures& f, const MicrobenchSetup& s);

/// DIR/microbench.json: setup, what each figure measures, and the figures.
nlohmann::json microbench_json(const MicrobenchFigures& f, const MicrobenchSetup& s);

/// Writes DIR/latency.svg, bandwidth.svg and rate.svg (log-log against size); returns their paths.
std::vector<std::string> write_microbench_plots(const MicrobenchFigures& f, const std::string& dir);

} // namespace shmemsim::tools
