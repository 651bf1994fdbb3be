// Collectives (OpenSHMEM 1.5 §9.9) as real algorithms over the transport seam: puts, gets and
// atomic adds on symmetric words, waits on those words, so their cost is simulated. The team
// forms use the team's reserved-heap slot, the deprecated active-set forms the caller's pSync;
// the signalling discipline (which words, why counting is exact under unordered delivery) is
// described in coll_team.hpp.
//
// Algorithms (scenario keys job.collectives.*, CollectiveParams.hpp, read through Runtime::collectives):
//   barrier   dissemination (default) | tree (binomial gather + release, root 0) | triggered (that tree
//             run by the NICs: Transport::offloaded_sync)
//             — shmem_barrier_all, shmem_sync_all, shmem_barrier, shmem_sync, shmem_team_sync
//             and team management
//   broadcast binomial (default) | linear (root puts to everyone once all have arrived) | triggered
//             (the binomial tree's forwarding done by the NICs: Transport::offloaded_broadcast)
//   collect   ring (default) | linear (everyone puts to everyone) — collect and fcollect
//   reduce    recursive_doubling (default; get-based, with fold-in of the PEs beyond the largest
//             power of two) | linear (PE 0 of the set gets every source, reduces, puts the result)
//             | ring (reduce-scatter + allgather in n chunks, on gets: bandwidth-optimal) | triggered
//             (integers combined by the NICs' atomics: Transport::offloaded_reduce)
//   alltoall  one algorithm: pairwise-shifted puts (PE i sends to i+1, i+2, ...), then signals.
#include "shmem_front/lib/Sync.hpp"
#include "base/Assert.hpp"
#include "shmem_front/lib/SignalJournal.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <cstring>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

using namespace shmemsim::front;

namespace shmemsim::front {

namespace {

TransportCtx* ctx0()
{
  return default_ctx();
}

/// The configured algorithms (job.collectives.*, parsed once by the scenario layer).
CollectiveParams algorithms()
{
  return rt().collectives();
}

int log2i(unsigned v)
{
  int k = 0;
  while ((1u << k) < v)
    ++k;
  return k;
}

unsigned lowbit(unsigned v)
{
  return v & (~v + 1);
}

void signal(Group& g, int idx, int word, std::uint64_t v = 1)
{
  if (g.psync)
    tp().signal(ctx0(), &g.words[word], v, g.pe(idx));
  else
    tp().amo(ctx0(), AmoOp::Add, AmoType::Uint64, &g.words[word], &v, g.pe(idx));
}

/// For the report of a wait on a word of the caller's pSync: whether a signal that landed there
/// was overwritten by the program since (SignalJournal.hpp).
struct PsyncNote final : WaitNote {
  SignalJournal* journal    = nullptr; ///< the waiting PE's
  const std::uint64_t* word = nullptr;
  int index = 0, pe = 0;
  const char* routine = "";
  std::string note() const override
  {
    SignalJournal::Overwrite o;
    if (journal == nullptr || !journal->overwritten(word, &o))
      return {};
    return SignalJournal::describe(o, "pSync[" + std::to_string(index) + "]", pe, routine);
  }
};

/// Wait until `done()`: on a word of the caller's pSync with a note for reports, else plainly.
template <class F> void wait_word(Group& g, int word, F done)
{
  if (!g.psync) {
    wait_for(g.routine, done);
    return;
  }
  PsyncNote note;
  note.journal = tp().signal_journal();
  note.word    = &g.words[word];
  note.index   = word;
  note.pe      = rt().my_pe();
  note.routine = g.routine;
  wait_for(g.routine, done, &g.words[word], &note);
}

/// The library changed a word of its own accord (took signals): not the program.
void own(Group& g, int word)
{
  if (!g.psync)
    return;
  if (SignalJournal* j = tp().signal_journal())
    j->own(&g.words[word]);
}

/// Wait until the word holds `need`, then take it.
void await(Group& g, int word, std::uint64_t need)
{
  const std::uint64_t* w = &g.words[word];
  wait_word(g, word, [&] { return load_updated(w) >= need; });
  __atomic_fetch_sub(&g.words[word], need, __ATOMIC_SEQ_CST);
  own(g, word);
}

/// Wait until every bit of `bits` is set (taken later by `take`).
void await_bits(Group& g, int word, std::uint64_t bits)
{
  const std::uint64_t* w = &g.words[word];
  wait_word(g, word, [&] { return (load_updated(w) & bits) == bits; });
}

void take(Group& g, int word, std::uint64_t v)
{
  if (v == 0)
    return;
  __atomic_fetch_sub(&g.words[word], v, __ATOMIC_SEQ_CST);
  own(g, word);
}

void put(Group& g, void* dest, const void* src, std::size_t n, int idx)
{
  if (n != 0)
    tp().put(ctx0(), dest, src, n, g.pe(idx), true);
}

void fence()
{
  tp().fence(ctx0());
}

// ---------------------------------------------------------------- barrier

void sync_dissemination(Group& g)
{
  const int n = g.n();
  int k       = 0;
  for (int dist = 1; dist < n; dist *= 2, ++k) {
    signal(g, (g.me + dist) % n, kDown + k);
    await(g, kDown + k, 1);
  }
}

void sync_tree(Group& g)
{
  const int n          = g.n();
  const int me         = g.me;
  const unsigned limit = me == 0 ? static_cast<unsigned>(n) : lowbit(static_cast<unsigned>(me));
  int children         = 0;
  for (unsigned m = 1; m < limit && me + static_cast<int>(m) < n; m <<= 1)
    ++children;
  if (children != 0)
    await(g, kGather, static_cast<std::uint64_t>(children));
  if (me != 0) {
    signal(g, me - static_cast<int>(limit), kGather);
    await(g, kDown + log2i(limit), 1);
  }
  for (unsigned m = 1; m < limit && me + static_cast<int>(m) < n; m <<= 1)
    signal(g, me + static_cast<int>(m), kDown + log2i(m));
}

// ---------------------------------------------------------------- broadcast

/// Once per process and reason (every member falls back alike: the reason depends on the NIC,
/// the type and the size only): `key` could not be offloaded, `algorithm` runs instead.
void offload_notice(const char* key, const char* why, const char* algorithm)
{
  static std::set<std::string> noticed;
  if (noticed.insert(std::string(key) + why).second)
    tp().counter_source().notice("PE " + std::to_string(rt().my_pe()) + ": " + key + "=triggered: " + why + "; " +
                                 algorithm);
}

void bcast_binomial(Group& g, void* dest, const void* source, std::size_t bytes, int root)
{
  const int n        = g.n();
  const unsigned rel = static_cast<unsigned>((g.me - root + n) % n);
  const void* from   = source;
  unsigned limit     = static_cast<unsigned>(n);
  if (rel != 0) {
    limit = lowbit(rel);
    await(g, kDown + log2i(limit), 1); // from my parent, 2^k below
    from = dest;
  }
  std::vector<int> kids;
  for (unsigned m = 1; m < limit && rel + m < static_cast<unsigned>(n); m <<= 1)
    kids.push_back(static_cast<int>(m));
  for (auto it = kids.rbegin(); it != kids.rend(); ++it) // largest subtree first
    put(g, dest, from, bytes, (g.me + *it) % n);
  if (!kids.empty())
    fence();
  for (auto it = kids.rbegin(); it != kids.rend(); ++it)
    signal(g, (g.me + *it) % n, kDown + log2i(static_cast<unsigned>(*it)));
}

void bcast_linear(Group& g, void* dest, const void* source, std::size_t bytes, int root)
{
  const int n   = g.n();
  const int any = kAny + g.next_bank();
  if (g.me != root) {
    signal(g, root, any);
    await(g, any, 1);
    return;
  }
  await(g, any, static_cast<std::uint64_t>(n - 1)); // everyone has arrived
  for (int i = 1; i < n; ++i)
    put(g, dest, source, bytes, (root + i) % n);
  fence();
  for (int i = 1; i < n; ++i)
    signal(g, (root + i) % n, any);
}

/// `root_dest`: whether the root's dest is written too (team form) or not (active-set form).
void broadcast(Group& g, void* dest, const void* source, std::size_t bytes, int root, bool root_dest)
{
  if (g.me == root && root_dest && dest != source && bytes != 0)
    std::memmove(dest, source, bytes);
  if (g.n() == 1)
    return;
  switch (algorithms().broadcast) {
    case BroadcastAlgorithm::Binomial:
      bcast_binomial(g, dest, source, bytes, root);
      break;
    case BroadcastAlgorithm::Linear:
      bcast_linear(g, dest, source, bytes, root);
      break;
    case BroadcastAlgorithm::Triggered:
      if (const char* why = tp().offloaded_broadcast(*g.members, g.me, dest, source, bytes, root)) {
        offload_notice("job.collectives.broadcast", why, "broadcasts run as binomial");
        bcast_binomial(g, dest, source, bytes, root);
      }
      break;
  }
}

// ---------------------------------------------------------------- collect / fcollect

/// Blocks of sizes[i] bytes at offsets off[i] of dest; the caller's block comes from source.
void gather_blocks(Group& g, char* dest, const void* source, const std::vector<std::size_t>& off,
                   const std::vector<std::size_t>& sizes)
{
  const int n  = g.n();
  const int me = g.me;
  const auto m = static_cast<std::size_t>(me);
  if (sizes[m] != 0 && dest + off[m] != source)
    std::memmove(dest + off[m], source, sizes[m]);
  if (n == 1)
    return;
  if (algorithms().collect == CollectAlgorithm::Ring) {
    // Ring: in step s pass block me-s to the right; the left neighbour (1 below: DOWN[0]) passes
    // block me-s-1 to me.
    const int right = (me + 1) % n;
    for (int s = 0; s < n - 1; ++s) {
      const auto b = static_cast<std::size_t>((me - s + n) % n);
      put(g, dest + off[b], dest + off[b], sizes[b], right);
      fence();
      signal(g, right, kDown + 0);
      await(g, kDown + 0, 1);
    }
  } else {
    const int any = kAny + g.next_bank();
    for (int s = 1; s < n; ++s)
      put(g, dest + off[m], dest + off[m], sizes[m], (me + s) % n);
    fence();
    for (int s = 1; s < n; ++s)
      signal(g, (me + s) % n, any);
    await(g, any, static_cast<std::uint64_t>(n - 1));
  }
}

void fcollect(Group& g, void* dest, const void* source, std::size_t block)
{
  const auto n = static_cast<std::size_t>(g.n());
  std::vector<std::size_t> off(n), sizes(n, block);
  for (std::size_t i = 0; i < n; ++i)
    off[i] = i * block;
  gather_blocks(g, static_cast<char*>(dest), source, off, sizes);
}

void group_sync_impl(Group& g);

void collect(Group& g, void* dest, const void* source, std::size_t bytes)
{
  const int n = g.n();
  std::vector<std::size_t> sizes(static_cast<std::size_t>(n)), off(static_cast<std::size_t>(n));
  sizes[static_cast<std::size_t>(g.me)] = bytes;
  if (n > 1) {
    // Everyone publishes its size, synchronizes, and reads the others' sizes.
    g.words[kSize] = bytes;
    group_sync_impl(g);
    std::vector<std::uint64_t> got(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
      if (i != g.me)
        tp().get(ctx0(), &got[static_cast<std::size_t>(i)], &g.words[kSize], sizeof(std::uint64_t), g.pe(i), false);
    tp().quiet(ctx0());
    for (int i = 0; i < n; ++i)
      if (i != g.me)
        sizes[static_cast<std::size_t>(i)] = got[static_cast<std::size_t>(i)];
  }
  std::size_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    off[i] = total;
    total += sizes[i];
  }
  gather_blocks(g, static_cast<char*>(dest), source, off, sizes);
  // Every other member read my size before sending me its block: the word can be cleared.
  g.words[kSize] = 0;
}

// ---------------------------------------------------------------- alltoall(s)

/// Block j of the caller goes to member j: `elem`-byte elements, `nelems` per block, element i of
/// block j read at source[(j*nelems + i)*sst] and written at dest[(me*nelems + i)*dst] of j.
void alltoalls(Group& g, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems,
               std::size_t elem)
{
  const int n   = g.n();
  const int me  = g.me;
  auto* d       = static_cast<char*>(dest);
  const auto* s = static_cast<const char*>(source);
  std::vector<char> block(nelems * elem);
  auto at = [&](std::size_t blk, std::size_t i, std::ptrdiff_t stride) {
    return static_cast<std::ptrdiff_t>(blk * nelems + i) * stride * static_cast<std::ptrdiff_t>(elem);
  };
  for (int k = 0; k < n; ++k) {
    const int j   = (me + k) % n;
    const auto bj = static_cast<std::size_t>(j);
    for (std::size_t i = 0; i < nelems; ++i) // gather block j (contiguous staging: source may be strided)
      std::memcpy(block.data() + i * elem, s + at(bj, i, sst), elem);
    const auto bm = static_cast<std::size_t>(me);
    if (j == me) {
      for (std::size_t i = 0; i < nelems; ++i)
        std::memcpy(d + at(bm, i, dst), block.data() + i * elem, elem);
    } else if (dst == 1) {
      put(g, d + at(bm, 0, dst), block.data(), nelems * elem, j);
    } else {
      for (std::size_t i = 0; i < nelems; ++i)
        put(g, d + at(bm, i, dst), block.data() + i * elem, elem, j);
    }
  }
  if (n == 1)
    return;
  const int any = kAny + g.next_bank();
  fence();
  for (int k = 1; k < n; ++k)
    signal(g, (me + k) % n, any);
  await(g, any, static_cast<std::uint64_t>(n - 1));
}

// ---------------------------------------------------------------- reductions

/// Recursive doubling on gets: each member publishes its partial in its own dest, tells its
/// partner (READY bit of the round), gets the partner's, tells it (DONE bit) and combines; the
/// lower member's partial is always the left operand, so both partners hold identical values.
/// Members beyond the largest power of two fold in first and get the result at the end.
template <class T, class Op> void reduce_rd(Group& g, T* dest, const T* source, std::size_t count, Op op)
{
  const int P = g.n(), me = g.me;
  const std::size_t bytes = count * sizeof(T);
  std::vector<T> acc(source, source + count), tmp(count);
  if (P == 1) {
    if (bytes != 0)
      std::memmove(dest, acc.data(), bytes);
    return;
  }
  const int bank  = g.next_bank();
  const int ready = kReady + bank, done = kDone + bank;
  constexpr std::uint64_t kFoldIn = 1ull << 20, kFoldOut = 1ull << 21;
  int p2 = 1;
  while (p2 * 2 <= P)
    p2 *= 2;
  std::uint64_t got_ready = 0, got_done = 0;
  if (me >= p2) {
    if (bytes != 0)
      std::memmove(dest, acc.data(), bytes);
    signal(g, me - p2, ready, kFoldIn);
    await_bits(g, ready, kFoldOut); // the result is in my dest
    take(g, ready, kFoldOut);
    return;
  }
  if (me + p2 < P) {
    await_bits(g, ready, kFoldIn);
    got_ready |= kFoldIn;
    if (bytes != 0)
      tp().get(ctx0(), tmp.data(), dest, bytes, g.pe(me + p2), true);
    for (std::size_t i = 0; i < count; ++i)
      acc[i] = op(acc[i], tmp[i]);
  }
  std::uint64_t pending = 0; // my previous partner has not yet read my dest
  int k                 = 0;
  for (int mask = 1; mask < p2; mask <<= 1, ++k) {
    const int q             = me ^ mask;
    const std::uint64_t bit = 1ull << k;
    if (pending != 0) {
      await_bits(g, done, pending);
      got_done |= pending;
    }
    if (bytes != 0)
      std::memmove(dest, acc.data(), bytes);
    signal(g, q, ready, bit);
    await_bits(g, ready, bit);
    got_ready |= bit;
    if (bytes != 0)
      tp().get(ctx0(), tmp.data(), dest, bytes, g.pe(q), true);
    signal(g, q, done, bit);
    pending = bit;
    for (std::size_t i = 0; i < count; ++i)
      acc[i] = me < q ? op(acc[i], tmp[i]) : op(tmp[i], acc[i]);
  }
  if (pending != 0) {
    await_bits(g, done, pending);
    got_done |= pending;
  }
  if (bytes != 0)
    std::memmove(dest, acc.data(), bytes);
  if (me + p2 < P) {
    put(g, dest, dest, bytes, me + p2);
    fence();
    signal(g, me + p2, ready, kFoldOut);
  }
  take(g, ready, got_ready);
  take(g, done, got_done);
}

/// Linear: member 0 waits for everyone, gets every source, reduces in member order and puts the
/// result to everyone.
template <class T, class Op> void reduce_linear(Group& g, T* dest, const T* source, std::size_t count, Op op)
{
  const int P             = g.n();
  const std::size_t bytes = count * sizeof(T);
  if (P == 1) {
    if (bytes != 0 && dest != source)
      std::memmove(dest, source, bytes);
    return;
  }
  const int any = kAny + g.next_bank();
  if (g.me != 0) {
    signal(g, 0, any); // my source is ready
    await(g, any, 1);  // the result is in my dest
    return;
  }
  std::vector<T> acc(source, source + count), tmp(count);
  await(g, any, static_cast<std::uint64_t>(P - 1));
  for (int i = 1; i < P; ++i) {
    if (bytes != 0)
      tp().get(ctx0(), tmp.data(), source, bytes, g.pe(i), true);
    for (std::size_t j = 0; j < count; ++j)
      acc[j] = op(acc[j], tmp[j]);
  }
  if (bytes != 0)
    std::memmove(dest, acc.data(), bytes);
  for (int i = 1; i < P; ++i)
    put(g, dest, dest, bytes, i);
  fence();
  for (int i = 1; i < P; ++i)
    signal(g, i, any);
}

/// Ring (bandwidth-optimal, on gets): the data in n chunks; reduce-scatter, then allgather, each
/// n-1 steps. In a step a member publishes a chunk in its dest and tells its right neighbour
/// (DOWN[0]), which gets it, tells it back (FROM_RIGHT) and combines it with its own source chunk
/// (reduce-scatter) or keeps it (allgather). Every chunk is combined in one order, once.
template <class T, class Op> void reduce_ring(Group& g, T* dest, const T* source, std::size_t count, Op op)
{
  const int P = g.n(), me = g.me;
  if (P == 1) {
    if (count != 0 && dest != source)
      std::memmove(dest, source, count * sizeof(T));
    return;
  }
  auto lo        = [&](int c) { return count * static_cast<std::size_t>(c) / static_cast<std::size_t>(P); };
  auto len       = [&](int c) { return lo(c + 1) - lo(c); };
  const int left = (me - 1 + P) % P, right = (me + 1) % P;
  std::vector<T> tmp(count / static_cast<std::size_t>(P) + 1);
  // Reduce-scatter: publish chunk me-s, combine the left neighbour's chunk me-1-s with mine.
  if (len(me) != 0 && dest != source)
    std::memmove(dest + lo(me), source + lo(me), len(me) * sizeof(T));
  for (int s = 0; s < P - 1; ++s) {
    signal(g, right, kDown + 0);
    await(g, kDown + 0, 1);
    const int c = (me - 1 - s + 2 * P) % P;
    if (len(c) != 0)
      tp().get(ctx0(), tmp.data(), dest + lo(c), len(c) * sizeof(T), g.pe(left), true);
    signal(g, left, kFromRight);
    for (std::size_t i = 0; i < len(c); ++i)
      dest[lo(c) + i] = op(tmp[i], source[lo(c) + i]);
  }
  // My right neighbour has read every chunk I published: the final chunks may now land.
  await(g, kFromRight, static_cast<std::uint64_t>(P - 1));
  // Allgather: publish chunk me+1-s, get the left neighbour's chunk me-s.
  for (int s = 0; s < P - 1; ++s) {
    signal(g, right, kDown + 0);
    await(g, kDown + 0, 1);
    const int c = (me - s + P) % P;
    if (len(c) != 0)
      tp().get(ctx0(), dest + lo(c), dest + lo(c), len(c) * sizeof(T), g.pe(left), true);
    signal(g, left, kFromRight);
  }
  await(g, kFromRight, static_cast<std::uint64_t>(P - 1)); // nobody reads my dest any more
}

template <class Op> RedOp red_op_of();

template <class T, class Op> void reduce(Group& g, T* dest, const T* source, std::size_t count, Op op)
{
  switch (algorithms().reduce) {
    case ReduceAlgorithm::Triggered:
      if (g.n() > 1 && count > 0) {
        const char* why =
            tp().offloaded_reduce(*g.members, g.me, red_op_of<Op>(),
                                  RedElem{sizeof(T), std::is_integral_v<T>, std::is_signed_v<T>}, dest, source, count);
        if (why == nullptr)
          break;
        offload_notice("job.collectives.reduce", why, "reductions run as recursive_doubling");
      }
      reduce_rd(g, dest, source, count, op);
      break;
    case ReduceAlgorithm::RecursiveDoubling:
      reduce_rd(g, dest, source, count, op);
      break;
    case ReduceAlgorithm::Linear:
      reduce_linear(g, dest, source, count, op);
      break;
    case ReduceAlgorithm::Ring:
      reduce_ring(g, dest, source, count, op);
      break;
  }
}

void group_sync_impl(Group& g)
{
  if (g.n() > 1 << kMaxRounds)
    rt().fatal(std::string(g.routine) + ": more than 65536 PEs in a team");
  if (g.n() == 1)
    return;
  switch (algorithms().barrier) {
    case BarrierAlgorithm::Dissemination:
      sync_dissemination(g);
      break;
    case BarrierAlgorithm::Tree:
      sync_tree(g);
      break;
    case BarrierAlgorithm::Triggered:
      if (!tp().offloaded_sync(*g.members, g.me)) {
        static bool noticed = false; // a transport without triggered operations: once per process
        if (!noticed) {
          noticed = true;
          tp().counter_source().notice("PE " + std::to_string(rt().my_pe()) +
                                       ": job.collectives.barrier=triggered: this NIC has no triggered operations; "
                                       "barriers run as tree");
        }
        sync_tree(g);
      }
      break;
  }
}

// ---------------------------------------------------------------- operators

struct OpAnd {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a & b); }
};
struct OpOr {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a | b); }
};
struct OpXor {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a ^ b); }
};
struct OpMax {
  template <class T> T operator()(T a, T b) const { return b > a ? b : a; }
};
struct OpMin {
  template <class T> T operator()(T a, T b) const { return b < a ? b : a; }
};
struct OpSum {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a + b); }
};
struct OpProd {
  template <class T> T operator()(T a, T b) const { return static_cast<T>(a * b); }
};

template <class Op> RedOp red_op_of()
{
  if constexpr (std::is_same_v<Op, OpAnd>)
    return RedOp::And;
  else if constexpr (std::is_same_v<Op, OpOr>)
    return RedOp::Or;
  else if constexpr (std::is_same_v<Op, OpXor>)
    return RedOp::Xor;
  else if constexpr (std::is_same_v<Op, OpMax>)
    return RedOp::Max;
  else if constexpr (std::is_same_v<Op, OpMin>)
    return RedOp::Min;
  else if constexpr (std::is_same_v<Op, OpSum>)
    return RedOp::Sum;
  else
    return RedOp::Prod;
}

} // namespace

void group_sync(Group& g)
{
  group_sync_impl(g);
}

std::uint64_t group_or(Group& g, std::uint64_t value)
{
  g.words[kVal] = value;
  reduce_rd(g, &g.words[kVal + 1], &g.words[kVal], 1, OpOr{});
  return g.words[kVal + 1];
}

void group_broadcast(Group& g, void* dest, const void* source, std::size_t bytes, int root)
{
  broadcast(g, dest, source, bytes, root, false);
}

void group_collect(Group& g, void* dest, const void* source, std::size_t bytes, bool fixed)
{
  if (fixed)
    fcollect(g, dest, source, bytes);
  else
    collect(g, dest, source, bytes);
}

namespace {
/// Calls f(T{}, Op{}) for the element type and operation (bitwise operations on integers only).
template <class F> void with_op(RedOp op, RedType t, F f)
{
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    switch (op) {
      case RedOp::Max:
        return f(zero, OpMax{});
      case RedOp::Min:
        return f(zero, OpMin{});
      case RedOp::Sum:
        return f(zero, OpSum{});
      case RedOp::Prod:
        return f(zero, OpProd{});
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case RedOp::And:
          return f(zero, OpAnd{});
        case RedOp::Or:
          return f(zero, OpOr{});
        default:
          return f(zero, OpXor{});
      }
    }
    SHMEMSIM_ASSERT(false, "a bitwise reduction on a floating-point type");
  };
  switch (t) {
    case RedType::Short:
      return typed(short{});
    case RedType::Int:
      return typed(int{});
    case RedType::Long:
      return typed(long{});
    case RedType::LongLong:
      return typed(0LL);
    case RedType::Float:
      return typed(float{});
    case RedType::Double:
      return typed(double{});
  }
}
} // namespace

void group_reduce(Group& g, RedOp op, RedType t, void* dest, const void* source, std::size_t count)
{
  with_op(op, t, [&](auto zero, auto o) {
    using T = decltype(zero);
    reduce(g, static_cast<T*>(dest), static_cast<const T*>(source), count, o);
  });
}

void combine(RedOp op, RedType t, void* acc, const void* in, std::size_t count)
{
  with_op(op, t, [&](auto zero, auto o) {
    using T       = decltype(zero);
    auto* a       = static_cast<T*>(acc);
    const auto* b = static_cast<const T*>(in);
    for (std::size_t i = 0; i < count; ++i)
      a[i] = o(a[i], b[i]);
  });
}

} // namespace shmemsim::front

// ---------------------------------------------------------------- entry points

namespace {

std::size_t bytes_of(const Entry& e, std::size_t nelems, std::size_t elem)
{
  std::size_t b = 0;
  if (__builtin_mul_overflow(nelems, elem, &b))
    e.fail("nelems " + std::to_string(nelems) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  return b;
}

/// The active set (PE_start, logPE_stride, PE_size) as a Group on pSync; misuse is fatal.
struct ActiveSet {
  PeList members;
  Group g;
  ActiveSet(const Entry& e, int PE_start, int logPE_stride, int PE_size, long* pSync)
  {
    const int n  = rt().n_pes();
    const int me = rt().my_pe();
    if (logPE_stride < 0 || logPE_stride > 30)
      e.fail("logPE_stride " + std::to_string(logPE_stride) + " is out of range 0..30");
    const long stride = 1L << logPE_stride;
    const long last   = PE_start + static_cast<long>(PE_size - 1) * stride;
    if (PE_size < 1 || PE_start < 0 || last >= n)
      e.fail("active set (PE_start " + std::to_string(PE_start) + ", logPE_stride " + std::to_string(logPE_stride) +
             ", PE_size " + std::to_string(PE_size) + ") is not within the job's " + std::to_string(n) + " PEs");
    if (me < PE_start || (me - PE_start) % stride != 0 || me > last)
      e.fail("the calling PE " + std::to_string(me) + " is not in the active set (PE_start " +
             std::to_string(PE_start) + ", logPE_stride " + std::to_string(logPE_stride) + ", PE_size " +
             std::to_string(PE_size) + ")");
    if (pSync == nullptr)
      e.fail("pSync is NULL");
    e.check_symmetric(pSync, sizeof(long) * SHMEM_SYNC_SIZE, "pSync");
    members     = PeList::strided(PE_start, stride, PE_size);
    g.members   = &members;
    g.me        = static_cast<int>((me - PE_start) / stride);
    g.words     = reinterpret_cast<std::uint64_t*>(pSync);
    g.any_calls = nullptr;
    g.routine   = e.routine();
    g.psync     = true;
  }
};

/// Team collectives: the team's Group, or null for SHMEM_TEAM_INVALID.
shmemsim_team* team_for(const Entry& e, shmem_team_t team)
{
  return resolve_team(e, team);
}

int team_broadcast(const char* name, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                   std::size_t elem, int root)
{
  Entry e(name);
  shmemsim_team* t = team_for(e, team);
  if (t == nullptr)
    return -1;
  const std::size_t bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(dest, bytes, "dest");
  const int n = static_cast<int>(t->members.size());
  if (root < 0 || root >= n)
    e.fail("PE_root " + std::to_string(root) + " is not a PE of the team (0.." + std::to_string(n - 1) + ")");
  Group g = team_group(e, t);
  broadcast(g, dest, source, bytes, root, true);
  return 0;
}

int team_collect(const char* name, bool fixed, shmem_team_t team, void* dest, const void* source, std::size_t nelems,
                 std::size_t elem)
{
  Entry e(name);
  shmemsim_team* t = team_for(e, team);
  if (t == nullptr)
    return -1;
  const std::size_t bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(source, bytes, "source");
  Group g = team_group(e, t);
  if (fixed) {
    e.check_symmetric(dest, bytes * t->members.size(), "dest");
    fcollect(g, dest, source, bytes);
  } else {
    e.check_symmetric(dest, bytes, "dest");
    collect(g, dest, source, bytes);
  }
  return 0;
}

int team_alltoalls(const char* name, shmem_team_t team, void* dest, const void* source, std::ptrdiff_t dst,
                   std::ptrdiff_t sst, std::size_t nelems, std::size_t elem)
{
  Entry e(name);
  shmemsim_team* t = team_for(e, team);
  if (t == nullptr)
    return -1;
  if (dst < 1 || sst < 1)
    e.fail("strides dst " + std::to_string(dst) + " and sst " + std::to_string(sst) + " must be at least 1");
  const std::size_t total = bytes_of(e, nelems * t->members.size(), elem);
  e.check_symmetric(dest, total == 0 ? 0 : (total - elem) * static_cast<std::size_t>(dst) + elem, "dest");
  Group g = team_group(e, t);
  alltoalls(g, dest, source, dst, sst, nelems, elem);
  return 0;
}

template <class T, class Op>
int team_reduce(const char* name, shmem_team_t team, T* dest, const T* source, std::size_t nreduce, Op op)
{
  Entry e(name);
  shmemsim_team* t = team_for(e, team);
  if (t == nullptr)
    return -1;
  const std::size_t bytes = bytes_of(e, nreduce, sizeof(T));
  e.check_symmetric(dest, bytes, "dest");
  e.check_symmetric(source, bytes, "source");
  Group g = team_group(e, t);
  reduce(g, dest, source, nreduce, op);
  return 0;
}

template <class T, class Op>
void to_all(const char* name, T* dest, const T* source, int nreduce, int PE_start, int logPE_stride, int PE_size,
            long* pSync, Op op)
{
  Entry e(name);
  if (nreduce < 0)
    e.fail("nreduce " + std::to_string(nreduce) + " is negative");
  ActiveSet as(e, PE_start, logPE_stride, PE_size, pSync);
  const std::size_t bytes = static_cast<std::size_t>(nreduce) * sizeof(T);
  e.check_symmetric(dest, bytes, "dest");
  e.check_symmetric(source, bytes, "source");
  reduce(as.g, dest, source, static_cast<std::size_t>(nreduce), op);
}

void as_broadcast(const char* name, void* dest, const void* source, std::size_t nelems, std::size_t elem, int root,
                  int PE_start, int logPE_stride, int PE_size, long* pSync)
{
  Entry e(name);
  ActiveSet as(e, PE_start, logPE_stride, PE_size, pSync);
  const std::size_t bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(dest, bytes, "dest");
  if (root < 0 || root >= PE_size)
    e.fail("PE_root " + std::to_string(root) + " is not within the active set (0.." + std::to_string(PE_size - 1) +
           ")");
  broadcast(as.g, dest, source, bytes, root, false);
}

void as_collect(const char* name, bool fixed, void* dest, const void* source, std::size_t nelems, std::size_t elem,
                int PE_start, int logPE_stride, int PE_size, long* pSync)
{
  Entry e(name);
  ActiveSet as(e, PE_start, logPE_stride, PE_size, pSync);
  const std::size_t bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(source, bytes, "source");
  if (fixed) {
    e.check_symmetric(dest, bytes * static_cast<std::size_t>(PE_size), "dest");
    fcollect(as.g, dest, source, bytes);
  } else {
    e.check_symmetric(dest, bytes, "dest");
    collect(as.g, dest, source, bytes);
  }
}

void as_alltoalls(const char* name, void* dest, const void* source, std::ptrdiff_t dst, std::ptrdiff_t sst,
                  std::size_t nelems, std::size_t elem, int PE_start, int logPE_stride, int PE_size, long* pSync)
{
  Entry e(name);
  ActiveSet as(e, PE_start, logPE_stride, PE_size, pSync);
  if (dst < 1 || sst < 1)
    e.fail("strides dst " + std::to_string(dst) + " and sst " + std::to_string(sst) + " must be at least 1");
  const std::size_t total = bytes_of(e, nelems * static_cast<std::size_t>(PE_size), elem);
  e.check_symmetric(dest, total == 0 ? 0 : (total - elem) * static_cast<std::size_t>(dst) + elem, "dest");
  alltoalls(as.g, dest, source, dst, sst, nelems, elem);
}

} // namespace

// Bodies per KIND; parameter names are those of the rows in shmemsim/shmem_teams_coll.h.
#define SHMEMSIM_BODY_broadcast(NAME, ELEM) team_broadcast(NAME, team, dest, source, nelems, ELEM, PE_root)
#define SHMEMSIM_BODY_collect(NAME, ELEM) team_collect(NAME, false, team, dest, source, nelems, ELEM)
#define SHMEMSIM_BODY_fcollect(NAME, ELEM) team_collect(NAME, true, team, dest, source, nelems, ELEM)
#define SHMEMSIM_BODY_alltoall(NAME, ELEM) team_alltoalls(NAME, team, dest, source, 1, 1, nelems, ELEM)
#define SHMEMSIM_BODY_alltoalls(NAME, ELEM) team_alltoalls(NAME, team, dest, source, dst, sst, nelems, ELEM)
#define SHMEMSIM_BODY_as_broadcast(NAME, ELEM)                                                                         \
  as_broadcast(NAME, dest, source, nelems, ELEM, PE_root, PE_start, logPE_stride, PE_size, pSync)
#define SHMEMSIM_BODY_as_collect(NAME, ELEM)                                                                           \
  as_collect(NAME, false, dest, source, nelems, ELEM, PE_start, logPE_stride, PE_size, pSync)
#define SHMEMSIM_BODY_as_fcollect(NAME, ELEM)                                                                          \
  as_collect(NAME, true, dest, source, nelems, ELEM, PE_start, logPE_stride, PE_size, pSync)
#define SHMEMSIM_BODY_as_alltoall(NAME, ELEM)                                                                          \
  as_alltoalls(NAME, dest, source, 1, 1, nelems, ELEM, PE_start, logPE_stride, PE_size, pSync)
#define SHMEMSIM_BODY_as_alltoalls(NAME, ELEM)                                                                         \
  as_alltoalls(NAME, dest, source, dst, sst, nelems, ELEM, PE_start, logPE_stride, PE_size, pSync)

#define SHMEMSIM_OP_and_ OpAnd
#define SHMEMSIM_OP_or_ OpOr
#define SHMEMSIM_OP_xor_ OpXor
#define SHMEMSIM_OP_max_ OpMax
#define SHMEMSIM_OP_min_ OpMin
#define SHMEMSIM_OP_sum_ OpSum
#define SHMEMSIM_OP_prod_ OpProd

#define SHMEMSIM_DEFINE_COLL(RET, NAME, KIND, ELEM, PARAMS)                                                            \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return SHMEMSIM_BODY_##KIND("shmem_" #NAME, ELEM);                                                                 \
  }
#define SHMEMSIM_DEFINE_REDUCE(RET, NAME, KIND, ELEM, PARAMS)                                                          \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return team_reduce("shmem_" #NAME, team, dest, source, nreduce, SHMEMSIM_OP_##KIND{});                             \
  }
#define SHMEMSIM_DEFINE_TO_ALL(RET, NAME, KIND, ELEM, PARAMS)                                                          \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    (void)pWrk; /* the algorithms need no work array */                                                                \
    to_all("shmem_" #NAME, dest, source, nreduce, PE_start, logPE_stride, PE_size, pSync, SHMEMSIM_OP_##KIND{});       \
  }

#define SHMEMSIM_DEFINE_TYPED_(TYPE, TYPENAME) SHMEMSIM_COLL_TYPED_ROUTINES(SHMEMSIM_DEFINE_COLL, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_SIZED_(SIZE) SHMEMSIM_COLL_SIZED_ROUTINES(SHMEMSIM_DEFINE_COLL, SIZE)
#define SHMEMSIM_DEFINE_RB_(TYPE, TYPENAME) SHMEMSIM_REDUCE_BITWISE_ROUTINES(SHMEMSIM_DEFINE_REDUCE, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_RM_(TYPE, TYPENAME) SHMEMSIM_REDUCE_MINMAX_ROUTINES(SHMEMSIM_DEFINE_REDUCE, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_RA_(TYPE, TYPENAME) SHMEMSIM_REDUCE_ARITH_ROUTINES(SHMEMSIM_DEFINE_REDUCE, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_TB_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_BITWISE_ROUTINES(SHMEMSIM_DEFINE_TO_ALL, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_TM_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_MINMAX_ROUTINES(SHMEMSIM_DEFINE_TO_ALL, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_TA_(TYPE, TYPENAME) SHMEMSIM_TO_ALL_ARITH_ROUTINES(SHMEMSIM_DEFINE_TO_ALL, TYPE, TYPENAME)

extern "C" {

SHMEMSIM_RMA_TYPES(SHMEMSIM_DEFINE_TYPED_)
SHMEMSIM_COLL_MEM_ROUTINES(SHMEMSIM_DEFINE_COLL)
SHMEMSIM_COLL_SIZES(SHMEMSIM_DEFINE_SIZED_)
SHMEMSIM_REDUCE_BITWISE_TYPES(SHMEMSIM_DEFINE_RB_)
SHMEMSIM_REDUCE_MINMAX_TYPES(SHMEMSIM_DEFINE_RM_)
SHMEMSIM_REDUCE_ARITH_TYPES(SHMEMSIM_DEFINE_RA_)
SHMEMSIM_TO_ALL_BITWISE_TYPES(SHMEMSIM_DEFINE_TB_)
SHMEMSIM_TO_ALL_MINMAX_TYPES(SHMEMSIM_DEFINE_TM_)
SHMEMSIM_TO_ALL_ARITH_TYPES(SHMEMSIM_DEFINE_TA_)

int shmem_team_sync(shmem_team_t team)
{
  Entry e("shmem_team_sync");
  shmemsim_team* t = resolve_team(e, team);
  if (t == nullptr)
    return -1;
  Group g = team_group(e, t);
  group_sync(g);
  return 0;
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long* pSync)
{
  Entry e("shmem_sync");
  ActiveSet as(e, PE_start, logPE_stride, PE_size, pSync);
  group_sync(as.g);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long* pSync)
{
  Entry e("shmem_barrier");
  ActiveSet as(e, PE_start, logPE_stride, PE_size, pSync);
  // As shmem_barrier_all: only the default context's operations complete.
  tp().quiet(default_ctx());
  group_sync(as.g);
}

} // extern "C"
