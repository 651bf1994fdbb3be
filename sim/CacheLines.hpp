// The cache lines that the threads of a node update with locked read-modify-writes (an atomic
// add, a compare-and-swap, a spin lock's acquire): a communication library's shared objects, such
// as a context's counters and descriptor, the NI's buffer pool or a connection's send queue. A
// line is in one core's cache at a time for such an update: a core that updates a line another
// core wrote last waits for its transfer (platform.coherence.same_socket, or cross_socket when the
// two cores are on different sockets, platform.sockets_per_node), and updates of one line by
// several cores take turns, in the order they ask. An update of a line the core already holds
// costs nothing here: its cost is in the measured single-thread cost of the call that makes it.
#pragma once

#include "base/Time.hpp"
#include "sim/HostParams.hpp"

#include <cstdint>
#include <unordered_map>

namespace shmemsim::sim {

class CacheLines {
public:
  /// `cores`: the cores of a node (the NIC's progress core included, if it has one), divided
  /// among `p.sockets_per_node` sockets in order.
  CacheLines(const HostParams& p, int cores);

  /// Core `core` (0 <= core < cores) updates the line `line` (a key unique in the run) at `now`:
  /// returns the date the update ends, `now` if the core holds the line already and nobody is
  /// waiting for it. Lines nobody updated yet are free and cost nothing.
  Ps update(std::uint64_t line, int core, Ps now);

  /// Whether an update can ever wait: a transfer takes time, and the node has more than one core
  /// (with one, every line stays in its cache: no update ever waits, and callers may leave the
  /// model out).
  bool costs_time() const { return (same_socket_ > 0 || cross_socket_ > 0) && cores_ > 1; }
  /// The socket of a core.
  int socket_of(int core) const;
  /// Updates that had to fetch the line from another core, and the time they waited in all.
  std::uint64_t transfers() const { return transfers_; }
  Ps wait_time() const { return wait_time_; }

private:
  struct Line {
    int core   = -1; ///< the core that updated it last
    Ps free_at = 0;  ///< the end of the last update
  };
  Ps same_socket_;
  Ps cross_socket_;
  int cores_;
  int sockets_;
  std::unordered_map<std::uint64_t, Line> lines_; // looked up only, never iterated (determinism)
  std::uint64_t transfers_ = 0;
  Ps wait_time_            = 0;
};

} // namespace shmemsim::sim
