// The analysis subcommands of `shmemsim`: report, diagram, plot, figure, compare. The `shmemsim` executable only
// dispatches to run_command(); everything about these commands lives here.
#pragma once

#include "analysis/AxisUnits.hpp"

#include <string>

namespace shmemsim::analysis {

/// The analysis commands' synopses and one-line summaries (for `shmemsim --help`); each command's
/// --help gives its options.
std::string usage();
/// True for "report", "diagram", "plot", "figure", "compare".
bool is_command(const std::string& cmd);
/// Runs one command with its arguments (argv[0] is the first argument after the command name).
/// Prints results on stdout and one-line errors on stderr; returns the exit status (0 ok, 2 bad
/// input: unknown option, missing directory or trace, malformed trace, bad time unit). `units`
/// reads the values of keys that carry units (plot; the scenario layer's reader).
int run_command(const std::string& cmd, int argc, char** argv, const UnitReader& units = {});

} // namespace shmemsim::analysis
