// The GOMP entry points gcc 12 emits for OpenMP constructs, on shmemsim's runtime. Constructs
// this runtime does not implement (target offload, teams, cancellation, doacross loops, taskloop,
// task reductions) have no entry point here: shmemsim-cc names them when linking.
#include "shmem_front/omp/Runtime.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#define EXPORT extern "C" __attribute__((visibility("default")))

using namespace shmemsim::omp;
using ull = unsigned long long;

namespace {

// ------------------------------------------------------------------ worksharing

/// The calling thread meets its next worksharing construct: the team's shared record of it
/// (created by the first thread to arrive, `*first` then true).
WorkShare& ws_enter(Thread& me, bool* first)
{
  Team& t                 = *me.team;
  const std::uint64_t seq = ++me.ws_seq;
  auto it                 = t.work.find(seq);
  *first                  = it == t.work.end();
  WorkShare* ws;
  if (*first) {
    ws      = new WorkShare;
    ws->seq = seq;
    t.work.emplace(seq, ws);
  } else {
    ws = it->second;
  }
  me.ws          = ws;
  me.static_trip = 0;
  me.have_chunk  = false;
  return *ws;
}

void ws_leave(Thread& me)
{
  WorkShare* ws = me.ws;
  if (ws == nullptr)
    return;
  me.ws = nullptr;
  if (++ws->left == me.team->nthreads) {
    me.team->work.erase(ws->seq);
    std::free(ws->mem);
    delete ws;
  }
}

int effective_sched(const Thread& me, int sched, std::uint64_t* chunk)
{
  sched = static_cast<int>(static_cast<unsigned>(sched) & ~kMonotonic);
  if (sched == kRuntime || sched == kAuto) { // schedule(runtime); gcc passes nonmonotonic runtime as auto
    sched  = static_cast<int>(static_cast<unsigned>(me.icv.run_sched) & ~kMonotonic);
    *chunk = static_cast<std::uint64_t>(me.icv.run_chunk);
    if (sched == kAuto) {
      sched  = kStatic;
      *chunk = 0;
    }
  }
  if (sched != kStatic && *chunk == 0)
    *chunk = 1;
  return sched;
}

/// Records the loop in the work share: iteration i runs start + i * incr.
void loop_init(WorkShare& ws, bool ull_loop, bool up, std::uint64_t start, std::uint64_t end, std::uint64_t incr,
               int sched, std::uint64_t chunk, bool ordered)
{
  std::uint64_t n = 0;
  if (!ull_loop) {
    const long s = static_cast<long>(start), e = static_cast<long>(end), i = static_cast<long>(incr);
    if (i > 0 && s < e)
      n = (end - start - 1) / incr + 1;
    else if (i < 0 && s > e)
      n = (start - end - 1) / (0 - incr) + 1;
  } else if (up ? start < end : start > end) {
    n = up ? (end - start - 1) / incr + 1 : (start - end - 1) / (0 - incr) + 1;
  }
  ws.n            = n;
  ws.next         = 0;
  ws.start        = start;
  ws.end          = end;
  ws.incr         = incr;
  ws.sched        = sched;
  ws.chunk        = chunk;
  ws.ordered      = ordered;
  ws.ordered_next = 0;
}

/// An ordered loop: the chunk the thread is done with lets the next chunk's ordered regions run.
void finish_chunk(Thread& me, const char* routine)
{
  WorkShare& ws = *me.ws;
  if (!me.have_chunk || !ws.ordered)
    return;
  me.have_chunk = false;
  while (ws.ordered_next != me.chunk_lo) {
    me.waiting = "the ordered regions of earlier iterations (iteration " + std::to_string(ws.ordered_next) + " next)";
    team_wait(me, routine);
  }
  ws.ordered_next = me.chunk_hi;
  wake_team(*me.team);
}

/// The next chunk [lo, hi) of iterations for the calling thread, or false.
bool next_chunk(Thread& me, std::uint64_t* lo, std::uint64_t* hi)
{
  WorkShare& ws           = *me.ws;
  const std::uint64_t nth = me.team->nthreads, id = me.id;
  switch (ws.sched) {
    case kStatic:
      if (ws.chunk == 0) { // one block per thread
        if (me.static_trip++ != 0)
          return false;
        std::uint64_t q = ws.n / nth, r = ws.n % nth, s;
        if (id < r) {
          ++q;
          s = q * id;
        } else {
          s = q * id + r;
        }
        if (q == 0)
          return false;
        *lo = s;
        *hi = s + q;
        return true;
      } else {
        const std::uint64_t block = me.static_trip * nth + id;
        if (ws.chunk != 0 && block > (ws.n - 1) / ws.chunk)
          return false;
        if (ws.n == 0)
          return false;
        ++me.static_trip;
        *lo = block * ws.chunk;
        *hi = std::min(ws.n, *lo + ws.chunk);
        return true;
      }
    case kDynamic:
      if (ws.next >= ws.n)
        return false;
      *lo     = ws.next;
      *hi     = ws.next + std::min(ws.chunk, ws.n - ws.next);
      ws.next = *hi;
      return true;
    case kGuided: {
      if (ws.next >= ws.n)
        return false;
      const std::uint64_t rest = ws.n - ws.next;
      std::uint64_t q          = (rest + nth - 1) / nth;
      q                        = std::min(std::max(q, ws.chunk), rest);
      *lo                      = ws.next;
      *hi                      = ws.next + q;
      ws.next                  = *hi;
      return true;
    }
    default:
      return false;
  }
}

/// GOMP_loop_*_next for every schedule: the work share knows its own.
template <typename T> bool loop_next(T* istart, T* iend, const char* routine)
{
  Thread& me = self();
  hooks()->charge(routine); // the previous chunk's computation: other threads may grab chunks meanwhile
  if (me.ws == nullptr)
    return false;
  finish_chunk(me, routine);
  std::uint64_t lo = 0, hi = 0;
  if (!next_chunk(me, &lo, &hi))
    return false;
  WorkShare& ws = *me.ws;
  me.have_chunk = true;
  me.chunk_lo   = lo;
  me.chunk_hi   = hi;
  *istart       = static_cast<T>(ws.start + lo * ws.incr);
  *iend         = static_cast<T>(hi == ws.n ? ws.end : ws.start + hi * ws.incr);
  return true;
}

void check_task_reductions(const uintptr_t* reductions, const char* construct)
{
  if (reductions != nullptr)
    unsupported(std::string("reduction(task, ...) on ") + construct);
}

/// lastprivate(conditional:) storage: *mem holds its size; every thread gets the same zeroed block.
void conditional_mem(WorkShare& ws, bool first, void** mem)
{
  if (mem == nullptr)
    return;
  if (first)
    ws.mem = std::calloc(1, std::max<std::size_t>(reinterpret_cast<std::uintptr_t>(*mem), 1));
  *mem = ws.mem;
}

template <typename T>
bool loop_start(bool ull_loop, bool up, T start, T end, T incr, int sched, std::uint64_t chunk, T* istart, T* iend,
                bool ordered, uintptr_t* reductions, void** mem, const char* routine)
{
  Thread& me = self();
  hooks()->charge(routine);
  check_task_reductions(reductions, "a loop");
  bool first    = false;
  WorkShare& ws = ws_enter(me, &first);
  if (first) {
    const int s = effective_sched(me, sched, &chunk);
    loop_init(ws, ull_loop, up, static_cast<std::uint64_t>(start), static_cast<std::uint64_t>(end),
              static_cast<std::uint64_t>(incr), s, chunk, ordered);
  }
  conditional_mem(ws, first, mem);
  if (istart == nullptr)
    return true;
  return loop_next(istart, iend, routine);
}

void loop_end(bool wait)
{
  Thread& me = self();
  if (me.ws != nullptr)
    finish_chunk(me, "GOMP_loop_end");
  ws_leave(me);
  if (wait)
    barrier(me, "GOMP_loop_end");
}

/// The work share of a combined parallel loop, set up before the team starts.
WorkShare* combined_loop(Thread& me, long start, long end, long incr, int sched, long chunk)
{
  auto* ws        = new WorkShare;
  std::uint64_t c = static_cast<std::uint64_t>(chunk);
  const int s     = effective_sched(me, sched, &c);
  loop_init(*ws, false, true, static_cast<std::uint64_t>(start), static_cast<std::uint64_t>(end),
            static_cast<std::uint64_t>(incr), s, c, false);
  return ws;
}

void parallel(void (*fn)(void*), void* data, unsigned num_threads, WorkShare* combined, const char* routine)
{
  Thread& me = self();
  hooks()->charge(routine);
  const unsigned n = resolve_threads(me, num_threads);
  parallel_begin(me, fn, data, n, combined);
  fn(data);
  parallel_end(me);
}

void parallel_loop(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr, int sched,
                   long chunk, const char* routine)
{
  Thread& me = self();
  parallel(fn, data, num_threads, combined_loop(me, start, end, incr, sched, chunk), routine);
}

// ------------------------------------------------------------------ critical sections

std::string critical_name(void** pptr)
{
  Dl_info info{};
  if (dladdr(pptr, &info) != 0 && info.dli_sname != nullptr) {
    std::string s            = info.dli_sname;
    const std::string prefix = ".gomp_critical_user_";
    if (s.rfind(prefix, 0) == 0)
      return "the critical section '" + s.substr(prefix.size()) + "'";
  }
  return "a named critical section";
}

} // namespace

// ================================================================== parallel

EXPORT void GOMP_parallel(void (*fn)(void*), void* data, unsigned num_threads, unsigned /*flags*/)
{
  parallel(fn, data, num_threads, nullptr, "GOMP_parallel");
}

EXPORT void GOMP_parallel_start(void (*fn)(void*), void* data, unsigned num_threads)
{
  Thread& me = self();
  hooks()->charge("GOMP_parallel_start");
  parallel_begin(me, fn, data, resolve_threads(me, num_threads), nullptr);
}

EXPORT void GOMP_parallel_end(void)
{
  parallel_end(self());
}

/// parallel with reduction(task, ...): per-thread storage for the reductions, laid out as gcc
/// describes it (d[0] count, d[1] bytes per thread, d[2] alignment in / storage out, d[4] the next
/// descriptor, d[6] the storage's end); gcc combines and calls
/// GOMP_taskgroup_reduction_unregister after the region.
EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void*), void* data, unsigned num_threads, unsigned /*flags*/)
{
  Thread& me = self();
  hooks()->charge("GOMP_parallel_reductions");
  const unsigned n = resolve_threads(me, num_threads);
  for (uintptr_t* d = *static_cast<uintptr_t**>(data); d != nullptr; d = reinterpret_cast<uintptr_t*>(d[4])) {
    const std::size_t align = std::max<std::size_t>(d[2], sizeof(void*));
    const std::size_t size  = std::max<std::size_t>(d[1] * n, 1);
    void* p                 = nullptr;
    if (posix_memalign(&p, align, size) != 0)
      unsupported("parallel reduction(task, ...) (out of memory)");
    std::memset(p, 0, size);
    d[2] = reinterpret_cast<uintptr_t>(p);
    d[5] = 0;
    d[6] = d[2] + d[1] * n;
  }
  parallel_begin(me, fn, data, n, nullptr);
  fn(data);
  parallel_end(me);
  return n;
}

EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t* data)
{
  for (uintptr_t* d = data; d != nullptr; d = reinterpret_cast<uintptr_t*>(d[4]))
    std::free(reinterpret_cast<void*>(d[2]));
}

// ================================================================== barrier, critical, atomic

EXPORT void GOMP_barrier(void)
{
  barrier(self(), "GOMP_barrier");
}

EXPORT void GOMP_critical_start(void)
{
  Thread& me = self();
  lock_acquire(me, me.pe->critical, "GOMP_critical_start", "the unnamed critical section", false);
}

EXPORT void GOMP_critical_end(void)
{
  Thread& me = self();
  lock_release(me, me.pe->critical, "GOMP_critical_end");
}

EXPORT void GOMP_critical_name_start(void** pptr)
{
  Thread& me = self();
  lock_acquire(me, me.pe->locks[pptr], "GOMP_critical_name_start", critical_name(pptr), false);
}

EXPORT void GOMP_critical_name_end(void** pptr)
{
  Thread& me = self();
  lock_release(me, me.pe->locks[pptr], "GOMP_critical_name_end");
}

EXPORT void GOMP_atomic_start(void)
{
  Thread& me = self();
  lock_acquire(me, me.pe->atomic, "GOMP_atomic_start", "the lock of OpenMP atomic constructs", false);
}

EXPORT void GOMP_atomic_end(void)
{
  Thread& me = self();
  lock_release(me, me.pe->atomic, "GOMP_atomic_end");
}

// ================================================================== single

EXPORT bool GOMP_single_start(void)
{
  Thread& me = self();
  hooks()->charge("GOMP_single_start");
  bool first = false;
  ws_enter(me, &first);
  ws_leave(me);
  return first;
}

EXPORT void* GOMP_single_copy_start(void)
{
  Thread& me = self();
  hooks()->charge("GOMP_single_copy_start");
  bool first    = false;
  WorkShare& ws = ws_enter(me, &first);
  if (first)
    return nullptr; // this thread runs the single region, then GOMP_single_copy_end
  barrier(me, "GOMP_single_copy_start");
  void* copy = ws.copy;
  ws_leave(me);
  return copy;
}

EXPORT void GOMP_single_copy_end(void* data)
{
  Thread& me = self();
  hooks()->charge("GOMP_single_copy_end");
  me.ws->copy = data;
  barrier(me, "GOMP_single_copy_end");
  ws_leave(me);
}

// ================================================================== loops (long)

#define LOOP_START(NAME, SCHED, ORDERED)                                                                               \
  EXPORT bool NAME(long start, long end, long incr, long chunk, long* istart, long* iend)                              \
  {                                                                                                                    \
    return loop_start<long>(false, true, start, end, incr, SCHED, static_cast<std::uint64_t>(chunk), istart, iend,     \
                            ORDERED, nullptr, nullptr, #NAME);                                                         \
  }
#define LOOP_RUNTIME_START(NAME, ORDERED)                                                                              \
  EXPORT bool NAME(long start, long end, long incr, long* istart, long* iend)                                          \
  {                                                                                                                    \
    return loop_start<long>(false, true, start, end, incr, kRuntime, 0, istart, iend, ORDERED, nullptr, nullptr,       \
                            #NAME);                                                                                    \
  }
#define LOOP_NEXT(NAME)                                                                                                \
  EXPORT bool NAME(long* istart, long* iend)                                                                           \
  {                                                                                                                    \
    return loop_next<long>(istart, iend, #NAME);                                                                       \
  }

LOOP_START(GOMP_loop_static_start, kStatic, false)
LOOP_START(GOMP_loop_dynamic_start, kDynamic, false)
LOOP_START(GOMP_loop_guided_start, kGuided, false)
LOOP_START(GOMP_loop_nonmonotonic_dynamic_start, kDynamic, false)
LOOP_START(GOMP_loop_nonmonotonic_guided_start, kGuided, false)
LOOP_RUNTIME_START(GOMP_loop_runtime_start, false)
LOOP_RUNTIME_START(GOMP_loop_nonmonotonic_runtime_start, false)
LOOP_RUNTIME_START(GOMP_loop_maybe_nonmonotonic_runtime_start, false)
LOOP_START(GOMP_loop_ordered_static_start, kStatic, true)
LOOP_START(GOMP_loop_ordered_dynamic_start, kDynamic, true)
LOOP_START(GOMP_loop_ordered_guided_start, kGuided, true)
LOOP_RUNTIME_START(GOMP_loop_ordered_runtime_start, true)
LOOP_NEXT(GOMP_loop_static_next)
LOOP_NEXT(GOMP_loop_dynamic_next)
LOOP_NEXT(GOMP_loop_guided_next)
LOOP_NEXT(GOMP_loop_runtime_next)
LOOP_NEXT(GOMP_loop_nonmonotonic_dynamic_next)
LOOP_NEXT(GOMP_loop_nonmonotonic_guided_next)
LOOP_NEXT(GOMP_loop_nonmonotonic_runtime_next)
LOOP_NEXT(GOMP_loop_maybe_nonmonotonic_runtime_next)
LOOP_NEXT(GOMP_loop_ordered_static_next)
LOOP_NEXT(GOMP_loop_ordered_dynamic_next)
LOOP_NEXT(GOMP_loop_ordered_guided_next)
LOOP_NEXT(GOMP_loop_ordered_runtime_next)

EXPORT bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk, long* istart, long* iend,
                            uintptr_t* reductions, void** mem)
{
  return loop_start<long>(false, true, start, end, incr, static_cast<int>(sched), static_cast<std::uint64_t>(chunk),
                          istart, iend, false, reductions, mem, "GOMP_loop_start");
}

EXPORT bool GOMP_loop_ordered_start(long start, long end, long incr, long sched, long chunk, long* istart, long* iend,
                                    uintptr_t* reductions, void** mem)
{
  return loop_start<long>(false, true, start, end, incr, static_cast<int>(sched), static_cast<std::uint64_t>(chunk),
                          istart, iend, true, reductions, mem, "GOMP_loop_ordered_start");
}

EXPORT void GOMP_loop_end(void)
{
  loop_end(true);
}
EXPORT void GOMP_loop_end_nowait(void)
{
  loop_end(false);
}

// ================================================================== loops (unsigned long long)

#define ULL_START(NAME, SCHED, ORDERED)                                                                                \
  EXPORT bool NAME(bool up, ull start, ull end, ull incr, ull chunk, ull* istart, ull* iend)                           \
  {                                                                                                                    \
    return loop_start<ull>(true, up, start, end, incr, SCHED, chunk, istart, iend, ORDERED, nullptr, nullptr, #NAME);  \
  }
#define ULL_RUNTIME_START(NAME, ORDERED)                                                                               \
  EXPORT bool NAME(bool up, ull start, ull end, ull incr, ull* istart, ull* iend)                                      \
  {                                                                                                                    \
    return loop_start<ull>(true, up, start, end, incr, kRuntime, 0, istart, iend, ORDERED, nullptr, nullptr, #NAME);   \
  }
#define ULL_NEXT(NAME)                                                                                                 \
  EXPORT bool NAME(ull* istart, ull* iend)                                                                             \
  {                                                                                                                    \
    return loop_next<ull>(istart, iend, #NAME);                                                                        \
  }

ULL_START(GOMP_loop_ull_static_start, kStatic, false)
ULL_START(GOMP_loop_ull_dynamic_start, kDynamic, false)
ULL_START(GOMP_loop_ull_guided_start, kGuided, false)
ULL_START(GOMP_loop_ull_nonmonotonic_dynamic_start, kDynamic, false)
ULL_START(GOMP_loop_ull_nonmonotonic_guided_start, kGuided, false)
ULL_RUNTIME_START(GOMP_loop_ull_runtime_start, false)
ULL_RUNTIME_START(GOMP_loop_ull_nonmonotonic_runtime_start, false)
ULL_RUNTIME_START(GOMP_loop_ull_maybe_nonmonotonic_runtime_start, false)
ULL_START(GOMP_loop_ull_ordered_static_start, kStatic, true)
ULL_START(GOMP_loop_ull_ordered_dynamic_start, kDynamic, true)
ULL_START(GOMP_loop_ull_ordered_guided_start, kGuided, true)
ULL_RUNTIME_START(GOMP_loop_ull_ordered_runtime_start, true)
ULL_NEXT(GOMP_loop_ull_static_next)
ULL_NEXT(GOMP_loop_ull_dynamic_next)
ULL_NEXT(GOMP_loop_ull_guided_next)
ULL_NEXT(GOMP_loop_ull_runtime_next)
ULL_NEXT(GOMP_loop_ull_nonmonotonic_dynamic_next)
ULL_NEXT(GOMP_loop_ull_nonmonotonic_guided_next)
ULL_NEXT(GOMP_loop_ull_nonmonotonic_runtime_next)
ULL_NEXT(GOMP_loop_ull_maybe_nonmonotonic_runtime_next)
ULL_NEXT(GOMP_loop_ull_ordered_static_next)
ULL_NEXT(GOMP_loop_ull_ordered_dynamic_next)
ULL_NEXT(GOMP_loop_ull_ordered_guided_next)
ULL_NEXT(GOMP_loop_ull_ordered_runtime_next)

EXPORT bool GOMP_loop_ull_start(bool up, ull start, ull end, ull incr, long sched, ull chunk, ull* istart, ull* iend,
                                uintptr_t* reductions, void** mem)
{
  return loop_start<ull>(true, up, start, end, incr, static_cast<int>(sched), chunk, istart, iend, false, reductions,
                         mem, "GOMP_loop_ull_start");
}

EXPORT bool GOMP_loop_ull_ordered_start(bool up, ull start, ull end, ull incr, long sched, ull chunk, ull* istart,
                                        ull* iend, uintptr_t* reductions, void** mem)
{
  return loop_start<ull>(true, up, start, end, incr, static_cast<int>(sched), chunk, istart, iend, true, reductions,
                         mem, "GOMP_loop_ull_ordered_start");
}

// ================================================================== combined parallel loops

#define PARALLEL_LOOP(NAME, SCHED)                                                                                     \
  EXPORT void NAME(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr, long chunk,   \
                   unsigned /*flags*/)                                                                                 \
  {                                                                                                                    \
    parallel_loop(fn, data, num_threads, start, end, incr, SCHED, chunk, #NAME);                                       \
  }
#define PARALLEL_LOOP_RUNTIME(NAME)                                                                                    \
  EXPORT void NAME(void (*fn)(void*), void* data, unsigned num_threads, long start, long end, long incr,               \
                   unsigned /*flags*/)                                                                                 \
  {                                                                                                                    \
    parallel_loop(fn, data, num_threads, start, end, incr, kRuntime, 0, #NAME);                                        \
  }

PARALLEL_LOOP(GOMP_parallel_loop_static, kStatic)
PARALLEL_LOOP(GOMP_parallel_loop_dynamic, kDynamic)
PARALLEL_LOOP(GOMP_parallel_loop_guided, kGuided)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_dynamic, kDynamic)
PARALLEL_LOOP(GOMP_parallel_loop_nonmonotonic_guided, kGuided)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_nonmonotonic_runtime)
PARALLEL_LOOP_RUNTIME(GOMP_parallel_loop_maybe_nonmonotonic_runtime)

// ================================================================== ordered

EXPORT void GOMP_ordered_start(void)
{
  Thread& me = self();
  hooks()->charge("GOMP_ordered_start");
  if (me.ws == nullptr || !me.have_chunk)
    return;
  WorkShare& ws = *me.ws;
  while (ws.ordered_next != me.chunk_lo) {
    me.waiting = "the ordered regions of earlier iterations (iteration " + std::to_string(ws.ordered_next) + " next)";
    team_wait(me, "GOMP_ordered_start");
  }
}

EXPORT void GOMP_ordered_end(void)
{
  hooks()->charge("GOMP_ordered_end"); // the ordered region's computation, in its turn
  // The chunk's later iterations follow in this thread: the turn passes at the end of the chunk.
}

// ================================================================== sections

namespace {
unsigned sections_next(Thread& me, const char* routine)
{
  hooks()->charge(routine);
  std::uint64_t lo = 0, hi = 0;
  if (me.ws == nullptr || !next_chunk(me, &lo, &hi))
    return 0;
  return static_cast<unsigned>(lo + 1);
}

unsigned sections_start(unsigned count, uintptr_t* reductions, void** mem, const char* routine)
{
  Thread& me = self();
  hooks()->charge(routine);
  check_task_reductions(reductions, "sections");
  bool first    = false;
  WorkShare& ws = ws_enter(me, &first);
  if (first)
    loop_init(ws, false, true, 0, count, 1, kDynamic, 1, false);
  conditional_mem(ws, first, mem);
  return sections_next(me, routine);
}
} // namespace

EXPORT unsigned GOMP_sections_start(unsigned count)
{
  return sections_start(count, nullptr, nullptr, "GOMP_sections_start");
}

EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t* reductions, void** mem)
{
  return sections_start(count, reductions, mem, "GOMP_sections2_start");
}

EXPORT unsigned GOMP_sections_next(void)
{
  return sections_next(self(), "GOMP_sections_next");
}

EXPORT void GOMP_sections_end(void)
{
  Thread& me = self();
  ws_leave(me);
  barrier(me, "GOMP_sections_end");
}

EXPORT void GOMP_sections_end_nowait(void)
{
  ws_leave(self());
}

EXPORT void GOMP_parallel_sections(void (*fn)(void*), void* data, unsigned num_threads, unsigned count,
                                   unsigned /*flags*/)
{
  auto* ws = new WorkShare;
  loop_init(*ws, false, true, 0, count, 1, kDynamic, 1, false);
  parallel(fn, data, num_threads, ws, "GOMP_parallel_sections");
}

// ================================================================== tasks

namespace {
/// Wait until the current task's children are complete, running queued tasks meanwhile.
void wait_children(Thread& me, const char* routine)
{
  hooks()->charge(routine);
  Team& t = *me.team;
  while (me.task->children > 0) {
    if (!t.queue.empty()) {
      Task* k = t.queue.front();
      t.queue.pop_front();
      run_task(me, k);
      continue;
    }
    me.waiting = std::to_string(me.task->children) + " child tasks";
    team_wait(me, routine);
  }
}
} // namespace

// gcc 12's flags: 1 untied, 2 final, 4 mergeable, 8 depend, 16 priority, 1 << 13 detach.
EXPORT void GOMP_task(void (*fn)(void*), void* data, void (*cpyfn)(void*, void*), long arg_size, long arg_align,
                      bool if_clause, unsigned flags, void** depend, int /*priority*/, void* detach)
{
  Thread& me = self();
  if (detach != nullptr || (flags & (1u << 13)) != 0)
    unsupported("task detach");
  hooks()->charge("GOMP_task");
  Task* parent   = me.task;
  const bool dep = (flags & 8u) != 0 && depend != nullptr;
  // Tasks with dependences run at once, after their earlier siblings (a stricter order than the
  // dependences ask for).
  if (dep)
    wait_children(me, "GOMP_task");
  auto* t                 = new Task;
  t->fn                   = fn;
  t->parent               = parent;
  t->group                = parent->taskgroup;
  t->taskgroup            = t->group;
  t->final                = (flags & 2u) != 0 || parent->final;
  const std::size_t align = static_cast<std::size_t>(std::max(arg_align, 1L));
  const std::size_t size  = static_cast<std::size_t>(std::max(arg_size, 0L));
  void* block             = nullptr;
  if (posix_memalign(&block, std::max(align, sizeof(void*)), std::max<std::size_t>(size, 1)) != 0)
    unsupported("task (out of memory)");
  if (cpyfn != nullptr)
    cpyfn(block, data);
  else if (size > 0)
    std::memcpy(block, data, size);
  t->data = block;
  ++parent->children;
  if (t->group != nullptr)
    ++t->group->count;
  Team& team = *me.team;
  ++team.outstanding;
  if (!if_clause || dep || parent->final || team.nthreads == 1) {
    run_task(me, t); // undeferred
    return;
  }
  team.queue.push_back(t);
  wake_team(team);
}

EXPORT void GOMP_taskwait(void)
{
  wait_children(self(), "GOMP_taskwait");
}

EXPORT void GOMP_taskwait_depend(void** /*depend*/)
{
  wait_children(self(), "GOMP_taskwait_depend");
}

EXPORT void GOMP_taskyield(void)
{
  hooks()->charge("GOMP_taskyield");
}

EXPORT void GOMP_taskgroup_start(void)
{
  Thread& me         = self();
  auto* g            = new TaskGroup;
  g->prev            = me.task->taskgroup;
  me.task->taskgroup = g;
}

EXPORT void GOMP_taskgroup_end(void)
{
  Thread& me = self();
  hooks()->charge("GOMP_taskgroup_end");
  TaskGroup* g = me.task->taskgroup;
  if (g == nullptr)
    return;
  Team& t = *me.team;
  while (g->count > 0) {
    if (!t.queue.empty()) {
      Task* k = t.queue.front();
      t.queue.pop_front();
      run_task(me, k);
      continue;
    }
    me.waiting = "the " + std::to_string(g->count) + " tasks of a taskgroup";
    team_wait(me, "GOMP_taskgroup_end");
  }
  me.task->taskgroup = g->prev;
  delete g;
}
