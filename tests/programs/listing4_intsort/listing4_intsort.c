/* The contexts paper's Listing 4 (integer sort key exchange), written with the paper's own API
 * names (SHMEMSIM_PAPER_NAMES): each PE buckets its keys by destination PE; for each target it
 * obtains the target's write offset on one context and sends the bucket with a non-blocking put
 * on another; a single ctx quiet after the loop completes all the puts.
 *   listing4_intsort        offset by a blocking get of recv_offset[me] (exactly the listing)
 *   listing4_intsort fadd   offset by a fetch-add on the target's fill counter (OpenSHMEM 1.5
 *                           shmem_ctx_int_atomic_fetch_add, shmem_ctx_int_put_nbi)
 * Then every PE checks it received exactly the keys of its range from every PE (in get mode at
 * the exact offsets), and that they sort. */
#define SHMEMSIM_PAPER_NAMES
#include <shmem.h>
#include <shmemx.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

#define NKEYS 3000
#define MAXKEY (1 << 20)
#define MAXPE 64

static int send_count[MAXPE], send_offset[MAXPE];
static int recv_count[MAXPE], recv_offset[MAXPE];
static int recv_fill;

static unsigned next_key(unsigned* state)
{
  *state = *state * 1103515245u + 12345u;
  return (*state >> 8) % MAXKEY;
}

static int bucket_of(int key, int npes) { return (int)((long long)key * npes / MAXKEY); }

static int cmp_int(const void* a, const void* b)
{
  const int x = *(const int*)a, y = *(const int*)b;
  return x < y ? -1 : x > y;
}

/* The keys of PE `pe`, grouped by destination bucket (stable). */
static void make_keys(int pe, int npes, int* grouped, int* count, int* offset)
{
  static int raw[NKEYS];
  unsigned state = 12345u + 7919u * (unsigned)pe;
  for (int k = 0; k < NKEYS; ++k)
    raw[k] = (int)next_key(&state);
  for (int i = 0; i < npes; ++i)
    count[i] = 0;
  for (int k = 0; k < NKEYS; ++k)
    ++count[bucket_of(raw[k], npes)];
  int fill[MAXPE];
  for (int i = 0, o = 0; i < npes; ++i) {
    offset[i] = fill[i] = o;
    o += count[i];
  }
  for (int k = 0; k < NKEYS; ++k)
    grouped[fill[bucket_of(raw[k], npes)]++] = raw[k];
}

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int fadd = argc > 1 && strcmp(argv[1], "fadd") == 0;
  if (npes > MAXPE)
    return 2;

  int* key_buff1 = malloc(NKEYS * sizeof(int));
  int* key_buff2 = shmem_calloc((size_t)npes * NKEYS, sizeof(int));
  make_keys(me, npes, key_buff1, send_count, send_offset);

  /* The paper's context creation: two contexts, serialized use. */
  shmem_ctx_t ctx[2];
  CHECK(shmem_ctx_create(2, SHMEM_THREAD_SERIALIZED, ctx) == 0, "shmem_ctx_create(2, ...)");

  /* Bucket sizes to their owners; owners turn them into offsets. */
  for (int i = 0; i < npes; ++i)
    shmem_int_p(&recv_count[me], send_count[i], i);
  shmem_barrier_all();
  int total = 0;
  for (int s = 0; s < npes; ++s) {
    recv_offset[s] = total;
    total += recv_count[s];
  }
  recv_fill = 0;

  /* ---- Listing 4 ---- */
  shmem_barrier_all();
  for (int i = 0; i < npes; ++i) {
    int k1 = send_offset[i];
    int k2; // target offset
    if (fadd)
      k2 = shmem_ctx_int_atomic_fetch_add(ctx[0], &recv_fill, send_count[i], i);
    else
      shmem_ctx_int_get(ctx[0], &k2, &recv_offset[me], 1, i);
    if (fadd)
      shmem_ctx_int_put_nbi(ctx[1], key_buff2 + k2, key_buff1 + k1, send_count[i], i);
    else
      shmem_ctx_int_put_nb(ctx[1], key_buff2 + k2, key_buff1 + k1, send_count[i], i);
  }
  shmem_ctx_quiet(ctx[1]);
  shmem_barrier_all();
  /* ---- end of Listing 4 ---- */

  /* What every PE sent me, regenerated here. */
  static int others[NKEYS];
  int cnt[MAXPE], off[MAXPE];
  int* expect = malloc((size_t)(total > 0 ? total : 1) * sizeof(int));
  int n = 0;
  for (int s = 0; s < npes; ++s) {
    make_keys(s, npes, others, cnt, off);
    CHECK(cnt[me] == recv_count[s], "PE %d announced %d keys, generated %d", s, recv_count[s], cnt[me]);
    for (int k = 0; k < cnt[me] && n < total; ++k)
      expect[n++] = others[off[me] + k];
  }
  CHECK(n == total, "expected %d keys, counted %d", total, n);
  if (fadd)
    CHECK(recv_fill == total, "fill counter %d, %d keys", recv_fill, total);
  int bad = 0;
  if (!fadd) /* exact placement: source s at recv_offset[s] */
    for (int k = 0; k < total; ++k)
      bad += key_buff2[k] != expect[k];
  qsort(key_buff2, (size_t)total, sizeof(int), cmp_int);
  qsort(expect, (size_t)total, sizeof(int), cmp_int);
  int bad_set = 0;
  for (int k = 0; k < total; ++k)
    bad_set += key_buff2[k] != expect[k];
  CHECK(bad == 0, "%d of %d keys not at their exact place", bad, total);
  CHECK(bad_set == 0, "%d of %d keys wrong (as a multiset)", bad_set, total);
  for (int k = 0; k < total; ++k)
    if (bucket_of(key_buff2[k], npes) != me) {
      CHECK(0, "key %d at %d is not in my range", key_buff2[k], k);
      break;
    }

  shmem_ctx_destroy(2, ctx);
  free(expect);
  free(key_buff1);
  shmem_barrier_all();
  shmem_free(key_buff2);
  const int rc = progtest_finish("listing4_intsort checks");
  if (me == 0)
    printf("listing4_intsort: %s on %d PEs (%s)\n", progtest_total == 0 ? "OK" : "FAIL", npes, fadd ? "fadd" : "get");
  shmem_finalize();
  return rc;
}
