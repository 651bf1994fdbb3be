// What each PE's AsyncSHMEM runtime counted in its last shmemx_worker_init (seed 001), for the
// run's summary: the launcher adds them to summary.json so that the two runtime designs can be
// compared without the program printing anything.
#pragma once

#include <vector>

namespace shmemsim::front::async {

struct PeRecord {
  int pe              = 0;
  unsigned long runs  = 0; ///< shmemx_worker_init calls that returned
  int workers         = 0;
  bool contexts       = false; ///< the contexts design (else offload)
  unsigned long tasks = 0, steals = 0, offloaded = 0, suspensions = 0;
  double comm_busy_s = 0, comm_queue_s = 0, span_s = 0;
};

/// The PEs that ran the runtime at least once, in PE order.
std::vector<PeRecord> records();

} // namespace shmemsim::front::async
