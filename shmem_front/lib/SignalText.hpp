// How the launchers (the simulator's and the emulator's) name a fatal signal in their one-line
// reports. Async-signal-safe: a constant string per signal.
#pragma once

#include <csignal>

namespace shmemsim::front {

inline const char* signal_text(int sig)
{
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (invalid memory access)";
    case SIGBUS:
      return "SIGBUS (bus error)";
    case SIGFPE:
      return "SIGFPE (arithmetic error)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    case SIGABRT:
      return "SIGABRT (abort)";
    case SIGKILL:
      return "SIGKILL (killed)";
    default:
      return "a fatal signal";
  }
}

} // namespace shmemsim::front
