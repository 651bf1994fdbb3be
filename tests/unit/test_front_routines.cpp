// The typed RMA, AMO, point-to-point and shmemx routines against a FAKE Runtime and a FAKE
// Transport: every "PE" is a plain array in this process (its whole symmetric heap); the fake
// transport applies puts, gets and AMOs to the target PE's array at the same offset, defers
// non-blocking operations to the quiet of their context, and records every call. Remote writes
// seen by wait_until are scripted: each wait_for_update runs the next scripted action.
// The paper's names (shmemx.h, SHMEMSIM_PAPER_NAMES) are on in this file: the OpenSHMEM 1.5 forms
// of shmem_ctx_create/destroy must keep working next to them.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/PeList.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/lib/SignalJournal.hpp"

#define SHMEMSIM_PAPER_NAMES
#include <shmemx.h>

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using namespace shmemsim::front;

struct FatalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct Deadlock : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr int kPes          = 4;
constexpr std::size_t kHeap = 1 << 16;

struct alignas(64) Region {
  unsigned char bytes[kHeap];
};

class FakeRuntime final : public Runtime, public Accounting {
public:
  FakeRuntime() : mem_(kPes)
  {
    for (auto& r : mem_)
      std::memset(r.bytes, 0, kHeap);
  }
  int me    = 0;
  int polls = 0;
  int depth = 0; ///< routines entered and not yet left
  std::vector<std::string> entered;

  unsigned char* base(int pe) { return mem_.at(static_cast<std::size_t>(pe)).bytes; }

  int my_pe() override { return me; }
  int n_pes() override { return kPes; }
  void* heap_base() override { return base(me); }
  std::size_t heap_size() override { return kHeap; }
  bool is_symmetric(const void* addr, std::size_t n) override
  {
    const auto a = reinterpret_cast<std::uintptr_t>(addr);
    const auto b = reinterpret_cast<std::uintptr_t>(base(me));
    return a >= b && n <= kHeap && a - b <= kHeap - n;
  }
  void* local_address(const void* addr, int pe) override
  {
    return base(pe) + (static_cast<const unsigned char*>(addr) - base(me));
  }
  bool pe_accessible(int) override { return true; }
  void enter(const char* routine) override
  {
    entered.emplace_back(routine);
    ++depth;
  }
  void leave() override { --depth; }
  void poll_pause() override { ++polls; }
  double wtime() override { return 0; }
  void startup_barrier() override {}
  const char* getenv(const char*) override { return nullptr; }
  [[noreturn]] void fatal(const std::string& message) override { throw FatalError(message); }
  [[noreturn]] void global_exit(int status) override { throw FatalError("global_exit " + std::to_string(status)); }

private:
  std::vector<Region> mem_;
};

/// The fake's counters of a context or request slot (the library's ContextTable hands them round):
/// the operations deferred to their completion.
struct FakeCtx final : Counters {
  bool request   = false; ///< a request slot's
  bool destroyed = false;
  std::vector<std::function<void()>> pending;
};

struct Call {
  std::string op; // put, get, amo, fetch_amo, quiet, fence
  FakeCtx* ctx      = nullptr;
  int pe            = -1;
  std::size_t bytes = 0;
  bool blocking     = true;
  AmoOp amo_op      = AmoOp::Set;
  AmoType type      = AmoType::Int32;
};

template <class T>
void apply_typed(AmoOp op, unsigned char* target, const unsigned char* value, const unsigned char* cond, void* result)
{
  T old, v, c{};
  std::memcpy(&old, target, sizeof(T));
  std::memcpy(&v, value, sizeof(T));
  if (cond != nullptr)
    std::memcpy(&c, cond, sizeof(T));
  T now = old;
  switch (op) {
    case AmoOp::Set:
    case AmoOp::Swap:
      now = v;
      break;
    case AmoOp::Fetch:
      break;
    case AmoOp::Add:
      now = static_cast<T>(old + v);
      break;
    case AmoOp::And:
    case AmoOp::Or:
    case AmoOp::Xor:
      if constexpr (std::is_integral_v<T>)
        now = static_cast<T>(op == AmoOp::And ? (old & v) : op == AmoOp::Or ? (old | v) : (old ^ v));
      else
        ADD_FAILURE() << "bitwise AMO on a floating type";
      break;
    case AmoOp::CompareSwap:
      EXPECT_NE(cond, nullptr) << "CompareSwap without a comparand";
      if (old == c)
        now = v;
      break;
  }
  std::memcpy(target, &now, sizeof(T));
  if (result != nullptr)
    std::memcpy(result, &old, sizeof(T));
}

void apply(AmoOp op, AmoType t, unsigned char* target, const unsigned char* value, const unsigned char* cond,
           void* result)
{
  switch (t) {
    case AmoType::Int32:
      return apply_typed<std::int32_t>(op, target, value, cond, result);
    case AmoType::Int64:
      return apply_typed<std::int64_t>(op, target, value, cond, result);
    case AmoType::Uint32:
      return apply_typed<std::uint32_t>(op, target, value, cond, result);
    case AmoType::Uint64:
      return apply_typed<std::uint64_t>(op, target, value, cond, result);
    case AmoType::Float:
      return apply_typed<float>(op, target, value, cond, result);
    case AmoType::Double:
      return apply_typed<double>(op, target, value, cond, result);
  }
}

class FakeTransport final : public Transport, public CounterSource {
public:
  explicit FakeTransport(FakeRuntime& rt) : rt_(rt) {}

  std::vector<Call> calls;
  std::deque<std::function<void()>> on_wait; ///< one scripted "remote write" per wait_for_update
  int ctx_limit = 1000;
  int live      = 0;
  int waits     = 0;
  std::string last_wait_call;

  static FakeCtx* fake(TransportCtx* t) { return static_cast<FakeCtx*>(t->counters); }
  FakeCtx* default_fake() { return &default_; }
  std::size_t count(const std::string& op) const
  {
    std::size_t n = 0;
    for (const auto& c : calls)
      n += c.op == op ? 1 : 0;
    return n;
  }

  // One counter source for every PE (each PE's table has its own records over it): a context's
  // counters while fewer than ctx_limit are live, a request slot's always.
  CounterSource& counter_source() override { return *this; }
  Counters* default_counters() override { return &default_; }
  Counters* acquire(CounterUse use, int, std::string* limit) override
  {
    if (use == CounterUse::Request) {
      requests_.push_back(std::make_unique<FakeCtx>());
      requests_.back()->request = true;
      return requests_.back().get();
    }
    if (live >= ctx_limit) {
      *limit = "the fake's ctx_limit reached";
      return nullptr;
    }
    ctxs_.push_back(std::make_unique<FakeCtx>());
    ++live;
    return ctxs_.back().get();
  }
  void release(Counters* k) override
  {
    auto* f = static_cast<FakeCtx*>(k);
    if (f->request) {
      EXPECT_TRUE(f->pending.empty()) << "request closed with operations pending";
      std::erase_if(requests_, [f](const auto& x) { return x.get() == f; });
      return;
    }
    EXPECT_TRUE(f->pending.empty()) << "context destroyed with operations pending";
    EXPECT_FALSE(f->destroyed);
    f->destroyed = true;
    --live;
  }
  void ctx_event(int id, const Counters*, shmemsim::CtxEvent what) override { events.push_back({id, what}); }
  void notice(const std::string& line) override { notices.push_back(line); }
  std::vector<std::pair<int, shmemsim::CtxEvent>> events; ///< what the PEs' context tables published
  std::vector<std::string> notices;

  void put(TransportCtx* t, void* dest, const void* src, std::size_t n, int pe, bool blocking) override
  {
    calls.push_back({"put", fake(t), pe, n, blocking});
    unsigned char* target = remote(dest, n, pe);
    run(t, blocking, [=] { std::memcpy(target, src, n); });
  }
  void get(TransportCtx* t, void* dest, const void* src, std::size_t n, int pe, bool blocking) override
  {
    calls.push_back({"get", fake(t), pe, n, blocking});
    const unsigned char* source = remote(src, n, pe);
    run(t, blocking, [=] { std::memcpy(dest, source, n); });
  }
  void amo(TransportCtx* t, AmoOp op, AmoType type, void* dest, const void* value, int pe) override
  {
    calls.push_back({"amo", fake(t), pe, amo_size(type), true, op, type});
    std::array<unsigned char, 8> v{};
    std::memcpy(v.data(), value, amo_size(type));
    apply(op, type, remote(dest, amo_size(type), pe), v.data(), nullptr, nullptr);
  }
  void fetch_amo(TransportCtx* t, AmoOp op, AmoType type, void* dest, const void* value, const void* cond, void* result,
                 int pe, bool blocking) override
  {
    calls.push_back({"fetch_amo", fake(t), pe, amo_size(type), blocking, op, type});
    // Operands are read at issue (the routines pass their own locals).
    std::array<unsigned char, 8> v{}, c{};
    std::memcpy(v.data(), value, amo_size(type));
    const bool has_cond = cond != nullptr;
    if (has_cond)
      std::memcpy(c.data(), cond, amo_size(type));
    unsigned char* target = remote(dest, amo_size(type), pe);
    run(t, blocking, [=] { apply(op, type, target, v.data(), has_cond ? c.data() : nullptr, result); });
  }
  void quiet(TransportCtx* t) override
  {
    calls.push_back({"quiet", fake(t)});
    auto pending = std::move(fake(t)->pending);
    fake(t)->pending.clear();
    for (auto& f : pending)
      f();
  }
  void fence(TransportCtx* t) override { calls.push_back({"fence", fake(t)}); }

  // Requests: counters of their own whose operations run when the request is tested or waited.
  bool request_test(TransportCtx* slot) override
  {
    calls.push_back({"request_test", fake(slot)});
    run_pending(fake(slot));
    return true;
  }
  void request_wait(TransportCtx* slot, const char*) override
  {
    calls.push_back({"request_wait", fake(slot)});
    run_pending(fake(slot));
  }
  std::size_t open_requests() const { return requests_.size(); }

  std::uint64_t updates() override { return updates_; }
  void wait_for_update(std::uint64_t seen, const char* call) override
  {
    ++waits;
    last_wait_call = call;
    EXPECT_EQ(seen, updates_);
    if (on_wait.empty())
      throw Deadlock(std::string("deadlock: ") + call + " waits for an update that never comes");
    auto f = std::move(on_wait.front());
    on_wait.pop_front();
    f();
    ++updates_;
  }

private:
  unsigned char* remote(const void* addr, std::size_t n, int pe)
  {
    const auto* p            = static_cast<const unsigned char*>(addr);
    const std::ptrdiff_t off = p - rt_.base(rt_.me);
    EXPECT_TRUE(off >= 0 && static_cast<std::size_t>(off) + n <= kHeap) << "transport given a non-symmetric address";
    return rt_.base(pe) + off;
  }
  void run(TransportCtx* t, bool blocking, std::function<void()> f)
  {
    if (blocking)
      f();
    else
      fake(t)->pending.push_back(std::move(f));
  }

  static void run_pending(FakeCtx* c)
  {
    auto pending = std::move(c->pending);
    c->pending.clear();
    for (auto& f : pending)
      f();
  }

  FakeRuntime& rt_;
  std::vector<std::unique_ptr<FakeCtx>> requests_;
  FakeCtx default_;
  std::vector<std::unique_ptr<FakeCtx>> ctxs_;
  std::uint64_t updates_ = 0;
};

class Routines : public ::testing::Test {
protected:
  FakeRuntime rt;
  FakeTransport tp{rt};

  void SetUp() override
  {
    install(Env{&rt, &tp, &rt});
    for (int pe = 0; pe < kPes; ++pe) {
      rt.me = pe;
      shmem_init();
    }
    rt.me = 0;
    tp.calls.clear();
    rt.entered.clear();
  }
  void TearDown() override { EXPECT_EQ(rt.depth, 0) << "a routine entered the runtime without leaving it"; }

  /// The symmetric object at `offset` (past the library's reserved bytes) on `pe` (default: me).
  template <class T> T* sym(std::size_t offset, int pe = -1) const
  {
    auto& r = const_cast<FakeRuntime&>(rt);
    return reinterpret_cast<T*>(r.base(pe < 0 ? r.me : pe) + kReservedHeap + offset);
  }
  /// The same object as seen on `pe`.
  template <class T> T* on(T* mine, int pe) const
  {
    auto& r = const_cast<FakeRuntime&>(rt);
    return reinterpret_cast<T*>(r.base(pe) + (reinterpret_cast<unsigned char*>(mine) - r.base(r.me)));
  }
  /// The message of the fatal error `f` raises. (A failure inside Entry's constructor skips its
  /// destructor, so the enter/leave balance is reset: a real fatal error ends the run.)
  std::string fatal_of(const std::function<void()>& f)
  {
    try {
      f();
    } catch (const FatalError& e) {
      rt.depth = 0;
      return e.what();
    }
    return "<no fatal error>";
  }
  const Call& last(const std::string& op) const
  {
    for (auto it = tp.calls.rbegin(); it != tp.calls.rend(); ++it)
      if (it->op == op)
        return *it;
    static Call none;
    ADD_FAILURE() << "no " << op << " call recorded";
    return none;
  }

  template <class T>
  void check_put_get(void (*put)(T*, const T*, size_t, int), void (*get)(T*, const T*, size_t, int),
                     const char* put_name, const char* get_name)
  {
    SCOPED_TRACE(put_name);
    T src[5];
    for (int i = 0; i < 5; ++i)
      src[i] = static_cast<T>(i * 3 + 1);
    T* dest = sym<T>(64);
    put(dest, src, 5, 2);
    EXPECT_EQ(std::memcmp(on(dest, 2), src, sizeof src), 0);
    EXPECT_EQ(*dest, T{}) << "the caller's own copy must not change";
    EXPECT_EQ(last("put").bytes, 5 * sizeof(T));
    EXPECT_EQ(last("put").pe, 2);
    EXPECT_TRUE(last("put").blocking);
    EXPECT_EQ(last("put").ctx, tp.default_fake());
    EXPECT_EQ(rt.entered.back(), put_name);
    T back[5] = {};
    get(back, dest, 5, 2);
    EXPECT_EQ(std::memcmp(back, src, sizeof src), 0);
    EXPECT_EQ(last("get").bytes, 5 * sizeof(T));
    EXPECT_EQ(rt.entered.back(), get_name);
  }
};

// ---------------------------------------------------------------- RMA

TEST_F(Routines, TypedPutGetMoveTheRightBytes)
{
#define CHECK_TYPE(TYPENAME)                                                                                           \
  check_put_get(shmem_##TYPENAME##_put, shmem_##TYPENAME##_get, "shmem_" #TYPENAME "_put", "shmem_" #TYPENAME "_get")
  CHECK_TYPE(char);
  CHECK_TYPE(schar);
  CHECK_TYPE(short);
  CHECK_TYPE(int);
  CHECK_TYPE(long);
  CHECK_TYPE(longlong);
  CHECK_TYPE(float);
  CHECK_TYPE(double);
  CHECK_TYPE(longdouble);
  CHECK_TYPE(uchar);
  CHECK_TYPE(ulonglong);
  CHECK_TYPE(int8);
  CHECK_TYPE(int16);
  CHECK_TYPE(uint32);
  CHECK_TYPE(int64);
  CHECK_TYPE(size);
  CHECK_TYPE(ptrdiff);
#undef CHECK_TYPE
}

TEST_F(Routines, SizedPutGetUseTheElementSize)
{
  unsigned char src[48];
  for (int i = 0; i < 48; ++i)
    src[i] = static_cast<unsigned char>(i + 1);
  auto* dest                                                                     = sym<unsigned char>(0);
  const std::pair<void (*)(void*, const void*, size_t, int), std::size_t> puts[] = {
      {shmem_put8, 1}, {shmem_put16, 2}, {shmem_put32, 4}, {shmem_put64, 8}, {shmem_put128, 16}};
  for (const auto& [put, elem] : puts) {
    std::memset(on(dest, 3), 0, 64);
    put(dest, src, 3, 3);
    EXPECT_EQ(last("put").bytes, 3 * elem);
    EXPECT_EQ(std::memcmp(on(dest, 3), src, 3 * elem), 0);
    EXPECT_EQ(on(dest, 3)[3 * elem], 0) << "element size " << elem;
  }
  unsigned char back[48] = {};
  shmem_get128(back, dest, 3, 3);
  EXPECT_EQ(last("get").bytes, 48u);
  EXPECT_EQ(std::memcmp(back, src, 48), 0);
  shmem_get16(back, dest, 1, 3);
  EXPECT_EQ(last("get").bytes, 2u);
  EXPECT_EQ(rt.entered.back(), "shmem_get16");
  shmem_put32_nbi(dest, src, 2, 1);
  EXPECT_FALSE(last("put").blocking);
  EXPECT_EQ(rt.entered.back(), "shmem_put32_nbi");
  shmem_quiet();
}

TEST_F(Routines, NbiFormsDeferToQuiet)
{
  long src[4] = {10, 20, 30, 40};
  long* dest  = sym<long>(0);
  shmem_long_put_nbi(dest, src, 4, 1);
  EXPECT_FALSE(last("put").blocking);
  EXPECT_EQ(on(dest, 1)[0], 0) << "delivered before quiet";
  *on(sym<double>(256), 2) = 2.5;
  double got               = 0;
  shmem_double_get_nbi(&got, sym<double>(256), 1, 2);
  EXPECT_FALSE(last("get").blocking);
  EXPECT_EQ(got, 0.0);
  shmem_quiet();
  EXPECT_EQ(on(dest, 1)[3], 40);
  EXPECT_EQ(got, 2.5);
  EXPECT_EQ(last("quiet").ctx, tp.default_fake());
}

TEST_F(Routines, PAndG)
{
  double* d = sym<double>(0);
  shmem_double_p(d, 3.25, 1);
  EXPECT_EQ(*on(d, 1), 3.25);
  EXPECT_EQ(last("put").bytes, sizeof(double));
  EXPECT_TRUE(last("put").blocking);
  short* s  = sym<short>(64);
  *on(s, 3) = -7;
  EXPECT_EQ(shmem_short_g(s, 3), -7);
  EXPECT_EQ(last("get").pe, 3);
  EXPECT_EQ(rt.entered.back(), "shmem_short_g");
  long double* ld = sym<long double>(128);
  shmem_longdouble_p(ld, 1.5L, 2);
  EXPECT_EQ(shmem_longdouble_g(ld, 2), 1.5L);
}

TEST_F(Routines, IputAndIgetFollowTheStrides)
{
  int src[12];
  for (int i = 0; i < 12; ++i)
    src[i] = 100 + i;
  int* dest = sym<int>(0);
  shmem_int_iput(dest, src, 3, 2, 4, 1); // dest[0,3,6,9] = src[0,2,4,6]
  const int* r = on(dest, 1);
  EXPECT_EQ(r[0], 100);
  EXPECT_EQ(r[3], 102);
  EXPECT_EQ(r[6], 104);
  EXPECT_EQ(r[9], 106);
  EXPECT_EQ(r[1] + r[2] + r[4] + r[5] + r[7] + r[8] + r[10], 0);
  EXPECT_EQ(tp.count("put"), 4u);
  for (const auto& c : tp.calls)
    EXPECT_EQ(c.bytes, sizeof(int));

  long* remote = sym<long>(512);
  for (int i = 0; i < 9; ++i)
    on(remote, 2)[i] = i * 10;
  long local[6] = {};
  shmem_long_iget(local, remote, 2, 3, 3, 2); // local[0,2,4] = remote[0,3,6]
  EXPECT_EQ(local[0], 0);
  EXPECT_EQ(local[2], 30);
  EXPECT_EQ(local[4], 60);
  EXPECT_EQ(local[1] + local[3] + local[5], 0);
  EXPECT_EQ(tp.count("get"), 3u);

  std::uint64_t wide[4] = {1, 2, 3, 4};
  shmem_iput64(sym<std::uint64_t>(1024), wide, 2, 1, 4, 3);
  EXPECT_EQ(on(sym<std::uint64_t>(1024), 3)[6], 4u);
  std::uint32_t narrow[2]            = {};
  *on(sym<std::uint32_t>(2048), 1)   = 7;
  on(sym<std::uint32_t>(2048), 1)[5] = 9;
  shmem_ctx_iget32(SHMEM_CTX_DEFAULT, narrow, sym<std::uint32_t>(2048), 1, 5, 2, 1);
  EXPECT_EQ(narrow[0], 7u);
  EXPECT_EQ(narrow[1], 9u);
  EXPECT_EQ(rt.entered.back(), "shmem_ctx_iget32");
}

TEST_F(Routines, ZeroElementsMoveNothing)
{
  int src[1] = {5};
  shmem_int_iput(sym<int>(0), src, 1, 1, 0, 1);
  EXPECT_EQ(tp.count("put"), 0u);
  shmem_int_put(sym<int>(0), src, 0, 1);
  EXPECT_EQ(*on(sym<int>(0), 1), 0);
}

TEST_F(Routines, ContextFormsRouteToTheirContext)
{
  shmem_ctx_t ctx;
  ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0); // the 1.5 form, next to the paper's macro
  FakeCtx* f = FakeTransport::fake(ctx->tctx);
  int src[2] = {1, 2};
  int* dest  = sym<int>(0);
  shmem_ctx_int_put_nbi(ctx, dest, src, 2, 1);
  EXPECT_EQ(last("put").ctx, f);
  EXPECT_EQ(rt.entered.back(), "shmem_ctx_int_put_nbi");
  shmem_quiet(); // the default context: must not complete ctx's put
  EXPECT_EQ(on(dest, 1)[1], 0);
  shmem_ctx_quiet(ctx);
  EXPECT_EQ(on(dest, 1)[1], 2);
  EXPECT_EQ(last("quiet").ctx, f);

  shmem_ctx_long_atomic_add(ctx, sym<long>(64), 5, 2);
  EXPECT_EQ(last("amo").ctx, f);
  EXPECT_EQ(*on(sym<long>(64), 2), 5);
  EXPECT_EQ(shmem_ctx_long_atomic_fetch(ctx, sym<long>(64), 2), 5);
  EXPECT_EQ(last("fetch_amo").ctx, f);
  shmem_ctx_double_p(ctx, sym<double>(128), 4.0, 3);
  EXPECT_EQ(shmem_ctx_double_g(ctx, sym<double>(128), 3), 4.0);
  EXPECT_EQ(last("get").ctx, f);
  shmem_ctx_put64_nbi(ctx, sym<long>(256), src, 1, 1);
  EXPECT_EQ(last("put").ctx, f);
  EXPECT_EQ(last("put").bytes, 8u);
  shmem_int_put(dest, src, 1, 1);
  EXPECT_EQ(last("put").ctx, tp.default_fake());
  shmem_ctx_destroy(ctx); // 1.5 form: quiets first
  EXPECT_EQ(tp.live, 0);
}

// ---------------------------------------------------------------- AMOs

TEST_F(Routines, AmoTypesMapBySizeAndSignedness)
{
#define CHECK_AMO_TYPE(TYPE, TYPENAME, EXPECTED)                                                                       \
  shmem_##TYPENAME##_atomic_inc(sym<TYPE>(0), 1);                                                                      \
  EXPECT_EQ(last("amo").type, AmoType::EXPECTED) << #TYPENAME;                                                         \
  EXPECT_EQ(last("amo").amo_op, AmoOp::Add) << #TYPENAME;
  CHECK_AMO_TYPE(int, int, Int32)
  CHECK_AMO_TYPE(long, long, Int64)
  CHECK_AMO_TYPE(long long, longlong, Int64)
  CHECK_AMO_TYPE(unsigned int, uint, Uint32)
  CHECK_AMO_TYPE(unsigned long, ulong, Uint64)
  CHECK_AMO_TYPE(unsigned long long, ulonglong, Uint64)
  CHECK_AMO_TYPE(int32_t, int32, Int32)
  CHECK_AMO_TYPE(int64_t, int64, Int64)
  CHECK_AMO_TYPE(uint32_t, uint32, Uint32)
  CHECK_AMO_TYPE(uint64_t, uint64, Uint64)
  CHECK_AMO_TYPE(size_t, size, Uint64)
  CHECK_AMO_TYPE(ptrdiff_t, ptrdiff, Int64)
#undef CHECK_AMO_TYPE
  shmem_float_atomic_set(sym<float>(0), 1.0f, 1);
  EXPECT_EQ(last("amo").type, AmoType::Float);
  shmem_double_atomic_swap(sym<double>(0), 1.0, 1);
  EXPECT_EQ(last("fetch_amo").type, AmoType::Double);
}

TEST_F(Routines, StandardAmosComputeAndFetch)
{
  int* x = sym<int>(0);
  int* r = on(x, 1);
  shmem_int_atomic_set(x, 5, 1);
  EXPECT_EQ(*r, 5);
  EXPECT_EQ(last("amo").amo_op, AmoOp::Set);
  EXPECT_EQ(shmem_int_atomic_fetch(x, 1), 5);
  EXPECT_EQ(last("fetch_amo").amo_op, AmoOp::Fetch);
  EXPECT_EQ(shmem_int_atomic_fetch_add(x, 3, 1), 5);
  EXPECT_EQ(*r, 8);
  shmem_int_atomic_add(x, 2, 1);
  EXPECT_EQ(*r, 10);
  EXPECT_EQ(shmem_int_atomic_fetch_inc(x, 1), 10);
  EXPECT_EQ(*r, 11);
  shmem_int_atomic_inc(x, 1);
  EXPECT_EQ(*r, 12);
  EXPECT_EQ(shmem_int_atomic_swap(x, 7, 1), 12);
  EXPECT_EQ(*r, 7);
  EXPECT_EQ(shmem_int_atomic_compare_swap(x, 7, 9, 1), 7);
  EXPECT_EQ(*r, 9);
  EXPECT_EQ(shmem_int_atomic_compare_swap(x, 1, 100, 1), 9);
  EXPECT_EQ(*r, 9) << "compare_swap with a false condition changed the target";
  EXPECT_EQ(last("fetch_amo").amo_op, AmoOp::CompareSwap);
  EXPECT_TRUE(last("fetch_amo").blocking);

  std::size_t* s = sym<std::size_t>(64);
  EXPECT_EQ(shmem_size_atomic_fetch_add(s, std::size_t{1} << 40, 2), 0u);
  EXPECT_EQ(*on(s, 2), std::size_t{1} << 40);
  ptrdiff_t* p = sym<ptrdiff_t>(128);
  shmem_ptrdiff_atomic_add(p, -3, 2);
  EXPECT_EQ(shmem_ptrdiff_atomic_fetch_inc(p, 2), -3);
  EXPECT_EQ(*on(p, 2), -2);
}

TEST_F(Routines, BitwiseAmosComputeAndFetch)
{
  std::uint64_t* x = sym<std::uint64_t>(0);
  std::uint64_t* r = on(x, 3);
  *r               = 0b1100;
  EXPECT_EQ(shmem_uint64_atomic_fetch_and(x, 0b1010, 3), 0b1100u);
  EXPECT_EQ(*r, 0b1000u);
  shmem_uint64_atomic_or(x, 0b0011, 3);
  EXPECT_EQ(*r, 0b1011u);
  EXPECT_EQ(shmem_uint64_atomic_fetch_xor(x, 0b1111, 3), 0b1011u);
  EXPECT_EQ(*r, 0b0100u);
  shmem_uint64_atomic_and(x, 0b0110, 3);
  EXPECT_EQ(*r, 0b0100u);
  EXPECT_EQ(shmem_uint64_atomic_fetch_or(x, 0b0001, 3), 0b0100u);
  shmem_uint64_atomic_xor(x, 0b0101, 3);
  EXPECT_EQ(*r, 0u);
  EXPECT_EQ(last("amo").amo_op, AmoOp::Xor);

  unsigned int* u = sym<unsigned int>(64);
  shmem_uint_atomic_set(u, 0xF0u, 1);
  EXPECT_EQ(shmem_ctx_uint_atomic_fetch_and(SHMEM_CTX_DEFAULT, u, 0x3Cu, 1), 0xF0u);
  EXPECT_EQ(*on(u, 1), 0x30u);
  EXPECT_EQ(last("fetch_amo").type, AmoType::Uint32);
  int32_t* i = sym<int32_t>(128);
  shmem_int32_atomic_or(i, -16, 1);
  EXPECT_EQ(shmem_int32_atomic_fetch_xor(i, -1, 1), -16);
  EXPECT_EQ(*on(i, 1), 15);
}

TEST_F(Routines, ExtendedAmosOnFloatingTypes)
{
  double* d = sym<double>(0);
  shmem_double_atomic_set(d, 1.5, 2);
  EXPECT_EQ(*on(d, 2), 1.5);
  EXPECT_EQ(shmem_double_atomic_fetch(d, 2), 1.5);
  EXPECT_EQ(shmem_double_atomic_swap(d, -2.0, 2), 1.5);
  EXPECT_EQ(*on(d, 2), -2.0);
  float* f = sym<float>(64);
  shmem_ctx_float_atomic_set(SHMEM_CTX_DEFAULT, f, 0.25f, 1);
  EXPECT_EQ(shmem_ctx_float_atomic_swap(SHMEM_CTX_DEFAULT, f, 4.0f, 1), 0.25f);
  EXPECT_EQ(shmem_float_atomic_fetch(f, 1), 4.0f);
  EXPECT_EQ(last("fetch_amo").type, AmoType::Float);
}

TEST_F(Routines, NbiAmosDeliverAtQuiet)
{
  long* x   = sym<long>(0);
  *on(x, 1) = 10;
  long fa = -1, fi = -1, cs = -1, sw = -1, fe = -1;
  {
    long value = 5; // operands are the routine's own copies: changing ours later must not matter
    shmem_long_atomic_fetch_add_nbi(&fa, x, value, 1);
    value = 1000;
  }
  EXPECT_FALSE(last("fetch_amo").blocking);
  EXPECT_EQ(fa, -1);
  EXPECT_EQ(*on(x, 1), 10);
  shmem_long_atomic_fetch_inc_nbi(&fi, x, 1);
  shmem_long_atomic_compare_swap_nbi(&cs, x, 16, 20, 1);
  shmem_long_atomic_swap_nbi(&sw, x, 30, 1);
  shmem_long_atomic_fetch_nbi(&fe, x, 1);
  EXPECT_EQ(*on(x, 1), 10);
  shmem_quiet();
  EXPECT_EQ(fa, 10);
  EXPECT_EQ(fi, 15);
  EXPECT_EQ(cs, 16);
  EXPECT_EQ(sw, 20);
  EXPECT_EQ(fe, 30);
  EXPECT_EQ(*on(x, 1), 30);

  std::uint32_t* b = sym<std::uint32_t>(64);
  *on(b, 2)        = 0b0110;
  std::uint32_t a1 = 0, o1 = 0, x1 = 0;
  shmem_ctx_uint32_atomic_fetch_and_nbi(SHMEM_CTX_DEFAULT, &a1, b, 0b0100, 2);
  shmem_uint32_atomic_fetch_or_nbi(&o1, b, 0b0001, 2);
  shmem_uint32_atomic_fetch_xor_nbi(&x1, b, 0b1111, 2);
  shmem_quiet();
  EXPECT_EQ(a1, 0b0110u);
  EXPECT_EQ(o1, 0b0100u);
  EXPECT_EQ(x1, 0b0101u);
  EXPECT_EQ(*on(b, 2), 0b1010u);
  double df                = 0;
  *on(sym<double>(128), 3) = 9.5;
  shmem_double_atomic_fetch_nbi(&df, sym<double>(128), 3);
  shmem_quiet();
  EXPECT_EQ(df, 9.5);
}

TEST_F(Routines, DeprecatedAmoNamesAreThinWrappers)
{
  int* i = sym<int>(0);
  EXPECT_EQ(shmem_int_finc(i, 1), 0);
  EXPECT_EQ(rt.entered.back(), "shmem_int_finc");
  shmem_int_inc(i, 1);
  shmem_int_add(i, 3, 1);
  EXPECT_EQ(shmem_int_fadd(i, 1, 1), 5);
  EXPECT_EQ(shmem_int_cswap(i, 6, 60, 1), 6);
  EXPECT_EQ(shmem_int_swap(i, 61, 1), 60);
  EXPECT_EQ(shmem_int_fetch(i, 1), 61);
  shmem_int_set(i, 62, 1);
  EXPECT_EQ(*on(i, 1), 62);
  EXPECT_EQ(rt.entered.back(), "shmem_int_set");

  long* l = sym<long>(64);
  shmem_long_add(l, 1L << 40, 2);
  EXPECT_EQ(shmem_long_fadd(l, 1, 2), 1L << 40);
  EXPECT_EQ(last("fetch_amo").type, AmoType::Int64);
  long long* ll = sym<long long>(128);
  EXPECT_EQ(shmem_longlong_cswap(ll, 0, 9, 2), 0);
  EXPECT_EQ(shmem_longlong_finc(ll, 2), 9);
  double* d = sym<double>(192);
  shmem_double_set(d, 2.0, 3);
  EXPECT_EQ(shmem_double_swap(d, 3.0, 3), 2.0);
  EXPECT_EQ(shmem_double_fetch(d, 3), 3.0);
  float* f = sym<float>(256);
  shmem_float_set(f, 0.5f, 3);
  EXPECT_EQ(shmem_float_fetch(f, 3), 0.5f);
  EXPECT_EQ(shmem_float_swap(f, 1.0f, 3), 0.5f);
}

// ---------------------------------------------------------------- misuse

TEST_F(Routines, InvalidPeIsFatalNamingRoutineAndValue)
{
  int src[1]    = {1};
  std::string m = fatal_of([&] { shmem_int_put(sym<int>(0), src, 1, 4); });
  EXPECT_NE(m.find("shmem_int_put: invalid PE 4"), std::string::npos) << m;
  EXPECT_NE(m.find("4 PEs"), std::string::npos) << m;
  m = fatal_of([&] { shmem_ctx_long_atomic_fetch_add(SHMEM_CTX_DEFAULT, sym<long>(0), 1, -1); });
  EXPECT_NE(m.find("shmem_ctx_long_atomic_fetch_add: invalid PE -1"), std::string::npos) << m;
  m = fatal_of([&] { shmem_iget8(src, sym<char>(0), 1, 1, 1, 99); });
  EXPECT_NE(m.find("shmem_iget8: invalid PE 99"), std::string::npos) << m;
  EXPECT_EQ(tp.calls.size(), 0u) << "nothing may be issued after a failed check";
}

TEST_F(Routines, NonSymmetricAddressIsFatal)
{
  double local[2] = {1, 2};
  std::string m   = fatal_of([&] { shmem_double_put(local, local, 2, 1); });
  EXPECT_NE(m.find("shmem_double_put: dest"), std::string::npos) << m;
  EXPECT_NE(m.find("(16 bytes) is not symmetric"), std::string::npos) << m;
  m = fatal_of([&] { (void)shmem_int_g(reinterpret_cast<int*>(local), 1); });
  EXPECT_NE(m.find("shmem_int_g: source"), std::string::npos) << m;
  m = fatal_of([&] { shmem_long_atomic_add(reinterpret_cast<long*>(local), 1, 1); });
  EXPECT_NE(m.find("shmem_long_atomic_add: dest"), std::string::npos) << m;
  m = fatal_of([&] { (void)shmem_long_atomic_fetch(reinterpret_cast<long*>(local), 1); });
  EXPECT_NE(m.find("shmem_long_atomic_fetch: source"), std::string::npos) << m;
  // The whole remote extent must be symmetric: the last int sticks out of the heap.
  int* end   = reinterpret_cast<int*>(rt.base(0) + kHeap) - 1;
  int src[2] = {};
  m          = fatal_of([&] { shmem_int_put(end, src, 2, 1); });
  EXPECT_NE(m.find("shmem_int_put: dest"), std::string::npos) << m;
  EXPECT_NE(m.find("(8 bytes) is out of bounds"), std::string::npos) << m;
  shmem_int_put(end, src, 1, 1); // exactly fits
  m = fatal_of([&] { shmem_int_iget(src, end - 4, 1, 5, 2, 1); });
  EXPECT_NE(m.find("shmem_int_iget: source (last element)"), std::string::npos) << m;
  m = fatal_of([&] { shmem_int_iput(end - 4, src, 5, 1, 2, 1); });
  EXPECT_NE(m.find("shmem_int_iput: dest (last element)"), std::string::npos) << m;
  m = fatal_of([&] { shmem_int_get(src, end, 2, 1); });
  EXPECT_NE(m.find("shmem_int_get: source"), std::string::npos) << m;
  EXPECT_NE(m.find("out of bounds"), std::string::npos) << m;
}

TEST_F(Routines, NullFetchIsFatal)
{
  std::string m = fatal_of([&] { shmem_int_atomic_fetch_add_nbi(nullptr, sym<int>(0), 1, 1); });
  EXPECT_NE(m.find("shmem_int_atomic_fetch_add_nbi: fetch is NULL"), std::string::npos) << m;
}

TEST_F(Routines, DestroyedAndInvalidContextsAreFatal)
{
  shmem_ctx_t ctx;
  ASSERT_EQ(shmem_ctx_create(0, &ctx), 0);
  shmem_ctx_destroy(ctx);
  int v[1]      = {};
  std::string m = fatal_of([&] { shmem_ctx_int_put(ctx, sym<int>(0), v, 1, 1); });
  EXPECT_NE(m.find("shmem_ctx_int_put: context"), std::string::npos) << m;
  EXPECT_NE(m.find("was destroyed"), std::string::npos) << m;
  m = fatal_of([&] { shmem_ctx_int_atomic_inc(SHMEM_CTX_INVALID, sym<int>(0), 1); });
  EXPECT_NE(m.find("shmem_ctx_int_atomic_inc: SHMEM_CTX_INVALID"), std::string::npos) << m;
  shmem_ctx_t bogus = reinterpret_cast<shmem_ctx_t>(sym<char>(0));
  m                 = fatal_of([&] { (void)shmem_ctx_double_g(bogus, sym<double>(0), 1); });
  EXPECT_NE(m.find("is not a context of this PE"), std::string::npos) << m;
}

TEST_F(Routines, BeforeInitIsFatal)
{
  install(Env{&rt, &tp, &rt}); // fresh library state: no PE initialized
  std::string m = fatal_of([&] { shmem_int_p(sym<int>(0), 1, 1); });
  EXPECT_EQ(m, "shmem_int_p: called before shmem_init");
  m = fatal_of([&] { (void)shmem_long_atomic_fetch_inc(sym<long>(0), 1); });
  EXPECT_EQ(m, "shmem_long_atomic_fetch_inc: called before shmem_init");
  m = fatal_of([&] { shmem_int_wait_until(sym<int>(0), SHMEM_CMP_EQ, 0); });
  EXPECT_EQ(m, "shmem_int_wait_until: called before shmem_init");
  m = fatal_of([&] { shmemx_ctx_quiet(SHMEM_CTX_DEFAULT); });
  EXPECT_EQ(m, "shmemx_ctx_quiet: called before shmem_init");
}

// ---------------------------------------------------------------- point-to-point

struct CmpCase {
  int cmp;
  const char* name;
  int before, during, after, value; ///< ivar before the call, after the 1st and the 2nd update
};

TEST_F(Routines, WaitUntilEachComparison)
{
  const CmpCase cases[] = {
      {SHMEM_CMP_EQ, "EQ", 0, 1, 5, 5}, {SHMEM_CMP_NE, "NE", 5, 5, 6, 5}, {SHMEM_CMP_GT, "GT", 5, 5, 6, 5},
      {SHMEM_CMP_GE, "GE", 3, 4, 5, 5}, {SHMEM_CMP_LT, "LT", 5, 5, 4, 5}, {SHMEM_CMP_LE, "LE", 7, 6, 5, 5},
  };
  int* ivar = sym<int>(0);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    *ivar    = c.before;
    tp.waits = 0;
    tp.on_wait.push_back([&] { *ivar = c.during; }); // a remote write that does not satisfy yet
    tp.on_wait.push_back([&] { *ivar = c.after; });
    shmem_int_wait_until(ivar, c.cmp, c.value);
    EXPECT_EQ(tp.waits, 2);
    EXPECT_EQ(*ivar, c.after);
    EXPECT_EQ(tp.last_wait_call, "shmem_int_wait_until");
    EXPECT_TRUE(tp.on_wait.empty());
  }
  // Unsigned comparison, 64-bit.
  unsigned long* u = sym<unsigned long>(64);
  *u               = 1;
  tp.on_wait.push_back([&] { *u = ~0UL; });
  shmem_ulong_wait_until(u, SHMEM_CMP_GT, 1UL << 63);
  EXPECT_EQ(*u, ~0UL);
  // Already satisfied: no wait at all.
  tp.waits = 0;
  shmem_ptrdiff_wait_until(sym<ptrdiff_t>(128), SHMEM_CMP_LE, 0);
  EXPECT_EQ(tp.waits, 0);
}

TEST_F(Routines, WaitUntilWithoutUpdateSurfacesAsDeadlock)
{
  long* ivar = sym<long>(0);
  EXPECT_THROW(shmem_long_wait_until(ivar, SHMEM_CMP_NE, 0), Deadlock);
  EXPECT_EQ(tp.last_wait_call, "shmem_long_wait_until");
}

TEST_F(Routines, TestEachComparison)
{
  struct Case {
    int cmp;
    long value;
    bool expected;
  };
  long* ivar         = sym<long>(0);
  *ivar              = 5;
  const Case cases[] = {{SHMEM_CMP_EQ, 5, true},  {SHMEM_CMP_EQ, 4, false}, {SHMEM_CMP_NE, 4, true},
                        {SHMEM_CMP_NE, 5, false}, {SHMEM_CMP_GT, 4, true},  {SHMEM_CMP_GT, 5, false},
                        {SHMEM_CMP_GE, 5, true},  {SHMEM_CMP_GE, 6, false}, {SHMEM_CMP_LT, 6, true},
                        {SHMEM_CMP_LT, 5, false}, {SHMEM_CMP_LE, 5, true},  {SHMEM_CMP_LE, 4, false}};
  for (const auto& c : cases) {
    const int polls = rt.polls;
    EXPECT_EQ(shmem_long_test(ivar, c.cmp, c.value), c.expected ? 1 : 0) << c.cmp << " " << c.value;
    EXPECT_EQ(rt.polls - polls, c.expected ? 0 : 1) << "a failed test lets one poll cost pass";
  }
  EXPECT_EQ(tp.waits, 0) << "test never blocks";
  EXPECT_EQ(rt.entered.back(), "shmem_long_test");
  std::uint32_t* u = sym<std::uint32_t>(64);
  *u               = 3;
  EXPECT_EQ(shmem_uint32_test(u, SHMEM_CMP_LT, 4u), 1);
  EXPECT_EQ(shmem_short_test(sym<short>(96), SHMEM_CMP_EQ, 0), 1);
}

TEST_F(Routines, PointToPointMisuseIsFatal)
{
  std::string m = fatal_of([&] { shmem_int_wait_until(sym<int>(0), 42, 0); });
  EXPECT_NE(m.find("shmem_int_wait_until: invalid comparison operator cmp 42"), std::string::npos) << m;
  EXPECT_NE(m.find("SHMEM_CMP_EQ"), std::string::npos) << m;
  EXPECT_NE(m.find("SHMEM_CMP_LE"), std::string::npos) << m;
  m = fatal_of([&] { (void)shmem_size_test(sym<size_t>(0), -1, 0); });
  EXPECT_NE(m.find("shmem_size_test: invalid comparison operator cmp -1"), std::string::npos) << m;
  long local = 0;
  m          = fatal_of([&] { (void)shmem_long_test(&local, SHMEM_CMP_EQ, 0); });
  EXPECT_NE(m.find("shmem_long_test: ivar"), std::string::npos) << m;
  EXPECT_NE(m.find("is not symmetric"), std::string::npos) << m;
}

TEST_F(Routines, DeprecatedWaitRoutines)
{
  int* i = sym<int>(0);
  tp.on_wait.push_back([&] { *i = 0; });
  tp.on_wait.push_back([&] { *i = 3; });
  shmem_int_wait(i, 0); // waits while *i == 0
  EXPECT_EQ(tp.waits, 2);
  EXPECT_EQ(tp.last_wait_call, "shmem_int_wait");
  long* l = sym<long>(64);
  tp.on_wait.push_back([&] { *l = 9; });
  shmem_wait_until(l, SHMEM_CMP_GE, 9);
  EXPECT_EQ(tp.last_wait_call, "shmem_wait_until");
  tp.on_wait.push_back([&] { *l = 10; });
  shmem_wait(l, 9);
  EXPECT_EQ(*l, 10);
  short* s = sym<short>(128);
  tp.on_wait.push_back([&] { *s = -1; });
  shmem_short_wait(s, 0);
  tp.on_wait.push_back([&] { *s = 2; });
  shmem_short_wait_until(s, SHMEM_CMP_GT, 1);
  long long* q = sym<long long>(192);
  tp.on_wait.push_back([&] { *q = 1; });
  shmem_longlong_wait(q, 0);
  EXPECT_TRUE(tp.on_wait.empty());
}

// ---------------------------------------------------------------- shmemx (the paper's API)

TEST_F(Routines, ShmemxCtxCreateMakesUsableContexts)
{
  shmem_ctx_t ctx[3];
  ASSERT_EQ(shmemx_ctx_create(3, SHMEM_THREAD_SERIALIZED, ctx), 0);
  EXPECT_EQ(tp.live, 3);
  EXPECT_NE(ctx[0], ctx[1]);
  EXPECT_NE(ctx[1], ctx[2]);
  for (auto* c : ctx)
    EXPECT_EQ(c->options, SHMEM_CTX_SERIALIZED);
  char src[8] = "abcdefg";
  shmemx_ctx_putmem_nb(ctx[1], sym<char>(0), src, 8, 2);
  EXPECT_EQ(last("put").ctx, FakeTransport::fake(ctx[1]->tctx));
  EXPECT_FALSE(last("put").blocking);
  EXPECT_EQ(rt.entered.back(), "shmemx_ctx_putmem_nb");
  shmemx_ctx_quiet(ctx[0]);
  EXPECT_EQ(on(sym<char>(0), 2)[0], 0) << "another context's quiet completed it";
  shmemx_ctx_quiet(ctx[1]);
  EXPECT_STREQ(on(sym<char>(0), 2), "abcdefg");

  int keys[4] = {1, 2, 3, 4};
  shmemx_ctx_int_put_nb(ctx[2], sym<int>(64), keys, 4, 1);
  EXPECT_EQ(last("put").bytes, 16u);
  int got[4] = {};
  shmemx_ctx_int_get_nb(ctx[2], got, sym<int>(64), 4, 1);
  shmemx_ctx_quiet(ctx[2]);
  EXPECT_EQ(got[3], 4);
  *on(sym<long>(128), 3) = 40;
  EXPECT_EQ(shmemx_ctx_long_fadd_nb(ctx[0], sym<long>(128), 2, 3), 40);
  EXPECT_EQ(*on(sym<long>(128), 3), 42);
  EXPECT_EQ(last("fetch_amo").amo_op, AmoOp::Add);
  EXPECT_EQ(last("fetch_amo").type, AmoType::Int64);
  shmemx_ctx_fence(ctx[0]);
  EXPECT_EQ(last("fence").ctx, FakeTransport::fake(ctx[0]->tctx));

  shmemx_ctx_putmem_nb(ctx[0], sym<char>(256), src, 4, 1);
  shmemx_ctx_destroy(3, ctx); // quiets each first
  EXPECT_EQ(tp.live, 0);
  EXPECT_EQ(on(sym<char>(256), 1)[3], 'd');
  std::string m = fatal_of([&] { shmem_ctx_quiet(ctx[1]); });
  EXPECT_NE(m.find("was destroyed"), std::string::npos) << m;
}

TEST_F(Routines, ShmemxCtxCreateRollsBackOnExhaustion)
{
  tp.ctx_limit = 2;
  shmem_ctx_t ctx[3];
  EXPECT_NE(shmemx_ctx_create(3, SHMEM_THREAD_MULTIPLE, ctx), 0);
  EXPECT_EQ(tp.live, 0) << "the contexts made before running out must be destroyed";
  for (auto* c : ctx)
    EXPECT_EQ(c, SHMEM_CTX_INVALID);
  ASSERT_EQ(shmemx_ctx_create(2, 0, ctx), 0);
  EXPECT_EQ(ctx[0]->options, 0);
  shmemx_ctx_destroy(2, ctx);
}

TEST_F(Routines, ContextsAreThePesTablesOverTheTransportsCounters)
{
  // PE 2's contexts are numbered by its own table; refusals say so once per PE, with the limit
  // the transport named; the run's counts sum the PEs' tables.
  using shmemsim::CtxEvent;
  tp.ctx_limit = 1;
  rt.me        = 2;
  shmem_ctx_t a, b, c;
  ASSERT_EQ(shmem_ctx_create(0, &a), 0);
  EXPECT_EQ(a->tctx->id, 1);
  EXPECT_NE(shmem_ctx_create(0, &b), 0);
  EXPECT_EQ(b, SHMEM_CTX_INVALID);
  EXPECT_NE(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c), 0);
  ASSERT_EQ(tp.notices.size(), 1u);
  EXPECT_EQ(tp.notices[0], "PE 2: a context was refused (SHMEM_CTX_INVALID): the fake's ctx_limit reached");
  shmem_ctx_destroy(a);
  rt.me = 1;
  ASSERT_EQ(shmem_ctx_create(0, &a), 0);
  EXPECT_EQ(a->tctx->id, 1) << "PE 1's first context";
  EXPECT_NE(a->tctx, default_ctx());
  shmem_ctx_destroy(a);
  const std::vector<std::pair<int, CtxEvent>> want = {{1, CtxEvent::Create},  {-1, CtxEvent::Refuse},
                                                      {-1, CtxEvent::Refuse}, {1, CtxEvent::Destroy},
                                                      {1, CtxEvent::Create},  {1, CtxEvent::Destroy}};
  EXPECT_EQ(tp.events, want);
  const ContextCounts n = context_counts();
  EXPECT_EQ(n.created, 2u);
  EXPECT_EQ(n.refused, 2u);
  EXPECT_EQ(tp.live, 0);
}

TEST_F(Routines, ShmemxMisuseIsFatal)
{
  shmem_ctx_t ctx[2];
  std::string m = fatal_of([&] { (void)shmemx_ctx_create(2, 77, ctx); });
  EXPECT_NE(m.find("shmemx_ctx_create: invalid assertion 77"), std::string::npos) << m;
  EXPECT_NE(m.find("SHMEM_THREAD_SERIALIZED"), std::string::npos) << m;
  m = fatal_of([&] { (void)shmemx_ctx_create(-1, 0, ctx); });
  EXPECT_NE(m.find("num_ctx -1 is negative"), std::string::npos) << m;
  ctx[0] = SHMEM_CTX_DEFAULT;
  m      = fatal_of([&] { shmemx_ctx_destroy(1, ctx); });
  EXPECT_NE(m.find("shmemx_ctx_destroy: ctx[0] is SHMEM_CTX_DEFAULT"), std::string::npos) << m;
  long pSync[SHMEM_SYNC_SIZE];
  m = fatal_of([&] { shmemx_sync(0, 0, 4, pSync); });
  EXPECT_NE(m.find("shmemx_sync: pSync"), std::string::npos) << m;
  m = fatal_of([&] { shmemx_sync(1, 1, 3, sym<long>(0)); });
  EXPECT_NE(m.find("ends at PE 5; the job has 4 PEs"), std::string::npos) << m;
  m = fatal_of([&] { shmemx_sync(1, 0, 2, sym<long>(0)); });
  EXPECT_NE(m.find("the calling PE 0 is not in the active set"), std::string::npos) << m;
  m = fatal_of([&] { shmemx_ctx_putmem_nb(SHMEM_CTX_DEFAULT, pSync, pSync, 8, 1); });
  EXPECT_NE(m.find("shmemx_ctx_putmem_nb: target"), std::string::npos) << m;
}

TEST_F(Routines, ShmemxSyncIsALoudBarrier)
{
  long* pSync = sym<long>(0);
  // An nbi put issued before the sync stays in flight after it: the sync does not quiet.
  int v[1] = {7};
  shmem_int_put_nbi(sym<int>(1024), v, 1, 1);
  // PEs {0, 2}: round 0, PE 0 signals PE 2 and waits for PE 2's signal (scripted).
  tp.on_wait.push_back([&] { pSync[0] += 1; });
  shmemx_sync(0, 1, 2, pSync);
  EXPECT_EQ(tp.count("quiet"), 0u);
  EXPECT_EQ(*on(sym<int>(1024), 1), 0);
  EXPECT_EQ(last("amo").pe, 2);
  EXPECT_EQ(last("amo").type, AmoType::Int64);
  EXPECT_EQ(*on(pSync, 2), 1) << "signal to the partner";
  EXPECT_EQ(pSync[0], 0) << "pSync is back to SHMEM_SYNC_VALUE";
  EXPECT_EQ(tp.last_wait_call, "shmemx_sync");
  // All 4 PEs: two rounds; a signal already there for round 1 (a fast partner) is consumed
  // without waiting.
  tp.waits = 0;
  pSync[1] = 1;
  tp.on_wait.push_back([&] { pSync[0] += 1; });
  shmem_sync(0, 0, 4, pSync); // the paper's name, mapped by SHMEMSIM_PAPER_NAMES
  EXPECT_EQ(tp.waits, 1);
  EXPECT_EQ(pSync[0] + pSync[1], 0);
  EXPECT_EQ(*on(pSync, 1), 1);
  EXPECT_EQ(on(pSync, 2)[1], 1);
  EXPECT_EQ(rt.entered.back(), "shmemx_sync");
  shmem_quiet();
  EXPECT_EQ(*on(sym<int>(1024), 1), 7);
}

TEST_F(Routines, PaperNamesMapToShmemx)
{
  shmem_ctx_t ctx[2];
  ASSERT_EQ(shmem_ctx_create(2, SHMEM_THREAD_SERIALIZED, ctx), 0); // the paper's 3-argument form
  EXPECT_EQ(rt.entered.back(), "shmemx_ctx_create");
  shmem_ctx_t one;
  ASSERT_EQ(shmem_ctx_create(SHMEM_CTX_SERIALIZED, &one), 0); // 1.5's 2-argument form
  EXPECT_EQ(rt.entered.back(), "shmem_ctx_create");
  int keys[2] = {5, 6};
  shmem_ctx_int_put_nb(ctx[1], sym<int>(0), keys, 2, 3); // Listing 4
  EXPECT_EQ(rt.entered.back(), "shmemx_ctx_int_put_nb");
  EXPECT_EQ(on(sym<int>(0), 3)[1], 0);
  shmem_ctx_quiet(ctx[1]);
  EXPECT_EQ(on(sym<int>(0), 3)[1], 6);
  shmem_ctx_getmem_nb(ctx[0], keys, sym<int>(0), sizeof keys, 3);
  shmem_ctx_putmem_nb(ctx[0], sym<int>(16), keys, 0, 1);
  shmem_ctx_quiet(ctx[0]);
  EXPECT_EQ(shmem_ctx_int_fadd_nb(ctx[0], sym<int>(0), 10, 3), 5);
  EXPECT_EQ(rt.entered.back(), "shmemx_ctx_int_fadd_nb");
  EXPECT_EQ(shmem_ctx_longlong_fadd_nb(ctx[0], sym<long long>(64), 1, 3), 0);
  shmem_ctx_destroy(2, ctx); // the paper's 2-argument form
  EXPECT_EQ(rt.entered.back(), "shmemx_ctx_destroy");
  shmem_ctx_destroy(one); // 1.5's
  EXPECT_EQ(rt.entered.back(), "shmem_ctx_destroy");
  EXPECT_EQ(tp.live, 0);
}

} // namespace

// ---------------------------------------------------------------- seed 003: requests, active sets

TEST_F(Routines, RequestPutIsNotCompletedByQuietOnlyByWait)
{
  long src[2]               = {7, 8};
  long* dest                = sym<long>(0);
  shmemx_request_handle_t r = SHMEMX_REQUEST_NULL;
  shmemx_long_put_req(dest, src, 2, 1, &r);
  ASSERT_NE(r, SHMEMX_REQUEST_NULL);
  EXPECT_FALSE(last("put").blocking);
  EXPECT_NE(last("put").ctx, tp.default_fake()) << "a request must not issue on a context quiet completes";
  shmem_quiet();
  shmem_fence();
  EXPECT_EQ(on(dest, 1)[1], 0) << "quiet completed a request";
  EXPECT_EQ(tp.open_requests(), 1u);
  shmemx_wait_request(r);
  EXPECT_EQ(on(dest, 1)[1], 8);
  EXPECT_EQ(tp.open_requests(), 0u) << "the completion object is released with the request";
  const std::string msg = fatal_of([&] { shmemx_wait_request(r); });
  EXPECT_NE(msg.find("shmemx_wait_request: request #"), std::string::npos) << msg;
  EXPECT_NE(msg.find("has already completed and was released"), std::string::npos) << msg;
}

TEST_F(Routines, RequestFetchAddDeliversAtTest)
{
  long* ctr   = sym<long>(64);
  *on(ctr, 2) = 40;
  long old    = -1;
  shmemx_request_handle_t r;
  shmemx_long_atomic_fetch_add_req(&old, ctr, 2, 2, &r);
  EXPECT_EQ(old, -1);
  EXPECT_EQ(shmemx_test_request(r), 1);
  EXPECT_EQ(old, 40);
  EXPECT_EQ(*on(ctr, 2), 42);
  EXPECT_EQ(shmemx_test_request(SHMEMX_REQUEST_NULL), 1);
  EXPECT_NE(fatal_of([&] { shmemx_long_put_req(ctr, &old, 1, 1, nullptr); }).find("request is NULL"),
            std::string::npos);
}

TEST_F(Routines, ActiveSetsGiveNullOutsideAndCheckMembers)
{
  rt.me = 1;
  EXPECT_EQ(shmemx_create_strided_aset(0, 2, 2), nullptr) << "PE 1 is not in {0, 2}";
  EXPECT_EQ(shmemx_in_aset(nullptr), 0);
  EXPECT_EQ(shmemx_aset_size(nullptr), 0);
  rt.me          = 2;
  shmemx_aset* a = shmemx_create_strided_aset(0, 2, 2);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(shmemx_in_aset(a), 1);
  EXPECT_EQ(shmemx_aset_size(a), 2);
  int list[3]    = {3, 1, 2};
  shmemx_aset* g = shmemx_create_generic_aset(list, 3);
  EXPECT_EQ(shmemx_aset_size(g), 3);
  shmemx_delete_aset(g);
  shmemx_delete_aset(a);
  EXPECT_NE(fatal_of([&] { shmemx_aset_size(a); }).find("is not a live active set of this PE"), std::string::npos);
  EXPECT_NE(fatal_of([&] { shmemx_create_strided_aset(0, 1, kPes + 1); }).find("member 4 is PE 4, not a PE of the job"),
            std::string::npos);
  int dup[2] = {2, 2};
  EXPECT_NE(fatal_of([&] { shmemx_create_generic_aset(dup, 2); }).find("PE 2 appears twice"), std::string::npos);
  rt.me = 0;
}

// Teams and sets name their PEs by index; a progression (the world team, strided splits, legacy
// triplets) takes no memory per PE, so a 10,000-PE job does not keep 10,000 lists of 10,000 PEs.
TEST(PeList, ProgressionsInConstantSpaceOtherOrdersListed)
{
  using shmemsim::front::PeList;
  const PeList world = PeList::strided(0, 1, 10000);
  EXPECT_EQ(world.size(), 10000u);
  EXPECT_EQ(world[9999], 9999);
  EXPECT_EQ(world.index_of(4321), 4321);
  EXPECT_EQ(world.index_of(10000), -1);
  EXPECT_EQ(world.heap_bytes(), 0u);

  const PeList odd = PeList::listed({1, 3, 5, 7}); // a progression given as a list
  EXPECT_EQ(odd.heap_bytes(), 0u);
  EXPECT_EQ(odd[2], 5);
  EXPECT_EQ(odd.index_of(7), 3);
  EXPECT_EQ(odd.index_of(4), -1) << "between members";
  EXPECT_EQ(odd.index_of(-1), -1) << "before the first";
  EXPECT_EQ(odd.index_of(9), -1) << "past the last";

  const PeList backwards = PeList::listed({6, 4, 2}); // a negative stride keeps its order
  EXPECT_EQ(backwards[0], 6);
  EXPECT_EQ(backwards.index_of(2), 2);
  const PeList irregular = PeList::listed({0, 1, 5, 2});
  EXPECT_GT(irregular.heap_bytes(), 0u);
  EXPECT_EQ(irregular[2], 5);
  EXPECT_EQ(irregular.index_of(2), 3);
  EXPECT_FALSE(irregular.contains(3));

  const PeList one = PeList::listed({42});
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], 42);
  EXPECT_EQ(one.index_of(42), 0);
  EXPECT_TRUE(PeList::listed({}).empty());
  EXPECT_EQ(PeList::listed({}).index_of(0), -1);
}

// The signal journal (SignalJournal.hpp) behind the deadlock report of a collective whose pSync
// signal the program overwrote: a remote write counts as overwritten when the word held something
// else when the next remote write landed, or holds something else now; the library's own changes
// are not the program's.
TEST(SignalJournal, OverwrittenOnlyWhenARemoteWriteWasReplaced)
{
  SignalJournal j;
  std::uint64_t w[3] = {0, 0, 0};
  SignalJournal::Overwrite o;
  EXPECT_FALSE(j.overwritten(&w[0], &o)); // never written remotely
  j.own(&w[0]);                           // untracked words stay untracked
  EXPECT_FALSE(j.overwritten(&w[0], &o));

  // A signal lands (PE 3 adds 1 at t = 2 us), the program stores SHMEM_SYNC_VALUE over it.
  std::uint64_t before = w[0];
  w[0]                 = 1;
  j.remote(&w[0], 2e-6, 3, &before, 1);
  EXPECT_FALSE(j.overwritten(&w[0], &o)); // still there
  w[0] = 0;
  ASSERT_TRUE(j.overwritten(&w[0], &o));
  EXPECT_EQ(o.from, 3);
  EXPECT_EQ(o.left, 1u);
  EXPECT_EQ(o.by, 0u);
  EXPECT_DOUBLE_EQ(o.date, 2e-6);
  EXPECT_EQ(o.seen, -1);
  EXPECT_EQ(SignalJournal::describe(o, "pSync[19]", 1, "shmem_longlong_max_to_all"),
            "PE 1's shmem_longlong_max_to_all waits for pSync[19] to change; PE 3 wrote 1 into it at t=2.000 us, but a "
            "later store of PE 1's own program overwrote that remote write with 0: pSync was changed while another PE "
            "was already using it (initialise pSync on every PE before any PE calls the collective, e.g. with a "
            "barrier in between)");
  // A later signal (PE 0 adds 2 at t = 5 us) does not hide the loss: it found 0, not 1.
  before = w[0];
  w[0]   = 2;
  j.remote(&w[0], 5e-6, 0, &before, 2);
  ASSERT_TRUE(j.overwritten(&w[0], &o));
  EXPECT_EQ(o.from, 3);
  EXPECT_EQ(o.left, 1u);
  EXPECT_EQ(o.by, 0u);
  EXPECT_DOUBLE_EQ(o.seen, 5e-6);
  EXPECT_NE(SignalJournal::describe(o, "pSync[19]", 1, "r").find("with 0 (found at t=5.000 us): "), std::string::npos);

  // Signals adding up, taken by the library: its own changes, not the program's.
  before = w[1];
  w[1]   = 4;
  j.remote(&w[1], 1.5, 0, &before, 4);
  before = w[1];
  w[1]   = 5;
  j.remote(&w[1], 1.6, 2, &before, 5);
  EXPECT_FALSE(j.overwritten(&w[1], &o));
  w[1] = 0;
  j.own(&w[1]);
  EXPECT_FALSE(j.overwritten(&w[1], &o));
  before = w[1];
  w[1]   = 9; // a later remote write is tracked again; a put's (no value before) starts afresh
  j.remote(&w[1], 2.5, 2, nullptr, 9);
  w[1] = 5;
  ASSERT_TRUE(j.overwritten(&w[1], &o));
  EXPECT_EQ(o.from, 2);
  EXPECT_EQ(o.by, 5u);
  j.own(&w[1]); // the library took what it waited for: the loss is history
  EXPECT_FALSE(j.overwritten(&w[1], &o));
  EXPECT_EQ(SignalJournal::format_date(2.5), "2.500000000 s");
  EXPECT_EQ(SignalJournal::format_date(0.0125), "12.500000 ms");
}
