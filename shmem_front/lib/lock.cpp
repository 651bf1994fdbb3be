// Distributed locks (OpenSHMEM 1.5 §9.12): shmem_set_lock, shmem_test_lock, shmem_clear_lock.
//
// An MCS queue lock on the symmetric `long`, with real remote atomics. The long is used as two
// 32-bit words: word 0 of PE 0's copy is the queue tail (0: free, else the last requester's PE + 1);
// word 1 of every PE's copy is that PE's queue node: its successor's PE + 1 (low 31 bits, OR-ed in
// by the successor) and the GRANT bit (OR-ed in by the predecessor when it hands the lock over).
// A waiting PE blocks on updates of its own memory; nothing polls across the network.
//
// Locks are held by PEs, and a PE has one queue node per lock: two of its threads in one lock's
// queue at once would link the node to itself (a hang, or a corrupted queue). So the PE's threads
// (SHMEM_THREAD_MULTIPLE) take a lock in turn: a thread enters the queue once no sibling holds
// or is acquiring that lock, and shmem_test_lock answers "held" while a sibling does.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmem.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <vector>

using namespace shmemsim::front;

namespace {

constexpr std::uint32_t kGrant    = 0x80000000u;
constexpr std::uint32_t kNextMask = 0x7fffffffu;

struct LockWords {
  std::uint32_t* tail; // meaningful at PE 0
  std::uint32_t* node; // this PE's queue node (remote PEs: the same address translated)
};

LockWords words(const Entry& e, long* lock)
{
  static_assert(sizeof(long) == 2 * sizeof(std::uint32_t), "the lock algorithm needs a 64-bit long");
  if (lock == nullptr)
    e.fail("lock is NULL");
  e.check_symmetric(lock, sizeof(long), "lock");
  if (reinterpret_cast<std::uintptr_t>(lock) % alignof(long) != 0)
    e.fail("lock " + hex(lock) + " is not aligned as a long");
  auto* w = reinterpret_cast<std::uint32_t*>(lock);
  return {w, w + 1};
}

/// The locks each PE holds or is acquiring, by any of its threads, and how many of its threads
/// wait for each (every PE's, in the simulator).
class TakenLocks {
public:
  /// Claim `lock` for the calling thread's PE; false if a sibling thread has it. `*waiting`
  /// tells whether the caller is counted among those waiting (a failed claim counts it).
  bool claim(const long* lock, bool* waiting)
  {
    std::lock_guard g(mutex_);
    State& s = taken_[&pe_state()][lock];
    if (s.taken) {
      if (!*waiting)
        ++s.waiting;
      *waiting = true;
      return false;
    }
    s.taken = true;
    if (*waiting)
      --s.waiting;
    *waiting = false;
    return true;
  }
  /// Claim `lock` if no sibling thread has it (not counted as waiting otherwise).
  bool try_claim(const long* lock)
  {
    std::lock_guard g(mutex_);
    State& s = taken_[&pe_state()][lock];
    if (s.taken)
      return false;
    s.taken = true;
    return true;
  }
  /// Release `lock`; true if sibling threads wait for it.
  bool release(const long* lock)
  {
    std::lock_guard g(mutex_);
    State& s = taken_[&pe_state()][lock];
    s.taken  = false;
    return s.waiting > 0;
  }

private:
  struct State {
    bool taken  = false;
    int waiting = 0;
  };
  std::mutex mutex_; // never held across a library call
  std::map<const PeState*, std::map<const long*, State>> taken_;
};

TakenLocks& taken_locks()
{
  static TakenLocks t;
  return t;
}

std::uint32_t self_id()
{
  return static_cast<std::uint32_t>(rt().my_pe()) + 1;
}

/// Reset this PE's node before enqueueing (no update of it can be in flight: the last holder's
/// successor link and grant both arrived before this PE last held the lock).
void reset_node(const LockWords& w)
{
  __atomic_store_n(w.node, 0u, __ATOMIC_RELAXED);
}

std::uint32_t fetch_op(AmoOp op, std::uint32_t* target, std::uint32_t value, const std::uint32_t* cond, int pe)
{
  std::uint32_t old = 0;
  tp().fetch_amo(default_ctx(), op, AmoType::Uint32, target, &value, cond, &old, pe, true);
  return old;
}

void post_or(std::uint32_t* target, std::uint32_t value, int pe)
{
  tp().amo(default_ctx(), AmoOp::Or, AmoType::Uint32, target, &value, pe);
}

/// The PE's other threads may take `lock` now. Those waiting for it wait for an update of this PE's
/// memory (as every wait does, in both backends): an atomic OR of 0 into the PE's own queue node
/// changes nothing and counts as one.
void release_locally(const LockWords& w, const long* lock)
{
  if (taken_locks().release(lock))
    post_or(w.node, 0, rt().my_pe());
}

} // namespace

extern "C" {

void shmem_set_lock(long* lock)
{
  Entry e("shmem_set_lock");
  const LockWords w = words(e, lock);
  bool waiting      = false; // for a sibling thread that holds it, or is acquiring it
  wait_for(e.routine(), [&] { return taken_locks().claim(lock, &waiting); });
  reset_node(w);
  const std::uint32_t prev = fetch_op(AmoOp::Swap, w.tail, self_id(), nullptr, 0);
  if (prev == 0)
    return; // the lock was free
  // Link behind the previous tail, then wait for its grant.
  post_or(w.node, self_id(), static_cast<int>(prev) - 1);
  wait_for(e.routine(), [&] { return (load_updated(w.node) & kGrant) != 0; });
}

int shmem_test_lock(long* lock)
{
  Entry e("shmem_test_lock");
  const LockWords w = words(e, lock);
  if (!taken_locks().try_claim(lock)) {
    rt().poll_pause(); // a sibling thread holds it (or is acquiring it): a poll that found nothing
    return 1;
  }
  reset_node(w);
  const std::uint32_t free = 0;
  const std::uint32_t prev = fetch_op(AmoOp::CompareSwap, w.tail, self_id(), &free, 0);
  if (prev == 0)
    return 0;
  release_locally(w, lock);
  return 1;
}

void shmem_clear_lock(long* lock)
{
  Entry e("shmem_clear_lock");
  const LockWords w = words(e, lock);
  // Everything done inside the critical section completes before the release (§9.12).
  tp().quiet(default_ctx());
  const std::vector<shmemsim_ctx*> ctxs = e.pe().borrow_live(); // sibling threads may destroy theirs meanwhile
  for (shmemsim_ctx* c : ctxs)
    tp().quiet(c->tctx);
  PeState::give_back(ctxs);
  const std::uint32_t me = self_id();
  if (fetch_op(AmoOp::CompareSwap, w.tail, 0, &me, 0) != me) {
    // A successor swapped itself into the tail: wait for its link, then hand over.
    wait_for(e.routine(), [&] { return (load_updated(w.node) & kNextMask) != 0; });
    const std::uint32_t next = load_updated(w.node) & kNextMask;
    post_or(w.node, kGrant, static_cast<int>(next) - 1);
  }                         // else nobody queued behind: the lock is free again
  release_locally(w, lock); // the PE's other threads may take it now
}

} // extern "C"
