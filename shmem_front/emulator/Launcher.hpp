// The emulator's launcher (`shmemsim-run --emulate`, docs/emulator.md): starts one process per
// PE (shmemsim-emu-pe), runs the bootstrap service they meet through (key-value, barrier, exit,
// abort; every connection presents the job's random token), watches them, and ends the job with
// the simulator's exit statuses: a crash, an early non-zero exit or shmem_global_exit ends every
// PE; a wall-clock limit and a "no PE progressed" watchdog stop a job that hangs. No process
// outlives it (each PE dies with it: PR_SET_PDEATHSIG). With a trace directory each PE writes its
// events to a file of its own there (pe_trace_file); the caller merges them (traces/Merge.hpp).
#pragma once

#include "shmem_front/emulator/Config.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace shmemsim::emulator {

struct LaunchSpec {
  Config job;             ///< everything but rank, boot_port and token (the launcher sets them)
  std::string pe_program; ///< the shmemsim-emu-pe executable
  std::string program;    ///< the OpenSHMEM program (built by shmemsim-cc)
  std::vector<std::string> args;
  /// Each PE's host (empty: every PE here, on job.boot_host). A host that is an address of this
  /// machine gets its PEs forked here, listening on it; any other is reached with ssh.
  std::vector<std::string> pe_hosts;
  /// Start every host's PEs with `ssh`, this machine's too (emulator.launch "ssh").
  bool ssh_every_host = false;
  /// The words of the command that starts a PE on another host; the host and the remote command
  /// follow them (emulator.ssh).
  std::vector<std::string> ssh = {"ssh", "-o", "BatchMode=yes", "-T"};
  double wall_limit            = 3600; ///< seconds (0: none)
  double stall_timeout         = 60;   ///< seconds without progress of any PE: a deadlock (0: never)
  bool quiet                   = false;
  /// Where each PE writes its trace events (pe_trace_file; empty: no trace). An absolute path;
  /// PEs on other hosts need it at the same path (a shared file system).
  std::string trace_dir;
};

/// What the job did, for the run directory's summary.json.
struct LaunchReport {
  double wall_seconds      = 0;
  std::uint64_t deliveries = 0, out_of_order = 0, restored = 0, held = 0;
  /// Requests issued; operations acknowledged by ACKs; REPLYs received (summed over the PEs).
  std::uint64_t requests = 0, acks = 0, replies = 0;
  /// The NICs' work, summed over the PEs: messages, payload_bytes, copied_bytes, reads, sleeps
  /// (NicStats).
  std::map<std::string, std::uint64_t> work;
  std::vector<int> exit_status; ///< by PE, as each announced it (-1: none)
  std::uint64_t epoch_ns = 0;   ///< the traces' time origin (CLOCK_REALTIME)
};

/// Run the job; returns the exit status (docs/runs.md). Fills `report` if given.
int launch(const LaunchSpec& spec, LaunchReport* report = nullptr);

/// The trace file PE `rank` writes in `dir` (the merge removes it).
std::string pe_trace_file(const std::string& dir, int rank);

/// Whether `host` names this machine (a loopback address, or one a socket can bind to here).
bool is_local_host(const std::string& host);

/// 64 hex digits from /dev/urandom. Throws std::runtime_error if it cannot be read.
std::string make_token();

} // namespace shmemsim::emulator
