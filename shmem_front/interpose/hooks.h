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
  struct random_data random; /* rand, random, srand, srandom */
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

  /* Threads of a PE are simulated actors; synchronization objects are keyed by address. Each
   * returns 0 or an errno value like its pthread counterpart. */
  int (*thread_create)(unsigned long* tid, void* (*fn)(void*), void* arg);
  int (*thread_join)(unsigned long tid, void** retval);
  void (*thread_exit)(void* retval); /* never returns */
  unsigned long (*thread_self)(void);
  int (*thread_detach)(unsigned long tid);
  int (*mutex_lock)(void* m, int try_only);
  int (*mutex_unlock)(void* m);
  int (*mutex_forget)(void* m);
  /* abstime: CLOCK_REALTIME deadline or NULL. */
  int (*cond_wait)(void* c, void* m, const struct timespec* abstime);
  int (*cond_signal)(void* c, int broadcast);
  int (*barrier_init)(void* b, unsigned count);
  int (*barrier_wait)(void* b);
  int (*yield)(void);
  int (*key_create)(unsigned* key, void (*destructor)(void*));
  int (*key_delete)(unsigned key);
  void* (*get_specific)(unsigned key);
  int (*set_specific)(unsigned key, const void* value);

  /* For the OpenMP runtime (libshmemsim_omp): its state per PE and per simulated thread (slots
   * it owns, initially NULL), the default team size (job.threads.per_pe, or the node's program
   * cores divided among its PEs), charging the calling thread's pending computation (it may let
   * other threads run), blocking a thread until another one wakes it (park returns at once if a
   * wake-up is pending; `routine` and `what` name the wait in deadlock reports), a callback run by
   * a PE's main thread when the PE's main ends, and a fatal error (one line, exit status 2). */
  void** (*omp_pe_slot)(void);
  void** (*omp_thread_slot)(void);
  int (*default_threads)(void);
  int (*pe_cores)(void); /* the node's program cores divided among its PEs (omp_get_num_procs) */
  void (*charge)(const char* routine);
  void* (*self)(void);
  void (*park)(const char* routine, const char* what);
  void (*unpark)(void* thread);
  void (*at_pe_exit)(void (*fn)(void));
  void (*fatal)(const char* message);

  /* Time slicing: the running thread executed shmemsim_slice_work counted instructions without a
   * call that charges its computation: charge it and let other threads and the network run. */
  void (*slice)(void);

  /* Counted compute's cache model: a sampled memory reference of the running thread (its address,
   * and its kind: 1 a store, 2 a load on a loop's dependency chain, 0 another load); returns what
   * it costs, in femtoseconds of one core (shmem_front/runtime/CacheModel.hpp). */
  unsigned long (*memory)(unsigned long address, unsigned long flags);

  /* The calling PE's environment (libc's environ points at it while the PE runs; getenv reads it
   * there). Each returns 0 or -1 with errno set, like its libc counterpart. */
  int (*env_set)(const char* name, const char* value, int overwrite);
  int (*env_put)(char* entry);
  int (*env_unset)(const char* name);
  int (*env_clear)(void);
};

/* Installed by the runtime (found with dlsym). */
void shmemsim_interpose_install(const struct shmemsim_hooks* hooks);
/* The installed table (NULL outside shmemsim-run), for the OpenMP runtime. */
const struct shmemsim_hooks* shmemsim_interpose_hooks(void);
/* Work done by instrumented program code since the runtime last read it, in femtoseconds of one
 * core (each basic block adds its compile-time instruction count times shmemsim_instruction_fs,
 * an innermost loop's header its floor: its chain's operations by class, each at its class's
 * shmemsim_latency_fs, or its divides of shmemsim_divide_fs; shmem_front/tools/plugin). */
#define SHMEMSIM_CHAIN_CLASSES 4 /* integer ALU, load, floating add, floating multiply */
#define SHMEMSIM_CHAIN_BITS 12   /* bits per class in a loop's packed chain */
extern unsigned long shmemsim_work;
extern unsigned long shmemsim_instruction_fs;
extern unsigned long shmemsim_divide_fs;
extern unsigned long shmemsim_latency_fs[SHMEMSIM_CHAIN_CLASSES];
/* The work at which the running thread's time slice ends (set by the runtime). */
extern unsigned long shmemsim_slice_work;
/* The reorder window, in instructions, over which short executions of a loop overlap their chains
 * (platform.reorder_window; 0: none). */
extern unsigned long shmemsim_window;
/* Charge what is deferred (the open loop execution's chain, the work the program counted inline
 * since shmemsim_left was set) into shmemsim_work: the runtime calls it before it reads or swaps
 * the counter. */
void shmemsim_flush_work(void);
/* The program's inline counting (shmem_front/tools/plugin): each block subtracts its work from
 * shmemsim_left, the work left before the time slice ends, and calls the library when it runs out.
 * The runtime calls this after it sets shmemsim_work or shmemsim_slice_work. */
void shmemsim_rearm_work(void);
extern long shmemsim_left;
/* The cache model's sampled lines: a memory reference is reported (__shmemsim_memory) when
 * (address & shmemsim_memory_mask) == shmemsim_memory_match; the runtime sets both (by default the
 * test never holds: no cache model). */
extern unsigned long shmemsim_memory_mask;
extern unsigned long shmemsim_memory_match;

#ifdef __cplusplus
}
#endif

#endif
