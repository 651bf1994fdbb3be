/* RMA on typed and sized elements and on bytes: put, get, p, g, iput, iget, put_nbi, get_nbi,
 * putmem/getmem (blocking and nbi), putSIZE/getSIZE/iputSIZE/igetSIZE, each on the default
 * context and on a created one (shmem_ctx_ forms), for several sizes up to many packets.
 * Every PE writes to its right neighbour and reads from it, then checks what landed. */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

#define N_MAX 1024
#define MEM_MAX (64 * 1024 + 3)

static int me, npes, right, left;

/* Small integers: exact in every type, char included. */
#define V(T, pe, i, it) ((T)((((pe) * 131 + (i) * 7 + (it) * 17 + 3) % 101) + 1))

/* One test function per type: put, get, p, g, iput, iget, put_nbi, get_nbi on `ctx`
 * (SHMEM_CTX_DEFAULT through the plain names, else the shmem_ctx_ names). */
#define DEFINE_TYPED_TEST(T, NAME)                                                                         \
  static T NAME##_dst[N_MAX], NAME##_dst2[N_MAX], NAME##_src[N_MAX], NAME##_scalar, NAME##_strided[3 * N_MAX]; \
  static void test_##NAME(shmem_ctx_t ctx, size_t n, int it)                                               \
  {                                                                                                        \
    static T local[N_MAX], got[N_MAX], got_nbi[N_MAX], got_strided[2 * N_MAX];                             \
    const int dflt = ctx == SHMEM_CTX_DEFAULT;                                                             \
    size_t i;                                                                                              \
    for (i = 0; i < N_MAX; ++i) {                                                                          \
      NAME##_src[i] = V(T, me, i, it);                                                                     \
      local[i]      = V(T, me, i, it);                                                                     \
      NAME##_dst[i] = NAME##_dst2[i] = (T)0;                                                               \
      got[i] = got_nbi[i] = (T)0;                                                                          \
    }                                                                                                      \
    for (i = 0; i < 3 * N_MAX; ++i)                                                                        \
      NAME##_strided[i] = (T)0;                                                                            \
    for (i = 0; i < 2 * N_MAX; ++i)                                                                        \
      got_strided[i] = (T)0;                                                                               \
    NAME##_scalar = (T)0;                                                                                  \
    shmem_barrier_all();                                                                                   \
    const size_t nput = (n + 1) / 2, nget = (n + 2) / 3;                                                   \
    T g;                                                                                                   \
    if (dflt) {                                                                                            \
      shmem_##NAME##_put(NAME##_dst, local, n, right);                                                     \
      shmem_##NAME##_get(got, NAME##_src, n, right);                                                       \
      shmem_##NAME##_p(&NAME##_scalar, V(T, me, 999, it), right);                                          \
      g = shmem_##NAME##_g(&NAME##_src[n - 1], right);                                                     \
      shmem_##NAME##_iput(NAME##_strided, local, 3, 2, nput, right);                                       \
      shmem_##NAME##_iget(got_strided, NAME##_src, 2, 3, nget, right);                                     \
      shmem_##NAME##_put_nbi(NAME##_dst2, local, n, left);                                                 \
      shmem_##NAME##_get_nbi(got_nbi, NAME##_src, n, left);                                                \
      shmem_quiet();                                                                                       \
    } else {                                                                                               \
      shmem_ctx_##NAME##_put(ctx, NAME##_dst, local, n, right);                                            \
      shmem_ctx_##NAME##_get(ctx, got, NAME##_src, n, right);                                              \
      shmem_ctx_##NAME##_p(ctx, &NAME##_scalar, V(T, me, 999, it), right);                                 \
      g = shmem_ctx_##NAME##_g(ctx, &NAME##_src[n - 1], right);                                            \
      shmem_ctx_##NAME##_iput(ctx, NAME##_strided, local, 3, 2, nput, right);                              \
      shmem_ctx_##NAME##_iget(ctx, got_strided, NAME##_src, 2, 3, nget, right);                            \
      shmem_ctx_##NAME##_put_nbi(ctx, NAME##_dst2, local, n, left);                                        \
      shmem_ctx_##NAME##_get_nbi(ctx, got_nbi, NAME##_src, n, left);                                       \
      shmem_ctx_quiet(ctx);                                                                                \
    }                                                                                                      \
    int bad_get = 0, bad_nbi = 0, bad_iget = 0;                                                            \
    for (i = 0; i < n; ++i) {                                                                              \
      bad_get += got[i] != V(T, right, i, it);                                                             \
      bad_nbi += got_nbi[i] != V(T, left, i, it);                                                          \
    }                                                                                                      \
    for (i = 0; i < 2 * N_MAX; ++i)                                                                        \
      bad_iget += got_strided[i] != (i % 2 == 0 && i / 2 < nget ? V(T, right, 3 * (i / 2), it) : (T)0);    \
    CHECK(bad_get == 0, "%s get n=%zu ctx=%d: %d wrong elements", #NAME, n, !dflt, bad_get);               \
    CHECK(bad_nbi == 0, "%s get_nbi n=%zu ctx=%d: %d wrong elements", #NAME, n, !dflt, bad_nbi);           \
    CHECK(bad_iget == 0, "%s iget n=%zu ctx=%d: %d wrong elements", #NAME, n, !dflt, bad_iget);            \
    CHECK(g == V(T, right, n - 1, it), "%s g n=%zu ctx=%d", #NAME, n, !dflt);                              \
    shmem_barrier_all();                                                                                   \
    int bad_put = 0, bad_put2 = 0, bad_iput = 0;                                                           \
    for (i = 0; i < N_MAX; ++i) {                                                                          \
      bad_put += NAME##_dst[i] != (i < n ? V(T, left, i, it) : (T)0);                                      \
      bad_put2 += NAME##_dst2[i] != (i < n ? V(T, right, i, it) : (T)0);                                   \
    }                                                                                                      \
    for (i = 0; i < 3 * N_MAX; ++i)                                                                        \
      bad_iput += NAME##_strided[i] != (i % 3 == 0 && i / 3 < nput ? V(T, left, 2 * (i / 3), it) : (T)0);  \
    CHECK(bad_put == 0, "%s put n=%zu ctx=%d: %d wrong elements", #NAME, n, !dflt, bad_put);               \
    CHECK(bad_put2 == 0, "%s put_nbi n=%zu ctx=%d: %d wrong elements", #NAME, n, !dflt, bad_put2);         \
    CHECK(bad_iput == 0, "%s iput n=%zu ctx=%d: %d wrong elements", #NAME, n, !dflt, bad_iput);            \
    CHECK(NAME##_scalar == V(T, left, 999, it), "%s p n=%zu ctx=%d", #NAME, n, !dflt);                     \
    shmem_barrier_all();                                                                                   \
  }

DEFINE_TYPED_TEST(float, float)
DEFINE_TYPED_TEST(double, double)
DEFINE_TYPED_TEST(long double, longdouble)
DEFINE_TYPED_TEST(char, char)
DEFINE_TYPED_TEST(signed char, schar)
DEFINE_TYPED_TEST(short, short)
DEFINE_TYPED_TEST(int, int)
DEFINE_TYPED_TEST(long, long)
DEFINE_TYPED_TEST(long long, longlong)
DEFINE_TYPED_TEST(unsigned char, uchar)
DEFINE_TYPED_TEST(unsigned short, ushort)
DEFINE_TYPED_TEST(unsigned int, uint)
DEFINE_TYPED_TEST(unsigned long, ulong)
DEFINE_TYPED_TEST(unsigned long long, ulonglong)
DEFINE_TYPED_TEST(int8_t, int8)
DEFINE_TYPED_TEST(int16_t, int16)
DEFINE_TYPED_TEST(int32_t, int32)
DEFINE_TYPED_TEST(int64_t, int64)
DEFINE_TYPED_TEST(uint8_t, uint8)
DEFINE_TYPED_TEST(uint16_t, uint16)
DEFINE_TYPED_TEST(uint32_t, uint32)
DEFINE_TYPED_TEST(uint64_t, uint64)
DEFINE_TYPED_TEST(size_t, size)
DEFINE_TYPED_TEST(ptrdiff_t, ptrdiff)

/* ------------------------------------------------------------------ bytes and sized elements */

static unsigned char mem_dst[MEM_MAX], mem_dst2[MEM_MAX], mem_src[MEM_MAX];
static unsigned char local_mem[MEM_MAX], got_mem[MEM_MAX], got_mem2[MEM_MAX];

static unsigned char B(int pe, size_t i, int it) { return (unsigned char)((pe * 37 + i * 11 + it * 5 + (i >> 8)) & 0xff); }

static void fill(int it)
{
  for (size_t i = 0; i < MEM_MAX; ++i) {
    mem_src[i] = local_mem[i] = B(me, i, it);
    mem_dst[i] = mem_dst2[i] = got_mem[i] = got_mem2[i] = 0;
  }
  shmem_barrier_all();
}

static void test_mem(shmem_ctx_t ctx, size_t n, int it)
{
  const int dflt = ctx == SHMEM_CTX_DEFAULT;
  fill(it);
  if (dflt) {
    shmem_putmem(mem_dst, local_mem, n, right);
    shmem_getmem(got_mem, mem_src, n, right);
    shmem_putmem_nbi(mem_dst2, local_mem, n, left);
    shmem_getmem_nbi(got_mem2, mem_src, n, left);
    shmem_quiet();
  } else {
    shmem_ctx_putmem(ctx, mem_dst, local_mem, n, right);
    shmem_ctx_getmem(ctx, got_mem, mem_src, n, right);
    shmem_ctx_putmem_nbi(ctx, mem_dst2, local_mem, n, left);
    shmem_ctx_getmem_nbi(ctx, got_mem2, mem_src, n, left);
    shmem_ctx_quiet(ctx);
  }
  size_t bad = 0, bad2 = 0;
  for (size_t i = 0; i < MEM_MAX; ++i) {
    bad += got_mem[i] != (i < n ? B(right, i, it) : 0);
    bad2 += got_mem2[i] != (i < n ? B(left, i, it) : 0);
  }
  CHECK(bad == 0, "getmem n=%zu ctx=%d: %zu wrong bytes", n, !dflt, bad);
  CHECK(bad2 == 0, "getmem_nbi n=%zu ctx=%d: %zu wrong bytes", n, !dflt, bad2);
  shmem_barrier_all();
  bad = bad2 = 0;
  for (size_t i = 0; i < MEM_MAX; ++i) {
    bad += mem_dst[i] != (i < n ? B(left, i, it) : 0);
    bad2 += mem_dst2[i] != (i < n ? B(right, i, it) : 0);
  }
  CHECK(bad == 0, "putmem n=%zu ctx=%d: %zu wrong bytes", n, !dflt, bad);
  CHECK(bad2 == 0, "putmem_nbi n=%zu ctx=%d: %zu wrong bytes", n, !dflt, bad2);
  shmem_barrier_all();
}

typedef void (*ctx_rma_fn)(shmem_ctx_t, void*, const void*, size_t, int);
typedef void (*ctx_strided_fn)(shmem_ctx_t, void*, const void*, ptrdiff_t, ptrdiff_t, size_t, int);

struct sized {
  int bits;
  ctx_rma_fn put, get, put_nbi, get_nbi;
  ctx_strided_fn iput, iget;
};

#define SIZED(S)                                                                                  \
  {                                                                                               \
    S, shmem_ctx_put##S, shmem_ctx_get##S, shmem_ctx_put##S##_nbi, shmem_ctx_get##S##_nbi,        \
        shmem_ctx_iput##S, shmem_ctx_iget##S                                                      \
  }
static const struct sized sized_fns[] = {SIZED(8), SIZED(16), SIZED(32), SIZED(64), SIZED(128)};

/* Element `k` of `elem` bytes equals element `k` of the reference pattern. */
static int same_elem(const unsigned char* a, size_t ka, int pe, size_t kb, size_t elem, int it)
{
  for (size_t b = 0; b < elem; ++b)
    if (a[ka * elem + b] != B(pe, kb * elem + b, it))
      return 0;
  return 1;
}

static int zero_elem(const unsigned char* a, size_t k, size_t elem)
{
  for (size_t b = 0; b < elem; ++b)
    if (a[k * elem + b] != 0)
      return 0;
  return 1;
}

static void test_sized(const struct sized* f, shmem_ctx_t ctx, size_t nelems, int it)
{
  const size_t elem = (size_t)f->bits / 8;
  fill(it);
  f->put(ctx, mem_dst, local_mem, nelems, right);
  f->get(ctx, got_mem, mem_src, nelems, right);
  f->put_nbi(ctx, mem_dst2, local_mem, nelems, left);
  f->get_nbi(ctx, got_mem2, mem_src, nelems, left);
  shmem_ctx_quiet(ctx);
  size_t bad = 0, bad2 = 0;
  for (size_t k = 0; k < nelems; ++k) {
    bad += !same_elem(got_mem, k, right, k, elem, it);
    bad2 += !same_elem(got_mem2, k, left, k, elem, it);
  }
  CHECK(bad == 0, "get%d nelems=%zu: %zu wrong elements", f->bits, nelems, bad);
  CHECK(bad2 == 0, "get%d_nbi nelems=%zu: %zu wrong elements", f->bits, nelems, bad2);
  shmem_barrier_all();
  bad = bad2 = 0;
  for (size_t k = 0; k < nelems; ++k) {
    bad += !same_elem(mem_dst, k, left, k, elem, it);
    bad2 += !same_elem(mem_dst2, k, right, k, elem, it);
  }
  bad += !zero_elem(mem_dst, nelems, elem);
  CHECK(bad == 0, "put%d nelems=%zu: %zu wrong elements", f->bits, nelems, bad);
  CHECK(bad2 == 0, "put%d_nbi nelems=%zu: %zu wrong elements", f->bits, nelems, bad2);
  shmem_barrier_all();

  /* Strided: dest stride 3, source stride 2 (iput); dest stride 2, source stride 3 (iget). */
  fill(it + 1);
  const size_t m = nelems / 3;
  f->iput(ctx, mem_dst, local_mem, 3, 2, m, right);
  f->iget(ctx, got_mem, mem_src, 2, 3, m, right);
  size_t badi = 0;
  for (size_t k = 0; k < 2 * m + 2; ++k)
    badi += k % 2 == 0 && k / 2 < m ? !same_elem(got_mem, k, right, 3 * (k / 2), elem, it + 1) : !zero_elem(got_mem, k, elem);
  CHECK(badi == 0, "iget%d nelems=%zu: %zu wrong elements", f->bits, m, badi);
  shmem_barrier_all();
  badi = 0;
  for (size_t k = 0; k < 3 * m + 3; ++k)
    badi += k % 3 == 0 && k / 3 < m ? !same_elem(mem_dst, k, left, 2 * (k / 3), elem, it + 1) : !zero_elem(mem_dst, k, elem);
  CHECK(badi == 0, "iput%d nelems=%zu: %zu wrong elements", f->bits, m, badi);
  shmem_barrier_all();
}

/* The sized routines' plain names (default context). */
static void test_sized_plain(int it)
{
  fill(it);
  shmem_put8(mem_dst, local_mem, 3, right);
  shmem_put16(mem_dst + 16, local_mem + 16, 3, right);
  shmem_put32(mem_dst + 32, local_mem + 32, 3, right);
  shmem_put64(mem_dst + 64, local_mem + 64, 3, right);
  shmem_put128(mem_dst + 128, local_mem + 128, 3, right);
  shmem_put64_nbi(mem_dst + 256, local_mem + 256, 2, right);
  shmem_iput32(mem_dst + 512, local_mem + 512, 2, 1, 4, right); /* dest stride 2 elements */
  shmem_get8(got_mem, mem_src, 3, right);
  shmem_get16(got_mem + 16, mem_src + 16, 3, right);
  shmem_get32(got_mem + 32, mem_src + 32, 3, right);
  shmem_get64(got_mem + 64, mem_src + 64, 3, right);
  shmem_get128(got_mem + 128, mem_src + 128, 3, right);
  shmem_get32_nbi(got_mem + 256, mem_src + 256, 2, right);
  shmem_iget64(got_mem + 512, mem_src + 512, 1, 2, 4, right); /* source stride 2 elements */
  shmem_quiet();
  static const int off[] = {0, 16, 32, 64, 128, 256};
  static const int len[] = {3, 6, 12, 24, 48, 8};
  int bad = 0;
  for (int r = 0; r < 6; ++r)
    for (int b = 0; b < len[r]; ++b)
      bad += got_mem[off[r] + b] != B(right, (size_t)(off[r] + b), it);
  for (int e = 0; e < 4; ++e)
    for (int b = 0; b < 8; ++b)
      bad += got_mem[512 + 8 * e + b] != B(right, (size_t)(512 + 16 * e + b), it);
  CHECK(bad == 0, "plain sized gets: %d wrong bytes", bad);
  shmem_barrier_all();
  bad = 0;
  for (int r = 0; r < 5; ++r)
    for (int b = 0; b < len[r]; ++b)
      bad += mem_dst[off[r] + b] != B(left, (size_t)(off[r] + b), it);
  for (int b = 0; b < 16; ++b)
    bad += mem_dst[256 + b] != B(left, (size_t)(256 + b), it);
  for (int e = 0; e < 4; ++e)
    for (int b = 0; b < 4; ++b)
      bad += mem_dst[512 + 8 * e + b] != B(left, (size_t)(512 + 4 * e + b), it) || mem_dst[512 + 8 * e + 4 + b] != 0;
  CHECK(bad == 0, "plain sized puts: %d wrong bytes", bad);
  shmem_barrier_all();
}

int main(void)
{
  shmem_init();
  me    = shmem_my_pe();
  npes  = shmem_n_pes();
  right = (me + 1) % npes;
  left  = (me + npes - 1) % npes;

  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "shmem_ctx_create");
  shmem_ctx_t ctxs[2] = {SHMEM_CTX_DEFAULT, ctx};

  static const size_t sizes[] = {1, 37, N_MAX};
  int it = 0;
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < 3; ++s, ++it) {
      const size_t n = sizes[s];
      test_float(ctxs[c], n, it);
      test_double(ctxs[c], n, it);
      test_longdouble(ctxs[c], n, it);
      test_char(ctxs[c], n, it);
      test_schar(ctxs[c], n, it);
      test_short(ctxs[c], n, it);
      test_int(ctxs[c], n, it);
      test_long(ctxs[c], n, it);
      test_longlong(ctxs[c], n, it);
      test_uchar(ctxs[c], n, it);
      test_ushort(ctxs[c], n, it);
      test_uint(ctxs[c], n, it);
      test_ulong(ctxs[c], n, it);
      test_ulonglong(ctxs[c], n, it);
      test_int8(ctxs[c], n, it);
      test_int16(ctxs[c], n, it);
      test_int32(ctxs[c], n, it);
      test_int64(ctxs[c], n, it);
      test_uint8(ctxs[c], n, it);
      test_uint16(ctxs[c], n, it);
      test_uint32(ctxs[c], n, it);
      test_uint64(ctxs[c], n, it);
      test_size(ctxs[c], n, it);
      test_ptrdiff(ctxs[c], n, it);
    }

  static const size_t mem_sizes[] = {1, 7, 8, 9, 2048, 4095, MEM_MAX};
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < (int)(sizeof mem_sizes / sizeof mem_sizes[0]); ++s, ++it)
      test_mem(ctxs[c], mem_sizes[s], it);

  for (int c = 0; c < 2; ++c)
    for (int f = 0; f < 5; ++f) {
      const size_t elem = (size_t)sized_fns[f].bits / 8;
      test_sized(&sized_fns[f], ctxs[c], 1, it++);
      test_sized(&sized_fns[f], ctxs[c], 5000 / elem, it++);
    }

  test_sized_plain(it++);

  /* A blocking put's source may be reused as soon as it returns. */
  fill(it);
  shmem_putmem(mem_dst, local_mem, MEM_MAX, right);
  memset(local_mem, 0xEE, MEM_MAX);
  shmem_ctx_putmem(ctx, mem_dst2, mem_src, 4096, right);
  memset(mem_src, 0xDD, 4096);
  shmem_barrier_all();
  size_t bad_reuse = 0;
  for (size_t i = 0; i < MEM_MAX; ++i)
    bad_reuse += mem_dst[i] != B(left, i, it) || (i < 4096 && mem_dst2[i] != B(left, i, it));
  CHECK(bad_reuse == 0, "source overwritten after a blocking put returned: %zu wrong bytes at the target", bad_reuse);
  shmem_barrier_all();
  ++it;

  shmem_ctx_destroy(ctx);
  const int rc = progtest_finish("rma_typed");
  shmem_finalize();
  return rc;
}
