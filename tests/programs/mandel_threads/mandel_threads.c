/* The contexts paper's Mandelbrot benchmark (section 5.1, Listing 3, Figures 2-4) with pthreads
 * inside PEs. The image (WIDTH x HEIGHT iteration counts) is distributed by rows: row r belongs
 * to PE r % npes, at local row r / npes of the symmetric `image`. Each PE has a symmetric work
 * counter over chunks of CHUNK of its rows. Every thread visits the PEs round-robin starting at
 * its own PE: fetch-add on that PE's counter, compute the chunk, put it back to the owner; a PE
 * whose counter has passed its chunks is done for that thread.
 *   -v 1  no contexts: every thread uses the shared default context, blocking puts
 *   -v 2  one private context per thread, blocking puts
 *   -v 3  one private context per thread, put_nbi, quiet before the buffer is reused
 *   -v 4  pipelined: two contexts and two buffers per thread; a non-blocking fetch-add to the
 *         next PE is issued before computing the current chunk, and the quiet of a context
 *         (completing its fetch-add and the put of its buffer) comes one iteration later
 * PE 0 prints the image checksum (sum of iter * (index % 1009)), the simulated time of the
 * parallel section (clock_gettime between two barriers), and OK if the checksum equals a
 * sequential computation, WRONG otherwise.
 * Usage: mandel_threads -v VARIANT -t THREADS -w WIDTH -h HEIGHT -c CHUNK -i MAXITER [-r X0,X1,Y0,Y1]
 * (-r: the region of the complex plane, default -2,0.5,-1.25,1.25; -p: jobs of POINTS consecutive
 * points of row-major blocks, as the paper authors' published benchmark, instead of rows). */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long counter;                 /* symmetric: next chunk of my rows */
static long long partial, checksum;  /* symmetric: reduction source and result */
static int *image;                   /* symmetric (shmem_malloc): my rows, row-major */

static int variant = 1, nthreads = 1, width = 64, height = 32, chunk = 2, maxiter = 200;
/* The region of the complex plane drawn (-r X0,X1,Y0,Y1): by default [-2, 0.5] x [-1.25, 1.25]. */
static double re0 = -2.0, re1 = 0.5, im0 = -1.25, im1 = 1.25;
static int npes, me;

/* Layout of the image over the PEs, and jobs.
 * Rows (default): row r belongs to PE r % npes; a job is CHUNK of the PE's rows.
 * Points (-p POINTS, the published benchmark's decomposition): the image in row-major order is cut
 * into npes consecutive blocks (PE p: points [N p / npes, N (p+1) / npes)); a job is POINTS
 * consecutive points of the block. */
static int job_points = 0; /* 0: rows */
static long npoints(void) { return (long)width * height; }
static long block_start(int pe) { return npoints() * pe / npes; }
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

static int mandel(int row, int col)
{
  const double cr = re0 + (re1 - re0) * col / width;
  const double ci = im0 + (im1 - im0) * row / height;
  double zr = 0, zi = 0;
  int it = 0;
  while (it < maxiter && zr * zr + zi * zi <= 4.0) {
    const double t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    it++;
  }
  return it;
}

static long long weight(int row, int col) { return ((long long)row * width + col) % 1009; }

/* Computes chunk `job` of PE `pe` into buf; returns the number of ints. */
static int compute_chunk(int pe, long job, int *buf)
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

static void *worker(void *arg)
{
  (void)arg;
  char *done = calloc((size_t)npes, 1);
  int *buf[2] = {malloc(sizeof(int) * (size_t)job_size()), malloc(sizeof(int) * (size_t)job_size())};
  shmem_ctx_t ctx[2] = {SHMEM_CTX_DEFAULT, SHMEM_CTX_DEFAULT};
  const int nctx = variant == 1 ? 0 : variant == 4 ? 2 : 1;
  for (int i = 0; i < nctx; i++)
    if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx[i]) != 0) {
      printf("FAIL: PE %d: shmem_ctx_create\n", me);
      ctx[i] = SHMEM_CTX_DEFAULT;
    }

  if (variant <= 3) {
    int pe = me;
    while (pe >= 0) {
      const long job = shmem_ctx_long_atomic_fetch_add(ctx[0], &counter, 1, pe);
      if (job >= chunks_of(pe)) {
        done[pe] = 1;
      } else {
        if (variant == 3) shmem_ctx_quiet(ctx[0]); /* the previous put_nbi read buf[0] */
        const int n = compute_chunk(pe, job, buf[0]);
        const size_t off = (size_t)job * job_size();
        if (variant == 3)
          shmem_ctx_int_put_nbi(ctx[0], image + off, buf[0], (size_t)n, pe);
        else {
          shmem_ctx_int_put(ctx[0], image + off, buf[0], (size_t)n, pe);
        }
      }
      pe = next_pe(done, pe);
    }
    if (variant != 1) shmem_ctx_quiet(ctx[0]); /* variant 1: the barrier after the join */
  } else {
    long job[2];
    int s = 0, pe = me;
    shmem_ctx_long_atomic_fetch_add_nbi(ctx[s], &job[s], &counter, 1, pe);
    for (;;) {
      shmem_ctx_quiet(ctx[s]); /* completes job[s] and the put from buf[s] */
      const int valid = job[s] < chunks_of(pe);
      if (!valid) done[pe] = 1;
      const int nxt = next_pe(done, pe);
      if (nxt >= 0) shmem_ctx_long_atomic_fetch_add_nbi(ctx[1 - s], &job[1 - s], &counter, 1, nxt);
      if (valid) {
        const int n = compute_chunk(pe, job[s], buf[s]);
        shmem_ctx_int_put_nbi(ctx[s], image + (size_t)job[s] * job_size(), buf[s], (size_t)n, pe);
      }
      if (nxt < 0) break;
      s = 1 - s;
      pe = nxt;
    }
    shmem_ctx_quiet(ctx[0]);
    shmem_ctx_quiet(ctx[1]);
  }
  for (int i = 0; i < nctx; i++) shmem_ctx_destroy(ctx[i]);
  free(buf[0]);
  free(buf[1]);
  free(done);
  return NULL;
}

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
  int opt;
  while ((opt = getopt(argc, argv, "v:t:w:h:c:i:r:p:")) != -1) {
    switch (opt) {
      case 'v': variant = atoi(optarg); break;
      case 't': nthreads = atoi(optarg); break;
      case 'w': width = atoi(optarg); break;
      case 'h': height = atoi(optarg); break;
      case 'c': chunk = atoi(optarg); break;
      case 'i': maxiter = atoi(optarg); break;
      case 'p': job_points = atoi(optarg); if (job_points < 1) { fprintf(stderr, "mandel_threads: -p POINTS must be at least 1\n"); return 2; } break;
      case 'r':
        if (sscanf(optarg, "%lf,%lf,%lf,%lf", &re0, &re1, &im0, &im1) != 4 || !(re0 < re1) || !(im0 < im1)) {
          fprintf(stderr, "mandel_threads: -r X0,X1,Y0,Y1 with X0 < X1 and Y0 < Y1 (got '%s')\n", optarg);
          return 2;
        }
        break;
      default:
        fprintf(stderr, "usage: %s -v VARIANT -t THREADS -w WIDTH -h HEIGHT -c CHUNK -i MAXITER [-r X0,X1,Y0,Y1] [-p POINTS]\n", argv[0]);
        return 2;
    }
  }
  if (variant < 1 || variant > 4 || nthreads < 1 || width < 1 || height < 1 || chunk < 1 || maxiter < 1) {
    fprintf(stderr, "mandel_threads: bad arguments\n");
    return 2;
  }
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me = shmem_my_pe();
  npes = shmem_n_pes();
  if (provided != SHMEM_THREAD_MULTIPLE) printf("FAIL: PE %d: provided %d\n", me, provided);
  const long most = job_points ? npoints() / npes + 1 : (long)rows_of(0) * width;
  image = shmem_malloc(sizeof(int) * (size_t)(most > 0 ? most : 1));
  for (long i = 0; i < local_count(me); i++) image[i] = -1;
  counter = 0;
  pthread_t *t = malloc(sizeof(pthread_t) * (size_t)nthreads);

  shmem_barrier_all();
  const double t0 = now_us();
  for (int i = 0; i < nthreads; i++) pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < nthreads; i++) pthread_join(t[i], NULL);
  shmem_barrier_all();
  const double t1 = now_us();

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
    /* The timed section, for sweeps (README, Sweeps); the line after it stays the last one. */
    printf("RESULT time_us=%.0f variant=%d threads=%d ok=%d\n", t1 - t0, variant, nthreads, ok);
    printf("mandel_threads: variant %d threads %d checksum %lld time_us %.0f %s\n", variant, nthreads, checksum,
           t1 - t0, ok ? "OK" : "WRONG");
  }
  free(t);
  shmem_free(image);
  shmem_finalize();
  return ok ? 0 : 1;
}
