// Library-wide state of the OpenSHMEM routines: one PeState per PE (every PE runs in this
// process), context handles and the PE's context table, and the checks every routine makes. Only
// the seams reach out.
#pragma once

#include "shmem_front/lib/ContextTable.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/lib/SymmetricHeap.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

struct shmemsim_ctx {
  std::uint32_t magic                 = 0x53484354; // "SHCT"
  int pe                              = -1;
  long options                        = 0;
  shmemsim::front::TransportCtx* tctx = nullptr;
  /// Its place among the PE's contexts in creation order (1: the first). Routines that visit every
  /// context (shmem_clear_lock, shmem_finalize) go in this order, never in the order of addresses,
  /// which depends on the heap's layout (a run would change with any change of allocations).
  std::uint64_t seq = 0;
  /// Threads quieting it although it is not theirs (shmem_clear_lock): its destruction waits for them.
  std::atomic<int> borrowed{0};
};

namespace shmemsim::front {

/// Bytes at the start of every PE's symmetric heap reserved for the library (barrier counters).
constexpr std::size_t kReservedHeap = 4096;

struct PeState {
  bool initialized = false;
  bool finalized   = false;
  int thread_level = 0;
  SymmetricHeap heap;
  std::uintptr_t heap_base    = 0; ///< address of this PE's symmetric heap (set by shmem_init)
  std::uint64_t barrier_epoch = 0;
  // The PE's context handles. Under SHMEM_THREAD_MULTIPLE its threads create, use and destroy
  // them at once (in the emulator they are real threads): `live` and `destroyed` are read and
  // changed under `contexts_mutex` only, never held across a transport call (in the simulator a
  // PE's threads are coroutines of one OS thread, and a transport call may switch to another).
  mutable std::mutex contexts_mutex;
  std::set<shmemsim_ctx*> live;
  std::set<shmemsim_ctx*> destroyed; ///< kept, so that a later use is reported as such
  std::uint64_t contexts_made = 0;   ///< numbers them (shmemsim_ctx::seq)
  /// Which counters of the transport its contexts and requests issue on (made by the PE's
  /// shmem_init, before its threads, over the transport's counter source; kept across finalize).
  std::unique_ptr<ContextTable> contexts;

  bool is_live(shmemsim_ctx* c) const;
  /// The live contexts in creation order, each borrowed: retire_ctx waits until `give_back` returns it.
  std::vector<shmemsim_ctx*> borrow_live();
  static void give_back(const std::vector<shmemsim_ctx*>& borrowed);
  /// Moves `c` from the live contexts to the destroyed ones, then waits until no other thread
  /// has it borrowed: its transport context may go then. False if it was not live.
  bool retire_ctx(shmemsim_ctx* c);

  PeState()                          = default;
  PeState(const PeState&)            = delete;
  PeState& operator=(const PeState&) = delete;
  /// The PE's context handles (live and destroyed) are owned here.
  ~PeState();
};

/// The calling PE's state.
PeState& pe_state();
/// The state of world PE `pe` if it has one in this process (every PE runs here), else null.
const PeState* pe_state_of(int pe);

/// What every routine does first: charge compute, check initialization (unless `before_init`).
class Entry {
public:
  explicit Entry(const char* routine, bool before_init = false);
  ~Entry();
  Entry(const Entry&)            = delete;
  Entry& operator=(const Entry&) = delete;
  const char* routine() const { return routine_; }
  PeState& pe() { return *pe_; }

  [[noreturn]] void fail(const std::string& what) const;
  void check_pe(int pe) const;
  /// [addr, addr+n) must be symmetric on the calling PE; `what` names the argument. Nothing is
  /// checked when n is 0 (zero-length operations accept any pointer).
  void check_symmetric(const void* addr, std::size_t n, const char* what) const;
  /// The transport context behind a handle (SHMEM_CTX_DEFAULT included); misuse is fatal.
  TransportCtx* ctx(shmemsim_ctx* handle) const;

private:
  const char* routine_;
  PeState* pe_;
};

/// The calling PE's context table (PeState::contexts; made at its first use). `pe`: the calling
/// PE's state, when the caller has it (Entry::pe).
ContextTable& contexts(PeState& pe);
inline ContextTable& contexts()
{
  return contexts(pe_state());
}
/// The default context as the calling thread sees it: its PE's, or, for a worker of AsyncSHMEM's
/// contexts runtime, the worker's own (async/AsyncTransport.cpp). `pe`: the calling PE's state.
TransportCtx* default_ctx(PeState& pe);
inline TransportCtx* default_ctx()
{
  return default_ctx(pe_state());
}
/// AsyncSHMEM gives a worker's default context (`f` returns it, null for a thread that is none)
/// while its forwarding transport is installed; install() takes it back.
void set_worker_default_ctx(TransportCtx* (*f)());
/// A request of the calling PE: its slot from the PE's table (ContextTable::open_request).
TransportRequest* open_request();
/// Releases `r`, once its completion was seen (Transport::request_test true, or request_wait returned).
void close_request(TransportRequest* r);

/// A new context handle of the calling PE over transport context `t`.
shmemsim_ctx* register_ctx(PeState& pe, TransportCtx* t, long options);
/// `ctxs` in creation order (shmemsim_ctx::seq).
std::vector<shmemsim_ctx*> in_creation_order(std::vector<shmemsim_ctx*> ctxs);

Runtime& rt();
Transport& tp();

std::string hex(const void* p);
/// SHMEM_DEBUG: one line on stderr about what the routine does.
void debug(const Entry& e, const std::string& what);

} // namespace shmemsim::front
