// The timing diagram: one lane per PE thread, boxes for compute, blocking operations and waits,
// markers for nbi operations, arrows to the target PE at delivery and back at the ACK — in the
// style of the contexts paper's Figures 2 and 3. SVG, byte-identical for the same input.
#pragma once

#include "analysis/Index.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>

namespace shmemsim::analysis {

struct DiagramOptions {
  std::set<int> pes;                    ///< PEs whose threads get lanes (empty: all, up to max_lanes)
  std::set<int> threads;                ///< thread numbers that get lanes (empty: all)
  std::optional<std::int64_t> from, to; ///< window in ps (unset: chosen, see max_ops)
  int max_ops   = 40;                   ///< without a window: show the span of the first max_ops operations
  int max_lanes = 16;                   ///< without --pes/--threads: at most this many thread lanes
  int width     = 1200;
};

struct Diagram {
  std::string svg;
  std::string note; ///< what was chosen (window, lanes), for the user
  std::int64_t from = 0, to = 0;
  int lanes = 0;
};

/// Throws std::invalid_argument for an empty selection or an empty window.
Diagram make_diagram(const Index& ix, const DiagramOptions& opt);

} // namespace shmemsim::analysis
