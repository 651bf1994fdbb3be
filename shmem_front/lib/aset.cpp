// Seed 003's explicit active sets (shmemx.h, ORNL EXTENSIONS): creation (local: each PE computes
// the member list, PEs outside the set get NULL), queries, deletion, and the blocking collectives
// over a set, which run the library's collective algorithms (collectives.cpp) over the set's
// members with the caller's pSync, as the 1.0 active-set forms do.
#include "shmem_front/lib/Requests.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <set>
#include <string>

using namespace shmemsim::front;

namespace {

/// The calling PE's live sets (a deleted or foreign handle is recognized before it is read).
std::set<shmemx_aset*>& live_asets()
{
  static std::map<const PeState*, std::set<shmemx_aset*>> sets;
  return sets[&pe_state()];
}

/// A set of `members` (world PEs by index): validated; NULL if the caller is not a member.
shmemx_aset* make_aset(const Entry& e, const std::vector<int>& members, const std::string& what)
{
  const int n  = rt().n_pes();
  const int me = rt().my_pe();
  if (members.empty())
    e.fail(what + ": PE_size must be at least 1");
  if (members.size() > (1u << kMaxRounds))
    e.fail(what + ": more than 65536 PEs");
  std::set<int> seen;
  int mine = -1;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int pe = members[i];
    if (pe < 0 || pe >= n)
      e.fail(what + ": member " + std::to_string(i) + " is PE " + std::to_string(pe) + ", not a PE of the job (0.." +
             std::to_string(n - 1) + ")");
    if (!seen.insert(pe).second)
      e.fail(what + ": PE " + std::to_string(pe) + " appears twice (members must be distinct)");
    if (pe == me)
      mine = static_cast<int>(i);
  }
  if (mine < 0)
    return nullptr; // the seed: PEs that are not part of the set get NULL
  auto* a    = new shmemx_aset;
  a->owner   = me;
  a->members = PeList::listed(members);
  a->me      = mine;
  live_asets().insert(a);
  return a;
}

std::string args(int a, int b, int c)
{
  return "(" + std::to_string(a) + ", " + std::to_string(b) + ", " + std::to_string(c);
}

std::size_t bytes_of(const Entry& e, std::size_t nelems, std::size_t elem)
{
  std::size_t b = 0;
  if (__builtin_mul_overflow(nelems, elem, &b))
    e.fail("nelems " + std::to_string(nelems) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  return b;
}

/// The set as a Group on the caller's pSync (SHMEM_SYNC_SIZE longs, symmetric).
Group aset_group(const Entry& e, shmemx_aset* a, long* pSync)
{
  if (pSync == nullptr)
    e.fail("pSync is NULL");
  e.check_symmetric(pSync, sizeof(long) * SHMEM_SYNC_SIZE, "pSync");
  Group g;
  g.members   = &a->members;
  g.me        = a->me;
  g.words     = reinterpret_cast<std::uint64_t*>(pSync);
  g.any_calls = nullptr;
  g.routine   = e.routine();
  g.psync     = true;
  return g;
}

void aset_broadcast(const char* name, void* dest, const void* source, std::size_t nelems, std::size_t elem, int root,
                    shmemx_aset* aset, long* pSync)
{
  Entry e(name);
  shmemx_aset* a          = check_aset(e, aset);
  const std::size_t bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(dest, bytes, "dest");
  const int n = static_cast<int>(a->members.size());
  if (root < 0 || root >= n)
    e.fail("PE_root " + std::to_string(root) + " is not an index of the active set (0.." + std::to_string(n - 1) + ")");
  Group g = aset_group(e, a, pSync);
  group_broadcast(g, dest, source, bytes, root);
}

void aset_collect(const char* name, bool fixed, void* dest, const void* source, std::size_t nelems, std::size_t elem,
                  shmemx_aset* aset, long* pSync)
{
  Entry e(name);
  shmemx_aset* a          = check_aset(e, aset);
  const std::size_t bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(source, bytes, "source");
  e.check_symmetric(dest, fixed ? bytes * a->members.size() : bytes, "dest");
  Group g = aset_group(e, a, pSync);
  group_collect(g, dest, source, bytes, fixed);
}

template <class T>
void aset_reduce(const char* name, RedOp op, T* dest, const T* source, int nreduce, shmemx_aset* aset, long* pSync)
{
  Entry e(name);
  shmemx_aset* a = check_aset(e, aset);
  if (nreduce < 0)
    e.fail("nreduce " + std::to_string(nreduce) + " is negative");
  const std::size_t bytes = static_cast<std::size_t>(nreduce) * sizeof(T);
  e.check_symmetric(dest, bytes, "dest");
  e.check_symmetric(source, bytes, "source");
  Group g = aset_group(e, a, pSync);
  group_reduce(g, op, red_type<T>(), dest, source, static_cast<std::size_t>(nreduce));
}

} // namespace

namespace shmemsim::front {

shmemx_aset* check_aset(const Entry& e, shmemx_aset* aset)
{
  if (aset == nullptr)
    e.fail("aset is NULL (the calling PE is not in the active set: its creation returned NULL)");
  if (live_asets().count(aset) == 0)
    e.fail("aset " + hex(aset) + " is not a live active set of this PE (deleted, or another PE's)");
  return aset;
}

} // namespace shmemsim::front

// Blocking bodies per KIND (pWrk: the algorithms need no work array); the non-blocking ones are
// in nb_collectives.cpp.
#define SHMEMX_AS_broadcast(NAME, ELEM) aset_broadcast(NAME, dest, source, nelems, ELEM, PE_root, aset, pSync)
#define SHMEMX_AS_collect(NAME, ELEM) aset_collect(NAME, false, dest, source, nelems, ELEM, aset, pSync)
#define SHMEMX_AS_fcollect(NAME, ELEM) aset_collect(NAME, true, dest, source, nelems, ELEM, aset, pSync)
#define SHMEMX_AS_and_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::And, dest, source, nreduce, aset, pSync))
#define SHMEMX_AS_or_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::Or, dest, source, nreduce, aset, pSync))
#define SHMEMX_AS_xor_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::Xor, dest, source, nreduce, aset, pSync))
#define SHMEMX_AS_max_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::Max, dest, source, nreduce, aset, pSync))
#define SHMEMX_AS_min_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::Min, dest, source, nreduce, aset, pSync))
#define SHMEMX_AS_sum_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::Sum, dest, source, nreduce, aset, pSync))
#define SHMEMX_AS_prod_(NAME, T) ((void)pWrk, aset_reduce(NAME, RedOp::Prod, dest, source, nreduce, aset, pSync))

#define SHMEMX_AS_DEFINE(RET, BASE, KIND, ELEM, PARAMS, ARGS)                                                          \
  RET shmemx_##BASE##_aset PARAMS                                                                                      \
  {                                                                                                                    \
    SHMEMX_AS_##KIND("shmemx_" #BASE "_aset", ELEM);                                                                   \
  }
#define SHMEMX_AS_SIZED_(SIZE) SHMEMX_ASET_COLL_SIZED_ROUTINES(SHMEMX_AS_DEFINE, SIZE)
#define SHMEMX_AS_RB_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_BITWISE_ROUTINES(SHMEMX_AS_DEFINE, TYPE, TYPENAME)
#define SHMEMX_AS_RA_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_ARITH_ROUTINES(SHMEMX_AS_DEFINE, TYPE, TYPENAME)

extern "C" {

shmemx_aset* shmemx_create_strided_aset(int PE_start, int PE_stride, int PE_size)
{
  Entry e("shmemx_create_strided_aset");
  std::vector<int> m;
  for (long i = 0; i < PE_size; ++i)
    m.push_back(static_cast<int>(PE_start + i * PE_stride));
  return make_aset(e, m, "strided set " + args(PE_start, PE_stride, PE_size) + ")");
}

shmemx_aset* shmemx_create_log_strided_aset(int PE_start, int PE_log_stride, int PE_size, int stride_base)
{
  Entry e("shmemx_create_log_strided_aset");
  const std::string what =
      "log-strided set " + args(PE_start, PE_log_stride, PE_size) + ", " + std::to_string(stride_base) + ")";
  if (stride_base < 1 || PE_log_stride < 0)
    e.fail(what + ": stride_base must be at least 1 and PE_log_stride at least 0");
  long stride = 1; // stride_base ** PE_log_stride, the distance between members
  for (int k = 0; k < PE_log_stride && PE_size > 1; ++k)
    if ((stride *= stride_base) >= rt().n_pes())
      e.fail(what + ": the stride " + std::to_string(stride_base) + "^" + std::to_string(PE_log_stride) +
             " leaves the job's " + std::to_string(rt().n_pes()) + " PEs after the first member");
  std::vector<int> m;
  for (long i = 0; i < PE_size; ++i)
    m.push_back(static_cast<int>(PE_start + i * stride));
  return make_aset(e, m, what);
}

shmemx_aset* shmemx_create_custom_aset(int PE_start, shmemx_offset_fn offset, int PE_size, void* const_params)
{
  Entry e("shmemx_create_custom_aset");
  if (offset == nullptr)
    e.fail("offset function is NULL");
  std::vector<int> m;
  for (int i = 0; i < PE_size; ++i)
    m.push_back(offset(i, PE_start, PE_size, const_params));
  return make_aset(e, m,
                   "custom set (PE_start " + std::to_string(PE_start) + ", PE_size " + std::to_string(PE_size) + ")");
}

shmemx_aset* shmemx_create_generic_aset(int* PE_list, int PE_size)
{
  Entry e("shmemx_create_generic_aset");
  if (PE_list == nullptr && PE_size > 0)
    e.fail("PE_list is NULL");
  std::vector<int> m(PE_list, PE_list + (PE_size > 0 ? PE_size : 0));
  return make_aset(e, m, "generic set of " + std::to_string(PE_size) + " PEs");
}

int shmemx_in_aset(shmemx_aset* aset)
{
  Entry e("shmemx_in_aset");
  return aset == nullptr ? 0 : (check_aset(e, aset), 1);
}

int shmemx_aset_size(shmemx_aset* aset)
{
  Entry e("shmemx_aset_size");
  return aset == nullptr ? 0 : static_cast<int>(check_aset(e, aset)->members.size());
}

void shmemx_delete_aset(shmemx_aset* aset)
{
  Entry e("shmemx_delete_aset");
  if (aset == nullptr)
    return; // PEs outside the set delete their NULL
  check_aset(e, aset);
  if (aset->outstanding > 0)
    e.fail(std::to_string(aset->outstanding) + " non-blocking collective(s) on the set have not completed "
                                               "(wait for their requests first)");
  live_asets().erase(aset);
  delete aset;
}

void shmemx_barrier_aset(shmemx_aset* aset, long* pSync)
{
  Entry e("shmemx_barrier_aset");
  shmemx_aset* a = check_aset(e, aset);
  Group g        = aset_group(e, a, pSync);
  tp().quiet(default_ctx()); // as shmem_barrier: the default context's operations complete
  group_sync(g);
}

SHMEMX_ASET_SIZES(SHMEMX_AS_SIZED_)
SHMEMX_ASET_BITWISE_TYPES(SHMEMX_AS_RB_)
SHMEMX_ASET_ARITH_TYPES(SHMEMX_AS_RA_)

} // extern "C"
