// The plotter's unit reader for scenario keys (analysis/AxisUnits.hpp): a key of kind Time, Size or
// Bandwidth in the key tables, or any string value written with a unit ("1.3us", "4KiB",
// "32Gbps"), read into seconds, bytes or bytes per second.
#pragma once

#include "analysis/AxisUnits.hpp"

namespace shmemsim::tools {

/// The reader `shmemsim plot`, sweeps' plots and `shmemsim microbench` give the plotter.
analysis::UnitReader scenario_unit_reader();

} // namespace shmemsim::tools
