// The emulated platform (docs/emulator.md): the request's OpenSHMEM program as real processes on
// this machine (or the hosts given) over TCP, started and watched by the emulator's launcher
// (shmem_front/emulator/Launcher.hpp). The scenario's job.contexts.*, platform.nic.limits.*,
// job.collectives.*, seed and emulator.* keys become the PEs' configuration (emulator::Config).
#pragma once

#include "run/Platform.hpp"
#include "run/Request.hpp"
#include "shmem_front/emulator/Launcher.hpp"
#include "traces/Trace.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::run {

/// The emulator's configuration of the PEs from the scenario: the job (`npes` PEs, symmetric heaps
/// of `heap_bytes`), the offload semantics and the injected delays. Refuses a bad
/// emulator.bandwidth (bad_option).
emulator::Config emulator_config(const Request& request, int npes, std::uint64_t heap_bytes);

class EmulatedPlatform final : public Platform {
public:
  /// Checks what emulation refuses (--tag-output, --sim-time-limit, trace level packets: one
  /// line, bad_option) and prepares the launch: the PEs (job.pes, placed by job.placement on the
  /// hosts given) with their symmetric heaps, the run directory and where the PEs write their
  /// traces. `request` outlives it.
  explicit EmulatedPlatform(const Request& request);
  ~EmulatedPlatform() override; ///< removes the PEs' own trace files (merged, or of a job that failed)

  /// Runs the job; its summary speaks the simulated one's vocabulary (sim_time_s, deliveries,
  /// operations, bandwidth and, from the trace when there is one, latency: docs/emulator.md).
  RunOutcome run() override;
  /// Writes the run directory's trace: the PEs' trace files merged by run() (cut after each
  /// file's last whole line when the job failed; one line names PEs that left none).
  std::vector<std::string> write_trace(const std::string& dir) override;
  std::string trace_description() const override { return "ops, real time"; }

private:
  std::vector<std::string> pe_trace_files() const;
  /// The PEs' trace files merged into trace_ (after the job).
  void merge_trace();
  /// The summary's blocks that both platforms' summaries have (docs/runs.md).
  void summarize_shared(nlohmann::json& s) const;

  const Request& request_;
  emulator::LaunchSpec spec_;
  emulator::LaunchReport report_;
  int status_  = 0;
  int nodes_   = 1;     ///< hosts used
  bool traced_ = false; ///< trace_ holds the merged trace
  traces::Trace trace_;
  std::vector<std::string> missing_; ///< PEs' trace files that were not there
  std::string merge_error_;          ///< why the PEs' trace files could not be merged
};

} // namespace shmemsim::run
