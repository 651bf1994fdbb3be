#include "shmem_front/loader/CrashHandlers.hpp"

#include <signal.h>

#include <vector>

namespace shmemsim::loader {

void install_crash_handlers(void (*handler)(int))
{
  static std::vector<char> altstack(1 << 16);
  stack_t ss{};
  ss.ss_sp   = altstack.data();
  ss.ss_size = altstack.size();
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_handler = handler;
  sa.sa_flags   = SA_ONSTACK | SA_RESETHAND;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    sigaction(sig, &sa, nullptr);
}

} // namespace shmemsim::loader
