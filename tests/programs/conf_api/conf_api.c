/* The OpenSHMEM 1.5 API, routine by routine and constant by constant, written here from the
 * specification's sections and type tables (independently of the library's own tables): every
 * routine is referenced by address (so each must be declared by shmem.h and defined by the
 * library), the constants have their specified values or properties, and the query, team and
 * context routines answer as specified. */
#include <shmem.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

/* ------------------------------------------------------------------ constants (§9.1 Table 3, Annex) */
_Static_assert(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 5, "version 1.5");
_Static_assert(_SHMEM_MAJOR_VERSION == 1 && _SHMEM_MINOR_VERSION == 5, "deprecated version constants");
_Static_assert(SHMEM_MAX_NAME_LEN == _SHMEM_MAX_NAME_LEN && sizeof(SHMEM_VENDOR_STRING) <= SHMEM_MAX_NAME_LEN,
               "vendor string fits");
_Static_assert(SHMEM_THREAD_SINGLE < SHMEM_THREAD_FUNNELED && SHMEM_THREAD_FUNNELED < SHMEM_THREAD_SERIALIZED &&
                   SHMEM_THREAD_SERIALIZED < SHMEM_THREAD_MULTIPLE,
               "thread levels are ordered (§9.2.2)");
_Static_assert(SHMEM_CMP_EQ != SHMEM_CMP_NE && SHMEM_CMP_GT != SHMEM_CMP_GE && SHMEM_CMP_LT != SHMEM_CMP_LE,
               "comparison constants");
_Static_assert(_SHMEM_CMP_EQ == SHMEM_CMP_EQ && _SHMEM_CMP_NE == SHMEM_CMP_NE && _SHMEM_CMP_GT == SHMEM_CMP_GT &&
                   _SHMEM_CMP_GE == SHMEM_CMP_GE && _SHMEM_CMP_LT == SHMEM_CMP_LT && _SHMEM_CMP_LE == SHMEM_CMP_LE,
               "deprecated comparison constants");
_Static_assert(SHMEM_SIGNAL_SET != SHMEM_SIGNAL_ADD, "signal operators");
_Static_assert(SHMEM_SYNC_SIZE > 0 && SHMEM_BCAST_SYNC_SIZE > 0 && SHMEM_BARRIER_SYNC_SIZE > 0 &&
                   SHMEM_REDUCE_SYNC_SIZE > 0 && SHMEM_COLLECT_SYNC_SIZE > 0 && SHMEM_ALLTOALL_SYNC_SIZE > 0 &&
                   SHMEM_ALLTOALLS_SYNC_SIZE > 0 && SHMEM_REDUCE_MIN_WRKDATA_SIZE > 0,
               "work array sizes");
_Static_assert(SHMEM_SYNC_SIZE >= SHMEM_BCAST_SYNC_SIZE && SHMEM_SYNC_SIZE >= SHMEM_BARRIER_SYNC_SIZE &&
                   SHMEM_SYNC_SIZE >= SHMEM_REDUCE_SYNC_SIZE && SHMEM_SYNC_SIZE >= SHMEM_COLLECT_SYNC_SIZE &&
                   SHMEM_SYNC_SIZE >= SHMEM_ALLTOALL_SYNC_SIZE && SHMEM_SYNC_SIZE >= SHMEM_ALLTOALLS_SYNC_SIZE,
               "SHMEM_SYNC_SIZE is the largest of them");
_Static_assert(_SHMEM_SYNC_SIZE == SHMEM_SYNC_SIZE && _SHMEM_BCAST_SYNC_SIZE == SHMEM_BCAST_SYNC_SIZE &&
                   _SHMEM_BARRIER_SYNC_SIZE == SHMEM_BARRIER_SYNC_SIZE &&
                   _SHMEM_REDUCE_SYNC_SIZE == SHMEM_REDUCE_SYNC_SIZE &&
                   _SHMEM_COLLECT_SYNC_SIZE == SHMEM_COLLECT_SYNC_SIZE &&
                   _SHMEM_REDUCE_MIN_WRKDATA_SIZE == SHMEM_REDUCE_MIN_WRKDATA_SIZE && _SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE,
               "deprecated work array constants");
_Static_assert((SHMEM_CTX_SERIALIZED & SHMEM_CTX_PRIVATE) == 0 && (SHMEM_CTX_PRIVATE & SHMEM_CTX_NOSTORE) == 0 &&
                   (SHMEM_CTX_SERIALIZED & SHMEM_CTX_NOSTORE) == 0,
               "context options are distinct bits");
_Static_assert((SHMEM_MALLOC_ATOMICS_REMOTE & SHMEM_MALLOC_SIGNAL_REMOTE) == 0, "malloc hints are distinct bits");
static long psync[SHMEM_SYNC_SIZE] = {SHMEM_SYNC_VALUE};
static const long team_mask  = SHMEM_TEAM_NUM_CONTEXTS;

/* ------------------------------------------------------------------ the type tables of the specification */
#define RMA_TYPENAMES(X)                                                                                   \
  X(float) X(double) X(longdouble) X(char) X(schar) X(short) X(int) X(long) X(longlong) X(uchar) X(ushort) \
  X(uint) X(ulong) X(ulonglong) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16) X(uint32) X(uint64) \
  X(size) X(ptrdiff)
#define AMO_STD_TYPENAMES(X) \
  X(int) X(long) X(longlong) X(uint) X(ulong) X(ulonglong) X(int32) X(int64) X(uint32) X(uint64) X(size) X(ptrdiff)
#define AMO_EXT_TYPENAMES(X) AMO_STD_TYPENAMES(X) X(float) X(double)
#define AMO_BIT_TYPENAMES(X) X(uint) X(ulong) X(ulonglong) X(int32) X(int64) X(uint32) X(uint64)
#define P2P_TYPENAMES(X) AMO_STD_TYPENAMES(X) X(short) X(ushort)
#define RED_BIT_TYPENAMES(X)                                                                                \
  X(uchar) X(ushort) X(uint) X(ulong) X(ulonglong) X(int8) X(int16) X(int32) X(int64) X(uint8) X(uint16)  \
  X(uint32) X(uint64) X(size)
#define RED_ORD_TYPENAMES(X)                                                                                \
  X(char) X(schar) X(short) X(int) X(long) X(longlong) X(ptrdiff) RED_BIT_TYPENAMES(X) X(float) X(double) \
  X(longdouble)
#define RED_ARITH_TYPENAMES(X) RED_ORD_TYPENAMES(X) X(complexd) X(complexf)
#define TOALL_BIT_TYPENAMES(X) X(short) X(int) X(long) X(longlong)
#define TOALL_ORD_TYPENAMES(X) TOALL_BIT_TYPENAMES(X) X(float) X(double) X(longdouble)
#define TOALL_ARITH_TYPENAMES(X) TOALL_ORD_TYPENAMES(X) X(complexd) X(complexf)
#define SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* Every routine's address goes into this table; a missing one fails to compile or to load. */
typedef void (*routine)(void);
#define R(NAME) (routine)&NAME,
#define RC(NAME) R(shmem_##NAME) R(shmem_ctx_##NAME)

#define RMA_TYPED(T) RC(T##_put) RC(T##_get) RC(T##_p) RC(T##_g) RC(T##_iput) RC(T##_iget) RC(T##_put_nbi) \
  RC(T##_get_nbi) RC(T##_put_signal) RC(T##_put_signal_nbi)                                                  \
  R(shmem_##T##_broadcast) R(shmem_##T##_collect) R(shmem_##T##_fcollect) R(shmem_##T##_alltoall)          \
  R(shmem_##T##_alltoalls)
#define RMA_SIZED(S) RC(put##S) RC(get##S) RC(iput##S) RC(iget##S) RC(put##S##_nbi) RC(get##S##_nbi) \
  RC(put##S##_signal) RC(put##S##_signal_nbi)
#define AMO_STD(T) RC(T##_atomic_compare_swap) RC(T##_atomic_fetch_inc) RC(T##_atomic_inc) \
  RC(T##_atomic_fetch_add) RC(T##_atomic_add) RC(T##_atomic_compare_swap_nbi) RC(T##_atomic_fetch_inc_nbi) \
  RC(T##_atomic_fetch_add_nbi)
#define AMO_EXT(T) RC(T##_atomic_fetch) RC(T##_atomic_set) RC(T##_atomic_swap) RC(T##_atomic_fetch_nbi) \
  RC(T##_atomic_swap_nbi)
#define AMO_BIT(T) RC(T##_atomic_fetch_and) RC(T##_atomic_and) RC(T##_atomic_fetch_or) RC(T##_atomic_or) \
  RC(T##_atomic_fetch_xor) RC(T##_atomic_xor) RC(T##_atomic_fetch_and_nbi) RC(T##_atomic_fetch_or_nbi)  \
  RC(T##_atomic_fetch_xor_nbi)
#define P2P(T) R(shmem_##T##_wait_until) R(shmem_##T##_test)
#define P2P_MULTI(T) R(shmem_##T##_wait_until_all) R(shmem_##T##_wait_until_any) R(shmem_##T##_wait_until_some) \
  R(shmem_##T##_wait_until_all_vector) R(shmem_##T##_wait_until_any_vector)                               \
  R(shmem_##T##_wait_until_some_vector) R(shmem_##T##_test_all) R(shmem_##T##_test_any)                    \
  R(shmem_##T##_test_some) R(shmem_##T##_test_all_vector) R(shmem_##T##_test_any_vector)                   \
  R(shmem_##T##_test_some_vector)
#define RED_BIT(T) R(shmem_##T##_and_reduce) R(shmem_##T##_or_reduce) R(shmem_##T##_xor_reduce)
#define RED_ORD(T) R(shmem_##T##_max_reduce) R(shmem_##T##_min_reduce)
#define RED_ARITH(T) R(shmem_##T##_sum_reduce) R(shmem_##T##_prod_reduce)
#define TOALL_BIT(T) R(shmem_##T##_and_to_all) R(shmem_##T##_or_to_all) R(shmem_##T##_xor_to_all)
#define TOALL_ORD(T) R(shmem_##T##_max_to_all) R(shmem_##T##_min_to_all)
#define TOALL_ARITH(T) R(shmem_##T##_sum_to_all) R(shmem_##T##_prod_to_all)
#define COLL_SIZED(S) R(shmem_broadcast##S) R(shmem_collect##S) R(shmem_fcollect##S) R(shmem_alltoall##S) \
  R(shmem_alltoalls##S)
#define DEP_AMO(T) R(shmem_##T##_cswap) R(shmem_##T##_finc) R(shmem_##T##_inc) R(shmem_##T##_fadd) R(shmem_##T##_add)
#define DEP_AMO_EXT(T) R(shmem_##T##_swap) R(shmem_##T##_fetch) R(shmem_##T##_set)
#define DEP_WAIT(T) R(shmem_##T##_wait)

static const routine routines[] = {
  /* §9.2 library setup, exit and query; §9.2.2 threads */
  R(shmem_init) R(shmem_finalize) R(shmem_global_exit) R(shmem_my_pe) R(shmem_n_pes) R(shmem_pe_accessible)
  R(shmem_addr_accessible) R(shmem_ptr) R(shmem_team_ptr) R(shmem_info_get_version) R(shmem_info_get_name)
  R(shmem_init_thread) R(shmem_query_thread)
  /* §9.3 memory management */
  R(shmem_malloc) R(shmem_free) R(shmem_realloc) R(shmem_align) R(shmem_malloc_with_hints) R(shmem_calloc)
  /* §9.4 teams, §9.5 contexts */
  R(shmem_team_my_pe) R(shmem_team_n_pes) R(shmem_team_get_config) R(shmem_team_translate_pe)
  R(shmem_team_split_strided) R(shmem_team_split_2d) R(shmem_team_destroy) R(shmem_ctx_create)
  R(shmem_team_create_ctx) R(shmem_ctx_destroy) R(shmem_ctx_get_team)
  /* §9.6 RMA, §9.8 signaling, §9.9 collectives (typed and mem) */
  RMA_TYPENAMES(RMA_TYPED) SIZES(RMA_SIZED)
  RC(putmem) RC(getmem) RC(putmem_nbi) RC(getmem_nbi) RC(putmem_signal) RC(putmem_signal_nbi)
  R(shmem_signal_fetch) R(shmem_signal_wait_until)
  /* §9.7 AMO */
  AMO_STD_TYPENAMES(AMO_STD) AMO_EXT_TYPENAMES(AMO_EXT) AMO_BIT_TYPENAMES(AMO_BIT)
  /* §9.9 collectives */
  R(shmem_barrier_all) R(shmem_barrier) R(shmem_sync_all) R(shmem_team_sync) R(shmem_sync)
  R(shmem_broadcastmem) R(shmem_collectmem) R(shmem_fcollectmem) R(shmem_alltoallmem) R(shmem_alltoallsmem)
  COLL_SIZED(32) COLL_SIZED(64)
  RED_BIT_TYPENAMES(RED_BIT) RED_ORD_TYPENAMES(RED_ORD) RED_ARITH_TYPENAMES(RED_ARITH)
  TOALL_BIT_TYPENAMES(TOALL_BIT) TOALL_ORD_TYPENAMES(TOALL_ORD) TOALL_ARITH_TYPENAMES(TOALL_ARITH)
  /* §9.10 point-to-point synchronization */
  P2P_TYPENAMES(P2P) AMO_STD_TYPENAMES(P2P_MULTI)
  /* §9.11 memory ordering, §9.12 locks */
  R(shmem_fence) R(shmem_ctx_fence) R(shmem_quiet) R(shmem_ctx_quiet)
  R(shmem_set_lock) R(shmem_clear_lock) R(shmem_test_lock)
  /* §10 (profiling) */
  R(shmem_pcontrol)
  /* Annex: deprecated but still specified */
  R(start_pes) R(_my_pe) R(_num_pes) R(shmalloc) R(shfree) R(shrealloc) R(shmemalign)
  R(shmem_clear_cache_inv) R(shmem_set_cache_inv) R(shmem_clear_cache_line_inv) R(shmem_set_cache_line_inv)
  R(shmem_udcflush) R(shmem_udcflush_line) R(shmem_wait) R(shmem_wait_until)
  DEP_AMO(int) DEP_AMO(long) DEP_AMO(longlong) DEP_AMO_EXT(int) DEP_AMO_EXT(long) DEP_AMO_EXT(longlong)
  DEP_AMO_EXT(float) DEP_AMO_EXT(double) DEP_WAIT(short) DEP_WAIT(int) DEP_WAIT(long) DEP_WAIT(longlong)
};

static long sym;

int main(void)
{
  /* callable before shmem_init */
  int major = 0, minor = 0;
  char name[SHMEM_MAX_NAME_LEN];
  shmem_info_get_version(&major, &minor);
  shmem_info_get_name(name);

  int provided = -1;
  const int rc_init = shmem_init_thread(SHMEM_THREAD_FUNNELED, &provided);
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  CHECK(rc_init == 0 && provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE, "shmem_init_thread");
  int queried = -1;
  shmem_query_thread(&queried);
  CHECK(queried == provided, "shmem_query_thread %d vs %d", queried, provided);
  CHECK(major == 1 && minor == 5, "shmem_info_get_version %d.%d", major, minor);
  CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0 && strlen(name) < SHMEM_MAX_NAME_LEN, "shmem_info_get_name '%s'", name);

  size_t missing = 0;
  for (size_t i = 0; i < sizeof routines / sizeof routines[0]; ++i)
    missing += routines[i] == NULL;
  CHECK(missing == 0, "%zu routines resolve to NULL", missing);

  int local = 0;
  for (int pe = 0; pe < npes; ++pe) {
    CHECK(shmem_pe_accessible(pe) == 1, "shmem_pe_accessible(%d)", pe);
    CHECK(shmem_addr_accessible(&sym, pe) == 1, "shmem_addr_accessible(static, %d)", pe);
    CHECK(shmem_addr_accessible(&local, pe) == 0, "shmem_addr_accessible(stack, %d)", pe);
  }
  CHECK(shmem_pe_accessible(npes) == 0 && shmem_pe_accessible(-1) == 0, "shmem_pe_accessible out of range");
  CHECK(shmem_ptr(&sym, me) == &sym, "shmem_ptr to myself");

  /* teams and contexts */
  CHECK(SHMEM_TEAM_INVALID != SHMEM_TEAM_WORLD && SHMEM_TEAM_INVALID != SHMEM_TEAM_SHARED, "predefined teams");
  CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes, "world team");
  CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid team");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_SHARED) == shmem_team_my_pe(SHMEM_TEAM_SHARED),
        "translate world -> shared");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_INVALID) == -1, "translate to SHMEM_TEAM_INVALID");
  shmem_team_t team = SHMEM_TEAM_INVALID;
  CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team) == 0 && team == SHMEM_TEAM_WORLD, "default context's team");
  CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team) != 0 && team == SHMEM_TEAM_INVALID, "invalid context's team");
  shmem_team_config_t config = {.num_contexts = 2};
  shmem_team_t half          = SHMEM_TEAM_INVALID;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, (npes + 1) / 2, &config, team_mask, &half) == 0,
        "split_strided");
  if (half != SHMEM_TEAM_INVALID) {
    shmem_team_config_t got = {0};
    CHECK(shmem_team_get_config(half, team_mask, &got) == 0 && got.num_contexts == 2, "get_config");
    shmem_ctx_t tctx;
    if (shmem_team_create_ctx(half, SHMEM_CTX_PRIVATE, &tctx) == 0) {
      shmem_team_t back = SHMEM_TEAM_INVALID;
      CHECK(shmem_ctx_get_team(tctx, &back) == 0 && back == half, "team context's team");
      shmem_ctx_destroy(tctx);
    }
    shmem_team_destroy(half);
  }
  shmem_team_t xteam = SHMEM_TEAM_INVALID, yteam = SHMEM_TEAM_INVALID;
  CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &xteam, NULL, 0, &yteam) == 0, "split_2d");
  const int row_size = npes - (me / 2) * 2 < 2 ? npes - (me / 2) * 2 : 2; /* rows of xrange 2 */
  CHECK(shmem_team_n_pes(xteam) == row_size && shmem_team_my_pe(xteam) == me % 2, "split_2d x-axis team");
  CHECK(shmem_team_n_pes(yteam) == (npes - me % 2 + 1) / 2 && shmem_team_my_pe(yteam) == me / 2, "split_2d y-axis team");
  if (xteam != SHMEM_TEAM_INVALID)
    shmem_team_destroy(xteam);
  if (yteam != SHMEM_TEAM_INVALID)
    shmem_team_destroy(yteam);
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i)
    psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  shmem_sync(0, 0, npes, psync); /* the deprecated active-set form keeps its name */

  const int rc = progtest_finish("conf_api");
  shmem_finalize();
  return rc;
}
