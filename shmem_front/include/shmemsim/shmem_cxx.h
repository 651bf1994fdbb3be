/* The type-generic names of OpenSHMEM 1.5 for C++ programs (shmemsim-c++): overloads of shmem_put,
 * shmem_get, shmem_p, shmem_g, shmem_iput, shmem_iget, shmem_put_nbi, shmem_get_nbi,
 * shmem_put_signal[_nbi], the shmem_atomic_* names, shmem_wait_until[_all|_any|_some][_vector] and
 * shmem_test[_all|_any|_some][_vector], with and without a leading shmem_ctx_t; the team forms
 * shmem_sync(team), shmem_broadcast, shmem_collect, shmem_fcollect, shmem_alltoall[s] and the
 * shmem_{and,or,xor,max,min,sum,prod}_reduce names, selecting the
 * typed routine on the pointer argument as the C11 _Generic selections of shmem_generic.h do. The
 * specification defines these names for C11 only; C++ gets the same spelling through overloading.
 * Included at the end of shmem.h, after shmem_generic.h (type lists), outside extern "C".
 *
 * Each overload forwards its remaining arguments to the typed C routine and takes part in overload
 * resolution only when that call is well-formed. shmem_wait_until on long stays the deprecated C
 * routine of that name (same operation). */
#ifndef SHMEMSIM_SHMEM_CXX_H
#define SHMEMSIM_SHMEM_CXX_H

#ifdef __cplusplus

/* shmem_OP(TYPE* p, args...) -> shmem_TYPENAME_OP(p, args...); Q qualifies the pointee. */
#define SHMEMSIM_CXX_PLAIN_Q_(Q, TYPE, TYPENAME, OP)                                                   \
  template <class... Args>                                                                            \
  inline auto shmem_##OP(Q TYPE* p, Args... args)->decltype(shmem_##TYPENAME##_##OP(p, args...))     \
  {                                                                                                   \
    return shmem_##TYPENAME##_##OP(p, args...);                                                       \
  }
/* ... and shmem_OP(shmem_ctx_t ctx, TYPE* p, args...) -> shmem_ctx_TYPENAME_OP(ctx, p, args...). */
#define SHMEMSIM_CXX_CTX_Q_(Q, TYPE, TYPENAME, OP)                                                              \
  SHMEMSIM_CXX_PLAIN_Q_(Q, TYPE, TYPENAME, OP)                                                                 \
  template <class... Args>                                                                                     \
  inline auto shmem_##OP(shmem_ctx_t ctx, Q TYPE* p, Args... args)->decltype(shmem_ctx_##TYPENAME##_##OP(ctx, p, args...)) \
  {                                                                                                            \
    return shmem_ctx_##TYPENAME##_##OP(ctx, p, args...);                                                       \
  }
#define SHMEMSIM_CXX_PLAIN_(TYPE, TYPENAME, OP) SHMEMSIM_CXX_PLAIN_Q_(, TYPE, TYPENAME, OP)
#define SHMEMSIM_CXX_CTX_(TYPE, TYPENAME, OP) SHMEMSIM_CXX_CTX_Q_(, TYPE, TYPENAME, OP)
#define SHMEMSIM_CXX_CTX_CONST_(TYPE, TYPENAME, OP) SHMEMSIM_CXX_CTX_Q_(const, TYPE, TYPENAME, OP)

/* RMA (§9.5) */
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, put)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, get)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, p)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_CONST_, g)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, iput)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, iget)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, put_nbi)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, get_nbi)

/* Signaling (§9.8) */
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, put_signal)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_CTX_, put_signal_nbi)

/* AMO (§9.7) */
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_CTX_CONST_, atomic_fetch)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_CTX_, atomic_set)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_CTX_, atomic_swap)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_compare_swap)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_inc)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_inc)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_add)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_add)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_and)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_and)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_or)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_or)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_xor)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_xor)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_nbi)
SHMEMSIM_GEN_AMO_EXT_TYPES(SHMEMSIM_CXX_CTX_, atomic_swap_nbi)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_compare_swap_nbi)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_inc_nbi)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_add_nbi)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_and_nbi)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_or_nbi)
SHMEMSIM_GEN_AMO_BIT_TYPES(SHMEMSIM_CXX_CTX_, atomic_fetch_xor_nbi)

/* Point-to-point synchronization (§9.10) */
SHMEMSIM_GEN_P2P_SCALAR_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until)
SHMEMSIM_GEN_P2P_SCALAR_TYPES(SHMEMSIM_CXX_PLAIN_, test)
SHMEMSIM_CXX_PLAIN_(long, long, test)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until_all)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until_any)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until_some)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until_all_vector)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until_any_vector)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, wait_until_some_vector)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, test_all)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, test_any)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, test_some)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, test_all_vector)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, test_any_vector)
SHMEMSIM_GEN_AMO_STD_TYPES(SHMEMSIM_CXX_PLAIN_, test_some_vector)

/* Collectives (§9.9): shmem_OP(team, TYPE* dest, args...) -> shmem_TYPENAME_OP(team, dest, args...) */
#define SHMEMSIM_CXX_TEAM_(TYPE, TYPENAME, OP)                                                             \
  template <class... Args>                                                                              \
  inline auto shmem_##OP(shmem_team_t team, TYPE* dest, Args... args)->decltype(shmem_##TYPENAME##_##OP(team, dest, args...)) \
  {                                                                                                     \
    return shmem_##TYPENAME##_##OP(team, dest, args...);                                               \
  }
inline int shmem_sync(shmem_team_t team)
{
  return shmem_team_sync(team);
}
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_TEAM_, broadcast)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_TEAM_, collect)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_TEAM_, fcollect)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_TEAM_, alltoall)
SHMEMSIM_GEN_RMA_TYPES(SHMEMSIM_CXX_TEAM_, alltoalls)
SHMEMSIM_GEN_RED_BIT_TYPES(SHMEMSIM_CXX_TEAM_, and_reduce)
SHMEMSIM_GEN_RED_BIT_TYPES(SHMEMSIM_CXX_TEAM_, or_reduce)
SHMEMSIM_GEN_RED_BIT_TYPES(SHMEMSIM_CXX_TEAM_, xor_reduce)
SHMEMSIM_GEN_RED_ORD_TYPES(SHMEMSIM_CXX_TEAM_, max_reduce)
SHMEMSIM_GEN_RED_ORD_TYPES(SHMEMSIM_CXX_TEAM_, min_reduce)
SHMEMSIM_GEN_RED_ARITH_TYPES(SHMEMSIM_CXX_TEAM_, sum_reduce)
SHMEMSIM_GEN_RED_ARITH_TYPES(SHMEMSIM_CXX_TEAM_, prod_reduce)

#undef SHMEMSIM_CXX_TEAM_
#undef SHMEMSIM_CXX_PLAIN_Q_
#undef SHMEMSIM_CXX_CTX_Q_
#undef SHMEMSIM_CXX_PLAIN_
#undef SHMEMSIM_CXX_CTX_
#undef SHMEMSIM_CXX_CTX_CONST_

#endif /* __cplusplus */

#endif /* SHMEMSIM_SHMEM_CXX_H */
