// Distributed locks (OpenSHMEM 1.5 §9.12): shmem_set_lock, shmem_test_lock, shmem_clear_lock.
//
// An MCS queue lock on the symmetric `long`, with real remote atomics. The long is used as two
// 32-bit words: word 0 of PE 0's copy is the queue tail (0: free, else the last requester's PE + 1);
// word 1 of every PE's copy is that PE's queue node: its successor's PE + 1 (low 31 bits, OR-ed in
// by the successor) and the GRANT bit (OR-ed in by the predecessor when it hands the lock over).
// A waiting PE blocks on updates of its own memory; nothing polls across the network.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmem.h>

#include <cstdint>

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
  tp().fetch_amo(tp().default_ctx(), op, AmoType::Uint32, target, &value, cond, &old, pe, true);
  return old;
}

void post_or(std::uint32_t* target, std::uint32_t value, int pe)
{
  tp().amo(tp().default_ctx(), AmoOp::Or, AmoType::Uint32, target, &value, pe);
}

} // namespace

extern "C" {

void shmem_set_lock(long* lock)
{
  Entry e("shmem_set_lock");
  const LockWords w = words(e, lock);
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
  reset_node(w);
  const std::uint32_t free = 0;
  const std::uint32_t prev = fetch_op(AmoOp::CompareSwap, w.tail, self_id(), &free, 0);
  return prev == 0 ? 0 : 1;
}

void shmem_clear_lock(long* lock)
{
  Entry e("shmem_clear_lock");
  const LockWords w = words(e, lock);
  // Everything done inside the critical section completes before the release (§9.12).
  tp().quiet(tp().default_ctx());
  for (shmemsim_ctx* c : e.pe().live_contexts())
    tp().quiet(c->tctx);
  const std::uint32_t me = self_id();
  if (fetch_op(AmoOp::CompareSwap, w.tail, 0, &me, 0) == me)
    return; // nobody queued behind: the lock is free again
  // A successor swapped itself into the tail: wait for its link, then hand over.
  wait_for(e.routine(), [&] { return (load_updated(w.node) & kNextMask) != 0; });
  const std::uint32_t next = load_updated(w.node) & kNextMask;
  post_or(w.node, kGrant, static_cast<int>(next) - 1);
}

} // extern "C"
