// A scenario: JSON (file + presets + --set overrides) parsed and validated into plain parameter
// structs. Models never read JSON; this is the only place that does (DESIGN.md).
#pragma once

#include "sim/FatTree.hpp"
#include "sim/Simulation.hpp"
#include "sim/nic/NicParams.hpp"
#include "sim/portals_model/Types.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <map>
#include <string>
#include <vector>

namespace shmemsim::scenarios {

/// Bad input. what() is one line naming the file or argument, the JSON path, the bad value and
/// what is allowed.
class ScenarioError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class Placement { Block, Cyclic };

enum class Pattern { PingPong, Stream, AllToAll, Incast, FetchAdd, Random };
const char* to_string(Pattern p);

/// One built-in Portals-level traffic pattern (the `traffic` key: an object or an array of them,
/// all running concurrently).
struct TrafficParams {
  Pattern pattern          = Pattern::PingPong;
  std::uint64_t size       = 8;   ///< bytes per operation
  std::uint64_t iterations = 100; ///< operations (or rounds) per sending endpoint
  int window               = 16;  ///< operations in flight per endpoint before it waits
  portals::AckReq ack      = portals::AckReq::CtAck;
  int root                 = 0;   ///< pingpong/stream source, incast/fetch_add target
  int peer                 = -1;  ///< pingpong/stream partner; -1: the last endpoint
  bool pairs               = false; ///< stream: endpoint e < n/2 streams to e + n/2
  sim::Ps gap              = 0;   ///< idle time between two issues of one endpoint
  bool volatile_md         = true; ///< source MD marked PTL_MD_VOLATILE
  bool independent_md      = false; ///< source MD marked PTL_MD_INDEPENDENT
  bool verify              = true;  ///< check the data that landed at the end
};

enum class ComputeMode { Counted, Measured, None };

struct JobParams {
  int pes             = 0; ///< endpoints (processes); 0: one per node
  int pes_per_node    = 1;
  Placement placement = Placement::Block;
  std::string program;            ///< for shmemsim-run
  std::vector<std::string> args;
  ComputeMode compute   = ComputeMode::Counted;
  double compute_scale  = 1.0;
  /// job.compute_quantum: simulated compute after which a thread that calls nothing is charged and
  /// yields (time slicing).
  sim::Ps compute_quantum = 2'000'000;
  /// Usable symmetric heap per PE (job.symmetric_heap). The default follows common implementations:
  /// Sandia OpenSHMEM's SHMEM_SYMMETRIC_SIZE defaults to 512 MiB (src/shmem_env_defs.h), NVSHMEM's to
  /// 1 GiB (its environment-variable documentation); shmemsim-run reserves it lazily (MAP_NORESERVE).
  std::uint64_t symmetric_heap = 512ull << 20;
  bool contexts_split   = false; ///< job.contexts.mapping: split (else lean)
  bool contexts_share   = false; ///< job.contexts.on_exhaustion: share (else fail)
  /// job.threads.library_lock: hold time of the library's internal lock, paid by operations on
  /// shared contexts under SHMEM_THREAD_MULTIPLE (0: no cost).
  sim::Ps library_lock = 100'000;
  /// job.threads.per_pe: default OpenMP team size (OMP_NUM_THREADS wins); 0: the node's program
  /// cores divided among its PEs.
  int threads_per_pe = 0;
  /// job.collectives.<what>: algorithm names (barrier, broadcast, collect, reduce).
  std::map<std::string, std::string> collectives;
};

struct PlatformParams {
  std::string preset; ///< empty if none
  bool progress_core = false; ///< platform.nic.progress_core: one core per node runs the NIC's progress thread
  sim::HostParams hosts;
  sim::FabricParams fabric;
  nic::NicParams nic;
  portals::Limits limits;
};

struct Scenario {
  std::string source; ///< file name as given, for messages
  std::uint64_t seed = 0;
  PlatformParams platform;
  JobParams job;
  std::vector<TrafficParams> traffic;
  std::string output_trace = "ops"; ///< output.trace: off, ops or packets (with --out)
  nlohmann::json resolved; ///< every key with its effective value (defaults filled in)
};

/// Load `path`, apply `sets` ("dotted.path=VALUE"; VALUE parsed as JSON if it parses, else a
/// string), resolve presets, validate everything. Throws ScenarioError.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets);
/// Same from JSON text; `source` names it in messages.
Scenario parse_scenario(const std::string& text, const std::string& source, const std::vector<std::string>& sets);

/// Every key with its default, type and meaning, for `shmemsim keys`.
std::string describe_keys();
/// Names of the built-in platform presets.
std::vector<std::string> preset_names();

// Unit parsing, exposed for tests. Each throws std::invalid_argument with a short reason.
sim::Ps parse_time(const std::string& s);            ///< "1.3us", "100ns", "2ms", "0.5s", "500ps"
std::uint64_t parse_bandwidth(const std::string& s); ///< bit/s from "40Gbps", "32Gb/s", "3.2GBps", "25.6Gbit/s"
std::uint64_t parse_size(const std::string& s);      ///< bytes from "4KiB", "2048B", "1MB", "1MiB"
double parse_speed(const std::string& s);            ///< flop/s from "13.32Gf", "1e9f"
/// bytes from SHMEM_SYMMETRIC_SIZE's forms (the OpenSHMEM specification's: "512m", "1G", "3.1m",
/// "1024"; at least the ceiling of number x 2^10/2^20/2^30/2^40), or parse_size's ("64MiB").
std::uint64_t parse_symmetric_size(const std::string& s);

} // namespace shmemsim::scenarios
