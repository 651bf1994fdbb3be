// What shmemsim-run keeps in a run directory besides the run's own files (summary.json, scenario.json,
// traces, written by run/): the program's standard output as printed (output.txt) with its result
// figures (reported.json, from its RESULT lines), and on request the run's report and timing
// diagram (--report, --diagram: the analysis commands of `shmemsim`, run on the directory).
#pragma once

#include <sys/types.h>

#include <string>

namespace shmemsim::front {

/// A copy of everything the program prints on stdout, taken on the way to the real stdout: fd 1
/// becomes a pipe read by a copier process, which writes each byte to the real stdout and to
/// DIR/output.txt, and at the end of the output DIR/reported.json (the RESULT lines' figures, as
/// `shmemsim sweep` collects them). A process of its own, so that it drains the pipe even when the
/// launcher ends on a signal or a time limit; emulated PEs inherit the pipe as their stdout.
class OutputRecord {
public:
  /// Starts the copy into `dir` (created if needed). Call before any thread or PE starts. When the
  /// directory cannot be made, nothing is copied: the run's own --out error says why.
  static OutputRecord start(const std::string& dir);
  /// The program's output is complete: restores the real stdout and waits until the copier has
  /// written both files. Safe to call when nothing was started.
  void finish();

private:
  pid_t copier_ = -1;
  int real_out_ = -1;
};

/// --report and --diagram after a run: `shmemsim report DIR` (its summary on stderr, none with
/// quiet) and `shmemsim diagram DIR -o DIR/diagram.svg`, by the `shmemsim` next to this executable.
/// Returns false after one stderr line naming the step that failed.
bool analyse_run(const std::string& dir, bool report, bool diagram, bool quiet);

} // namespace shmemsim::front
