/* An integer sort in the manner of ISx (bucket exchange, then a local counting sort), written for
 * shmemsim twice: plainly (one thread per PE) and with AsyncSHMEM tasks (seed 001: parallel_for
 * over chunks of keys for the histograms and the bucket scatter, one task per destination PE for
 * the key exchange, parallel_for again for the local counting sort). Both sort the same keys;
 * each PE checks that both versions received the same multiset of keys (the key counts of its
 * range) and the same number, and that every key is in its range; PE 0 checks the total.
 *   async_isort [KEYS_PER_PE] [CHUNKS]      (defaults 4096 keys, 16 chunks)
 * Prints the simulated time of each version ("plain" and "tasks") on PE 0. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

#include <time.h>

/* Simulated seconds (the simulator's clocks are simulated time). */
static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MAXPE 1024
#define MAXCHUNK 256
#define WIDTH 4096 /* keys per PE's range: key k goes to PE k / WIDTH */

static int me, npes, nkeys, nchunks;
static int* keys;      /* local: this PE's keys */
static int* send_buf;  /* local: keys grouped by destination PE */
static int* recv_keys; /* symmetric: received keys */
static int recv_fill;  /* symmetric: next free slot of recv_keys */
static long total_received; /* symmetric, on PE 0 */
static int send_count[MAXPE], send_offset[MAXPE];
static int chunk_hist[MAXCHUNK][MAXPE];
static int chunk_counts[MAXCHUNK][WIDTH];
static int counts_plain[WIDTH], counts_tasks[WIDTH];
static int received_plain, received_tasks;

static unsigned next_key(unsigned* s)
{
  *s = *s * 1103515245u + 12345u;
  return (*s >> 4) % (unsigned)(WIDTH * npes);
}

static void chunk_range(int c, int n, int* lo, int* hi)
{
  *lo = (int)((long)n * c / nchunks);
  *hi = (int)((long)n * (c + 1) / nchunks);
}

/* ------------------------------------------------------------------ plain */
static void exchange(int target)
{
  const int n = send_count[target];
  if (n == 0)
    return;
  const int off = shmem_int_atomic_fetch_add(&recv_fill, n, target);
  shmem_int_put_nbi(&recv_keys[off], &send_buf[send_offset[target]], (size_t)n, target);
}

static void sort_plain(int* counts)
{
  memset(send_count, 0, sizeof send_count);
  for (int i = 0; i < nkeys; ++i)
    ++send_count[keys[i] / WIDTH];
  int fill[MAXPE];
  for (int p = 0, o = 0; p < npes; ++p) {
    send_offset[p] = fill[p] = o;
    o += send_count[p];
  }
  for (int i = 0; i < nkeys; ++i)
    send_buf[fill[keys[i] / WIDTH]++] = keys[i];
  for (int t = 0; t < npes; ++t)
    exchange((me + t) % npes);
  shmem_quiet();
  shmem_barrier_all();
  memset(counts, 0, WIDTH * sizeof(int));
  for (int i = 0; i < recv_fill; ++i)
    ++counts[recv_keys[i] - me * WIDTH];
}

/* ------------------------------------------------------------------ tasks */
static void histogram(int c, void* data)
{
  (void)data;
  int lo, hi;
  chunk_range(c, nkeys, &lo, &hi);
  memset(chunk_hist[c], 0, (size_t)npes * sizeof(int));
  for (int i = lo; i < hi; ++i)
    ++chunk_hist[c][keys[i] / WIDTH];
}

static void scatter(int c, void* data)
{
  (void)data;
  int lo, hi, fill[MAXPE];
  chunk_range(c, nkeys, &lo, &hi);
  for (int p = 0; p < npes; ++p) { /* this chunk's place in every bucket: the chunks before it */
    fill[p] = send_offset[p];
    for (int b = 0; b < c; ++b)
      fill[p] += chunk_hist[b][p];
  }
  for (int i = lo; i < hi; ++i)
    send_buf[fill[keys[i] / WIDTH]++] = keys[i];
}

static void exchange_task(int t, void* data)
{
  (void)data;
  exchange((me + t) % npes);
}

static void count_chunk(int c, void* data)
{
  (void)data;
  int lo, hi;
  chunk_range(c, recv_fill, &lo, &hi);
  memset(chunk_counts[c], 0, sizeof chunk_counts[c]);
  for (int i = lo; i < hi; ++i)
    ++chunk_counts[c][recv_keys[i] - me * WIDTH];
}

static void sort_tasks(void* data)
{
  (void)data;
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, nchunks, histogram, NULL);
  shmemx_task_scope_end();
  for (int p = 0, o = 0; p < npes; ++p) {
    send_count[p] = 0;
    for (int c = 0; c < nchunks; ++c)
      send_count[p] += chunk_hist[c][p];
    send_offset[p] = o;
    o += send_count[p];
  }
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, nchunks, scatter, NULL);
  shmemx_task_scope_end();
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, npes, exchange_task, NULL);
  shmemx_task_scope_end();
  shmem_quiet(); /* every task's puts (contexts runtime: every worker's context) */
  shmem_barrier_all();
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, nchunks, count_chunk, NULL);
  shmemx_task_scope_end();
  memset(counts_tasks, 0, sizeof counts_tasks);
  for (int c = 0; c < nchunks; ++c)
    for (int k = 0; k < WIDTH; ++k)
      counts_tasks[k] += chunk_counts[c][k];
}

int main(int argc, char** argv)
{
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me      = shmem_my_pe();
  npes    = shmem_n_pes();
  nkeys   = argc > 1 ? atoi(argv[1]) : 4096;
  nchunks = argc > 2 ? atoi(argv[2]) : 16;
  if (npes > MAXPE || nkeys < 1 || nchunks < 1 || nchunks > MAXCHUNK) {
    fprintf(stderr, "async_isort: KEYS_PER_PE >= 1, 1 <= CHUNKS <= %d, at most %d PEs\n", MAXCHUNK, MAXPE);
    return 2;
  }
  keys      = malloc((size_t)nkeys * sizeof(int));
  send_buf  = malloc((size_t)nkeys * sizeof(int));
  recv_keys = shmem_malloc((size_t)nkeys * (size_t)npes * sizeof(int));
  unsigned s = 12345u + 7919u * (unsigned)me;
  for (int i = 0; i < nkeys; ++i)
    keys[i] = (int)next_key(&s);

  shmem_barrier_all();
  double t0 = now_s();
  sort_plain(counts_plain);
  received_plain = recv_fill;
  shmem_barrier_all();
  const double t_plain = now_s() - t0;

  recv_fill = 0;
  shmem_barrier_all();
  t0 = now_s();
  shmemx_worker_init(sort_tasks, NULL);
  received_tasks = recv_fill;
  shmem_barrier_all();
  const double t_tasks = now_s() - t0;

  CHECK(received_plain == received_tasks, "received %d keys plainly, %d with tasks", received_plain, received_tasks);
  CHECK(memcmp(counts_plain, counts_tasks, sizeof counts_plain) == 0, "the key counts differ");
  for (int i = 0; i < recv_fill; ++i)
    CHECK(recv_keys[i] / WIDTH == me, "key %d out of PE %d's range", recv_keys[i], me);
  shmem_long_atomic_add(&total_received, received_tasks, 0);
  shmem_barrier_all();
  if (me == 0) {
    CHECK(total_received == (long)nkeys * npes, "%ld keys received of %ld", total_received, (long)nkeys * npes);
    shmemx_async_stats_t st;
    shmemx_async_stats(&st);
    printf("async_isort: %d keys per PE, plain %.6f s, tasks %.6f s (%s, %d workers)\n", nkeys, t_plain, t_tasks,
           st.runtime == SHMEMX_ASYNC_OFFLOAD ? "offload" : "contexts", st.workers);
    printf("async_stats: tasks %lu steals %lu offloaded %lu comm_busy_s %.6f comm_queue_s %.6f span_s %.6f\n",
           st.tasks, st.steals, st.offloaded, st.comm_busy_s, st.comm_queue_s, st.span_s);
  }
  const int r = progtest_finish("async_isort");
  shmem_free(recv_keys);
  free(keys);
  free(send_buf);
  shmem_finalize();
  return r;
}
