/* The type-generic names of OpenSHMEM 1.5 (and of the 1.6 additions: shmem_ibput/ibget,
 * shmem_sum_inscan/exscan, shmem_signal_add/set with a context) for C++ programs (shmemsim-c++): inline overloads of shmem_put,
 * shmem_get, shmem_p, shmem_g, shmem_iput, shmem_iget, shmem_put_nbi, shmem_get_nbi,
 * shmem_put_signal[_nbi], the shmem_atomic_* names, shmem_wait_until[_all|_any|_some][_vector] and
 * shmem_test[_all|_any|_some][_vector], with and without a leading shmem_ctx_t; the team forms
 * shmem_sync(team), shmem_broadcast, shmem_collect, shmem_fcollect, shmem_alltoall[s] and the
 * shmem_{and,or,xor,max,min,sum,prod}_reduce names, selecting the
 * typed routine on the pointer argument as the C11 _Generic selections of shmem_generic.h do. The
 * specification defines these names for C11 only; C++ gets the same spelling through overloading.
 * Included at the end of shmem.h, after shmem_generic.h (type lists), outside extern "C".
 *
 * Each overload has the typed C routine's own parameter list and calls it. shmem_wait_until on long
 * stays the deprecated C routine of that name (same operation). */
#ifndef SHMEMSIM_SHMEM_CXX_H
#define SHMEMSIM_SHMEM_CXX_H

#ifdef __cplusplus

/* One overload: shmem_OP PARAMS -> shmem_TN_OP ARGS; and its context form shmem_OP(ctx, PARAMS)
 * -> shmem_ctx_TN_OP(ctx, ARGS). Explicit parameter types (not forwarding templates), so that
 * arguments convert as in a call of the typed routine: NULL or 0 for a status array or an
 * indices array, an int literal for a long or double value. */
#define SHMEMSIM_CXX_ONE_(RET, OP, TN, PARAMS, ARGS) \
  inline RET shmem_##OP PARAMS { return shmem_##TN##_##OP ARGS; }
#define SHMEMSIM_CXX_TWO_(RET, OP, TN, PARAMS, ARGS)                          \
  SHMEMSIM_CXX_ONE_(RET, OP, TN, PARAMS, ARGS)                                \
  inline RET shmem_##OP(shmem_ctx_t ctx, SHMEMSIM_UNPAREN PARAMS)             \
  {                                                                           \
    return shmem_ctx_##TN##_##OP(ctx, SHMEMSIM_UNPAREN ARGS);                 \
  }

/* RMA (§9.5) */
#define SHMEMSIM_CXX_CONTIG_(T, TN, OP) \
  SHMEMSIM_CXX_TWO_(void, OP, TN, (T * dest, const T* source, size_t nelems, int pe), (dest, source, nelems, pe))
#define SHMEMSIM_CXX_STRIDED_(T, TN, OP)                                                                   \
  SHMEMSIM_CXX_TWO_(void, OP, TN, (T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                    (dest, source, dst, sst, nelems, pe))
#define SHMEMSIM_CXX_P_(T, TN, OP) SHMEMSIM_CXX_TWO_(void, OP, TN, (T * dest, T value, int pe), (dest, value, pe))
#define SHMEMSIM_CXX_G_(T, TN, OP) SHMEMSIM_CXX_TWO_(T, OP, TN, (const T* source, int pe), (source, pe))
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CONTIG_, put)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CONTIG_, get)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CONTIG_, put_nbi)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CONTIG_, get_nbi)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_STRIDED_, iput)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_STRIDED_, iget)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_P_, p)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_G_, g)
/* OpenSHMEM 1.6 blocked strided RMA */
#define SHMEMSIM_CXX_BLOCKED_(T, TN, OP)                                                                          \
  SHMEMSIM_CXX_TWO_(void, OP, TN,                                                                                 \
                    (T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                    (dest, source, dst, sst, bsize, nblocks, pe))
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_BLOCKED_, ibput)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_BLOCKED_, ibget)

/* Signaling (§9.8) */
#define SHMEMSIM_CXX_SIGNAL_(T, TN, OP)                                                                     \
  SHMEMSIM_CXX_TWO_(void, OP, TN,                                                                          \
                    (T * dest, const T* source, size_t nelems, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe), \
                    (dest, source, nelems, sig_addr, signal, sig_op, pe))
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_SIGNAL_, put_signal)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_SIGNAL_, put_signal_nbi)
/* OpenSHMEM 1.6: shmem_signal_add/set(ctx, ...) name shmem_ctx_signal_add/set. */
inline void shmem_signal_add(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe)
{
  shmem_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmem_signal_set(shmem_ctx_t ctx, uint64_t* sig_addr, uint64_t signal, int pe)
{
  shmem_ctx_signal_set(ctx, sig_addr, signal, pe);
}

/* AMO (§9.7) */
#define SHMEMSIM_CXX_AFETCH_(T, TN, OP) SHMEMSIM_CXX_TWO_(T, OP, TN, (const T* source, int pe), (source, pe))
#define SHMEMSIM_CXX_ASET_(T, TN, OP) SHMEMSIM_CXX_TWO_(void, OP, TN, (T * dest, T value, int pe), (dest, value, pe))
#define SHMEMSIM_CXX_AFVAL_(T, TN, OP) SHMEMSIM_CXX_TWO_(T, OP, TN, (T * dest, T value, int pe), (dest, value, pe))
#define SHMEMSIM_CXX_ACSWAP_(T, TN, OP) \
  SHMEMSIM_CXX_TWO_(T, OP, TN, (T * dest, T cond, T value, int pe), (dest, cond, value, pe))
#define SHMEMSIM_CXX_AFINC_(T, TN, OP) SHMEMSIM_CXX_TWO_(T, OP, TN, (T * dest, int pe), (dest, pe))
#define SHMEMSIM_CXX_AINC_(T, TN, OP) SHMEMSIM_CXX_TWO_(void, OP, TN, (T * dest, int pe), (dest, pe))
#define SHMEMSIM_CXX_NBI_FETCH_(T, TN, OP) \
  SHMEMSIM_CXX_TWO_(void, OP, TN, (T * fetch, const T* source, int pe), (fetch, source, pe))
#define SHMEMSIM_CXX_NBI_VAL_(T, TN, OP) \
  SHMEMSIM_CXX_TWO_(void, OP, TN, (T * fetch, T * dest, T value, int pe), (fetch, dest, value, pe))
#define SHMEMSIM_CXX_NBI_CSWAP_(T, TN, OP) \
  SHMEMSIM_CXX_TWO_(void, OP, TN, (T * fetch, T * dest, T cond, T value, int pe), (fetch, dest, cond, value, pe))
#define SHMEMSIM_CXX_NBI_INC_(T, TN, OP) \
  SHMEMSIM_CXX_TWO_(void, OP, TN, (T * fetch, T * dest, int pe), (fetch, dest, pe))
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_AFETCH_, atomic_fetch)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_ASET_, atomic_set)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_AFVAL_, atomic_swap)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_ACSWAP_, atomic_compare_swap)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_AFINC_, atomic_fetch_inc)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_AINC_, atomic_inc)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_AFVAL_, atomic_fetch_add)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_ASET_, atomic_add)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_AFVAL_, atomic_fetch_and)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_ASET_, atomic_and)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_AFVAL_, atomic_fetch_or)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_ASET_, atomic_or)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_AFVAL_, atomic_fetch_xor)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_ASET_, atomic_xor)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_NBI_FETCH_, atomic_fetch_nbi)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_NBI_VAL_, atomic_swap_nbi)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_NBI_CSWAP_, atomic_compare_swap_nbi)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_NBI_INC_, atomic_fetch_inc_nbi)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_NBI_VAL_, atomic_fetch_add_nbi)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_NBI_VAL_, atomic_fetch_and_nbi)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_NBI_VAL_, atomic_fetch_or_nbi)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_NBI_VAL_, atomic_fetch_xor_nbi)

/* Point-to-point synchronization (§9.10); no context forms. shmem_wait_until on long is the
 * deprecated C routine of that name (same operation). cmp_values may be const here. */
#define SHMEMSIM_CXX_WAIT_(T, TN, OP) \
  SHMEMSIM_CXX_ONE_(void, OP, TN, (T * ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value))
#define SHMEMSIM_CXX_TEST_(T, TN, OP) SHMEMSIM_CXX_ONE_(int, OP, TN, (T * ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value))
#define SHMEMSIM_CXX_SET_(RET, T, TN, OP)                                                                \
  SHMEMSIM_CXX_ONE_(RET, OP, TN, (T * ivars, size_t nelems, const int* status, int cmp, T cmp_value),    \
                    (ivars, nelems, status, cmp, cmp_value))
#define SHMEMSIM_CXX_SOME_(T, TN, OP)                                                                    \
  SHMEMSIM_CXX_ONE_(size_t, OP, TN, (T * ivars, size_t nelems, size_t* indices, const int* status, int cmp, T cmp_value), \
                    (ivars, nelems, indices, status, cmp, cmp_value))
#define SHMEMSIM_CXX_SETV_(RET, T, TN, OP)                                                               \
  SHMEMSIM_CXX_ONE_(RET, OP, TN, (T * ivars, size_t nelems, const int* status, int cmp, const T* cmp_values), \
                    (ivars, nelems, status, cmp, const_cast<T*>(cmp_values)))
#define SHMEMSIM_CXX_SOMEV_(T, TN, OP)                                                                   \
  SHMEMSIM_CXX_ONE_(size_t, OP, TN,                                                                     \
                    (T * ivars, size_t nelems, size_t* indices, const int* status, int cmp, const T* cmp_values), \
                    (ivars, nelems, indices, status, cmp, const_cast<T*>(cmp_values)))
#define SHMEMSIM_CXX_VOIDSET_(T, TN, OP) SHMEMSIM_CXX_SET_(void, T, TN, OP)
#define SHMEMSIM_CXX_INTSET_(T, TN, OP) SHMEMSIM_CXX_SET_(int, T, TN, OP)
#define SHMEMSIM_CXX_SIZESET_(T, TN, OP) SHMEMSIM_CXX_SET_(size_t, T, TN, OP)
#define SHMEMSIM_CXX_VOIDSETV_(T, TN, OP) SHMEMSIM_CXX_SETV_(void, T, TN, OP)
#define SHMEMSIM_CXX_INTSETV_(T, TN, OP) SHMEMSIM_CXX_SETV_(int, T, TN, OP)
#define SHMEMSIM_CXX_SIZESETV_(T, TN, OP) SHMEMSIM_CXX_SETV_(size_t, T, TN, OP)
SHMEMSIM_GEN_P2P_SCALAR_TYPES(SHMEMSIM_CXX_WAIT_, wait_until)
SHMEMSIM_GEN_P2P_SCALAR_TYPES(SHMEMSIM_CXX_TEST_, test)
SHMEMSIM_CXX_TEST_(long, long, test)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_VOIDSET_, wait_until_all)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SIZESET_, wait_until_any)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SOME_, wait_until_some)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_VOIDSETV_, wait_until_all_vector)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SIZESETV_, wait_until_any_vector)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SOMEV_, wait_until_some_vector)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_INTSET_, test_all)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SIZESET_, test_any)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SOME_, test_some)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_INTSETV_, test_all_vector)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SIZESETV_, test_any_vector)
SHMEMSIM_GEN_P2P_TYPES(SHMEMSIM_CXX_SOMEV_, test_some_vector)

/* Collectives (§9.9), team first. */
inline int shmem_sync(shmem_team_t team)
{
  return shmem_team_sync(team);
}
#define SHMEMSIM_CXX_BCAST_(T, TN, OP)                                                                   \
  SHMEMSIM_CXX_ONE_(int, OP, TN, (shmem_team_t team, T * dest, const T* source, size_t nelems, int PE_root), \
                    (team, dest, source, nelems, PE_root))
#define SHMEMSIM_CXX_COLL_(T, TN, OP) \
  SHMEMSIM_CXX_ONE_(int, OP, TN, (shmem_team_t team, T * dest, const T* source, size_t nelems), (team, dest, source, nelems))
#define SHMEMSIM_CXX_A2AS_(T, TN, OP)                                                                    \
  SHMEMSIM_CXX_ONE_(int, OP, TN,                                                                        \
                    (shmem_team_t team, T * dest, const T* source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems), \
                    (team, dest, source, dst, sst, nelems))
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_BCAST_, broadcast)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_COLL_, collect)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_COLL_, fcollect)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_COLL_, alltoall)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_A2AS_, alltoalls)
SHMEMSIM_GEN_RED_BIT_TYPES(SHMEMSIM_CXX_COLL_, and_reduce)
SHMEMSIM_GEN_RED_BIT_TYPES(SHMEMSIM_CXX_COLL_, or_reduce)
SHMEMSIM_GEN_RED_BIT_TYPES(SHMEMSIM_CXX_COLL_, xor_reduce)
SHMEMSIM_GEN_RED_ORD_TYPES(SHMEMSIM_CXX_COLL_, max_reduce)
SHMEMSIM_GEN_RED_ORD_TYPES(SHMEMSIM_CXX_COLL_, min_reduce)
SHMEMSIM_GEN_RED_ARITH_TYPES(SHMEMSIM_CXX_COLL_, sum_reduce)
SHMEMSIM_GEN_RED_ARITH_TYPES(SHMEMSIM_CXX_COLL_, prod_reduce)
SHMEMSIM_GEN_RED_ARITH_TYPES(SHMEMSIM_CXX_COLL_, sum_inscan) /* OpenSHMEM 1.6 */
SHMEMSIM_GEN_RED_ARITH_TYPES(SHMEMSIM_CXX_COLL_, sum_exscan)

/* std::complex<float> and std::complex<double> for the complex typed routines (complexf,
 * complexd: sum/prod reductions, their deprecated _to_all forms, the 1.6 scans) and for the
 * generic names selecting them. std::complex<T> has the layout of T[2], as C's T _Complex does
 * (C++11 [complex.numbers], C11 6.2.5), so the pointers are passed on unchanged. Define
 * SHMEMSIM_NO_STD_COMPLEX to leave them (and <complex>) out. */
#ifndef SHMEMSIM_NO_STD_COMPLEX
#include <complex>
#define SHMEMSIM_CXX_STDC_TEAM_(CT, STD, OP)                                                                \
  inline int shmem_##CT##_##OP(shmem_team_t team, STD* dest, const STD* source, size_t nelems)           \
  {                                                                                                       \
    return shmem_##CT##_##OP(team, reinterpret_cast<shmemsim_##CT*>(dest),                               \
                             reinterpret_cast<const shmemsim_##CT*>(source), nelems);                    \
  }                                                                                                       \
  inline int shmem_##OP(shmem_team_t team, STD* dest, const STD* source, size_t nelems)                   \
  {                                                                                                       \
    return shmem_##CT##_##OP(team, dest, source, nelems);                                                 \
  }
#define SHMEMSIM_CXX_STDC_TO_ALL_(CT, STD, OP)                                                              \
  inline void shmem_##CT##_##OP(STD* dest, const STD* source, int nreduce, int PE_start, int logPE_stride,  \
                                int PE_size, STD* pWrk, long* pSync)                                     \
  {                                                                                                       \
    shmem_##CT##_##OP(reinterpret_cast<shmemsim_##CT*>(dest), reinterpret_cast<const shmemsim_##CT*>(source), \
                      nreduce, PE_start, logPE_stride, PE_size, reinterpret_cast<shmemsim_##CT*>(pWrk), pSync); \
  }
#define SHMEMSIM_CXX_STDC_ALL_(CT, STD)                                                                     \
  SHMEMSIM_CXX_STDC_TEAM_(CT, STD, sum_reduce) SHMEMSIM_CXX_STDC_TEAM_(CT, STD, prod_reduce)                \
  SHMEMSIM_CXX_STDC_TEAM_(CT, STD, sum_inscan) SHMEMSIM_CXX_STDC_TEAM_(CT, STD, sum_exscan)                 \
  SHMEMSIM_CXX_STDC_TO_ALL_(CT, STD, sum_to_all) SHMEMSIM_CXX_STDC_TO_ALL_(CT, STD, prod_to_all)
SHMEMSIM_CXX_STDC_ALL_(complexd, std::complex<double>)
SHMEMSIM_CXX_STDC_ALL_(complexf, std::complex<float>)
#undef SHMEMSIM_CXX_STDC_ALL_
#undef SHMEMSIM_CXX_STDC_TEAM_
#undef SHMEMSIM_CXX_STDC_TO_ALL_
#endif

#undef SHMEMSIM_CXX_ONE_
#undef SHMEMSIM_CXX_TWO_

#endif /* __cplusplus */

#endif /* SHMEMSIM_SHMEM_CXX_H */
