// The two seams between the OpenSHMEM routines and the rest (docs/design.md, "The layers"), as Sandia
// OpenSHMEM has transport.h and runtime.h. The routines (shmem_front/lib) include neither
// sim/nic nor SimGrid headers: a null transport/runtime pair is enough to unit-test them.
#pragma once

#include "base/CtxEvent.hpp"
#include "shmem_front/lib/AsyncParams.hpp"
#include "shmem_front/lib/CollectiveParams.hpp"
#include "shmem_front/lib/PeList.hpp"

#include <pthread.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace shmemsim::front {

/// Atomic operations as the routines ask for them.
enum class AmoOp { Set, Fetch, Add, And, Or, Xor, Swap, CompareSwap };

/// A reduction's operation and element type (the library's algorithms, and offloaded_reduce).
enum class RedOp { And, Or, Xor, Max, Min, Sum, Prod };
enum class RedType { Short, Int, Long, LongLong, Float, Double };
/// A reduction's element type as a NIC's atomic unit sees it.
struct RedElem {
  std::size_t size = 0;
  bool integer     = false;
  bool is_signed   = false;
};

/// Element types of AMOs (the OpenSHMEM AMO types reduce to these).
enum class AmoType { Int32, Int64, Uint32, Uint64, Float, Double };

inline std::size_t amo_size(AmoType t)
{
  return t == AmoType::Int32 || t == AmoType::Uint32 || t == AmoType::Float ? 4 : 8;
}

/// How a context takes the NIC's counters (job.contexts.mapping): Lean (the contexts paper's: one
/// CT and one MD, puts and gets counted together) or Split (a put CT + MD and a get CT + MD).
enum class CtxMapping { Lean, Split };

/// What shmem_ctx_create does when the NIC's CTs or MDs run out (job.contexts.on_exhaustion; the
/// ContextTable applies it): Fail: refuse (SHMEM_CTX_INVALID); Share: share the default context's
/// counters; RoundRobin: share those of the PE's created contexts that own counters, in turn (the
/// default context's if there is none); KeepPrivate: contexts created without SHMEM_CTX_PRIVATE
/// always share the default context's, SHMEM_CTX_PRIVATE ones get their own while they last, then
/// share the default's.
enum class OnExhaustion { Fail, Share, RoundRobin, KeepPrivate };

/// One set of a backend's completion counters (its CTs, MDs and issued counts): what a context or
/// a request slot issues on and waits for. Each backend derives its own.
struct Counters {
  virtual ~Counters() = default;
};

/// What counters are acquired for: a context (the mapping's CTs and MDs) or a request slot (one
/// CT and one MD, not volatile, puts and gets counted together whatever the mapping).
enum class CounterUse { Context, Request };

/// One PE's completion counters as its backend has them: what the library's ContextTable
/// (ContextTable.hpp) acquires for contexts and request slots and releases, and where it publishes
/// what it decided. Called by one PE's threads, under the table's lock.
class CounterSource {
public:
  virtual ~CounterSource() = default;
  /// The default context's counters, the backend's from the start (never released).
  virtual Counters* default_counters() = 0;
  /// Counters for `use`, numbered `id` in traces; null when none are left: `*limit` then names
  /// the limit that stopped it ("max_cts (4) reached").
  virtual Counters* acquire(CounterUse use, int id, std::string* limit) = 0;
  /// No context or request issues on `c` any more: give its resources back.
  virtual void release(Counters* c) = 0;
  /// A context event for the observer or the trace: context `id` counting on `counters` (a
  /// refused context: id -1, counters null).
  virtual void ctx_event(int id, const Counters* counters, CtxEvent what) = 0;
  /// One notice line ("PE 3: context 5 shares ..."), for the user.
  virtual void notice(const std::string& line) = 0;
};

/// One communication context or request slot as a transport sees it: what the library's
/// ContextTable made it (its number and the counters it issues on; the table keeps the rest).
struct TransportCtx {
  int id             = 0;       ///< numbers the PE's contexts and request slots in traces (0: the default one)
  Counters* counters = nullptr; ///< where its operations are issued and counted (shared ones: their owner's)
};

class SignalJournal;

/// More words for the report of a wait (a deadlock, a time limit), made when the report is; empty
/// when there is nothing to add. Made by the waiting PE, read from anywhere.
class WaitNote {
public:
  virtual ~WaitNote()              = default;
  virtual std::string note() const = 0;
};

/// Transport seam: data movement and completion, on symmetric addresses of the calling PE.
/// Remote addresses are given as the calling PE's own address of the symmetric object; the
/// transport translates them for `pe`. Every call is made by the PE (or thread) that owns `ctx`.
class Transport {
public:
  virtual ~Transport() = default;

  /// The calling PE's completion counters, for its ContextTable (the library's: it decides which
  /// counters each context and request slot issues on; `ctx` below is one of its records).
  virtual CounterSource& counter_source() = 0;

  /// Put `n` bytes from local `src` to symmetric `dest` on `pe`. Blocking: return once `src` may
  /// be reused (local completion); non-blocking: at once, completed by quiet.
  virtual void put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) = 0;
  /// Get `n` bytes from symmetric `src` on `pe` into local `dest`. Blocking: return with the
  /// data; non-blocking: completed by quiet.
  virtual void get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) = 0;
  /// Non-fetching AMO on symmetric `dest` at `pe` (Set, Add, And, Or, Xor).
  virtual void amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe) = 0;
  /// Fetching AMO (Fetch, Add, And, Or, Xor, Swap, CompareSwap): the previous value goes to
  /// `result`. `cond` is the comparand of CompareSwap. Blocking: `result` holds it on return;
  /// non-blocking: after quiet.
  virtual void fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond,
                         void* result, int pe, bool blocking) = 0;
  /// Complete every operation issued on `ctx` (remote completion).
  virtual void quiet(TransportCtx* ctx) = 0;
  /// Order puts/AMOs on `ctx` to each PE (a quiet when the network cannot do better).
  virtual void fence(TransportCtx* ctx) = 0;

  /// Updates of this PE's symmetric memory by others, counted. wait_for_update blocks until the
  /// count exceeds `seen` (the caller re-checks its condition).
  virtual std::uint64_t updates()                                    = 0;
  virtual void wait_for_update(std::uint64_t seen, const char* call) = 0;
  /// The same, waiting on the symmetric object at `what` (reports name it; null: none in particular);
  /// `note` (may be null) adds to the wait's report.
  virtual void wait_for_update_on(std::uint64_t seen, const char* call, const void* what,
                                  const WaitNote* note = nullptr)
  {
    (void)what;
    (void)note;
    wait_for_update(seen, call);
  }

  /// A collective's signal: add `value` to the 64-bit synchronization word `word` (the calling PE's
  /// symmetric address) on `pe`, as amo(Add, Uint64) does. A backend that keeps signal journals
  /// records it in the target's as it lands (SignalJournal.hpp).
  virtual void signal(TransportCtx* ctx, std::uint64_t* word, std::uint64_t value, int pe)
  {
    amo(ctx, AmoOp::Add, AmoType::Uint64, word, &value, pe);
  }
  /// The calling PE's signal journal (null: the backend keeps none).
  virtual SignalJournal* signal_journal() { return nullptr; }

  // Request-scoped completion (seed 003's non-blocking operations with request handles). The
  // library's ContextTable gives each open request a slot (a TransportCtx over counters acquired
  // with CounterUse::Request) while counters last, then shares one (an earlier request's, else the
  // default context), and releases it with its last request. Operations of a request are issued
  // with the ordinary calls above (blocking = false) on its slot, and only there; quiet/fence on
  // any context neither wait for them nor order them (when the slot is shared with the default
  // context they may complete them earlier; never later).
  /// True once every operation issued on `slot` is complete (puts and AMOs delivered at their
  /// target, gets and fetches with their data in place); never blocks.
  virtual bool request_test(TransportCtx* slot) = 0;
  /// Blocks until request_test(slot) would say true (`call` names the routine for deadlock reports).
  virtual void request_wait(TransportCtx* slot, const char* call) = 0;

  /// A barrier (without quiet) among `members` run by the NIC on triggered operations
  /// (job.collectives.barrier=triggered): the calling PE is members[me]. False, having done
  /// nothing, when this transport's NIC has no triggered operations (the caller then runs a
  /// host-driven barrier).
  virtual bool offloaded_sync(const PeList& members, int me)
  {
    (void)members;
    (void)me;
    return false;
  }
  /// Seed 003's non-blocking barrier run by the NICs (job.collectives.barrier=triggered): the
  /// calling PE, members[me], posts its part of the barrier of offloaded_sync and returns at once
  /// a number (> 0) for offloaded_sync_test and offloaded_sync_wait, which forget it once they
  /// have seen it complete. 0, having done nothing, when this NIC has no triggered operations.
  virtual std::uint64_t offloaded_sync_start(const PeList& members, int me)
  {
    (void)members, (void)me;
    return 0;
  }
  /// True once the barrier `id` (offloaded_sync_start) is complete on the calling PE; never blocks.
  virtual bool offloaded_sync_test(std::uint64_t id)
  {
    (void)id;
    return true;
  }
  /// Blocks until the barrier `id` is complete on the calling PE.
  virtual void offloaded_sync_wait(std::uint64_t id) { (void)id; }
  /// A broadcast of `bytes` from members[root]'s `source` to the others' `dest` (symmetric)
  /// run by the NIC on triggered operations (job.collectives.broadcast=triggered), called by
  /// members[me]. Null when done; else why not, having done nothing (the caller then runs a
  /// host-driven broadcast). The same answer on every member for the same call.
  virtual const char* offloaded_broadcast(const PeList& members, int me, void* dest, const void* source,
                                          std::size_t bytes, int root)
  {
    (void)members, (void)me, (void)dest, (void)source, (void)bytes, (void)root;
    return "this NIC has no triggered operations";
  }
  /// An allreduce of `count` elements (`e`, `op`) from every member's `source` into every
  /// member's `dest` (symmetric) run by the NICs (job.collectives.reduce=triggered), called by
  /// members[me]. Null when done; else why not, having done nothing (the caller then runs a
  /// host-driven reduction). The same answer on every member for the same call.
  virtual const char* offloaded_reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest,
                                       const void* source, std::size_t count)
  {
    (void)members, (void)me, (void)op, (void)e, (void)dest, (void)source, (void)count;
    return "this NIC has no triggered operations";
  }
  /// Seed 003's non-blocking broadcast (offloaded_broadcast's call) and reduction
  /// (offloaded_reduce's) run by the NICs: the calling PE, members[me], posts its part and returns
  /// at once a number (> 0) for offloaded_call_test and offloaded_call_wait, which forget it once
  /// they have seen it complete. 0, having done nothing, when the NICs cannot run it: `*why` says
  /// why (the same answer on every member for the same call).
  virtual std::uint64_t offloaded_broadcast_start(const PeList& members, int me, void* dest, const void* source,
                                                  std::size_t bytes, int root, const char** why)
  {
    (void)members, (void)me, (void)dest, (void)source, (void)bytes, (void)root;
    *why = "this NIC has no triggered operations";
    return 0;
  }
  virtual std::uint64_t offloaded_reduce_start(const PeList& members, int me, RedOp op, RedElem e, void* dest,
                                               const void* source, std::size_t count, const char** why)
  {
    (void)members, (void)me, (void)op, (void)e, (void)dest, (void)source, (void)count;
    *why = "this NIC has no triggered operations";
    return 0;
  }
  /// True once call `id` (offloaded_*_start) is complete on the calling PE; never blocks.
  virtual bool offloaded_call_test(std::uint64_t id)
  {
    (void)id;
    return true;
  }
  /// Blocks until call `id` is complete on the calling PE.
  virtual void offloaded_call_wait(std::uint64_t id) { (void)id; }
  /// members[me] is destroying a team of `members`, past a barrier of them: what the offloaded
  /// collectives hold for the member list may go once every member has said so.
  virtual void offloaded_release(const PeList& members, int me)
  {
    (void)members;
    (void)me;
  }
};

/// The PE's threads and their sync objects through the pthread API, as the PE's program sees it:
/// simulated threads in the simulator (the interposition library's pthread_*), real ones in a
/// process backend. The library's own threads (AsyncSHMEM's workers) are made through it.
struct Pthreads {
  int (*create)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*) = &pthread_create;
  int (*join)(pthread_t, void**)                                            = &pthread_join;
  pthread_t (*self)()                                                       = &pthread_self;
  int (*mutex_lock)(pthread_mutex_t*)                                       = &pthread_mutex_lock;
  int (*mutex_unlock)(pthread_mutex_t*)                                     = &pthread_mutex_unlock;
  int (*cond_wait)(pthread_cond_t*, pthread_mutex_t*)                       = &pthread_cond_wait;
  int (*cond_signal)(pthread_cond_t*)                                       = &pthread_cond_signal;
  int (*cond_broadcast)(pthread_cond_t*)                                    = &pthread_cond_broadcast;
};

/// Runtime seam: what any backend provides the routines (the simulator's PE runtime, or real
/// processes), in the spirit of Sandia OpenSHMEM's runtime.h. Simulator-only concerns (compute
/// accounting, time slicing, actor switches) are not part of it (see Accounting).
class Runtime {
public:
  virtual ~Runtime() = default;

  // Identity
  /// What the PEs run on, for start-up text (SHMEM_VERSION, SHMEM_INFO): "a simulated cluster".
  virtual const char* platform_kind() { return "a simulated cluster"; }
  /// The calling PE's number (-1 when the caller is no PE).
  virtual int my_pe() = 0;
  /// The number of PEs in the job.
  virtual int n_pes() = 0;
  /// Whether `pe` runs the same program and is reachable.
  virtual bool pe_accessible(int pe) = 0;

  // Memory
  /// The calling PE's symmetric heap (same size and layout on every PE).
  virtual void* heap_base() = 0;
  /// Its size in bytes.
  virtual std::size_t heap_size() = 0;
  /// Whether [addr, addr+n) is symmetric memory of the calling PE (static data or heap).
  virtual bool is_symmetric(const void* addr, std::size_t n) = 0;
  /// The calling PE's symmetric `addr` on `pe` when load/store can reach it (same node), else null.
  virtual void* local_address(const void* addr, int pe) = 0;
  /// For reports: the program's variable at `addr` by its symbol ("flag", "counts+8"), or its
  /// place in a symmetric heap; empty when nothing names it. Any PE's address, from any thread.
  virtual std::string name_address(const void* addr)
  {
    (void)addr;
    return {};
  }

  // Threads and synchronization
  /// The pthread API of the PE's threads (default: libc's, for a backend of real threads).
  virtual const Pthreads& pthreads()
  {
    static const Pthreads real;
    return real;
  }
  /// A poll found nothing: let the PE's other threads and communication progress before the next.
  virtual void poll_pause() = 0;
  /// Under SHMEM_THREAD_MULTIPLE, serialize with the PE's other threads on `lock` (one per shared context).
  virtual void library_lock(const void* lock) {}

  // Clocks
  /// Seconds since the start of the run.
  virtual double wtime() = 0;

  // Bootstrap
  /// Barrier among the PEs' main threads without the transport (start-up only).
  virtual void startup_barrier() = 0;

  // Environment and settings
  /// An environment variable as this PE sees it (null if unset).
  virtual const char* getenv(const char* name) = 0;
  /// The run's collective algorithms (job.collectives.*, checked by the scenario layer); defaults otherwise.
  virtual CollectiveParams collectives() { return {}; }
  /// What shmem_ctx_create does when the counters run out (job.contexts.on_exhaustion): the
  /// policy of the PE's ContextTable.
  virtual OnExhaustion contexts_on_exhaustion() { return OnExhaustion::Fail; }
  /// AsyncSHMEM's settings (job.async.*; workers 0: the PE's cores); the environment may override them.
  virtual AsyncParams async_params() { return {}; }

  // Errors
  /// Misuse: print one line naming the PE and the routine, end the run with a non-zero status.
  [[noreturn]] virtual void fatal(const std::string& message) = 0;
  /// shmem_global_exit: end every PE, the run exits with `status`.
  [[noreturn]] virtual void global_exit(int status) = 0;
};

/// Optional, for a backend that models time (the simulator): told when each routine starts and
/// ends, so that the program's computation between calls is charged. Real processes need none.
class Accounting {
public:
  virtual ~Accounting() = default;

  /// A routine starts (`routine` names it in reports): charge the computation done since the last call.
  virtual void enter(const char* routine) = 0;
  /// The routine returns: the program computes again.
  virtual void leave() = 0;
};

/// What the routines use, installed by the launcher before any PE starts.
struct Env {
  Runtime* runtime       = nullptr;
  Transport* transport   = nullptr;
  Accounting* accounting = nullptr; ///< null: nothing is told
};

/// Install the seams (the launcher does this once; tests install their own).
void install(const Env& env);
/// Replace the transport only, keeping the PEs' library state (AsyncSHMEM puts its forwarding
/// transport in front of the backend's while it runs).
void set_transport(Transport* t);
const Env& env();

struct ContextCounts;
/// What the PEs' context tables did (contexts created, refused, shared; requests with a slot of
/// their own or a shared one, the most slots one PE held at once), summed over the PEs of this
/// process, for summaries (summary.json's `contexts` and `requests`). After the run, before the
/// next install.
ContextCounts context_counts();

} // namespace shmemsim::front
