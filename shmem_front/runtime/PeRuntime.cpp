#include "shmem_front/runtime/PeRuntime.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace sg4 = simgrid::s4u;

namespace shmemsim::front {

namespace {
PeRuntime* g_runtime = nullptr;

/// Simulated wall-clock time starts at a fixed date, so runs are reproducible:
/// 2014-09-01T00:00:00Z (the contexts paper's year).
constexpr time_t kEpoch = 1409529600;

int hook_active()
{
  return g_runtime != nullptr && g_runtime->current() != nullptr ? 1 : 0;
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
                     unsigned long* block_counter, double poll_cost_s)
    : sim_(sim), sc_(sc), pes_(pes), blocks_(block_counter), poll_cost_(sim::seconds_to_ps(poll_cost_s)),
      core_speed_(sc.platform.hosts.core_speed)
{
  g_runtime          = this;
  hooks_.active      = hook_active;
  hooks_.now         = hook_now;
  hooks_.sleep       = hook_sleep;
  hooks_.exit        = hook_exit;
  hooks_.libc_state  = hook_libc_state;
  sim_.set_switch_hooks(&PeRuntime::save_state, &PeRuntime::restore_state, this);
}

PeRuntime::~PeRuntime()
{
  g_runtime = nullptr;
}

void PeRuntime::sleep(double seconds)
{
  sim_.sleep_for(sim::seconds_to_ps(seconds));
}

PeProcess* PeRuntime::lookup_current()
{
  sg4::Actor* self = sg4::Actor::self();
  if (self == nullptr)
    return nullptr;
  const auto pid = static_cast<std::size_t>(self->get_pid());
  if (pid >= pe_of_pid_.size() || pe_of_pid_[pid] < 0)
    return nullptr;
  return &pes_[static_cast<std::size_t>(pe_of_pid_[pid])];
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
  auto* rt = static_cast<PeRuntime*>(self);
  PeProcess* pe = rt->current_;
  rt->current_  = nullptr; // until some actor resumes
  if (pe != nullptr) {
    if (pe->out != nullptr)
      use_streams(g_real_out, g_real_err);
    const LibcVars& v = libc_vars();
    pe->optind        = *v.optind;
    pe->opterr        = *v.opterr;
    pe->optopt        = *v.optopt;
    pe->optarg        = *v.optarg;
    pe->err           = errno;
  }
}

void PeRuntime::restore_state(void* self)
{
  auto* rt     = static_cast<PeRuntime*>(self);
  rt->current_ = rt->lookup_current();
  if (PeProcess* pe = rt->current_) {
    const LibcVars& v = libc_vars();
    *v.optind         = pe->optind;
    *v.opterr         = pe->opterr;
    *v.optopt         = pe->optopt;
    *v.optarg         = pe->optarg;
    errno             = pe->err;
    if (pe->out != nullptr)
      use_streams(pe->out, pe->err_out);
  }
}

void PeRuntime::spawn_all()
{
  for (PeProcess& pe : pes_) {
    const int id = pe.id;
    sim_.spawn("PE " + std::to_string(id), pe.node, [this, id] { run_pe(id); });
  }
}

void PeRuntime::run_pe(int id)
{
  PeProcess& pe  = pes_[static_cast<std::size_t>(id)];
  const auto pid = static_cast<std::size_t>(sg4::this_actor::get_pid());
  if (pe_of_pid_.size() <= pid)
    pe_of_pid_.resize(pid + 1, -1);
  pe_of_pid_[pid] = id;
  current_        = &pe;
  sim_.self_notifier().set_context(&pe.routine);
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
  const int status = pe.main(static_cast<int>(pe.args.size()), pe.argv.data(), *v.environ_);
  charge_compute(pe);
  std::fflush(nullptr);
  pe.exit_status = status;
  pe.finished    = true;
  current_       = nullptr;
}

int PeRuntime::exit_status() const
{
  int worst = 0;
  for (const PeProcess& pe : pes_)
    if (pe.exit_status != 0 && worst == 0)
      worst = pe.exit_status;
  return worst;
}

void PeRuntime::charge_compute(PeProcess& pe)
{
  double flops = 0;
  switch (sc_.job.compute) {
    case scenarios::ComputeMode::Counted: {
      const unsigned long blocks = *blocks_;
      *blocks_                   = 0;
      flops                      = static_cast<double>(blocks) * 4.0 * sc_.job.compute_scale;
      break;
    }
    case scenarios::ComputeMode::Measured: {
      const double now = thread_cpu_seconds();
      flops            = (now - pe.cpu_mark) * core_speed_ * sc_.job.compute_scale;
      break;
    }
    case scenarios::ComputeMode::None:
      *blocks_ = 0;
      break;
  }
  if (flops > 0)
    sim_.execute(flops);
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
  if (p >= me.mem.data && p < me.mem.data + me.mem.data_size)
    return him.mem.data + (p - me.mem.data);
  if (p >= me.mem.heap && p < me.mem.heap + me.mem.heap_size)
    return him.mem.heap + (p - me.mem.heap);
  return nullptr;
}

bool PeRuntime::pe_accessible(int pe)
{
  return pe >= 0 && pe < n_pes();
}

void PeRuntime::enter(const char* routine)
{
  PeProcess& pe = *current();
  pe.routine    = routine;
  charge_compute(pe);
}

void PeRuntime::leave()
{
  if (current() == nullptr)
    return; // the PE is being torn down (killed at a deadlock or a time limit)
  PeProcess& pe = *current();
  pe.routine    = nullptr;
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

std::string PeRuntime::setting(const char* key)
{
  // job.collectives.<what> (the only settings the routines read so far).
  const std::string k    = key;
  const std::string pref = "job.collectives.";
  if (k.rfind(pref, 0) == 0) {
    const auto it = sc_.job.collectives.find(k.substr(pref.size()));
    if (it != sc_.job.collectives.end())
      return it->second;
  }
  return {};
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
  for (PeProcess& pe : pes_)
    if (pe.out != nullptr) {
      std::fclose(pe.out);
      std::fclose(pe.err_out);
    }
  std::_Exit(status);
}

} // namespace shmemsim::front
