/* Type-generic interfaces of OpenSHMEM 1.5 (and of the 1.6 additions of shmemsim/shmem_spec16.h): the C11 _Generic selections (this header, C11 and
 * later, not C++) and the lists of distinct C types they select on (also used by the C++
 * overloads of shmemsim/shmem_cxx.h). Included at the end of shmem.h, outside extern "C".
 *
 * A typedef names the same type as a basic type (int32_t is int, int64_t and ptrdiff_t are long,
 * uint64_t and size_t are unsigned long here), and no two associations of a _Generic selection
 * may name compatible types, so the lists below hold each C type once; a call on an int32_t
 * object selects the int routine (§11 notes this). Every routine with a context form also
 * accepts a shmem_ctx_t first argument (the "ctx-first" forms of the specification). */
#ifndef SHMEMSIM_SHMEM_GENERIC_H
#define SHMEMSIM_SHMEM_GENERIC_H

/* ------------------------------------------------------------------ distinct types, G(TYPE, TYPENAME) */
/* Standard RMA types (Table 5). */
#define SHMEMSIM_GEN_RMA_TYPES(G, OP)                                                               \
  G(float, float, OP) G(double, double, OP) G(long double, longdouble, OP) G(char, char, OP)         \
  G(signed char, schar, OP) G(short, short, OP) G(int, int, OP) G(long, long, OP)                    \
  G(long long, longlong, OP) G(unsigned char, uchar, OP) G(unsigned short, ushort, OP)               \
  G(unsigned int, uint, OP) G(unsigned long, ulong, OP) G(unsigned long long, ulonglong, OP)
/* Standard AMO types (Table 6); also the point-to-point synchronization types (Table 10). */
#define SHMEMSIM_GEN_AMO_STD_TYPES(G, OP)                                                           \
  G(int, int, OP) G(long, long, OP) G(long long, longlong, OP) G(unsigned int, uint, OP)             \
  G(unsigned long, ulong, OP) G(unsigned long long, ulonglong, OP)
/* Extended AMO types (Table 7). */
#define SHMEMSIM_GEN_AMO_EXT_TYPES(G, OP) SHMEMSIM_GEN_AMO_STD_TYPES(G, OP) G(float, float, OP) G(double, double, OP)
/* Bitwise AMO types (Table 8): uint32_t/uint64_t are unsigned int/unsigned long. */
#define SHMEMSIM_GEN_AMO_BIT_TYPES(G, OP)                                                           \
  G(unsigned int, uint, OP) G(unsigned long, ulong, OP) G(unsigned long long, ulonglong, OP)         \
  G(int32_t, int32, OP) G(int64_t, int64, OP)
/* The multi-element point-to-point routines (wait_until_all/_any/_some, test_all/_any/_some and
 * their _vector forms): the standard AMO types and the deprecated short types, which shmemsim
 * declares for them as for wait_until and test (shmemsim/shmem_p2p.h). */
#define SHMEMSIM_GEN_P2P_TYPES(G, OP) \
  SHMEMSIM_GEN_AMO_STD_TYPES(G, OP) G(short, short, OP) G(unsigned short, ushort, OP)
/* wait_until and test also take the deprecated short types; long is the deprecated untyped
 * routine of the same name (same meaning), listed apart so the C++ overloads can leave it out. */
#define SHMEMSIM_GEN_P2P_SCALAR_TYPES(G, OP)                                                        \
  G(int, int, OP) G(long long, longlong, OP) G(unsigned int, uint, OP) G(unsigned long, ulong, OP)   \
  G(unsigned long long, ulonglong, OP) G(short, short, OP) G(unsigned short, ushort, OP)
/* Deprecated 1.3 AMO names (shmem_add, shmem_cswap, ...): int, long, long long (+ float, double). */
#define SHMEMSIM_GEN_DEP_TYPES(G, OP) G(int, int, OP) G(long, long, OP) G(long long, longlong, OP)
#define SHMEMSIM_GEN_DEPX_TYPES(G, OP) SHMEMSIM_GEN_DEP_TYPES(G, OP) G(float, float, OP) G(double, double, OP)

/* Distinct C types of the reduction tables: bitwise (and, or, xor), ordered (max, min) and
 * arithmetic (sum, prod: ordered plus the complex types). */
#define SHMEMSIM_GEN_RED_BIT_TYPES(G, OP)                                                           \
  G(unsigned char, uchar, OP) G(unsigned short, ushort, OP) G(unsigned int, uint, OP)                \
  G(unsigned long, ulong, OP) G(unsigned long long, ulonglong, OP) G(signed char, int8, OP)          \
  G(short, int16, OP) G(int, int32, OP) G(long, int64, OP)
#define SHMEMSIM_GEN_RED_ORD_TYPES(G, OP)                                                           \
  G(char, char, OP) G(signed char, schar, OP) G(short, short, OP) G(int, int, OP) G(long, long, OP)  \
  G(long long, longlong, OP) G(unsigned char, uchar, OP) G(unsigned short, ushort, OP)               \
  G(unsigned int, uint, OP) G(unsigned long, ulong, OP) G(unsigned long long, ulonglong, OP)         \
  G(float, float, OP) G(double, double, OP) G(long double, longdouble, OP)
#define SHMEMSIM_GEN_RED_ARITH_TYPES(G, OP) \
  SHMEMSIM_GEN_RED_ORD_TYPES(G, OP) G(shmemsim_complexd, complexd, OP) G(shmemsim_complexf, complexf, OP)

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)

/* Chosen only for a call whose argument types have no routine: a compile-time error naming it.
 * It returns int so that the error is this one also where the call's value is used (a value-
 * returning routine such as shmem_test_all in a condition), not "void value not ignored". */
#if defined(__GNUC__)
extern int shmemsim_c11_no_routine_for_these_types(const volatile void*, ...)
    __attribute__((__error__("OpenSHMEM: no type-generic routine for these argument types")));
#else
extern int shmemsim_c11_no_routine_for_these_types(const volatile void*, ...);
#endif

#define SHMEMSIM_C11_ARG0_(a, ...) a
#define SHMEMSIM_C11_ARG1_(a, b, ...) b
/* Associations TYPE*: shmem_TYPENAME_OP, with and without the const pointee. */
#define SHMEMSIM_C11_A_(TYPE, TYPENAME, OP) TYPE* : shmem_##TYPENAME##_##OP,
#define SHMEMSIM_C11_AC_(TYPE, TYPENAME, OP) TYPE* : shmem_##TYPENAME##_##OP, const TYPE* : shmem_##TYPENAME##_##OP,
#define SHMEMSIM_C11_X_(TYPE, TYPENAME, OP) TYPE* : shmem_ctx_##TYPENAME##_##OP,
#define SHMEMSIM_C11_XC_(TYPE, TYPENAME, OP) TYPE* : shmem_ctx_##TYPENAME##_##OP, const TYPE* : shmem_ctx_##TYPENAME##_##OP,

/* shmem_OP(args) on the first argument's type; shmem_OP(ctx, args) on the second's. */
#define SHMEMSIM_C11_CTX_(TYPES, A, X, OP, ...)                                      \
  _Generic(SHMEMSIM_C11_ARG0_(__VA_ARGS__, ~), TYPES(A, OP) shmem_ctx_t                \
           : _Generic(SHMEMSIM_C11_ARG1_(__VA_ARGS__, ~, ~), TYPES(X, OP) default      \
                      : shmemsim_c11_no_routine_for_these_types))(__VA_ARGS__)
/* shmem_OP(args) without a context form. */
#define SHMEMSIM_C11_NOCTX_(TYPES, A, OP, LAST, ...) \
  _Generic(SHMEMSIM_C11_ARG0_(__VA_ARGS__, ~), TYPES(A, OP) LAST)(__VA_ARGS__)

/* ------------------------------------------------------------------ RMA (§9.5) */
#define shmem_put(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, put, __VA_ARGS__)
#define shmem_get(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, get, __VA_ARGS__)
#define shmem_p(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, p, __VA_ARGS__)
#define shmem_g(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_AC_, SHMEMSIM_C11_XC_, g, __VA_ARGS__)
#define shmem_iput(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, iput, __VA_ARGS__)
#define shmem_iget(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, iget, __VA_ARGS__)
#define shmem_put_nbi(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, get_nbi, __VA_ARGS__)
/* OpenSHMEM 1.6 blocked strided RMA (shmemsim/shmem_spec16.h). */
#define shmem_ibput(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, ibput, __VA_ARGS__)
#define shmem_ibget(...) SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, ibget, __VA_ARGS__)

/* ------------------------------------------------------------------ signaling (§9.8) */
#define shmem_put_signal(...) \
  SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) \
  SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_RMA_TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, put_signal_nbi, __VA_ARGS__)
/* OpenSHMEM 1.6: shmem_signal_add/set(ctx, sig_addr, signal, pe) is the C11 form of
 * shmem_ctx_signal_add/set; with three arguments the C routine of the same name. */
#define SHMEMSIM_C11_PICK4_(a1, a2, a3, a4, NAME, ...) NAME
#define shmem_signal_add(...) \
  SHMEMSIM_C11_PICK4_(__VA_ARGS__, shmem_ctx_signal_add, shmem_signal_add, ~, ~, ~)(__VA_ARGS__)
#define shmem_signal_set(...) \
  SHMEMSIM_C11_PICK4_(__VA_ARGS__, shmem_ctx_signal_set, shmem_signal_set, ~, ~, ~)(__VA_ARGS__)

/* ------------------------------------------------------------------ AMO (§9.7) */
#define SHMEMSIM_C11_AMO_(TYPES, OP, ...) SHMEMSIM_C11_CTX_(TYPES, SHMEMSIM_C11_A_, SHMEMSIM_C11_X_, OP, __VA_ARGS__)
#define shmem_atomic_fetch(...) \
  SHMEMSIM_C11_CTX_(SHMEMSIM_GEN_AMO_EXT_TYPES, SHMEMSIM_C11_AC_, SHMEMSIM_C11_XC_, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_EXT_TYPES, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_EXT_TYPES, atomic_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_xor, __VA_ARGS__)
/* Non-blocking fetching AMOs: selected on the type of `fetch`. */
#define shmem_atomic_fetch_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_EXT_TYPES, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_EXT_TYPES, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
  SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_STD_TYPES, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) SHMEMSIM_C11_AMO_(SHMEMSIM_GEN_AMO_BIT_TYPES, atomic_fetch_xor_nbi, __VA_ARGS__)

/* Deprecated 1.3 names (Annex "Deprecated"), no context forms. */
#define SHMEMSIM_C11_NOMATCH_ default : shmemsim_c11_no_routine_for_these_types
#define SHMEMSIM_C11_DEP_(TYPES, OP, ...) SHMEMSIM_C11_NOCTX_(TYPES, SHMEMSIM_C11_A_, OP, SHMEMSIM_C11_NOMATCH_, __VA_ARGS__)
#define shmem_add(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEP_TYPES, add, __VA_ARGS__)
#define shmem_cswap(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEP_TYPES, cswap, __VA_ARGS__)
#define shmem_fadd(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEP_TYPES, fadd, __VA_ARGS__)
#define shmem_finc(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEP_TYPES, finc, __VA_ARGS__)
#define shmem_inc(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEP_TYPES, inc, __VA_ARGS__)
#define shmem_swap(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEPX_TYPES, swap, __VA_ARGS__)
#define shmem_set(...) SHMEMSIM_C11_DEP_(SHMEMSIM_GEN_DEPX_TYPES, set, __VA_ARGS__)
#define shmem_fetch(...) \
  SHMEMSIM_C11_NOCTX_(SHMEMSIM_GEN_DEPX_TYPES, SHMEMSIM_C11_AC_, fetch, SHMEMSIM_C11_NOMATCH_, __VA_ARGS__)

/* ------------------------------------------------------------------ point-to-point synchronization (§9.10) */
/* long selects the deprecated untyped routine of the same name (the same operation on long).
 * Each selection has the typed routine's return type: int (test_all), size_t (_any, _some,
 * test_any, test_some) or void (wait_until_all). */
#define SHMEMSIM_C11_P2P_(OP, ...) \
  SHMEMSIM_C11_NOCTX_(SHMEMSIM_GEN_P2P_TYPES, SHMEMSIM_C11_A_, OP, SHMEMSIM_C11_NOMATCH_, __VA_ARGS__)
#define shmem_wait_until(...)                                                                     \
  _Generic(SHMEMSIM_C11_ARG0_(__VA_ARGS__, ~), SHMEMSIM_GEN_P2P_SCALAR_TYPES(SHMEMSIM_C11_A_, wait_until) \
           long* : shmem_wait_until)(__VA_ARGS__)
#define shmem_test(...) \
  _Generic(SHMEMSIM_C11_ARG0_(__VA_ARGS__, ~), SHMEMSIM_GEN_P2P_SCALAR_TYPES(SHMEMSIM_C11_A_, test) long* : shmem_long_test)(__VA_ARGS__)
#define shmem_wait_until_all(...) SHMEMSIM_C11_P2P_(wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SHMEMSIM_C11_P2P_(wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SHMEMSIM_C11_P2P_(wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) SHMEMSIM_C11_P2P_(wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) SHMEMSIM_C11_P2P_(wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) SHMEMSIM_C11_P2P_(wait_until_some_vector, __VA_ARGS__)
#define shmem_test_all(...) SHMEMSIM_C11_P2P_(test_all, __VA_ARGS__)
#define shmem_test_any(...) SHMEMSIM_C11_P2P_(test_any, __VA_ARGS__)
#define shmem_test_some(...) SHMEMSIM_C11_P2P_(test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SHMEMSIM_C11_P2P_(test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SHMEMSIM_C11_P2P_(test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) SHMEMSIM_C11_P2P_(test_some_vector, __VA_ARGS__)


/* ------------------------------------------------------------------ collectives (§9.9), team first */
/* shmem_sync(team) is the C11 name of shmem_team_sync; with four arguments it stays the
 * deprecated active-set routine shmem_sync(PE_start, logPE_stride, PE_size, pSync). */
#define shmem_sync(...) SHMEMSIM_C11_PICK4_(__VA_ARGS__, shmem_sync, ~, ~, shmem_team_sync, ~)(__VA_ARGS__)

/* shmem_OP(team, dest, ...) on the type of dest (the second argument). */
#define SHMEMSIM_C11_TEAM_(TYPES, OP, ...) \
  _Generic(SHMEMSIM_C11_ARG1_(__VA_ARGS__, ~, ~), TYPES(SHMEMSIM_C11_A_, OP) default : shmemsim_c11_no_routine_for_these_types)(__VA_ARGS__)

#define shmem_broadcast(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RMA_TYPES, broadcast, __VA_ARGS__)
#define shmem_collect(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RMA_TYPES, collect, __VA_ARGS__)
#define shmem_fcollect(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RMA_TYPES, fcollect, __VA_ARGS__)
#define shmem_alltoall(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RMA_TYPES, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RMA_TYPES, alltoalls, __VA_ARGS__)
#define shmem_and_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_BIT_TYPES, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_BIT_TYPES, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_BIT_TYPES, xor_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_ORD_TYPES, max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_ORD_TYPES, min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_ARITH_TYPES, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_ARITH_TYPES, prod_reduce, __VA_ARGS__)
/* OpenSHMEM 1.6 prefix sums (shmemsim/shmem_spec16.h): the SUM types. */
#define shmem_sum_inscan(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_ARITH_TYPES, sum_inscan, __VA_ARGS__)
#define shmem_sum_exscan(...) SHMEMSIM_C11_TEAM_(SHMEMSIM_GEN_RED_ARITH_TYPES, sum_exscan, __VA_ARGS__)

#endif /* C11 */

#endif /* SHMEMSIM_SHMEM_GENERIC_H */
