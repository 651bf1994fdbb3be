/* Routines and constants that OpenSHMEM 1.6 added beyond 1.5, provided on top of the 1.5 library
 * (SHMEM_MAJOR_VERSION/SHMEM_MINOR_VERSION stay 1.5: shmemsim claims OpenSHMEM 1.5 plus these
 * additions, not the whole of 1.6):
 *   - blocked strided RMA: shmem_TYPE_ibput/ibget, shmem_ibputSIZE/ibgetSIZE and their shmem_ctx_
 *     forms (1.6 §"shmem_ibput", §"shmem_ibget");
 *   - prefix sums over a team: shmem_TYPE_sum_inscan/sum_exscan (1.6 §"shmem_sum_inscan,
 *     shmem_sum_exscan", the SUM types of the team-based reduction table);
 *   - shmem_pe_quiet/shmem_ctx_pe_quiet (1.6 §"shmem_pe_quiet", memory ordering);
 *   - shmem_signal_add/shmem_signal_set and their shmem_ctx_ forms (1.6 signaling);
 *   - communication sessions: shmem_ctx_session_start/stop, shmem_ctx_session_config_t and its
 *     constants (1.6 §"Sessions").
 * Included by shmem.h inside extern "C", after the teams and collectives header. Rows
 * R(RET, NAME, KIND, ELEM, PARAMS) as described in shmemsim/shmem_rma.h; the library's definitions
 * are generated from the same rows (shmem_front/lib/spec16.cpp). */
#pragma once

/* ------------------------------------------------------------------ blocked strided RMA
 * Block i (0 <= i < nblocks) is bsize contiguous elements: dest[i*dst .. i*dst+bsize) on the
 * target (ibput) or locally (ibget) receives source[i*sst .. i*sst+bsize). dst and sst are the
 * strides between the starts of consecutive blocks, in elements; they must be at least bsize
 * (dst == sst == bsize is contiguous data). ibput returns once source may be reused, ibget once
 * dest holds the data. For every TYPE/TYPENAME of SHMEMSIM_RMA_TYPES and every SIZE of
 * SHMEMSIM_SIZES (bits); there is no ibputmem/ibgetmem in the specification. */
#define SHMEMSIM_IB_PARAMS_(TYPE) \
  (TYPE * dest, const TYPE* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe)
#define SHMEMSIM_IBRMA_TYPED_ROUTINES(R, TYPE, TYPENAME)                       \
  R(void, TYPENAME##_ibput, ibput, sizeof(TYPE), SHMEMSIM_IB_PARAMS_(TYPE))    \
  R(void, TYPENAME##_ibget, ibget, sizeof(TYPE), SHMEMSIM_IB_PARAMS_(TYPE))
#define SHMEMSIM_IBRMA_SIZED_ROUTINES(R, SIZE)                                 \
  R(void, ibput##SIZE, ibput, (SIZE / 8), SHMEMSIM_IB_PARAMS_(void))           \
  R(void, ibget##SIZE, ibget, (SIZE / 8), SHMEMSIM_IB_PARAMS_(void))

/* ------------------------------------------------------------------ prefix sums over a team
 * On team member i, dest[j] = source_0[j] + ... + source_i[j] (inscan), or
 * source_0[j] + ... + source_{i-1}[j] with 0 on member 0 (exscan). source and dest are symmetric,
 * the same on every member, identical (in place) or disjoint. Returns 0, non-zero for
 * SHMEM_TEAM_INVALID. For every TYPE/TYPENAME of SHMEMSIM_REDUCE_ARITH_TYPES (the SUM types). */
#define SHMEMSIM_SCAN_PARAMS_(TYPE) (shmem_team_t team, TYPE * dest, const TYPE* source, size_t nelems)
#define SHMEMSIM_SCAN_ROUTINES(R, TYPE, TYPENAME)                                      \
  R(int, TYPENAME##_sum_inscan, inscan, sizeof(TYPE), SHMEMSIM_SCAN_PARAMS_(TYPE))     \
  R(int, TYPENAME##_sum_exscan, exscan, sizeof(TYPE), SHMEMSIM_SCAN_PARAMS_(TYPE))

/* ------------------------------------------------------------------ signal updates
 * Atomic SET or ADD of `signal` on the 64-bit signal object sig_addr at `pe` (the update a
 * put-with-signal makes, without data); shmem_signal_wait_until at `pe` sees it. */
#define SHMEMSIM_SIGNAL_UPDATE_ROUTINES(R)                                                    \
  R(void, signal_add, signal_add, 8, (uint64_t * sig_addr, uint64_t signal, int pe))          \
  R(void, signal_set, signal_set, 8, (uint64_t * sig_addr, uint64_t signal, int pe))

/* ------------------------------------------------------------------ declarations */
#define SHMEMSIM_IBRMA_TYPED_DECLARE_(TYPE, TYPENAME) SHMEMSIM_IBRMA_TYPED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_IBRMA_SIZED_DECLARE_(SIZE) SHMEMSIM_IBRMA_SIZED_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX, SIZE)
#define SHMEMSIM_SCAN_DECLARE_(TYPE, TYPENAME) SHMEMSIM_SCAN_ROUTINES(SHMEMSIM_DECLARE, TYPE, TYPENAME)

SHMEMSIM_RMA_TYPES(SHMEMSIM_IBRMA_TYPED_DECLARE_)
SHMEMSIM_SIZES(SHMEMSIM_IBRMA_SIZED_DECLARE_)
SHMEMSIM_REDUCE_ARITH_TYPES(SHMEMSIM_SCAN_DECLARE_)
SHMEMSIM_SIGNAL_UPDATE_ROUTINES(SHMEMSIM_DECLARE_WITH_CTX)

#undef SHMEMSIM_IBRMA_TYPED_DECLARE_
#undef SHMEMSIM_IBRMA_SIZED_DECLARE_
#undef SHMEMSIM_SCAN_DECLARE_

/* ------------------------------------------------------------------ per-PE quiet
 * Completes the calling PE's operations on the context to the `npes` PEs of target_pes (numbered
 * in the context's team), as shmem_quiet does for all PEs. target_pes may be NULL when npes is 0.
 * shmemsim completes every operation of the context (a valid implementation: what must be
 * complete is). */
void shmem_pe_quiet(const int* target_pes, size_t npes);
void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes);

/* ------------------------------------------------------------------ communication sessions
 * Hints that a series of operations (a batch) follows on a context. Options (bitwise OR):
 * SHMEM_CTX_SESSION_BATCH. Configuration: shmem_ctx_session_config_t, fields selected by the mask
 * bits (SHMEM_CTX_SESSION_TOTAL_OPS: total_ops, the expected number of RMA calls; default
 * SIZE_MAX). Sessions never change completion or ordering. */
#define SHMEM_CTX_SESSION_BATCH (1L << 0)
#define SHMEM_CTX_SESSION_TOTAL_OPS (1L << 0)
typedef struct {
  size_t total_ops;
} shmem_ctx_session_config_t;
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config,
                             long config_mask);
void shmem_ctx_session_stop(shmem_ctx_t ctx);

/* ------------------------------------------------------------------ pshmem_ names (profiling) */
#define SHMEMSIM_PN_IB_TYPED_(TYPE, TYPENAME) SHMEMSIM_IBRMA_TYPED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, TYPE, TYPENAME)
#define SHMEMSIM_PN_IB_SIZED_(SIZE) SHMEMSIM_IBRMA_SIZED_ROUTINES(SHMEMSIM_PN_WITH_CTX_, SIZE)
#define SHMEMSIM_PN_SCAN_(TYPE, TYPENAME) SHMEMSIM_SCAN_ROUTINES(SHMEMSIM_PN_PLAIN_, TYPE, TYPENAME)
/* Every routine of this header; expanded inside SHMEMSIM_PSHMEM_NAMES_ (shmem_signal_lock.h). */
#define SHMEMSIM_PSHMEM_SPEC16_NAMES_(N)                                                          \
  SHMEMSIM_RMA_TYPES(SHMEMSIM_PN_IB_TYPED_) SHMEMSIM_SIZES(SHMEMSIM_PN_IB_SIZED_)                  \
  SHMEMSIM_REDUCE_ARITH_TYPES(SHMEMSIM_PN_SCAN_) SHMEMSIM_SIGNAL_UPDATE_ROUTINES(SHMEMSIM_PN_WITH_CTX_) \
  N(shmem_pe_quiet) N(shmem_ctx_pe_quiet) N(shmem_ctx_session_start) N(shmem_ctx_session_stop)
