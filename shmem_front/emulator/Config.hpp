// What the emulator's launcher tells each PE process (docs/emulator.md): the job, the bootstrap
// service and its token, and the parameter structs the PEs consume, whole, as the scenario gives
// them: the offload semantics (the same job.contexts.* and platform.nic.limits.* keys as the
// simulator's Portals mapping), the collective algorithms, the routing of messages over paths and
// the injected delay and reordering (emulator.* keys). Plain data, no simulator types: the
// launcher fills it, passes it in one environment variable as the words of its key table
// (base/ParamCodec.hpp), and the PE process reads it back.
#pragma once

#include "shmem_front/emulator/EmulatorParams.hpp"
#include "shmem_front/lib/CollectiveParams.hpp"
#include "shmem_front/lib/ContextParams.hpp"
#include "base/Params.hpp"
#include "base/PortalsLimits.hpp"
#include "base/Routing.hpp"

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
  /// The shared-memory path (ShmRing.hpp): the PEs of this PE's host that share its segment
  /// (descriptor kShmFd), comma-separated, in slot order (empty: none, every peer over TCP).
  std::string shm_ranks;
  std::uint64_t shm_ring = 0; ///< bytes of each ring in it (a power of two)

  // The scenario's parameters the PEs consume, each struct with the keys its owner declares
  std::uint64_t seed = 1;              ///< seed: the injector's and the paths' random streams
  Routing routing    = Routing::DModK; ///< platform.fabric.routing: how a message picks one of emulator.paths
  /// platform.nic.limits.* and features: the NIC honours max_cts, max_mds, max_volatile_size,
  /// max_waw_ordered_size and total_data_ordering.
  portals::Limits limits;
  front::ContextParams contexts;       ///< job.contexts.*
  front::CollectiveParams collectives; ///< job.collectives.*
  EmulatorParams emulator;             ///< emulator.*: injected delay and reordering, paths

  /// Every entry: the job's and the connections' own keys (named as the fields), seed,
  /// platform.fabric.routing, then the keys of limits, contexts, collectives and emulator (their
  /// scenario paths).
  static const ParamTable<Config>& keys();

  /// "key=value key=value ..." (no value contains a space; base/ParamCodec.hpp).
  std::string serialize() const;
  /// The inverse; throws std::invalid_argument naming a bad, missing or unknown entry.
  static Config parse(const std::string& text);
};

/// The descriptor on which a PE started on this machine reads its configuration (serialize(), then
/// end of file), given as `shmemsim-emu-pe --config-fd 3`; a PE started over ssh reads it on its
/// standard input (`--config-fd 0`). Never the environment: a process's initial environment stays
/// readable in /proc/PID/environ, and the configuration holds the job's token.
inline constexpr int kConfigFd = 3;
/// The descriptor of the host's shared segment (a memfd) in a PE that has one (Config::shm_ranks).
inline constexpr int kShmFd = 4;

} // namespace shmemsim::emulator
