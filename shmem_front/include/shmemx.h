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

#ifdef __cplusplus
}
#endif

#endif /* SHMEMX_H */
