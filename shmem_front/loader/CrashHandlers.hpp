// The crash handlers of a process hosting PEs (shmemsim-run, shmemsim-emu-pe): SIGSEGV, SIGBUS,
// SIGFPE, SIGILL and SIGABRT go to `handler` on an alternate stack (a stack overflow still gets
// its report), once (SA_RESETHAND: the handler re-raises with the default action).
#pragma once

namespace shmemsim::loader {

void install_crash_handlers(void (*handler)(int));

} // namespace shmemsim::loader
