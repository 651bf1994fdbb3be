// Scenario loading: JSON text -> --set overrides -> preset merge -> key check -> typed values.
//
// Every key lives in ONE table, schema(): its path, type, default, allowed values, help text and
// the function that stores it into the parameter structs. Validation, defaults, `resolved` and
// describe_keys() are all driven by that table.
#include "scenarios/Scenario.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <sstream>

namespace shmemsim::scenarios {

namespace detail {
// Generated from presets/*.json by cmake/EmbedPresets.cmake.
const char* find_preset(const std::string& name);
std::vector<std::string> preset_list();
// Units.cpp
const char* time_forms();
const char* bandwidth_forms();
const char* size_forms();
const char* speed_forms();
std::string format_time(sim::Ps t);
std::string format_bandwidth(std::uint64_t bps);
std::string format_size(std::uint64_t bytes);
std::string format_speed(double flops);
} // namespace detail

const char* to_string(Pattern p)
{
  switch (p) {
    case Pattern::PingPong:
      return "pingpong";
    case Pattern::Stream:
      return "stream";
    case Pattern::AllToAll:
      return "alltoall";
    case Pattern::Incast:
      return "incast";
    case Pattern::FetchAdd:
      return "fetch_add";
    case Pattern::Random:
      return "random";
  }
  return "?";
}

namespace {

using json = nlohmann::json;

// ---------------------------------------------------------------------------------------------
// The schema
// ---------------------------------------------------------------------------------------------

enum class Kind {
  Int,       ///< JSON integer in [min, max]
  UInt,      ///< JSON non-negative integer (64 bits)
  Bool,
  Str,
  Enum,      ///< one of `choices`
  Time,      ///< "1.3us" -> ps
  Bandwidth, ///< "32Gbps" -> bit/s
  Size,      ///< "4KiB" or a bare integer -> bytes, in [size_min, size_max]
  Speed,     ///< "13.32Gf" -> flop/s
  IntList,   ///< integer or array of integers, each in [min, max]
  StrList,   ///< array of strings
  Number,    ///< JSON number (double) in [min, max]
  Traffic,   ///< the `traffic` object/array; its keys are the Scope::Traffic entries
};

enum class Scope { Root, Traffic };

struct Value {
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d        = 0;
  bool b          = false;
  std::string s;
  std::vector<int> list;
  std::vector<std::string> strings;
  bool scalar = false; ///< IntList given as one integer
  int choice  = 0;     ///< Enum: index into choices
};

/// What is being built: the scenario, plus how down/up were given (scalar: same for each level).
struct Build {
  Scenario sc;
  bool down_scalar = false;
  bool up_scalar   = false;
};

struct Key {
  Scope scope;
  std::string path; ///< dotted, relative to the scope (traffic keys: relative to one pattern)
  Kind kind;
  json def;         ///< default, as JSON input (read like any user value)
  std::string help;
  std::int64_t min        = 0;
  std::int64_t max        = INT_MAX;
  std::uint64_t size_min  = 0;
  std::uint64_t size_max  = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::string> choices = {};
  std::string noun                 = {}; ///< Enum: "routing" in "\"foo\" is not a routing"
  std::function<void(Build&, const Value&)> root           = {};
  std::function<void(TrafficParams&, const Value&)> traffic = {};
};

std::vector<std::string> routing_choices()
{
  return {sim::to_string(sim::Routing::DModK), sim::to_string(sim::Routing::Random),
          sim::to_string(sim::Routing::Adaptive)};
}

std::vector<std::string> pattern_choices()
{
  std::vector<std::string> r;
  for (auto p : {Pattern::PingPong, Pattern::Stream, Pattern::AllToAll, Pattern::Incast, Pattern::FetchAdd,
                 Pattern::Random})
    r.emplace_back(to_string(p));
  return r;
}

std::string preset_help()
{
  std::string names;
  for (const auto& n : detail::preset_list())
    names += (names.empty() ? "" : ", ") + n;
  return "Platform preset: a built-in name (" + names +
         ") or a path ending in .json (relative to the scenario file) to a file {\"platform\": {...}} (a \"description\" string may sit beside it). The "
         "preset is the base; keys given under `platform` override it. \"\": none.";
}

const std::vector<Key>& schema()
{
  static const std::vector<Key> keys = [] {
    using S = Scope;
    using K = Kind;
    const portals::Limits lim{};
    constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();
    constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();
    std::vector<Key> k = {
        {.scope = S::Root, .path = "seed", .kind = K::UInt, .def = 1,
         .help = "Seed of every random stream (routing, jitter, traffic).",
         .root = [](Build& b, const Value& v) { b.sc.seed = v.u; }},
        {.scope = S::Root, .path = "description", .kind = K::Str, .def = "",
         .help = "Free text, ignored.", .root = [](Build&, const Value&) {}},
        {.scope = S::Root, .path = "platform.preset", .kind = K::Str, .def = "", .help = preset_help(),
         .root = [](Build& b, const Value& v) { b.sc.platform.preset = v.s; }},
        {.scope = S::Root, .path = "platform.nodes", .kind = K::Int, .def = 16, .help = "Compute nodes (hosts).",
         .min = 1, .root = [](Build& b, const Value& v) { b.sc.platform.hosts.nodes = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.cores_per_node", .kind = K::Int, .def = 12, .help = "Cores per node.",
         .min = 1,
         .root = [](Build& b, const Value& v) { b.sc.platform.hosts.cores_per_node = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.core_speed", .kind = K::Speed, .def = "13.32Gf",
         .help = "Speed of one core, flop/s.",
         .root = [](Build& b, const Value& v) { b.sc.platform.hosts.core_speed = v.d; }},
        {.scope = S::Root, .path = "platform.fabric.topology", .kind = K::Enum, .def = "fat_tree",
         .help = "Fabric topology.", .choices = {"fat_tree"}, .noun = "topology",
         .root = [](Build&, const Value&) {}},
        {.scope = S::Root, .path = "platform.fabric.levels", .kind = K::Int, .def = 1,
         .help = "Switch levels of the fat tree.", .min = 1, .max = 8,
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.levels = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.fabric.down", .kind = K::IntList, .def = 16,
         .help = "Down ports (children) per switch: one integer for every level, or an array of `levels` "
                 "integers (level 1 first). The tree holds prod(down) nodes.",
         .min = 1, .root = [](Build& b, const Value& v) {
           b.sc.platform.fabric.down = v.list;
           b.down_scalar             = v.scalar;
         }},
        {.scope = S::Root, .path = "platform.fabric.up", .kind = K::IntList, .def = 1,
         .help = "Up ports (parents) per switch below the top: one integer for every such level, or an array "
                 "of `levels`-1 integers (empty when levels is 1).",
         .min = 1, .root = [](Build& b, const Value& v) {
           b.sc.platform.fabric.up = v.list;
           b.up_scalar             = v.scalar;
         }},
        {.scope = S::Root, .path = "platform.fabric.link_bandwidth", .kind = K::Bandwidth, .def = "32Gbps",
         .help = "Data bandwidth of every link, each direction.",
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.link_bandwidth = v.u; }},
        {.scope = S::Root, .path = "platform.fabric.link_latency", .kind = K::Time, .def = "10ns",
         .help = "Propagation delay of every link (cable).",
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.link_latency = v.i; }},
        {.scope = S::Root, .path = "platform.fabric.switch_latency", .kind = K::Time, .def = "100ns",
         .help = "Cut-through forwarding delay of a switch (head in to head out).",
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.switch_latency = v.i; }},
        {.scope = S::Root, .path = "platform.fabric.mtu", .kind = K::Size, .def = "2KiB",
         .help = "Payload bytes per packet.", .size_min = 1, .size_max = kU32Max,
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.mtu = static_cast<std::uint32_t>(v.u); }},
        {.scope = S::Root, .path = "platform.fabric.header_size", .kind = K::Size, .def = "42B",
         .help = "Bytes added to every packet on the wire.", .size_max = kU32Max,
         .root = [](Build& b, const Value& v) {
           b.sc.platform.fabric.header_size = static_cast<std::uint32_t>(v.u);
         }},
        {.scope = S::Root, .path = "platform.fabric.routing", .kind = K::Enum, .def = "dmodk",
         .help = "Uplink choice: dmodk (fixed per destination), random (per packet), adaptive (least-loaded "
                 "uplink).",
         .choices = routing_choices(), .noun = "routing",
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.routing = static_cast<sim::Routing>(v.choice); }},
        {.scope = S::Root, .path = "platform.fabric.jitter", .kind = K::Time, .def = "0ns",
         .help = "Uniform random extra delay in [0, jitter] per switch traversal.",
         .root = [](Build& b, const Value& v) { b.sc.platform.fabric.jitter = v.i; }},
        {.scope = S::Root, .path = "platform.nic.injection_queues", .kind = K::Int, .def = 16,
         .help = "Command/injection queues per NIC.", .min = 1,
         .root = [](Build& b, const Value& v) { b.sc.platform.nic.injection_queues = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.nic.send_overhead", .kind = K::Time, .def = "200ns",
         .help = "NIC processing per operation at the initiator.",
         .root = [](Build& b, const Value& v) { b.sc.platform.nic.send_overhead = v.i; }},
        {.scope = S::Root, .path = "platform.nic.recv_overhead", .kind = K::Time, .def = "200ns",
         .help = "NIC processing per incoming request at the target.",
         .root = [](Build& b, const Value& v) { b.sc.platform.nic.recv_overhead = v.i; }},
        {.scope = S::Root, .path = "platform.nic.pcie_latency", .kind = K::Time, .def = "250ns",
         .help = "One host<->NIC crossing.",
         .root = [](Build& b, const Value& v) { b.sc.platform.nic.pcie_latency = v.i; }},
        {.scope = S::Root, .path = "platform.nic.pcie_bandwidth", .kind = K::Bandwidth, .def = "25.6Gbps",
         .help = "Effective host<->NIC bandwidth, each direction.",
         .root = [](Build& b, const Value& v) { b.sc.platform.nic.pcie_bandwidth = v.u; }},
        {.scope = S::Root, .path = "platform.nic.atomic_overhead", .kind = K::Time, .def = "100ns",
         .help = "Target atomic unit, per read-modify-write.",
         .root = [](Build& b, const Value& v) { b.sc.platform.nic.atomic_overhead = v.i; }},
        {.scope = S::Root, .path = "platform.nic.limits.max_cts", .kind = K::Int, .def = lim.max_cts,
         .help = "Counting events per NI (contexts beyond this fail).", .min = 0,
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_cts = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.nic.limits.max_mds", .kind = K::Int, .def = lim.max_mds,
         .help = "Memory descriptors per NI.", .min = 0,
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_mds = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.nic.limits.max_eqs", .kind = K::Int, .def = lim.max_eqs,
         .help = "Event queues per NI.", .min = 0,
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_eqs = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.nic.limits.max_entries", .kind = K::Int, .def = lim.max_entries,
         .help = "List entries per NI.", .min = 0,
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_entries = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.nic.limits.max_pt_index", .kind = K::Int, .def = lim.max_pt_index,
         .help = "Highest portal table index.", .min = 0,
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_pt_index = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "platform.nic.limits.max_volatile_size", .kind = K::Size,
         .def = detail::format_size(lim.max_volatile_size),
         .help = "Largest put from a volatile MD (completes locally at once).",
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_volatile_size = v.u; }},
        {.scope = S::Root, .path = "platform.nic.limits.max_atomic_size", .kind = K::Size,
         .def = detail::format_size(lim.max_atomic_size), .help = "Largest atomic operation.",
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_atomic_size = v.u; }},
        {.scope = S::Root, .path = "platform.nic.limits.max_fetch_atomic_size", .kind = K::Size,
         .def = detail::format_size(lim.max_fetch_atomic_size), .help = "Largest fetching atomic operation.",
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_fetch_atomic_size = v.u; }},
        {.scope = S::Root, .path = "platform.nic.limits.max_waw_ordered_size", .kind = K::Size,
         .def = detail::format_size(lim.max_waw_ordered_size),
         .help = "Largest put kept in write-after-write order (with total_data_ordering).",
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_waw_ordered_size = v.u; }},
        {.scope = S::Root, .path = "platform.nic.limits.max_msg_size", .kind = K::Size,
         .def = detail::format_size(lim.max_msg_size), .help = "Largest message.",
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.max_msg_size = v.u; }},
        {.scope = S::Root, .path = "platform.nic.progress_core", .kind = K::Bool, .def = false,
         .help = "The NIC's progress thread occupies one core of every node (as Portals over InfiniBand "
                 "did): programs get platform.cores_per_node - 1 cores.",
         .root = [](Build& b, const Value& v) { b.sc.platform.progress_core = v.b; }},
        {.scope = S::Root, .path = "platform.nic.features.total_data_ordering", .kind = K::Bool,
         .def = lim.total_data_ordering,
         .help = "PTL_TOTAL_DATA_ORDERING: puts up to max_waw_ordered_size arrive in order.",
         .root = [](Build& b, const Value& v) { b.sc.platform.limits.total_data_ordering = v.b; }},
        {.scope = S::Root, .path = "job.pes", .kind = K::Int, .def = 0,
         .help = "Endpoints (processes); 0: platform.nodes x job.pes_per_node.", .min = 0,
         .root = [](Build& b, const Value& v) { b.sc.job.pes = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "job.pes_per_node", .kind = K::Int, .def = 1,
         .help = "Endpoints per node.", .min = 1,
         .root = [](Build& b, const Value& v) { b.sc.job.pes_per_node = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "job.placement", .kind = K::Enum, .def = "block",
         .help = "Endpoint to node mapping: block (0,1,.. on node 0) or cyclic (round-robin over nodes).",
         .choices = {"block", "cyclic"}, .noun = "placement",
         .root = [](Build& b, const Value& v) {
           b.sc.job.placement = v.choice == 0 ? Placement::Block : Placement::Cyclic;
         }},
        {.scope = S::Root, .path = "job.threads.library_lock", .kind = K::Time, .def = "100ns",
         .help = "Under SHMEM_THREAD_MULTIPLE, every operation on a shared context (the default one, or one "
                 "created without SHMEM_CTX_PRIVATE/SERIALIZED) holds the library's internal lock this long: "
                 "threads of a PE contend for it (estimate; 0ns: no cost).",
         .root = [](Build& b, const Value& v) { b.sc.job.library_lock = v.i; }},
        {.scope = S::Root, .path = "job.threads.per_pe", .kind = K::Int, .def = 0,
         .help = "Default OpenMP team size of a PE (OMP_NUM_THREADS in the environment wins; \"job\": {\"threads\": N} is short for it); 0: the node's "
                 "program cores divided among its PEs.", .min = 0, .max = 4096,
         .root = [](Build& b, const Value& v) { b.sc.job.threads_per_pe = static_cast<int>(v.i); }},
        {.scope = S::Root, .path = "job.program", .kind = K::Str, .def = "",
         .help = "The OpenSHMEM program (built with shmemsim-cc) for shmemsim-run; its command line gives it too.",
         .root = [](Build& b, const Value& v) { b.sc.job.program = v.s; }},
        {.scope = S::Root, .path = "job.args", .kind = K::StrList, .def = json::array(),
         .help = "The program's arguments (shmemsim-run's command line replaces them).",
         .root = [](Build& b, const Value& v) { b.sc.job.args = v.strings; }},
        {.scope = S::Root, .path = "job.compute", .kind = K::Enum, .def = "counted",
         .help = "How the program's own computation costs simulated time: counted (basic blocks x cost, "
                 "deterministic), measured (CPU time between library calls, noisy), none.",
         .choices = {"counted", "measured", "none"}, .noun = "compute mode",
         .root = [](Build& b, const Value& v) { b.sc.job.compute = static_cast<ComputeMode>(v.choice); }},
        {.scope = S::Root, .path = "job.compute_scale", .kind = K::Number, .def = 1.0,
         .help = "Multiplies simulated computation time (calibration: counted mode charges 4 flop of "
                 "platform.core_speed per basic block).", .min = 0, .max = 1000000,
         .root = [](Build& b, const Value& v) { b.sc.job.compute_scale = v.d; }},
        {.scope = S::Root, .path = "job.compute_quantum", .kind = K::Time, .def = "2us",
         .help = "Time slice: a thread that computes this long (simulated) without calling the library or a "
                 "blocking pthread/OpenMP routine is charged for it and lets other threads and the network run, "
                 "so spin-waits on memory progress; they see a store at most this late (bench/time-slicing: "
                 "2us costs about 10% of wall time on pure computation, 1us about 20%). In none mode a quantum's "
                 "worth of blocks (at core_speed) costs one 100ns poll instead. At least 100ns.",
         .min = 100'000,
         .root = [](Build& b, const Value& v) { b.sc.job.compute_quantum = v.i; }},
        {.scope = S::Root, .path = "job.symmetric_heap", .kind = K::Size, .def = "512MiB",
         .help = "Symmetric heap per PE: what shmem_malloc and the other allocation routines can hand out "
                 "(the library keeps 4 KiB more for its collectives). Reserved as virtual memory: pages cost "
                 "memory only once touched. The default is Sandia OpenSHMEM's (512 MiB; NVSHMEM's is 1 GiB). "
                 "SHMEM_SYMMETRIC_SIZE (or SMA_SYMMETRIC_SIZE) in the environment overrides it.", .size_min = 0,
         .root = [](Build& b, const Value& v) { b.sc.job.symmetric_heap = v.u; }},
        {.scope = S::Root, .path = "job.contexts.mapping", .kind = K::Enum, .def = "lean",
         .help = "Contexts on Portals: lean (the paper's: one CT + one MD per context) or split (a put and "
                 "a get CT/MD pair per context).", .choices = {"lean", "split"}, .noun = "context mapping",
         .root = [](Build& b, const Value& v) { b.sc.job.contexts_split = v.choice == 1; }},
        {.scope = S::Root, .path = "job.contexts.on_exhaustion", .kind = K::Enum, .def = "fail",
         .help = "When CTs/MDs run out: fail (shmem_ctx_create returns non-zero and SHMEM_CTX_INVALID) or "
                 "share (the new context shares the default context's resources).",
         .choices = {"fail", "share"}, .noun = "exhaustion policy",
         .root = [](Build& b, const Value& v) { b.sc.job.contexts_share = v.choice == 1; }},
        // Collective algorithms (shmem_front/lib/collectives.cpp reads them via Runtime::setting).
        {.scope = S::Root, .path = "job.collectives.barrier", .kind = K::Enum, .def = "dissemination",
         .help = "Team/active-set barriers and syncs: dissemination (log2 p rounds) or tree (binomial "
                 "gather and release).", .choices = {"dissemination", "tree"}, .noun = "barrier algorithm",
         .root = [](Build& b, const Value& v) { b.sc.job.collectives["barrier"] = std::vector<std::string>{"dissemination", "tree"}.at(static_cast<std::size_t>(v.choice)); }},
        {.scope = S::Root, .path = "job.collectives.broadcast", .kind = K::Enum, .def = "binomial",
         .help = "Broadcast: binomial tree or linear (the root puts to every PE).",
         .choices = {"binomial", "linear"}, .noun = "broadcast algorithm",
         .root = [](Build& b, const Value& v) { b.sc.job.collectives["broadcast"] = std::vector<std::string>{"binomial", "linear"}.at(static_cast<std::size_t>(v.choice)); }},
        {.scope = S::Root, .path = "job.collectives.collect", .kind = K::Enum, .def = "ring",
         .help = "collect/fcollect: ring (p-1 steps to the right neighbour) or linear (every PE puts to "
                 "every PE).", .choices = {"ring", "linear"}, .noun = "collect algorithm",
         .root = [](Build& b, const Value& v) { b.sc.job.collectives["collect"] = std::vector<std::string>{"ring", "linear"}.at(static_cast<std::size_t>(v.choice)); }},
        {.scope = S::Root, .path = "job.collectives.reduce", .kind = K::Enum, .def = "recursive_doubling",
         .help = "Reductions: recursive_doubling (log2 p rounds of gets), linear (the first PE gets, "
                 "reduces and puts the result) or ring (reduce-scatter + allgather in p chunks).",
         .choices = {"recursive_doubling", "linear", "ring"},
         .noun = "reduction algorithm",
         .root = [](Build& b, const Value& v) { b.sc.job.collectives["reduce"] = std::vector<std::string>{"recursive_doubling", "linear", "ring"}.at(static_cast<std::size_t>(v.choice)); }},
        {.scope = S::Root, .path = "output.trace", .kind = K::Enum, .def = "ops",
         .help = "Detail of the trace recorded with --out DIR (docs/traces.md): off, ops (operations, messages, "
                 "counters, waits, computation), packets (also every packet's hop and queueing). --trace overrides it.",
         .choices = {"off", "ops", "packets"}, .noun = "trace level",
         .root = [](Build& b, const Value& v) { b.sc.output_trace = std::vector<std::string>{"off", "ops", "packets"}.at(static_cast<std::size_t>(v.choice)); }},
        {.scope = S::Root, .path = "traffic", .kind = K::Traffic, .def = json::array({json::object()}),
         .help = "Built-in Portals-level traffic: one pattern object, or an array of them running "
                 "concurrently. Keys of each pattern: traffic.*"},
        // Keys of one traffic pattern.
        {.scope = S::Traffic, .path = "pattern", .kind = K::Enum, .def = "pingpong",
         .help = "pingpong/stream: root <-> peer; alltoall: every endpoint to every other; incast: all to "
                 "root; fetch_add: all fetch-add on root; random: uniformly random targets.",
         .choices = pattern_choices(), .noun = "pattern",
         .traffic = [](TrafficParams& t, const Value& v) { t.pattern = static_cast<Pattern>(v.choice); }},
        {.scope = S::Traffic, .path = "size", .kind = K::Size, .def = "8B",
         .help = "Bytes per operation (an integer is bytes).",
         .traffic = [](TrafficParams& t, const Value& v) { t.size = v.u; }},
        {.scope = S::Traffic, .path = "iterations", .kind = K::Int, .def = 100,
         .help = "Operations (or rounds) per sending endpoint.", .min = 1, .max = kI64Max,
         .traffic = [](TrafficParams& t, const Value& v) { t.iterations = static_cast<std::uint64_t>(v.i); }},
        {.scope = S::Traffic, .path = "window", .kind = K::Int, .def = 16,
         .help = "Operations in flight per endpoint before it waits.", .min = 1,
         .traffic = [](TrafficParams& t, const Value& v) { t.window = static_cast<int>(v.i); }},
        {.scope = S::Traffic, .path = "ack", .kind = K::Enum, .def = "ct",
         .help = "Ack request: ct (PTL_CT_ACK_REQ), oc (PTL_OC_ACK_REQ), none (PTL_NO_ACK_REQ).",
         .choices = {"ct", "oc", "none"}, .noun = "ack type",
         .traffic = [](TrafficParams& t, const Value& v) {
           static const portals::AckReq m[] = {portals::AckReq::CtAck, portals::AckReq::OcAck,
                                               portals::AckReq::NoAck};
           t.ack = m[v.choice];
         }},
        {.scope = S::Traffic, .path = "root", .kind = K::Int, .def = 0,
         .help = "pingpong/stream source, incast/fetch_add target.", .min = 0,
         .traffic = [](TrafficParams& t, const Value& v) { t.root = static_cast<int>(v.i); }},
        {.scope = S::Traffic, .path = "peer", .kind = K::Int, .def = -1,
         .help = "pingpong/stream partner; -1: the last endpoint.", .min = -1,
         .traffic = [](TrafficParams& t, const Value& v) { t.peer = static_cast<int>(v.i); }},
        {.scope = S::Traffic, .path = "pairs", .kind = K::Bool, .def = false,
         .help = "stream: every endpoint e of the first half streams to e + n/2 (root and peer ignored).",
         .traffic = [](TrafficParams& t, const Value& v) { t.pairs = v.b; }},
        {.scope = S::Traffic, .path = "gap", .kind = K::Time, .def = "0ns",
         .help = "Idle time between two issues of one endpoint.",
         .traffic = [](TrafficParams& t, const Value& v) { t.gap = v.i; }},
        {.scope = S::Traffic, .path = "volatile", .kind = K::Bool, .def = true,
         .help = "Source MD marked PTL_MD_VOLATILE.",
         .traffic = [](TrafficParams& t, const Value& v) { t.volatile_md = v.b; }},
        {.scope = S::Traffic, .path = "independent", .kind = K::Bool, .def = false,
         .help = "Source MD marked PTL_MD_INDEPENDENT (own injection queue while queues last).",
         .traffic = [](TrafficParams& t, const Value& v) { t.independent_md = v.b; }},
        {.scope = S::Traffic, .path = "verify", .kind = K::Bool, .def = true,
         .help = "Check the data that landed at the end.",
         .traffic = [](TrafficParams& t, const Value& v) { t.verify = v.b; }},
    };
    return k;
  }();
  return keys;
}

const Key* find_key(Scope scope, const std::string& path)
{
  for (const auto& k : schema())
    if (k.scope == scope && k.path == path)
      return &k;
  return nullptr;
}

/// Distinct next path segments below `prefix` ("" or "platform.fabric."), in table order.
std::vector<std::string> children(Scope scope, const std::string& prefix)
{
  std::vector<std::string> r;
  for (const auto& k : schema()) {
    if (k.scope != scope || k.path.compare(0, prefix.size(), prefix) != 0 || k.path.size() == prefix.size())
      continue;
    std::string rest = k.path.substr(prefix.size());
    std::string seg  = rest.substr(0, rest.find('.'));
    if (std::find(r.begin(), r.end(), seg) == r.end())
      r.push_back(seg);
  }
  return r;
}

bool is_branch(Scope scope, const std::string& path)
{
  for (const auto& k : schema())
    if (k.scope == scope && k.path.size() > path.size() && k.path.compare(0, path.size(), path) == 0 &&
        k.path[path.size()] == '.')
      return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A problem at a JSON path; the caller adds the source (file, preset or --set argument).
struct Fail {
  std::string path;
  std::string problem;
};

std::string show(const json& v)
{
  std::string s = v.dump();
  if (s.size() > 80)
    s = s.substr(0, 77) + "...";
  return s;
}

std::string join(const std::vector<std::string>& v, const char* sep = ", ")
{
  std::string r;
  for (std::size_t i = 0; i < v.size(); ++i)
    r += (i ? sep : "") + v[i];
  return r;
}

/// "a, b or c"
std::string join_or(const std::vector<std::string>& v)
{
  std::string r;
  for (std::size_t i = 0; i < v.size(); ++i)
    r += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
  return r;
}

std::string article(const std::string& noun)
{
  return (!noun.empty() && std::strchr("aeiou", noun[0])) ? "an " + noun : "a " + noun;
}

/// Optimal string alignment distance (Levenshtein plus transpositions).
std::size_t edit_distance(const std::string& a, const std::string& b)
{
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j]          = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string unknown_key_problem(const std::string& key, const std::vector<std::string>& valid)
{
  std::string msg = "unknown key; valid keys here: " + join(valid);
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& v : valid) {
    std::size_t d = edit_distance(key, v);
    if (d < best_d) {
      best_d = d;
      best   = v;
    }
  }
  if (!best.empty() && best_d <= std::max<std::size_t>(1, std::max(key.size(), best.size()) / 3))
    msg += " (did you mean '" + best + "'?)";
  return msg;
}

/// Path segments of "platform.fabric.down[1]" / "traffic[0].size".
struct Seg {
  std::string name; ///< empty for an array index
  std::size_t index = 0;
};

std::vector<Seg> split_path(const std::string& path)
{
  std::vector<Seg> r;
  std::string cur;
  for (std::size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '.' || c == '[') {
      if (!cur.empty())
        r.push_back({cur, 0});
      cur.clear();
      if (c == '[') {
        std::size_t close = path.find(']', i);
        r.push_back({"", static_cast<std::size_t>(std::stoull(path.substr(i + 1, close - i - 1)))});
        i = close;
      }
    } else {
      cur += c;
    }
  }
  if (!cur.empty())
    r.push_back({cur, 0});
  return r;
}

const json* find_at(const json& root, const std::string& path)
{
  const json* cur = &root;
  for (const auto& s : split_path(path)) {
    if (!s.name.empty()) {
      if (!cur->is_object())
        return nullptr;
      auto it = cur->find(s.name);
      if (it == cur->end())
        return nullptr;
      cur = &*it;
    } else {
      if (!cur->is_array() || s.index >= cur->size())
        return nullptr;
      cur = &(*cur)[s.index];
    }
  }
  return cur;
}

void set_at(json& root, const std::string& dotted, json v)
{
  json* cur = &root;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = dotted.find('.', start);
    std::string seg = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos) {
      (*cur)[seg] = std::move(v);
      return;
    }
    cur   = &(*cur)[seg];
    start = dot + 1;
  }
}

/// a and b name the same value, or one lies inside the other.
bool related(const std::string& a, const std::string& b)
{
  auto inside = [](const std::string& inner, const std::string& outer) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           (inner[outer.size()] == '.' || inner[outer.size()] == '[');
  };
  return a == b || inside(a, b) || inside(b, a);
}

json deep_merge(const json& base, const json& over)
{
  if (!base.is_object() || !over.is_object())
    return over;
  json r = base;
  for (auto it = over.begin(); it != over.end(); ++it)
    r[it.key()] = r.contains(it.key()) ? deep_merge(r[it.key()], it.value()) : it.value();
  return r;
}

bool read_file(const std::string& path, std::string& out, std::string& err)
{
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    err = std::strerror(errno);
    return false;
  }
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    out.append(buf, n);
  bool bad = std::ferror(f);
  int e    = errno;
  std::fclose(f);
  if (bad) {
    err = std::strerror(e);
    return false;
  }
  return true;
}

json parse_json(const std::string& text, const std::string& source)
{
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    std::size_t line = 1, col = 1;
    std::size_t upto = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, text.size());
    for (std::size_t i = 0; i < upto; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    std::size_t at   = what.find("parse error");
    std::string reason = what;
    if (at != std::string::npos) {
      std::size_t colon = what.find(": ", at);
      if (colon != std::string::npos)
        reason = what.substr(colon + 2);
    }
    for (char& c : reason)
      if (c == '\n' || c == '\r' || c == '\t')
        c = ' ';
    throw ScenarioError(source + ":" + std::to_string(line) + ":" + std::to_string(col) +
                        ": malformed JSON: " + reason);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading one value
// ---------------------------------------------------------------------------------------------

std::string int_range(const Key& k)
{
  if (k.max == INT_MAX || k.max == std::numeric_limits<std::int64_t>::max())
    return "an integer >= " + std::to_string(k.min);
  return "an integer between " + std::to_string(k.min) + " and " + std::to_string(k.max);
}

bool get_int(const json& v, const Key& k, std::int64_t& out)
{
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return false;
    out = static_cast<std::int64_t>(u);
  } else if (v.is_number_integer()) {
    out = v.get<std::int64_t>();
  } else {
    return false;
  }
  return out >= k.min && out <= k.max;
}

std::uint64_t parse_with(const json& v, const std::string& path, const char* noun, const char* forms,
                         const std::function<std::uint64_t(const std::string&)>& parse)
{
  if (!v.is_string())
    throw Fail{path, show(v) + " is not " + noun + " (units are required); " + forms};
  try {
    return parse(v.get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw Fail{path, e.what()};
  }
}

Value read_value(const Key& k, const json& v, const std::string& path)
{
  Value r;
  switch (k.kind) {
    case Kind::Int:
      if (!get_int(v, k, r.i))
        throw Fail{path, "expected " + int_range(k) + ", got " + show(v)};
      break;
    case Kind::UInt:
      if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0))
        r.u = v.get<std::uint64_t>();
      else
        throw Fail{path, "expected a non-negative integer, got " + show(v)};
      break;
    case Kind::Bool:
      if (!v.is_boolean())
        throw Fail{path, "expected true or false, got " + show(v)};
      r.b = v.get<bool>();
      break;
    case Kind::Str:
      if (!v.is_string())
        throw Fail{path, "expected a string, got " + show(v)};
      r.s = v.get<std::string>();
      break;
    case Kind::Enum: {
      auto it = v.is_string() ? std::find(k.choices.begin(), k.choices.end(), v.get<std::string>()) : k.choices.end();
      if (it == k.choices.end())
        throw Fail{path, show(v) + " is not " + article(k.noun) + "; choose " + join_or(k.choices)};
      r.choice = static_cast<int>(it - k.choices.begin());
      break;
    }
    case Kind::Time:
      r.i = static_cast<std::int64_t>(
          parse_with(v, path, "a time", detail::time_forms(), [](const std::string& s) {
            return static_cast<std::uint64_t>(parse_time(s));
          }));
      if (r.i < k.min)
        throw Fail{path, "expected at least " + detail::format_time(k.min) + ", got " + show(v)};
      break;
    case Kind::Bandwidth:
      r.u = parse_with(v, path, "a bandwidth", detail::bandwidth_forms(), parse_bandwidth);
      break;
    case Kind::Speed: {
      if (!v.is_string())
        throw Fail{path, show(v) + " is not a speed (units are required); " + detail::speed_forms()};
      try {
        r.d = parse_speed(v.get<std::string>());
      } catch (const std::invalid_argument& e) {
        throw Fail{path, e.what()};
      }
      break;
    }
    case Kind::Size: {
      if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
        r.u = v.get<std::uint64_t>();
      } else if (v.is_string()) {
        try {
          r.u = parse_size(v.get<std::string>());
        } catch (const std::invalid_argument& e) {
          throw Fail{path, e.what()};
        }
      } else {
        throw Fail{path, show(v) + " is not a size; " + detail::size_forms() + ", or an integer number of bytes"};
      }
      if (r.u < k.size_min || r.u > k.size_max) {
        std::string range = k.size_max == std::numeric_limits<std::uint64_t>::max()
                                ? "at least " + std::to_string(k.size_min) + "B"
                                : "between " + std::to_string(k.size_min) + "B and " + std::to_string(k.size_max) + "B";
        throw Fail{path, show(v) + " is out of range; expected a size " + range};
      }
      break;
    }
    case Kind::StrList:
      if (!v.is_array())
        throw Fail{path, "expected an array of strings, got " + show(v)};
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
          throw Fail{path + "[" + std::to_string(i) + "]", "expected a string, got " + show(v[i])};
        r.strings.push_back(v[i].get<std::string>());
      }
      break;
    case Kind::Number:
      if (!v.is_number() || v.get<double>() < static_cast<double>(k.min) || v.get<double>() > static_cast<double>(k.max))
        throw Fail{path, "expected a number between " + std::to_string(k.min) + " and " + std::to_string(k.max) + ", got " + show(v)};
      r.d = v.get<double>();
      break;
    case Kind::IntList: {
      std::string what = int_range(k);
      auto elem_error  = [&](const std::string& p, const json& e) {
        return Fail{p, "expected " + what + " or an array of them, got " + show(e)};
      };
      std::int64_t x = 0;
      if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (!get_int(v[i], k, x))
            throw elem_error(path + "[" + std::to_string(i) + "]", v[i]);
          r.list.push_back(static_cast<int>(x));
        }
      } else if (get_int(v, k, x)) {
        r.list   = {static_cast<int>(x)};
        r.scalar = true;
      } else {
        throw elem_error(path, v);
      }
      break;
    }
    case Kind::Traffic:
      break;
  }
  return r;
}

json canonical(const Key& k, const Value& v)
{
  switch (k.kind) {
    case Kind::Int:
      return v.i;
    case Kind::UInt:
      return v.u;
    case Kind::Bool:
      return v.b;
    case Kind::Str:
      return v.s;
    case Kind::Enum:
      return k.choices[static_cast<std::size_t>(v.choice)];
    case Kind::Time:
      return detail::format_time(v.i);
    case Kind::Bandwidth:
      return detail::format_bandwidth(v.u);
    case Kind::Size:
      return detail::format_size(v.u);
    case Kind::Speed:
      return detail::format_speed(v.d);
    case Kind::IntList:
      return v.list;
    case Kind::StrList:
      return v.strings;
    case Kind::Number:
      return v.d;
    case Kind::Traffic:
      break;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// The loader
// ---------------------------------------------------------------------------------------------

class Loader {
public:
  Loader(std::string source, std::filesystem::path base_dir) : source_(std::move(source)), base_dir_(std::move(base_dir)) {}

  Scenario load(const std::string& text, const std::vector<std::string>& sets)
  {
    json doc = parse_json(text, source_);
    if (!doc.is_object())
      throw ScenarioError(source_ + ": expected a JSON object at the top level, got " + std::string(doc.type_name()));
    for (const auto& s : sets)
      apply_set(doc, s);
    scenario_ = doc;
    try {
      json merged = resolve_preset(doc);
      // "job": {"threads": N} is short for job.threads.per_pe (DESIGN.md's job.threads).
      if (merged.contains("job") && merged["job"].is_object() && merged["job"].contains("threads") &&
          merged["job"]["threads"].is_number())
        merged["job"]["threads"] = json{{"per_pe", merged["job"]["threads"]}};
      check_keys(merged, Scope::Root, "", "");
      return build(merged);
    } catch (const Fail& f) {
      throw ScenarioError(origin(f.path) + ": " + f.path + ": " + f.problem);
    }
  }

private:
  struct SetRecord {
    std::string arg;
    std::string path;
  };

  [[noreturn]] void set_error(const std::string& arg, const std::string& problem)
  {
    throw ScenarioError("--set " + arg + ": " + problem);
  }

  void apply_set(json& doc, const std::string& arg)
  {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos)
      set_error(arg, "expected dotted.path=VALUE, e.g. --set platform.fabric.routing=adaptive");
    std::string path = arg.substr(0, eq);
    std::string text = arg.substr(eq + 1);
    std::vector<std::string> segs;
    std::size_t start = 0;
    while (true) {
      std::size_t dot = path.find('.', start);
      segs.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos)
        break;
      start = dot + 1;
    }
    for (const auto& s : segs)
      if (s.empty())
        set_error(arg, "\"" + path + "\" is not a dotted key path; expected dotted.path=VALUE, e.g. --set "
                                     "platform.fabric.routing=adaptive");
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded())
      value = text;

    json* cur = &doc;
    std::string shown;
    for (std::size_t i = 0; i < segs.size(); ++i) {
      const std::string& s = segs[i];
      const bool last      = i + 1 == segs.size();
      const bool numeric   = s.find_first_not_of("0123456789") == std::string::npos;
      if (cur->is_array() && numeric && std::stoull(s) < cur->size()) {
        shown += "[" + s + "]";
        cur = &(*cur)[std::stoull(s)];
        if (last)
          *cur = value;
        continue;
      }
      if (cur->is_array() && numeric)
        set_error(arg, shown + " has " + std::to_string(cur->size()) + " element" + (cur->size() == 1 ? "" : "s") +
                           "; index " + s + " is out of range");
      if (cur->is_array())
        set_error(arg, shown + " is an array of " + std::to_string(cur->size()) + "; name an element by index, e.g. " +
                           shown + ".0." + s);
      if (!cur->is_object())
        set_error(arg, (shown.empty() ? std::string("the scenario") : shown) + " is " + show(*cur) +
                           ", not an object; cannot set " + path);
      shown += (shown.empty() ? "" : ".") + s;
      if (last) {
        (*cur)[s] = value;
      } else {
        if (!cur->contains(s))
          (*cur)[s] = json::object();
        cur = &(*cur)[s];
      }
    }
    sets_.push_back({arg, shown});
  }

  /// Reads and merges platform.preset; returns the merged document.
  json resolve_preset(const json& doc)
  {
    const json* p = find_at(doc, "platform.preset");
    if (!p)
      return doc;
    if (!p->is_string())
      throw Fail{"platform.preset", "expected a string (a preset name or a path to a .json file), got " + show(*p)};
    std::string name = p->get<std::string>();
    if (name.empty())
      return doc;
    std::string text;
    if (name.size() > 5 && name.ends_with(".json")) {
      std::filesystem::path file = name;
      if (file.is_relative())
        file = base_dir_ / file;
      preset_source_ = file.string();
      std::string err;
      if (!read_file(preset_source_, text, err))
        throw Fail{"platform.preset", "cannot read preset file " + preset_source_ + ": " + err};
    } else {
      const char* builtin = detail::find_preset(name);
      if (!builtin) {
        std::vector<std::string> names = detail::preset_list();
        names.push_back("a path to a .json file");
        throw Fail{"platform.preset", show(*p) + " is not a preset; choose " + join_or(names)};
      }
      preset_source_ = "preset " + name;
      text           = builtin;
    }
    preset_ = parse_json(text, preset_source_);
    auto perr = [&](const std::string& path, const std::string& problem) {
      throw ScenarioError(preset_source_ + ": " + (path.empty() ? "" : path + ": ") + problem);
    };
    if (!preset_.is_object())
      perr("", "expected a JSON object {\"platform\": {...}}, got " + std::string(preset_.type_name()));
    for (auto it = preset_.begin(); it != preset_.end(); ++it) {
      if (it.key() == "description") {
        if (!it->is_string())
          perr("description", "expected a string, got " + show(*it));
      } else if (it.key() != "platform") {
        perr(it.key(), unknown_key_problem(it.key(), {"platform", "description"}));
      }
    }
    if (!preset_.contains("platform") || !preset_["platform"].is_object())
      perr("platform", "expected an object with the platform keys, e.g. {\"platform\": {\"nodes\": 16}}");
    if (preset_["platform"].contains("preset"))
      perr("platform.preset", "a preset cannot name another preset; remove this key");
    json merged        = doc;
    merged["platform"] = deep_merge(preset_["platform"], doc["platform"]);
    return merged;
  }

  /// Which input a problem at `path` comes from: a --set argument, the preset or the scenario.
  std::string origin(const std::string& path) const
  {
    for (auto it = sets_.rbegin(); it != sets_.rend(); ++it)
      if (related(it->path, path))
        return "--set " + it->arg;
    if (!preset_.is_null() && find_at(preset_, path) && !find_at(scenario_, path))
      return preset_source_;
    return source_;
  }

  /// Every key present must be in the schema; branches must be objects.
  void check_keys(const json& obj, Scope scope, const std::string& rel_prefix, const std::string& shown_prefix)
  {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string rel   = rel_prefix + it.key();
      const std::string shown = shown_prefix + it.key();
      if (const Key* k = find_key(scope, rel)) {
        if (k->kind == Kind::Traffic)
          check_traffic(*it);
        continue;
      }
      if (is_branch(scope, rel)) {
        if (!it->is_object())
          throw Fail{shown, "expected an object with keys " + join(children(scope, rel + ".")) + ", got " + show(*it)};
        check_keys(*it, scope, rel + ".", shown + ".");
        continue;
      }
      throw Fail{shown, unknown_key_problem(it.key(), children(scope, rel_prefix))};
    }
  }

  void check_traffic(const json& t)
  {
    if (t.is_object()) {
      check_keys(t, Scope::Traffic, "", "traffic.");
    } else if (t.is_array()) {
      for (std::size_t i = 0; i < t.size(); ++i) {
        std::string p = "traffic[" + std::to_string(i) + "]";
        if (!t[i].is_object())
          throw Fail{p, "expected an object (one traffic pattern), got " + show(t[i])};
        check_keys(t[i], Scope::Traffic, "", p + ".");
      }
    } else {
      throw Fail{"traffic", "expected an object or an array of objects (traffic patterns), got " + show(t)};
    }
  }

  Scenario build(const json& doc)
  {
    Build b;
    b.sc.source = source_;
    json resolved = json::object();
    for (const auto& k : schema()) {
      if (k.scope != Scope::Root || k.kind == Kind::Traffic)
        continue;
      const json* v = find_at(doc, k.path);
      Value val     = read_value(k, v ? *v : k.def, k.path);
      k.root(b, val);
      set_at(resolved, k.path, canonical(k, val));
    }

    // Fabric shape: scalars mean "the same for every level".
    auto& f           = b.sc.platform.fabric;
    const auto levels = static_cast<std::size_t>(f.levels);
    if (b.down_scalar)
      f.down.assign(levels, f.down.front());
    if (b.up_scalar)
      f.up.assign(levels - 1, f.up.front());
    if (std::string err = f.check(); !err.empty())
      throw Fail{"platform.fabric", err};
    resolved["platform"]["fabric"]["down"] = f.down;
    resolved["platform"]["fabric"]["up"]   = f.up;
    const auto& hosts = b.sc.platform.hosts;
    if (hosts.nodes > f.capacity()) {
      std::string down;
      for (int d : f.down)
        down += (down.empty() ? "" : ", ") + std::to_string(d);
      throw Fail{"platform.nodes", std::to_string(hosts.nodes) + " nodes do not fit a fat tree of capacity " +
                                       std::to_string(f.capacity()) + " (levels " + std::to_string(f.levels) +
                                       ", down [" + down + "]); raise platform.fabric.down or levels"};
    }

    // Job.
    auto& job               = b.sc.job;
    const std::int64_t room = std::int64_t{hosts.nodes} * job.pes_per_node;
    if (job.pes == 0) {
      if (room > INT_MAX)
        throw Fail{"job.pes_per_node", std::to_string(room) + " endpoints in all is too many; at most " +
                                           std::to_string(INT_MAX)};
      job.pes = static_cast<int>(room);
    } else if (job.pes > room) {
      throw Fail{"job.pes", std::to_string(job.pes) + " endpoints do not fit " + std::to_string(hosts.nodes) +
                                " nodes x " + std::to_string(job.pes_per_node) +
                                " pes_per_node = " + std::to_string(room) +
                                "; raise job.pes_per_node or platform.nodes"};
    }
    resolved["job"]["pes"] = job.pes;

    // Traffic.
    const json* t = find_at(doc, "traffic");
    std::vector<std::pair<json, std::string>> patterns; // (object, path prefix)
    if (!t)
      patterns.emplace_back(json::object(), "traffic.");
    else if (t->is_object())
      patterns.emplace_back(*t, "traffic.");
    else
      for (std::size_t i = 0; i < t->size(); ++i)
        patterns.emplace_back((*t)[i], "traffic[" + std::to_string(i) + "].");
    resolved["traffic"] = json::array();
    for (const auto& [obj, prefix] : patterns) {
      TrafficParams tp;
      json out = json::object();
      for (const auto& k : schema()) {
        if (k.scope != Scope::Traffic)
          continue;
        const json* v = find_at(obj, k.path);
        Value val     = read_value(k, v ? *v : k.def, prefix + k.path);
        k.traffic(tp, val);
        set_at(out, k.path, canonical(k, val));
      }
      check_traffic_params(tp, prefix, job.pes);
      b.sc.traffic.push_back(tp);
      resolved["traffic"].push_back(std::move(out));
    }
    b.sc.resolved = std::move(resolved);
    return std::move(b.sc);
  }

  static void check_traffic_params(const TrafficParams& t, const std::string& prefix, int n)
  {
    const std::string range = "expected 0.." + std::to_string(n - 1) + " (the job has " + std::to_string(n) +
                              " endpoint" + (n == 1 ? "" : "s") + ")";
    if (t.root >= n)
      throw Fail{prefix + "root", std::to_string(t.root) + " is not an endpoint; " + range};
    if (t.peer >= n)
      throw Fail{prefix + "peer", std::to_string(t.peer) + " is not an endpoint; " + range + ", or -1 for the last"};
    const char* name = to_string(t.pattern);
    if (t.pattern == Pattern::PingPong || t.pattern == Pattern::Stream) {
      if (n < 2)
        throw Fail{prefix + "pattern", std::string(name) + " needs at least 2 endpoints, the job has " +
                                           std::to_string(n) + "; raise job.pes, job.pes_per_node or platform.nodes"};
      int peer = t.peer == -1 ? n - 1 : t.peer;
      if (peer == t.root && !(t.pattern == Pattern::Stream && t.pairs))
        throw Fail{prefix + "peer",
                   (t.peer == -1 ? "-1 means the last endpoint (" + std::to_string(peer) + "), which is the root"
                                 : std::to_string(t.peer) + " is the root") +
                       "; " + name + " needs a peer other than the root (0.." + std::to_string(n - 1) + ")"};
    }
    if (t.pattern == Pattern::FetchAdd && t.size != 8)
      throw Fail{prefix + "size", "\"" + detail::format_size(t.size) +
                                      "\" is not valid for fetch_add, which adds 8-byte integers; use 8"};
  }

  std::string source_;
  std::filesystem::path base_dir_;
  json scenario_;
  json preset_;
  std::string preset_source_;
  std::vector<SetRecord> sets_;
};

std::string pad(std::string s, std::size_t w)
{
  if (s.size() < w)
    s.append(w - s.size(), ' ');
  else
    s += "  ";
  return s;
}

} // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets)
{
  std::string text, err;
  if (!read_file(path, text, err))
    throw ScenarioError(path + ": cannot read scenario file: " + err);
  return parse_scenario(text, path, sets);
}

Scenario parse_scenario(const std::string& text, const std::string& source, const std::vector<std::string>& sets)
{
  Loader l(source, std::filesystem::path(source).parent_path());
  return l.load(text, sets);
}

std::vector<std::string> preset_names()
{
  return detail::preset_list();
}

std::string describe_keys()
{
  std::ostringstream o;
  o << "Scenario keys. Every key has a default, so {} is a valid scenario; nested objects, shown\n"
       "dotted here. --set dotted.path=VALUE overrides any key (VALUE is JSON if it parses, else a string).\n"
       "Units are strings:\n"
       "  time       "
    << detail::time_forms() << "\n  bandwidth  " << detail::bandwidth_forms() << "\n  size       "
    << detail::size_forms() << " (a bare integer is bytes)\n  speed      " << detail::speed_forms() << "\n\n";
  auto type_of = [](const Key& k) -> std::string {
    switch (k.kind) {
      case Kind::Int:
        return int_range(k);
      case Kind::UInt:
        return "non-negative integer";
      case Kind::Bool:
        return "true | false";
      case Kind::Str:
        return "string";
      case Kind::Enum:
        return join(k.choices, " | ");
      case Kind::Time:
        return "time";
      case Kind::Bandwidth:
        return "bandwidth";
      case Kind::Size:
        return "size";
      case Kind::Speed:
        return "speed";
      case Kind::IntList:
        return int_range(k) + ", or an array of them";
      case Kind::StrList:
        return "array of strings";
      case Kind::Number:
        return "number";
      case Kind::Traffic:
        return "object or array of objects";
    }
    return "";
  };
  for (const auto& k : schema()) {
    std::string name = k.scope == Scope::Traffic ? "traffic." + k.path : k.path;
    std::string def  = k.kind == Kind::Traffic || k.kind == Kind::IntList || k.kind == Kind::StrList
                           ? k.def.dump()
                           : canonical(k, read_value(k, k.def, name)).dump();
    o << pad(name, 44) << pad("default " + def, 26) << "(" << type_of(k) << ")\n";
    o << "    " << k.help << "\n";
  }
  return o.str();
}

} // namespace shmemsim::scenarios
