/* Contexts: creation with every option, use (blocking, nbi, AMO), quiet, fence, destruction and
 * re-creation; the paper's API (shmemx_ctx_create / _putmem_nb / _quiet / _destroy, shmemx_sync_all).
 * `contexts limit`: create until the NIC's counters or MDs run out: creation returns non-zero
 * and SHMEM_CTX_INVALID (never an abort), the contexts made still work, a destroyed one's
 * resources can be reused, and the default context keeps working. */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>

#include "progtest.h"

#define BIG (64 * 1024)
#define MAXCTX 4096

static int me, npes, right, left;
static unsigned char big_dst[BIG];
static long slots[MAXCTX];
static int flag;
static long counter;

static unsigned char pat(int pe, int i, int round) { return (unsigned char)(pe * 13 + i * 7 + round * 29 + (i >> 9)); }

/* Data on `ctx` (nbi), completed by that context's quiet, then a flag on the default context:
 * the receiver must see all data once it sees the flag, even with unordered delivery. */
static void quiet_then_flag(shmem_ctx_t ctx, int round)
{
  static unsigned char local[BIG];
  for (int i = 0; i < BIG; ++i)
    local[i] = pat(me, i, round);
  memset(big_dst, 0, sizeof big_dst);
  flag = 0;
  shmem_barrier_all();
  shmem_ctx_putmem_nbi(ctx, big_dst, local, BIG, right);
  shmem_ctx_quiet(ctx);
  shmem_int_p(&flag, round + 1, right);
  shmem_int_wait_until(&flag, SHMEM_CMP_EQ, round + 1);
  int bad = 0;
  for (int i = 0; i < BIG; ++i)
    bad += big_dst[i] != pat(left, i, round);
  CHECK(bad == 0, "round %d: %d bytes not there after the sender's ctx quiet", round, bad);
  shmem_barrier_all();
}

/* Data then flag on the same context, separated by its fence. */
static void fence_then_flag(shmem_ctx_t ctx, int round)
{
  static unsigned char local[BIG];
  for (int i = 0; i < BIG; ++i)
    local[i] = pat(me, i, round);
  memset(big_dst, 0, sizeof big_dst);
  flag = 0;
  shmem_barrier_all();
  shmem_ctx_putmem(ctx, big_dst, local, BIG, right);
  shmem_ctx_fence(ctx);
  shmem_ctx_int_p(ctx, &flag, round + 1, right);
  shmem_int_wait_until(&flag, SHMEM_CMP_EQ, round + 1);
  int bad = 0;
  for (int i = 0; i < BIG; ++i)
    bad += big_dst[i] != pat(left, i, round);
  CHECK(bad == 0, "round %d: %d bytes not there after the sender's ctx fence", round, bad);
  shmem_barrier_all();
}

/* A little of everything on one context. */
static void use(shmem_ctx_t ctx, int tag)
{
  shmem_ctx_long_p(ctx, &slots[tag % MAXCTX], tag, right);
  shmem_ctx_long_atomic_add(ctx, &counter, 1, 0);
  long v = shmem_ctx_long_g(ctx, &slots[tag % MAXCTX], right); /* not our own: the left PE puts into it now */
  (void)v;
  shmem_ctx_quiet(ctx);
}

static void normal(void)
{
  static const long options[] = {0, SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED,
                                 SHMEM_CTX_NOSTORE};
  int round = 0;
  for (int o = 0; o < 5; ++o) {
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    const int rc = shmem_ctx_create(options[o], &ctx);
    CHECK(rc == 0 && ctx != SHMEM_CTX_INVALID, "shmem_ctx_create(%ld) returned %d", options[o], rc);
    if (rc != 0)
      continue;
    if (options[o] != SHMEM_CTX_NOSTORE)
      quiet_then_flag(ctx, round++);
    fence_then_flag(ctx, round++);
    shmem_ctx_destroy(ctx);
  }
  quiet_then_flag(SHMEM_CTX_DEFAULT, round++);
  fence_then_flag(SHMEM_CTX_DEFAULT, round++);

  /* Many contexts at once, then create/destroy cycles (resources must be given back). */
  shmem_ctx_t many[16];
  for (int i = 0; i < 16; ++i)
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &many[i]) == 0, "create %d of 16", i);
  counter = 0;
  shmem_barrier_all();
  for (int i = 0; i < 16; ++i)
    use(many[i], i);
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter == 16L * npes, "counter %ld after 16 contexts on each PE", counter);
  for (int i = 0; i < 16; ++i)
    shmem_ctx_destroy(many[i]);
  for (int cycle = 0; cycle < 2000; ++cycle) {
    shmem_ctx_t c;
    if (shmem_ctx_create(SHMEM_CTX_SERIALIZED, &c) != 0) {
      CHECK(0, "create/destroy cycle %d failed: destroyed contexts leak resources", cycle);
      break;
    }
    shmem_ctx_destroy(c);
  }

  /* The paper's API. */
  shmem_ctx_t pc[3];
  CHECK(shmemx_ctx_create(3, SHMEM_THREAD_SERIALIZED, pc) == 0, "shmemx_ctx_create(3)");
  static unsigned char local[BIG];
  for (int i = 0; i < BIG; ++i)
    local[i] = pat(me, i, 99);
  memset(big_dst, 0, sizeof big_dst);
  flag = 0;
  shmem_barrier_all();
  shmemx_ctx_putmem_nb(pc[1], big_dst, local, BIG, right);
  static int one = 1;
  shmemx_ctx_quiet(pc[1]);
  shmemx_ctx_int_put_nb(pc[2], &flag, &one, 1, right);
  shmemx_ctx_quiet(pc[2]);
  shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
  int bad = 0;
  for (int i = 0; i < BIG; ++i)
    bad += big_dst[i] != pat(left, i, 99);
  CHECK(bad == 0, "paper API: %d bytes wrong after shmemx_ctx_quiet", bad);
  /* shmem_barrier_all completes the default context only (the paper, section 3; shmemx.h): the
   * created context's put completes at its quiet, and the barrier after it publishes the data. */
  for (int i = 0; i < BIG; ++i)
    local[i] = pat(me, i, 98);
  shmem_barrier_all();
  shmemx_ctx_putmem_nb(pc[1], big_dst, local, BIG, right);
  shmemx_ctx_quiet(pc[1]);
  shmem_barrier_all();
  bad = 0;
  for (int i = 0; i < BIG; ++i)
    bad += big_dst[i] != pat(left, i, 98);
  CHECK(bad == 0, "paper API: %d bytes wrong after shmemx_ctx_quiet and shmem_barrier_all", bad);
  shmem_barrier_all();
  counter = 0;
  shmemx_sync_all();
  const long t = shmemx_ctx_long_fadd_nb(pc[0], &counter, 1, 0);
  CHECK(t >= 0 && t < npes, "shmemx_ctx_long_fadd_nb fetched %ld", t);
  shmemx_ctx_destroy(3, pc);
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter == npes, "counter %ld after fadd_nb", counter);
  shmem_barrier_all();
}

static void limit(void)
{
  static shmem_ctx_t made[MAXCTX];
  int n = 0;
  shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  int rc = 0;
  while (n < MAXCTX) {
    rc = shmem_ctx_create(n % 2 ? SHMEM_CTX_PRIVATE : 0, &c);
    if (rc != 0)
      break;
    made[n++] = c;
  }
  CHECK(n < MAXCTX, "no limit reached after %d contexts", n);
  CHECK(rc != 0 && c == SHMEM_CTX_INVALID, "failed creation returned %d and a handle other than SHMEM_CTX_INVALID", rc);
  CHECK(n >= 1, "not even one context could be created");
  if (me == 0)
    printf("contexts: created %d contexts before exhaustion\n", n);

  /* Still exhausted: a second attempt fails the same way; the paper's form fails as a whole. */
  shmem_ctx_t again = SHMEM_CTX_DEFAULT;
  CHECK(shmem_ctx_create(0, &again) != 0 && again == SHMEM_CTX_INVALID, "second creation after exhaustion");
  shmem_ctx_t pc[2] = {SHMEM_CTX_DEFAULT, SHMEM_CTX_DEFAULT};
  CHECK(shmemx_ctx_create(2, 0, pc) != 0 && pc[0] == SHMEM_CTX_INVALID && pc[1] == SHMEM_CTX_INVALID,
        "shmemx_ctx_create(2) after exhaustion");

  /* What was made works. */
  counter = 0;
  shmem_barrier_all();
  for (int i = 0; i < n; ++i)
    use(made[i], i);
  shmem_barrier_all();
  if (me == 0)
    CHECK(counter == (long)n * npes, "counter %ld, expected %ld", counter, (long)n * npes);
  quiet_then_flag(made[n - 1], 0);
  fence_then_flag(made[0], 1);

  /* Destroying one gives its resources back. */
  shmem_ctx_destroy(made[n - 1]);
  shmem_ctx_t reuse = SHMEM_CTX_INVALID;
  CHECK(shmem_ctx_create(SHMEM_CTX_SERIALIZED, &reuse) == 0 && reuse != SHMEM_CTX_INVALID,
        "creation after a destroy did not reuse the freed resources");
  if (reuse != SHMEM_CTX_INVALID) {
    quiet_then_flag(reuse, 2);
    made[n - 1] = reuse;
  } else {
    --n;
  }

  /* The default context and the collectives keep working. */
  quiet_then_flag(SHMEM_CTX_DEFAULT, 3);
  fence_then_flag(SHMEM_CTX_DEFAULT, 4);
  counter = 0;
  shmem_barrier_all();
  const long t = shmem_long_atomic_fetch_inc(&counter, 0);
  CHECK(t >= 0 && t < npes, "fetch_inc after exhaustion fetched %ld", t);
  shmem_barrier_all();
  for (int i = 0; i < n; ++i)
    shmem_ctx_destroy(made[i]);
  /* All freed: as many can be created again. */
  int m = 0;
  while (m < n && shmem_ctx_create(0, &made[m]) == 0)
    ++m;
  CHECK(m == n, "after destroying all %d contexts only %d could be created again", n, m);
  for (int i = 0; i < m; ++i)
    shmem_ctx_destroy(made[i]);
  shmem_barrier_all();
}

int main(int argc, char** argv)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
  if (argc > 1 && strcmp(argv[1], "limit") == 0)
    limit();
  else
    normal();
  const int rc = progtest_finish("contexts");
  shmem_finalize();
  return rc;
}
