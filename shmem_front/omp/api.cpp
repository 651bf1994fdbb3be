// The omp_* routines (OpenMP 5.1 API as gcc 12's omp.h declares it) on shmemsim's runtime.
// Devices, places and allocators answer as a host-only implementation without affinity.
#include "shmem_front/omp/Runtime.hpp"

#include <climits>
#include <cstdlib>
#include <ctime>

#define EXPORT extern "C" __attribute__((visibility("default")))

using namespace shmemsim::omp;

namespace {
Lock& lock_of(void* lock)
{
  return self().pe->locks[lock];
}

Team* team_at(Thread& me, int level)
{
  Team* t = me.team;
  while (t != nullptr && t->level > level)
    t = t->parent;
  return t != nullptr && t->level == level ? t : nullptr;
}
} // namespace

EXPORT void omp_set_num_threads(int n)
{
  if (n > 0)
    self().icv.nthreads = n;
}

EXPORT int omp_get_num_threads(void)
{
  return static_cast<int>(self().team->nthreads);
}
EXPORT int omp_get_max_threads(void)
{
  return self().icv.nthreads;
}
EXPORT int omp_get_thread_num(void)
{
  return static_cast<int>(self().id);
}
EXPORT int omp_get_num_procs(void)
{
  return hooks()->pe_cores();
}
EXPORT int omp_in_parallel(void)
{
  return self().team->active_level > 0 ? 1 : 0;
}
EXPORT void omp_set_dynamic(int d)
{
  self().icv.dynamic = d != 0;
}
EXPORT int omp_get_dynamic(void)
{
  return self().icv.dynamic ? 1 : 0;
}
EXPORT void omp_set_nested(int)
{
} // one active level is supported: nested regions run serialized
EXPORT int omp_get_nested(void)
{
  return 0;
}
EXPORT int omp_get_thread_limit(void)
{
  return self().icv.thread_limit;
}
EXPORT void omp_set_max_active_levels(int n)
{
  if (n >= 0)
    self().icv.max_active_levels = n < 1 ? n : 1;
}
EXPORT int omp_get_max_active_levels(void)
{
  return self().icv.max_active_levels;
}
EXPORT int omp_get_supported_active_levels(void)
{
  return 1;
}
EXPORT int omp_get_level(void)
{
  return self().team->level;
}
EXPORT int omp_get_active_level(void)
{
  return self().team->active_level;
}

EXPORT int omp_get_ancestor_thread_num(int level)
{
  Thread& me = self();
  if (level < 0 || level > me.team->level)
    return -1;
  if (level == me.team->level)
    return static_cast<int>(me.id);
  Team* child = team_at(me, level + 1);
  return child != nullptr ? static_cast<int>(child->ancestor_id) : -1;
}

EXPORT int omp_get_team_size(int level)
{
  Thread& me = self();
  if (level < 0 || level > me.team->level)
    return -1;
  Team* t = team_at(me, level);
  return t != nullptr ? static_cast<int>(t->nthreads) : 1;
}

EXPORT int omp_in_final(void)
{
  return self().task->final ? 1 : 0;
}

EXPORT void omp_set_schedule(int kind, int chunk)
{
  Icv& icv    = self().icv;
  const int k = static_cast<int>(static_cast<unsigned>(kind) & ~kMonotonic);
  if (k < kStatic || k > kAuto)
    return;
  icv.run_sched = kind;
  icv.run_chunk = chunk >= 1 ? chunk : (k == kStatic ? 0 : 1);
}

EXPORT void omp_get_schedule(int* kind, int* chunk)
{
  const Icv& icv = self().icv;
  *kind          = icv.run_sched;
  *chunk         = static_cast<int>(icv.run_chunk);
}

EXPORT double omp_get_wtime(void)
{
  timespec ts{};
  hooks()->now(1, &ts); // simulated time
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

EXPORT double omp_get_wtick(void)
{
  return 1e-9;
}

// Locks (simple and nestable), keyed by address in the PE's state.
EXPORT void omp_init_lock(void* l)
{
  lock_of(l) = Lock{};
}
EXPORT void omp_init_lock_with_hint(void* l, int)
{
  lock_of(l) = Lock{};
}
EXPORT void omp_destroy_lock(void* l)
{
  self().pe->locks.erase(l);
}
EXPORT void omp_set_lock(void* l)
{
  lock_acquire(self(), lock_of(l), "omp_set_lock", "an OpenMP lock", false);
}
EXPORT void omp_unset_lock(void* l)
{
  lock_release(self(), lock_of(l), "omp_unset_lock");
}
EXPORT int omp_test_lock(void* l)
{
  return lock_try(self(), lock_of(l), false) ? 1 : 0;
}
EXPORT void omp_init_nest_lock(void* l)
{
  lock_of(l) = Lock{};
}
EXPORT void omp_init_nest_lock_with_hint(void* l, int)
{
  lock_of(l) = Lock{};
}
EXPORT void omp_destroy_nest_lock(void* l)
{
  self().pe->locks.erase(l);
}
EXPORT void omp_set_nest_lock(void* l)
{
  lock_acquire(self(), lock_of(l), "omp_set_nest_lock", "an OpenMP nest lock", true);
}
EXPORT void omp_unset_nest_lock(void* l)
{
  lock_release(self(), lock_of(l), "omp_unset_nest_lock");
}
EXPORT int omp_test_nest_lock(void* l)
{
  Thread& me = self();
  Lock& k    = lock_of(l);
  return lock_try(me, k, true) ? k.count : 0;
}

// A host-only implementation: no devices, one team, no places, no cancellation.
EXPORT int omp_get_cancellation(void)
{
  return 0;
}
EXPORT int omp_get_proc_bind(void)
{
  return 0;
}
EXPORT int omp_get_num_places(void)
{
  return 0;
}
EXPORT int omp_get_place_num_procs(int)
{
  return 0;
}
EXPORT void omp_get_place_proc_ids(int, int*)
{
}
EXPORT int omp_get_place_num(void)
{
  return -1;
}
EXPORT int omp_get_partition_num_places(void)
{
  return 0;
}
EXPORT void omp_get_partition_place_nums(int*)
{
}
EXPORT void omp_set_default_device(int)
{
}
EXPORT int omp_get_default_device(void)
{
  return 0;
}
EXPORT int omp_get_num_devices(void)
{
  return 0;
}
EXPORT int omp_get_device_num(void)
{
  return 0;
}
EXPORT int omp_get_num_teams(void)
{
  return 1;
}
EXPORT int omp_get_team_num(void)
{
  return 0;
}
EXPORT int omp_is_initial_device(void)
{
  return 1;
}
EXPORT int omp_get_initial_device(void)
{
  return 0;
}
EXPORT int omp_get_max_task_priority(void)
{
  return 0;
}
EXPORT void omp_set_num_teams(int)
{
}
EXPORT int omp_get_max_teams(void)
{
  return 1;
}
EXPORT void omp_set_teams_thread_limit(int)
{
}
EXPORT int omp_get_teams_thread_limit(void)
{
  return 0;
}
EXPORT int omp_pause_resource(int, int)
{
  return 0;
}
EXPORT int omp_pause_resource_all(int)
{
  return 0;
}
