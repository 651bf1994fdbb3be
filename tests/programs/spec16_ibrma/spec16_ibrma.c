/* OpenSHMEM 1.6 blocked strided RMA over the WHOLE standard RMA type table: shmem_TYPENAME_ibput,
 * shmem_TYPENAME_ibget and their shmem_ctx_ forms, the sized shmem_ibputSIZE/ibgetSIZE (SIZE 8,
 * 16, 32, 64, 128) with their ctx forms, and the C11 type-generic shmem_ibput/shmem_ibget with and
 * without a leading shmem_ctx_t. Block i is bsize elements at element i*dst of dest and i*sst of
 * source. Each PE writes to its right neighbour and reads back from it; every element of the
 * destination is checked, those between blocks too (they must keep their old value).
 * Compiled with -std=c11 (and gnu11). Argument "badstride": an ibput with dst < bsize (misuse). */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

#include "rma_types.h"

static int me, npes, right, left;
static shmem_ctx_t ctx;

/* Source element k of PE pe (small, exact in every type; never the fill value 0). */
#define VAL(TYPE, pe, k) ((TYPE)((pe) * 16 + (k) + 1))

/* Element k of a destination written with blocks of `bs` from a source read with stride `ss`,
 * at destination stride `ds` (blocks from block index 0), or 0 where no block lands. */
static int expect_index(int k, int bs, int ds, int ss, int nb)
{
  const int i = k / ds, o = k % ds;
  if (i >= nb || o >= bs)
    return -1;
  return i * ss + o;
}

/* Four layouts per type, each in its own 32-element area of the destination:
 * 0: ibput  bsize 2, dst 3, sst 4, 3 blocks      1: ctx ibput  bsize 3, dst 5, sst 3, 2 blocks
 * 2: generic ibput bsize 1, dst 2, sst 1, 4 blocks 3: generic ctx ibput bsize 4, dst 4, sst 6, 2 blocks */
static const int L_BS[4] = {2, 3, 1, 4}, L_DS[4] = {3, 5, 2, 4}, L_SS[4] = {4, 3, 1, 6}, L_NB[4] = {3, 2, 4, 2};

#define IB_TEST(TYPE, NAME)                                                                                  \
  static TYPE dst_##NAME[4][32];                                                                              \
  static TYPE src_##NAME[32];                                                                                 \
  static void test_##NAME(void)                                                                               \
  {                                                                                                           \
    for (int k = 0; k < 32; ++k)                                                                              \
      src_##NAME[k] = VAL(TYPE, me, k);                                                                       \
    memset(dst_##NAME, 0, sizeof dst_##NAME);                                                                 \
    shmem_barrier_all();                                                                                      \
    const TYPE* src = src_##NAME; /* const-qualified source */                                                \
    shmem_##NAME##_ibput(dst_##NAME[0], src, 3, 4, 2, 3, right);                                              \
    shmem_ctx_##NAME##_ibput(ctx, dst_##NAME[1], src, 5, 3, 3, 2, right);                                     \
    shmem_ibput(dst_##NAME[2], src, 2, 1, 1, 4, right);                                                       \
    shmem_ibput(ctx, dst_##NAME[3], src, 4, 6, 4, 2, right);                                                  \
    shmem_ctx_quiet(ctx);                                                                                     \
    shmem_barrier_all();                                                                                      \
    for (int l = 0; l < 4; ++l)                                                                               \
      for (int k = 0; k < 32; ++k) {                                                                          \
        const int x = expect_index(k, L_BS[l], L_DS[l], L_SS[l], L_NB[l]);                                    \
        const TYPE want = x < 0 ? (TYPE)0 : VAL(TYPE, left, x);                                               \
        CHECK(dst_##NAME[l][k] == want, #TYPE " ibput layout %d: element %d", l, k);                          \
      }                                                                                                       \
    /* ibget: the same layouts, reading the right neighbour's source into local arrays */                     \
    TYPE g[4][32];                                                                                            \
    memset(g, 0, sizeof g);                                                                                   \
    shmem_##NAME##_ibget(g[0], src_##NAME, 3, 4, 2, 3, right);                                                \
    shmem_ctx_##NAME##_ibget(ctx, g[1], src, 5, 3, 3, 2, right);                                              \
    shmem_ibget(g[2], src_##NAME, 2, 1, 1, 4, right);                                                         \
    shmem_ibget(ctx, g[3], src, 4, 6, 4, 2, right);                                                           \
    for (int l = 0; l < 4; ++l)                                                                               \
      for (int k = 0; k < 32; ++k) {                                                                          \
        const int x = expect_index(k, L_BS[l], L_DS[l], L_SS[l], L_NB[l]);                                    \
        const TYPE want = x < 0 ? (TYPE)0 : VAL(TYPE, right, x);                                              \
        CHECK(g[l][k] == want, #TYPE " ibget layout %d: element %d", l, k);                                   \
      }                                                                                                       \
    /* zero blocks or zero-sized blocks move nothing, whatever the pointers */                                \
    shmem_##NAME##_ibput(NULL, NULL, 1, 1, 0, 5, right);                                                      \
    shmem_##NAME##_ibget(NULL, NULL, 1, 1, 3, 0, right);                                                      \
    shmem_barrier_all();                                                                                      \
  }
RMA_TYPES(IB_TEST)

/* Sized forms: SIZE-bit elements as bytes; element k of PE pe is bytes (pe*16+k+1, k, ...). */
static unsigned char sized_src[32 * 16];
static unsigned char sized_dst[2][32 * 16];

static void fill_elem(unsigned char* p, int bytes, int pe, int k)
{
  for (int b = 0; b < bytes; ++b)
    p[b] = (unsigned char)(pe * 16 + k + 1 + 3 * b);
}

#define SIZED_TEST(SIZE)                                                                                     \
  static void test_sized_##SIZE(void)                                                                         \
  {                                                                                                           \
    const int eb = SIZE / 8;                                                                                  \
    for (int k = 0; k < 32; ++k)                                                                              \
      fill_elem(sized_src + k * eb, eb, me, k);                                                               \
    memset(sized_dst, 0, sizeof sized_dst);                                                                   \
    shmem_barrier_all();                                                                                      \
    shmem_ibput##SIZE(sized_dst[0], sized_src, 3, 4, 2, 3, right);                                            \
    shmem_ctx_ibput##SIZE(ctx, sized_dst[1], sized_src, 5, 3, 3, 2, right);                                   \
    shmem_ctx_quiet(ctx);                                                                                     \
    shmem_barrier_all();                                                                                      \
    unsigned char g[2][32 * 16], want[16];                                                                    \
    memset(g, 0, sizeof g);                                                                                   \
    shmem_ibget##SIZE(g[0], sized_src, 3, 4, 2, 3, right);                                                    \
    shmem_ctx_ibget##SIZE(ctx, g[1], sized_src, 5, 3, 3, 2, right);                                           \
    for (int l = 0; l < 2; ++l)                                                                               \
      for (int k = 0; k < 32; ++k) {                                                                          \
        const int x = expect_index(k, L_BS[l], L_DS[l], L_SS[l], L_NB[l]);                                    \
        if (x < 0)                                                                                            \
          memset(want, 0, sizeof want);                                                                       \
        else                                                                                                  \
          fill_elem(want, eb, left, x);                                                                       \
        CHECK(memcmp(sized_dst[l] + k * eb, want, (size_t)eb) == 0, "ibput%d layout %d: element %d", SIZE, l, k); \
        if (x >= 0)                                                                                           \
          fill_elem(want, eb, right, x);                                                                      \
        CHECK(memcmp(g[l] + k * eb, want, (size_t)eb) == 0, "ibget%d layout %d: element %d", SIZE, l, k);     \
      }                                                                                                       \
    shmem_barrier_all();                                                                                      \
  }
SIZED_TEST(8)
SIZED_TEST(16)
SIZED_TEST(32)
SIZED_TEST(64)
SIZED_TEST(128)

static int bad_dst[16];

int main(int argc, char** argv)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;
  if (argc > 1 && strcmp(argv[1], "badstride") == 0) {
    int v[8] = {0};
    shmem_int_ibput(bad_dst, v, 1, 2, 2, 3, right); /* dst 1 < bsize 2: blocks would overlap */
    printf("not reached\n");
    return 0;
  }
  if (shmem_ctx_create(0, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;
#define RUN(TYPE, NAME) test_##NAME();
  RMA_TYPES(RUN)
  test_sized_8();
  test_sized_16();
  test_sized_32();
  test_sized_64();
  test_sized_128();
  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  int rc = progtest_finish("spec16_ibrma");
  shmem_finalize();
  return rc;
}
