// The emulated platform (docs/emulator.md): the request's OpenSHMEM program as real processes on
// this machine (or the hosts given) over TCP, started and watched by the emulator's launcher
// (shmem_front/emulator/Launcher.hpp). The scenario's job.contexts.*, platform.nic.limits.*,
// job.collectives.*, seed and emulator.* keys become the PEs' configuration (emulator::Config).
#pragma once

#include "run/Platform.hpp"
#include "run/Request.hpp"
#include "shmem_front/emulator/Launcher.hpp"

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

  RunOutcome run() override;
  /// Merges the PEs' trace files into the run directory's trace (cut after each file's last whole
  /// line when the job failed; one line names PEs that left none).
  std::vector<std::string> write_trace(const std::string& dir) override;
  std::string trace_description() const override { return "ops, real time"; }

private:
  std::vector<std::string> pe_trace_files() const;

  const Request& request_;
  emulator::LaunchSpec spec_;
  emulator::LaunchReport report_;
  int status_ = 0;
  int nodes_  = 1; ///< hosts used
};

} // namespace shmemsim::run
