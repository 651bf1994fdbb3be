// What the emulator's launcher tells each PE process (docs/emulator.md): the job, the bootstrap
// service and its token, the symmetric heap, the offload semantics (the same job.contexts.* and
// platform.nic.limits.* keys as the simulator's Portals mapping) and the injected delay and
// reordering (emulator.* keys). Plain data, no simulator types: the launcher fills it from the
// scenario, passes it in one environment variable, and the PE process reads it back.
#pragma once

#include "shmem_front/lib/Seams.hpp" // CtxMapping, OnExhaustion

#include <cstdint>
#include <string>

namespace shmemsim::emulator {

struct Config {
  // The job
  int npes                 = 1;
  int rank                 = 0;
  double epoch             = 0; ///< CLOCK_REALTIME seconds at the job's start: wtime() counts from it
  std::uint64_t heap_bytes = 0;
  std::uint64_t epoch_ns   = 0; ///< the same instant in integer nanoseconds: the traces' time origin
  int node                 = 0; ///< this PE's host, numbered in order of first appearance (traces' `pe` lines)
  std::string trace_file;       ///< where this PE writes its trace events (empty: none; docs/emulator.md)

  // Bootstrap and data connections
  std::string boot_host = "127.0.0.1";
  int boot_port         = 0;
  std::string token;                     ///< 64 hex digits, from /dev/urandom, one per job
  std::string listen_host = "127.0.0.1"; ///< where this PE accepts its peers' data connections
  std::string advertise;                 ///< the address the others connect to (empty: listen_host)

  // Offload semantics (the Portals mapping's keys)
  front::CtxMapping mapping          = front::CtxMapping::Lean;   ///< job.contexts.mapping
  front::OnExhaustion on_exhaustion  = front::OnExhaustion::Fail; ///< job.contexts.on_exhaustion
  int max_cts                        = 1024;
  int max_mds                        = 1024;
  std::uint64_t max_volatile_size    = 64;
  std::uint64_t max_waw_ordered_size = 64;
  bool total_ordering                = false;
  /// job.collectives.*: the enumerators of barrier, broadcast, collect and reduce (CollectiveParams).
  int collectives[4] = {0, 0, 0, 0};

  // Injected delay and reordering (emulator.*)
  std::uint64_t latency_ns      = 0;
  double bandwidth_Bps          = 0; ///< 0: no serialization delay
  std::uint64_t jitter_ns       = 0;
  double reorder_probability    = 0;
  int reorder_depth             = 4;
  std::uint64_t reorder_hold_ns = 200000;
  std::uint64_t seed            = 1;
  bool log_decisions            = false; ///< print every injected decision (tests compare them between runs)
  /// Connections per pair of PEs, used as paths (emulator.paths), and how a message picks one
  /// (platform.fabric.routing: 0 dmodk, 1 random, 2 adaptive; sim::Routing's order).
  int paths   = 1;
  int routing = 0;

  /// "key=value key=value ..." (no value contains a space).
  std::string serialize() const;
  /// The inverse; throws std::invalid_argument naming a bad or missing entry.
  static Config parse(const std::string& text);

  bool delays() const { return latency_ns > 0 || bandwidth_Bps > 0 || jitter_ns > 0 || reorder_probability > 0; }
};

/// The environment variables the launcher sets for each PE process.
inline constexpr const char* kConfigVar = "SHMEMSIM_EMU_CONFIG";

} // namespace shmemsim::emulator
