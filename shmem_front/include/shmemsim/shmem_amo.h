/* Declarations of the OpenSHMEM atomic memory operations (OpenSHMEM 1.5 §9.7), with their
 * shmem_ctx_ forms, and the deprecated OpenSHMEM 1.3 names; included by shmem.h inside
 * extern "C". Rows R(RET, NAME, KIND, ELEM, PARAMS) as described in shmem_rma.h. */
#pragma once

/* ------------------------------------------------------------------ type tables (1.5 Tables 6-8) */
/* Standard AMO types: compare_swap, fetch_inc, inc, fetch_add, add (and their nbi forms). */
#define SHMEMSIM_AMO_STANDARD_TYPES(X)                                                                  \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)        \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)              \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
/* Extended AMO types: fetch, set, swap (and their nbi forms). */
#define SHMEMSIM_AMO_EXTENDED_TYPES(X) SHMEMSIM_AMO_STANDARD_TYPES(X) X(float, float) X(double, double)
/* Bitwise AMO types: and, or, xor (fetching, non-fetching, nbi). */
#define SHMEMSIM_AMO_BITWISE_TYPES(X)                                                                   \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32)      \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
/* Deprecated OpenSHMEM 1.3 names: finc, inc, fadd, add, cswap on these ... */
#define SHMEMSIM_AMO_DEPRECATED_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
/* ... and swap, fetch, set also on float and double. */
#define SHMEMSIM_AMO_DEPRECATED_EXTENDED_TYPES(X) SHMEMSIM_AMO_DEPRECATED_TYPES(X) X(float, float) X(double, double)

/* ------------------------------------------------------------------ routine tables */
#define SHMEMSIM_AMO_EXTENDED_ROUTINES(R, TYPE, TYPENAME)                                                 \
  R(TYPE, TYPENAME##_atomic_fetch, fetch, sizeof(TYPE), (const TYPE* source, int pe))                     \
  R(void, TYPENAME##_atomic_set, set, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                    \
  R(TYPE, TYPENAME##_atomic_swap, swap, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                  \
  R(void, TYPENAME##_atomic_fetch_nbi, fetch_nbi, sizeof(TYPE), (TYPE * fetch, const TYPE* source, int pe)) \
  R(void, TYPENAME##_atomic_swap_nbi, swap_nbi, sizeof(TYPE), (TYPE * fetch, TYPE * dest, TYPE value, int pe))

#define SHMEMSIM_AMO_STANDARD_ROUTINES(R, TYPE, TYPENAME)                                                           \
  R(TYPE, TYPENAME##_atomic_compare_swap, compare_swap, sizeof(TYPE), (TYPE * dest, TYPE cond, TYPE value, int pe)) \
  R(TYPE, TYPENAME##_atomic_fetch_inc, fetch_inc, sizeof(TYPE), (TYPE * dest, int pe))                              \
  R(void, TYPENAME##_atomic_inc, inc, sizeof(TYPE), (TYPE * dest, int pe))                                          \
  R(TYPE, TYPENAME##_atomic_fetch_add, fetch_add, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                  \
  R(void, TYPENAME##_atomic_add, add, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                              \
  R(void, TYPENAME##_atomic_compare_swap_nbi, compare_swap_nbi, sizeof(TYPE),                                       \
    (TYPE * fetch, TYPE * dest, TYPE cond, TYPE value, int pe))                                                     \
  R(void, TYPENAME##_atomic_fetch_inc_nbi, fetch_inc_nbi, sizeof(TYPE), (TYPE * fetch, TYPE * dest, int pe))        \
  R(void, TYPENAME##_atomic_fetch_add_nbi, fetch_add_nbi, sizeof(TYPE), (TYPE * fetch, TYPE * dest, TYPE value, int pe))

/* KIND and_/or_/xor_: `and`, `or`, `xor` are operator tokens in C++ (and macros of <iso646.h>). */
#define SHMEMSIM_AMO_BITWISE_ROUTINES(R, TYPE, TYPENAME)                                                           \
  R(TYPE, TYPENAME##_atomic_fetch_and, fetch_and, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                 \
  R(void, TYPENAME##_atomic_and, and_, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                            \
  R(TYPE, TYPENAME##_atomic_fetch_or, fetch_or, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                   \
  R(void, TYPENAME##_atomic_or, or_, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                              \
  R(TYPE, TYPENAME##_atomic_fetch_xor, fetch_xor, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                 \
  R(void, TYPENAME##_atomic_xor, xor_, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                            \
  R(void, TYPENAME##_atomic_fetch_and_nbi, fetch_and_nbi, sizeof(TYPE), (TYPE * fetch, TYPE * dest, TYPE value, int pe)) \
  R(void, TYPENAME##_atomic_fetch_or_nbi, fetch_or_nbi, sizeof(TYPE), (TYPE * fetch, TYPE * dest, TYPE value, int pe))   \
  R(void, TYPENAME##_atomic_fetch_xor_nbi, fetch_xor_nbi, sizeof(TYPE), (TYPE * fetch, TYPE * dest, TYPE value, int pe))

/* Deprecated (1.3) names, no context forms: same operations as the 1.5 rows of the same KIND. */
#define SHMEMSIM_AMO_DEPRECATED_ROUTINES(R, TYPE, TYPENAME)                                      \
  R(TYPE, TYPENAME##_finc, fetch_inc, sizeof(TYPE), (TYPE * dest, int pe))                       \
  R(void, TYPENAME##_inc, inc, sizeof(TYPE), (TYPE * dest, int pe))                              \
  R(TYPE, TYPENAME##_fadd, fetch_add, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))           \
  R(void, TYPENAME##_add, add, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                  \
  R(TYPE, TYPENAME##_cswap, compare_swap, sizeof(TYPE), (TYPE * dest, TYPE cond, TYPE value, int pe))
#define SHMEMSIM_AMO_DEPRECATED_EXTENDED_ROUTINES(R, TYPE, TYPENAME)                             \
  R(TYPE, TYPENAME##_swap, swap, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))                \
  R(TYPE, TYPENAME##_fetch, fetch, sizeof(TYPE), (const TYPE* source, int pe))                   \
  R(void, TYPENAME##_set, set, sizeof(TYPE), (TYPE * dest, TYPE value, int pe))

/* ------------------------------------------------------------------ declarations */
#define SHMEMSIM_AMO_DECLARE_EXT_(TYPE, TYPENAME) SHMEMSIM_AMO_EXTENDED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_AMO_DECLARE_STD_(TYPE, TYPENAME) SHMEMSIM_AMO_STANDARD_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_AMO_DECLARE_BIT_(TYPE, TYPENAME) SHMEMSIM_AMO_BITWISE_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_AMO_DECLARE_DEP_(TYPE, TYPENAME) SHMEMSIM_AMO_DEPRECATED_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_AMO_DECLARE_DEPX_(TYPE, TYPENAME) SHMEMSIM_AMO_DEPRECATED_EXTENDED_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)

SHMEMSIM_AMO_EXTENDED_TYPES(SHMEMSIM_AMO_DECLARE_EXT_)
SHMEMSIM_AMO_STANDARD_TYPES(SHMEMSIM_AMO_DECLARE_STD_)
SHMEMSIM_AMO_BITWISE_TYPES(SHMEMSIM_AMO_DECLARE_BIT_)
SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMSIM_AMO_DECLARE_DEP_)
SHMEMSIM_AMO_DEPRECATED_EXTENDED_TYPES(SHMEMSIM_AMO_DECLARE_DEPX_)

#undef SHMEMSIM_AMO_DECLARE_EXT_
#undef SHMEMSIM_AMO_DECLARE_STD_
#undef SHMEMSIM_AMO_DECLARE_BIT_
#undef SHMEMSIM_AMO_DECLARE_DEP_
#undef SHMEMSIM_AMO_DECLARE_DEPX_
