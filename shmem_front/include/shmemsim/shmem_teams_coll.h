/* Declarations of the OpenSHMEM 1.5 teams (§9.4) and collectives (§9.9): team management,
 * team and active-set synchronization, broadcast, collect/fcollect, alltoall/alltoalls and
 * reductions, with their deprecated active-set forms (pSync/pWrk); included by shmem.h inside
 * extern "C". C99-compatible.
 *
 * The routine rows R(RET, NAME, KIND, ELEM, PARAMS) follow shmemsim/shmem_rma.h; the same
 * tables generate the library's definitions (shmem_front/lib/collectives.cpp). */
#pragma once

/* ------------------------------------------------------------------ teams (§9.4) */
/* Predefined teams: handles with fixed values, like SHMEM_CTX_DEFAULT (SHMEM_TEAM_INVALID is
 * declared in shmem.h). SHMEM_TEAM_SHARED: the PEs of the calling PE's simulated node (exactly
 * the PEs for which shmem_ptr returns non-NULL), numbered in world order. */
#define SHMEM_TEAM_WORLD ((shmem_team_t)(uintptr_t)1)
#define SHMEM_TEAM_SHARED ((shmem_team_t)(uintptr_t)2)

/* Team configuration (§9.4.2): fields and their mask bits. */
typedef struct {
  int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
                        long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                        long yaxis_mask, shmem_team_t* yaxis_team);
void shmem_team_destroy(shmem_team_t team);
/* A local address of `dest` on team member `pe` when load/store reaches it (PEs of the caller's
 * node, as shmem_ptr), else NULL; NULL for SHMEM_TEAM_INVALID. */
void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t* ctx);
/* shmem_ctx_get_team is declared in shmem.h (contexts). */

/* ------------------------------------------------------------------ synchronization (§9.9.3-9.9.4) */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync); /* deprecated */
int shmem_team_sync(shmem_team_t team);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long* pSync); /* deprecated */

/* ------------------------------------------------------------------ data collectives (§9.9.6-9.9.10)
 * For every TYPE/TYPENAME of SHMEMSIM_RMA_TYPES (the standard RMA types), and the _mem forms on
 * bytes. Team forms return 0 on success, non-zero for SHMEM_TEAM_INVALID. */
#define SHMEMSIM_COLL_TYPED_ROUTINES(R, TYPE, TYPENAME)                                                                \
  R(int, TYPENAME##_broadcast, broadcast, sizeof(TYPE),                                                               \
    (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nelems, int PE_root))                                   \
  R(int, TYPENAME##_collect, collect, sizeof(TYPE), (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nelems)) \
  R(int, TYPENAME##_fcollect, fcollect, sizeof(TYPE),                                                                 \
    (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nelems))                                                \
  R(int, TYPENAME##_alltoall, alltoall, sizeof(TYPE),                                                                 \
    (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nelems))                                                \
  R(int, TYPENAME##_alltoalls, alltoalls, sizeof(TYPE),                                                               \
    (shmem_team_t team, TYPE * dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems))

#define SHMEMSIM_COLL_MEM_ROUTINES(R)                                                                                   \
  R(int, broadcastmem, broadcast, 1, (shmem_team_t team, void* dest, const void* source, size_t nelems, int PE_root))   \
  R(int, collectmem, collect, 1, (shmem_team_t team, void* dest, const void* source, size_t nelems))                    \
  R(int, fcollectmem, fcollect, 1, (shmem_team_t team, void* dest, const void* source, size_t nelems))                  \
  R(int, alltoallmem, alltoall, 1, (shmem_team_t team, void* dest, const void* source, size_t nelems))                  \
  R(int, alltoallsmem, alltoalls, 1,                                                                                   \
    (shmem_team_t team, void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems))

/* Deprecated active-set forms, for SIZE 32 and 64 (bits). */
#define SHMEMSIM_COLL_SIZED_ROUTINES(R, SIZE)                                                                          \
  R(void, broadcast##SIZE, as_broadcast, (SIZE / 8),                                                                  \
    (void* dest, const void* source, size_t nelems, int PE_root, int PE_start, int logPE_stride, int PE_size,           \
     long* pSync))                                                                                                     \
  R(void, collect##SIZE, as_collect, (SIZE / 8),                                                                      \
    (void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long* pSync))          \
  R(void, fcollect##SIZE, as_fcollect, (SIZE / 8),                                                                    \
    (void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long* pSync))          \
  R(void, alltoall##SIZE, as_alltoall, (SIZE / 8),                                                                    \
    (void* dest, const void* source, size_t nelems, int PE_start, int logPE_stride, int PE_size, long* pSync))          \
  R(void, alltoalls##SIZE, as_alltoalls, (SIZE / 8),                                                                  \
    (void* dest, const void* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start, int logPE_stride,       \
     int PE_size, long* pSync))

#define SHMEMSIM_COLL_SIZES(X) X(32) X(64)

/* ------------------------------------------------------------------ reductions (§9.9.11)
 * Complex element types (C99 _Complex; __extension__ keeps C++ and -pedantic quiet). */
__extension__ typedef double _Complex shmemsim_complexd;
__extension__ typedef float _Complex shmemsim_complexf;

/* Table "Reduction Types, Names, and Supporting Operations for Team-Based Reductions". */
#define SHMEMSIM_REDUCE_BITWISE_TYPES(X)                                                                   \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)          \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) \
  X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define SHMEMSIM_REDUCE_MINMAX_TYPES(X)                                                                      \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)       \
  X(ptrdiff_t, ptrdiff) SHMEMSIM_REDUCE_BITWISE_TYPES(X) X(float, float) X(double, double)                 \
  X(long double, longdouble)
#define SHMEMSIM_REDUCE_ARITH_TYPES(X) \
  SHMEMSIM_REDUCE_MINMAX_TYPES(X) X(shmemsim_complexd, complexd) X(shmemsim_complexf, complexf)

/* Table "... for Active-Set-Based Reductions" (deprecated _to_all forms). */
#define SHMEMSIM_TO_ALL_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define SHMEMSIM_TO_ALL_MINMAX_TYPES(X) \
  SHMEMSIM_TO_ALL_BITWISE_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#define SHMEMSIM_TO_ALL_ARITH_TYPES(X) \
  SHMEMSIM_TO_ALL_MINMAX_TYPES(X) X(shmemsim_complexd, complexd) X(shmemsim_complexf, complexf)

/* Rows per TYPE; KIND names the operation (and_, or_, xor_: `and`, `or`, `xor` are operator
 * tokens in C++ and macros of <iso646.h>, so they never appear alone). */
#define SHMEMSIM_REDUCE_PARAMS_(TYPE) (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nreduce)
#define SHMEMSIM_TO_ALL_PARAMS_(TYPE) \
  (TYPE * dest, const TYPE* source, int nreduce, int PE_start, int logPE_stride, int PE_size, TYPE* pWrk, long* pSync)
#define SHMEMSIM_REDUCE_BITWISE_ROUTINES(R, TYPE, TYPENAME)                              \
  R(int, TYPENAME##_and_reduce, and_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))       \
  R(int, TYPENAME##_or_reduce, or_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))         \
  R(int, TYPENAME##_xor_reduce, xor_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))
#define SHMEMSIM_REDUCE_MINMAX_ROUTINES(R, TYPE, TYPENAME)                               \
  R(int, TYPENAME##_max_reduce, max_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))       \
  R(int, TYPENAME##_min_reduce, min_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))
#define SHMEMSIM_REDUCE_ARITH_ROUTINES(R, TYPE, TYPENAME)                                \
  R(int, TYPENAME##_sum_reduce, sum_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))       \
  R(int, TYPENAME##_prod_reduce, prod_, sizeof(TYPE), SHMEMSIM_REDUCE_PARAMS_(TYPE))
#define SHMEMSIM_TO_ALL_BITWISE_ROUTINES(R, TYPE, TYPENAME)                              \
  R(void, TYPENAME##_and_to_all, and_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))      \
  R(void, TYPENAME##_or_to_all, or_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))        \
  R(void, TYPENAME##_xor_to_all, xor_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))
#define SHMEMSIM_TO_ALL_MINMAX_ROUTINES(R, TYPE, TYPENAME)                               \
  R(void, TYPENAME##_max_to_all, max_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))      \
  R(void, TYPENAME##_min_to_all, min_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))
#define SHMEMSIM_TO_ALL_ARITH_ROUTINES(R, TYPE, TYPENAME)                                \
  R(void, TYPENAME##_sum_to_all, sum_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))      \
  R(void, TYPENAME##_prod_to_all, prod_, sizeof(TYPE), SHMEMSIM_TO_ALL_PARAMS_(TYPE))

#define SHMEMSIM_COLL_DECLARE_TYPED_(TYPE, TYPENAME) SHMEMSIM_COLL_TYPED_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_COLL_DECLARE_SIZED_(SIZE) SHMEMSIM_COLL_SIZED_ROUTINES(SHMEMSIM_DECLARE, SIZE)
#define SHMEMSIM_REDUCE_DECLARE_BITWISE_(TYPE, TYPENAME) SHMEMSIM_REDUCE_BITWISE_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_REDUCE_DECLARE_MINMAX_(TYPE, TYPENAME) SHMEMSIM_REDUCE_MINMAX_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_REDUCE_DECLARE_ARITH_(TYPE, TYPENAME) SHMEMSIM_REDUCE_ARITH_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_TO_ALL_DECLARE_BITWISE_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_BITWISE_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_TO_ALL_DECLARE_MINMAX_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_MINMAX_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)
#define SHMEMSIM_TO_ALL_DECLARE_ARITH_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_ARITH_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)

SHMEMSIM_RMA_TYPES(SHMEMSIM_COLL_DECLARE_TYPED_)
SHMEMSIM_COLL_MEM_ROUTINES(SHMEMSIM_DECLARE)
SHMEMSIM_COLL_SIZES(SHMEMSIM_COLL_DECLARE_SIZED_)
SHMEMSIM_REDUCE_BITWISE_TYPES(SHMEMSIM_REDUCE_DECLARE_BITWISE_)
SHMEMSIM_REDUCE_MINMAX_TYPES(SHMEMSIM_REDUCE_DECLARE_MINMAX_)
SHMEMSIM_REDUCE_ARITH_TYPES(SHMEMSIM_REDUCE_DECLARE_ARITH_)
SHMEMSIM_TO_ALL_BITWISE_TYPES(SHMEMSIM_TO_ALL_DECLARE_BITWISE_)
SHMEMSIM_TO_ALL_MINMAX_TYPES(SHMEMSIM_TO_ALL_DECLARE_MINMAX_)
SHMEMSIM_TO_ALL_ARITH_TYPES(SHMEMSIM_TO_ALL_DECLARE_ARITH_)

#undef SHMEMSIM_COLL_DECLARE_TYPED_
#undef SHMEMSIM_COLL_DECLARE_SIZED_
#undef SHMEMSIM_REDUCE_DECLARE_BITWISE_
#undef SHMEMSIM_REDUCE_DECLARE_MINMAX_
#undef SHMEMSIM_REDUCE_DECLARE_ARITH_
#undef SHMEMSIM_TO_ALL_DECLARE_BITWISE_
#undef SHMEMSIM_TO_ALL_DECLARE_MINMAX_
#undef SHMEMSIM_TO_ALL_DECLARE_ARITH_
