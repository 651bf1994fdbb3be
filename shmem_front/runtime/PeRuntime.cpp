#include "shmem_front/runtime/PeRuntime.hpp"

#include "base/ShmemObserver.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <cerrno>
#include <exception>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

namespace sg4 = simgrid::s4u;

namespace shmemsim::front {

namespace {
PeRuntime* g_runtime = nullptr;

// ------------------------------------------------------------------ the hook table

/// The runtime's part of type Part, which implements a hook.
template <class Part> Part& part()
{
  PeRuntime& rt = *g_runtime;
  if constexpr (std::is_same_v<Part, PeRuntime>)
    return rt;
  else if constexpr (std::is_same_v<Part, SimThreads>)
    return rt.threads();
  else if constexpr (std::is_same_v<Part, SyncObjects>)
    return rt.sync();
  else if constexpr (std::is_same_v<Part, ProcessState>)
    return rt.process();
  else {
    static_assert(std::is_same_v<Part, OpenMpSupport>, "a hook names a method of one of the runtime's parts");
    return rt.omp();
  }
}

/// The class of a member function.
template <class C, class R, class... P> C class_of(R (C::*)(P...));
template <class C, class R, class... P> C class_of(R (C::*)(P...) const);

/// Call member `m` on `c` with the hook's C arguments converted to its parameters (int to bool,
/// void* to a record, const char* to a string).
template <class C, class R, class... P, class... A> R call_member(R (C::*m)(P...), C& c, A... a)
{
  return (c.*m)(static_cast<P>(a)...);
}
template <class C, class R, class... P, class... A> R call_member(R (C::*m)(P...) const, C& c, A... a)
{
  return (c.*m)(static_cast<P>(a)...);
}

/// A hook of C type `Hook` that calls member `M` of the part of the running runtime.
template <auto M, class Hook> struct Forward;
template <auto M, class R, class... A> struct Forward<M, R (*)(A...)> {
  static R hook(A... a) { return static_cast<R>(call_member(M, part<decltype(class_of(M))>(), a...)); }
};

#define SHMEMSIM_HOOK(field, method) .field = &Forward<&method, decltype(shmemsim_hooks::field)>::hook

int hook_active()
{
  return g_runtime != nullptr && g_runtime->current_thread() != nullptr ? 1 : 0;
}

const shmemsim_hooks kHooks{
    .active = &hook_active,
    SHMEMSIM_HOOK(now, PeRuntime::now),
    SHMEMSIM_HOOK(sleep, PeRuntime::sleep),
    SHMEMSIM_HOOK(exit, PeRuntime::exit_pe),
    SHMEMSIM_HOOK(libc_state, ProcessState::libc_state),
    SHMEMSIM_HOOK(thread_create, PeRuntime::thread_create),
    SHMEMSIM_HOOK(thread_join, SimThreads::join),
    SHMEMSIM_HOOK(thread_exit, PeRuntime::thread_exit),
    SHMEMSIM_HOOK(thread_self, SimThreads::self_tid),
    SHMEMSIM_HOOK(thread_detach, SimThreads::detach),
    SHMEMSIM_HOOK(mutex_lock, SyncObjects::mutex_lock),
    SHMEMSIM_HOOK(mutex_unlock, SyncObjects::mutex_unlock),
    SHMEMSIM_HOOK(mutex_forget, SyncObjects::mutex_forget),
    SHMEMSIM_HOOK(cond_wait, SyncObjects::cond_wait),
    SHMEMSIM_HOOK(cond_signal, SyncObjects::cond_signal),
    SHMEMSIM_HOOK(barrier_init, SyncObjects::barrier_init),
    SHMEMSIM_HOOK(barrier_wait, SyncObjects::barrier_wait),
    SHMEMSIM_HOOK(yield, PeRuntime::yield),
    SHMEMSIM_HOOK(key_create, SimThreads::key_create),
    SHMEMSIM_HOOK(key_delete, SimThreads::key_delete),
    SHMEMSIM_HOOK(get_specific, SimThreads::get_specific),
    SHMEMSIM_HOOK(set_specific, SimThreads::set_specific),
    SHMEMSIM_HOOK(omp_pe_slot, OpenMpSupport::pe_slot),
    SHMEMSIM_HOOK(omp_thread_slot, OpenMpSupport::thread_slot),
    SHMEMSIM_HOOK(default_threads, OpenMpSupport::default_threads),
    SHMEMSIM_HOOK(pe_cores, OpenMpSupport::pe_cores),
    SHMEMSIM_HOOK(charge, PeRuntime::charge),
    SHMEMSIM_HOOK(self, SimThreads::current),
    SHMEMSIM_HOOK(park, SimThreads::park),
    SHMEMSIM_HOOK(unpark, SimThreads::unpark),
    SHMEMSIM_HOOK(at_pe_exit, OpenMpSupport::set_pe_exit),
    SHMEMSIM_HOOK(fatal, PeRuntime::fatal),
    SHMEMSIM_HOOK(slice, PeRuntime::slice),
    SHMEMSIM_HOOK(memory, PeRuntime::memory),
    SHMEMSIM_HOOK(env_set, ProcessState::env_set),
    SHMEMSIM_HOOK(env_put, ProcessState::env_put),
    SHMEMSIM_HOOK(env_unset, ProcessState::env_unset),
    SHMEMSIM_HOOK(env_clear, ProcessState::env_clear),
};
#undef SHMEMSIM_HOOK
} // namespace

PeRuntime& pe_runtime()
{
  return *g_runtime;
}

PeRuntime::PeRuntime(sim::Simulation& sim, const RuntimeParams& params, std::vector<PeProcess>& pes,
                     WorkCounter counter)
    : sim_(sim), collectives_(params.collectives), async_(params.async), on_exhaustion_(params.contexts_on_exhaustion),
      pes_(sim, pes), threads_(sim, *this), sync_(sim, threads_, *this, params.library_lock),
      accounting_(sim, params, counter), process_(threads_), omp_(params, threads_, pes_)
{
  g_runtime = this;
  sync_.set_address_namer([this](const void* addr) { return pes_.name_address(addr); });
  sim_.set_switch_hooks(&PeRuntime::save_state, &PeRuntime::restore_state, this);
}

PeRuntime::~PeRuntime()
{
  g_runtime = nullptr;
}

const shmemsim_hooks* PeRuntime::hooks() const
{
  return &kHooks;
}

void PeRuntime::set_observer(ShmemObserver* obs)
{
  obs_ = obs;
  accounting_.set_observer(obs);
  sync_.set_observer(obs);
}

// ------------------------------------------------------------------ switches and lifecycles

void PeRuntime::save_state(void* self)
{
  auto* rt     = static_cast<PeRuntime*>(self);
  SimThread* t = rt->threads_.current();
  rt->threads_.forget_current(); // until some actor resumes
  if (t != nullptr) {
    rt->output_.switch_out(*t->pe);
    rt->process_.save(*t);
    rt->accounting_.save(*t);
  }
}

void PeRuntime::restore_state(void* self)
{
  auto* rt     = static_cast<PeRuntime*>(self);
  SimThread* t = rt->threads_.resume();
  rt->accounting_.restore(t);
  if (t != nullptr) {
    rt->process_.restore(*t);
    rt->output_.switch_in(*t->pe);
  }
}

void PeRuntime::spawn_all()
{
  process_.capture_launcher_env(); // as -x/-genv options left it
  accounting_.arm_slices();
  for (PeProcess& pe : pes_.all()) {
    const int id = pe.id;
    sim_.spawn("PE " + std::to_string(id), pe.node, [this, id] { run_pe(id); });
  }
}

void PeRuntime::run_pe(int id)
{
  PeProcess& pe = pes_.at(id);
  SimThread* me = threads_.adopt(pe, 0);
  accounting_.start_thread(*me);
  pe.argv.clear();
  for (std::string& a : pe.args)
    pe.argv.push_back(a.data());
  pe.argv.push_back(nullptr);
  process_.start_pe(pe); // a fresh process state for this PE
  accounting_.start_pe(pe);
  output_.switch_in(pe);
  struct Untag {
    const OutputTagging& output;
    PeProcess& pe;
    ~Untag() { output.close(pe); }
  } untag{output_, pe};
  const int status = pe.main(static_cast<int>(pe.args.size()), pe.argv.data(), pe.env);
  accounting_.charge(pe, threads_.current());
  pe_exiting();
  std::fflush(nullptr);
  pe.exit_status = status;
  pe.finished    = true;
  threads_.finish(*me);
}

void PeRuntime::exit_pe(int status)
{
  sim_.settle(); // the time slices it computed before exit() have passed
  pe_exiting();
  PeProcess* pe   = current();
  pe->exit_status = status;
  pe->finished    = true;
  std::fflush(nullptr);
  threads_.forget_current();
  sg4::this_actor::exit(); // unwinds the PE's stack and ends its actor
  std::abort();
}

int PeRuntime::thread_create(unsigned long* tid, void* (*fn)(void*), void* arg)
{
  PeProcess& pe = *current();
  enter("pthread_create");
  const int index = pe.threads++;
  *tid            = SimThreads::tid_of(pe.id, index);
  leave();
  // Creating an actor is a simcall: other actors may run before this one continues.
  sim::Simulation::SwitchGuard sw(sim_);
  try {
    sim_.spawn("PE " + std::to_string(pe.id) + " thread " + std::to_string(index), pe.node,
               [this, &pe, index, fn, arg] {
                 SimThread* t = threads_.adopt(pe, index);
                 accounting_.start_thread(*t);
                 restore_state(this); // this PE's getopt variables, streams
                 process_.start_thread(pe);
                 t->retval = fn(arg);
                 accounting_.charge(pe, threads_.current());
                 threads_.finish(*t);
               });
  } catch (const sim::NoRoomForStack& e) {
    // What a system out of resources for a thread answers (POSIX: EAGAIN); said once per run.
    --pe.threads;
    static bool said = false;
    if (!said)
      std::fprintf(stderr, "shmemsim-run: PE %d: pthread_create returns EAGAIN: %s\n", pe.id, e.what());
    said = true;
    return EAGAIN;
  }
  return 0;
}

void PeRuntime::thread_exit(void* retval)
{
  SimThread* t = threads_.current();
  enter("pthread_exit");
  accounting_.charge(*t->pe, threads_.current());
  t->retval = retval;
  if (t->index == 0) { // the main thread: the PE's main ends with status 0
    pe_exiting();
    t->pe->finished = true;
    std::fflush(nullptr);
  }
  threads_.finish(*t);
  sg4::this_actor::exit();
  std::abort();
}

// ------------------------------------------------------------------ time

void PeRuntime::now(int which, timespec* ts)
{
  enter(which == 2 ? "clock (CPU time)" : "clock_gettime");
  const double t = wtime();
  leave();
  const auto whole = static_cast<time_t>(t);
  ts->tv_sec       = whole + (which == 0 ? kEpoch : 0);
  ts->tv_nsec      = static_cast<long>((t - static_cast<double>(whole)) * 1e9);
}

void PeRuntime::sleep(double seconds)
{
  enter("sleep");
  if (seconds > 0)
    sim_.sleep_for(seconds_to_ps(seconds));
  leave();
}

int PeRuntime::yield()
{
  enter("sched_yield");
  sim_.yield();
  leave();
  return 0;
}

void PeRuntime::charge(const char* routine)
{
  enter(routine);
  leave();
}

void PeRuntime::slice()
{
  SimThread* t = threads_.current();
  if (t == nullptr || t->pe->finished) {
    accounting_.discard(); // not a PE thread (loading, teardown): nothing to charge
    return;
  }
  accounting_.slice(*t);
  pes_.publish_stores(*t->pe);
}

void PeRuntime::enter(const char* routine)
{
  SimThread& t  = *threads_.current();
  t.routine     = routine;
  t.pe->routine = routine;
  accounting_.charge(*t.pe, &t);
  t.last_call = sim_.queue().now();
  pes_.publish_stores(*t.pe); // stores it made before the call become visible to its siblings
  // The outermost call, when it is a SHMEM routine (not a pthread, clock or OpenMP call the
  // runtime charges alike), is a span of the thread in the trace.
  if (t.calls++ == 0 && std::strncmp(routine, "shmem", 5) == 0) {
    t.in_routine = true;
    if (routine != t.kind_routine) {
      t.kind_routine    = routine;
      t.kind_of_routine = CollectiveTimes::kind_of(routine);
    }
    t.collective   = t.kind_of_routine;
    t.routine_at   = t.last_call;
    t.routine_busy = sim_.busy_time();
    SHMEMSIM_OBSERVE(obs_, routine_begin(t.last_call, t.pe->id, t.index, routine));
  }
}

void PeRuntime::leave()
{
  SimThread* t = threads_.current();
  if (t == nullptr)
    return; // the PE is being torn down (killed at a deadlock or a time limit)
  t->routine     = nullptr;
  t->last_call   = sim_.queue().now();
  t->pe->routine = nullptr;
  if (t->calls > 0 && --t->calls == 0 && t->in_routine) {
    t->in_routine = false;
    // Only calls that return: one left by unwinding (its PE killed at a deadlock or a time limit)
    // never completed.
    if (t->collective >= 0 && std::uncaught_exceptions() == 0)
      collective_times_.add(t->collective, t->last_call - t->routine_at, sim_.busy_time() - t->routine_busy);
    t->collective = -1;
    SHMEMSIM_OBSERVE(obs_, routine_end(t->last_call, t->pe->id, t->index));
  }
  accounting_.left(*t->pe);
}

double PeRuntime::wtime()
{
  return ps_to_seconds(sim_.queue().now());
}

// ------------------------------------------------------------------ the runtime seam

int PeRuntime::my_pe()
{
  PeProcess* pe = current();
  return pe != nullptr ? pe->id : -1;
}

int PeRuntime::n_pes()
{
  return pes_.size();
}

bool PeRuntime::pe_accessible(int pe)
{
  return pe >= 0 && pe < n_pes();
}

void* PeRuntime::heap_base()
{
  return current()->mem.heap;
}

std::size_t PeRuntime::heap_size()
{
  return current()->mem.heap_size;
}

bool PeRuntime::is_symmetric(const void* addr, std::size_t n)
{
  return PeSet::is_symmetric(*current(), addr, n);
}

void* PeRuntime::local_address(const void* addr, int pe)
{
  return pes_.local_address(*current(), addr, pe);
}

void PeRuntime::poll_pause()
{
  accounting_.poll();
}

void PeRuntime::library_lock(const void* lock)
{
  sync_.library_lock(lock);
}

void PeRuntime::startup_barrier()
{
  pes_.startup_barrier();
}

const char* PeRuntime::getenv(const char* name)
{
  return std::getenv(name);
}

CollectiveParams PeRuntime::collectives()
{
  return collectives_;
}

AsyncParams PeRuntime::async_params()
{
  AsyncParams a = async_;
  if (a.workers == 0)
    a.workers = omp_.pe_cores(); // the node's program cores divided among its PEs
  return a;
}

void PeRuntime::fatal(const std::string& message)
{
  std::fflush(nullptr);
  output_.to_real_streams();
  PeProcess* pe = current();
  if (pe != nullptr)
    std::fprintf(stderr, "shmemsim-run: PE %d: %s\n", pe->id, message.c_str());
  else
    std::fprintf(stderr, "shmemsim-run: %s\n", message.c_str());
  std::fflush(stderr);
  std::_Exit(2);
}

void PeRuntime::global_exit(int status)
{
  std::fflush(nullptr);
  output_.to_real_streams();
  if (const PeProcess* pe = current())
    std::fprintf(stderr, "shmemsim-run: PE %d called shmem_global_exit(%d)\n", pe->id, status);
  std::fflush(stderr);
  output_.close_all(pes_.all());
  std::_Exit(status);
}

} // namespace shmemsim::front
