#include "shmem_front/emulator/EmuRuntime.hpp"

#include "shmem_front/emulator/Clock.hpp"

#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace shmemsim::emulator {

namespace {
thread_local int t_index = -1; ///< the calling thread's thread_index() (-1: not given yet)
} // namespace

EmuRuntime::EmuRuntime(const Config& cfg, Segments mem, BootClient& boot) : cfg_(cfg), mem_(mem), boot_(boot)
{
  t_index = 0; // the PE's main thread
}

int EmuRuntime::thread_index()
{
  if (t_index < 0)
    t_index = next_thread_.fetch_add(1, std::memory_order_relaxed);
  return t_index;
}

bool EmuRuntime::is_symmetric(const void* addr, std::size_t n)
{
  const auto* p = static_cast<const std::byte*>(addr);
  for (int s = 0; s < 2; ++s)
    if (mem_.base[s] != nullptr && p >= mem_.base[s] && p + n <= mem_.base[s] + mem_.size[s])
      return true;
  return false;
}

void* EmuRuntime::local_address(const void* addr, int pe)
{
  return pe == cfg_.rank ? const_cast<void*>(addr) : nullptr;
}

void EmuRuntime::poll_pause()
{
  sched_yield();
}

double EmuRuntime::wtime()
{
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9 - cfg_.epoch;
}

void EmuRuntime::startup_barrier()
{
  std::lock_guard lock(boot_mutex_);
  boot_.barrier();
}

const char* EmuRuntime::getenv(const char* name)
{
  return std::getenv(name);
}

front::CollectiveParams EmuRuntime::collectives()
{
  return cfg_.collectives;
}

namespace {
/// The calling thread's library calls in progress (routines call routines) and when it last left
/// the library (-1: not known yet, e.g. a thread before its first call).
thread_local int t_depth            = 0;
thread_local std::int64_t t_left_at = -1;
thread_local const char* t_routine  = nullptr; ///< the outermost routine the thread is in
thread_local bool t_span            = false;   ///< that routine is a SHMEM one, reported as a span
} // namespace

void EmuRuntime::enter(const char* routine)
{
  calls_.fetch_add(1, std::memory_order_relaxed);
  routine_.store(routine, std::memory_order_relaxed);
  if (t_depth++ != 0)
    return;
  t_routine = routine;
  inside_.fetch_add(1, std::memory_order_relaxed);
  if (obs_ == nullptr)
    return;
  const Ps now = job_time(cfg_.epoch_ns);
  if (t_left_at >= 0 && now > t_left_at)
    obs_->compute(t_left_at, now - t_left_at, cfg_.rank, thread_index());
  // The outermost SHMEM routine (not a pthread or OpenMP call) is a span of the thread in the
  // trace, as the simulator's PeRuntime reports it: the diagram and Perfetto draw both alike.
  t_span = std::strncmp(routine, "shmem", 5) == 0;
  if (t_span)
    obs_->routine_begin(now, cfg_.rank, thread_index(), routine);
}

void EmuRuntime::leave()
{
  if (--t_depth != 0)
    return;
  t_routine = nullptr;
  inside_.fetch_sub(1, std::memory_order_relaxed);
  if (obs_ == nullptr)
    return;
  t_left_at = job_time(cfg_.epoch_ns);
  if (t_span) {
    t_span = false;
    obs_->routine_end(t_left_at, cfg_.rank, thread_index());
  }
}

const char* EmuRuntime::thread_routine()
{
  return t_routine;
}

const char* EmuRuntime::routine() const
{
  return inside_.load(std::memory_order_relaxed) > 0 ? routine_.load(std::memory_order_relaxed) : nullptr;
}

void EmuRuntime::program_starts()
{
  if (obs_ != nullptr)
    t_left_at = job_time(cfg_.epoch_ns);
}

void EmuRuntime::end_job(int status)
{
  std::fflush(nullptr);
  try {
    boot_.abort(status);
  } catch (...) {
  }
  // The launcher stops every PE; this one ends now with the job's status.
  _exit(status);
}

void EmuRuntime::fatal(const std::string& message)
{
  std::fflush(nullptr);
  std::fprintf(stderr, "shmemsim-run: PE %d: %s\n", cfg_.rank, message.c_str());
  end_job(2);
}

void EmuRuntime::global_exit(int status)
{
  std::fflush(nullptr);
  std::fprintf(stderr, "shmemsim-run: PE %d called shmem_global_exit(%d)\n", cfg_.rank, status);
  end_job(status);
}

} // namespace shmemsim::emulator
