// Internal synchronization shared by several routine families.
#pragma once

#include "shmem_front/lib/Library.hpp"

namespace shmemsim::front {

/// Quiet every context of the calling PE, then synchronize all PEs.
void barrier_all_impl(Entry& e);
/// Synchronize all PEs (dissemination over atomic increments; no quiet).
void sync_all_impl(Entry& e);
/// A load of this PE's memory that the network may update at any moment (in the emulator, the NIC's
/// progress thread, with atomic operations): atomic itself, so that it pairs with those updates.
template <class T> T load_updated(const T* p)
{
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/// Block until `done()` holds, waking on every update of this PE's memory; `what`: the symmetric
/// object waited on (named in deadlock reports), null when the wait is the library's own; `note`
/// (may be null) adds to the wait's report.
template <class F> void wait_for(const char* call, F done, const void* what = nullptr, const WaitNote* note = nullptr)
{
  while (true) {
    const std::uint64_t seen = tp().updates();
    if (done())
      return;
    tp().wait_for_update_on(seen, call, what, note);
  }
}

} // namespace shmemsim::front
