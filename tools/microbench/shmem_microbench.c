/* shmemsim microbench's program (docs/microbench.md): OSU-style figures, timed by the program itself
 * with clock_gettime, which reads simulated time under shmemsim-run (and real time under
 * shmemsim-run --emulate). The same file runs in both.
 *
 * Usage: shmem_microbench PARTS ITERATIONS MIN_SIZE MAX_SIZE WINDOW COLL_MIN COLL_MAX
 *   PARTS: a comma-separated list of
 *     pair     PE 0 -> PE 1 (any other PE waits in the barriers): put, put + quiet and get latency,
 *              put and get bandwidth and put message rate against size, the put ping-pong
 *     atomics  PE 0 -> PE 1: the latency of every 64-bit atomic, each result checked
 *     multi    PEs 0..N/2-1 each stream puts to PE i + N/2 (N even): aggregate bandwidth and rate
 *     coll     every PE: barrier, then broadcast, reduce, collect, fcollect and alltoall per size
 *              (the OpenSHMEM 1.4 active-set forms on all PEs: shmem_broadcast64,
 *              shmem_long_sum_to_all, shmem_collect64, shmem_fcollect64, shmem_alltoall64)
 *   sizes double from MIN_SIZE to MAX_SIZE (pair, multi) and from COLL_MIN to COLL_MAX (coll; a
 *   multiple of 8 bytes: 64-bit elements; reduce sums SIZE/8 longs);
 *   WINDOW: operations in flight per shmem_quiet in the streams (pair, multi).
 * Prints one line per figure on PE 0: "FIGURE SIZE VALUE", VALUE in seconds (latencies), bytes
 * per second (*_bw) or operations per second (*_rate):
 *   put, put_quiet, get   SIZE  mean time of one blocking shmem_putmem / + shmem_quiet / shmem_getmem
 *   put_bw, put_rate      SIZE  PE 0 streams shmem_putmem_nbi, a shmem_quiet after every WINDOW
 *   get_bw                SIZE  the same with shmem_getmem_nbi
 *   pingpong              8     one-way latency of an 8-byte put ping-pong
 *   amo_OP                8     mean time of one 64-bit atomic OP (fetch, set, swap, compare_swap,
 *                               inc, fetch_inc, add, fetch_add, and, fetch_and, or, fetch_or, xor,
 *                               fetch_xor): back to back, the fetched values checked as they come,
 *                               the target's value checked after a quiet
 *   mp_put_bw, mp_put_rate SIZE every sender's stream's bytes (puts) per second, summed over senders
 *   coll_OP, coll_OP_min, coll_OP_max  SIZE (barrier: 0)  mean time of one call, averaged over the
 *                               PEs (and the fastest and slowest PE's mean); each call is timed
 *                               alone, a barrier between calls (not timed); the last call's data
 *                               checked
 * Each timed loop is preceded by an untimed warm-up of ITERATIONS/10 operations (at least one).
 * A wrong result is one line on stderr and status 1 (shmem_global_exit). Built with
 * -DMICROBENCH_WRONG_MODEL, the atomics expect a value one too high: the test that their checks do
 * catch a wrong result (tests/cli/test_microbench.cpp). */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long ping, pong;
static long amo_long;
static uint64_t amo_bits;
static double stat_in, stat_sum, stat_min, stat_max;
/* The active-set collectives' work arrays (OpenSHMEM 1.4 forms, so that the program also builds
 * with implementations without teams): one pSync for the figures' collectives, one for the
 * statistics' reductions, each reused only after a barrier of every PE. */
#define SYNC_SIZE                                                                                                    \
  (SHMEM_BCAST_SYNC_SIZE > SHMEM_REDUCE_SYNC_SIZE                                                                  \
       ? (SHMEM_BCAST_SYNC_SIZE > SHMEM_ALLTOALL_SYNC_SIZE ? SHMEM_BCAST_SYNC_SIZE : SHMEM_ALLTOALL_SYNC_SIZE)       \
       : (SHMEM_REDUCE_SYNC_SIZE > SHMEM_ALLTOALL_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE : SHMEM_ALLTOALL_SYNC_SIZE))
#define SYNC_ALL (SYNC_SIZE > SHMEM_COLLECT_SYNC_SIZE ? SYNC_SIZE : SHMEM_COLLECT_SYNC_SIZE)
static long psync[SYNC_ALL], psync_stat[SHMEM_REDUCE_SYNC_SIZE];
static double pwrk_stat[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long* pwrk_long; /* symmetric: max(longs / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) */

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long warmup_of(long iters) { return iters / 10 > 0 ? iters / 10 : 1; }

static void fail(const char* what, long long expected, long long got)
{
  fprintf(stderr, "shmem_microbench: PE %d: %s: expected %lld, got %lld\n", shmem_my_pe(), what, expected, got);
  shmem_global_exit(1);
}

/* ------------------------------------------------------------------ pair: PE 0 -> PE 1 */

/* Half the round trip of an 8-byte put ping-pong between PE 0 and PE 1. */
static void pingpong(long iters)
{
  const int me = shmem_my_pe();
  const long skip = warmup_of(iters);
  double t0 = 0;
  for (long i = 1; i <= skip + iters; ++i) {
    if (i == skip + 1)
      t0 = now();
    if (me == 0) {
      shmem_long_p(&ping, i, 1);
      shmem_long_wait_until(&pong, SHMEM_CMP_EQ, i);
    } else if (me == 1) {
      shmem_long_wait_until(&ping, SHMEM_CMP_EQ, i);
      shmem_long_p(&pong, i, 0);
    }
  }
  if (me == 0)
    printf("pingpong 8 %.12g\n", (now() - t0) / (double)iters / 2);
}

enum op { OP_PUT, OP_PUT_QUIET, OP_GET };

static void one(enum op op, char* remote, char* local, size_t size, int pe)
{
  switch (op) {
    case OP_PUT:
      shmem_putmem(remote, local, size, pe);
      break;
    case OP_PUT_QUIET:
      shmem_putmem(remote, local, size, pe);
      shmem_quiet();
      break;
    case OP_GET:
      shmem_getmem(local, remote, size, pe);
      break;
  }
}

/* PE 0: the mean time of `op` over `iters` operations after the warm-up. */
static double latency(enum op op, char* remote, char* local, size_t size, long iters)
{
  for (long i = 0; i < warmup_of(iters); ++i)
    one(op, remote, local, size, 1);
  shmem_quiet();
  const double t0 = now();
  for (long i = 0; i < iters; ++i)
    one(op, remote, local, size, 1);
  const double t = (now() - t0) / (double)iters;
  shmem_quiet();
  return t;
}

/* The number of windows streamed per size: at most ITERATIONS, and at most 4 MiB per size beyond
 * one window (so that large sizes do not dominate the run); at least one. */
static long stream_windows(size_t size, long iters, long window)
{
  const size_t budget = (size_t)4 << 20;
  long w = (long)(budget / ((size_t)window * size));
  if (w > iters)
    w = iters;
  return w > 0 ? w : 1;
}

/* One window: `window` non-blocking puts (gets) of `size` bytes to (from) `pe`, then a quiet. */
static void window_of(int get, char* remote, char* local, size_t size, long window, int pe)
{
  for (long i = 0; i < window; ++i) {
    if (get)
      shmem_getmem_nbi(local, remote, size, pe);
    else
      shmem_putmem_nbi(remote, local, size, pe);
  }
  shmem_quiet();
}

/* Streams `windows` windows after one untimed window; returns the time of the timed ones. With
 * `together`, a barrier of every PE precedes the timed windows (the multi-pair senders start
 * together; every other PE meets that barrier). */
static double stream(int get, char* remote, char* local, size_t size, long windows, long window, int pe,
                     int together)
{
  window_of(get, remote, local, size, window, pe);
  if (together)
    shmem_barrier_all();
  const double t0 = now();
  for (long w = 0; w < windows; ++w)
    window_of(get, remote, local, size, window, pe);
  return now() - t0;
}

/* The figures per size (after the ping-pong and the atomics, as the program has always run them). */
static void pair_figures(char* remote, char* local, size_t min, size_t max, long iters, long window)
{
  shmem_barrier_all();
  if (shmem_my_pe() == 0)
    for (size_t size = min; size <= max; size *= 2) {
      printf("put %zu %.12g\n", size, latency(OP_PUT, remote, local, size, iters));
      printf("put_quiet %zu %.12g\n", size, latency(OP_PUT_QUIET, remote, local, size, iters));
      printf("get %zu %.12g\n", size, latency(OP_GET, remote, local, size, iters));
      const long w = stream_windows(size, iters, window);
      const double n = (double)w * (double)window;
      /* the get stream first: the next size's puts follow a put stream, as they always have */
      double t = stream(1, remote, local, size, w, window, 1, 0);
      printf("get_bw %zu %.12g\n", size, (double)size * n / t);
      t = stream(0, remote, local, size, w, window, 1, 0);
      printf("put_bw %zu %.12g\n", size, (double)size * n / t);
      printf("put_rate %zu %.12g\n", size, n / t);
      if (size > max / 2)
        break;
    }
  shmem_barrier_all();
}

/* ------------------------------------------------------------------ atomics: PE 0 -> PE 1 */

enum amo {
  AMO_FETCH, AMO_SET, AMO_SWAP, AMO_CSWAP, AMO_INC, AMO_FINC, AMO_ADD, AMO_FADD,
  AMO_AND, AMO_FAND, AMO_OR, AMO_FOR, AMO_XOR, AMO_FXOR, AMO_COUNT
};

static const char* const amo_names[AMO_COUNT] = {"fetch", "set",  "swap",      "compare_swap", "inc",
                                                 "fetch_inc", "add", "fetch_add", "and",        "fetch_and",
                                                 "or",    "fetch_or", "xor", "fetch_xor"};

static int amo_bitwise(enum amo a) { return a >= AMO_AND; }

/* The operand of the i-th bitwise operation: one bit for and (cleared) and or (set), a mixed word
 * for xor. */
static uint64_t amo_operand(enum amo a, long i)
{
  const uint64_t bit = (uint64_t)1 << (i % 64);
  if (a == AMO_AND || a == AMO_FAND)
    return ~bit;
  if (a == AMO_OR || a == AMO_FOR)
    return bit;
  return (uint64_t)(i + 1) * UINT64_C(0x9E3779B97F4A7C15);
}

/* The i-th operation `a` on PE 1's target. `model` is the target's value as the operations so far
 * left it: a fetched value must equal it (fetching atomics are blocking, so they take effect in
 * order); the model then follows the operation. */
static void amo_step(enum amo a, long i, uint64_t* model)
{
  const uint64_t m = *model;
  const long v = (long)m;
  uint64_t got = m;
  const uint64_t x = amo_operand(a, i);
  switch (a) {
    case AMO_FETCH: got = (uint64_t)shmem_long_atomic_fetch(&amo_long, 1); break;
    case AMO_SET: shmem_long_atomic_set(&amo_long, v + 1, 1); *model = (uint64_t)(v + 1); break;
    case AMO_SWAP: got = (uint64_t)shmem_long_atomic_swap(&amo_long, v + 1, 1); *model = (uint64_t)(v + 1); break;
    case AMO_CSWAP: got = (uint64_t)shmem_long_atomic_compare_swap(&amo_long, v, v + 1, 1); *model = (uint64_t)(v + 1); break;
    case AMO_INC: shmem_long_atomic_inc(&amo_long, 1); *model = (uint64_t)(v + 1); break;
    case AMO_FINC: got = (uint64_t)shmem_long_atomic_fetch_inc(&amo_long, 1); *model = (uint64_t)(v + 1); break;
    case AMO_ADD: shmem_long_atomic_add(&amo_long, 3, 1); *model = (uint64_t)(v + 3); break;
    case AMO_FADD: got = (uint64_t)shmem_long_atomic_fetch_add(&amo_long, 3, 1); *model = (uint64_t)(v + 3); break;
    case AMO_AND: shmem_uint64_atomic_and(&amo_bits, x, 1); *model = m & x; break;
    case AMO_FAND: got = shmem_uint64_atomic_fetch_and(&amo_bits, x, 1); *model = m & x; break;
    case AMO_OR: shmem_uint64_atomic_or(&amo_bits, x, 1); *model = m | x; break;
    case AMO_FOR: got = shmem_uint64_atomic_fetch_or(&amo_bits, x, 1); *model = m | x; break;
    case AMO_XOR: shmem_uint64_atomic_xor(&amo_bits, x, 1); *model = m ^ x; break;
    case AMO_FXOR: got = shmem_uint64_atomic_fetch_xor(&amo_bits, x, 1); *model = m ^ x; break;
    default: break;
  }
  if (got != m)
    fail(amo_names[a], (long long)m, (long long)got);
}

/* PE 0: the mean time of atomic `a` over `iters` operations after the warm-up; then checks the
 * target. A set's value is one of those set (the sets are not ordered among themselves: no fence);
 * the other operations commute, so the target holds the model's value. */
static double amo_latency(enum amo a, long iters)
{
  const uint64_t start = a == AMO_AND || a == AMO_FAND ? ~(uint64_t)0 : a == AMO_OR || a == AMO_FOR ? 0 : 1000;
#ifdef MICROBENCH_WRONG_MODEL
  uint64_t model = start + 1;
#else
  uint64_t model = start;
#endif
  shmem_putmem(amo_bitwise(a) ? (void*)&amo_bits : (void*)&amo_long, &start, sizeof start, 1);
  shmem_quiet();
  const long skip = warmup_of(iters);
  for (long i = 0; i < skip; ++i)
    amo_step(a, i, &model);
  shmem_quiet();
  const double t0 = now();
  for (long i = skip; i < skip + iters; ++i)
    amo_step(a, i, &model);
  const double t = (now() - t0) / (double)iters;
  shmem_quiet(); /* the non-fetching operations' completion is not part of their figure */
  uint64_t target = 0;
  shmem_getmem(&target, amo_bitwise(a) ? (void*)&amo_bits : (void*)&amo_long, sizeof target, 1);
  if (a == AMO_SET ? target <= start || target > model : target != model)
    fail(amo_names[a], (long long)model, (long long)target);
  return t;
}

static void atomics_figures(long iters)
{
  shmem_barrier_all();
  if (shmem_my_pe() == 0)
    for (int a = 0; a < AMO_COUNT; ++a)
      printf("amo_%s 8 %.12g\n", amo_names[a], amo_latency((enum amo)a, iters));
  shmem_barrier_all();
}

/* ------------------------------------------------------------------ multi: N/2 pairs */

enum stat { STAT_SUM, STAT_MIN, STAT_MAX };

/* The sum (minimum, maximum) over every PE of `v`; every PE calls it. */
static double over_pes(enum stat k, double v)
{
  shmem_barrier_all(); /* every PE is done with the previous reduction's buffers and pSync */
  stat_in = v;
  const int n = shmem_n_pes();
  if (k == STAT_SUM)
    shmem_double_sum_to_all(&stat_sum, &stat_in, 1, 0, 0, n, pwrk_stat, psync_stat);
  else if (k == STAT_MIN)
    shmem_double_min_to_all(&stat_min, &stat_in, 1, 0, 0, n, pwrk_stat, psync_stat);
  else
    shmem_double_max_to_all(&stat_max, &stat_in, 1, 0, 0, n, pwrk_stat, psync_stat);
  return k == STAT_SUM ? stat_sum : k == STAT_MIN ? stat_min : stat_max;
}

static void multi_figures(char* remote, char* local, size_t min, size_t max, long iters, long window)
{
  const int me = shmem_my_pe(), n = shmem_n_pes(), pairs = n / 2;
  for (size_t size = min; size <= max; size *= 2) {
    const long w = stream_windows(size, iters, window);
    const double ops = (double)w * (double)window;
    double t = 0;
    if (me < pairs)
      t = stream(0, remote, local, size, w, window, me + pairs, 1);
    else
      shmem_barrier_all(); /* the senders' start */
    const double bw = over_pes(STAT_SUM, me < pairs ? (double)size * ops / t : 0);
    const double rate = over_pes(STAT_SUM, me < pairs ? ops / t : 0);
    if (me == 0) {
      printf("mp_put_bw %zu %.12g\n", size, bw);
      printf("mp_put_rate %zu %.12g\n", size, rate);
    }
    if (size > max / 2)
      break;
  }
  shmem_barrier_all();
}

/* ------------------------------------------------------------------ coll: every PE */

enum coll { COLL_BARRIER, COLL_BROADCAST, COLL_REDUCE, COLL_COLLECT, COLL_FCOLLECT, COLL_ALLTOALL, COLL_COUNT };

static const char* const coll_names[COLL_COUNT] = {"barrier", "broadcast", "reduce", "collect", "fcollect",
                                                   "alltoall"};

/* The byte PE `pe` puts at offset k of its block for PE `to` (alltoall) or of its only block. */
static char pattern(int pe, int to, size_t k) { return (char)(pe * 31 + to * 7 + (int)(k % 251)); }

/* Fills this PE's source for collective `c` of `size` bytes (alltoall: one block per PE; reduce:
 * longs of value me + 1). */
static void coll_fill(enum coll c, char* src, size_t size)
{
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (c == COLL_REDUCE) {
    for (size_t k = 0; k < size / sizeof(long); ++k)
      ((long*)src)[k] = me + 1;
    return;
  }
  for (int to = 0; to < (c == COLL_ALLTOALL ? n : 1); ++to)
    for (size_t k = 0; k < size; ++k)
      src[(size_t)to * size + k] = pattern(me, c == COLL_ALLTOALL ? to : 0, k);
}

static void coll_check_bytes(enum coll c, const char* dst, size_t size, int from, int block, int to)
{
  for (size_t k = 0; k < size; ++k)
    if (dst[(size_t)block * size + k] != pattern(from, to, k))
      fail(coll_names[c], pattern(from, to, k), dst[(size_t)block * size + k]);
}

/* Checks this PE's destination after the last call of `c`. */
static void coll_check(enum coll c, const char* dst, size_t size)
{
  const int me = shmem_my_pe(), n = shmem_n_pes();
  switch (c) {
    case COLL_BROADCAST:
      if (me != 0) /* the root's dest is not written */
        coll_check_bytes(c, dst, size, 0, 0, 0);
      break;
    case COLL_REDUCE:
      for (size_t k = 0; k < size / sizeof(long); ++k)
        if (((const long*)dst)[k] != (long)n * (n + 1) / 2)
          fail("reduce (sum)", (long long)n * (n + 1) / 2, ((const long*)dst)[k]);
      break;
    case COLL_COLLECT:
    case COLL_FCOLLECT:
      for (int pe = 0; pe < n; ++pe)
        coll_check_bytes(c, dst, size, pe, pe, 0);
      break;
    case COLL_ALLTOALL:
      for (int pe = 0; pe < n; ++pe)
        coll_check_bytes(c, dst, size, pe, pe, me);
      break;
    default:
      break;
  }
}

/* One call of `c` on every PE, `size` bytes per PE (a multiple of 8: 64-bit elements). */
static void coll_call(enum coll c, char* dst, const char* src, size_t size)
{
  const int n = shmem_n_pes();
  const size_t elems = size / 8;
  switch (c) {
    case COLL_BARRIER: shmem_barrier_all(); break;
    case COLL_BROADCAST: shmem_broadcast64(dst, src, elems, 0, 0, 0, n, psync); break;
    case COLL_REDUCE: shmem_long_sum_to_all((long*)dst, (const long*)src, (int)(size / sizeof(long)), 0, 0, n, pwrk_long, psync); break;
    case COLL_COLLECT: shmem_collect64(dst, src, elems, 0, 0, n, psync); break;
    case COLL_FCOLLECT: shmem_fcollect64(dst, src, elems, 0, 0, n, psync); break;
    case COLL_ALLTOALL: shmem_alltoall64(dst, src, elems, 0, 0, n, psync); break;
    default: break;
  }
}

/* Every PE: the mean time of one call of `c` (barrier: of back-to-back barriers; the others: each
 * call timed alone, an untimed barrier between calls); prints the mean over the PEs, the fastest
 * and the slowest PE's mean on PE 0. */
static void coll_latency(enum coll c, char* dst, char* src, size_t size, long iters)
{
  coll_fill(c, src, size);
  shmem_barrier_all();
  double t = 0;
  for (long i = -warmup_of(iters); i < iters; ++i) {
    const double t0 = now();
    coll_call(c, dst, src, size);
    if (i >= 0)
      t += now() - t0;
    if (c != COLL_BARRIER)
      shmem_barrier_all();
  }
  coll_check(c, dst, size);
  t /= (double)iters;
  const double mean = over_pes(STAT_SUM, t) / shmem_n_pes(), fastest = over_pes(STAT_MIN, t),
               slowest = over_pes(STAT_MAX, t);
  if (shmem_my_pe() == 0) {
    printf("coll_%s %zu %.12g\n", coll_names[c], size, mean);
    printf("coll_%s_min %zu %.12g\n", coll_names[c], size, fastest);
    printf("coll_%s_max %zu %.12g\n", coll_names[c], size, slowest);
  }
}

static void coll_figures(char* dst, char* src, size_t min, size_t max, long iters)
{
  coll_latency(COLL_BARRIER, dst, src, 0, iters);
  for (size_t size = min; size <= max; size *= 2) {
    for (int c = COLL_BROADCAST; c < COLL_COUNT; ++c)
      coll_latency((enum coll)c, dst, src, size, iters);
    if (size > max / 2)
      break;
  }
  shmem_barrier_all();
}

/* ------------------------------------------------------------------ main */

static int has_part(const char* parts, const char* part)
{
  const size_t n = strlen(part);
  for (const char* p = parts; (p = strstr(p, part)) != NULL; p += n)
    if ((p == parts || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}

int main(int argc, char** argv)
{
  if (argc != 8) {
    fprintf(stderr, "usage: shmem_microbench PARTS ITERATIONS MIN_SIZE MAX_SIZE WINDOW COLL_MIN COLL_MAX\n");
    return 2;
  }
  const char* parts = argv[1];
  const long iters = atol(argv[2]), window = atol(argv[5]);
  const size_t min = (size_t)atoll(argv[3]), max = (size_t)atoll(argv[4]);
  const size_t cmin = (size_t)atoll(argv[6]), cmax = (size_t)atoll(argv[7]);
  if (iters < 1 || window < 1 || min < 1 || max < min || cmin < 8 || cmin % 8 != 0 || cmax < cmin) {
    fprintf(stderr, "shmem_microbench: bad arguments %s %s %s %s %s %s\n", argv[2], argv[3], argv[4], argv[5],
            argv[6], argv[7]);
    return 2;
  }
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  if (n < 2 || (has_part(parts, "multi") && n % 2 != 0)) {
    if (me == 0)
      fprintf(stderr, "shmem_microbench: %d PEs: needs at least 2 (and an even number for multi)\n", n);
    shmem_global_exit(2);
  }
  /* The target (symmetric: a message, or a collective's n blocks), the local source or
   * destination of the puts and gets, and the collectives' symmetric source. */
  const int coll = has_part(parts, "coll");
  const size_t bytes = max > cmax * (size_t)n ? max : cmax * (size_t)n;
  char* remote = shmem_malloc(bytes);
  char* local  = malloc(max > sizeof(long) ? max : sizeof(long));
  char* source = coll ? shmem_malloc(cmax * (size_t)n) : NULL;
  if (!remote || !local || (coll && !source)) {
    fprintf(stderr, "shmem_microbench: cannot allocate %zu bytes\n", bytes);
    shmem_global_exit(2);
  }
  memset(local, 1, max > sizeof(long) ? max : sizeof(long));
  const size_t wrk = cmax / sizeof(long) / 2 + 1;
  pwrk_long = shmem_malloc(sizeof(long) * (wrk > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? wrk : SHMEM_REDUCE_MIN_WRKDATA_SIZE));
  if (!pwrk_long) {
    fprintf(stderr, "shmem_microbench: cannot allocate the reduction's work array\n");
    shmem_global_exit(2);
  }
  for (int i = 0; i < SYNC_ALL; ++i)
    psync[i] = SHMEM_SYNC_VALUE;
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i)
    psync_stat[i] = SHMEM_SYNC_VALUE;
  if (has_part(parts, "pair")) {
    shmem_barrier_all();
    pingpong(iters);
  }
  if (has_part(parts, "atomics"))
    atomics_figures(iters);
  if (has_part(parts, "pair"))
    pair_figures(remote, local, min, max, iters, window);
  if (has_part(parts, "multi"))
    multi_figures(remote, local, min, max, iters, window);
  if (has_part(parts, "coll"))
    coll_figures(remote, source, cmin, cmax, iters);
  shmem_barrier_all();
  shmem_free(pwrk_long);
  if (source)
    shmem_free(source);
  free(local);
  shmem_free(remote);
  shmem_finalize();
  return 0;
}
