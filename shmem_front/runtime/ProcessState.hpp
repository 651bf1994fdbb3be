// Per-PE libc state: what libc keeps once per process (getopt variables, environ, errno, the
// program's thread-local block) kept per PE and per simulated thread, saved and restored at every
// actor switch; and each PE's own environment (setenv, putenv, unsetenv, clearenv).
#pragma once

#include "shmem_front/runtime/SimThreads.hpp"

namespace shmemsim::front {

class ProcessState {
public:
  /// `threads` says which PE is running (for the environment calls).
  explicit ProcessState(SimThreads& threads) : threads_(threads) {}
  /// Gives libc the simulator's own environment back.
  ~ProcessState();
  ProcessState(const ProcessState&)            = delete;
  ProcessState& operator=(const ProcessState&) = delete;

  /// Before the PEs start: the simulator's environment (as -x/-genv options left it), which each
  /// PE starts with a copy of.
  void capture_launcher_env();
  /// `pe`'s main starts: fresh getopt variables, its own copy of the environment, errno 0.
  void start_pe(PeProcess& pe);
  /// A new thread of `pe` starts (its PE's state restored): errno 0, a fresh TLS block.
  void start_thread(PeProcess& pe);
  /// At actor switches: `t`'s state is kept with it (libc gets the simulator's environment back
  /// between PEs), and put back when it runs again.
  void save(SimThread& t) const;
  void restore(SimThread& t) const;

  /// The running PE's random-generator state (rand, drand48 families).
  shmemsim_libc_state* libc_state() const { return &threads_.current_pe()->libc; }
  /// The running PE's environment; each returns 0 or -1 with errno set, like libc's.
  int env_set(const char* name, const char* value, bool overwrite);
  int env_put(char* entry);
  int env_unset(const char* name);
  int env_clear();

private:
  SimThreads& threads_;
  char** launcher_env_ = nullptr; ///< the simulator's environment (libc's environ outside PEs)
};

} // namespace shmemsim::front
