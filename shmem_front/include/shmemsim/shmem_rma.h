/* Declarations of the OpenSHMEM RMA routines on typed and sized elements (OpenSHMEM 1.5 §9.5:
 * put, get, p, g, iput, iget, put_nbi, get_nbi, each with its shmem_ctx_ form); included by
 * shmem.h inside extern "C". putmem/getmem are declared in shmem.h itself.
 *
 * Every family is a table of routine rows
 *     R(RET, NAME, KIND, ELEM, PARAMS)
 * RET the return type, NAME the routine name without "shmem_" / "shmem_ctx_", KIND the operation
 * (the library selects its body by it), ELEM the element size in bytes, PARAMS the parameter
 * list (without the context). The same rows generate these declarations and the library's
 * definitions (shmem_front/lib/rma_typed.cpp, amo.cpp, p2p.cpp), so the two cannot drift apart. The helper macros below are
 * also used by shmem_amo.h, shmem_p2p.h and shmemx.h. */
#pragma once

#define SHMEMSIM_UNPAREN(...) __VA_ARGS__

/* Declares shmem_NAME(PARAMS) and shmem_ctx_NAME(shmem_ctx_t ctx, PARAMS). */
#define SHMEMSIM_DECLARE_WITH_CTX(RET, NAME, KIND, ELEM, PARAMS) \
  RET shmem_##NAME PARAMS;                                        \
  RET shmem_ctx_##NAME(shmem_ctx_t ctx, SHMEMSIM_UNPAREN PARAMS);

/* Declares shmem_NAME(PARAMS) only (routines without a context form). */
#define SHMEMSIM_DECLARE(RET, NAME, KIND, ELEM, PARAMS) RET shmem_##NAME PARAMS;

/* ------------------------------------------------------------------ typed RMA (§9.5.1-9.5.8)
 * For every TYPE/TYPENAME of SHMEMSIM_RMA_TYPES. Strides dst/sst count elements. */
#define SHMEMSIM_RMA_TYPED_ROUTINES(R, TYPE, TYPENAME)                                                                   \
  R(void, TYPENAME##_put, put, sizeof(TYPE), (TYPE * dest, const TYPE* source, size_t nelems, int pe))                   \
  R(void, TYPENAME##_get, get, sizeof(TYPE), (TYPE * dest, const TYPE* source, size_t nelems, int pe))                   \
  R(void, TYPENAME##_put_nbi, put_nbi, sizeof(TYPE), (TYPE * dest, const TYPE* source, size_t nelems, int pe))           \
  R(void, TYPENAME##_get_nbi, get_nbi, sizeof(TYPE), (TYPE * dest, const TYPE* source, size_t nelems, int pe))           \
  R(void, TYPENAME##_p, p, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                                              \
  R(TYPE, TYPENAME##_g, g, sizeof(TYPE), (const TYPE* source, int pe))                                                   \
  R(void, TYPENAME##_iput, iput, sizeof(TYPE),                                                                           \
    (TYPE * dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))                              \
  R(void, TYPENAME##_iget, iget, sizeof(TYPE),                                                                           \
    (TYPE * dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))

/* ------------------------------------------------------------------ sized RMA
 * For every SIZE (bits) of SHMEMSIM_SIZES: shmem_putSIZE, shmem_putSIZE_nbi, shmem_getSIZE,
 * shmem_getSIZE_nbi, shmem_iputSIZE, shmem_igetSIZE (and the shmem_ctx_ forms). */
#define SHMEMSIM_RMA_SIZED_ROUTINES(R, SIZE)                                                                       \
  R(void, put##SIZE, put, (SIZE / 8), (void* dest, const void* source, size_t nelems, int pe))                     \
  R(void, get##SIZE, get, (SIZE / 8), (void* dest, const void* source, size_t nelems, int pe))                     \
  R(void, put##SIZE##_nbi, put_nbi, (SIZE / 8), (void* dest, const void* source, size_t nelems, int pe))           \
  R(void, get##SIZE##_nbi, get_nbi, (SIZE / 8), (void* dest, const void* source, size_t nelems, int pe))           \
  R(void, iput##SIZE, iput, (SIZE / 8),                                                                            \
    (void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))                         \
  R(void, iget##SIZE, iget, (SIZE / 8), (void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe))

#define SHMEMSIM_RMA_TYPED_DECLARE_(TYPE, TYPENAME) SHMEMSIM_RMA_TYPED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_RMA_SIZED_DECLARE_(SIZE) SHMEMSIM_RMA_SIZED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, SIZE)

SHMEMSIM_RMA_TYPES(SHMEMSIM_RMA_TYPED_DECLARE_)
SHMEMSIM_SIZES(SHMEMSIM_RMA_SIZED_DECLARE_)

#undef SHMEMSIM_RMA_TYPED_DECLARE_
#undef SHMEMSIM_RMA_SIZED_DECLARE_
