/* shmemx.h: shmemsim extensions to OpenSHMEM 1.5.
 *
 * THE CONTEXTS API OF THE PAPER, UNDER shmemx_ NAMES
 * Dinan & Flajslik, "Contexts: A Mechanism for High Throughput Communication in OpenSHMEM"
 * (PGAS'14), Section 3, Listings 1-4, proposed the API below before OpenSHMEM 1.4 standardized
 * contexts differently. It is reproduced here as the paper writes it, with shmemx_ for shmem_:
 *
 *   paper                                                               here
 *   int  shmem_ctx_create(int num_ctx, int assertion, shmem_ctx_t ctx[])  shmemx_ctx_create
 *   void shmem_ctx_destroy(int num_ctx, shmem_ctx_t ctx[])                shmemx_ctx_destroy
 *   void shmem_ctx_putmem_nb(ctx, void *target, const void *source,
 *                            size_t len, int pe)                          shmemx_ctx_putmem_nb
 *   void shmem_ctx_getmem_nb(... same ...)                                shmemx_ctx_getmem_nb
 *   void shmem_ctx_TYPENAME_put_nb / _get_nb (Listing 4's
 *        shmem_ctx_int_put_nb; here for every 1.5 RMA TYPENAME)           shmemx_ctx_TYPENAME_put_nb/_get_nb
 *   int  shmem_ctx_int_fadd_nb(ctx, int *target, int value, int pe)
 *        (here also long, longlong: the 1.3 fadd types)                   shmemx_ctx_TYPENAME_fadd_nb
 *   void shmem_ctx_fence(ctx), void shmem_ctx_quiet(ctx)                  shmemx_ctx_fence, shmemx_ctx_quiet
 *   void shmem_sync(int PE_start, int logPE_stride, int PE_size,
 *                   long *pSync)                                          shmemx_sync
 *   void shmem_sync_all(void)                                             shmemx_sync_all
 *
 * Semantics
 * - Contexts are the library's contexts: a shmem_ctx_t from shmemx_ctx_create works with every
 *   shmem_ctx_* routine of OpenSHMEM 1.5 and the reverse. SHMEM_CTX_DEFAULT is usable everywhere.
 * - shmemx_ctx_create creates num_ctx contexts (not collective). `assertion` is a thread level as
 *   in the paper: SHMEM_THREAD_SERIALIZED or SHMEM_THREAD_FUNNELED assert serialized use
 *   (SHMEM_CTX_SERIALIZED), SHMEM_THREAD_MULTIPLE and 0 (SHMEM_THREAD_SINGLE) assert nothing.
 *   If resources run out it destroys the contexts it made, sets all num_ctx handles to
 *   SHMEM_CTX_INVALID and returns non-zero; 0 on success.
 * - shmemx_ctx_destroy quiets and destroys each of the num_ctx contexts.
 * - The _nb routines are non-blocking (the buffers must not be touched until completion);
 *   they complete at the context's quiet (shmemx_ctx_quiet / shmem_ctx_quiet); shmem_barrier_all
 *   completes them only on the default context (the paper, section 3: the barrier's implicit
 *   quiet "is performed on the default context"). The paper's fadd_nb returns the fetched value and has no place to deliver
 *   it later, so it returns once the value is there (like a blocking fetch-add on `ctx`); for a
 *   truly non-blocking fetch-add use 1.5's shmem_ctx_int_atomic_fetch_add_nbi.
 * - shmemx_sync / shmemx_sync_all are the paper's "loud" barriers: they synchronize the PEs of
 *   the active set (all PEs) WITHOUT a quiet, so non-blocking operations issued before may still
 *   be in flight after them. pSync: SHMEM_SYNC_SIZE longs, symmetric, all SHMEM_SYNC_VALUE
 *   before first use; it is SHMEM_SYNC_VALUE again when every PE of the set has returned.
 *
 * SHMEMSIM_PAPER_NAMES: COMPILING A PROGRAM WRITTEN AGAINST THE PAPER UNCHANGED
 * With -DSHMEMSIM_PAPER_NAMES the paper's own names are mapped to these:
 * - Names that are not in OpenSHMEM 1.5 (shmem_ctx_putmem_nb, shmem_ctx_getmem_nb,
 *   shmem_ctx_TYPENAME_put_nb/_get_nb, shmem_ctx_TYPENAME_fadd_nb) are static inline functions
 *   calling the shmemx_ ones.
 * - Names 1.5 also has with a DIFFERENT signature are function-like macros dispatching on the
 *   number of arguments, so 1.5 calls in the same program keep working:
 *     shmem_ctx_create(num, assertion, ctx)  -> shmemx_ctx_create   (2 arguments: 1.5's)
 *     shmem_ctx_destroy(num, ctx)            -> shmemx_ctx_destroy  (1 argument: 1.5's)
 *     shmem_sync(start, logstride, size, pSync) -> shmemx_sync      (1 argument: 1.5's team form,
 *                                               shmem_team_sync)
 *     shmem_init(level)                      -> shmem_init_thread(level, &provided)
 *                                               (Listing 2; no argument: 1.5's; C only)
 *   These macros hide the names only when followed by "(": taking the address of the 1.5
 *   functions is unaffected.
 * - shmem_ctx_fence, shmem_ctx_quiet, shmem_sync_all and Listing 4's blocking shmem_ctx_int_get
 *   have the same signature and meaning in 1.5 and need no mapping.
 */
#ifndef SHMEMX_H
#define SHMEMX_H

#include <shmem.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows R(RET, NAME, KIND, ELEM, PARAMS) as in shmemsim/shmem_rma.h; NAME follows "shmemx_". */
#define SHMEMX_NB_MEM_ROUTINES(R)                                                                    \
  R(void, ctx_putmem_nb, put_nb, 1, (shmem_ctx_t ctx, void* target, const void* source, size_t len, int pe)) \
  R(void, ctx_getmem_nb, get_nb, 1, (shmem_ctx_t ctx, void* target, const void* source, size_t len, int pe))
#define SHMEMX_NB_TYPED_ROUTINES(R, TYPE, TYPENAME)                                          \
  R(void, ctx_##TYPENAME##_put_nb, put_nb, sizeof(TYPE),                                     \
    (shmem_ctx_t ctx, TYPE * target, const TYPE* source, size_t len, int pe))                \
  R(void, ctx_##TYPENAME##_get_nb, get_nb, sizeof(TYPE),                                     \
    (shmem_ctx_t ctx, TYPE * target, const TYPE* source, size_t len, int pe))
#define SHMEMX_FADD_NB_ROUTINES(R, TYPE, TYPENAME) \
  R(TYPE, ctx_##TYPENAME##_fadd_nb, fadd_nb, sizeof(TYPE), (shmem_ctx_t ctx, TYPE * target, TYPE value, int pe))

#define SHMEMX_DECLARE(RET, NAME, KIND, ELEM, PARAMS) RET shmemx_##NAME PARAMS;
#define SHMEMX_NB_TYPED_DECLARE_(TYPE, TYPENAME) SHMEMX_NB_TYPED_ROUTINES(SHMEMX_DECLARE, TYPE, TYPENAME)
#define SHMEMX_FADD_NB_DECLARE_(TYPE, TYPENAME) SHMEMX_FADD_NB_ROUTINES(SHMEMX_DECLARE, TYPE, TYPENAME)

/* Creation and destruction (local) */
int shmemx_ctx_create(int num_ctx, int assertion, shmem_ctx_t ctx[]);
void shmemx_ctx_destroy(int num_ctx, shmem_ctx_t ctx[]);

/* Communication (one-sided, non-blocking: completed by the context's quiet) */
SHMEMX_NB_MEM_ROUTINES(SHMEMX_DECLARE)
SHMEMSIM_RMA_TYPES(SHMEMX_NB_TYPED_DECLARE_)
SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMX_FADD_NB_DECLARE_)

/* Completion and ordering (one-sided) */
void shmemx_ctx_fence(shmem_ctx_t ctx);
void shmemx_ctx_quiet(shmem_ctx_t ctx);

/* Synchronization without quiet (collective) */
void shmemx_sync(int PE_start, int logPE_stride, int PE_size, long* pSync);
void shmemx_sync_all(void);

#undef SHMEMX_NB_TYPED_DECLARE_
#undef SHMEMX_FADD_NB_DECLARE_

/* ------------------------------------------------------------------ the paper's own names */
#ifdef SHMEMSIM_PAPER_NAMES

#define SHMEMX_ARGS_put_nb (ctx, target, source, len, pe)
#define SHMEMX_ARGS_get_nb (ctx, target, source, len, pe)
#define SHMEMX_ARGS_fadd_nb (ctx, target, value, pe)
#define SHMEMX_RETURN_put_nb
#define SHMEMX_RETURN_get_nb
#define SHMEMX_RETURN_fadd_nb return
#define SHMEMX_PAPER_ALIAS(RET, NAME, KIND, ELEM, PARAMS) \
  static inline RET shmem_##NAME PARAMS { SHMEMX_RETURN_##KIND shmemx_##NAME SHMEMX_ARGS_##KIND; }
#define SHMEMX_NB_TYPED_ALIAS_(TYPE, TYPENAME) SHMEMX_NB_TYPED_ROUTINES(SHMEMX_PAPER_ALIAS, TYPE, TYPENAME)
#define SHMEMX_FADD_NB_ALIAS_(TYPE, TYPENAME) SHMEMX_FADD_NB_ROUTINES(SHMEMX_PAPER_ALIAS, TYPE, TYPENAME)

SHMEMX_NB_MEM_ROUTINES(SHMEMX_PAPER_ALIAS)
SHMEMSIM_RMA_TYPES(SHMEMX_NB_TYPED_ALIAS_)
SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMX_FADD_NB_ALIAS_)

#undef SHMEMX_NB_TYPED_ALIAS_
#undef SHMEMX_FADD_NB_ALIAS_

/* Dispatch on the number of arguments: the paper's form, else the OpenSHMEM 1.5 function (a
 * macro's own name is not expanded again inside its expansion, so it calls the function). */
#define SHMEMX_PICK2_(a1, a2, NAME, ...) NAME
#define SHMEMX_PICK3_(a1, a2, a3, NAME, ...) NAME
#define SHMEMX_PICK4_(a1, a2, a3, a4, NAME, ...) NAME
#define shmem_ctx_create(...) SHMEMX_PICK3_(__VA_ARGS__, shmemx_ctx_create, shmem_ctx_create, ~)(__VA_ARGS__)
#define shmem_ctx_destroy(...) SHMEMX_PICK2_(__VA_ARGS__, shmemx_ctx_destroy, shmem_ctx_destroy, ~)(__VA_ARGS__)
#undef shmem_sync /* shmem.h's C11 team form: the one-argument case below keeps it */
#define shmem_sync(...) SHMEMX_PICK4_(__VA_ARGS__, shmemx_sync, ~, ~, shmem_team_sync, ~)(__VA_ARGS__)

#ifndef __cplusplus
/* Listing 2's shmem_init(SHMEM_THREAD_MULTIPLE): `levels` is {-1} or {-1, level}. */
static inline void shmemx_paper_init_(size_t n, const int* levels)
{
  int provided;
  if (n < 2)
    shmem_init();
  else
    shmem_init_thread(levels[1], &provided);
}
#define shmem_init(...) \
  shmemx_paper_init_(sizeof((int[]){-1, __VA_ARGS__}) / sizeof(int), (const int[]){-1, __VA_ARGS__})
#endif

#endif /* SHMEMSIM_PAPER_NAMES */


/* ============================================================== ORNL EXTENSIONS (seed 003)
 * "OpenSHMEM Extensions and a Vision for Its Future Direction" (ORNL): explicit active sets,
 * non-blocking RMA/AMO and collectives with request handles, graceful finalize and abort.
 * Under shmemx_ names that cannot be confused with the contexts paper's _nb routines above
 * (those are completed by quiet; these are NOT): request-handle routines end in _req, active-set
 * collectives in _aset / _aset_req. -DSHMEMSIM_SEED_NAMES gives the seed's own names
 * (shmem_create_strided_aset, shmem_int_get_nb, shmem_wait_request, shmem_barrier_nb, ...).
 * Semantics and the forms chosen where the seed shows only usage: docs/extensions.md.
 *
 *   seed                                                     here
 *   shmem_aset                                               shmemx_aset
 *   shmem_offset_fn                                          shmemx_offset_fn
 *   shmem_create_strided_aset(start, stride, size)           shmemx_create_strided_aset
 *   shmem_create_log_strided_aset(start, log_stride, size,
 *                                 stride_base)               shmemx_create_log_strided_aset
 *   shmem_create_custom_aset(start, fn, size, params)        shmemx_create_custom_aset
 *   shmem_create_generic_aset(PE_list, size)                 shmemx_create_generic_aset
 *   shmem_in_aset, shmem_aset_size, shmem_delete_aset        shmemx_in_aset, ...
 *   shmem_barrier_aset(aset, pSync)                          shmemx_barrier_aset
 *   shmem_request_handle_t                                   shmemx_request_handle_t
 *   shmem_TYPENAME_put_nb / _get_nb, shmem_putmem_nb, ...    shmemx_TYPENAME_put_req / _get_req, ...
 *   shmem_wait_request(req), shmem_test_request(req)         shmemx_wait_request, shmemx_test_request
 *   shmem_barrier_nb(aset, pSync, &req)                      shmemx_barrier_aset_req
 *   shmem_broadcast32_nb(dest, src, n, aset, pSync, &req)    shmemx_broadcast32_aset_req (root: explicit)
 *   shmem_abort(status)                                      shmemx_abort
 * Active sets: creation is local; PEs outside the set get NULL. Requests: only
 * shmemx_wait_request / shmemx_test_request complete them; shmem_quiet does not complete them and
 * shmem_fence does not order them; their buffers are not reusable until then. */

typedef struct shmemx_aset shmemx_aset;
typedef int (*shmemx_offset_fn)(int PE_index, int PE_start, int PE_size, void* const_params);
typedef struct shmemx_request_* shmemx_request_handle_t;
#define SHMEMX_REQUEST_NULL ((shmemx_request_handle_t)0)

/* Explicit active sets (local; NULL on PEs outside the set) */
shmemx_aset* shmemx_create_strided_aset(int PE_start, int PE_stride, int PE_size);
shmemx_aset* shmemx_create_log_strided_aset(int PE_start, int PE_log_stride, int PE_size, int stride_base);
shmemx_aset* shmemx_create_custom_aset(int PE_start, shmemx_offset_fn offset, int PE_size, void* const_params);
shmemx_aset* shmemx_create_generic_aset(int* PE_list, int PE_size);
int shmemx_in_aset(shmemx_aset* aset);
int shmemx_aset_size(shmemx_aset* aset);
void shmemx_delete_aset(shmemx_aset* aset);

/* Completion of requests, shutdown */
void shmemx_wait_request(shmemx_request_handle_t request);
int shmemx_test_request(shmemx_request_handle_t request);
void shmemx_abort(int status);

/* Rows Q(RET, BASE, KIND, ELEM, PARAMS, ARGS): the routine shmemx_BASE_req (seed: shmem_BASE_nb). */
#define SHMEMX_REQ_ARG_ shmemx_request_handle_t* request
#define SHMEMX_REQ_MEM_ROUTINES(Q)                                                                               \
  Q(void, putmem, put, 1, (void* dest, const void* source, size_t nelems, int pe, SHMEMX_REQ_ARG_),           \
    (dest, source, nelems, pe, request))                                                                          \
  Q(void, getmem, get, 1, (void* dest, const void* source, size_t nelems, int pe, SHMEMX_REQ_ARG_),           \
    (dest, source, nelems, pe, request))
#define SHMEMX_REQ_TYPED_ROUTINES(Q, TYPE, TYPENAME)                                                              \
  Q(void, TYPENAME##_put, put, sizeof(TYPE), (TYPE * dest, const TYPE* source, size_t nelems, int pe, SHMEMX_REQ_ARG_), \
    (dest, source, nelems, pe, request))                                                                          \
  Q(void, TYPENAME##_get, get, sizeof(TYPE), (TYPE * dest, const TYPE* source, size_t nelems, int pe, SHMEMX_REQ_ARG_), \
    (dest, source, nelems, pe, request))
#define SHMEMX_REQ_SIZED_ROUTINES(Q, SIZE)                                                                       \
  Q(void, put##SIZE, put, (SIZE / 8), (void* dest, const void* source, size_t nelems, int pe, SHMEMX_REQ_ARG_), \
    (dest, source, nelems, pe, request))                                                                          \
  Q(void, get##SIZE, get, (SIZE / 8), (void* dest, const void* source, size_t nelems, int pe, SHMEMX_REQ_ARG_), \
    (dest, source, nelems, pe, request))
/* AMOs: the fetched value goes to *fetch once the request completes. */
#define SHMEMX_REQ_AMO_EXTENDED_ROUTINES(Q, TYPE, TYPENAME)                                                        \
  Q(void, TYPENAME##_atomic_fetch, fetch, TYPE, (TYPE * fetch, const TYPE* source, int pe, SHMEMX_REQ_ARG_),     \
    (fetch, source, pe, request))                                                                                 \
  Q(void, TYPENAME##_atomic_set, set, TYPE, (TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), (dest, value, pe, request)) \
  Q(void, TYPENAME##_atomic_swap, swap, TYPE, (TYPE * fetch, TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_),  \
    (fetch, dest, value, pe, request))
#define SHMEMX_REQ_AMO_STANDARD_ROUTINES(Q, TYPE, TYPENAME)                                                        \
  Q(void, TYPENAME##_atomic_compare_swap, compare_swap, TYPE,                                                     \
    (TYPE * fetch, TYPE * dest, TYPE cond, TYPE value, int pe, SHMEMX_REQ_ARG_), (fetch, dest, cond, value, pe, request)) \
  Q(void, TYPENAME##_atomic_fetch_inc, fetch_inc, TYPE, (TYPE * fetch, TYPE * dest, int pe, SHMEMX_REQ_ARG_),    \
    (fetch, dest, pe, request))                                                                                   \
  Q(void, TYPENAME##_atomic_inc, inc, TYPE, (TYPE * dest, int pe, SHMEMX_REQ_ARG_), (dest, pe, request))           \
  Q(void, TYPENAME##_atomic_fetch_add, fetch_add, TYPE, (TYPE * fetch, TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), \
    (fetch, dest, value, pe, request))                                                                            \
  Q(void, TYPENAME##_atomic_add, add, TYPE, (TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), (dest, value, pe, request))
#define SHMEMX_REQ_AMO_BITWISE_ROUTINES(Q, TYPE, TYPENAME)                                                         \
  Q(void, TYPENAME##_atomic_fetch_and, fetch_and, TYPE, (TYPE * fetch, TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), \
    (fetch, dest, value, pe, request))                                                                            \
  Q(void, TYPENAME##_atomic_fetch_or, fetch_or, TYPE, (TYPE * fetch, TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), \
    (fetch, dest, value, pe, request))                                                                            \
  Q(void, TYPENAME##_atomic_fetch_xor, fetch_xor, TYPE, (TYPE * fetch, TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), \
    (fetch, dest, value, pe, request))                                                                            \
  Q(void, TYPENAME##_atomic_and, and_, TYPE, (TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), (dest, value, pe, request)) \
  Q(void, TYPENAME##_atomic_or, or_, TYPE, (TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), (dest, value, pe, request)) \
  Q(void, TYPENAME##_atomic_xor, xor_, TYPE, (TYPE * dest, TYPE value, int pe, SHMEMX_REQ_ARG_), (dest, value, pe, request))

/* Active-set collectives. Rows C(RET, BASE, KIND, ELEM, PARAMS, ARGS): blocking shmemx_BASE_aset
 * (seed-style name shmem_BASE_aset), non-blocking shmemx_BASE_aset_req (seed: shmem_BASE_nb). */
#define SHMEMX_ASET_COLL_SIZED_ROUTINES(C, SIZE)                                                                     \
  C(void, broadcast##SIZE, broadcast, (SIZE / 8),                                                                 \
    (void* dest, const void* source, size_t nelems, int PE_root, shmemx_aset* aset, long* pSync),                 \
    (dest, source, nelems, PE_root, aset, pSync))                                                                 \
  C(void, collect##SIZE, collect, (SIZE / 8), (void* dest, const void* source, size_t nelems, shmemx_aset* aset, long* pSync), \
    (dest, source, nelems, aset, pSync))                                                                          \
  C(void, fcollect##SIZE, fcollect, (SIZE / 8), (void* dest, const void* source, size_t nelems, shmemx_aset* aset, long* pSync), \
    (dest, source, nelems, aset, pSync))
#define SHMEMX_ASET_SIZES(X) X(32) X(64)
/* Reductions: TYPE*, like the 1.0 to_all routines with (PE_start, logPE_stride, PE_size) replaced by
 * the set. Blocking: pWrk as in 1.0 (unused here); non-blocking: pWrk of nreduce * set size elements. */
#define SHMEMX_ASET_REDUCE_PARAMS_(TYPE) (TYPE * dest, const TYPE* source, int nreduce, shmemx_aset* aset, TYPE* pWrk, long* pSync)
#define SHMEMX_ASET_REDUCE_ARGS_ (dest, source, nreduce, aset, pWrk, pSync)
#define SHMEMX_ASET_REDUCE_BITWISE_ROUTINES(C, TYPE, TYPENAME)                                           \
  C(void, TYPENAME##_and_to_all, and_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_) \
  C(void, TYPENAME##_or_to_all, or_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_)   \
  C(void, TYPENAME##_xor_to_all, xor_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_)
#define SHMEMX_ASET_REDUCE_ARITH_ROUTINES(C, TYPE, TYPENAME)                                             \
  C(void, TYPENAME##_max_to_all, max_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_) \
  C(void, TYPENAME##_min_to_all, min_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_) \
  C(void, TYPENAME##_sum_to_all, sum_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_) \
  C(void, TYPENAME##_prod_to_all, prod_, TYPE, SHMEMX_ASET_REDUCE_PARAMS_(TYPE), SHMEMX_ASET_REDUCE_ARGS_)
#define SHMEMX_ASET_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define SHMEMX_ASET_ARITH_TYPES(X) SHMEMX_ASET_BITWISE_TYPES(X) X(float, float) X(double, double)

/* Declarations */
#define SHMEMX_REQ_DECLARE_(RET, BASE, KIND, ELEM, PARAMS, ARGS) RET shmemx_##BASE##_req PARAMS;
#define SHMEMX_ASET_DECLARE_(RET, BASE, KIND, ELEM, PARAMS, ARGS) \
  RET shmemx_##BASE##_aset PARAMS;                                 \
  RET shmemx_##BASE##_aset_req(SHMEMSIM_UNPAREN PARAMS, SHMEMX_REQ_ARG_);
#define SHMEMX_REQ_TYPED_DECLARE_(TYPE, TYPENAME) SHMEMX_REQ_TYPED_ROUTINES(SHMEMX_REQ_DECLARE_, TYPE, TYPENAME)
#define SHMEMX_REQ_SIZED_DECLARE_(SIZE) SHMEMX_REQ_SIZED_ROUTINES(SHMEMX_REQ_DECLARE_, SIZE)
#define SHMEMX_REQ_AE_DECLARE_(TYPE, TYPENAME) SHMEMX_REQ_AMO_EXTENDED_ROUTINES(SHMEMX_REQ_DECLARE_, TYPE, TYPENAME)
#define SHMEMX_REQ_AS_DECLARE_(TYPE, TYPENAME) SHMEMX_REQ_AMO_STANDARD_ROUTINES(SHMEMX_REQ_DECLARE_, TYPE, TYPENAME)
#define SHMEMX_REQ_AB_DECLARE_(TYPE, TYPENAME) SHMEMX_REQ_AMO_BITWISE_ROUTINES(SHMEMX_REQ_DECLARE_, TYPE, TYPENAME)
#define SHMEMX_ASET_SIZED_DECLARE_(SIZE) SHMEMX_ASET_COLL_SIZED_ROUTINES(SHMEMX_ASET_DECLARE_, SIZE)
#define SHMEMX_ASET_RB_DECLARE_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_BITWISE_ROUTINES(SHMEMX_ASET_DECLARE_, TYPE, TYPENAME)
#define SHMEMX_ASET_RA_DECLARE_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_ARITH_ROUTINES(SHMEMX_ASET_DECLARE_, TYPE, TYPENAME)

SHMEMX_REQ_MEM_ROUTINES(SHMEMX_REQ_DECLARE_)
SHMEMSIM_RMA_TYPES(SHMEMX_REQ_TYPED_DECLARE_)
SHMEMSIM_SIZES(SHMEMX_REQ_SIZED_DECLARE_)
SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMX_REQ_AE_DECLARE_)
SHMEMSIM_AMO_STANDARD_TYPES(SHMEMX_REQ_AS_DECLARE_)
SHMEMSIM_AMO_BITWISE_TYPES(SHMEMX_REQ_AB_DECLARE_)
void shmemx_barrier_aset(shmemx_aset* aset, long* pSync);
void shmemx_barrier_aset_req(shmemx_aset* aset, long* pSync, SHMEMX_REQ_ARG_);
SHMEMX_ASET_SIZES(SHMEMX_ASET_SIZED_DECLARE_)
SHMEMX_ASET_BITWISE_TYPES(SHMEMX_ASET_RB_DECLARE_)
SHMEMX_ASET_ARITH_TYPES(SHMEMX_ASET_RA_DECLARE_)

/* Profiling interface (OpenSHMEM 1.5 section 11): every routine above is also pshmemx_NAME
 * (trampolines in shmem_front/lib/profiling.cpp). SHMEMX_SEED003_NAMES_(N) calls N(name) for each. */
#define SHMEMX_SEED003_PN_REQ_(RET, BASE, KIND, ELEM, PARAMS, ARGS) SHMEMX_SEED003_N_(shmemx_##BASE##_req)
#define SHMEMX_SEED003_PN_ASET_(RET, BASE, KIND, ELEM, PARAMS, ARGS) \
  SHMEMX_SEED003_N_(shmemx_##BASE##_aset) SHMEMX_SEED003_N_(shmemx_##BASE##_aset_req)
#define SHMEMX_SEED003_PN_TYPED_(TYPE, TYPENAME) SHMEMX_REQ_TYPED_ROUTINES(SHMEMX_SEED003_PN_REQ_, TYPE, TYPENAME)
#define SHMEMX_SEED003_PN_SIZED_(SIZE) SHMEMX_REQ_SIZED_ROUTINES(SHMEMX_SEED003_PN_REQ_, SIZE)
#define SHMEMX_SEED003_PN_AE_(TYPE, TYPENAME) SHMEMX_REQ_AMO_EXTENDED_ROUTINES(SHMEMX_SEED003_PN_REQ_, TYPE, TYPENAME)
#define SHMEMX_SEED003_PN_AS_(TYPE, TYPENAME) SHMEMX_REQ_AMO_STANDARD_ROUTINES(SHMEMX_SEED003_PN_REQ_, TYPE, TYPENAME)
#define SHMEMX_SEED003_PN_AB_(TYPE, TYPENAME) SHMEMX_REQ_AMO_BITWISE_ROUTINES(SHMEMX_SEED003_PN_REQ_, TYPE, TYPENAME)
#define SHMEMX_SEED003_PN_CS_(SIZE) SHMEMX_ASET_COLL_SIZED_ROUTINES(SHMEMX_SEED003_PN_ASET_, SIZE)
#define SHMEMX_SEED003_PN_RB_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_BITWISE_ROUTINES(SHMEMX_SEED003_PN_ASET_, TYPE, TYPENAME)
#define SHMEMX_SEED003_PN_RA_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_ARITH_ROUTINES(SHMEMX_SEED003_PN_ASET_, TYPE, TYPENAME)
/* SHMEMX_SEED003_N_ must be defined as N when it expands. */
#define SHMEMX_SEED003_NAMES_()                                                                             \
  SHMEMX_SEED003_N_(shmemx_create_strided_aset) SHMEMX_SEED003_N_(shmemx_create_log_strided_aset)           \
  SHMEMX_SEED003_N_(shmemx_create_custom_aset) SHMEMX_SEED003_N_(shmemx_create_generic_aset)                \
  SHMEMX_SEED003_N_(shmemx_in_aset) SHMEMX_SEED003_N_(shmemx_aset_size) SHMEMX_SEED003_N_(shmemx_delete_aset) \
  SHMEMX_SEED003_N_(shmemx_wait_request) SHMEMX_SEED003_N_(shmemx_test_request) SHMEMX_SEED003_N_(shmemx_abort) \
  SHMEMX_SEED003_N_(shmemx_barrier_aset) SHMEMX_SEED003_N_(shmemx_barrier_aset_req)                         \
  SHMEMX_REQ_MEM_ROUTINES(SHMEMX_SEED003_PN_REQ_) SHMEMSIM_RMA_TYPES(SHMEMX_SEED003_PN_TYPED_)               \
  SHMEMSIM_SIZES(SHMEMX_SEED003_PN_SIZED_) SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMX_SEED003_PN_AE_)                \
  SHMEMSIM_AMO_STANDARD_TYPES(SHMEMX_SEED003_PN_AS_) SHMEMSIM_AMO_BITWISE_TYPES(SHMEMX_SEED003_PN_AB_)       \
  SHMEMX_ASET_SIZES(SHMEMX_SEED003_PN_CS_) SHMEMX_ASET_BITWISE_TYPES(SHMEMX_SEED003_PN_RB_)                  \
  SHMEMX_ASET_ARITH_TYPES(SHMEMX_SEED003_PN_RA_)
#define SHMEMX_SEED003_N_ SHMEMSIM_PDECL_
SHMEMX_SEED003_NAMES_()
#undef SHMEMX_SEED003_N_

/* ------------------------------------------------------------------ the seed's own names */
#ifdef SHMEMSIM_SEED_NAMES
typedef shmemx_aset shmem_aset;
typedef shmemx_offset_fn shmem_offset_fn;
typedef shmemx_request_handle_t shmem_request_handle_t;
static inline shmem_aset* shmem_create_strided_aset(int PE_start, int PE_stride, int PE_size)
{
  return shmemx_create_strided_aset(PE_start, PE_stride, PE_size);
}
static inline shmem_aset* shmem_create_log_strided_aset(int PE_start, int PE_log_stride, int PE_size, int stride_base)
{
  return shmemx_create_log_strided_aset(PE_start, PE_log_stride, PE_size, stride_base);
}
static inline shmem_aset* shmem_create_custom_aset(int PE_start, shmem_offset_fn offset, int PE_size, void* const_params)
{
  return shmemx_create_custom_aset(PE_start, offset, PE_size, const_params);
}
static inline shmem_aset* shmem_create_generic_aset(int* PE_list, int PE_size)
{
  return shmemx_create_generic_aset(PE_list, PE_size);
}
static inline int shmem_in_aset(shmem_aset* aset) { return shmemx_in_aset(aset); }
static inline int shmem_aset_size(shmem_aset* aset) { return shmemx_aset_size(aset); }
static inline void shmem_delete_aset(shmem_aset* aset) { shmemx_delete_aset(aset); }
static inline void shmem_wait_request(shmem_request_handle_t request) { shmemx_wait_request(request); }
static inline int shmem_test_request(shmem_request_handle_t request) { return shmemx_test_request(request); }
static inline void shmem_abort(int status) { shmemx_abort(status); }
static inline void shmem_barrier_aset(shmem_aset* aset, long* pSync) { shmemx_barrier_aset(aset, pSync); }
/* The seed's shmem_barrier_nb(aset, pSync, &request). */
static inline void shmem_barrier_nb(shmem_aset* aset, long* pSync, shmem_request_handle_t* request)
{
  shmemx_barrier_aset_req(aset, pSync, request);
}
#define SHMEMX_SEED_REQ_ALIAS_(RET, BASE, KIND, ELEM, PARAMS, ARGS) \
  static inline RET shmem_##BASE##_nb PARAMS { shmemx_##BASE##_req ARGS; }
/* Blocking shmem_BASE_aset; non-blocking shmem_BASE_nb with a request as last argument. The
 * seed's broadcast has no root argument (shmem_broadcast32_nb(&y, &x, 1, aset, pSync1, &req)):
 * the root is the set's first PE (index 0); shmemx_broadcast32_aset_req takes any root. */
#define SHMEMX_SEED_ASET_ALIAS_(RET, BASE, KIND, ELEM, PARAMS, ARGS)                                    \
  static inline RET shmem_##BASE##_aset PARAMS { shmemx_##BASE##_aset ARGS; }                            \
  SHMEMX_SEED_NB_##KIND(RET, BASE, PARAMS, ARGS)
#define SHMEMX_SEED_NB_GENERIC_(RET, BASE, PARAMS, ARGS)                                                 \
  static inline RET shmem_##BASE##_nb(SHMEMSIM_UNPAREN PARAMS, SHMEMX_REQ_ARG_)                          \
  {                                                                                                      \
    shmemx_##BASE##_aset_req(SHMEMSIM_UNPAREN ARGS, request);                                            \
  }
#define SHMEMX_SEED_NB_broadcast(RET, BASE, PARAMS, ARGS)                                                \
  static inline RET shmem_##BASE##_nb(void* dest, const void* source, size_t nelems, shmem_aset* aset, \
                                      long* pSync, SHMEMX_REQ_ARG_)                                      \
  {                                                                                                      \
    shmemx_##BASE##_aset_req(dest, source, nelems, 0, aset, pSync, request);                            \
  }
#define SHMEMX_SEED_NB_collect SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_fcollect SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_and_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_or_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_xor_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_max_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_min_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_sum_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_NB_prod_ SHMEMX_SEED_NB_GENERIC_
#define SHMEMX_SEED_REQ_TYPED_(TYPE, TYPENAME) SHMEMX_REQ_TYPED_ROUTINES(SHMEMX_SEED_REQ_ALIAS_, TYPE, TYPENAME)
#define SHMEMX_SEED_REQ_SIZED_(SIZE) SHMEMX_REQ_SIZED_ROUTINES(SHMEMX_SEED_REQ_ALIAS_, SIZE)
#define SHMEMX_SEED_REQ_AE_(TYPE, TYPENAME) SHMEMX_REQ_AMO_EXTENDED_ROUTINES(SHMEMX_SEED_REQ_ALIAS_, TYPE, TYPENAME)
#define SHMEMX_SEED_REQ_AS_(TYPE, TYPENAME) SHMEMX_REQ_AMO_STANDARD_ROUTINES(SHMEMX_SEED_REQ_ALIAS_, TYPE, TYPENAME)
#define SHMEMX_SEED_REQ_AB_(TYPE, TYPENAME) SHMEMX_REQ_AMO_BITWISE_ROUTINES(SHMEMX_SEED_REQ_ALIAS_, TYPE, TYPENAME)
#define SHMEMX_SEED_ASET_SIZED_(SIZE) SHMEMX_ASET_COLL_SIZED_ROUTINES(SHMEMX_SEED_ASET_ALIAS_, SIZE)
#define SHMEMX_SEED_ASET_RB_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_BITWISE_ROUTINES(SHMEMX_SEED_ASET_ALIAS_, TYPE, TYPENAME)
#define SHMEMX_SEED_ASET_RA_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_ARITH_ROUTINES(SHMEMX_SEED_ASET_ALIAS_, TYPE, TYPENAME)
SHMEMX_REQ_MEM_ROUTINES(SHMEMX_SEED_REQ_ALIAS_)
SHMEMSIM_RMA_TYPES(SHMEMX_SEED_REQ_TYPED_)
SHMEMSIM_SIZES(SHMEMX_SEED_REQ_SIZED_)
SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMX_SEED_REQ_AE_)
SHMEMSIM_AMO_STANDARD_TYPES(SHMEMX_SEED_REQ_AS_)
SHMEMSIM_AMO_BITWISE_TYPES(SHMEMX_SEED_REQ_AB_)
SHMEMX_ASET_SIZES(SHMEMX_SEED_ASET_SIZED_)
SHMEMX_ASET_BITWISE_TYPES(SHMEMX_SEED_ASET_RB_)
SHMEMX_ASET_ARITH_TYPES(SHMEMX_SEED_ASET_RA_)
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
/* The seed's type-generic shmem_put_nb / shmem_get_nb (C11), on the type of dest. */
#define SHMEMX_SEED_GEN_(TYPE, TYPENAME, OP) TYPE* : shmem_##TYPENAME##_##OP,
#define shmem_put_nb(dest, ...) \
  _Generic((dest), SHMEMSIM_GEN_RMA_TYPES(SHMEMX_SEED_GEN_, put_nb) void* : shmem_putmem_nb)(dest, __VA_ARGS__)
#define shmem_get_nb(dest, ...) \
  _Generic((dest), SHMEMSIM_GEN_RMA_TYPES(SHMEMX_SEED_GEN_, get_nb) void* : shmem_getmem_nb)(dest, __VA_ARGS__)
#endif
#endif /* SHMEMSIM_SEED_NAMES */
/* ============================================================== end of ORNL EXTENSIONS (seed 003) */
/* ================================================================== ASYNCSHMEM (seed 001)
 * Grossman & Pritchard, "Performance of a Task-Parallel PGAS Programming Model using OpenSHMEM
 * and UCX" (OFA workshop 2017): tasks, futures/promises and communication-driven tasks over
 * OpenSHMEM, on a work-stealing runtime of worker threads per PE (docs/extensions-async.md).
 * Here under shmemx_ names; -DSHMEMSIM_SEED_NAMES also gives the seed's own names (below).
 *
 *   seed                                                          here
 *   void shmem_worker_init(void (*entrypoint)(void *), void *data) shmemx_worker_init
 *   int  shmem_my_worker(void), int shmem_n_workers(void)          shmemx_my_worker, shmemx_n_workers
 *   void shmem_task(void (*body)(void *), void *data)              shmemx_task
 *   void shmem_parallel_for(int lower_bound, int upper_bound,
 *                           void (*body)(int, void *), void *data) shmemx_parallel_for
 *   void shmem_task_scope_begin(void), _end(void)                  shmemx_task_scope_begin, _end
 *   shmem_promise_t *shmem_create_promise(void)                    shmemx_create_promise
 *   shmem_future_t *shmem_future_for_promise(shmem_promise_t *)    shmemx_future_for_promise
 *   void shmem_satisfy_promise(shmem_promise_t *, void *data)      shmemx_satisfy_promise
 *   void *shmem_future_wait(shmem_future_t *)                      shmemx_future_wait
 *   void shmem_task_await(shmem_future_t *, void (*body)(void *),
 *                         void *data)                              shmemx_task_await
 *   shmem_task_future (named by the seed, no signature given):
 *   shmem_future_t *shmem_task_future(void *(*body)(void *),
 *                                     void *data)                  shmemx_task_future
 *   void shmem_int_task_when(int *ivar, int cond, int value,
 *                            void (*body)(void *), void *data)     shmemx_int_task_when
 *   shmem_int_task_when_any (named by the seed, no signature given):
 *   void shmem_int_task_when_any(int *ivars, size_t nelems,
 *        const int *status, int cond, int value,
 *        void (*body)(void *), void *data)                         shmemx_int_task_when_any
 *
 * Semantics
 * - shmemx_worker_init initializes OpenSHMEM (unless the program did; then the contexts runtime
 *   needs SHMEM_THREAD_MULTIPLE), runs entrypoint(data) as the PE's root task on the PE's main
 *   thread (worker 0) and worker threads 1..n-1, returns when the root task and every task made
 *   since have finished, then finalizes OpenSHMEM if it initialized it. n: SHMEM_ASYNC_WORKERS
 *   in the environment, else the scenario key job.async.workers (0: the PE's cores).
 * - The runtime design: SHMEM_ASYNC_RUNTIME, else job.async.runtime: "offload" (one communication
 *   worker performs every SHMEM call of the tasks; the calling task waits and its worker runs other
 *   tasks meanwhile) or "contexts" (each worker issues on a context of its own; shmem_quiet and
 *   the barriers complete every worker's context).
 * - shmemx_my_worker: the calling worker's number (0..n-1); -1 for a thread that is no worker
 *   (the main thread outside shmemx_worker_init is 0). shmemx_n_workers: n.
 * - shmemx_task makes a task counted in the innermost open task scope of the calling task (the
 *   root scope otherwise); its own tasks count there too. shmemx_task_scope_end waits for every
 *   task counted in the scope (nested scopes: the innermost). shmemx_parallel_for makes one task
 *   per index of [lower_bound, upper_bound), no implicit wait.
 * - Promises are single assignment (a second shmemx_satisfy_promise is an error) and belong to
 *   the PE that made them; they live until shmemx_worker_init returns. shmemx_future_wait returns
 *   the value given to shmemx_satisfy_promise; shmemx_task_await runs body(data) once the future
 *   is satisfied; shmemx_task_future runs body(data) as a task and satisfies the returned future
 *   with its result.
 * - shmemx_int_task_when never blocks: body(data) runs as a task once `*ivar cond value` holds
 *   (cond: SHMEM_CMP_*; ivar symmetric), checked at once and then at each update of the PE's
 *   symmetric memory (a delivery, not a poll). _when_any: once it holds for any ivars[i] with
 *   status == NULL or status[i] == 0. Pending ones count in the task scope, like tasks.
 * - Only workers may call the task routines; misuse is one line naming the routine, exit 2.
 */
typedef struct shmemsim_promise shmemx_promise_t;
typedef struct shmemsim_future shmemx_future_t;

/* What the calling PE's runtime counted (its last shmemx_worker_init, or the running one). */
typedef struct {
  int workers;                     /* worker threads */
  int runtime;                     /* SHMEMX_ASYNC_OFFLOAD or SHMEMX_ASYNC_CONTEXTS */
  unsigned long tasks;             /* tasks run (parallel_for ranges split count one each) */
  unsigned long steals;            /* tasks taken from another worker's deque */
  unsigned long offloaded;         /* SHMEM operations performed by the communication worker */
  unsigned long watches_fired;     /* communication-driven tasks made ready */
  unsigned long watcher_wakeups;   /* updates that woke the watcher of communication-driven tasks */
  double comm_busy_s;              /* communication worker performing operations (simulated s) */
  double comm_queue_s;             /* operations waiting for it, summed */
  double span_s;                   /* the root task's start to the end of its last task */
  unsigned long suspensions;       /* tasks suspended while waiting (their worker ran others) */
  unsigned long threads;           /* threads that ran tasks (suspended tasks keep theirs) */
} shmemx_async_stats_t;
#define SHMEMX_ASYNC_OFFLOAD 0
#define SHMEMX_ASYNC_CONTEXTS 1

void shmemx_worker_init(void (*entrypoint)(void*), void* data);
int shmemx_my_worker(void);
int shmemx_n_workers(void);
void shmemx_task(void (*body)(void*), void* data);
void shmemx_parallel_for(int lower_bound, int upper_bound, void (*body)(int, void*), void* data);
void shmemx_task_scope_begin(void);
void shmemx_task_scope_end(void);
shmemx_promise_t* shmemx_create_promise(void);
shmemx_future_t* shmemx_future_for_promise(shmemx_promise_t* promise);
void shmemx_satisfy_promise(shmemx_promise_t* promise, void* data);
void* shmemx_future_wait(shmemx_future_t* future);
void shmemx_task_await(shmemx_future_t* future, void (*body)(void*), void* data);
shmemx_future_t* shmemx_task_future(void* (*body)(void*), void* data);
void shmemx_int_task_when(int* ivar, int cond, int value, void (*body)(void*), void* data);
void shmemx_int_task_when_any(int* ivars, size_t nelems, const int* status, int cond, int value,
                              void (*body)(void*), void* data);
void shmemx_async_stats(shmemx_async_stats_t* stats);

#ifdef SHMEMSIM_SEED_NAMES
/* AsyncSHMEM's own names, exactly as seed 001 writes them. */
typedef shmemx_promise_t shmem_promise_t;
typedef shmemx_future_t shmem_future_t;
static inline void shmem_worker_init(void (*entrypoint)(void*), void* data) { shmemx_worker_init(entrypoint, data); }
static inline int shmem_my_worker(void) { return shmemx_my_worker(); }
static inline int shmem_n_workers(void) { return shmemx_n_workers(); }
static inline void shmem_task(void (*body)(void*), void* data) { shmemx_task(body, data); }
static inline void shmem_parallel_for(int lower_bound, int upper_bound, void (*body)(int, void*), void* data)
{
  shmemx_parallel_for(lower_bound, upper_bound, body, data);
}
static inline void shmem_task_scope_begin(void) { shmemx_task_scope_begin(); }
static inline void shmem_task_scope_end(void) { shmemx_task_scope_end(); }
static inline shmem_promise_t* shmem_create_promise(void) { return shmemx_create_promise(); }
static inline shmem_future_t* shmem_future_for_promise(shmem_promise_t* p) { return shmemx_future_for_promise(p); }
static inline void shmem_satisfy_promise(shmem_promise_t* p, void* data) { shmemx_satisfy_promise(p, data); }
static inline void* shmem_future_wait(shmem_future_t* f) { return shmemx_future_wait(f); }
static inline void shmem_task_await(shmem_future_t* f, void (*body)(void*), void* data) { shmemx_task_await(f, body, data); }
static inline shmem_future_t* shmem_task_future(void* (*body)(void*), void* data) { return shmemx_task_future(body, data); }
static inline void shmem_int_task_when(int* ivar, int cond, int value, void (*body)(void*), void* data)
{
  shmemx_int_task_when(ivar, cond, value, body, data);
}
static inline void shmem_int_task_when_any(int* ivars, size_t nelems, const int* status, int cond, int value,
                                           void (*body)(void*), void* data)
{
  shmemx_int_task_when_any(ivars, nelems, status, cond, value, body, data);
}
#endif /* SHMEMSIM_SEED_NAMES (seed 001) */
/* ================================================================== end of ASYNCSHMEM (seed 001) */

#ifdef __cplusplus
}
#endif

#endif /* SHMEMX_H */
