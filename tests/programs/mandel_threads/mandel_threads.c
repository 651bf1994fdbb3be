/* The contexts paper's Mandelbrot benchmark (section 5.1, Listing 3, Figures 2-4) with pthreads
 * inside PEs, decomposed and measured as the paper authors' published benchmark (Sandia OpenSHMEM
 * test/apps/mandelbrot.c) does it. The image (WIDTH x HEIGHT iteration counts), in row-major order,
 * is cut into npes consecutive blocks (PE p: points [N/npes p, N/npes (p+1)), the last PE also the
 * remainder); each PE has a symmetric work counter over its block, and a job is POINTS consecutive
 * points of a block (-j, 128 by default: 512 B of results). Every thread visits the PEs
 * round-robin starting at the next PE after its own: fetch-add on that PE's counter, compute the
 * job, put its results back to the owner; a PE whose counter has passed its block (or that gave
 * the thread its last job) is done for that thread.
 *   -v 1  no contexts: every thread uses the shared default context, blocking puts (published -b)
 *   -v 2  one context per thread, blocking puts (published -c -b)
 *   -v 3  one context per thread; quiet after the fetch-add (the previous put_nbi read the
 *         buffer), then put_nbi (published -c)
 *   -v 4  pipelined as the paper's text describes it: two contexts and two buffers per thread; a
 *         non-blocking fetch-add to the next PE is issued before computing the current job, and the
 *         quiet of a context (completing its fetch-add and the put of its buffer) comes one
 *         iteration later
 *   -v 5  pipelined as the published program does it (-p): two contexts and two buffers used in
 *         turn, each iteration as variant 3 on the current one (its blocking fetch-add and quiet
 *         complete the put issued two iterations earlier)
 * Contexts are created without options, as in the published program. Each thread times its own
 * work, from a start all threads of all PEs share (a thread barrier, a PE barrier, a thread
 * barrier) to its last quiet (variants 1-3 and 5: shmem_quiet, as the published program), and its
 * rate is its points over that time.
 * PE 0 prints a RESULT line with the figure of merit, the sum of the threads' rates over all PEs
 * (rate_pps, points per second, the published "sum of work rates"), the mean thread time
 * (thread_time_us) and the time of the whole parallel section between two PE barriers (time_us),
 * then the image checksum (sum of iter * (index % 1009)) and OK if it equals a sequential
 * computation, WRONG otherwise.
 * Usage: mandel_threads -v VARIANT -t THREADS -w WIDTH -h HEIGHT -i MAXITER [-j POINTS | -c ROWS]
 *        [-r X0,X1,Y0,Y1]
 * (-r: the region of the complex plane, default -2,0.5,-1.25,1.25; -p POINTS: the same as -j;
 * -c ROWS: jobs of ROWS rows of a row-cyclic layout instead, row r on PE r % npes, at its local
 * row r / npes). */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long counter;                 /* symmetric: next job of my part */
static long long partial, checksum;  /* symmetric: reduction source and result */
static long rate_sum, ttime_sum;     /* symmetric, on PE 0: the threads' rates (points/s) and times (ns) */
static int *image;                   /* symmetric (shmem_malloc): my part, in job order */

static int variant = 1, nthreads = 1, width = 64, height = 32, maxiter = 200;
/* The region of the complex plane drawn (-r X0,X1,Y0,Y1): by default [-2, 0.5] x [-1.25, 1.25]. */
static double re0 = -2.0, re1 = 0.5, im0 = -1.25, im1 = 1.25;
static int npes, me;
static pthread_barrier_t start_line; /* the threads of this PE, before their timers start */

/* Layout of the image over the PEs, and jobs.
 * Points (default, -j POINTS, the published benchmark's decomposition): npes consecutive blocks of
 * N / npes points, the last PE's block up to the end; a job is POINTS consecutive points.
 * Rows (-c ROWS): row r belongs to PE r % npes; a job is ROWS of the PE's rows. */
static int job_points = 128; /* 0: rows */
static int chunk = 0;        /* rows per job (rows layout) */
static long npoints(void) { return (long)width * height; }
static long block_start(int pe) { return pe == npes ? npoints() : npoints() / npes * pe; }
static int rows_of(int pe) { return pe < height ? (height - pe + npes - 1) / npes : 0; }
/* Pixels of the image PE `pe` holds. */
static long local_count(int pe) { return job_points ? block_start(pe + 1) - block_start(pe) : (long)rows_of(pe) * width; }
static int job_size(void) { return job_points ? job_points : chunk * width; }
static long chunks_of(int pe) { return (local_count(pe) + job_size() - 1) / job_size(); }
/* Row and column of pixel k of PE pe's part. */
static void pixel_of(int pe, long k, int *row, int *col)
{
  if (job_points) {
    const long i = block_start(pe) + k;
    *row = (int)(i / width), *col = (int)(i % width);
  } else {
    *row = (int)(k / width) * npes + pe, *col = (int)(k % width);
  }
}

/* Escape-time iteration count of one point, in the form the published benchmark computes it (the
 * squares kept from one step to the next), so both programs charge a point the same work. */
static int mandel(int row, int col)
{
  const double cr = re0 + (re1 - re0) * col / width;
  const double ci = im0 + (im1 - im0) * row / height;
  double x = 0, y = 0, x2 = 0, y2 = 0;
  int it = 0;
  while (it < maxiter && x2 + y2 <= 4.0) {
    y = 2 * x * y + ci;
    x = x2 - y2 + cr;
    x2 = x * x;
    y2 = y * y;
    it++;
  }
  return it;
}

static long long weight(int row, int col) { return ((long long)row * width + col) % 1009; }

/* Computes job `job` of PE `pe` into buf; returns the number of ints. */
static int compute_job(int pe, long job, int *buf)
{
  const long first = job * job_size();
  long n = local_count(pe) - first;
  if (n > job_size()) n = job_size();
  for (long k = 0; k < n; k++) {
    int row, col;
    pixel_of(pe, first + k, &row, &col);
    buf[k] = mandel(row, col);
  }
  return (int)n;
}

/* Next PE after `pe` (round-robin, `pe` itself last) that is not done; -1 if none. */
static int next_pe(const char *done, int pe)
{
  for (int i = 1; i <= npes; i++) {
    const int p = (pe + i) % npes;
    if (!done[p]) return p;
  }
  return -1;
}

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Variants 1, 2, 3 and 5: blocking fetch-add, compute, put (5: on two contexts in turn). Returns
 * the points computed. */
static long work_in_turn(shmem_ctx_t ctx[2], int *buf[2], char *done)
{
  long points = 0;
  int s = 0;
  for (int pe = next_pe(done, me); pe >= 0; pe = next_pe(done, pe)) {
    const long job = shmem_ctx_long_atomic_fetch_add(ctx[s], &counter, 1, pe);
    if (job >= chunks_of(pe)) {
      done[pe] = 1;
      continue;
    }
    if (job == chunks_of(pe) - 1) done[pe] = 1; /* its last job: no fetch-add to find it empty */
    if (variant >= 3) shmem_ctx_quiet(ctx[s]);   /* the put_nbi issued from buf[s] read it */
    const int n = compute_job(pe, job, buf[s]);
    int *dest = image + (size_t)job * job_size();
    if (variant >= 3)
      shmem_ctx_int_put_nbi(ctx[s], dest, buf[s], (size_t)n, pe);
    else
      shmem_ctx_int_put(ctx[s], dest, buf[s], (size_t)n, pe);
    points += n;
    if (variant == 5) s = 1 - s;
  }
  /* As the published program: a quiet of the default context ends the timed work (variants 3 and
   * 5 leave their last put_nbi to shmem_ctx_destroy, after the timer). */
  shmem_quiet();
  return points;
}

/* Variant 4: the fetch-add of the next job is in flight while the current one is computed. */
static long work_pipelined(shmem_ctx_t ctx[2], int *buf[2], char *done)
{
  long points = 0, job[2];
  int s = 0, pe = next_pe(done, me);
  shmem_ctx_long_atomic_fetch_add_nbi(ctx[s], &job[s], &counter, 1, pe);
  for (;;) {
    shmem_ctx_quiet(ctx[s]); /* completes job[s] and the put from buf[s] */
    const int valid = job[s] < chunks_of(pe);
    if (!valid || job[s] == chunks_of(pe) - 1) done[pe] = 1;
    const int nxt = next_pe(done, pe);
    if (nxt >= 0) shmem_ctx_long_atomic_fetch_add_nbi(ctx[1 - s], &job[1 - s], &counter, 1, nxt);
    if (valid) {
      const int n = compute_job(pe, job[s], buf[s]);
      shmem_ctx_int_put_nbi(ctx[s], image + (size_t)job[s] * job_size(), buf[s], (size_t)n, pe);
      points += n;
    }
    if (nxt < 0) break;
    s = 1 - s;
    pe = nxt;
  }
  shmem_ctx_quiet(ctx[0]);
  shmem_ctx_quiet(ctx[1]);
  return points;
}

static void *worker(void *arg)
{
  const int tid = (int)(long)arg;
  char *done = calloc((size_t)npes, 1);
  int *buf[2] = {malloc(sizeof(int) * (size_t)job_size()), malloc(sizeof(int) * (size_t)job_size())};
  shmem_ctx_t ctx[2] = {SHMEM_CTX_DEFAULT, SHMEM_CTX_DEFAULT};
  const int nctx = variant == 1 ? 0 : variant >= 4 ? 2 : 1;
  /* Created without options (not SHMEM_CTX_PRIVATE), as the published program does. */
  for (int i = 0; i < nctx; i++)
    if (shmem_ctx_create(0, &ctx[i]) != 0) {
      printf("FAIL: PE %d: shmem_ctx_create\n", me);
      ctx[i] = SHMEM_CTX_DEFAULT;
    }

  /* The published benchmark's start: every thread of every PE, then the timers. */
  pthread_barrier_wait(&start_line);
  if (tid == 0) shmem_barrier_all();
  pthread_barrier_wait(&start_line);
  const double t0 = now_us();
  const long points = variant == 4 ? work_pipelined(ctx, buf, done) : work_in_turn(ctx, buf, done);
  const double t = now_us() - t0;
  /* As the published program sends its statistics: two atomic adds to PE 0 per thread, as soon as
   * its timer stops (while other threads may still work). */
  shmem_long_atomic_add(&ttime_sum, (long)(t * 1e3 + 0.5), 0);
  shmem_long_atomic_add(&rate_sum, t > 0 ? (long)(points / (t * 1e-6) + 0.5) : 0, 0);

  for (int i = 0; i < nctx; i++) shmem_ctx_destroy(ctx[i]);
  free(buf[0]);
  free(buf[1]);
  free(done);
  return NULL;
}

static int usage(const char *prog)
{
  fprintf(stderr, "usage: %s -v VARIANT -t THREADS -w WIDTH -h HEIGHT -i MAXITER [-j POINTS | -c ROWS] [-r X0,X1,Y0,Y1]\n",
          prog);
  return 2;
}

int main(int argc, char **argv)
{
  int opt, rows_given = 0, points_given = 0;
  while ((opt = getopt(argc, argv, "v:t:w:h:c:i:r:p:j:")) != -1) {
    switch (opt) {
      case 'v': variant = atoi(optarg); break;
      case 't': nthreads = atoi(optarg); break;
      case 'w': width = atoi(optarg); break;
      case 'h': height = atoi(optarg); break;
      case 'c': chunk = atoi(optarg); rows_given = 1; break;
      case 'i': maxiter = atoi(optarg); break;
      case 'p':
      case 'j':
        job_points = atoi(optarg);
        points_given = 1;
        if (job_points < 1) {
          fprintf(stderr, "mandel_threads: -%c POINTS must be at least 1 (got '%s')\n", opt, optarg);
          return 2;
        }
        break;
      case 'r':
        if (sscanf(optarg, "%lf,%lf,%lf,%lf", &re0, &re1, &im0, &im1) != 4 || !(re0 < re1) || !(im0 < im1)) {
          fprintf(stderr, "mandel_threads: -r X0,X1,Y0,Y1 with X0 < X1 and Y0 < Y1 (got '%s')\n", optarg);
          return 2;
        }
        break;
      default: return usage(argv[0]);
    }
  }
  if (rows_given && points_given) {
    fprintf(stderr, "mandel_threads: -c ROWS (row jobs) and -j POINTS (point jobs) exclude each other\n");
    return 2;
  }
  if (rows_given) job_points = 0;
  if (variant < 1 || variant > 5 || nthreads < 1 || width < 1 || height < 1 || (rows_given && chunk < 1) || maxiter < 1) {
    fprintf(stderr, "mandel_threads: bad arguments\n");
    return usage(argv[0]);
  }
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me = shmem_my_pe();
  npes = shmem_n_pes();
  if (provided != SHMEM_THREAD_MULTIPLE) printf("FAIL: PE %d: provided %d\n", me, provided);
  if (job_points && npoints() < npes) {
    if (me == 0) fprintf(stderr, "mandel_threads: %ld points for %d PEs: every PE needs at least one\n", npoints(), npes);
    shmem_finalize();
    return 2;
  }
  const long most = job_points ? local_count(npes - 1) : (long)rows_of(0) * width;
  image = shmem_malloc(sizeof(int) * (size_t)(most > 0 ? most : 1));
  for (long i = 0; i < local_count(me); i++) image[i] = -1;
  counter = 0;
  rate_sum = ttime_sum = 0;
  pthread_t *t = malloc(sizeof(pthread_t) * (size_t)nthreads);
  pthread_barrier_init(&start_line, NULL, (unsigned)nthreads);

  shmem_barrier_all();
  const double t0 = now_us();
  for (int i = 0; i < nthreads; i++) pthread_create(&t[i], NULL, worker, (void *)(long)i);
  for (int i = 0; i < nthreads; i++) pthread_join(t[i], NULL);
  shmem_barrier_all();
  const double t1 = now_us();
  pthread_barrier_destroy(&start_line);

  partial = 0;
  for (long k = 0; k < local_count(me); k++) {
    int row, col;
    pixel_of(me, k, &row, &col);
    partial += image[k] * weight(row, col);
  }
  shmem_barrier_all();
  shmem_longlong_sum_reduce(SHMEM_TEAM_WORLD, &checksum, &partial, 1);
  int ok = 1;
  if (me == 0) {
    long long seq = 0;
    for (int r = 0; r < height; r++)
      for (int c = 0; c < width; c++) seq += mandel(r, c) * weight(r, c);
    ok = seq == checksum;
    /* The figures, for sweeps (README, Sweeps); the line after it stays the last one. */
    printf("RESULT rate_pps=%.6e thread_time_us=%.1f time_us=%.0f variant=%d threads=%d ok=%d\n", (double)rate_sum,
           ttime_sum * 1e-3 / ((double)npes * nthreads), t1 - t0, variant, nthreads, ok);
    printf("mandel_threads: variant %d threads %d checksum %lld time_us %.0f %s\n", variant, nthreads, checksum,
           t1 - t0, ok ? "OK" : "WRONG");
  }
  free(t);
  shmem_free(image);
  shmem_finalize();
  return ok ? 0 : 1;
}
