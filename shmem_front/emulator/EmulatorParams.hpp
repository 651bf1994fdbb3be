// Emulator parameters (emulator.* keys): the delay and reordering injected above TCP between
// emulated PEs, the watchdog and the address the job listens on (docs/emulator.md), declared
// beside the emulator that consumes them. Used by `shmemsim-run --emulate` only; the simulator
// ignores them. The platform's job.contexts.* and platform.nic.limits.* keys keep their meaning in
// emulation. Times stay in picoseconds here: the emulator converts them where it sleeps
// (Injector.hpp).
#pragma once

#include "base/Params.hpp"
#include "base/Time.hpp"
#include "base/Units.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::emulator {

struct EmulatorParams {
  /// Injected one-way delay of every message (0: none; loopback TCP itself takes some microseconds).
  Ps latency = 0;
  /// Injected serialization delay: size / bandwidth; "none" (the default): no such delay. A string:
  /// bandwidth keys refuse 0, and "none" must survive the resolved scenario.
  std::string bandwidth = "none";
  /// Uniform random extra delay in [0, jitter], seeded (seed): it reorders messages too.
  Ps jitter = 0;
  /// Probability that a request is held back until later requests of the same pair overtake it.
  double reorder_probability = 0;
  /// A held request waits for 1..max_depth later ones (uniform), at most max_hold.
  int reorder_max_depth = 4;
  /// 200 us: several loopback round trips (about 10-30 us each measured here), so that a held
  /// request is usually overtaken before its deadline when the program keeps issuing.
  Ps reorder_max_hold = 200'000'000;
  /// No PE made a library call, received a message or used CPU time for this long: a deadlock
  /// (exit status 3). 60 s: longer than any start-up or collective of the test programs by far.
  Ps stall_timeout = 60 * kPsPerSecond;
  /// Print every injected decision on stderr (one line each), to compare runs.
  bool log_decisions = false;
  /// The address the bootstrap service and the PEs listen on (loopback by default).
  std::string host = "127.0.0.1";
  /// The hosts the PEs run on (empty: all on this machine, on `host`); --hosts FILE gives them too.
  std::vector<std::string> hosts;
  /// Which hosts' PEs start over ssh: "auto" those that are not an address of this machine,
  /// "ssh" every host's, this machine's too (tests the ssh path on one machine).
  bool ssh_every_host = false;
  /// The command that starts a PE on another host, split at spaces; the host and the remote
  /// command follow it (as Open MPI's plm_rsh_agent).
  std::string ssh = "ssh -o BatchMode=yes -T";
  /// TCP connections per pair of PEs, used as paths as platform.fabric.routing says.
  int paths = 1;
  /// Between PEs forked on the same host: "auto" (false) rings in shared memory (with
  /// emulator.paths = 1), "tcp" (true) TCP as between hosts.
  bool tcp_only = false;

  /// `bandwidth` in bit/s; 0 for "none". Throws std::invalid_argument (parse_bandwidth's reason)
  /// when it is neither (the launcher reports it before any PE starts).
  std::uint64_t bandwidth_bps() const { return bandwidth == "none" ? 0 : parse_bandwidth(bandwidth); }

  static const ParamTable<EmulatorParams>& keys();
};

inline const ParamTable<EmulatorParams>& EmulatorParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  using shmemsim::mapped;
  static const ParamTable<EmulatorParams> table = {
      {.path  = "emulator.latency",
       .kind  = K::Time,
       .doc   = "Emulation: delay injected into every message between PEs, above TCP (0: none).",
       .field = field(&EmulatorParams::latency)},
      {.path  = "emulator.bandwidth",
       .kind  = K::Str,
       .doc   = "Emulation: each message is also delayed by its size / this bandwidth (e.g. \"10Gbps\"; "
                "\"none\": no such delay).",
       .field = field(&EmulatorParams::bandwidth)},
      {.path  = "emulator.jitter",
       .kind  = K::Time,
       .doc   = "Emulation: uniform random extra delay in [0, jitter] per message, from the run's seed; "
                "messages of a pair overtake each other when it exceeds their spacing.",
       .field = field(&EmulatorParams::jitter)},
      {.path  = "emulator.reorder.probability",
       .kind  = K::Number,
       .doc   = "Emulation: probability that a request (put, get, AMO) is held back until 1..max_depth later "
                "requests to the same PE have overtaken it (seeded).",
       .field = field(&EmulatorParams::reorder_probability),
       .min   = 0,
       .max   = 1},
      {.path  = "emulator.reorder.max_depth",
       .kind  = K::Int,
       .doc   = "Emulation: most later requests a held one waits for (uniform in 1..max_depth).",
       .field = field(&EmulatorParams::reorder_max_depth),
       .min   = 1,
       .max   = 1024},
      {.path  = "emulator.reorder.max_hold",
       .kind  = K::Time,
       .doc   = "Emulation: longest a held request waits for others to overtake it (then it goes).",
       .field = field(&EmulatorParams::reorder_max_hold)},
      {.path  = "emulator.stall_timeout",
       .kind  = K::Time,
       .doc   = "Emulation: no PE called the library, received a message or used CPU time for this long: a "
                "deadlock, the job ends with status 3 naming where each PE waits (0s: never).",
       .field = field(&EmulatorParams::stall_timeout)},
      {.path  = "emulator.log_decisions",
       .kind  = K::Bool,
       .doc   = "Emulation: print every injected delay and reordering decision on stderr (compare runs).",
       .field = field(&EmulatorParams::log_decisions)},
      {.path  = "emulator.host",
       .kind  = K::Str,
       .doc   = "Emulation: the IPv4 address the launcher's bootstrap service and the PEs listen on.",
       .field = field(&EmulatorParams::host)},
      {.path  = "emulator.hosts",
       .kind  = K::StrList,
       .doc   = "Emulation: the hosts the PEs run on, placed as job.placement says (block: consecutive PEs "
                "share a host; cyclic: round-robin); a host that is an address of this machine (127.0.0.2 "
                "...) gets its PEs forked here, listening on that address; any other is reached with ssh. "
                "Empty: every PE here on emulator.host. --hosts FILE (one host per line) sets it.",
       .field = field(&EmulatorParams::hosts)},
      {.path    = "emulator.launch",
       .kind    = K::Enum,
       .doc     = "Emulation: \"auto\": PEs on an address of this machine are forked here, the others started with "
                  "emulator.ssh; \"ssh\": every host's PEs are started with emulator.ssh, this machine's too.",
       .field   = mapped(&EmulatorParams::ssh_every_host, {false, true}),
       .choices = {"auto", "ssh"},
       .noun    = "launch mode"},
      {.path  = "emulator.ssh",
       .kind  = K::Str,
       .doc   = "Emulation: the command that starts a PE on another host, split at spaces, followed by the host "
                "and the remote command (e.g. \"ssh -F my_config -T\").",
       .field = field(&EmulatorParams::ssh)},
      {.path  = "emulator.paths",
       .kind  = K::Int,
       .doc   = "Emulation: TCP connections per pair of PEs, used as paths: each message takes one as "
                "platform.fabric.routing says (dmodk: one per destination, no reordering; random: per message, "
                "seeded; adaptive: the least loaded). Messages on different connections overtake each other.",
       .field = field(&EmulatorParams::paths),
       .min   = 1,
       .max   = 64},
      {.path    = "emulator.transport",
       .kind    = K::Enum,
       .doc     = "Emulation: between PEs on the same host, \"auto\": rings in shared memory (when emulator.paths "
                  "is 1); \"tcp\": TCP on loopback, as between hosts. PEs on different hosts always use TCP.",
       .field   = mapped(&EmulatorParams::tcp_only, {false, true}),
       .choices = {"auto", "tcp"},
       .noun    = "transport"},
  };
  return table;
}

} // namespace shmemsim::emulator
