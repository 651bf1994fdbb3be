// Seed 003's non-blocking collectives on explicit active sets, with request handles
// (shmemx_*_aset_req; seed names shmem_barrier_nb, shmem_broadcast32_nb, ...).
//
// PROTOCOL (flat, every member signals every other one; progress happens inside the library's
// calls: the start, shmemx_test_request, shmemx_wait_request):
//  1. start: the caller's data goes out at once, as request-scoped puts (on a request slot of the
//     PE's ContextTable: not completed by quiet, not ordered by fence) -- broadcast: the root puts
//     source into every member's dest; fcollect: my block into every member's dest; reductions: my
//     source into slot `my index` of every member's pWrk; collect: first the sizes (below), then
//     my block.
//  2. once the caller's puts have completed (request_test), it signals every other member: one
//     atomic add of (1 << 48) + sig on the pSync word ARRIVE of the bank, where sig (24 bits, not
//     0) hashes the collective's sequence number on the set, its kind, size, root and operation.
//  3. a member is done when its ARRIVE word counts n-1 signals; their signature sum must be
//     (n-1) * its own sig, else the members started different collectives as their k-th on the set
//     (the seed: "order of non-blocking collectives on an ASET should be the same"): one line, exit 2.
//     Reductions then combine the n slots in index order (identical results on every member).
//  collect: member j adds (1 << 40) + its size to word PREFIX of every member above it; member i
//  knows its offset once PREFIX counts i contributions.
// BANKS: words {ARRIVE, PREFIX} = pSync[32+2b], pSync[32+2b+1] (the blocking forms use the first
// 32 words, so a pSync can serve both, one at a time), b = parity of the number of non-blocking
// collectives the PE started on that pSync. A pSync serves one outstanding collective per PE at a
// time (checked), so no member is ever more than one collective ahead on it: two banks suffice.
#include "shmem_front/lib/Requests.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <cstring>
#include <set>
#include <string>
#include <type_traits>

using namespace shmemsim::front;

namespace {

constexpr std::uint64_t kCountUnit = 1ull << 48;
/// pSync words used: the blocking active-set forms use the first kWords (coll_team.hpp), these the next 4.
constexpr int kFirstWord = kWords;
static_assert(kFirstWord + 4 <= SHMEM_SYNC_SIZE);
constexpr std::uint64_t kPrefixUnit = 1ull << 40;

enum class Kind : std::uint8_t { Barrier, Broadcast, Collect, Fcollect, Reduce };

const char* kind_name(Kind k)
{
  switch (k) {
    case Kind::Barrier:
      return "barrier";
    case Kind::Broadcast:
      return "broadcast";
    case Kind::Collect:
      return "collect";
    case Kind::Fcollect:
      return "fcollect";
    case Kind::Reduce:
      return "reduction";
  }
  return "?";
}

/// What one call asks for.
struct Spec {
  Kind kind          = Kind::Barrier;
  void* dest         = nullptr;
  const void* source = nullptr;
  std::size_t bytes  = 0; ///< the caller's block (reductions: nreduce elements)
  int root           = 0;
  RedOp op           = RedOp::Sum;
  RedType type       = RedType::Int;
  void* work         = nullptr; ///< reductions: pWrk, one slot of `bytes` per member
  std::size_t count  = 0;       ///< reductions: nreduce
};

/// The calling PE's pSync use: collectives started per pSync, and the pSyncs in use now.
struct PsyncUse {
  std::map<const void*, std::uint64_t> started;
  std::set<const void*> busy;
};
PsyncUse& psync_use()
{
  static std::map<const PeState*, PsyncUse> uses;
  return uses[&pe_state()];
}

std::uint32_t signature(std::uint64_t seq, const Spec& s)
{
  // collect: the members' sizes differ, so the size is not part of it.
  const std::uint64_t bytes = s.kind == Kind::Collect ? 0 : s.bytes;
  std::uint64_t x           = seq * 0x9e3779b97f4a7c15ull ^ (static_cast<std::uint64_t>(s.kind) << 56) ^
                    bytes * 0xff51afd7ed558ccdull ^ static_cast<std::uint64_t>(s.root) << 32 ^
                    static_cast<std::uint64_t>(s.op) << 40 ^ static_cast<std::uint64_t>(s.type) << 44;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 29;
  const auto sig = static_cast<std::uint32_t>(x & 0xffffff);
  return sig == 0 ? 1 : sig;
}

class NbCollective final : public Request {
public:
  NbCollective(const char* routine, shmemx_aset* a, long* pSync, std::uint64_t bank, const Spec& s)
      : Request(routine), aset_(a), psync_(pSync),
        words_(reinterpret_cast<std::uint64_t*>(pSync) + kFirstWord + 2 * bank), spec_(s), seq_(a->nb_started++)
  {
    sig_ = signature(seq_, s);
    ++a->outstanding;
    t_ = open_request();
  }
  ~NbCollective() override
  {
    if (t_ != nullptr)
      close_request(t_);
  }
  void start();
  /// Every step possible without blocking (once at a time).
  void advance(const char* call);
  bool test() override
  {
    progress_collectives();
    return state_ == State::Done;
  }
  void wait(const char* call) override;
  /// Its puts are in flight: the other members wait for the signals that follow them.
  bool sending() const { return state_ == State::Data; }
  void wait_transport(const char* call) { tp().request_wait(t_->slot, call); }

private:
  enum class State { Prefix, Data, Signalled, Finishing, Done };
  int n() const { return static_cast<int>(aset_->members.size()); }
  int pe(int idx) const { return aset_->members[static_cast<std::size_t>(idx)]; }
  TransportCtx* ctx() { return t_->slot; }
  std::uint64_t load(int w) const { return __atomic_load_n(&words_[w], __ATOMIC_SEQ_CST); }
  void take(int w, std::uint64_t v) { __atomic_fetch_sub(&words_[w], v, __ATOMIC_SEQ_CST); }
  /// My block at `off` of every member's `base` (mine by a copy).
  void put_block(void* base, std::size_t off, const void* from);
  void step(const char* call);
  void arrived(const char* call);
  [[noreturn]] void mismatch(const char* call, const std::string& what);

  shmemx_aset* aset_;
  long* psync_;
  std::uint64_t* words_; ///< ARRIVE = words_[0], PREFIX = words_[1]
  Spec spec_;
  std::uint64_t seq_;
  std::uint32_t sig_    = 0;
  std::uint64_t signal_ = 0, prefix_ = 0; ///< operands of the atomic adds
  State state_         = State::Data;
  bool advancing_      = false; ///< advance() is running (a sibling thread may call it meanwhile)
  TransportRequest* t_ = nullptr;
};

/// Advance every collective of the calling PE, in issue order. The table is walked by number:
/// issuing lets the PE's other threads run, and they may complete (erase) requests meanwhile.
void advance_all(const char* call)
{
  RequestTable& t = request_table();
  for (const auto& [id, r] : t.snapshot())
    if (auto now = t.find(id))
      if (auto* c = dynamic_cast<NbCollective*>(now.get()))
        c->advance(call);
}

void NbCollective::put_block(void* base, std::size_t off, const void* from)
{
  auto* b = static_cast<char*>(base) + off;
  if (spec_.bytes == 0)
    return;
  if (b != from)
    std::memmove(b, from, spec_.bytes);
  for (int i = 1; i < n(); ++i)
    tp().put(ctx(), b, from, spec_.bytes, pe((aset_->me + i) % n()), false);
}

void NbCollective::start()
{
  const int me = aset_->me;
  switch (spec_.kind) {
    case Kind::Barrier:
      break;
    case Kind::Broadcast:
      if (me == spec_.root && spec_.bytes != 0)
        for (int i = 1; i < n(); ++i)
          tp().put(ctx(), spec_.dest, spec_.source, spec_.bytes, pe((me + i) % n()), false);
      break;
    case Kind::Fcollect:
      put_block(spec_.dest, static_cast<std::size_t>(me) * spec_.bytes, spec_.source);
      break;
    case Kind::Reduce:
      put_block(spec_.work, static_cast<std::size_t>(me) * spec_.bytes, spec_.source);
      break;
    case Kind::Collect:
      prefix_ = kPrefixUnit + spec_.bytes;
      for (int i = me + 1; i < n(); ++i)
        tp().amo(ctx(), AmoOp::Add, AmoType::Uint64, &words_[1], &prefix_, pe(i));
      state_ = State::Prefix;
      break;
  }
  advance(routine());
}

void NbCollective::advance(const char* call)
{
  if (advancing_)
    return;
  advancing_ = true;
  step(call);
  advancing_ = false;
}

void NbCollective::step(const char* call)
{
  if (state_ == State::Prefix) {
    const std::uint64_t w = load(1);
    const auto lower      = static_cast<int>(w / kPrefixUnit);
    if (lower != aset_->me)
      return; // (more cannot come: a member above me never adds to my PREFIX)
    take(1, w);
    const std::size_t off = w % kPrefixUnit;
    if (spec_.bytes != 0 && !rt().is_symmetric(static_cast<char*>(spec_.dest) + off, spec_.bytes))
      rt().fatal(std::string(call) + ": dest " + hex(spec_.dest) + " of " + routine() +
                 " is too small: this PE's block goes at byte " + std::to_string(off) + " (" +
                 std::to_string(spec_.bytes) + " bytes), past the symmetric object");
    put_block(spec_.dest, off, spec_.source);
    state_ = State::Data;
  }
  if (state_ == State::Data) {
    if (!tp().request_test(t_->slot))
      return;
    signal_ = kCountUnit + sig_;
    for (int i = 1; i < n(); ++i)
      tp().amo(ctx(), AmoOp::Add, AmoType::Uint64, &words_[0], &signal_, pe((aset_->me + i) % n()));
    state_ = State::Signalled;
  }
  if (state_ == State::Signalled)
    arrived(call);
  if (state_ == State::Finishing && tp().request_test(t_->slot)) {
    close_request(t_);
    t_ = nullptr;
    --aset_->outstanding;
    psync_use().busy.erase(psync_);
    state_ = State::Done;
  }
}

void NbCollective::arrived(const char* call)
{
  const std::uint64_t w     = load(0);
  const std::uint64_t count = w / kCountUnit;
  const auto need           = static_cast<std::uint64_t>(n() - 1);
  if (count < need)
    return;
  if (count > need)
    mismatch(call,
             "more signals than members arrived on its pSync (was the pSync given to another collective meanwhile?)");
  if (w % kCountUnit != need * sig_ % kCountUnit)
    mismatch(call,
             "the other members started a different collective as their #" + std::to_string(seq_) +
                 " on the set (non-blocking collectives must be called in the same order on every PE of the set)");
  take(0, w);
  if (spec_.kind == Kind::Reduce && spec_.count != 0) {
    // The members' contributions in index order, mine from source: the same result everywhere.
    std::vector<unsigned char> acc(spec_.bytes);
    const auto* work = static_cast<const unsigned char*>(spec_.work);
    auto slot = [&](int i) { return i == aset_->me ? spec_.source : work + static_cast<std::size_t>(i) * spec_.bytes; };
    std::memcpy(acc.data(), slot(0), spec_.bytes);
    for (int i = 1; i < n(); ++i)
      combine(spec_.op, spec_.type, acc.data(), slot(i), spec_.count);
    std::memcpy(spec_.dest, acc.data(), spec_.bytes);
  }
  state_ = State::Finishing;
}

void NbCollective::mismatch(const char* call, const std::string& what)
{
  rt().fatal(std::string(call) + ": non-blocking " + kind_name(spec_.kind) + " #" + std::to_string(seq_) +
             " on an active set of " + std::to_string(n()) + " PEs (started by " + routine() + ", pSync " +
             hex(psync_) + "): " + what);
  std::abort();
}

std::shared_ptr<NbCollective> first_sending()
{
  for (auto& [id, r] : request_table().snapshot())
    if (auto c = std::dynamic_pointer_cast<NbCollective>(r); c != nullptr && c->sending())
      return c;
  return nullptr;
}

void NbCollective::wait(const char* call)
{
  while (true) {
    const std::uint64_t seen = tp().updates();
    advance_all(call);
    if (state_ == State::Done)
      return;
    // Members wait for the signals that follow my puts: complete those first (never blocks on others).
    if (auto c = first_sending()) {
      c->wait_transport(call);
      continue;
    }
    if (state_ == State::Finishing) {
      wait_transport(call);
      continue;
    }
    tp().wait_for_update(seen, call);
  }
}

void start(const Entry& e, shmemx_aset* aset, long* pSync, shmemx_request_handle_t* request, const Spec& s)
{
  if (request == nullptr)
    e.fail("request is NULL; pass the address of a shmemx_request_handle_t");
  if (pSync == nullptr)
    e.fail("pSync is NULL");
  e.check_symmetric(pSync, sizeof(long) * SHMEM_SYNC_SIZE, "pSync");
  PsyncUse& use = psync_use();
  if (use.busy.count(pSync) != 0)
    e.fail("pSync " + hex(pSync) +
           " is in use by an outstanding non-blocking collective of this PE "
           "(give each outstanding collective its own pSync, or wait for it first)");
  use.busy.insert(pSync);
  const std::uint64_t bank = use.started[pSync]++ & 1;
  auto c                   = std::make_unique<NbCollective>(e.routine(), aset, pSync, bank, s);
  NbCollective* raw        = c.get();
  add_request(std::move(c), request);
  raw->start();
}

/// A non-blocking collective the NICs run (job.collectives.barrier, broadcast or reduce =
/// triggered): posted at its start, complete once its counters have reached their counts
/// (Transport::offloaded_sync_start, offloaded_broadcast_start, offloaded_reduce_start). The set's
/// pSync (and a reduction's pWrk) are not used.
class NbOffloaded final : public Request {
public:
  NbOffloaded(const char* routine, shmemx_aset* a, std::uint64_t id, bool barrier)
      : Request(routine), aset_(a), id_(id), barrier_(barrier)
  {
    ++a->nb_started;
    ++a->outstanding;
  }
  bool test() override
  {
    progress_collectives();
    if (!done_ && (barrier_ ? tp().offloaded_sync_test(id_) : tp().offloaded_call_test(id_)))
      complete();
    return done_;
  }
  void wait(const char* call) override
  {
    // The other members may wait for the signals that follow this PE's puts of its host-driven
    // collectives before they start this one: send those first (never blocks on others).
    while (!done_) {
      advance_all(call);
      if (auto c = first_sending()) {
        c->wait_transport(call);
        continue;
      }
      if (barrier_)
        tp().offloaded_sync_wait(id_);
      else
        tp().offloaded_call_wait(id_);
      complete();
    }
  }

private:
  void complete()
  {
    done_ = true;
    --aset_->outstanding;
  }
  shmemx_aset* aset_;
  std::uint64_t id_;
  bool barrier_;
  bool done_ = false;
};

/// The checks of start() that the offloaded forms share (their pSync is not used, but the call
/// must still be valid for the library's protocol).
void check_offloaded_args(const Entry& e, long* pSync, shmemx_request_handle_t* request)
{
  if (request == nullptr)
    e.fail("request is NULL; pass the address of a shmemx_request_handle_t");
  if (pSync == nullptr)
    e.fail("pSync is NULL");
  e.check_symmetric(pSync, sizeof(long) * SHMEM_SYNC_SIZE, "pSync");
}

/// job.`key`=triggered could not offload a non-blocking `what`: one notice per process, key and
/// reason.
void offload_notice(const char* key, const char* why, const char* what)
{
  static std::set<std::string> noticed;
  if (!noticed.insert(std::string(key) + why).second)
    return;
  tp().counter_source().notice("PE " + std::to_string(rt().my_pe()) + ": " + key + "=triggered: " + why +
                               "; non-blocking " + what + " run as the library's signalling protocol");
}

/// Starts a non-blocking barrier on the NICs when job.collectives.barrier selects it and the NIC
/// has triggered operations; false, having done nothing, otherwise (then the protocol above runs,
/// with one notice per process when the key asked for the NICs).
bool start_offloaded_barrier(const Entry& e, shmemx_aset* a, long* pSync, shmemx_request_handle_t* request)
{
  if (rt().collectives().barrier != BarrierAlgorithm::Triggered)
    return false;
  check_offloaded_args(e, pSync, request);
  const std::uint64_t id = tp().offloaded_sync_start(a->members, a->me);
  if (id == 0) {
    offload_notice("job.collectives.barrier", "this NIC has no triggered operations", "barriers");
    return false;
  }
  add_request(std::make_unique<NbOffloaded>(e.routine(), a, id, true), request);
  return true;
}

/// Registers an offloaded call's request, or says once why it was not offloaded (id 0).
bool offloaded(const Entry& e, shmemx_aset* a, shmemx_request_handle_t* request, std::uint64_t id, const char* why,
               const char* key, const char* what)
{
  if (id == 0) {
    offload_notice(key, why, what);
    return false;
  }
  add_request(std::make_unique<NbOffloaded>(e.routine(), a, id, false), request);
  return true;
}

std::size_t bytes_of(const Entry& e, std::size_t nelems, std::size_t elem)
{
  std::size_t b = 0;
  if (__builtin_mul_overflow(nelems, elem, &b))
    e.fail("nelems " + std::to_string(nelems) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  return b;
}

void nb_barrier(const char* name, shmemx_aset* aset, long* pSync, shmemx_request_handle_t* request)
{
  Entry e(name);
  shmemx_aset* a = check_aset(e, aset);
  if (!start_offloaded_barrier(e, a, pSync, request))
    start(e, a, pSync, request, Spec{});
}

void nb_broadcast(const char* name, void* dest, const void* source, std::size_t nelems, std::size_t elem, int root,
                  shmemx_aset* aset, long* pSync, shmemx_request_handle_t* request)
{
  Entry e(name);
  shmemx_aset* a = check_aset(e, aset);
  Spec s;
  s.kind  = Kind::Broadcast;
  s.bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(dest, s.bytes, "dest");
  const int n = static_cast<int>(a->members.size());
  if (root < 0 || root >= n)
    e.fail("PE_root " + std::to_string(root) + " is not an index of the active set (0.." + std::to_string(n - 1) + ")");
  s.dest   = dest;
  s.source = source;
  s.root   = root;
  if (rt().collectives().broadcast == BroadcastAlgorithm::Triggered) {
    check_offloaded_args(e, pSync, request);
    const char* why = "";
    const std::uint64_t id = tp().offloaded_broadcast_start(a->members, a->me, dest, source, s.bytes, root, &why);
    if (offloaded(e, a, request, id, why, "job.collectives.broadcast", "broadcasts"))
      return;
  }
  start(e, a, pSync, request, s);
}

void nb_collect(const char* name, bool fixed, void* dest, const void* source, std::size_t nelems, std::size_t elem,
                shmemx_aset* aset, long* pSync, shmemx_request_handle_t* request)
{
  Entry e(name);
  shmemx_aset* a = check_aset(e, aset);
  Spec s;
  s.kind  = fixed ? Kind::Fcollect : Kind::Collect;
  s.bytes = bytes_of(e, nelems, elem);
  e.check_symmetric(source, s.bytes, "source");
  e.check_symmetric(dest, fixed ? s.bytes * a->members.size() : s.bytes, "dest");
  s.dest   = dest;
  s.source = source;
  start(e, a, pSync, request, s);
}

template <class T>
void nb_reduce(const char* name, RedOp op, T* dest, const T* source, int nreduce, shmemx_aset* aset, T* pWrk,
               long* pSync, shmemx_request_handle_t* request)
{
  Entry e(name);
  shmemx_aset* a = check_aset(e, aset);
  if (nreduce < 0)
    e.fail("nreduce " + std::to_string(nreduce) + " is negative");
  Spec s;
  s.kind  = Kind::Reduce;
  s.count = static_cast<std::size_t>(nreduce);
  s.bytes = s.count * sizeof(T);
  e.check_symmetric(dest, s.bytes, "dest");
  e.check_symmetric(source, s.bytes, "source");
  if (s.bytes != 0 && pWrk == nullptr)
    e.fail("pWrk is NULL; the non-blocking reductions need pWrk of nreduce * set size (" +
           std::to_string(s.count * a->members.size()) + ") elements");
  e.check_symmetric(pWrk, s.bytes * a->members.size(), "pWrk (nreduce * set size elements)");
  s.dest   = dest;
  s.source = source;
  s.work   = pWrk;
  s.op     = op;
  s.type   = red_type<T>();
  if (rt().collectives().reduce == ReduceAlgorithm::Triggered) {
    check_offloaded_args(e, pSync, request);
    const char* why = "";
    const std::uint64_t id = tp().offloaded_reduce_start(
        a->members, a->me, op, RedElem{sizeof(T), std::is_integral_v<T>, std::is_signed_v<T>}, dest, source, s.count, &why);
    if (offloaded(e, a, request, id, why, "job.collectives.reduce", "reductions"))
      return;
  }
  start(e, a, pSync, request, s);
}

} // namespace

namespace shmemsim::front {

void progress_collectives()
{
  advance_all("shmemx_test_request");
}

} // namespace shmemsim::front

#define SHMEMX_NB_broadcast(NAME, ELEM) nb_broadcast(NAME, dest, source, nelems, ELEM, PE_root, aset, pSync, request)
#define SHMEMX_NB_collect(NAME, ELEM) nb_collect(NAME, false, dest, source, nelems, ELEM, aset, pSync, request)
#define SHMEMX_NB_fcollect(NAME, ELEM) nb_collect(NAME, true, dest, source, nelems, ELEM, aset, pSync, request)
#define SHMEMX_NB_RED_(NAME, OP) nb_reduce(NAME, RedOp::OP, dest, source, nreduce, aset, pWrk, pSync, request)
#define SHMEMX_NB_and_(NAME, T) SHMEMX_NB_RED_(NAME, And)
#define SHMEMX_NB_or_(NAME, T) SHMEMX_NB_RED_(NAME, Or)
#define SHMEMX_NB_xor_(NAME, T) SHMEMX_NB_RED_(NAME, Xor)
#define SHMEMX_NB_max_(NAME, T) SHMEMX_NB_RED_(NAME, Max)
#define SHMEMX_NB_min_(NAME, T) SHMEMX_NB_RED_(NAME, Min)
#define SHMEMX_NB_sum_(NAME, T) SHMEMX_NB_RED_(NAME, Sum)
#define SHMEMX_NB_prod_(NAME, T) SHMEMX_NB_RED_(NAME, Prod)

#define SHMEMX_NB_DEFINE(RET, BASE, KIND, ELEM, PARAMS, ARGS)                                                          \
  RET shmemx_##BASE##_aset_req(SHMEMSIM_UNPAREN PARAMS, SHMEMX_REQ_ARG_)                                               \
  {                                                                                                                    \
    SHMEMX_NB_##KIND("shmemx_" #BASE "_aset_req", ELEM);                                                               \
  }
#define SHMEMX_NB_SIZED_(SIZE) SHMEMX_ASET_COLL_SIZED_ROUTINES(SHMEMX_NB_DEFINE, SIZE)
#define SHMEMX_NB_RB_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_BITWISE_ROUTINES(SHMEMX_NB_DEFINE, TYPE, TYPENAME)
#define SHMEMX_NB_RA_(TYPE, TYPENAME) SHMEMX_ASET_REDUCE_ARITH_ROUTINES(SHMEMX_NB_DEFINE, TYPE, TYPENAME)

extern "C" {

void shmemx_barrier_aset_req(shmemx_aset* aset, long* pSync, shmemx_request_handle_t* request)
{
  nb_barrier("shmemx_barrier_aset_req", aset, pSync, request);
}

SHMEMX_ASET_SIZES(SHMEMX_NB_SIZED_)
SHMEMX_ASET_BITWISE_TYPES(SHMEMX_NB_RB_)
SHMEMX_ASET_ARITH_TYPES(SHMEMX_NB_RA_)

} // extern "C"
