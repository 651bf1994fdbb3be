#include "shmem_front/runtime/PeRuntime.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <dlfcn.h>

#include <algorithm>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace sg4 = simgrid::s4u;

namespace shmemsim::front {

namespace {
PeRuntime* g_runtime = nullptr;

/// Counted compute mode: what one executed basic block costs, in flop of platform.core_speed.
constexpr double kFlopsPerBlock = 4.0;

/// Simulated wall-clock time starts at a fixed date, so runs are reproducible:
/// 2014-09-01T00:00:00Z (the contexts paper's year).
constexpr time_t kEpoch = 1409529600;

int hook_active()
{
  return g_runtime != nullptr && g_runtime->current_thread() != nullptr ? 1 : 0;
}

void hook_now(int which, timespec* ts)
{
  PeRuntime& rt = *g_runtime;
  rt.enter(which == 2 ? "clock (CPU time)" : "clock_gettime");
  const double t = rt.wtime();
  rt.leave();
  const auto whole = static_cast<time_t>(t);
  ts->tv_sec       = whole + (which == 0 ? kEpoch : 0);
  ts->tv_nsec      = static_cast<long>((t - static_cast<double>(whole)) * 1e9);
}

void hook_sleep(double seconds)
{
  PeRuntime& rt = *g_runtime;
  rt.enter("sleep");
  if (seconds > 0)
    rt.sleep(seconds);
  rt.leave();
}

void hook_exit(int status)
{
  g_runtime->pe_exiting();
  PeProcess* pe = g_runtime->current();
  pe->exit_status = status;
  pe->finished    = true;
  std::fflush(nullptr);
  g_runtime->forget_current();
  sg4::this_actor::exit(); // unwinds the PE's stack and ends its actor
  std::abort();
}

shmemsim_libc_state* hook_libc_state()
{
  return &g_runtime->current()->libc;
}

int hook_thread_create(unsigned long* tid, void* (*fn)(void*), void* arg) { return g_runtime->thread_create(tid, fn, arg); }
int hook_thread_join(unsigned long tid, void** ret) { return g_runtime->thread_join(tid, ret); }
void hook_thread_exit(void* ret) { g_runtime->thread_exit(ret); }
unsigned long hook_thread_self() { return g_runtime->current_thread()->tid; }
int hook_thread_detach(unsigned long)
{
  g_runtime->current_thread(); // detached threads need no join: nothing to release
  return 0;
}
int hook_mutex_lock(void* m, int try_only) { return g_runtime->mutex_lock(m, try_only != 0); }
int hook_mutex_unlock(void* m) { return g_runtime->mutex_unlock(m); }
int hook_mutex_forget(void* m) { return g_runtime->mutex_forget(m); }
int hook_cond_wait(void* c, void* m, const timespec* t) { return g_runtime->cond_wait(c, m, t); }
int hook_cond_signal(void* c, int all) { return g_runtime->cond_signal(c, all != 0); }
int hook_barrier_init(void* b, unsigned n) { return g_runtime->barrier_init(b, n); }
int hook_barrier_wait(void* b) { return g_runtime->barrier_wait(b); }
int hook_yield()
{
  g_runtime->enter("sched_yield");
  g_runtime->yield();
  g_runtime->leave();
  return 0;
}
int hook_key_create(unsigned* k, void (*d)(void*)) { return g_runtime->key_create(k, d); }
int hook_key_delete(unsigned k) { return g_runtime->key_delete(k); }
void* hook_get_specific(unsigned k)
{
  auto& m = g_runtime->current_thread()->specific;
  auto it = m.find(k);
  return it == m.end() ? nullptr : const_cast<void*>(it->second);
}
int hook_set_specific(unsigned k, const void* v)
{
  g_runtime->current_thread()->specific[k] = v;
  return 0;
}

void** hook_omp_pe_slot() { return &g_runtime->current()->omp; }
void** hook_omp_thread_slot() { return &g_runtime->current_thread()->omp; }
int hook_default_threads() { return g_runtime->default_threads(); }
int hook_pe_cores() { return g_runtime->pe_cores(); }
void hook_charge(const char* routine)
{
  g_runtime->enter(routine);
  g_runtime->leave();
}
void* hook_self() { return g_runtime->current_thread(); }
void hook_park(const char* routine, const char* what) { g_runtime->park(routine, what); }
void hook_unpark(void* t) { g_runtime->unpark(static_cast<SimThread*>(t)); }
void hook_at_pe_exit(void (*fn)()) { g_runtime->set_pe_exit(fn); }
void hook_fatal(const char* message) { g_runtime->fatal(message); }
void hook_slice() { g_runtime->slice(); }
int hook_env_set(const char* n, const char* v, int o) { return g_runtime->env_set(n, v, o != 0); }
int hook_env_put(char* e) { return g_runtime->env_put(e); }
int hook_env_unset(const char* n) { return g_runtime->env_unset(n); }
int hook_env_clear() { return g_runtime->env_clear(); }

/// libc's own process variables. The launcher must not name them directly: that would create
/// copy relocations in the executable, which libc then updates while the program copies (bound
/// with RTLD_DEEPBIND) keep reading libc's original definitions.
struct LibcVars {
  int* optind;
  int* opterr;
  int* optopt;
  char** optarg;
  char*** environ_;
  FILE** stdout_;
  FILE** stderr_;
  LibcVars()
  {
    void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    optind     = static_cast<int*>(dlsym(libc, "optind"));
    opterr     = static_cast<int*>(dlsym(libc, "opterr"));
    optopt     = static_cast<int*>(dlsym(libc, "optopt"));
    optarg     = static_cast<char**>(dlsym(libc, "optarg"));
    environ_   = static_cast<char***>(dlsym(libc, "environ"));
    stdout_    = static_cast<FILE**>(dlsym(libc, "stdout"));
    stderr_    = static_cast<FILE**>(dlsym(libc, "stderr"));
  }
};

const LibcVars& libc_vars()
{
  static const LibcVars v;
  return v;
}

/// Point stdout/stderr at `out`/`err`: both libc's own variables (read by the program copies)
/// and this executable's copies (read by libc's printf, through the copy relocation).
FILE* g_real_out = nullptr;
FILE* g_real_err = nullptr;

void use_streams(FILE* out, FILE* err)
{
  const LibcVars& v = libc_vars();
  *v.stdout_        = out;
  *v.stderr_        = err;
  stdout            = out;
  stderr            = err;
}

/// A stream that writes complete lines to `fd`, each prefixed with "[PE n] ".
struct TaggedStream {
  int fd;
  std::string prefix;
  std::string pending;
  static ssize_t write(void* cookie, const char* buf, std::size_t size)
  {
    auto* t = static_cast<TaggedStream*>(cookie);
    t->pending.append(buf, size);
    std::size_t start = 0, nl;
    while ((nl = t->pending.find('\n', start)) != std::string::npos) {
      const std::string line = t->prefix + t->pending.substr(start, nl + 1 - start);
      (void)!::write(t->fd, line.data(), line.size());
      start = nl + 1;
    }
    t->pending.erase(0, start);
    return static_cast<ssize_t>(size);
  }
  static int close(void* cookie)
  {
    auto* t = static_cast<TaggedStream*>(cookie);
    if (!t->pending.empty()) {
      const std::string line = t->prefix + t->pending + "\n";
      (void)!::write(t->fd, line.data(), line.size());
    }
    delete t;
    return 0;
  }
};

FILE* tagged(int fd, int pe)
{
  cookie_io_functions_t io{};
  io.write = &TaggedStream::write;
  io.close = &TaggedStream::close;
  FILE* f  = fopencookie(new TaggedStream{fd, "[PE " + std::to_string(pe) + "] ", {}}, "w", io);
  setvbuf(f, nullptr, _IOLBF, 0);
  return f;
}

/// The live TLS block of a PE's program copy in this OS thread (allocated on first use). All
/// simulated threads run on one OS thread, so each keeps its own copy of the block and the
/// runtime swaps it in and out at every switch.
std::byte* tls_block(const PeProcess& pe)
{
  void* p = nullptr;
  dlinfo(pe.handle, RTLD_DI_TLS_DATA, &p);
  if (p == nullptr) {
    struct TlsIndex {
      unsigned long module, offset;
    } index{0, 0};
    std::size_t modid = 0;
    dlinfo(pe.handle, RTLD_DI_TLS_MODID, &modid);
    index.module      = modid;
    static auto* get  = reinterpret_cast<void* (*)(TlsIndex*)>(dlsym(RTLD_DEFAULT, "__tls_get_addr"));
    p                 = get(&index);
  }
  return static_cast<std::byte*>(p);
}

double thread_cpu_seconds()
{
  timespec ts;
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); // the simulator's own call: the real clock
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
} // namespace

PeRuntime& pe_runtime()
{
  return *g_runtime;
}

PeRuntime::PeRuntime(sim::Simulation& sim, const scenarios::Scenario& sc, std::vector<PeProcess>& pes,
                     BlockCounter counter, double poll_cost_s)
    : sim_(sim), sc_(sc), pes_(pes), blocks_(counter.blocks), slice_blocks_(counter.slice_blocks),
      poll_cost_(sim::seconds_to_ps(poll_cost_s)), core_speed_(sc.platform.hosts.core_speed)
{
  // The quantum in blocks at the counted rate (4 flop of core_speed per block, times
  // compute_scale); without a counted cost (none, or a zero scale) at the unscaled rate.
  const double per_block = kFlopsPerBlock * (sc.job.compute_scale > 0 ? sc.job.compute_scale : 1.0);
  const double quantum   = sim::ps_to_seconds(sc.job.compute_quantum) * core_speed_ / per_block;
  quantum_blocks_        = quantum < 1 ? 1 : quantum > 1e18 ? static_cast<unsigned long>(1e18)
                                                              : static_cast<unsigned long>(quantum);
  g_runtime          = this;
  hooks_.active      = hook_active;
  hooks_.now         = hook_now;
  hooks_.sleep       = hook_sleep;
  hooks_.exit        = hook_exit;
  hooks_.libc_state  = hook_libc_state;
  hooks_.thread_create = hook_thread_create;
  hooks_.thread_join   = hook_thread_join;
  hooks_.thread_exit   = hook_thread_exit;
  hooks_.thread_self   = hook_thread_self;
  hooks_.thread_detach = hook_thread_detach;
  hooks_.mutex_lock    = hook_mutex_lock;
  hooks_.mutex_unlock  = hook_mutex_unlock;
  hooks_.mutex_forget  = hook_mutex_forget;
  hooks_.cond_wait     = hook_cond_wait;
  hooks_.cond_signal   = hook_cond_signal;
  hooks_.barrier_init  = hook_barrier_init;
  hooks_.barrier_wait  = hook_barrier_wait;
  hooks_.yield         = hook_yield;
  hooks_.key_create    = hook_key_create;
  hooks_.key_delete    = hook_key_delete;
  hooks_.get_specific  = hook_get_specific;
  hooks_.set_specific  = hook_set_specific;
  hooks_.omp_pe_slot     = hook_omp_pe_slot;
  hooks_.omp_thread_slot = hook_omp_thread_slot;
  hooks_.default_threads = hook_default_threads;
  hooks_.pe_cores        = hook_pe_cores;
  hooks_.charge          = hook_charge;
  hooks_.self            = hook_self;
  hooks_.park            = hook_park;
  hooks_.unpark          = hook_unpark;
  hooks_.at_pe_exit      = hook_at_pe_exit;
  hooks_.fatal           = hook_fatal;
  hooks_.slice           = hook_slice;
  hooks_.env_set         = hook_env_set;
  hooks_.env_put         = hook_env_put;
  hooks_.env_unset       = hook_env_unset;
  hooks_.env_clear       = hook_env_clear;
  sim_.set_switch_hooks(&PeRuntime::save_state, &PeRuntime::restore_state, this);
}

PeRuntime::~PeRuntime()
{
  if (launcher_env_ != nullptr)
    *libc_vars().environ_ = launcher_env_;
  g_runtime = nullptr;
}

void PeRuntime::sleep(double seconds)
{
  sim_.sleep_for(sim::seconds_to_ps(seconds));
}

SimThread* PeRuntime::lookup_current()
{
  sg4::Actor* self = sg4::Actor::self();
  if (self == nullptr)
    return nullptr;
  const auto pid = static_cast<std::size_t>(self->get_pid());
  return pid < thread_of_pid_.size() ? thread_of_pid_[pid] : nullptr;
}

SimThread* PeRuntime::adopt_actor(PeProcess& pe, int index)
{
  SimThread& t = threads_.emplace_back();
  t.pe         = &pe;
  t.index      = index;
  t.tid        = (static_cast<unsigned long>(pe.id) + 1) << 16 | static_cast<unsigned long>(index);
  t.notifier   = &sim_.self_notifier();
  t.notifier->set_context(&t.routine);
  by_tid_[t.tid] = &t;
  const auto pid = static_cast<std::size_t>(sg4::this_actor::get_pid());
  if (thread_of_pid_.size() <= pid)
    thread_of_pid_.resize(pid + 1, nullptr);
  thread_of_pid_[pid] = &t;
  current_            = &t;
  *blocks_            = 0; // a new thread has computed nothing yet
  t.last_call         = sim_.queue().now();
  return &t;
}

void PeRuntime::tag_output()
{
  std::fflush(nullptr);
  g_real_out = stdout;
  g_real_err = stderr;
  for (PeProcess& pe : pes_) {
    pe.out     = tagged(1, pe.id);
    pe.err_out = tagged(2, pe.id);
  }
}

void PeRuntime::save_state(void* self)
{
  auto* rt      = static_cast<PeRuntime*>(self);
  SimThread* t  = rt->current_;
  rt->current_  = nullptr; // until some actor resumes
  if (t != nullptr) {
    PeProcess* pe = t->pe;
    if (pe->out != nullptr)
      use_streams(g_real_out, g_real_err);
    const LibcVars& v = libc_vars();
    pe->optind        = *v.optind;
    pe->opterr        = *v.opterr;
    pe->optopt        = *v.optopt;
    pe->optarg        = *v.optarg;
    pe->env           = *v.environ_;
    *v.environ_       = rt->launcher_env_; // the simulator's own environment between PEs
    t->err            = errno;
    t->blocks         = *rt->blocks_;
    if (pe->tls_memsz > 0 && pe->threads > 1) {
      t->tls.resize(pe->tls_memsz);
      std::memcpy(t->tls.data(), tls_block(*pe), pe->tls_memsz);
    }
  }
}

void PeRuntime::restore_state(void* self)
{
  auto* rt     = static_cast<PeRuntime*>(self);
  rt->current_ = rt->lookup_current();
  *rt->blocks_ = rt->current_ != nullptr ? rt->current_->blocks : 0;
  if (SimThread* t = rt->current_) {
    PeProcess* pe     = t->pe;
    const LibcVars& v = libc_vars();
    *v.optind         = pe->optind;
    *v.opterr         = pe->opterr;
    *v.optopt         = pe->optopt;
    *v.optarg         = pe->optarg;
    *v.environ_       = pe->env;
    errno             = t->err;
    if (!t->tls.empty())
      std::memcpy(tls_block(*pe), t->tls.data(), t->tls.size());
    if (pe->out != nullptr)
      use_streams(pe->out, pe->err_out);
  }
}

void PeRuntime::spawn_all()
{
  launcher_env_ = *libc_vars().environ_; // as -x/-genv options left it
  *slice_blocks_ = quantum_blocks_;
  for (PeProcess& pe : pes_) {
    const int id = pe.id;
    sim_.spawn("PE " + std::to_string(id), pe.node, [this, id] { run_pe(id); });
  }
}

void PeRuntime::run_pe(int id)
{
  PeProcess& pe = pes_[static_cast<std::size_t>(id)];
  SimThread* me = adopt_actor(pe, 0);
  pe.argv.clear();
  for (std::string& a : pe.args)
    pe.argv.push_back(a.data());
  pe.argv.push_back(nullptr);
  // A fresh process state for this PE.
  const LibcVars& v = libc_vars();
  *v.optind         = 1;
  *v.opterr         = 1;
  *v.optopt         = '?';
  *v.optarg         = nullptr;
  // Its own environment: a copy of the launcher's (setenv, putenv and unsetenv of one PE are not
  // seen by the others; libc's setenv gives a PE a new array of its own when it changes it).
  pe.env_storage.clear();
  for (char** e = launcher_env_; e != nullptr && *e != nullptr; ++e)
    pe.env_storage.push_back(*e);
  pe.env_storage.push_back(nullptr);
  pe.env      = pe.env_storage.data();
  *v.environ_ = pe.env;
  errno             = 0;
  *blocks_ = 0;
  pe.cpu_mark = thread_cpu_seconds();
  if (pe.out != nullptr)
    use_streams(pe.out, pe.err_out);
  struct Untag {
    PeProcess& pe;
    ~Untag()
    {
      if (pe.out != nullptr) {
        std::fclose(pe.out);
        std::fclose(pe.err_out);
        pe.out = pe.err_out = nullptr;
        use_streams(g_real_out, g_real_err);
      }
    }
  } untag{pe};
  const int status = pe.main(static_cast<int>(pe.args.size()), pe.argv.data(), pe.env);
  charge_compute(pe);
  pe_exiting();
  std::fflush(nullptr);
  pe.exit_status = status;
  pe.finished    = true;
  finish_thread(me);
}

int PeRuntime::exit_status() const
{
  int worst = 0;
  for (const PeProcess& pe : pes_)
    if (pe.exit_status != 0 && worst == 0)
      worst = pe.exit_status;
  return worst;
}

void PeRuntime::charge_compute(PeProcess& pe, bool sliced)
{
  double flops = 0;
  switch (sc_.job.compute) {
    case scenarios::ComputeMode::Counted: {
      const unsigned long blocks = *blocks_;
      *blocks_                   = 0;
      flops                      = static_cast<double>(blocks) * kFlopsPerBlock * sc_.job.compute_scale;
      break;
    }
    case scenarios::ComputeMode::Measured: {
      *blocks_         = 0;
      const double now = thread_cpu_seconds();
      flops            = (now - pe.cpu_mark) * core_speed_ * sc_.job.compute_scale;
      break;
    }
    case scenarios::ComputeMode::None:
      *blocks_ = 0;
      break;
  }
  SimThread* t = current_;
  const sim::Ps t0 = sim_.queue().now();
  if (flops > 0) {
    if (t != nullptr)
      t->computing = true;
    sim_.execute(flops);
    if (t != nullptr)
      t->computing = false;
  }
  if (sc_.job.compute == scenarios::ComputeMode::Measured)
    pe.cpu_mark = thread_cpu_seconds(); // other actors ran meanwhile on this OS thread
  if (t == nullptr) {
    if (flops > 0)
      SHMEMSIM_OBSERVE(obs_, compute(t0, sim_.queue().now() - t0, pe.id, 0));
    return;
  }
  // Consecutive time slices are one computation for the observer.
  if (sliced) {
    if (t->sliced_from < 0)
      t->sliced_from = t0;
    return;
  }
  const sim::Ps from = t->sliced_from >= 0 ? t->sliced_from : t0;
  t->sliced_from     = -1;
  if (sim_.queue().now() > from)
    SHMEMSIM_OBSERVE(obs_, compute(from, sim_.queue().now() - from, pe.id, t->index));
}

void PeRuntime::slice()
{
  SimThread* t = current_;
  if (t == nullptr || t->pe->finished) {
    *blocks_ = 0; // not a PE thread (loading, teardown): nothing to charge
    return;
  }
  const bool counted_cost = sc_.job.compute != scenarios::ComputeMode::None && sc_.job.compute_scale > 0;
  if (counted_cost) {
    charge_compute(*t->pe, true);
  } else {
    // Computation is free: the slice is a poll, so that a spin-wait lets time and the network move.
    *blocks_ = 0;
    if (t->sliced_from < 0)
      t->sliced_from = sim_.queue().now();
    t->computing = true;
    sim_.sleep_for(poll_cost_);
    t->computing = false;
  }
  publish_stores(*t->pe);
}

void PeRuntime::publish_stores(const PeProcess& pe)
{
  if (!store_listener_)
    return;
  if (!pe.maps_peers) {
    store_listener_(pe.id);
    return;
  }
  // It may also have stored to the memory of PEs of its node, through shmem_ptr.
  for (const PeProcess& p : pes_)
    if (p.node == pe.node)
      store_listener_(p.id);
}

namespace {
/// Whether `entry` ("NAME=value") defines the variable `name` of `len` characters.
bool defines(const char* entry, const char* name, std::size_t len)
{
  return std::strncmp(entry, name, len) == 0 && entry[len] == '=';
}

bool bad_env_name(const char* name)
{
  return name == nullptr || *name == '\0' || std::strchr(name, '=') != nullptr;
}

/// Make the PE's environment array its own (the program may have pointed environ elsewhere).
std::vector<char*>& own_env(PeProcess& pe)
{
  char** cur = *libc_vars().environ_;
  if (pe.env_storage.empty() || cur != pe.env_storage.data()) {
    std::vector<char*> copy;
    for (char** e = cur; e != nullptr && *e != nullptr; ++e)
      copy.push_back(*e);
    copy.push_back(nullptr);
    pe.env_storage.swap(copy);
  }
  return pe.env_storage;
}

void publish_env(PeProcess& pe)
{
  pe.env                = pe.env_storage.data();
  *libc_vars().environ_ = pe.env;
}

/// Replace or add `entry`, defining `name` (len characters).
void put_entry(PeProcess& pe, char* entry, const char* name, std::size_t len)
{
  std::vector<char*>& env = own_env(pe);
  for (char*& e : env)
    if (e != nullptr && defines(e, name, len)) {
      e = entry;
      publish_env(pe);
      return;
    }
  env.insert(env.end() - 1, entry);
  publish_env(pe);
}
} // namespace

int PeRuntime::env_set(const char* name, const char* value, bool overwrite)
{
  if (bad_env_name(name)) {
    errno = EINVAL;
    return -1;
  }
  PeProcess& pe = *current();
  const std::size_t len = std::strlen(name);
  if (!overwrite)
    for (char** e = *libc_vars().environ_; e != nullptr && *e != nullptr; ++e)
      if (defines(*e, name, len))
        return 0;
  std::string& entry = pe.env_strings.emplace_back(std::string(name) + "=" + value);
  put_entry(pe, entry.data(), name, len);
  return 0;
}

int PeRuntime::env_put(char* entry)
{
  const char* eq = entry != nullptr ? std::strchr(entry, '=') : nullptr;
  if (eq == nullptr) { // "NAME" alone removes NAME, as glibc does
    return entry != nullptr && *entry != '\0' ? env_unset(entry) : (errno = EINVAL, -1);
  }
  put_entry(*current(), entry, entry, static_cast<std::size_t>(eq - entry));
  return 0;
}

int PeRuntime::env_unset(const char* name)
{
  if (bad_env_name(name)) {
    errno = EINVAL;
    return -1;
  }
  PeProcess& pe = *current();
  const std::size_t len = std::strlen(name);
  std::vector<char*>& env = own_env(pe);
  std::erase_if(env, [&](char* e) { return e != nullptr && defines(e, name, len); });
  publish_env(pe);
  return 0;
}

int PeRuntime::env_clear()
{
  PeProcess& pe = *current();
  pe.env_storage.assign(1, nullptr);
  publish_env(pe);
  return 0;
}

std::vector<std::string> PeRuntime::computing() const
{
  std::vector<std::string> lines;
  const sim::Ps now = sim_.queue().now();
  for (const SimThread& t : threads_) {
    if (t.finished || !t.computing)
      continue;
    std::string who = "PE " + std::to_string(t.pe->id);
    if (t.index > 0)
      who += " thread " + std::to_string(t.index);
    char since[64];
    std::snprintf(since, sizeof since, "%.9f", sim::ps_to_seconds(now - t.last_call));
    lines.push_back(who + " was computing: no library call for the last " + since +
                    " s of simulated time (a spin-wait nothing releases, or an endless loop?)");
  }
  return lines;
}

int PeRuntime::my_pe()
{
  PeProcess* pe = current();
  return pe != nullptr ? pe->id : -1;
}

int PeRuntime::n_pes()
{
  return static_cast<int>(pes_.size());
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
  const PeMemory& m = current()->mem;
  const auto* p     = static_cast<const std::byte*>(addr);
  return (p >= m.data && n <= m.data_size && p <= m.data + m.data_size - n) ||
         (p >= m.heap && n <= m.heap_size && p <= m.heap + m.heap_size - n);
}

void* PeRuntime::local_address(const void* addr, int pe)
{
  PeProcess& me        = *current();
  const PeProcess& him = pes_.at(static_cast<std::size_t>(pe));
  if (him.node != me.node)
    return nullptr; // only PEs of one node share memory
  const auto* p = static_cast<const std::byte*>(addr);
  const bool peer = &him != &me;
  if (p >= me.mem.data && p < me.mem.data + me.mem.data_size) {
    me.maps_peers |= peer;
    return him.mem.data + (p - me.mem.data);
  }
  if (p >= me.mem.heap && p < me.mem.heap + me.mem.heap_size) {
    me.maps_peers |= peer;
    return him.mem.heap + (p - me.mem.heap);
  }
  return nullptr;
}

bool PeRuntime::pe_accessible(int pe)
{
  return pe >= 0 && pe < n_pes();
}

void PeRuntime::enter(const char* routine)
{
  SimThread& t = *current_;
  t.routine    = routine;
  t.pe->routine = routine;
  charge_compute(*t.pe);
  t.last_call = sim_.queue().now();
  publish_stores(*t.pe); // stores it made before the call become visible to its siblings
}

void PeRuntime::leave()
{
  if (current() == nullptr)
    return; // the PE is being torn down (killed at a deadlock or a time limit)
  current_->routine   = nullptr;
  current_->last_call = sim_.queue().now();
  PeProcess& pe       = *current();
  pe.routine          = nullptr;
  if (sc_.job.compute == scenarios::ComputeMode::Measured)
    pe.cpu_mark = thread_cpu_seconds();
}

void PeRuntime::poll_pause()
{
  sim_.sleep_for(poll_cost_);
}

double PeRuntime::wtime()
{
  return sim::ps_to_seconds(sim_.queue().now());
}

struct PeRuntime::BarrierWait final : sim::Waitable {
  int arrived, total;
  std::string describe_wait() const override
  {
    return "the startup barrier (" + std::to_string(arrived) + " of " + std::to_string(total) + " PEs arrived)";
  }
};

void PeRuntime::startup_barrier()
{
  const std::uint64_t gen = generation_;
  if (++arrived_ == n_pes()) {
    arrived_ = 0;
    ++generation_;
    std::vector<sim::Notifier*> wake;
    wake.swap(barrier_waiters_); // waking lets other actors run: leave no list half-walked
    for (sim::Notifier* n : wake)
      n->notify();
    return;
  }
  sim::Notifier& self = sim_.self_notifier();
  barrier_waiters_.push_back(&self);
  while (generation_ == gen) {
    BarrierWait w;
    w.arrived = arrived_;
    w.total   = n_pes();
    self.wait(&w, "shmem_init");
  }
}

const char* PeRuntime::getenv(const char* name)
{
  return std::getenv(name);
}

CollectiveParams PeRuntime::collectives()
{
  return sc_.job.collectives;
}

void PeRuntime::fatal(const std::string& message)
{
  std::fflush(nullptr);
  if (g_real_out != nullptr)
    use_streams(g_real_out, g_real_err);
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
  if (g_real_out != nullptr)
    use_streams(g_real_out, g_real_err);
  if (const PeProcess* pe = current())
    std::fprintf(stderr, "shmemsim-run: PE %d called shmem_global_exit(%d)\n", pe->id, status);
  std::fflush(stderr);
  for (PeProcess& pe : pes_)
    if (pe.out != nullptr) {
      std::fclose(pe.out);
      std::fclose(pe.err_out);
    }
  std::_Exit(status);
}

} // namespace shmemsim::front

// ==================================================================== pthreads of the PEs

namespace shmemsim::front {

struct PeRuntime::SyncWait final : sim::Waitable {
  const char* what;
  const void* object;
  std::string describe_wait() const override
  {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", object);
    return std::string(what) + " " + buf;
  }
};

void PeRuntime::finish_thread(SimThread* t)
{
  // Thread-specific data destructors, as POSIX runs them at thread exit.
  for (auto& [key, value] : t->specific) {
    auto d = keys_.find(key);
    if (value != nullptr && d != keys_.end() && d->second != nullptr)
      d->second(const_cast<void*>(value));
  }
  t->finished = true;
  std::vector<SimThread*> joiners;
  joiners.swap(t->joiners);
  for (SimThread* j : joiners)
    j->notifier->notify();
  current_ = nullptr;
}

int PeRuntime::thread_create(unsigned long* tid, void* (*fn)(void*), void* arg)
{
  PeProcess& pe = *current();
  enter("pthread_create");
  const int index = pe.threads++;
  *tid            = (static_cast<unsigned long>(pe.id) + 1) << 16 | static_cast<unsigned long>(index);
  leave();
  // Creating an actor is a simcall: other actors may run before this one continues.
  sim::Simulation::SwitchGuard sw(sim_);
  sim_.spawn("PE " + std::to_string(pe.id) + " thread " + std::to_string(index), pe.node,
             [this, &pe, index, fn, arg] {
               SimThread* t = adopt_actor(pe, index);
               restore_state(this); // this PE's getopt variables, streams; errno 0 for the thread
               errno = 0;
               if (pe.tls_memsz > 0) { // a fresh TLS block: the initial image, then zeros
                 std::byte* block = tls_block(pe);
                 std::memcpy(block, pe.tls_image, pe.tls_filesz);
                 std::memset(block + pe.tls_filesz, 0, pe.tls_memsz - pe.tls_filesz);
               }
               t->retval = fn(arg);
               charge_compute(pe);
               finish_thread(t);
             });
  return 0;
}

void PeRuntime::thread_exit(void* retval)
{
  SimThread* t = current_;
  enter("pthread_exit");
  charge_compute(*t->pe);
  t->retval = retval;
  if (t->index == 0) { // the main thread: the PE's main ends with status 0
    pe_exiting();
    t->pe->finished = true;
    std::fflush(nullptr);
  }
  finish_thread(t);
  sg4::this_actor::exit();
  std::abort();
}

int PeRuntime::thread_join(unsigned long tid, void** retval)
{
  SimThread* me = current_;
  auto it       = by_tid_.find(tid);
  if (it == by_tid_.end() || it->second->pe != me->pe)
    return ESRCH;
  SimThread* target = it->second;
  if (target == me)
    return EDEADLK;
  if (target->detached)
    return EINVAL;
  enter("pthread_join");
  while (!target->finished) {
    target->joiners.push_back(me);
    struct JoinWait final : sim::Waitable {
      const SimThread* target;
      std::string describe_wait() const override
      {
        return "the end of PE " + std::to_string(target->pe->id) + " thread " + std::to_string(target->index);
      }
    } w;
    w.target = target;
    me->notifier->wait(&w, "pthread_join");
  }
  leave();
  if (retval != nullptr)
    *retval = target->retval;
  return 0;
}

void PeRuntime::wait_for_mutex(Mutex& mx, const void* key, const char* what, const char* call)
{
  SimThread* me = current_;
  mx.waiters.push_back(me);
  while (mx.owner != me) {
    SyncWait w;
    w.what   = what;
    w.object = key;
    me->notifier->wait(&w, call);
  }
}

void PeRuntime::release_mutex(Mutex& mx)
{
  if (mx.waiters.empty()) {
    mx.owner = nullptr;
    return;
  }
  mx.owner = mx.waiters.front(); // hand over, first come first served
  mx.waiters.pop_front();
  mx.owner->notifier->notify();
}

int PeRuntime::mutex_lock(void* m, bool try_only)
{
  // Charge the computation first: it may let other threads run, so the state is read after.
  enter(try_only ? "pthread_mutex_trylock" : "pthread_mutex_lock");
  SimThread* me = current_;
  Mutex& mx     = mutexes_[m];
  int result    = 0;
  if (mx.owner == nullptr)
    mx.owner = me;
  else if (mx.owner == me)
    result = try_only ? EBUSY : EDEADLK;
  else if (try_only)
    result = EBUSY;
  else
    wait_for_mutex(mx, m, "mutex", "pthread_mutex_lock");
  leave();
  return result;
}

int PeRuntime::mutex_unlock(void* m)
{
  auto it = mutexes_.find(m);
  if (it == mutexes_.end() || it->second.owner != current_)
    return EPERM;
  release_mutex(it->second);
  return 0;
}

int PeRuntime::mutex_forget(void* m)
{
  auto it = mutexes_.find(m);
  if (it != mutexes_.end() && (it->second.owner != nullptr || !it->second.waiters.empty()))
    return EBUSY;
  if (it != mutexes_.end())
    mutexes_.erase(it);
  return 0;
}

namespace {
struct CondTimeout {
  SimThread* thread;
  std::uint64_t generation; ///< the wait it belongs to
  static void fire(void* o, std::uint64_t)
  {
    auto* self                         = static_cast<CondTimeout*>(o);
    SimThread* t                       = self->thread;
    const std::uint64_t self_generation = self->generation;
    delete self;
    if (t->in_cond_wait && !t->cond_signaled && t->cond_generation == self_generation) {
      t->cond_timed_out = true;
      t->notifier->notify();
    }
  }
};
} // namespace

int PeRuntime::cond_wait(void* c, void* m, const timespec* abstime)
{
  enter(abstime != nullptr ? "pthread_cond_timedwait" : "pthread_cond_wait");
  SimThread* me = current_;
  auto owned    = mutexes_.find(m);
  if (owned == mutexes_.end() || owned->second.owner != me) {
    leave();
    return EPERM;
  }
  // Register before releasing the mutex: a signal sent in between must not be lost.
  Cond& cv           = conds_[c];
  me->cond_signaled  = false;
  me->cond_timed_out = false;
  me->in_cond_wait   = true;
  ++me->cond_generation;
  cv.waiters.push_back(me);
  if (abstime != nullptr) {
    const double deadline = static_cast<double>(abstime->tv_sec - kEpoch) + static_cast<double>(abstime->tv_nsec) * 1e-9;
    const sim::Ps at      = std::max(sim_.queue().now(), sim::seconds_to_ps(std::max(deadline, 0.0)));
    sim_.queue().schedule(at, &CondTimeout::fire, new CondTimeout{me, me->cond_generation});
  }
  mutex_unlock(m);
  while (!me->cond_signaled && !me->cond_timed_out) {
    SyncWait w;
    w.what   = "condition variable";
    w.object = c;
    me->notifier->wait(&w, abstime != nullptr ? "pthread_cond_timedwait" : "pthread_cond_wait");
  }
  me->in_cond_wait = false;
  std::erase(cv.waiters, me);
  leave();
  mutex_lock(m, false);
  return me->cond_timed_out && !me->cond_signaled ? ETIMEDOUT : 0;
}

int PeRuntime::cond_signal(void* c, bool broadcast)
{
  auto it = conds_.find(c);
  if (it == conds_.end())
    return 0;
  std::vector<SimThread*> wake;
  auto& q = it->second.waiters;
  while (!q.empty() && (broadcast || wake.empty())) {
    SimThread* t = q.front();
    q.pop_front();
    t->cond_signaled = true;
    wake.push_back(t);
  }
  for (SimThread* t : wake)
    t->notifier->notify();
  return 0;
}

int PeRuntime::barrier_init(void* b, unsigned count)
{
  if (count == 0)
    return EINVAL;
  barriers_[b] = Barrier{count, 0, 0, {}};
  return 0;
}

int PeRuntime::barrier_wait(void* b)
{
  enter("pthread_barrier_wait");
  leave(); // computation charged: the barrier's state is read below without switches
  auto it = barriers_.find(b);
  if (it == barriers_.end())
    return EINVAL;
  Barrier& br             = it->second;
  SimThread* me           = current_;
  const std::uint64_t gen = br.generation;
  if (++br.arrived == br.count) {
    br.arrived = 0;
    ++br.generation;
    std::vector<SimThread*> wake;
    wake.swap(br.waiting);
    for (SimThread* t : wake)
      t->notifier->notify();
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  enter("pthread_barrier_wait");
  br.waiting.push_back(me);
  while (br.generation == gen) {
    SyncWait w;
    w.what   = "barrier";
    w.object = b;
    me->notifier->wait(&w, "pthread_barrier_wait");
  }
  leave();
  return 0;
}

void PeRuntime::library_lock(const void* lock)
{
  if (sc_.job.library_lock <= 0 || current_ == nullptr)
    return;
  // The computation was charged by the routine's entry: take the lock, hold it, hand it over.
  const sim::Ps t0 = sim_.queue().now();
  SimThread* me    = current_;
  Mutex& mx = mutexes_[lock];
  if (mx.owner == nullptr)
    mx.owner = current_;
  else
    wait_for_mutex(mx, lock, "the library's lock of context", "the library's internal lock");
  sim_.sleep_for(sc_.job.library_lock);
  release_mutex(mx);
  SHMEMSIM_OBSERVE(obs_, lock(t0, sim_.queue().now() - t0, me->pe->id, me->index));
}

int PeRuntime::default_threads()
{
  return sc_.job.threads_per_pe > 0 ? sc_.job.threads_per_pe : pe_cores();
}

int PeRuntime::pe_cores()
{
  const PeProcess& me = *current();
  int cores           = sc_.platform.hosts.cores_per_node;
  if (sc_.platform.progress_core && cores > 1)
    cores -= 1; // the NIC's progress thread has a core of its own
  int on_node = 0;
  for (const PeProcess& pe : pes_)
    on_node += pe.node == me.node ? 1 : 0;
  return std::max(1, cores / std::max(1, on_node));
}

void PeRuntime::park(const char* routine, const char* what)
{
  SimThread* me = current_;
  me->routine   = routine;
  me->pe->routine = routine;
  struct ParkWait final : sim::Waitable {
    const char* what;
    std::string describe_wait() const override { return what; }
  } w;
  w.what = what;
  while (!me->unparked)
    me->notifier->wait(&w, routine);
  me->unparked = false;
  leave();
}

void PeRuntime::unpark(SimThread* t)
{
  t->unparked = true;
  t->notifier->notify();
}

void PeRuntime::pe_exiting()
{
  if (pe_exit_ != nullptr && current_ != nullptr)
    pe_exit_();
}

int PeRuntime::key_create(unsigned* key, void (*destructor)(void*))
{
  *key        = next_key_++;
  keys_[*key] = destructor;
  return 0;
}

int PeRuntime::key_delete(unsigned key)
{
  return keys_.erase(key) == 1 ? 0 : EINVAL;
}

} // namespace shmemsim::front
