/* Interposition library: listed first in every program built by shmemsim-cc, so that the
 * program's calls to clocks, sleeps, exit and the libc random generators reach the simulator
 * (through the hooks the PE runtime installs) while the simulator itself keeps the real ones.
 * It depends on libc only and exports nothing else. */
#define _GNU_SOURCE
#include "hooks.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

static const struct shmemsim_hooks* hooks;
EXPORT unsigned long shmemsim_blocks;

EXPORT void shmemsim_interpose_install(const struct shmemsim_hooks* h) { hooks = h; }

/* Counted compute mode: -fsanitize-coverage=trace-pc calls this in every basic block. */
EXPORT void __sanitizer_cov_trace_pc(void) { ++shmemsim_blocks; }

static int active(void) { return hooks != NULL && hooks->active(); }

#define REAL(ret, name, params)                                         \
  static ret(*real_##name) params;                                      \
  static ret(*get_real_##name(void)) params                             \
  {                                                                     \
    if (real_##name == NULL)                                            \
      *(void**)(&real_##name) = dlsym(RTLD_NEXT, #name);                \
    return real_##name;                                                 \
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

static void pe_srandom(unsigned seed) { srandom_r(seed, rnd()); }

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
