#include "shmem_front/emulator/Config.hpp"

#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

namespace shmemsim::emulator {

namespace {
/// A path as hex digits (the serialized form has no spaces; a path may); "-" for none.
std::string hex_of(const std::string& s)
{
  if (s.empty())
    return "-";
  static const char* d = "0123456789abcdef";
  std::string h;
  for (unsigned char c : s)
    h += d[c >> 4], h += d[c & 15];
  return h;
}

std::string unhex(const std::string& h)
{
  if (h == "-")
    return "";
  if (h.size() % 2 != 0)
    throw std::invalid_argument("bad value of 'trace'");
  std::string s;
  for (std::size_t i = 0; i < h.size(); i += 2)
    s += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
  return s;
}
} // namespace

std::string Config::serialize() const
{
  std::ostringstream o;
  o.precision(17);
  o << "npes=" << npes << " rank=" << rank << " epoch=" << epoch << " heap=" << heap_bytes << " boot_host=" << boot_host
    << " boot_port=" << boot_port << " token=" << token << " listen_host=" << listen_host
    << " advertise=" << (advertise.empty() ? listen_host : advertise) << " mapping=" << static_cast<int>(mapping)
    << " on_exhaustion=" << static_cast<int>(on_exhaustion) << " max_cts=" << max_cts << " max_mds=" << max_mds
    << " max_volatile=" << max_volatile_size << " max_waw=" << max_waw_ordered_size << " ordering=" << total_ordering
    << " collectives=" << collectives[0] << "," << collectives[1] << "," << collectives[2] << "," << collectives[3]
    << " latency_ns=" << latency_ns << " bandwidth=" << bandwidth_Bps << " jitter_ns=" << jitter_ns
    << " reorder_p=" << reorder_probability << " reorder_depth=" << reorder_depth
    << " reorder_hold_ns=" << reorder_hold_ns << " seed=" << seed << " log_decisions=" << log_decisions
    << " epoch_ns=" << epoch_ns << " node=" << node << " trace=" << hex_of(trace_file) << " paths=" << paths
    << " routing=" << routing;
  return o.str();
}

Config Config::parse(const std::string& text)
{
  std::map<std::string, std::string> kv;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw std::invalid_argument("entry '" + item + "' is not key=value");
    kv[item.substr(0, eq)] = item.substr(eq + 1);
  }
  auto get = [&](const char* k) -> const std::string& {
    auto it = kv.find(k);
    if (it == kv.end())
      throw std::invalid_argument(std::string("missing entry '") + k + "'");
    return it->second;
  };
  Config c;
  try {
    c.npes                 = std::stoi(get("npes"));
    c.rank                 = std::stoi(get("rank"));
    c.epoch                = std::stod(get("epoch"));
    c.heap_bytes           = std::stoull(get("heap"));
    c.boot_host            = get("boot_host");
    c.boot_port            = std::stoi(get("boot_port"));
    c.token                = get("token");
    c.listen_host          = get("listen_host");
    c.advertise            = get("advertise");
    c.mapping              = static_cast<front::CtxMapping>(std::stoi(get("mapping")));
    c.on_exhaustion        = static_cast<front::OnExhaustion>(std::stoi(get("on_exhaustion")));
    c.max_cts              = std::stoi(get("max_cts"));
    c.max_mds              = std::stoi(get("max_mds"));
    c.max_volatile_size    = std::stoull(get("max_volatile"));
    c.max_waw_ordered_size = std::stoull(get("max_waw"));
    c.total_ordering       = get("ordering") == "1";
    if (std::sscanf(get("collectives").c_str(), "%d,%d,%d,%d", &c.collectives[0], &c.collectives[1], &c.collectives[2],
                    &c.collectives[3]) != 4)
      throw std::invalid_argument("bad value of 'collectives'");
    c.latency_ns          = std::stoull(get("latency_ns"));
    c.bandwidth_Bps       = std::stod(get("bandwidth"));
    c.jitter_ns           = std::stoull(get("jitter_ns"));
    c.reorder_probability = std::stod(get("reorder_p"));
    c.reorder_depth       = std::stoi(get("reorder_depth"));
    c.reorder_hold_ns     = std::stoull(get("reorder_hold_ns"));
    c.seed                = std::stoull(get("seed"));
    c.log_decisions       = get("log_decisions") == "1";
    c.epoch_ns            = std::stoull(get("epoch_ns"));
    c.node                = std::stoi(get("node"));
    c.trace_file          = unhex(get("trace"));
    c.paths               = std::stoi(get("paths"));
    c.routing             = std::stoi(get("routing"));
  } catch (const std::logic_error& e) {
    if (dynamic_cast<const std::invalid_argument*>(&e) != nullptr && std::string(e.what()).rfind("missing", 0) == 0)
      throw;
    throw std::invalid_argument(std::string("bad value: ") + e.what());
  }
  if (c.npes < 1 || c.rank < 0 || c.rank >= c.npes || c.token.size() != 64 || c.paths < 1 || c.routing < 0 ||
      c.routing > 2)
    throw std::invalid_argument("npes, rank, token, paths or routing out of range");
  return c;
}

} // namespace shmemsim::emulator
