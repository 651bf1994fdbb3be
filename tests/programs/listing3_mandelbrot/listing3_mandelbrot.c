/* The contexts paper's Listing 3 (Mandelbrot work distribution): every PE owns a slice of the
 * image and a job counter. Workers visit the PEs round-robin, take JOB_SIZE points of the
 * owner's slice with a fetch-and-add on the owner's counter, compute them, and put the results
 * back into the owner's slice; a PE whose counter has passed its slice is done.
 *   listing3_mandelbrot       blocking shmem_long_fadd and shmem_putmem (as in the listing)
 *   listing3_mandelbrot nbi   the paper's non-blocking variant: fetch-add on one context,
 *                             putmem_nbi on another, two buffers, ctx quiet before reuse
 * Checks: every point of every slice equals a sequential computation, every job was taken
 * exactly once, and the image checksum (printed by PE 0) equals the sequential one. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

#define W 96
#define H 64
#define NPTS (W * H)
#define JOB_SIZE 16
#define MAX_ITER 256
#define MAXPE 64

static long job_counter;                  /* next job in my slice */
static short mandel_data[NPTS];           /* my slice (only the first `owned` used) */
static unsigned long long total_checksum; /* PE 0: sum of all slices' checksums */
static long jobs_done_total;              /* PE 0: sum of jobs computed */

static int npes;
static int slice; /* points per slice */

static int owned_by(int pe)
{
  const int lo = pe * slice;
  const int hi = lo + slice < NPTS ? lo + slice : NPTS;
  return hi > lo ? hi - lo : 0;
}

static short compute_point(long g)
{
  const double cr = -2.2 + 3.2 * (double)(g % W) / W;
  const double ci = -1.2 + 2.4 * (double)(g / W) / H;
  double zr = 0, zi = 0;
  int it = 0;
  while (it < MAX_ITER && zr * zr + zi * zi <= 4.0) {
    const double t = zr * zr - zi * zi + cr;
    zi             = 2 * zr * zi + ci;
    zr             = t;
    ++it;
  }
  return (short)it;
}

static unsigned long long mix(long g, short v) { return (unsigned long long)(v + 1) * (2654435761ULL * (unsigned long long)g + 97); }

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe();
  npes         = shmem_n_pes();
  const int nbi = argc > 1 && strcmp(argv[1], "nbi") == 0;
  slice         = (NPTS + npes - 1) / npes;
  for (int i = 0; i < NPTS; ++i)
    mandel_data[i] = -1;
  job_counter = 0;

  shmem_ctx_t ctx_amo = SHMEM_CTX_DEFAULT, ctx_put = SHMEM_CTX_DEFAULT;
  if (nbi) {
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx_amo) == 0, "ctx create");
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx_put) == 0, "ctx create");
  }
  shmem_barrier_all();

  char done[MAXPE] = {0};
  int ndone = 0, dest_pe = me;
  long my_jobs = 0;
  short buf[2][JOB_SIZE];
  int pending[2] = {0, 0}, b = 0;
  while (ndone < npes) { /* !work_completed() */
    dest_pe = (dest_pe + 1) % npes; /* next_round_robin_pe() */
    if (done[dest_pe])
      continue;
    long my_job;
    if (nbi)
      my_job = shmem_ctx_long_atomic_fetch_add(ctx_amo, &job_counter, JOB_SIZE, dest_pe);
    else
      my_job = shmem_long_fadd(&job_counter, JOB_SIZE, dest_pe);
    /* Check if work at dest_pe is done */
    const int owned = owned_by(dest_pe);
    if (my_job >= owned) {
      done[dest_pe] = 1; /* mark_done(dest_pe) */
      ++ndone;
      continue;
    }
    const int n = my_job + JOB_SIZE <= owned ? JOB_SIZE : (int)(owned - my_job);
    if (pending[b]) { /* the buffer's previous put must be complete before reuse */
      shmem_ctx_quiet(ctx_put);
      pending[0] = pending[1] = 0;
    }
    for (int i = 0; i < n; ++i)
      buf[b][i] = compute_point((long)dest_pe * slice + my_job + i);
    if (nbi) {
      shmem_ctx_putmem_nbi(ctx_put, &mandel_data[my_job], buf[b], n * sizeof(short), dest_pe);
      pending[b] = 1;
      b ^= 1;
    } else {
      shmem_putmem(&mandel_data[my_job], buf[b], n * sizeof(short), dest_pe);
    }
    ++my_jobs;
  }
  if (nbi) {
    shmem_ctx_quiet(ctx_put);
    shmem_ctx_destroy(ctx_put);
    shmem_ctx_destroy(ctx_amo);
  }
  shmem_long_atomic_add(&jobs_done_total, my_jobs, 0);
  shmem_barrier_all();

  /* My slice against the sequential computation. */
  const int owned = owned_by(me);
  int bad = 0;
  unsigned long long sum = 0;
  for (int i = 0; i < owned; ++i) {
    const long g = (long)me * slice + i;
    const short expect = compute_point(g);
    bad += mandel_data[i] != expect;
    sum += mix(g, mandel_data[i]);
  }
  CHECK(bad == 0, "%d of %d points of my slice wrong", bad, owned);
  CHECK(job_counter >= owned, "job counter %ld below my slice size %d", job_counter, owned);
  shmem_ulonglong_atomic_add(&total_checksum, sum, 0);
  shmem_barrier_all();
  if (me == 0) {
    unsigned long long seq = 0;
    long jobs = 0;
    for (long g = 0; g < NPTS; ++g)
      seq += mix(g, compute_point(g));
    for (int p = 0; p < npes; ++p)
      jobs += (owned_by(p) + JOB_SIZE - 1) / JOB_SIZE;
    CHECK(jobs_done_total == jobs, "%ld jobs computed, %ld in the image", jobs_done_total, jobs);
    CHECK(total_checksum == seq, "checksum %llx, sequential %llx", total_checksum, seq);
  }
  const int rc = progtest_finish("listing3_mandelbrot checks");
  if (me == 0)
    printf("listing3_mandelbrot: %s on %d PEs, checksum %llx\n", progtest_total == 0 ? "OK" : "FAIL", npes,
           total_checksum);
  shmem_finalize();
  return rc;
}
