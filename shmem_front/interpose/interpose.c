/* Interposition library: listed first in every program built by shmemsim-cc, so that the
 * program's calls to clocks, sleeps, exit and the libc random generators reach the simulator
 * (through the hooks the PE runtime installs) while the simulator itself keeps the real ones.
 * It depends on libc only and exports nothing else. */
#define _GNU_SOURCE
#include "hooks.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static const struct shmemsim_hooks* hooks;
/* Counted compute (see shmem_front/tools/plugin): the work the running thread has done since the
 * runtime last charged it, in femtoseconds of one core's time, and the costs it is counted at, in
 * femtoseconds: set by the runtime before any PE runs from platform.instruction_time, divide_time
 * and the chain latencies platform.latency.* (indexed by the plugin's operation classes: integer
 * ALU, load, floating add, floating multiply; the plugin's fifth class, other operations in
 * reference cycles, is counted at the integer latency, one cycle). */
EXPORT unsigned long shmemsim_work;
EXPORT unsigned long shmemsim_instruction_fs;
EXPORT unsigned long shmemsim_divide_fs;
EXPORT unsigned long shmemsim_latency_fs[SHMEMSIM_CHAIN_CLASSES];

EXPORT void shmemsim_interpose_install(const struct shmemsim_hooks* h)
{
  hooks = h;
}
EXPORT const struct shmemsim_hooks* shmemsim_interpose_hooks(void)
{
  return hooks;
}

/* Work after which the running thread's time slice ends (the runtime sets it; the counter is
 * reset whenever computation is charged). */
EXPORT unsigned long shmemsim_slice_work = (unsigned long)-1;

/* The inline path (the plugin's code in the program, hooks.h): the program subtracts each block's
 * work from shmemsim_left, the work left before the slice ends, and calls __shmemsim_count_slow
 * when it reaches 0 or less. The work done since shmemsim_left was last set, left_base -
 * shmemsim_left, is part of the running thread's work: fold() moves it into shmemsim_work, and
 * rearm() sets shmemsim_left again from shmemsim_work and the slice's end. So the slice ends at
 * exactly the block at which shmemsim_work plus that part reaches shmemsim_slice_work (the room
 * above LONG_MAX is checked again when shmemsim_left runs out: the slow path compares exactly). */
EXPORT long shmemsim_left;
static unsigned long left_base;

static void fold(void)
{
  shmemsim_work += left_base - (unsigned long)shmemsim_left;
  left_base = (unsigned long)shmemsim_left;
}

EXPORT void shmemsim_rearm_work(void)
{
  unsigned long room = shmemsim_work < shmemsim_slice_work ? shmemsim_slice_work - shmemsim_work : 0;
  if (room > (unsigned long)LONG_MAX)
    room = (unsigned long)LONG_MAX;
  shmemsim_left = (long)room;
  left_base     = room;
}

/* Overlap of short loops' chains (platform.reorder_window): an out-of-order core keeps up to
 * shmemsim_window instructions in flight, so when one execution of an innermost loop (its T
 * iterations of L instructions, as from one row of a sparse matrix) is shorter than that window,
 * the chains of about shmemsim_window / (T L) consecutive executions run at once: each execution's
 * chain costs its floor divided by that overlap. An execution's iterations are therefore charged
 * when it ends, known when the loop is entered again (`__shmemsim_count_enter`, called from the
 * blocks that lead into the loop) or when the runtime reads the counter (shmemsim_flush_work).
 * 0: no overlap (every iteration is charged its floor at once). */
EXPORT unsigned long shmemsim_window;

/* The innermost loop execution whose chain is not charged yet (only one: entering any loop ends it). */
static struct {
  unsigned long loop;         /* the loop's identifier (0: none open) */
  unsigned long iterations;   /* iterations counted since it was entered or last charged */
  unsigned long path_fs;      /* one iteration's dependency chain */
  unsigned long unit_fs;      /* one iteration's divider occupancy (a throughput: never overlaps) */
  unsigned long instructions; /* one iteration's instructions (one pass through its usual blocks) */
} open_loop;

/* The inline path of a loop header with a floor: its slot (a static of the program, per header:
 * [0] runs, [1] work) lets the header take slot[0] more iterations without
 * __shmemsim_count_chain_slow, each counting slot[1] (what the slow path would count): iterations of
 * the open execution of its loop (their instructions; the chain is charged when the execution ends)
 * until the one that reaches the reorder window (the slow path: it charges the chain so far), or
 * iterations counted at once (their instructions and floor) when its loop has no open execution.
 * One slot at a time is armed: sync_chain brings the open loop up to date (armed_runs - slot[0]
 * iterations since it was armed) and disarms it (slot[0] = 0: its next iteration takes the slow
 * path), at any change of the open loop. */
static unsigned long* armed_slot;
static unsigned long armed_runs;
static int armed_open; /* the armed header's iterations are the open execution's */

static void sync_chain(void)
{
  if (armed_slot == NULL)
    return;
  if (armed_open)
    open_loop.iterations += armed_runs - armed_slot[0];
  armed_slot[0] = 0;
  armed_slot    = NULL;
}

/* What `iterations` of a loop with this chain, divider occupancy and instructions cost beyond
 * their instructions, with the chains of executions this short overlapping in the reorder window. */
static unsigned long chain_extra(unsigned long iterations, unsigned long path_fs, unsigned long unit_fs,
                                 unsigned long instructions)
{
  /* The overlapped chain of the last execution's shape, kept: executions of a loop are usually
   * alike (rows of one length), and the floating-point division was most of the cost per row. */
  static unsigned long memo_path, memo_span, memo_window, memo_effective;
  const unsigned long span = iterations * instructions, issue = instructions * shmemsim_instruction_fs;
  unsigned long effective = path_fs;
  if (shmemsim_window > span && span > 0) {
    if (path_fs != memo_path || span != memo_span || shmemsim_window != memo_window) {
      memo_path      = path_fs;
      memo_span      = span;
      memo_window    = shmemsim_window;
      memo_effective = (unsigned long)((double)path_fs * (double)span / (double)shmemsim_window);
    }
    effective = memo_effective;
  }
  if (unit_fs > effective)
    effective = unit_fs;
  return effective > issue ? iterations * (effective - issue) : 0;
}

/* Charge the open execution's iterations so far (the loop stays open: it may go on). */
static void flush_open(void)
{
  sync_chain();
  if (open_loop.iterations > 0)
    shmemsim_work += chain_extra(open_loop.iterations, open_loop.path_fs, open_loop.unit_fs, open_loop.instructions);
  open_loop.iterations = 0;
}

/* The runtime reads the counter: every iteration counted so far is in shmemsim_work. */
EXPORT void shmemsim_flush_work(void)
{
  flush_open();
  open_loop.loop = 0;
  fold();
}

__attribute__((noinline, cold)) static void slice_ends(void)
{
  if (hooks != NULL && hooks->slice != NULL)
    hooks->slice();
}

/* Add `fs` to the running thread's work, and end its time slice when the work reaches the slice's end. */
static void count(unsigned long fs)
{
  fold();
  if (__builtin_expect((shmemsim_work += fs) >= shmemsim_slice_work, 0))
    slice_ends();
  shmemsim_rearm_work();
}

/* shmemsim-cc's GCC plugin, in mode=calls (else inline, see __shmemsim_count_slow), calls this at
 * the start of every basic block of the program with the block's instruction count (a compile-time
 * constant): count its time, and end the thread's time slice when it has run a quantum without
 * calling anything that charges. */
EXPORT void __shmemsim_count(unsigned long instructions)
{
  count(instructions * shmemsim_instruction_fs);
}

/* The inline path's call: shmemsim_left ran out, the time slice may have ended. */
EXPORT void __shmemsim_count_slow(void)
{
  count(0);
}

/* The plugin's code in the program, at the end of a basic block with memory references: for each
 * reference of the block when one of them is on a sampled line (hooks.h), with its address and
 * kind. A reference on a sampled line costs what the runtime's cache model says, added to the
 * thread's work (the time slice ends at the next block if that reaches its end). */
EXPORT unsigned long shmemsim_memory_mask;
EXPORT unsigned long shmemsim_memory_match = 1;
EXPORT void __shmemsim_memory(unsigned long address, unsigned long flags)
{
  if ((address & shmemsim_memory_mask) != shmemsim_memory_match || hooks == NULL || hooks->memory == NULL)
    return;
  const unsigned long fs = hooks->memory(address, flags);
  if (fs == 0)
    return;
  fold();
  shmemsim_work += fs;
  shmemsim_rearm_work();
}

/* The same in a block that leads into innermost loop `loop` (entered or not): the execution of a
 * loop that was open ends and is charged; this loop's next iterations form a new execution. */
EXPORT void __shmemsim_count_enter(unsigned long instructions, unsigned long loop)
{
  flush_open();
  open_loop.loop = loop;
  count(instructions * shmemsim_instruction_fs);
}

/* A loop's chain (see __shmemsim_count_chain) at the platform's latencies, and its divider time. */
static unsigned long chain_path_fs(unsigned long chain)
{
  const unsigned long m = (1ul << SHMEMSIM_CHAIN_BITS) - 1;
  return ((chain & m) + ((chain >> (4 * SHMEMSIM_CHAIN_BITS)) & m)) * shmemsim_latency_fs[0] +
         ((chain >> SHMEMSIM_CHAIN_BITS) & m) * shmemsim_latency_fs[1] +
         ((chain >> (2 * SHMEMSIM_CHAIN_BITS)) & m) * shmemsim_latency_fs[2] +
         ((chain >> (3 * SHMEMSIM_CHAIN_BITS)) & m) * shmemsim_latency_fs[3];
}

/* What one iteration of a header counted at once costs (its instructions and the time its floor
 * leaves to them): no open execution, or one that is not this loop's. */
static unsigned long closed_fs(unsigned long instructions, unsigned long chain, unsigned long divides,
                               unsigned long loop_instructions)
{
  const unsigned long path  = chain_path_fs(chain);
  const unsigned long unit  = divides * shmemsim_divide_fs;
  const unsigned long floor = path > unit ? path : unit;
  const unsigned long issue = loop_instructions * shmemsim_instruction_fs;
  return instructions * shmemsim_instruction_fs + (floor > issue ? floor - issue : 0);
}

/* The same at the header of innermost loop `loop`, whose iteration takes at least its `chain` (the
 * dependent operations carried from one iteration to the next, by class: 12 bits per class, class c
 * in bits [12c, 12c + 12), the fifth class in reference cycles at the integer latency) and at least
 * `divides` times the divider's time: the time the loop's `loop_instructions` leave to that floor
 * is charged too, when the execution ends (with the overlap of short executions), or at once when
 * the loop was entered by no instrumented block or its chain goes on from one execution to the
 * next (`loop` 0: a running checksum whose inner loop starts from the outer loop's value). */
EXPORT void __shmemsim_count_chain(unsigned long instructions, unsigned long chain, unsigned long divides,
                                   unsigned long loop_instructions, unsigned long loop)
{
  sync_chain();
  if (loop != 0 && loop == open_loop.loop) {
    open_loop.iterations += 1;
    open_loop.path_fs      = chain_path_fs(chain);
    open_loop.unit_fs      = divides * shmemsim_divide_fs;
    open_loop.instructions = loop_instructions;
    if (open_loop.iterations * loop_instructions >= shmemsim_window) {
      /* Longer than the window: no overlap; this execution's further iterations pay at once. */
      flush_open();
      open_loop.loop = 0;
    }
    count(instructions * shmemsim_instruction_fs);
    return;
  }
  count(closed_fs(instructions, chain, divides, loop_instructions));
}

/* Iterations j > done of a loop of `loop_instructions` with j * loop_instructions below the window:
 * the open execution's iterations that go on inline (the last division is kept: loops repeat). */
static unsigned long runs_below_window(unsigned long done, unsigned long loop_instructions)
{
  static unsigned long cached_instructions, cached_window, cached_below;
  if (loop_instructions != cached_instructions || shmemsim_window != cached_window) {
    cached_instructions = loop_instructions;
    cached_window       = shmemsim_window;
    cached_below        = loop_instructions > 0 ? (shmemsim_window + loop_instructions - 1) / loop_instructions
                                                : (shmemsim_window > 0 ? ULONG_MAX : 0);
  }
  return cached_below > done + 1 ? cached_below - 1 - done : 0;
}

/* Arm `slot` for its header's next iterations: in the open execution of its loop, as many as it
 * can take before it reaches the window (each counted as __shmemsim_count_chain counts it:
 * iterations += 1 with this header's chain, and its instructions), or, when its loop has no open
 * execution, any number (each its instructions and floor at once). */
static void arm(unsigned long* slot, unsigned long instructions, unsigned long chain, unsigned long divides,
                unsigned long loop_instructions, unsigned long loop)
{
  armed_open = loop != 0 && loop == open_loop.loop;
  if (armed_open) {
    slot[0] = runs_below_window(open_loop.iterations, loop_instructions);
    slot[1] = instructions * shmemsim_instruction_fs;
  } else {
    slot[0] = ULONG_MAX;
    slot[1] = closed_fs(instructions, chain, divides, loop_instructions);
  }
  slot[2]    = 0; /* no inline re-entry (see __shmemsim_count_enter_arm) */
  armed_runs = slot[0];
  armed_slot = slot;
}

/* The inline path's call at a loop header whose `slot` has no runs left: count it as
 * __shmemsim_count_chain, then arm the slot. */
EXPORT void __shmemsim_count_chain_slow(unsigned long instructions, unsigned long chain, unsigned long divides,
                                        unsigned long loop_instructions, unsigned long loop, unsigned long* slot)
{
  __shmemsim_count_chain(instructions, chain, divides, loop_instructions, loop);
  arm(slot, instructions, chain, divides, loop_instructions, loop);
}

/* The inline path's call in a block that leads into innermost loop `loop`: count it as
 * __shmemsim_count_enter, then arm the loop's header (its `slot`, `header_instructions` and floor)
 * for the new execution's first iterations. Its chain is the open loop's from now on, as the
 * header's first iteration would set it (an execution of no iteration charges nothing). */
EXPORT void __shmemsim_count_enter_arm(unsigned long instructions, unsigned long loop,
                                       unsigned long header_instructions, unsigned long chain, unsigned long divides,
                                       unsigned long loop_instructions, unsigned long* slot)
{
  /* The execution that ends here, if it is this loop's from the start, counted on this slot: its
   * iterations, for the inline re-entry below. */
  const int again           = loop != 0 && loop == open_loop.loop && armed_slot == slot && armed_open;
  const unsigned long ended = again ? open_loop.iterations + armed_runs - slot[0] : 0;
  const int from_start      = again && open_loop.iterations == 0;
  slot[2]                   = 0;
  __shmemsim_count_enter(instructions, loop);
  if (loop == 0 || loop != open_loop.loop)
    return; /* the time slice ended: the runtime closed the execution */
  open_loop.path_fs      = chain_path_fs(chain);
  open_loop.unit_fs      = divides * shmemsim_divide_fs;
  open_loop.instructions = loop_instructions;
  arm(slot, header_instructions, chain, divides, loop_instructions, loop);
  /* The inline re-entry (shmemsim-cc's plugin, in the blocks that lead into the loop): when the
   * next execution has as many iterations as this one (the header leaves slot[0] at slot[2]), and
   * its chain is this one's, a block that leads into the loop counts what this call would count:
   * that execution's chain (slot[3]) plus its own instructions, and arms the header again with
   * slot[4] runs (the open execution's iterations stay 0, the armed slot this one). It calls this
   * function otherwise, and when the time slice would end there. */
  if (from_start && armed_open && ended < slot[0]) {
    slot[2] = slot[0] - ended;
    slot[3] = ended > 0 ? chain_extra(ended, open_loop.path_fs, open_loop.unit_fs, open_loop.instructions) : 0;
    slot[4] = slot[0];
  }
}

static int active(void)
{
  return hooks != NULL && hooks->active();
}

#define REAL(ret, name, params)                                                                                        \
  static ret(*real_##name) params;                                                                                     \
  static ret(*get_real_##name(void)) params                                                                            \
  {                                                                                                                    \
    if (real_##name == NULL)                                                                                           \
      *(void**)(&real_##name) = dlsym(RTLD_NEXT, #name);                                                               \
    return real_##name;                                                                                                \
  }

REAL(int, clock_gettime, (clockid_t, struct timespec*))
REAL(int, gettimeofday, (struct timeval*, void*))
REAL(time_t, time, (time_t*))
REAL(clock_t, clock, (void))
REAL(unsigned, sleep, (unsigned))
REAL(int, usleep, (useconds_t))
REAL(int, nanosleep, (const struct timespec*, struct timespec*))
REAL(void, exit, (int))
REAL(int, rand, (void))
REAL(void, srand, (unsigned))
REAL(long, random, (void))
REAL(void, srandom, (unsigned))
REAL(double, drand48, (void))
REAL(long, lrand48, (void))
REAL(long, mrand48, (void))
REAL(void, srand48, (long))
REAL(unsigned short*, seed48, (unsigned short*))

/* ---------------------------------------------------------------- time */

static int clock_kind(clockid_t c)
{
  switch (c) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
      return 0;
    case CLOCK_PROCESS_CPUTIME_ID:
    case CLOCK_THREAD_CPUTIME_ID:
      return 2;
    default:
      return 1;
  }
}

EXPORT int clock_gettime(clockid_t c, struct timespec* ts)
{
  if (!active())
    return get_real_clock_gettime()(c, ts);
  hooks->now(clock_kind(c), ts);
  return 0;
}

EXPORT int gettimeofday(struct timeval* tv, void* tz)
{
  if (!active())
    return get_real_gettimeofday()(tv, tz);
  struct timespec ts;
  hooks->now(0, &ts);
  tv->tv_sec  = ts.tv_sec;
  tv->tv_usec = ts.tv_nsec / 1000;
  return 0;
}

EXPORT time_t time(time_t* t)
{
  if (!active())
    return get_real_time()(t);
  struct timespec ts;
  hooks->now(0, &ts);
  if (t != NULL)
    *t = ts.tv_sec;
  return ts.tv_sec;
}

EXPORT clock_t clock(void)
{
  if (!active())
    return get_real_clock()();
  struct timespec ts;
  hooks->now(2, &ts);
  return (clock_t)(ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1000000000L / CLOCKS_PER_SEC));
}

EXPORT unsigned sleep(unsigned s)
{
  if (!active())
    return get_real_sleep()(s);
  hooks->sleep((double)s);
  return 0;
}

EXPORT int usleep(useconds_t us)
{
  if (!active())
    return get_real_usleep()(us);
  hooks->sleep((double)us * 1e-6);
  return 0;
}

EXPORT int nanosleep(const struct timespec* req, struct timespec* rem)
{
  if (!active())
    return get_real_nanosleep()(req, rem);
  if (req == NULL || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L) {
    errno = EINVAL;
    return -1;
  }
  hooks->sleep((double)req->tv_sec + (double)req->tv_nsec * 1e-9);
  if (rem != NULL)
    rem->tv_sec = rem->tv_nsec = 0;
  return 0;
}

/* ---------------------------------------------------------------- exit */

EXPORT void exit(int status)
{
  if (active())
    hooks->exit(status);
  get_real_exit()(status);
  __builtin_unreachable();
}

/* ---------------------------------------------------------------- processes and crash signals */

/* A PE is a simulated process inside the simulator's one OS process: fork() would duplicate the
 * whole simulation (every PE, the network, the clock). Refused with one line. */
REAL(pid_t, fork, (void))
EXPORT pid_t fork(void)
{
  if (active())
    hooks->fatal("fork() is not supported: every PE runs inside the simulator's process, which a fork would "
                 "duplicate (run external commands before or after the simulated run)");
  return get_real_fork()();
}

/* The runtime's handlers for crash signals name the PE and thread that crashed; a program that
 * installs its own (to print a backtrace, say) would hide that. Its handler is recorded, and
 * reported back as the current one, but not installed. */
static int crash_signal(int sig)
{
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}
static struct sigaction program_crash_action[NSIG];
static int program_crash_action_set[NSIG];

EXPORT int shmemsim_interpose_program_handles(int sig)
{
  return sig > 0 && sig < NSIG && program_crash_action_set[sig] && program_crash_action[sig].sa_handler != SIG_DFL &&
         program_crash_action[sig].sa_handler != SIG_IGN;
}

REAL(int, sigaction, (int, const struct sigaction*, struct sigaction*))
EXPORT int sigaction(int sig, const struct sigaction* act, struct sigaction* old)
{
  if (!active() || !crash_signal(sig))
    return get_real_sigaction()(sig, act, old);
  if (old != NULL) {
    if (program_crash_action_set[sig])
      *old = program_crash_action[sig];
    else
      memset(old, 0, sizeof *old); /* SIG_DFL, as the program would see it */
  }
  if (act != NULL) {
    program_crash_action[sig]     = *act;
    program_crash_action_set[sig] = 1;
  }
  return 0;
}

REAL(sighandler_t, signal, (int, sighandler_t))
EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
  if (!active() || !crash_signal(sig))
    return get_real_signal()(sig, handler);
  const sighandler_t prev = program_crash_action_set[sig] ? program_crash_action[sig].sa_handler : SIG_DFL;
  memset(&program_crash_action[sig], 0, sizeof program_crash_action[sig]);
  program_crash_action[sig].sa_handler = handler;
  program_crash_action_set[sig]        = 1;
  return prev;
}

/* ---------------------------------------------------------------- environment, per PE */

/* libc's setenv reallocates the one array it last allocated, whichever PE it belongs to: the
 * PEs' environments are changed by the runtime instead (getenv is libc's: it reads environ). */
REAL(int, setenv, (const char*, const char*, int))
REAL(int, unsetenv, (const char*))
REAL(int, putenv, (char*))
REAL(int, clearenv, (void))

EXPORT int setenv(const char* name, const char* value, int overwrite)
{
  return active() ? hooks->env_set(name, value, overwrite) : get_real_setenv()(name, value, overwrite);
}

EXPORT int unsetenv(const char* name)
{
  return active() ? hooks->env_unset(name) : get_real_unsetenv()(name);
}

EXPORT int putenv(char* entry)
{
  return active() ? hooks->env_put(entry) : get_real_putenv()(entry);
}

EXPORT int clearenv(void)
{
  return active() ? hooks->env_clear() : get_real_clearenv()();
}

/* ---------------------------------------------------------------- random generators, per PE */

static struct random_data* rnd(void)
{
  struct shmemsim_libc_state* s = hooks->libc_state();
  if (!s->random_ready) {
    memset(&s->random, 0, sizeof s->random);
    initstate_r(1, s->random_state, sizeof s->random_state, &s->random); /* glibc's default seed */
    s->random_ready = 1;
  }
  return &s->random;
}

static struct drand48_data* d48(void)
{
  struct shmemsim_libc_state* s = hooks->libc_state();
  if (!s->drand48_ready) {
    memset(&s->drand48, 0, sizeof s->drand48);
    s->drand48_ready = 1;
  }
  return &s->drand48;
}

/* Internal helpers: calls between exported functions of this library would bind through the
 * PLT to libc's global versions (this library is loaded RTLD_LOCAL). */
static long pe_random(void)
{
  int32_t r;
  random_r(rnd(), &r);
  return r;
}

static void pe_srandom(unsigned seed)
{
  srandom_r(seed, rnd());
}

EXPORT long random(void)
{
  if (!active())
    return get_real_random()();
  return pe_random();
}

EXPORT int rand(void)
{
  if (!active())
    return get_real_rand()();
  return (int)pe_random();
}

EXPORT void srandom(unsigned seed)
{
  if (!active()) {
    get_real_srandom()(seed);
    return;
  }
  pe_srandom(seed);
}

EXPORT void srand(unsigned seed)
{
  if (!active()) {
    get_real_srand()(seed);
    return;
  }
  pe_srandom(seed);
}

EXPORT double drand48(void)
{
  if (!active())
    return get_real_drand48()();
  double r;
  drand48_r(d48(), &r);
  return r;
}

EXPORT long lrand48(void)
{
  if (!active())
    return get_real_lrand48()();
  long r;
  lrand48_r(d48(), &r);
  return r;
}

EXPORT long mrand48(void)
{
  if (!active())
    return get_real_mrand48()();
  long r;
  mrand48_r(d48(), &r);
  return r;
}

EXPORT void srand48(long seed)
{
  if (!active()) {
    get_real_srand48()(seed);
    return;
  }
  srand48_r(seed, d48());
}

EXPORT unsigned short* seed48(unsigned short seed[3])
{
  if (!active())
    return get_real_seed48()(seed);
  static unsigned short previous[3]; /* valid until the next call, as libc's */
  struct drand48_data* d = d48();
  memcpy(previous, d->__x, sizeof previous);
  seed48_r(seed, d);
  return previous;
}

/* ---------------------------------------------------------------- threads
 * A PE's threads are simulated actors on its node (the PE runtime), so that they compete for the
 * node's cores in simulated time and a deadlock between them is reported. Attribute objects are
 * plain data and stay libc's. */

REAL(int, pthread_create, (pthread_t*, const pthread_attr_t*, void* (*)(void*), void*))
REAL(int, pthread_join, (pthread_t, void**))
REAL(void, pthread_exit, (void*))
REAL(pthread_t, pthread_self, (void))
REAL(int, pthread_equal, (pthread_t, pthread_t))
REAL(int, pthread_detach, (pthread_t))
REAL(int, pthread_mutex_init, (pthread_mutex_t*, const pthread_mutexattr_t*))
REAL(int, pthread_mutex_destroy, (pthread_mutex_t*))
REAL(int, pthread_mutex_lock, (pthread_mutex_t*))
REAL(int, pthread_mutex_trylock, (pthread_mutex_t*))
REAL(int, pthread_mutex_unlock, (pthread_mutex_t*))
REAL(int, pthread_cond_init, (pthread_cond_t*, const pthread_condattr_t*))
REAL(int, pthread_cond_destroy, (pthread_cond_t*))
REAL(int, pthread_cond_wait, (pthread_cond_t*, pthread_mutex_t*))
REAL(int, pthread_cond_timedwait, (pthread_cond_t*, pthread_mutex_t*, const struct timespec*))
REAL(int, pthread_cond_signal, (pthread_cond_t*))
REAL(int, pthread_cond_broadcast, (pthread_cond_t*))
REAL(int, pthread_barrier_init, (pthread_barrier_t*, const pthread_barrierattr_t*, unsigned))
REAL(int, pthread_barrier_destroy, (pthread_barrier_t*))
REAL(int, pthread_barrier_wait, (pthread_barrier_t*))
REAL(int, pthread_once, (pthread_once_t*, void (*)(void)))
REAL(int, pthread_key_create, (pthread_key_t*, void (*)(void*)))
REAL(int, pthread_key_delete, (pthread_key_t))
REAL(void*, pthread_getspecific, (pthread_key_t))
REAL(int, pthread_setspecific, (pthread_key_t, const void*))
REAL(int, pthread_spin_init, (pthread_spinlock_t*, int))
REAL(int, pthread_spin_destroy, (pthread_spinlock_t*))
REAL(int, pthread_spin_lock, (pthread_spinlock_t*))
REAL(int, pthread_spin_trylock, (pthread_spinlock_t*))
REAL(int, pthread_spin_unlock, (pthread_spinlock_t*))
REAL(int, pthread_rwlock_init, (pthread_rwlock_t*, const pthread_rwlockattr_t*))
REAL(int, pthread_rwlock_destroy, (pthread_rwlock_t*))
REAL(int, pthread_rwlock_rdlock, (pthread_rwlock_t*))
REAL(int, pthread_rwlock_wrlock, (pthread_rwlock_t*))
REAL(int, pthread_rwlock_tryrdlock, (pthread_rwlock_t*))
REAL(int, pthread_rwlock_trywrlock, (pthread_rwlock_t*))
REAL(int, pthread_rwlock_unlock, (pthread_rwlock_t*))
REAL(int, sched_yield, (void))

EXPORT int pthread_create(pthread_t* t, const pthread_attr_t* a, void* (*fn)(void*), void* arg)
{
  if (!active())
    return get_real_pthread_create()(t, a, fn, arg);
  unsigned long id = 0;
  int r            = hooks->thread_create(&id, fn, arg);
  int state        = PTHREAD_CREATE_JOINABLE;
  if (r == 0) {
    *t = (pthread_t)id;
    if (a != NULL && pthread_attr_getdetachstate(a, &state) == 0 && state == PTHREAD_CREATE_DETACHED)
      hooks->thread_detach(id); /* created detached: nobody joins it, its resources go at its end */
  }
  return r;
}
EXPORT int pthread_join(pthread_t t, void** ret)
{
  return active() ? hooks->thread_join((unsigned long)t, ret) : get_real_pthread_join()(t, ret);
}
EXPORT void pthread_exit(void* ret)
{
  if (active())
    hooks->thread_exit(ret);
  get_real_pthread_exit()(ret);
  __builtin_unreachable();
}
EXPORT pthread_t pthread_self(void)
{
  return active() ? (pthread_t)hooks->thread_self() : get_real_pthread_self()();
}
EXPORT int pthread_equal(pthread_t a, pthread_t b)
{
  return active() ? a == b : get_real_pthread_equal()(a, b);
}
EXPORT int pthread_detach(pthread_t t)
{
  return active() ? hooks->thread_detach((unsigned long)t) : get_real_pthread_detach()(t);
}

EXPORT int pthread_mutex_init(pthread_mutex_t* m, const pthread_mutexattr_t* a)
{
  if (!active())
    return get_real_pthread_mutex_init()(m, a);
  return hooks->mutex_forget(m);
}
EXPORT int pthread_mutex_destroy(pthread_mutex_t* m)
{
  return active() ? hooks->mutex_forget(m) : get_real_pthread_mutex_destroy()(m);
}
EXPORT int pthread_mutex_lock(pthread_mutex_t* m)
{
  return active() ? hooks->mutex_lock(m, 0) : get_real_pthread_mutex_lock()(m);
}
EXPORT int pthread_mutex_trylock(pthread_mutex_t* m)
{
  return active() ? hooks->mutex_lock(m, 1) : get_real_pthread_mutex_trylock()(m);
}
EXPORT int pthread_mutex_unlock(pthread_mutex_t* m)
{
  return active() ? hooks->mutex_unlock(m) : get_real_pthread_mutex_unlock()(m);
}

EXPORT int pthread_cond_init(pthread_cond_t* c, const pthread_condattr_t* a)
{
  return active() ? 0 : get_real_pthread_cond_init()(c, a);
}
EXPORT int pthread_cond_destroy(pthread_cond_t* c)
{
  return active() ? 0 : get_real_pthread_cond_destroy()(c);
}
EXPORT int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m)
{
  return active() ? hooks->cond_wait(c, m, NULL) : get_real_pthread_cond_wait()(c, m);
}
EXPORT int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m, const struct timespec* t)
{
  return active() ? hooks->cond_wait(c, m, t) : get_real_pthread_cond_timedwait()(c, m, t);
}
EXPORT int pthread_cond_signal(pthread_cond_t* c)
{
  return active() ? hooks->cond_signal(c, 0) : get_real_pthread_cond_signal()(c);
}
EXPORT int pthread_cond_broadcast(pthread_cond_t* c)
{
  return active() ? hooks->cond_signal(c, 1) : get_real_pthread_cond_broadcast()(c);
}

EXPORT int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* a, unsigned n)
{
  return active() ? hooks->barrier_init(b, n) : get_real_pthread_barrier_init()(b, a, n);
}
EXPORT int pthread_barrier_destroy(pthread_barrier_t* b)
{
  return active() ? 0 : get_real_pthread_barrier_destroy()(b);
}
EXPORT int pthread_barrier_wait(pthread_barrier_t* b)
{
  return active() ? hooks->barrier_wait(b) : get_real_pthread_barrier_wait()(b);
}

EXPORT int pthread_once(pthread_once_t* once, void (*fn)(void))
{
  if (!active())
    return get_real_pthread_once()(once, fn);
  /* Simulated threads of a PE share one OS thread: a flag is enough. */
  if (*(volatile int*)once == PTHREAD_ONCE_INIT) {
    *(volatile int*)once = PTHREAD_ONCE_INIT + 1;
    fn();
  }
  return 0;
}

EXPORT int pthread_key_create(pthread_key_t* k, void (*d)(void*))
{
  if (!active())
    return get_real_pthread_key_create()(k, d);
  unsigned key = 0;
  int r        = hooks->key_create(&key, d);
  *k           = (pthread_key_t)key;
  return r;
}
EXPORT int pthread_key_delete(pthread_key_t k)
{
  return active() ? hooks->key_delete((unsigned)k) : get_real_pthread_key_delete()(k);
}
EXPORT void* pthread_getspecific(pthread_key_t k)
{
  return active() ? hooks->get_specific((unsigned)k) : get_real_pthread_getspecific()(k);
}
EXPORT int pthread_setspecific(pthread_key_t k, const void* v)
{
  return active() ? hooks->set_specific((unsigned)k, v) : get_real_pthread_setspecific()(k, v);
}

/* Spin locks and read-write locks are simulated as mutexes (exclusive, also for readers). */
EXPORT int pthread_spin_init(pthread_spinlock_t* s, int p)
{
  return active() ? hooks->mutex_forget((void*)s) : get_real_pthread_spin_init()(s, p);
}
EXPORT int pthread_spin_destroy(pthread_spinlock_t* s)
{
  return active() ? hooks->mutex_forget((void*)s) : get_real_pthread_spin_destroy()(s);
}
EXPORT int pthread_spin_lock(pthread_spinlock_t* s)
{
  return active() ? hooks->mutex_lock((void*)s, 0) : get_real_pthread_spin_lock()(s);
}
EXPORT int pthread_spin_trylock(pthread_spinlock_t* s)
{
  return active() ? hooks->mutex_lock((void*)s, 1) : get_real_pthread_spin_trylock()(s);
}
EXPORT int pthread_spin_unlock(pthread_spinlock_t* s)
{
  return active() ? hooks->mutex_unlock((void*)s) : get_real_pthread_spin_unlock()(s);
}
EXPORT int pthread_rwlock_init(pthread_rwlock_t* l, const pthread_rwlockattr_t* a)
{
  return active() ? hooks->mutex_forget(l) : get_real_pthread_rwlock_init()(l, a);
}
EXPORT int pthread_rwlock_destroy(pthread_rwlock_t* l)
{
  return active() ? hooks->mutex_forget(l) : get_real_pthread_rwlock_destroy()(l);
}
EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* l)
{
  return active() ? hooks->mutex_lock(l, 0) : get_real_pthread_rwlock_rdlock()(l);
}
EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* l)
{
  return active() ? hooks->mutex_lock(l, 0) : get_real_pthread_rwlock_wrlock()(l);
}
EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t* l)
{
  return active() ? hooks->mutex_lock(l, 1) : get_real_pthread_rwlock_tryrdlock()(l);
}
EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t* l)
{
  return active() ? hooks->mutex_lock(l, 1) : get_real_pthread_rwlock_trywrlock()(l);
}
EXPORT int pthread_rwlock_unlock(pthread_rwlock_t* l)
{
  return active() ? hooks->mutex_unlock(l) : get_real_pthread_rwlock_unlock()(l);
}

EXPORT int sched_yield(void)
{
  return active() ? hooks->yield() : get_real_sched_yield()();
}

/* ---------------------------------------------------------------- C++ threads (libstdc++)
 * std::mutex and std::lock_guard are inline calls to pthread_mutex_*, caught above. The members
 * libstdc++ defines out of line would reach the real threads: they are caught here, by their
 * (stable, versioned) ABI names. */

REAL(int, pthread_cond_clockwait, (pthread_cond_t*, pthread_mutex_t*, clockid_t, const struct timespec*))

EXPORT int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock, const struct timespec* t)
{
  if (!active())
    return get_real_pthread_cond_clockwait()(c, m, clock, t);
  struct timespec deadline = *t;
  if (clock != CLOCK_REALTIME)
    deadline.tv_sec += 1409529600; /* the simulated wall clock's epoch (kEpoch, RuntimeParams.hpp) */
  return hooks->cond_wait(c, m, &deadline);
}

/* std::thread::_State (libstdc++ ABI since GCC 5): vtable [0] complete dtor, [1] deleting dtor,
 * [2] _M_run. */
static void* std_thread_body(void* state)
{
  void** vtable = *(void***)state;
  ((void (*)(void*))vtable[2])(state);
  ((void (*)(void*))vtable[1])(state);
  return NULL;
}

#define STD_THREAD_START _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE
#define STD_THREAD_JOIN _ZNSt6thread4joinEv
#define STD_THREAD_DETACH _ZNSt6thread6detachEv
#define STD_CV_WAIT _ZNSt18condition_variable4waitERSt11unique_lockISt5mutexE
#define STD_CV_NOTIFY_ONE _ZNSt18condition_variable10notify_oneEv
#define STD_CV_NOTIFY_ALL _ZNSt18condition_variable10notify_allEv
#define STD_SLEEP_FOR                                                                                                  \
  _ZNSt11this_thread11__sleep_forENSt6chrono8durationIlSt5ratioILl1ELl1EEEENS1_IlS2_ILl1ELl1000000000EEEE
#define STR_(x) #x
#define STR(x) STR_(x)

static void* next_symbol(const char* name)
{
  return dlsym(RTLD_NEXT, name);
}

/* `self` is the std::thread (its id, a pthread_t, first); `state` the unique_ptr<_State>. */
EXPORT void STD_THREAD_START(void* self, void** state, void (*unused)(void))
{
  if (!active()) {
    ((void (*)(void*, void**, void (*)(void)))next_symbol(STR(STD_THREAD_START)))(self, state, unused);
    return;
  }
  void* st         = *state;
  *state           = NULL;
  unsigned long id = 0;
  if (hooks->thread_create(&id, std_thread_body, st) == 0)
    *(unsigned long*)self = id;
}

EXPORT void STD_THREAD_JOIN(void* self)
{
  if (!active()) {
    ((void (*)(void*))next_symbol(STR(STD_THREAD_JOIN)))(self);
    return;
  }
  hooks->thread_join(*(unsigned long*)self, NULL);
  *(unsigned long*)self = 0;
}

EXPORT void STD_THREAD_DETACH(void* self)
{
  if (!active()) {
    ((void (*)(void*))next_symbol(STR(STD_THREAD_DETACH)))(self);
    return;
  }
  hooks->thread_detach(*(unsigned long*)self);
  *(unsigned long*)self = 0;
}

/* `lock` is the unique_lock<mutex>: its mutex pointer first (the pthread mutex at its start). */
EXPORT void STD_CV_WAIT(void* cv, void** lock)
{
  if (!active()) {
    ((void (*)(void*, void**))next_symbol(STR(STD_CV_WAIT)))(cv, lock);
    return;
  }
  hooks->cond_wait(cv, *lock, NULL);
}

EXPORT void STD_CV_NOTIFY_ONE(void* cv)
{
  if (!active()) {
    ((void (*)(void*))next_symbol(STR(STD_CV_NOTIFY_ONE)))(cv);
    return;
  }
  hooks->cond_signal(cv, 0);
}

EXPORT void STD_CV_NOTIFY_ALL(void* cv)
{
  if (!active()) {
    ((void (*)(void*))next_symbol(STR(STD_CV_NOTIFY_ALL)))(cv);
    return;
  }
  hooks->cond_signal(cv, 1);
}

EXPORT void STD_SLEEP_FOR(long seconds, long nanoseconds)
{
  if (!active()) {
    ((void (*)(long, long))next_symbol(STR(STD_SLEEP_FOR)))(seconds, nanoseconds);
    return;
  }
  hooks->sleep((double)seconds + (double)nanoseconds * 1e-9);
}

/* std::chrono clocks are read out of line in libstdc++: simulated too (nanoseconds). */
#define STD_STEADY_NOW _ZNSt6chrono3_V212steady_clock3nowEv
#define STD_SYSTEM_NOW _ZNSt6chrono3_V212system_clock3nowEv

static long clock_ns(int which)
{
  struct timespec ts;
  hooks->now(which, &ts);
  return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

EXPORT long STD_STEADY_NOW(void)
{
  if (!active())
    return ((long (*)(void))next_symbol(STR(STD_STEADY_NOW)))();
  return clock_ns(1);
}

EXPORT long STD_SYSTEM_NOW(void)
{
  if (!active())
    return ((long (*)(void))next_symbol(STR(STD_SYSTEM_NOW)))();
  return clock_ns(0);
}
