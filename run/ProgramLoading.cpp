#include "run/ProgramLoading.hpp"

#include "shmem_front/loader/ProgramCopies.hpp"
#include "sim/MapBudget.hpp"

#include <dlfcn.h>
#include <sys/mman.h>

#include <cerrno>
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
/// run fits the system's limit of memory mappings, and with or without guard pages below the
/// actors' stacks. One line and status 2 when it cannot fit; one notice line when the guard pages
/// are left out. Returns whether they stay.
bool plan_stacks(const Request& request, int npes, long before_second, long after_second)
{
  const long limit = sim::max_map_count();
  if (limit < 0 || before_second < 0 || after_second < 0)
    return true;
  const sim::MapPlan plan =
      sim::plan_mappings(limit, after_second, npes, 2, after_second - before_second, sim::kSpareMappings);
  if (!plan.fits) // thrown, not exited: the copies' temporary directory goes
    throw ScenarioError(sim::map_limit_advice(plan, limit, npes));
  if (!plan.guards)
    std::fprintf(stderr,
                 "%s: %d PEs: no guard page below each thread's stack, to stay within vm.max_map_count (%ld): "
                 "a stack overflow is not caught (sudo sysctl -w vm.max_map_count=%ld keeps them)\n",
                 request.tool.c_str(), npes, limit, (plan.need_guarded + 999) / 1000 * 1000);
  return plan.guards;
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
  for (int pe = 0; pe < npes; ++pe) {
    if (pe == 1)
      before_second = sim::mappings_in_use();
    const loader::LoadedCopy c = copies.load(pe); // std::runtime_error: one line naming the program
    void* heap                 = loader::map_symmetric_heap(heap_bytes);
    if (heap == MAP_FAILED)
      throw ScenarioError("cannot map a symmetric heap of " + std::to_string(heap_bytes) + " bytes for PE " +
                          std::to_string(pe) + ": " + std::strerror(errno) +
                          " (lower job.symmetric_heap or SHMEM_SYMMETRIC_SIZE)");
    if (pe == 1)
      stack_guards = plan_stacks(request, npes, before_second, sim::mappings_in_use());
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
