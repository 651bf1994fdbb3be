/* OpenSHMEM 1.5 for shmemsim: programs compiled with shmemsim-cc run on a simulated cluster.
 * shmemsim claims OpenSHMEM 1.5 (SHMEM_MAJOR_VERSION.SHMEM_MINOR_VERSION below) plus these
 * OpenSHMEM 1.6 additions (shmemsim/shmem_spec16.h): shmem_ibput/ibget (typed, sized, ctx and C11
 * generic forms), shmem_sum_inscan/sum_exscan, shmem_pe_quiet, shmem_signal_add/signal_set, and
 * communication sessions (shmem_ctx_session_start/stop). */
#ifndef SHMEM_H
#define SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ library constants */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "shmemsim"
/* Deprecated spellings kept by the specification. */
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* Thread levels */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* Point-to-point comparison operators */
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_GE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_LE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

/* Context options */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* Memory hints (shmem_malloc_with_hints) */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* Collective work arrays (active-set collectives, next issue) */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_BARRIER_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16
#define SHMEM_COLLECT_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALL_SYNC_SIZE SHMEM_SYNC_SIZE
#define SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
/* Not in the specification's list of deprecated constants, but defined by other implementations
 * beside the others and used by existing programs and test suites. */
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE

/* ------------------------------------------------------------------ types */
typedef struct shmemsim_ctx* shmem_ctx_t;
/* The default context, and the value of a context that could not be created. */
#define SHMEM_CTX_DEFAULT ((shmem_ctx_t)(uintptr_t)1)
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

typedef struct shmemsim_team* shmem_team_t;
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

/* ------------------------------------------------------------------ type tables
 * X(TYPE, TYPENAME) lists of the specification's tables, for the typed routine families. */
#define SHMEMSIM_RMA_TYPES(X)                                                                     \
  X(float, float) X(double, double) X(long double, longdouble) X(char, char)                      \
  X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)          \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)            \
  X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) \
  X(size_t, size) X(ptrdiff_t, ptrdiff)

#define SHMEMSIM_SIZES(X) X(8) X(16) X(32) X(64) X(128)

/* ------------------------------------------------------------------ setup and query */
void shmem_init(void);
int shmem_init_thread(int requested, int* provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void* addr, int pe);
void* shmem_ptr(const void* dest, int pe);
void shmem_info_get_version(int* major, int* minor);
void shmem_info_get_name(char* name);
void shmem_query_thread(int* provided);

/* ------------------------------------------------------------------ symmetric memory */
void* shmem_malloc(size_t size);
void* shmem_calloc(size_t count, size_t size);
void* shmem_realloc(void* ptr, size_t size);
void* shmem_align(size_t alignment, size_t size);
void* shmem_malloc_with_hints(size_t size, long hints);
void shmem_free(void* ptr);

/* ------------------------------------------------------------------ contexts */
int shmem_ctx_create(long options, shmem_ctx_t* ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team);

/* ------------------------------------------------------------------ RMA: mem */
void shmem_putmem(void* dest, const void* source, size_t nelems, int pe);
void shmem_getmem(void* dest, const void* source, size_t nelems, int pe);
void shmem_putmem_nbi(void* dest, const void* source, size_t nelems, int pe);
void shmem_getmem_nbi(void* dest, const void* source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void* dest, const void* source, size_t nelems, int pe);

/* ------------------------------------------------------------------ ordering and synchronization */
void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* ------------------------------------------------------------------ typed families
 * (declared in the sections below) */
#include "shmemsim/shmem_rma.h"
#include "shmemsim/shmem_amo.h"
#include "shmemsim/shmem_p2p.h"
#include "shmemsim/shmem_teams_coll.h" /* teams and collectives */
#include "shmemsim/shmem_spec16.h" /* OpenSHMEM 1.6 additions */
#include "shmemsim/shmem_signal_lock.h" /* signals, vector waits, locks, deprecated, profiling */

#ifdef __cplusplus
}
#endif

/* Type-generic interfaces: C11 _Generic selections, C++ overloads (outside extern "C"). */
#include "shmemsim/shmem_generic.h"
#include "shmemsim/shmem_cxx.h"

#endif /* SHMEM_H */
