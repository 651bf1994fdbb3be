#include "shmem_front/emulator/Config.hpp"

#include "base/ParamCodec.hpp"

#include <limits>
#include <stdexcept>

namespace shmemsim::emulator {

const ParamTable<Config>& Config::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<Config> table = [] {
    ParamTable<Config> t = {
        {.path = "npes", .kind = K::Int, .doc = "PEs in the job.", .field = field(&Config::npes), .min = 1},
        {.path = "rank", .kind = K::Int, .doc = "This PE (below npes).", .field = field(&Config::rank)},
        {.path  = "epoch",
         .kind  = K::Number,
         .doc   = "CLOCK_REALTIME seconds at the job's start.",
         .field = field(&Config::epoch),
         .max   = std::numeric_limits<std::int64_t>::max()},
        {.path = "heap", .kind = K::UInt, .doc = "Symmetric heap bytes.", .field = field(&Config::heap_bytes)},
        {.path  = "epoch_ns",
         .kind  = K::UInt,
         .doc   = "The job's start in nanoseconds (traces' origin).",
         .field = field(&Config::epoch_ns)},
        {.path = "node", .kind = K::Int, .doc = "This PE's host's number.", .field = field(&Config::node)},
        {.path  = "trace",
         .kind  = K::Str,
         .doc   = "This PE's part of the trace (empty: none).",
         .field = field(&Config::trace_file)},
        {.path  = "boot_host",
         .kind  = K::Str,
         .doc   = "The launcher's bootstrap service's address.",
         .field = field(&Config::boot_host)},
        {.path = "boot_port", .kind = K::Int, .doc = "Its port.", .field = field(&Config::boot_port), .max = 65535},
        {.path = "token", .kind = K::Str, .doc = "The job's token (64 hex digits).", .field = field(&Config::token)},
        {.path  = "listen_host",
         .kind  = K::Str,
         .doc   = "Where this PE accepts its peers' data connections.",
         .field = field(&Config::listen_host)},
        {.path  = "advertise",
         .kind  = K::Str,
         .doc   = "The address its peers connect to (empty: listen_host).",
         .field = field(&Config::advertise)},
        {.path  = "shm_ranks",
         .kind  = K::Str,
         .doc   = "The PEs sharing this PE's shared-memory segment, in slot order (empty: none).",
         .field = field(&Config::shm_ranks)},
        {.path = "shm_ring", .kind = K::UInt, .doc = "Bytes of each ring in it.", .field = field(&Config::shm_ring)},
        {.path = "seed", .kind = K::UInt, .doc = "The scenario's seed.", .field = field(&Config::seed)},
        {.path    = "platform.fabric.routing",
         .kind    = K::Enum,
         .doc     = "How a message picks one of emulator.paths connections.",
         .field   = field(&Config::routing),
         .choices = routing_names(),
         .noun    = "routing"},
    };
    for (auto part :
         {nested(&Config::limits, portals::Limits::keys()), nested(&Config::contexts, front::ContextParams::keys()),
          nested(&Config::collectives, front::CollectiveParams::keys()),
          nested(&Config::emulator, EmulatorParams::keys())})
      t.insert(t.end(), part.begin(), part.end());
    return t;
  }();
  return table;
}

std::string Config::serialize() const
{
  return encode_params(keys(), *this);
}

Config Config::parse(const std::string& text)
{
  Config c = decode_params<Config>(keys(), text);
  if (c.rank >= c.npes)
    throw std::invalid_argument("bad value of 'rank': " + std::to_string(c.rank) + " is not below npes (" +
                                std::to_string(c.npes) + ")");
  if (c.token.size() != 64 || c.token.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw std::invalid_argument("bad value of 'token': expected 64 hex digits");
  return c;
}

} // namespace shmemsim::emulator
