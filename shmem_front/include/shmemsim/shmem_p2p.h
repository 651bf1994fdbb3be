/* Declarations of the OpenSHMEM point-to-point synchronization routines (OpenSHMEM 1.5 §9.10:
 * wait_until and test, scalar forms) and the deprecated wait routines; included by shmem.h inside
 * extern "C". Rows R(RET, NAME, KIND, ELEM, PARAMS) as described in shmem_rma.h. `cmp` is one of
 * SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE. */
#pragma once

/* ------------------------------------------------------------------ type tables */
/* Point-to-point synchronization types (1.5: the standard AMO types). */
#define SHMEMSIM_P2P_TYPES(X)                                                                           \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong)        \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)              \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
/* Deprecated in 1.5 for wait_until and test. The multi-element routines (shmem_signal_lock.h)
 * take them too, as Sandia OpenSHMEM and Cray's implementation do (third-party programs call
 * shmem_test_all on a short). */
#define SHMEMSIM_P2P_DEPRECATED_TYPES(X) X(short, short) X(unsigned short, ushort)
/* Deprecated shmem_TYPENAME_wait (waits while *ivar == cmp_value). */
#define SHMEMSIM_WAIT_DEPRECATED_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)

/* ------------------------------------------------------------------ routine tables */
#define SHMEMSIM_P2P_ROUTINES(R, TYPE, TYPENAME)                                                       \
  R(void, TYPENAME##_wait_until, wait_until, sizeof(TYPE), (TYPE * ivar, int cmp, TYPE cmp_value))   \
  R(int, TYPENAME##_test, test, sizeof(TYPE), (TYPE * ivar, int cmp, TYPE cmp_value))
#define SHMEMSIM_WAIT_DEPRECATED_ROUTINES(R, TYPE, TYPENAME) \
  R(void, TYPENAME##_wait, wait, sizeof(TYPE), (TYPE * ivar, TYPE cmp_value))
/* The deprecated untyped forms, on long. */
#define SHMEMSIM_P2P_LONG_ROUTINES(R)                                                   \
  R(void, wait_until, wait_until, sizeof(long), (long* ivar, int cmp, long cmp_value))  \
  R(void, wait, wait, sizeof(long), (long* ivar, long cmp_value))

/* ------------------------------------------------------------------ declarations */
#define SHMEMSIM_P2P_DECLARE_(TYPE, TYPENAME) SHMEMSIM_P2P_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_WAIT_DECLARE_(TYPE, TYPENAME) SHMEMSIM_WAIT_DEPRECATED_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)

SHMEMSIM_P2P_TYPES(SHMEMSIM_P2P_DECLARE_)
SHMEMSIM_P2P_DEPRECATED_TYPES(SHMEMSIM_P2P_DECLARE_)
SHMEMSIM_WAIT_DEPRECATED_TYPES(SHMEMSIM_WAIT_DECLARE_)
SHMEMSIM_P2P_LONG_ROUTINES(SHMEMSIM_DECLARE)

#undef SHMEMSIM_P2P_DECLARE_
#undef SHMEMSIM_WAIT_DECLARE_
