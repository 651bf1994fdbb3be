#include "run/ProgramLoading.hpp"

#include "shmem_front/loader/ProgramCopies.hpp"
#include "shmem_front/loader/ProgramImage.hpp"
#include "sim/MapBudget.hpp"

#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <type_traits>

namespace fs = std::filesystem;

namespace shmemsim::run {

using scenarios::ScenarioError;

namespace {

/// The interposition library's record of the program's own crash handlers (null until loaded).
int (*g_program_handles)(int sig) = nullptr;

/// The interposition library's pthread_* (what the program copies call): the PEs' simulated threads.
front::Pthreads interposed_pthreads(void* ih)
{
  front::Pthreads p;
  const auto get = [ih](auto& fn, const char* name) {
    void* sym = dlsym(ih, name);
    if (sym == nullptr)
      throw ScenarioError(std::string("the interposition library lacks ") + name);
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym);
  };
  get(p.create, "pthread_create");
  get(p.join, "pthread_join");
  get(p.self, "pthread_self");
  get(p.mutex_lock, "pthread_mutex_lock");
  get(p.mutex_unlock, "pthread_mutex_unlock");
  get(p.cond_wait, "pthread_cond_wait");
  get(p.cond_signal, "pthread_cond_signal");
  get(p.cond_broadcast, "pthread_cond_broadcast");
  return p;
}

/// The interposition library, loaded: its work counter, hook table installer and pthreads.
void load_interposer(LoadedProgram& loaded)
{
  const std::string interpose = self_dir() + "/../lib/libshmemsim_interpose.so";
  void* ih                    = dlopen(interpose.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (ih == nullptr)
    throw ScenarioError(std::string("cannot load the interposition library: ") + dlerror());
  loaded.install_hooks = reinterpret_cast<void (*)(const shmemsim_hooks*)>(dlsym(ih, "shmemsim_interpose_install"));
  loaded.counter       = front::WorkCounter{static_cast<unsigned long*>(dlsym(ih, "shmemsim_work")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_slice_work")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_instruction_fs")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_divide_fs")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_latency_fs")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_window")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_memory_mask")),
                                      static_cast<unsigned long*>(dlsym(ih, "shmemsim_memory_match")),
                                      reinterpret_cast<void (*)()>(dlsym(ih, "shmemsim_flush_work")),
                                      reinterpret_cast<void (*)()>(dlsym(ih, "shmemsim_rearm_work"))};
  g_program_handles    = reinterpret_cast<int (*)(int)>(dlsym(ih, "shmemsim_interpose_program_handles"));
  loaded.pthreads      = interposed_pthreads(ih);
}

/// After the second PE is loaded (its copy and heap cost what every other PE's will): whether the
/// run fits the system's limit of memory mappings, with guard pages below the actors' stacks,
/// without them, or without them and the remaining PEs' copies and heaps compact. One line and
/// status 2 when it cannot fit; one notice line when the guard pages are left out.
sim::MapPlan plan_stacks(const Request& request, int npes, long before_second, long after_second)
{
  sim::MapPlan keep; // guards, nothing compact
  const long limit = sim::max_map_count();
  if (limit < 0 || before_second < 0 || after_second < 0)
    return keep;
  sim::MapPlan plan =
      sim::plan_mappings(limit, after_second, npes, 2, after_second - before_second, sim::kSpareMappings);
  if (plan.compact && plan.fits && !loader::compact_copies_allowed())
    plan.fits = false; // the system refuses executable anonymous memory
  if (!plan.fits)      // thrown, not exited: the copies' temporary directory goes
    throw ScenarioError(sim::map_limit_advice(plan, limit, npes));
  if (!plan.guards)
    std::fprintf(stderr,
                 "%s: %d PEs: no guard page below each thread's stack%s, to stay within vm.max_map_count (%ld): "
                 "a stack overflow is not caught (sudo sysctl -w vm.max_map_count=%ld keeps them)\n",
                 request.tool.c_str(), npes,
                 plan.compact ? ", program copies in anonymous memory and symmetric heaps side by side" : "", limit,
                 (plan.need_guarded + 999) / 1000 * 1000);
  return plan;
}

/// What a PE's copy and heap cost before the second PE has measured it: a copy built by shmemsim-cc
/// (2 mappings: code and data) and a heap.
constexpr long kFilePerPe = 3;

/// Throws the one line naming vm.max_map_count if the mappings in use, after `loaded` PEs, leave no
/// room for the others' copies and heaps (`per_pe` each) and a stack for every PE (`per_stack`).
void check_room(int npes, int loaded, long per_pe, long per_stack)
{
  const long limit = sim::max_map_count();
  const long now   = sim::mappings_in_use();
  if (limit < 0 || now < 0)
    return;
  const long need = now + static_cast<long>(npes - loaded) * per_pe + per_stack * npes + sim::kSpareMappings;
  if (need <= limit)
    return;
  sim::MapPlan p;
  p.fits         = false;
  p.compact      = true;
  p.need_compact = need;
  // Raising the limit to this keeps the guard pages and the copies as files (kFilePerPe each).
  p.need_guarded  = now + static_cast<long>(npes - loaded) * kFilePerPe + 2L * npes + sim::kSpareMappings;
  const long room = limit - sim::kSpareMappings - now - per_stack * loaded;
  p.max_pes       = static_cast<int>(std::max(0L, loaded + room / (per_pe + per_stack)));
  throw ScenarioError(sim::map_limit_advice(p, limit, npes));
}

} // namespace

std::string self_dir()
{
  return fs::read_symlink("/proc/self/exe").parent_path().string();
}

bool program_handles(int sig)
{
  return g_program_handles != nullptr && g_program_handles(sig) != 0;
}

LoadedProgram load_program(const Request& request, const std::vector<int>& node_of, std::uint64_t heap_bytes,
                           bool& stack_guards)
{
  const scenarios::Scenario& sc = request.scenario;
  const fs::path program        = fs::absolute(sc.job.program);
  if (!fs::exists(program))
    bad_option(request, sc.job.program + ": no such file");
  LoadedProgram loaded;
  load_interposer(loaded);
  loaded.tag_output = request.tag_output;

  const int npes = static_cast<int>(node_of.size());
  loader::ProgramCopies copies(program.string(), npes); // load errors throw through here: its temporaries go
  loaded.pes.resize(static_cast<std::size_t>(npes));
  stack_guards       = true;
  long before_second = -1;
  long per_pe        = kFilePerPe; // until measured
  sim::MapPlan plan;
  loader::HeapBlock heaps; // the compact heaps of PEs 2 and up
  // Mappings are counted again when the estimate passes half the room left (a few times a run): a
  // run that outgrows its plan stops with the line naming the limit, not with a failed mapping.
  long estimate = sim::mappings_in_use(), recount = estimate;
  for (int pe = 0; pe < npes; ++pe) {
    if (pe == 1)
      before_second = sim::mappings_in_use();
    // Before the plan (PEs 0 and 1), only what no plan could fit is refused: compact copies and heaps.
    const long room_per_pe    = pe < 2 ? sim::kCompactPerPe : per_pe;
    const long room_per_stack = pe < 2 || !plan.guards ? 1 : 2;
    if (estimate >= recount) {
      check_room(npes, pe, room_per_pe, room_per_stack);
      const long limit = sim::max_map_count();
      estimate         = sim::mappings_in_use();
      recount          = limit < 0 || estimate < 0 ? LONG_MAX : estimate + std::max(1L, (limit - estimate) / 2);
    }
    loader::LoadedCopy c;
    try {
      c = copies.load(pe); // std::runtime_error: one line naming the program
    } catch (const std::runtime_error&) {
      check_room(npes, pe, room_per_pe, room_per_stack); // at the limit: say so, not "failed to map"
      throw;
    }
    if (plan.compact && !loader::compact_copy(c.image))
      throw ScenarioError("cannot move PE " + std::to_string(pe) +
                          "'s program copy to anonymous memory: " + std::strerror(errno));
    void* heap = plan.compact ? heaps.next() : loader::map_symmetric_heap(heap_bytes);
    if (heap == MAP_FAILED) {
      const int err = errno;
      check_room(npes, pe, room_per_pe, room_per_stack);
      throw ScenarioError("cannot map a symmetric heap of " + std::to_string(heap_bytes) + " bytes for PE " +
                          std::to_string(pe) + ": " + std::strerror(err) +
                          " (lower job.symmetric_heap or SHMEM_SYMMETRIC_SIZE)");
    }
    estimate += per_pe;
    if (pe == 1) {
      const long after_second = sim::mappings_in_use();
      plan                    = plan_stacks(request, npes, before_second, after_second);
      stack_guards            = plan.guards;
      if (before_second >= 0 && after_second >= before_second)
        per_pe = after_second - before_second;
      if (plan.compact) {
        per_pe = sim::kCompactPerPe;
        if (!heaps.reserve(heap_bytes, static_cast<std::uint64_t>(npes - 2)))
          throw ScenarioError("cannot map the symmetric heaps of " + std::to_string(npes - 2) + " PEs (" +
                              std::to_string(heap_bytes) + " bytes each): " + std::strerror(errno) +
                              " (lower job.symmetric_heap or SHMEM_SYMMETRIC_SIZE)");
      }
      estimate = after_second;
    }
    front::PeProcess& p = loaded.pes[static_cast<std::size_t>(pe)];
    p.id                = pe;
    p.node              = node_of[static_cast<std::size_t>(pe)];
    p.main              = c.main;
    p.has_tls           = c.image.has_tls;
    p.handle            = c.handle;
    p.tls_image         = c.image.tls_image;
    p.tls_filesz        = c.image.tls_filesz;
    p.tls_memsz         = c.image.tls_memsz;
    p.mem               = front::PeMemory{c.image.data, c.image.data_size, static_cast<std::byte*>(heap), heap_bytes};
    p.args.push_back(sc.job.program);
    for (const auto& a : sc.job.args)
      p.args.push_back(a);
  }
  return loaded;
}

} // namespace shmemsim::run
