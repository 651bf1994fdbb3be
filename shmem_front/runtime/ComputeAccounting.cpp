#include "shmem_front/runtime/ComputeAccounting.hpp"

#include "base/ShmemObserver.hpp"
#include "base/Assert.hpp"
#include "sim/Simulation.hpp"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include <malloc.h>
#include <unistd.h>

namespace shmemsim::front {

namespace {
/// A cost in seconds as whole femtoseconds (the counter's unit).
unsigned long to_fs(double seconds)
{
  SHMEMSIM_ASSERT(seconds >= 0 && seconds < 1, "a per-instruction or per-operation cost is below a second");
  return static_cast<unsigned long>(seconds * 1e15 + 0.5);
}

/// Where the C library's main heap starts (/proc/self/stat's start_brk; 0 if unknown).
std::uintptr_t heap_start()
{
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')'); // the command name may hold spaces
  if (close == std::string::npos)
    return 0;
  std::istringstream fields(text.substr(close + 2)); // from field 3 (state)
  std::string field;
  for (int i = 3; i <= 47 && fields >> field; ++i)
    if (i == 47)
      return static_cast<std::uintptr_t>(std::stoull(field));
  return 0;
}

double thread_cpu_seconds()
{
  timespec ts;
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); // the simulator's own call: the real clock
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
} // namespace

ComputeAccounting::ComputeAccounting(sim::Simulation& sim, const RuntimeParams& params, WorkCounter counter)
    : sim_(sim), mode_(params.compute), scale_(params.compute_scale), core_speed_(params.core_speed),
      flops_per_fs_(1e-15 * params.core_speed * params.compute_scale), poll_cost_(params.poll_cost), counter_(counter),
      work_(counter.work), instruction_fs_(to_fs(ps_to_seconds(params.instruction_time))),
      divide_fs_(to_fs(ps_to_seconds(params.divide_time))), latency_fs_{to_fs(ps_to_seconds(params.latency_int)),
                                                                        to_fs(ps_to_seconds(params.latency_load)),
                                                                        to_fs(ps_to_seconds(params.latency_fp_add)),
                                                                        to_fs(ps_to_seconds(params.latency_fp_mul))},
      window_(static_cast<unsigned long>(params.reorder_window)), cache_config_(params.cache),
      cache_on_(params.compute == ComputeMode::Counted && params.cache.sampling > 0)
{
  SHMEMSIM_ASSERT(params.reorder_window >= 0, "the reorder window is not negative");
  SHMEMSIM_ASSERT((counter.flush == nullptr) == (counter.rearm == nullptr),
                  "the interposition library that defers work (flush) is told when the work is set (rearm)");
  SHMEMSIM_ASSERT(params.core_speed > 0, "the core speed must be positive");
  if (cache_on_) {
    // The cache model leaves out the main heap (ComputeAccounting::memory): allocations of 128 KiB
    // and more always get pages of their own (a fixed threshold also turns off glibc's raising of
    // it after a free, which would move large blocks into the heap).
    heap_start_ = heap_start();
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  }
  // The quantum in the counter's units (fs of unscaled work): compute_scale stretches counted
  // work, so a scaled quantum is shorter in unscaled work; without a counted cost (none, or a zero
  // scale) a quantum of unscaled work.
  const double quantum = ps_to_seconds(params.compute_quantum) * 1e15 / (scale_ > 0 ? scale_ : 1.0);
  quantum_work_        = quantum < 1      ? 1
                         : quantum > 1e18 ? static_cast<unsigned long>(1e18)
                                          : static_cast<unsigned long>(quantum);
}

void ComputeAccounting::arm_slices()
{
  *counter_.instruction_fs = instruction_fs_;
  *counter_.divide_fs      = divide_fs_;
  for (int c = 0; c < SHMEMSIM_CHAIN_CLASSES; ++c)
    counter_.latency_fs[c] = latency_fs_[c];
  *counter_.slice_work = quantum_work_;
  if (counter_.window != nullptr)
    *counter_.window = window_;
  if (counter_.memory_mask != nullptr && counter_.memory_match != nullptr && cache_on_) {
    *counter_.memory_mask  = CacheModel(cache_config_).mask();
    *counter_.memory_match = 0;
  }
  set_work(*work_);
}

void ComputeAccounting::set_work(unsigned long work) const
{
  *work_ = work;
  if (counter_.rearm != nullptr)
    counter_.rearm();
}

unsigned long ComputeAccounting::take_work() const
{
  if (counter_.flush != nullptr)
    counter_.flush();
  const unsigned long work = *work_;
  set_work(0);
  return work;
}

unsigned long ComputeAccounting::memory(SimThread* t, unsigned long address, unsigned long flags)
{
  if (t == nullptr || !cache_on_)
    return 0;
  // Blocks of the C library's main heap (small allocations) sit at page offsets that depend on the
  // simulator's own allocations before them (paths, environment): sampling them would not repeat.
  if (heap_start_ != 0 && address >= heap_start_ && address < reinterpret_cast<std::uintptr_t>(sbrk(0)))
    return 0;
  if (t->cache == nullptr)
    t->cache = std::make_shared<CacheModel>(cache_config_); // a thread's caches start cold
  return t->cache->reference(address, static_cast<unsigned>(flags));
}

void ComputeAccounting::start_thread(SimThread& t)
{
  take_work();
  t.last_call = sim_.queue().now();
}

void ComputeAccounting::start_pe(PeProcess& pe)
{
  take_work();
  pe.cpu_mark = thread_cpu_seconds();
}

void ComputeAccounting::charge(PeProcess& pe, SimThread* t, bool sliced)
{
  double flops = 0;
  switch (mode_) {
    case ComputeMode::Counted:
      flops = static_cast<double>(take_work()) * flops_per_fs_;
      break;
    case ComputeMode::Measured: {
      take_work();
      const double now = thread_cpu_seconds();
      flops            = (now - pe.cpu_mark) * core_speed_ * scale_;
      break;
    }
    case ComputeMode::None:
      take_work();
      break;
  }
  if (!sliced)
    sim_.settle(); // the time slices deferred since the last charge have passed
  const Ps t0 = sim_.queue().now();
  const OpenInterval open(obs_, t0); // reported below, dated t0 or earlier (a run of slices)
  if (flops > 0) {
    if (t != nullptr)
      t->computing = true;
    if (sliced)
      sim_.execute_slice(flops); // deferred when nothing else can act before it ends
    else
      sim_.execute(flops);
    if (t != nullptr)
      t->computing = false;
  }
  if (mode_ == ComputeMode::Measured)
    pe.cpu_mark = thread_cpu_seconds(); // other actors ran meanwhile on this OS thread
  if (t == nullptr) {
    if (flops > 0)
      SHMEMSIM_OBSERVE(obs_, compute(t0, sim_.queue().now() - t0, pe.id, 0));
    return;
  }
  // Consecutive time slices are one computation for the observer.
  if (sliced) {
    if (t->sliced_from < 0)
      open_slices(*t, t0);
    return;
  }
  const Ps from = t->sliced_from >= 0 ? t->sliced_from : t0;
  if (sim_.queue().now() > from)
    SHMEMSIM_OBSERVE(obs_, compute(from, sim_.queue().now() - from, pe.id, t->index));
  if (t->sliced_from >= 0)
    SHMEMSIM_OBSERVE(obs_, interval_closed(t->sliced_from));
  t->sliced_from = -1;
}

void ComputeAccounting::open_slices(SimThread& t, Ps from)
{
  t.sliced_from = from;
  SHMEMSIM_OBSERVE(obs_, interval_open(from)); // closed once the run of slices is reported (charge)
}

void ComputeAccounting::slice(SimThread& t)
{
  const bool counted_cost = mode_ != ComputeMode::None && scale_ > 0;
  if (counted_cost) {
    charge(*t.pe, &t, true);
    return;
  }
  // Computation is free: the slice is a poll, so that a spin-wait lets time and the network move.
  take_work();
  if (t.sliced_from < 0)
    open_slices(t, sim_.queue().now());
  t.computing = true;
  sim_.sleep_slice(poll_cost_); // deferred, like a counted slice, when nothing else can act meanwhile
  t.computing = false;
}

void ComputeAccounting::left(PeProcess& pe)
{
  if (mode_ == ComputeMode::Measured)
    pe.cpu_mark = thread_cpu_seconds();
}

void ComputeAccounting::poll()
{
  sim_.spin_for(poll_cost_); // a poll is the thread's own work: detours lengthen it
}

std::vector<std::string> ComputeAccounting::computing(const std::deque<SimThread>& threads) const
{
  std::vector<std::string> lines;
  const Ps now = sim_.queue().now();
  for (const SimThread& t : threads) {
    if (t.finished || !t.computing)
      continue;
    std::string who = "PE " + std::to_string(t.pe->id);
    if (t.index > 0)
      who += " thread " + std::to_string(t.index);
    char since[64];
    std::snprintf(since, sizeof since, "%.9f", ps_to_seconds(now - t.last_call));
    lines.push_back(who + " was computing: no library call for the last " + since +
                    " s of simulated time (a spin-wait nothing releases, or an endless loop?)");
  }
  return lines;
}

} // namespace shmemsim::front
