// The records the PE runtime's parts share: a PE (its program copy, memory and the process state
// libc would keep once per process) and a simulated thread of a PE (an actor). Each part of the
// runtime reads and writes the fields of its own responsibility, as the comments say.
#pragma once

#include "shmem_front/interpose/hooks.h"
#include "shmem_front/lib/PeMemory.hpp"
#include "base/Time.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace shmemsim::sim {
class Notifier;
}

namespace shmemsim::front {

class CacheModel;

using ProgramMain = int (*)(int, char**, char**);

struct PeProcess {
  int id   = 0;
  int node = 0;
  PeMemory mem;
  ProgramMain main = nullptr;
  std::vector<std::string> args; ///< argv[0] is the program
  std::vector<char*> argv;
  int exit_status     = 0;
  bool finished       = false;
  const char* routine = nullptr; ///< library routine the PE is in (for reports)
  // Process state kept per PE and swapped at every actor switch (ProcessState).
  int optind = 1, opterr = 1, optopt = '?';
  char* optarg = nullptr;
  int err      = 0;
  shmemsim_libc_state libc{};
  double cpu_mark = 0;       ///< measured mode: CPU time when the PE last left the library (ComputeAccounting)
  FILE* out       = nullptr; ///< --tag-output: this PE's stdout and stderr (prefix every line; OutputTagging)
  FILE* err_out   = nullptr;
  bool has_tls    = false;              ///< the program has thread-local variables (PT_TLS)
  void* handle    = nullptr;            ///< this PE's copy of the program (dlopen)
  const std::byte* tls_image = nullptr; ///< the copy's initial TLS image (.tdata)
  std::size_t tls_filesz = 0, tls_memsz = 0;
  int threads     = 1;                 ///< threads created so far (the main thread included)
  void* omp       = nullptr;           ///< the OpenMP runtime's state for this PE (its slot)
  bool maps_peers = false;             ///< shmem_ptr gave it another PE's memory (its stores may land there)
  char** env      = nullptr;           ///< its environment (libc's environ while it runs)
  std::vector<char*> env_storage;      ///< its environment's array (null-terminated), when it is ours
  std::deque<std::string> env_strings; ///< "NAME=value" entries made by setenv
};

/// One simulated thread of a PE (its main thread included): an actor.
struct SimThread {
  PeProcess* pe           = nullptr;
  unsigned long tid       = 0;
  int index               = 0; ///< 0 for the PE's main thread
  std::size_t pid         = 0; ///< its actor's pid
  int err                 = 0; ///< errno, kept per thread
  const char* routine     = nullptr;
  sim::Notifier* notifier = nullptr; ///< its actor's (valid while the actor runs)
  bool finished           = false;
  bool detached           = false; ///< its resources go at its end; it cannot be joined
  void* retval            = nullptr;
  std::vector<SimThread*> joiners;
  // condition-variable wait state (SyncObjects)
  bool cond_signaled            = false;
  bool cond_timed_out           = false;
  bool in_cond_wait             = false;
  std::uint64_t cond_generation = 0;        ///< numbers this thread's condition waits (stale timeouts)
  std::map<unsigned, const void*> specific; ///< pthread_setspecific values
  std::vector<std::byte> tls; ///< this thread's copy of the program's TLS block (while it is switched out)
  void* omp     = nullptr;    ///< the OpenMP runtime's state for this thread (its slot)
  bool unparked = false;      ///< a wake-up for park() is pending
  // compute accounting (ComputeAccounting)
  unsigned long work       = 0;       ///< counted instructions not yet charged (while it is switched out)
  bool computing           = false;   ///< charging computation (in a SimGrid execution or a poll)
  Ps last_call             = 0;       ///< when it last entered or left a charging call
  int calls                = 0;       ///< charging calls under way (enter without its leave yet: nested ones too)
  bool in_routine          = false;   ///< its outermost call is a SHMEM routine, reported to the observer
  int collective           = -1;      ///< that routine's CollectiveKind (-1: not a blocking collective)
  Ps routine_at            = 0;       ///< when it entered that routine
  Ps routine_busy          = 0;       ///< its actor's Simulation::busy_time() then
  const char* kind_routine = nullptr; ///< the last outermost routine classified, and its kind:
  int kind_of_routine      = -1;      ///< a loop calls one routine again and again (names are literals)
  Ps sliced_from           = -1;      ///< start of the run of time slices in progress (-1: none)
  std::shared_ptr<CacheModel> cache;  ///< its cores' caches (counted compute's model; made when it first runs)
};

} // namespace shmemsim::front
