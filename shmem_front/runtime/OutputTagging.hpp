// --tag-output: each PE's stdout and stderr are streams of their own that prefix every line with
// "[PE n] "; libc's stdout and stderr point at the running PE's, and at the real ones between PEs.
#pragma once

#include "shmem_front/runtime/PeProcess.hpp"

#include <cstdio>
#include <vector>

namespace shmemsim::front {

class OutputTagging {
public:
  /// Give every PE its tagged streams (before the PEs start).
  void tag(std::vector<PeProcess>& pes);
  /// `pe` runs (its streams, if tagged) or is switched out (the real streams).
  void switch_in(const PeProcess& pe) const;
  void switch_out(const PeProcess& pe) const;
  /// `pe`'s main ended: close its streams (a last unterminated line is written), the real ones back.
  void close(PeProcess& pe) const;
  /// Before a message of the simulator's own (fatal errors): the real streams, if tagging is on.
  void to_real_streams() const;
  /// Close every PE's tagged streams (the run ends at once: shmem_global_exit).
  void close_all(std::vector<PeProcess>& pes) const;

private:
  FILE* real_out_ = nullptr;
  FILE* real_err_ = nullptr;
};

} // namespace shmemsim::front
