// The profiling interface (OpenSHMEM 1.5 §11): shmem_pcontrol, and a name-shifted entry point for
// every routine: pshmem_X for shmem_X (pstart_pes, pshmalloc, p_my_pe, ... for the deprecated
// names, pshmemx_X for the shmemx_ extensions). A profiler (or a program) defines its own shmem_X
// and calls pshmem_X to reach the library's.
//
// pNAME is a one-instruction trampoline that tail-jumps to NAME through the PLT: it forwards every
// argument untouched (variadic routines included) without repeating the signatures, and it reaches
// the library's own NAME (shmemsim-run loads the programs RTLD_LOCAL, so a program's shmem_X never
// takes the place of the library's for the library). The names come from the routine tables and
// the hand-written list of shmemsim/shmem_signal_lock.h; the prototypes are declared there.
#include "shmem_front/lib/Library.hpp"

#include <shmem.h>
#include <shmemx.h>

extern "C" void shmem_pcontrol(const int level, ...)
{
  shmemsim::front::Entry e("shmem_pcontrol", true);
  (void)level; // no profiler inside the library: a no-op, as §11 requires
}

#if defined(__x86_64__)
#if defined(__CET__) && (__CET__ & 1)
#define SHMEMSIM_ENDBR_ "endbr64\n\t"
#else
#define SHMEMSIM_ENDBR_ ""
#endif
#define SHMEMSIM_TRAMPOLINE_(NAME)                                                                                     \
  ".globl p" #NAME "\n\t.type p" #NAME ", @function\n\t.p2align 4\np" #NAME ":\n\t" SHMEMSIM_ENDBR_ "jmp " #NAME       \
  "@PLT\n\t.size p" #NAME ", .-p" #NAME "\n\t"
#elif defined(__aarch64__)
#define SHMEMSIM_TRAMPOLINE_(NAME)                                                                                     \
  ".globl p" #NAME "\n\t.type p" #NAME ", %function\n\t.p2align 2\np" #NAME ":\n\t"                                    \
  "b " #NAME "\n\t.size p" #NAME ", .-p" #NAME "\n\t"
#else
#error "shmemsim: pshmem_ trampolines are written for x86-64 and AArch64 only"
#endif

// Name tables laid out by hand (X-macros), as in the public headers:
// clang-format off
// The shmemx_ extensions (shmemx.h).
#define SHMEMSIM_PNX_(RET, NAME, KIND, ELEM, PARAMS) SHMEMSIM_PN_(shmemx_##NAME)
#define SHMEMSIM_PNX_TYPED_(TYPE, TYPENAME) SHMEMX_NB_TYPED_ROUTINES(SHMEMSIM_PNX_, TYPE, TYPENAME)
#define SHMEMSIM_PNX_FADD_(TYPE, TYPENAME) SHMEMX_FADD_NB_ROUTINES(SHMEMSIM_PNX_, TYPE, TYPENAME)
#define SHMEMSIM_PSHMEMX_NAMES_()                                                                          \
  SHMEMSIM_PN_(shmemx_ctx_create) SHMEMSIM_PN_(shmemx_ctx_destroy) SHMEMSIM_PN_(shmemx_ctx_fence)          \
  SHMEMSIM_PN_(shmemx_ctx_quiet) SHMEMSIM_PN_(shmemx_sync) SHMEMSIM_PN_(shmemx_sync_all)                   \
  SHMEMX_NB_MEM_ROUTINES(SHMEMSIM_PNX_) SHMEMSIM_RMA_TYPES(SHMEMSIM_PNX_TYPED_)                            \
  SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMSIM_PNX_FADD_)

#define SHMEMSIM_PN_ SHMEMSIM_TRAMPOLINE_
asm(".pushsection .text\n\t" SHMEMSIM_PSHMEM_NAMES_() SHMEMSIM_PSHMEMX_NAMES_() ".popsection\n");
#undef SHMEMSIM_PN_
// Seed 003's extensions (shmemx.h, ORNL EXTENSIONS).
#define SHMEMX_SEED003_N_ SHMEMSIM_TRAMPOLINE_
asm(".pushsection .text\n\t" SHMEMX_SEED003_NAMES_() ".popsection\n");
#undef SHMEMX_SEED003_N_

// AsyncSHMEM (seed 001, shmemx.h's ASYNCSHMEM section).
#define SHMEMSIM_PSHMEMX_ASYNC_NAMES_()                                                                      \
  SHMEMSIM_PN_(shmemx_worker_init) SHMEMSIM_PN_(shmemx_my_worker) SHMEMSIM_PN_(shmemx_n_workers)             \
  SHMEMSIM_PN_(shmemx_task) SHMEMSIM_PN_(shmemx_parallel_for) SHMEMSIM_PN_(shmemx_task_scope_begin)          \
  SHMEMSIM_PN_(shmemx_task_scope_end) SHMEMSIM_PN_(shmemx_create_promise)                                    \
  SHMEMSIM_PN_(shmemx_future_for_promise) SHMEMSIM_PN_(shmemx_satisfy_promise)                               \
  SHMEMSIM_PN_(shmemx_future_wait) SHMEMSIM_PN_(shmemx_task_await) SHMEMSIM_PN_(shmemx_task_future)          \
  SHMEMSIM_PN_(shmemx_int_task_when) SHMEMSIM_PN_(shmemx_int_task_when_any) SHMEMSIM_PN_(shmemx_async_stats)
#define SHMEMSIM_PN_ SHMEMSIM_TRAMPOLINE_
asm(".pushsection .text\n\t" SHMEMSIM_PSHMEMX_ASYNC_NAMES_() ".popsection\n");
#undef SHMEMSIM_PN_
// clang-format on
