/* Declarations of the OpenSHMEM 1.5 signaling routines (§9.8: put-with-signal, shmem_signal_fetch,
 * shmem_signal_wait_until), the multi-element point-to-point synchronization routines (§9.10:
 * wait_until_all/_any/_some and their _vector forms, test_all/_any/_some and their _vector forms),
 * distributed locks (§9.12), the deprecated routines still in 1.5 (start_pes, shmalloc, shfree,
 * shrealloc, shmemalign, _my_pe, _num_pes, the cache-management routines), shmem_pcontrol and the
 * name-shifted pshmem_ entry points of the profiling interface (§11); included by shmem.h inside
 * extern "C". Rows R(RET, NAME, KIND, ELEM, PARAMS) as described in shmem_rma.h; the library's
 * definitions are generated from the same rows (shmem_front/lib/sig_*.cpp). */
#pragma once

/* ------------------------------------------------------------------ signal operators (§9.8) */
#define SHMEM_SIGNAL_SET 0
#define SHMEM_SIGNAL_ADD 1

/* ------------------------------------------------------------------ put-with-signal (§9.8.1, §9.8.2)
 * The data of a put-with-signal is delivered before the update of sig_addr (SHMEM_SIGNAL_SET or
 * SHMEM_SIGNAL_ADD of `signal`, an atomic 64-bit operation) becomes visible at `pe`. */
#define SHMEMSIM_SIGNAL_PARAMS_(TYPE) \
  (TYPE * dest, const TYPE* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe)
#define SHMEMSIM_SIGNAL_TYPED_ROUTINES(R, TYPE, TYPENAME)                                           \
  R(void, TYPENAME##_put_signal, put_signal, sizeof(TYPE), SHMEMSIM_SIGNAL_PARAMS_(TYPE))           \
  R(void, TYPENAME##_put_signal_nbi, put_signal_nbi, sizeof(TYPE), SHMEMSIM_SIGNAL_PARAMS_(TYPE))
#define SHMEMSIM_SIGNAL_SIZED_ROUTINES(R, SIZE)                                                     \
  R(void, put##SIZE##_signal, put_signal, (SIZE / 8), SHMEMSIM_SIGNAL_PARAMS_(void))                \
  R(void, put##SIZE##_signal_nbi, put_signal_nbi, (SIZE / 8), SHMEMSIM_SIGNAL_PARAMS_(void))
#define SHMEMSIM_SIGNAL_MEM_ROUTINES(R)                                                             \
  R(void, putmem_signal, put_signal, 1, SHMEMSIM_SIGNAL_PARAMS_(void))                              \
  R(void, putmem_signal_nbi, put_signal_nbi, 1, SHMEMSIM_SIGNAL_PARAMS_(void))

/* ------------------------------------------------------------------ multi-element p2p (§9.10)
 * For every TYPE/TYPENAME of SHMEMSIM_P2P_TYPES and SHMEMSIM_P2P_DEPRECATED_TYPES (shmem_p2p.h).
 * status: optional mask (non-zero excludes the element). Returns as in the specification:
 * wait_until_all nothing, test_all non-zero when every element satisfies the comparison, _any an
 * index or SIZE_MAX, _some the count of indices filled. */
#define SHMEMSIM_P2P_VECTOR_ROUTINES(R, TYPE, TYPENAME)                                              \
  R(void, TYPENAME##_wait_until_all, wait_until_all, sizeof(TYPE),                                   \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE cmp_value))                       \
  R(size_t, TYPENAME##_wait_until_any, wait_until_any, sizeof(TYPE),                                 \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE cmp_value))                       \
  R(size_t, TYPENAME##_wait_until_some, wait_until_some, sizeof(TYPE),                               \
    (TYPE * ivars, size_t nelems, size_t* indices, const int* status, int cmp, TYPE cmp_value))      \
  R(void, TYPENAME##_wait_until_all_vector, wait_until_all_vector, sizeof(TYPE),                     \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE* cmp_values))                     \
  R(size_t, TYPENAME##_wait_until_any_vector, wait_until_any_vector, sizeof(TYPE),                   \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE* cmp_values))                     \
  R(size_t, TYPENAME##_wait_until_some_vector, wait_until_some_vector, sizeof(TYPE),                 \
    (TYPE * ivars, size_t nelems, size_t* indices, const int* status, int cmp, TYPE* cmp_values))    \
  R(int, TYPENAME##_test_all, test_all, sizeof(TYPE),                                                \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE cmp_value))                       \
  R(size_t, TYPENAME##_test_any, test_any, sizeof(TYPE),                                             \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE cmp_value))                       \
  R(size_t, TYPENAME##_test_some, test_some, sizeof(TYPE),                                           \
    (TYPE * ivars, size_t nelems, size_t* indices, const int* status, int cmp, TYPE cmp_value))      \
  R(int, TYPENAME##_test_all_vector, test_all_vector, sizeof(TYPE),                                  \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE* cmp_values))                     \
  R(size_t, TYPENAME##_test_any_vector, test_any_vector, sizeof(TYPE),                               \
    (TYPE * ivars, size_t nelems, const int* status, int cmp, TYPE* cmp_values))                     \
  R(size_t, TYPENAME##_test_some_vector, test_some_vector, sizeof(TYPE),                             \
    (TYPE * ivars, size_t nelems, size_t* indices, const int* status, int cmp, TYPE* cmp_values))

/* ------------------------------------------------------------------ declarations */
#define SHMEMSIM_SIGNAL_TYPED_DECLARE_(TYPE, TYPENAME) SHMEMSIM_SIGNAL_TYPED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_SIGNAL_SIZED_DECLARE_(SIZE) SHMEMSIM_SIGNAL_SIZED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, SIZE)
#define SHMEMSIM_P2P_VECTOR_DECLARE_(TYPE, TYPENAME) SHMEMSIM_P2P_VECTOR_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)

SHMEMSIM_RMA_TYPES(SHMEMSIM_SIGNAL_TYPED_DECLARE_)
SHMEMSIM_SIZES(SHMEMSIM_SIGNAL_SIZED_DECLARE_)
SHMEMSIM_SIGNAL_MEM_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX)
uint64_t shmem_signal_fetch(const uint64_t* sig_addr);
uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value);

SHMEMSIM_P2P_TYPES(SHMEMSIM_P2P_VECTOR_DECLARE_)
SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_P2P_VECTOR_DECLARE_)

#undef SHMEMSIM_SIGNAL_TYPED_DECLARE_
#undef SHMEMSIM_SIGNAL_SIZED_DECLARE_
#undef SHMEMSIM_P2P_VECTOR_DECLARE_

/* ------------------------------------------------------------------ distributed locks (§9.12)
 * `lock` is a symmetric long, 0 before first use (an MCS queue: the tail at PE 0, one queue node
 * per PE in each PE's copy). shmem_clear_lock quiets the calling PE's contexts before releasing. */
void shmem_set_lock(long* lock);
void shmem_clear_lock(long* lock);
int shmem_test_lock(long* lock);

/* ------------------------------------------------------------------ deprecated (still in 1.5) */
void start_pes(int npes);
void* shmalloc(size_t size);
void shfree(void* ptr);
void* shrealloc(void* ptr, size_t size);
void* shmemalign(size_t alignment, size_t size);
int _my_pe(void);
int _num_pes(void);
/* Cache management: no-ops (the simulated memory is coherent). */
void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void* dest);
void shmem_set_cache_line_inv(void* dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void* dest);

/* ------------------------------------------------------------------ profiling (§11) */
void shmem_pcontrol(const int level, ...);

/* Name-shifted entry points: every routine NAME below (shmem_*, and the shmemx_* extensions) is
 * also exported as pNAME, the same routine (start_pes -> pstart_pes, _my_pe -> p_my_pe, ...). A
 * profiler defines its own shmem_X and calls pshmem_X. The C11 type-generic macros have no
 * pshmem_ form (§11). SHMEMSIM_PSHMEM_NAMES(N) calls N(name) for every such routine; the library
 * defines the pNAME entry points from the same list (shmem_front/lib/profiling.cpp). */
#define SHMEMSIM_PN_WITH_CTX_(RET, NAME, KIND, ELEM, PARAMS) SHMEMSIM_PN_(shmem_##NAME) SHMEMSIM_PN_(shmem_ctx_##NAME)
#define SHMEMSIM_PN_PLAIN_(RET, NAME, KIND, ELEM, PARAMS) SHMEMSIM_PN_(shmem_##NAME)
#define SHMEMSIM_PN_RMA_TYPED_(TYPE, TYPENAME) SHMEMSIM_RMA_TYPED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, TYPE, TYPENAME)
#define SHMEMSIM_PN_RMA_SIZED_(SIZE) SHMEMSIM_RMA_SIZED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, SIZE)
#define SHMEMSIM_PN_AMO_EXT_(TYPE, TYPENAME) SHMEMSIM_AMO_EXTENDED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, TYPE, TYPENAME)
#define SHMEMSIM_PN_AMO_STD_(TYPE, TYPENAME) SHMEMSIM_AMO_STANDARD_ROUTINES(SHMEMSIM_PN_WITH_CTX_, TYPE, TYPENAME)
#define SHMEMSIM_PN_AMO_BIT_(TYPE, TYPENAME) SHMEMSIM_AMO_BITWISE_ROUTINES(SHMEMSIM_PN_WITH_CTX_, TYPE, TYPENAME)
#define SHMEMSIM_PN_AMO_DEP_(TYPE, TYPENAME) SHMEMSIM_AMO_DEPRECATED_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_AMO_DEPX_(TYPE, TYPENAME) SHMEMSIM_AMO_DEPRECATED_EXTENDED_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_P2P_(TYPE, TYPENAME) SHMEMSIM_P2P_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_WAIT_(TYPE, TYPENAME) SHMEMSIM_WAIT_DEPRECATED_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_P2P_VECTOR_(TYPE, TYPENAME) SHMEMSIM_P2P_VECTOR_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_SIGNAL_TYPED_(TYPE, TYPENAME) SHMEMSIM_SIGNAL_TYPED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, TYPE, TYPENAME)
#define SHMEMSIM_PN_SIGNAL_SIZED_(SIZE) SHMEMSIM_SIGNAL_SIZED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, SIZE)

/* Routines written by hand (not generated from tables), by family. */
#define SHMEMSIM_PSHMEM_HAND_NAMES_(N)                                                                     \
  /* setup, query, memory, contexts (shmem.h) */                                                           \
  N(shmem_init) N(shmem_init_thread) N(shmem_finalize) N(shmem_global_exit) N(shmem_my_pe) N(shmem_n_pes)  \
  N(shmem_pe_accessible) N(shmem_addr_accessible) N(shmem_ptr) N(shmem_info_get_version)                   \
  N(shmem_info_get_name) N(shmem_query_thread) N(shmem_malloc) N(shmem_calloc) N(shmem_realloc)            \
  N(shmem_align) N(shmem_malloc_with_hints) N(shmem_free) N(shmem_ctx_create) N(shmem_ctx_destroy)         \
  N(shmem_ctx_get_team)                                                                                    \
  /* RMA on bytes, ordering, barrier_all/sync_all */                                                       \
  N(shmem_putmem) N(shmem_getmem) N(shmem_putmem_nbi) N(shmem_getmem_nbi) N(shmem_ctx_putmem)              \
  N(shmem_ctx_getmem) N(shmem_ctx_putmem_nbi) N(shmem_ctx_getmem_nbi) N(shmem_fence) N(shmem_ctx_fence)    \
  N(shmem_quiet) N(shmem_ctx_quiet) N(shmem_barrier_all) N(shmem_sync_all)                                 \
  /* signals, locks, deprecated, profiling (this header) */                                                \
  N(shmem_signal_fetch) N(shmem_signal_wait_until) N(shmem_set_lock) N(shmem_clear_lock)                   \
  N(shmem_test_lock) N(start_pes) N(shmalloc) N(shfree) N(shrealloc) N(shmemalign) N(_my_pe) N(_num_pes)    \
  N(shmem_clear_cache_inv) N(shmem_set_cache_inv) N(shmem_clear_cache_line_inv)                            \
  N(shmem_set_cache_line_inv) N(shmem_udcflush) N(shmem_udcflush_line) N(shmem_pcontrol)

/* Teams and collectives (shmem_teams_coll.h, included before this header): its tables, each
 * only if that header defines it, and its hand-written routines. */
#ifdef SHMEM_TEAM_WORLD
#define SHMEMSIM_PN_TEAMS_HAND_(N)                                                                       \
  N(shmem_team_my_pe) N(shmem_team_n_pes) N(shmem_team_get_config) N(shmem_team_translate_pe)            \
  N(shmem_team_split_strided) N(shmem_team_split_2d) N(shmem_team_destroy) N(shmem_team_create_ctx)      \
  N(shmem_team_ptr)                                                                                      \
  N(shmem_barrier) N(shmem_team_sync) N(shmem_sync)
#else
#define SHMEMSIM_PN_TEAMS_HAND_(N)
#endif
#if defined(SHMEMSIM_COLL_TYPED_ROUTINES) && defined(SHMEMSIM_RMA_TYPES)
#define SHMEMSIM_PN_COLL_TYPED_(TYPE, TYPENAME) SHMEMSIM_COLL_TYPED_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_COLL_TYPED_ALL_ SHMEMSIM_RMA_TYPES(SHMEMSIM_PN_COLL_TYPED_)
#else
#define SHMEMSIM_PN_COLL_TYPED_ALL_
#endif
#ifdef SHMEMSIM_COLL_MEM_ROUTINES
#define SHMEMSIM_PN_COLL_MEM_ALL_ SHMEMSIM_COLL_MEM_ROUTINES(SHMEMSIM_PN_PLAIN_)
#else
#define SHMEMSIM_PN_COLL_MEM_ALL_
#endif
#if defined(SHMEMSIM_COLL_SIZED_ROUTINES) && defined(SHMEMSIM_COLL_SIZES)
#define SHMEMSIM_PN_COLL_SIZED_(SIZE) SHMEMSIM_COLL_SIZED_ROUTINES(SHMEMSIM_PN_PLAIN_, SIZE)
#define SHMEMSIM_PN_COLL_SIZED_ALL_ SHMEMSIM_COLL_SIZES(SHMEMSIM_PN_COLL_SIZED_)
#else
#define SHMEMSIM_PN_COLL_SIZED_ALL_
#endif
#if defined(SHMEMSIM_REDUCE_BITWISE_ROUTINES) && defined(SHMEMSIM_REDUCE_MINMAX_ROUTINES) &&            \
    defined(SHMEMSIM_REDUCE_ARITH_ROUTINES)
#define SHMEMSIM_PN_RED_BIT_(TYPE, TYPENAME) SHMEMSIM_REDUCE_BITWISE_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_RED_MINMAX_(TYPE, TYPENAME) SHMEMSIM_REDUCE_MINMAX_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_RED_ARITH_(TYPE, TYPENAME) SHMEMSIM_REDUCE_ARITH_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_REDUCE_ALL_                                                                          \
  SHMEMSIM_REDUCE_BITWISE_TYPES(SHMEMSIM_PN_RED_BIT_) SHMEMSIM_REDUCE_MINMAX_TYPES(SHMEMSIM_PN_RED_MINMAX_) \
  SHMEMSIM_REDUCE_ARITH_TYPES(SHMEMSIM_PN_RED_ARITH_)
#else
#define SHMEMSIM_PN_REDUCE_ALL_
#endif
#if defined(SHMEMSIM_TO_ALL_BITWISE_ROUTINES) && defined(SHMEMSIM_TO_ALL_MINMAX_ROUTINES) &&            \
    defined(SHMEMSIM_TO_ALL_ARITH_ROUTINES)
#define SHMEMSIM_PN_TOALL_BIT_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_BITWISE_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_TOALL_MINMAX_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_MINMAX_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_TOALL_ARITH_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_ARITH_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
#define SHMEMSIM_PN_TO_ALL_ALL_                                                                          \
  SHMEMSIM_TO_ALL_BITWISE_TYPES(SHMEMSIM_PN_TOALL_BIT_) SHMEMSIM_TO_ALL_MINMAX_TYPES(SHMEMSIM_PN_TOALL_MINMAX_) \
  SHMEMSIM_TO_ALL_ARITH_TYPES(SHMEMSIM_PN_TOALL_ARITH_)
#else
#define SHMEMSIM_PN_TO_ALL_ALL_
#endif
#define SHMEMSIM_PSHMEM_TEAMS_COLL_NAMES_(N)                                                             \
  SHMEMSIM_PN_TEAMS_HAND_(N) SHMEMSIM_PN_COLL_TYPED_ALL_ SHMEMSIM_PN_COLL_MEM_ALL_ SHMEMSIM_PN_COLL_SIZED_ALL_ \
  SHMEMSIM_PN_REDUCE_ALL_ SHMEMSIM_PN_TO_ALL_ALL_

/* Every routine of shmem.h with a pshmem_ form. SHMEMSIM_PN_ must be defined as N when it expands. */
#define SHMEMSIM_PSHMEM_NAMES_()                                                                 \
  SHMEMSIM_PSHMEM_HAND_NAMES_(SHMEMSIM_PN_)                                                      \
  SHMEMSIM_PSHMEM_TEAMS_COLL_NAMES_(SHMEMSIM_PN_)                                                \
  SHMEMSIM_RMA_TYPES(SHMEMSIM_PN_RMA_TYPED_) SHMEMSIM_SIZES(SHMEMSIM_PN_RMA_SIZED_)               \
  SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMSIM_PN_AMO_EXT_) SHMEMSIM_AMO_STANDARD_TYPES(SHMEMSIM_PN_AMO_STD_) \
  SHMEMSIM_AMO_BITWISE_TYPES(SHMEMSIM_PN_AMO_BIT_) SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMSIM_PN_AMO_DEP_) \
  SHMEMSIM_AMO_DEPRECATED_EXTENDED_TYPES(SHMEMSIM_PN_AMO_DEPX_)                                   \
  SHMEMSIM_P2P_TYPES(SHMEMSIM_PN_P2P_) SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_PN_P2P_)            \
  SHMEMSIM_WAIT_DEPRECATED_TYPES(SHMEMSIM_PN_WAIT_) SHMEMSIM_P2P_LONG_ROUTINES(SHMEMSIM_PN_PLAIN_) \
  SHMEMSIM_P2P_TYPES(SHMEMSIM_PN_P2P_VECTOR_) SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_PN_P2P_VECTOR_)   \
  SHMEMSIM_RMA_TYPES(SHMEMSIM_PN_SIGNAL_TYPED_) SHMEMSIM_SIZES(SHMEMSIM_PN_SIGNAL_SIZED_)         \
  SHMEMSIM_SIGNAL_MEM_ROUTINES(SHMEMSIM_PN_WITH_CTX_)                                             \
  SHMEMSIM_PSHMEM_SPEC16_NAMES_(SHMEMSIM_PN_)

/* Declarations: pNAME has the type of NAME. */
#ifdef __cplusplus
#define SHMEMSIM_PDECL_(NAME) decltype(NAME) p##NAME;
#else
#define SHMEMSIM_PDECL_(NAME) __typeof__(NAME) p##NAME;
#endif
#define SHMEMSIM_PN_ SHMEMSIM_PDECL_
SHMEMSIM_PSHMEM_NAMES_()
#undef SHMEMSIM_PN_
