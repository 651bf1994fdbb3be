/* A NAS-IS-like integer sort (the contexts paper's section 5.2, Listing 4, Figure 6): a parallel
 * bucket sort of the NAS Parallel Benchmarks' IS keys over OpenSHMEM, with the paper's key
 * exchange. Written for shmemsim from the benchmark's published description (NPB 3 report:
 * key generation, bucket ranking, one all-to-all key exchange per iteration).
 *
 * Keys: the NPB generator (x_{k+1} = a x_k mod 2^46, a = 5^13, seed 314159265); each key is the
 * average of four consecutive uniform numbers times MAX_KEY, so keys are bell-shaped. PE p owns
 * keys [p*n, (p+1)*n) of the sequence (the generator skipped ahead). Classes (total keys, max key):
 * S 2^16/2^11, W 2^20/2^16, A 2^23/2^19, B 2^25/2^21, C 2^27/2^23; 10 iterations, 1024 buckets.
 *
 * One iteration (timed, as NPB times its ranking loop):
 *   1. modify two keys (NPB's per-iteration change), count the local keys per bucket;
 *   2. sum the bucket counts over all PEs (shmem_int_sum_reduce), assign consecutive buckets
 *      to PEs so each receives about total/npes keys; bucket-sort the local keys by bucket;
 *   3. exchange counts: put send_count[i] into PE i's recv_count[me]; barrier; each PE computes
 *      recv_offset[] (where each source's keys go in its key_buff2); barrier;
 *   4. the key exchange of Listing 4: for every PE i in order 0..npes-1 (the benchmark's incast
 *      schedule), get recv_offset[me] from PE i, then put the keys for i at that offset;
 *      complete the puts; barrier;
 *        -v base   the default context: shmem_int_get, shmem_int_put_nbi, shmem_quiet (each
 *                  get waits for the counter shared with the puts issued before it)
 *        -v ctx    Listing 4: the get on ctx[0], the put_nbi on ctx[1], shmem_ctx_quiet(ctx[1])
 *   5. rank the received keys: count each key value in this PE's key range, prefix sums.
 * Then (untimed) full verification: every PE's keys sorted by rank, ranks consistent with the
 * counts, the PE's largest key at most the next PE's smallest, every key received exactly once
 * (total count and key checksum equal the generated ones).
 *
 * PE 0 prints: "nas_is: class A, 16 PEs, variant ctx, 10 iterations: time_us T, Mkeys/s R,
 * verification OK" and a line "RESULT time_s=... mkeys_per_s=..." (the timed section only).
 * Usage: nas_is [-c S|W|A|B|C] [-v base|ctx] [-i ITERATIONS] [-k LOG2_KEYS -m LOG2_MAXKEY] */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOG2_BUCKETS 10
#define NUM_BUCKETS (1 << LOG2_BUCKETS)
#define MAX_PES 4096
#define LCG_A 1220703125ULL /* 5^13 */
#define LCG_SEED 314159265ULL
#define LCG_MASK ((1ULL << 46) - 1)

static int send_count[MAX_PES], send_offset[MAX_PES];
static int recv_count[MAX_PES], recv_offset[MAX_PES]; /* symmetric */
static int bucket_size[NUM_BUCKETS], bucket_total[NUM_BUCKETS]; /* symmetric (reduction) */
static long long stats_src[3], stats_dst[3];                      /* symmetric (reduction) */
static int bound_src[2], bounds[2 * MAX_PES];                     /* symmetric: min/max keys */

static int me, npes, iterations = 10, use_ctx = 0;
static int log2_keys = 23, log2_maxkey = 19;
static char class_name = 'A';

/* a^n mod 2^46 */
static uint64_t lcg_power(uint64_t a, uint64_t n)
{
  uint64_t r = 1;
  while (n > 0) {
    if (n & 1) r = (r * a) & LCG_MASK;
    a = (a * a) & LCG_MASK;
    n >>= 1;
  }
  return r;
}

/* Keys first..first+n-1 of the sequence: each uses four numbers of the generator. */
static void generate_keys(int *keys, long first, long n, int max_key)
{
  uint64_t x = (LCG_SEED * lcg_power(LCG_A, 4 * (uint64_t)first)) & LCG_MASK;
  const double scale = 1.0 / (double)(1ULL << 46);
  for (long i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < 4; j++) {
      x = (x * LCG_A) & LCG_MASK;
      sum += (double)x * scale;
    }
    keys[i] = (int)(max_key / 4 * sum);
  }
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void usage(const char *why)
{
  if (me == 0) fprintf(stderr, "nas_is: %s\nusage: nas_is [-c S|W|A|B|C] [-v base|ctx] [-i ITERATIONS] [-k LOG2_KEYS -m LOG2_MAXKEY]\n", why);
  exit(2);
}

static void parse_args(int argc, char **argv)
{
  int opt;
  while ((opt = getopt(argc, argv, "c:v:i:k:m:")) != -1) {
    switch (opt) {
      case 'c':
        class_name = optarg[0];
        switch (class_name) {
          case 'S': log2_keys = 16; log2_maxkey = 11; break;
          case 'W': log2_keys = 20; log2_maxkey = 16; break;
          case 'A': log2_keys = 23; log2_maxkey = 19; break;
          case 'B': log2_keys = 25; log2_maxkey = 21; break;
          case 'C': log2_keys = 27; log2_maxkey = 23; break;
          default: usage("-c: class must be S, W, A, B or C");
        }
        break;
      case 'v':
        if (strcmp(optarg, "base") == 0) use_ctx = 0;
        else if (strcmp(optarg, "ctx") == 0) use_ctx = 1;
        else usage("-v: variant must be base or ctx");
        break;
      case 'i': iterations = atoi(optarg); break;
      case 'k': log2_keys = atoi(optarg); class_name = '-'; break;
      case 'm': log2_maxkey = atoi(optarg); class_name = '-'; break;
      default: usage("unknown option");
    }
  }
  if (iterations < 1 || iterations > 1000) usage("-i: 1 to 1000 iterations");
  if (log2_keys < 10 || log2_keys > 30 || log2_maxkey < LOG2_BUCKETS || log2_maxkey > 28)
    usage("-k 10..30, -m 10..28");
  if (npes > MAX_PES) usage("at most 4096 PEs");
}

typedef struct {
  long nkeys;             /* my generated keys */
  long capacity;          /* key_buff2's size */
  int max_key, shift;     /* keys in [0, max_key); bucket = key >> shift */
  int *keys;              /* my generated keys (private) */
  int *key_buff1;         /* my keys in bucket order (private) */
  int *key_buff2;         /* keys received (symmetric) */
  int *rank_count;        /* per key value of my range: count, then prefix sums (private) */
  int nrecv;              /* keys received this iteration */
  int min_key, max_key_mine; /* my key range [min_key, max_key_mine) */
  shmem_ctx_t ctx[2];
} Sort;

/* Steps 1-2: bucket counts, their global sums, buckets assigned to PEs, local bucket sort. */
static void bucket_and_assign(Sort *s)
{
  memset(bucket_size, 0, sizeof bucket_size);
  for (long i = 0; i < s->nkeys; i++) bucket_size[s->keys[i] >> s->shift]++;
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, bucket_total, bucket_size, NUM_BUCKETS);

  long total = 0;
  for (int b = 0; b < NUM_BUCKETS; b++) total += bucket_total[b];
  /* consecutive buckets to each PE, closing a PE's range once it reaches (pe+1)*total/npes */
  int pe = 0, first_bucket_of_me = NUM_BUCKETS, end_bucket_of_me = NUM_BUCKETS;
  long running = 0;
  memset(send_count, 0, sizeof(int) * (size_t)npes);
  for (int b = 0; b < NUM_BUCKETS; b++) {
    if (pe == me && first_bucket_of_me == NUM_BUCKETS) first_bucket_of_me = b;
    send_count[pe] += bucket_size[b];
    running += bucket_total[b];
    if (pe < npes - 1 && running >= (long)(pe + 1) * total / npes) {
      if (pe == me) end_bucket_of_me = b + 1;
      pe++;
    }
  }
  if (first_bucket_of_me == NUM_BUCKETS) end_bucket_of_me = NUM_BUCKETS; /* no bucket left for me */
  s->min_key = first_bucket_of_me << s->shift;
  s->max_key_mine = end_bucket_of_me << s->shift;
  if (s->max_key_mine > s->max_key) s->max_key_mine = s->max_key;
  if (s->min_key > s->max_key_mine) s->min_key = s->max_key_mine;

  /* local bucket sort: keys for PE i contiguous from send_offset[i] */
  static int bucket_ptr[NUM_BUCKETS];
  int acc = 0;
  for (int b = 0; b < NUM_BUCKETS; b++) { bucket_ptr[b] = acc; acc += bucket_size[b]; }
  for (long i = 0; i < s->nkeys; i++) {
    const int k = s->keys[i];
    s->key_buff1[bucket_ptr[k >> s->shift]++] = k;
  }
  acc = 0;
  for (int i = 0; i < npes; i++) { send_offset[i] = acc; acc += send_count[i]; }
}

/* Step 3: the counts each PE will receive, and where each source's keys go. */
static void exchange_counts(Sort *s)
{
  for (int i = 0; i < npes; i++) shmem_int_p(&recv_count[me], send_count[i], i);
  shmem_barrier_all();
  int acc = 0;
  for (int i = 0; i < npes; i++) { recv_offset[i] = acc; acc += recv_count[i]; }
  s->nrecv = acc;
  if (acc > s->capacity) {
    fprintf(stderr, "nas_is: PE %d receives %d keys, more than its buffer (%ld)\n", me, acc, s->capacity);
    shmem_global_exit(1);
  }
  shmem_barrier_all();
}

/* Step 4: the key exchange of the paper's Listing 4. */
static void exchange_keys(Sort *s)
{
  for (int i = 0; i < npes; i++) {
    int k2;
    if (use_ctx) {
      shmem_ctx_int_get(s->ctx[0], &k2, &recv_offset[me], 1, i);
      shmem_ctx_int_put_nbi(s->ctx[1], s->key_buff2 + k2, s->key_buff1 + send_offset[i], (size_t)send_count[i], i);
    } else {
      shmem_int_get(&k2, &recv_offset[me], 1, i);
      shmem_int_put_nbi(s->key_buff2 + k2, s->key_buff1 + send_offset[i], (size_t)send_count[i], i);
    }
  }
  if (use_ctx) shmem_ctx_quiet(s->ctx[1]);
  else shmem_quiet();
  shmem_barrier_all();
}

/* Step 5: rank the received keys within my key range. */
static void rank_keys(Sort *s)
{
  const int range = s->max_key_mine - s->min_key;
  memset(s->rank_count, 0, sizeof(int) * (size_t)(range + 1));
  for (int i = 0; i < s->nrecv; i++) s->rank_count[s->key_buff2[i] - s->min_key]++;
  for (int k = 1; k <= range; k++) s->rank_count[k] += s->rank_count[k - 1];
}

static void one_iteration(Sort *s, int it)
{
  /* NPB's per-iteration modification of two keys */
  s->keys[it % s->nkeys] = it;
  s->keys[(it + iterations) % s->nkeys] = s->max_key - it - 1;
  bucket_and_assign(s);
  exchange_counts(s);
  exchange_keys(s);
  rank_keys(s);
}

/* Full verification (untimed); returns the number of failed checks on this PE. */
static int verify(Sort *s, long long my_sum, long long my_count)
{
  int bad = 0;
  for (int i = 0; i < s->nrecv; i++)
    if (s->key_buff2[i] < s->min_key || s->key_buff2[i] >= s->max_key_mine) { bad++; break; }
  /* sort by rank (counting sort with the prefix sums) and check order */
  const int range = s->max_key_mine - s->min_key;
  int *sorted = malloc(sizeof(int) * (size_t)(s->nrecv + 1));
  int *pos = malloc(sizeof(int) * (size_t)(range + 1));
  for (int k = 0; k <= range; k++) pos[k] = k == 0 ? 0 : s->rank_count[k - 1];
  for (int i = 0; !bad && i < s->nrecv; i++) sorted[pos[s->key_buff2[i] - s->min_key]++] = s->key_buff2[i];
  for (int i = 1; !bad && i < s->nrecv; i++)
    if (sorted[i - 1] > sorted[i]) { bad++; break; }
  if (!bad && range > 0 && s->rank_count[range - 1] != s->nrecv) bad++;
  /* boundaries between PEs, and every key received exactly once */
  bound_src[0] = s->nrecv > 0 ? sorted[0] : s->max_key;
  bound_src[1] = s->nrecv > 0 ? sorted[s->nrecv - 1] : -1;
  shmem_int_fcollect(SHMEM_TEAM_WORLD, bounds, bound_src, 2);
  int prev_max = -1;
  for (int p = 0; p < npes; p++) {
    if (bounds[2 * p + 1] < 0) continue; /* received nothing */
    if (bounds[2 * p] < prev_max) bad++;
    prev_max = bounds[2 * p + 1];
  }
  long long recv_sum = 0;
  for (int i = 0; i < s->nrecv; i++) recv_sum += s->key_buff2[i];
  stats_src[0] = my_sum - recv_sum;
  stats_src[1] = my_count - s->nrecv;
  stats_src[2] = bad;
  shmem_longlong_sum_reduce(SHMEM_TEAM_WORLD, stats_dst, stats_src, 3);
  free(sorted);
  free(pos);
  return stats_dst[0] != 0 || stats_dst[1] != 0 || stats_dst[2] != 0;
}

int main(int argc, char **argv)
{
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  parse_args(argc, argv);

  Sort s;
  memset(&s, 0, sizeof s);
  const long total_keys = 1L << log2_keys;
  const long first = total_keys * me / npes;
  s.nkeys = total_keys * (me + 1) / npes - first;
  s.max_key = 1 << log2_maxkey;
  s.shift = log2_maxkey - LOG2_BUCKETS;
  s.capacity = 2 * (total_keys / npes) + 4096; /* NPB's buffers hold twice the average */
  s.keys = malloc(sizeof(int) * (size_t)(s.nkeys + 1));
  s.key_buff1 = malloc(sizeof(int) * (size_t)(s.nkeys + 1));
  s.key_buff2 = shmem_malloc(sizeof(int) * (size_t)s.capacity);
  s.rank_count = malloc(sizeof(int) * ((size_t)s.max_key + 1));
  if (s.keys == NULL || s.key_buff1 == NULL || s.key_buff2 == NULL || s.rank_count == NULL) {
    fprintf(stderr, "nas_is: PE %d: out of memory for %ld keys\n", me, s.nkeys);
    shmem_global_exit(1);
  }
  s.ctx[0] = s.ctx[1] = SHMEM_CTX_DEFAULT;
  if (use_ctx && (shmem_ctx_create(0, &s.ctx[0]) != 0 || shmem_ctx_create(0, &s.ctx[1]) != 0)) {
    fprintf(stderr, "nas_is: PE %d: shmem_ctx_create failed\n", me);
    shmem_global_exit(1);
  }
  generate_keys(s.keys, first, s.nkeys, s.max_key);

  shmem_barrier_all();
  const double t0 = now_s();
  for (int it = 1; it <= iterations; it++) one_iteration(&s, it);
  const double t1 = now_s();

  long long my_sum = 0;
  for (long i = 0; i < s.nkeys; i++) my_sum += s.keys[i];
  const int failed = verify(&s, my_sum, s.nkeys);

  if (me == 0) {
    const double secs = t1 - t0;
    const double rate = (double)total_keys * iterations / secs / 1e6;
    printf("nas_is: class %c, %d PEs, variant %s, %d iterations: time_us %.0f, Mkeys/s %.3f, verification %s\n",
           class_name, npes, use_ctx ? "ctx" : "base", iterations, secs * 1e6, rate, failed ? "FAILED" : "OK");
    printf("RESULT time_s=%.9f mkeys_per_s=%.6f\n", secs, rate);
  }
  if (use_ctx) {
    shmem_ctx_destroy(s.ctx[0]);
    shmem_ctx_destroy(s.ctx[1]);
  }
  shmem_free(s.key_buff2);
  free(s.keys);
  free(s.key_buff1);
  free(s.rank_count);
  shmem_finalize();
  return failed ? 1 : 0;
}
