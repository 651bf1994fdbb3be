// AsyncSHMEM's routines (seed 001; shmemx.h, section ASYNCSHMEM): settings, the per-PE runtime's
// lifetime, and argument checks. The runtime itself is AsyncPe; the design's transport AsyncTransport.
#include "shmem_front/lib/Compare.hpp"
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/async/AsyncPe.hpp"
#include "shmem_front/lib/async/AsyncSummary.hpp"
#include "shmem_front/lib/async/AsyncTransport.hpp"
#include "shmem_front/lib/async/Promise.hpp"

#include <shmem.h>
#include <shmemx.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace shmemsim::front;
using namespace shmemsim::front::async;

namespace {
/// Per PE: its running runtime (null outside shmemx_worker_init), its promises, its last stats.
struct PeAsync {
  std::unique_ptr<AsyncPe> rt;
  std::vector<std::unique_ptr<shmemsim_promise>> promises;
  shmemx_async_stats_t last{};
  unsigned long runs = 0; ///< runtimes that returned (last is the latest's)
};
std::vector<PeAsync> g_pes;

PeAsync& mine()
{
  const int me = rt().my_pe();
  if (g_pes.size() < static_cast<std::size_t>(rt().n_pes()))
    g_pes.resize(static_cast<std::size_t>(rt().n_pes()));
  return g_pes[static_cast<std::size_t>(me)];
}

/// The settings: the environment wins over the scenario's keys.
AsyncParams settings(const Entry& e)
{
  AsyncParams a = rt().async_params();
  if (const char* v = rt().getenv("SHMEM_ASYNC_WORKERS"); v != nullptr) {
    char* end    = nullptr;
    errno        = 0;
    const long n = std::strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno != 0 || n < 1 || n > 1024)
      e.fail(std::string("SHMEM_ASYNC_WORKERS='") + v + "' is not a number of workers (1..1024)");
    a.workers = static_cast<int>(n);
  }
  if (const char* v = rt().getenv("SHMEM_ASYNC_RUNTIME"); v != nullptr) {
    if (std::strcmp(v, "offload") == 0)
      a.design = AsyncDesign::Offload;
    else if (std::strcmp(v, "contexts") == 0)
      a.design = AsyncDesign::Contexts;
    else
      e.fail(std::string("SHMEM_ASYNC_RUNTIME='") + v + "' is not a runtime design (offload or contexts)");
  }
  if (a.workers < 1)
    a.workers = 1;
  return a;
}

/// The calling PE's running runtime; misuse outside shmemx_worker_init is fatal.
AsyncPe& running(const Entry& e)
{
  AsyncPe* a = current();
  if (a == nullptr)
    e.fail("called outside shmemx_worker_init (tasks need the PE's AsyncSHMEM runtime)");
  return *a;
}

shmemsim_promise* promise_of(const Entry& e, void* p, const char* what)
{
  auto* pr = static_cast<shmemsim_promise*>(p);
  if (pr == nullptr)
    e.fail(std::string(what) + " is NULL");
  if (pr->magic != shmemsim_promise{}.magic)
    e.fail(std::string(what) + " " + hex(p) + " is not a promise or future of shmemx_create_promise/_task_future");
  if (pr->pe != rt().my_pe())
    e.fail(std::string(what) + " " + hex(p) + " belongs to PE " + std::to_string(pr->pe) +
           " (promises and futures are local to the PE that made them)");
  return pr;
}

shmemsim_promise* new_promise()
{
  auto p                = std::make_unique<shmemsim_promise>();
  p->pe                 = rt().my_pe();
  shmemsim_promise* raw = p.get();
  mine().promises.push_back(std::move(p));
  return raw;
}

void check_body(const Entry& e, const void* body)
{
  if (body == nullptr)
    e.fail("the task body is NULL");
}

void run_runtime(void (*entrypoint)(void*), void* data, const AsyncParams& a)
{
  PeAsync& pa = mine();
  pa.rt       = std::make_unique<AsyncPe>(rt().my_pe(), a.workers, a.design, rt(), tp(), contexts());
  pa.rt->start();
  pa.rt->run_root(entrypoint, data);
  const Stats& s          = pa.rt->stats();
  pa.last.workers         = a.workers;
  pa.last.runtime         = a.design == AsyncDesign::Contexts ? SHMEMX_ASYNC_CONTEXTS : SHMEMX_ASYNC_OFFLOAD;
  pa.last.tasks           = s.tasks;
  pa.last.steals          = s.steals;
  pa.last.offloaded       = s.offloaded;
  pa.last.watches_fired   = s.watches_fired;
  pa.last.watcher_wakeups = s.watcher_wakeups;
  pa.last.comm_busy_s     = s.comm_busy_s;
  pa.last.comm_queue_s    = s.comm_queue_s;
  pa.last.span_s          = s.span_s;
  pa.last.suspensions     = s.suspensions;
  pa.last.threads         = s.threads;
  ++pa.runs;
  pa.rt.reset(); // destroys the workers' contexts
  pa.promises.clear();
}
} // namespace

namespace shmemsim::front::async {

std::vector<PeRecord> records()
{
  std::vector<PeRecord> out;
  for (std::size_t i = 0; i < g_pes.size(); ++i) {
    const PeAsync& pa = g_pes[i];
    if (pa.runs == 0)
      continue;
    PeRecord r;
    r.pe           = static_cast<int>(i);
    r.runs         = pa.runs;
    r.workers      = pa.last.workers;
    r.contexts     = pa.last.runtime == SHMEMX_ASYNC_CONTEXTS;
    r.tasks        = pa.last.tasks;
    r.steals       = pa.last.steals;
    r.offloaded    = pa.last.offloaded;
    r.suspensions  = pa.last.suspensions;
    r.comm_busy_s  = pa.last.comm_busy_s;
    r.comm_queue_s = pa.last.comm_queue_s;
    r.span_s       = pa.last.span_s;
    out.push_back(r);
  }
  return out;
}
AsyncPe* current()
{
  const int me = rt().my_pe();
  if (me < 0 || static_cast<std::size_t>(me) >= g_pes.size())
    return nullptr;
  return g_pes[static_cast<std::size_t>(me)].rt.get();
}
} // namespace shmemsim::front::async

extern "C" {

void shmemx_worker_init(void (*entrypoint)(void*), void* data)
{
  AsyncParams a;
  bool init_here = false;
  {
    Entry e("shmemx_worker_init", true);
    check_body(e, reinterpret_cast<const void*>(entrypoint));
    if (current() != nullptr)
      e.fail("the PE's AsyncSHMEM runtime is already running (shmemx_worker_init does not nest)");
    a         = settings(e);
    init_here = !e.pe().initialized;
    if (!init_here && a.design == AsyncDesign::Contexts && e.pe().thread_level != SHMEM_THREAD_MULTIPLE)
      e.fail("the contexts runtime needs SHMEM_THREAD_MULTIPLE: initialize with shmem_init_thread("
             "SHMEM_THREAD_MULTIPLE, ...) or let shmemx_worker_init initialize");
  }
  if (init_here) {
    // Offload: only the communication worker communicates, one call at a time; contexts: every worker.
    int provided = 0;
    shmem_init_thread(a.design == AsyncDesign::Contexts ? SHMEM_THREAD_MULTIPLE : SHMEM_THREAD_SERIALIZED, &provided);
  }
  install_transport();
  run_runtime(entrypoint, data, a);
  if (init_here)
    shmem_finalize();
}

int shmemx_my_worker(void)
{
  Entry e("shmemx_my_worker", true);
  if (AsyncPe* a = current())
    return a->my_worker();
  return 0; // no runtime: the calling thread is all there is
}

int shmemx_n_workers(void)
{
  Entry e("shmemx_n_workers", true);
  if (AsyncPe* a = current())
    return a->workers();
  return settings(e).workers;
}

void shmemx_task(void (*body)(void*), void* data)
{
  Entry e("shmemx_task");
  check_body(e, reinterpret_cast<const void*>(body));
  Task t;
  t.body = body;
  t.data = data;
  running(e).spawn(t);
}

void shmemx_parallel_for(int lower_bound, int upper_bound, void (*body)(int, void*), void* data)
{
  Entry e("shmemx_parallel_for");
  check_body(e, reinterpret_cast<const void*>(body));
  AsyncPe& a = running(e);
  if (upper_bound <= lower_bound)
    return; // an empty range makes no task
  Task t;
  t.ibody = body;
  t.data  = data;
  t.lo    = lower_bound;
  t.hi    = upper_bound;
  a.spawn(t);
}

void shmemx_task_scope_begin(void)
{
  Entry e("shmemx_task_scope_begin");
  running(e).scope_begin();
}

void shmemx_task_scope_end(void)
{
  AsyncPe* a = nullptr;
  {
    Entry e("shmemx_task_scope_end");
    a = &running(e);
  }
  a->scope_end(); // outside the entry: the worker runs other tasks meanwhile
}

shmemx_promise_t* shmemx_create_promise(void)
{
  Entry e("shmemx_create_promise");
  running(e);
  return reinterpret_cast<shmemx_promise_t*>(new_promise());
}

shmemx_future_t* shmemx_future_for_promise(shmemx_promise_t* promise)
{
  Entry e("shmemx_future_for_promise");
  return reinterpret_cast<shmemx_future_t*>(promise_of(e, promise, "promise"));
}

void shmemx_satisfy_promise(shmemx_promise_t* promise, void* data)
{
  Entry e("shmemx_satisfy_promise");
  shmemsim_promise* p = promise_of(e, promise, "promise");
  if (!running(e).satisfy(p, data))
    e.fail("promise " + hex(promise) + " is already satisfied (promises are single assignment)");
}

void* shmemx_future_wait(shmemx_future_t* future)
{
  AsyncPe* a          = nullptr;
  shmemsim_promise* p = nullptr;
  {
    Entry e("shmemx_future_wait");
    a = &running(e);
    p = promise_of(e, future, "future");
  }
  return a->future_wait(p);
}

void shmemx_task_await(shmemx_future_t* future, void (*body)(void*), void* data)
{
  Entry e("shmemx_task_await");
  check_body(e, reinterpret_cast<const void*>(body));
  shmemsim_promise* p = promise_of(e, future, "future");
  Task t;
  t.body = body;
  t.data = data;
  running(e).await(p, t);
}

shmemx_future_t* shmemx_task_future(void* (*body)(void*), void* data)
{
  Entry e("shmemx_task_future");
  check_body(e, reinterpret_cast<const void*>(body));
  AsyncPe& a = running(e);
  Task t;
  t.fbody   = body;
  t.data    = data;
  t.promise = new_promise();
  a.spawn(t);
  return reinterpret_cast<shmemx_future_t*>(t.promise);
}

void shmemx_int_task_when(int* ivar, int cond, int value, void (*body)(void*), void* data)
{
  Entry e("shmemx_int_task_when");
  check_body(e, reinterpret_cast<const void*>(body));
  check_cmp(e, cond);
  e.check_symmetric(ivar, sizeof(int), "ivar");
  Watch w;
  w.ivars     = ivar;
  w.cmp       = cond;
  w.value     = value;
  w.task.body = body;
  w.task.data = data;
  running(e).watch(std::move(w));
}

void shmemx_int_task_when_any(int* ivars, size_t nelems, const int* status, int cond, int value, void (*body)(void*),
                              void* data)
{
  Entry e("shmemx_int_task_when_any");
  check_body(e, reinterpret_cast<const void*>(body));
  check_cmp(e, cond);
  if (nelems == 0)
    e.fail("nelems is 0: no variable could ever satisfy the condition");
  e.check_symmetric(ivars, nelems * sizeof(int), "ivars");
  Watch w;
  w.ivars = ivars;
  w.n     = nelems;
  if (status != nullptr) {
    w.status.assign(status, status + nelems);
    bool any = false;
    for (int s : w.status)
      any = any || s == 0;
    if (!any)
      e.fail("every element is excluded by status: no variable could ever satisfy the condition");
  }
  w.cmp       = cond;
  w.value     = value;
  w.task.body = body;
  w.task.data = data;
  running(e).watch(std::move(w));
}

void shmemx_async_stats(shmemx_async_stats_t* stats)
{
  Entry e("shmemx_async_stats", true);
  if (stats == nullptr)
    e.fail("stats is NULL");
  PeAsync& pa = mine();
  *stats      = pa.last;
  if (pa.rt) {
    const Stats& s         = pa.rt->stats();
    stats->workers         = pa.rt->workers();
    stats->runtime         = pa.rt->design() == AsyncDesign::Contexts ? SHMEMX_ASYNC_CONTEXTS : SHMEMX_ASYNC_OFFLOAD;
    stats->tasks           = s.tasks;
    stats->steals          = s.steals;
    stats->offloaded       = s.offloaded;
    stats->watches_fired   = s.watches_fired;
    stats->watcher_wakeups = s.watcher_wakeups;
    stats->comm_busy_s     = s.comm_busy_s;
    stats->comm_queue_s    = s.comm_queue_s;
    stats->span_s          = s.span_s;
    stats->suspensions     = s.suspensions;
    stats->threads         = s.threads;
  }
}

} // extern "C"
