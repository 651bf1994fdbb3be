// The emulator's launcher (`shmemsim-run --emulate`, docs/emulator.md): starts one process per
// PE (shmemsim-emu-pe), runs the bootstrap service they meet through (key-value, barrier, exit,
// abort; every connection presents the job's random token), watches them, and ends the job with
// the simulator's exit statuses: a crash, an early non-zero exit or shmem_global_exit ends every
// PE; a wall-clock limit and a "no PE progressed" watchdog stop a job that hangs. No process
// outlives it (each PE dies with it: PR_SET_PDEATHSIG) and it writes no files.
#pragma once

#include "shmem_front/emulator/Config.hpp"

#include <string>
#include <vector>

namespace shmemsim::emulator {

struct LaunchSpec {
  Config job;              ///< everything but rank, boot_port and token (the launcher sets them)
  std::string pe_program;  ///< the shmemsim-emu-pe executable
  std::string program;     ///< the OpenSHMEM program (built by shmemsim-cc)
  std::vector<std::string> args;
  /// Each PE's host (empty: every PE here, on job.boot_host). A host that is an address of this
  /// machine gets its PEs forked here, listening on it; any other is reached with ssh.
  std::vector<std::string> pe_hosts;
  double wall_limit = 3600; ///< seconds (0: none)
  double stall_timeout = 60; ///< seconds without progress of any PE: a deadlock (0: never)
  bool quiet = false;
};

/// Run the job; returns the exit status (docs/runs.md).
int launch(const LaunchSpec& spec);

/// Whether `host` names this machine (a loopback address, or one a socket can bind to here).
bool is_local_host(const std::string& host);

/// 64 hex digits from /dev/urandom. Throws std::runtime_error if it cannot be read.
std::string make_token();

} // namespace shmemsim::emulator
