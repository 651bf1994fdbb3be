/* OpenSHMEM 1.5 C11 type-generic RMA and put-with-signal over the WHOLE standard RMA type table
 * (Table 5: every TYPE, the stdint/stddef typedefs included): shmem_put, shmem_get, shmem_p,
 * shmem_g, shmem_iput, shmem_iget, shmem_put_nbi, shmem_get_nbi, shmem_put_signal and
 * shmem_put_signal_nbi, each without and with a leading shmem_ctx_t, with const-qualified sources.
 * Each PE writes to its right neighbour and reads back from it; every value is checked.
 * Compiled with -std=c11 (and gnu11). */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>

#include "progtest.h"

/* The standard RMA types: X(TYPE, NAME). */
#include "rma_types.h"

/* Where each of the 16 destination elements comes from (index into the writer's 8 values). */
static const int layout[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 0, 2, 1, 3, 0, 1};

static int me, npes, right, left;
static shmem_ctx_t ctx;

/* The i-th value PE `pe` sends: small, exact in every type. */
#define VAL(TYPE, pe, i) ((TYPE)((pe) * 8 + (i) + 1))

#define RMA_TEST(TYPE, NAME)                                                                        \
  static TYPE dst_##NAME[16];                                                                        \
  static TYPE sig_dst_##NAME[16];                                                                    \
  static uint64_t sig_##NAME;                                                                        \
  static void test_##NAME(void)                                                                      \
  {                                                                                                  \
    TYPE v[8];                                                                                       \
    for (int i = 0; i < 8; ++i)                                                                      \
      v[i] = VAL(TYPE, me, i);                                                                       \
    const TYPE* src = v; /* const-qualified sources */                                               \
    /* puts to the right neighbour */                                                                \
    shmem_put(dst_##NAME, src, 4, right);                                                            \
    shmem_put(ctx, &dst_##NAME[4], src + 4, 4, right);                                               \
    shmem_p(&dst_##NAME[8], v[0], right);                                                            \
    shmem_p(ctx, &dst_##NAME[9], v[1], right);                                                       \
    shmem_iput(&dst_##NAME[10], src, 2, 1, 2, right);                                                \
    shmem_iput(ctx, &dst_##NAME[11], src + 2, 2, 1, 2, right);                                       \
    shmem_put_nbi(&dst_##NAME[14], src, 1, right);                                                   \
    shmem_put_nbi(ctx, &dst_##NAME[15], src + 1, 1, right);                                          \
    shmem_quiet();                                                                                   \
    shmem_ctx_quiet(ctx);                                                                            \
    shmem_barrier_all();                                                                             \
    for (int k = 0; k < 16; ++k)                                                                     \
      CHECK(dst_##NAME[k] == VAL(TYPE, left, layout[k]), #TYPE " put family: element %d", k);       \
    /* gets from the right neighbour: it holds my values */                                          \
    TYPE g[16], ig[4], nb[16];                                                                       \
    shmem_get(g, dst_##NAME, 8, right);                                                              \
    shmem_get(ctx, &g[8], (const TYPE*)&dst_##NAME[8], 8, right);                                    \
    for (int k = 0; k < 16; ++k)                                                                     \
      CHECK(g[k] == VAL(TYPE, me, layout[k]), #TYPE " get: element %d", k);                         \
    const TYPE* cdst = dst_##NAME;                                                                   \
    CHECK(shmem_g(&dst_##NAME[3], right) == VAL(TYPE, me, 3), #TYPE " g");                          \
    CHECK(shmem_g(ctx, cdst + 5, right) == VAL(TYPE, me, 5), #TYPE " g (ctx, const)");              \
    shmem_iget(ig, dst_##NAME, 1, 2, 2, right);       /* elements 0, 2 */                           \
    shmem_iget(ctx, &ig[2], cdst + 1, 1, 3, 2, right); /* elements 1, 4 */                         \
    CHECK(ig[0] == VAL(TYPE, me, 0) && ig[1] == VAL(TYPE, me, 2), #TYPE " iget");                   \
    CHECK(ig[2] == VAL(TYPE, me, 1) && ig[3] == VAL(TYPE, me, 4), #TYPE " iget (ctx)");             \
    shmem_get_nbi(nb, dst_##NAME, 8, right);                                                         \
    shmem_get_nbi(ctx, &nb[8], cdst + 8, 8, right);                                                  \
    shmem_quiet();                                                                                   \
    shmem_ctx_quiet(ctx);                                                                            \
    for (int k = 0; k < 16; ++k)                                                                     \
      CHECK(nb[k] == VAL(TYPE, me, layout[k]), #TYPE " get_nbi: element %d", k);                    \
    /* put-with-signal: two puts, each adding 1 to the right neighbour's signal */                   \
    shmem_put_signal(sig_dst_##NAME, src, 8, &sig_##NAME, 1, SHMEM_SIGNAL_ADD, right);              \
    shmem_put_signal_nbi(ctx, &sig_dst_##NAME[8], src, 8, &sig_##NAME, 1, SHMEM_SIGNAL_ADD, right); \
    shmem_ctx_quiet(ctx);                                                                            \
    CHECK(shmem_signal_wait_until(&sig_##NAME, SHMEM_CMP_EQ, 2) == 2, #TYPE " signal");             \
    for (int k = 0; k < 16; ++k)                                                                     \
      CHECK(sig_dst_##NAME[k] == VAL(TYPE, left, k % 8), #TYPE " put_signal: element %d", k);       \
    shmem_barrier_all();                                                                             \
  }
RMA_TYPES(RMA_TEST)

/* SHMEM_SIGNAL_SET through the typed-generic form, and shmem_signal_fetch. */
static uint64_t set_sig;
static long set_dst[4];

int main(void)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

#define RUN_TEST(TYPE, NAME) test_##NAME();
  RMA_TYPES(RUN_TEST)

  const long lv[4] = {7, 8, 9, 10};
  shmem_put_signal(set_dst, lv, 4, &set_sig, (uint64_t)(100 + me), SHMEM_SIGNAL_SET, right);
  shmem_signal_wait_until(&set_sig, SHMEM_CMP_NE, 0);
  CHECK(shmem_signal_fetch(&set_sig) == (uint64_t)(100 + left), "SHMEM_SIGNAL_SET value");
  CHECK(set_dst[0] == 7 && set_dst[3] == 10, "put_signal (SET) data");

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("conf_c11_rma");
  shmem_finalize();
  return rc;
}
