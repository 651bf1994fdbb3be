/* The table the PE runtime installs into the interposition library (C ABI, both sides). */
#ifndef SHMEMSIM_INTERPOSE_HOOKS_H
#define SHMEMSIM_INTERPOSE_HOOKS_H

#include <stdlib.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Process state libc keeps once per process, kept once per PE instead. */
struct shmemsim_libc_state {
  struct random_data random;   /* rand, random, srand, srandom */
  char random_state[128];
  int random_ready;
  struct drand48_data drand48; /* drand48 family */
  int drand48_ready;
};

struct shmemsim_hooks {
  /* Non-zero when called from a simulated PE (else the real libc function runs). */
  int (*active)(void);
  /* Simulated time: `which` is 0 for wall-clock time, 1 for monotonic, 2 for CPU time. */
  void (*now)(int which, struct timespec* ts);
  void (*sleep)(double seconds);
  /* exit() of a PE: end it with `status` (never returns). */
  void (*exit)(int status);
  struct shmemsim_libc_state* (*libc_state)(void);
};

/* Installed by the runtime (found with dlsym). */
void shmemsim_interpose_install(const struct shmemsim_hooks* hooks);
/* Basic blocks executed by instrumented program code since the runtime last read it. */
extern unsigned long shmemsim_blocks;

#ifdef __cplusplus
}
#endif

#endif
