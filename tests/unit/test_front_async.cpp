// AsyncSHMEM's runtime (shmem_front/lib/async) on REAL threads: a runtime seam whose pthread API is
// libc's (the default of Runtime::pthreads, as a process backend would give it) and a transport
// that applies operations to one PE's memory under a mutex and counts updates, waking
// wait_for_update on a condition variable. The same library code the simulator runs must work
// here: tasks, scopes, futures, both designs' routing of operations, and communication-driven
// tasks woken by a delivery from another thread.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Seams.hpp"

#include <shmem.h>
#include <shmemx.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace shmemsim::front;

constexpr std::size_t kHeap = 1 << 16;

class RealRuntime final : public Runtime {
public:
  AsyncParams params;
  int my_pe() override { return 0; }
  int n_pes() override { return 1; }
  bool pe_accessible(int pe) override { return pe == 0; }
  void* heap_base() override { return heap_; }
  std::size_t heap_size() override { return kHeap; }
  bool is_symmetric(const void* addr, std::size_t n) override
  {
    const auto a = reinterpret_cast<std::uintptr_t>(addr), b = reinterpret_cast<std::uintptr_t>(heap_);
    return a >= b && n <= kHeap && a - b <= kHeap - n;
  }
  void* local_address(const void* addr, int) override { return const_cast<void*>(addr); }
  void poll_pause() override { std::this_thread::yield(); }
  double wtime() override
  {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  void startup_barrier() override {}
  const char* getenv(const char*) override { return nullptr; }
  AsyncParams async_params() override { return params; }
  [[noreturn]] void fatal(const std::string& message) override
  {
    std::fprintf(stderr, "fatal: %s\n", message.c_str());
    std::abort(); // from any thread: a test failure that cannot be missed
  }
  [[noreturn]] void global_exit(int) override { std::abort(); }
  unsigned char* heap() { return heap_; }

private:
  alignas(64) unsigned char heap_[kHeap] = {};
};

struct Op {
  std::string kind;
  const Counters* on; ///< the counters of the context it was issued on
  std::thread::id by;
};

class LockedTransport final : public Transport, public CounterSource {
public:
  std::vector<Op> ops;
  std::set<const Counters*> created; ///< the counters of created contexts, until released

  CounterSource& counter_source() override { return *this; }
  Counters* default_counters() override { return &default_; }
  Counters* acquire(CounterUse, int, std::string*) override
  {
    std::lock_guard<std::mutex> g(mu_);
    auto* c = new Counters;
    created.insert(c);
    return c;
  }
  void release(Counters* c) override
  {
    std::lock_guard<std::mutex> g(mu_);
    created.erase(c);
    delete c;
  }
  void ctx_event(int, const Counters*, shmemsim::CtxEvent) override {}
  void notice(const std::string&) override {}

  void put(TransportCtx* c, void* dest, const void* src, std::size_t n, int, bool) override
  {
    std::lock_guard<std::mutex> g(mu_);
    std::memcpy(dest, src, n);
    ops.push_back({"put", c->counters, std::this_thread::get_id()});
  }
  void get(TransportCtx* c, void* dest, const void* src, std::size_t n, int, bool) override
  {
    std::lock_guard<std::mutex> g(mu_);
    std::memcpy(dest, src, n);
    ops.push_back({"get", c->counters, std::this_thread::get_id()});
  }
  void amo(TransportCtx* c, AmoOp, AmoType, void*, const void*, int) override { record("amo", c); }
  void fetch_amo(TransportCtx* c, AmoOp, AmoType, void*, const void*, const void*, void*, int, bool) override
  {
    record("fetch_amo", c);
  }
  void quiet(TransportCtx* c) override { record("quiet", c); }
  void fence(TransportCtx* c) override { record("fence", c); }
  bool request_test(TransportCtx* c) override
  {
    quiet(c); // operations apply at once
    return true;
  }
  void request_wait(TransportCtx* c, const char*) override { quiet(c); }
  std::uint64_t updates() override
  {
    std::lock_guard<std::mutex> g(mu_);
    return updates_;
  }
  void wait_for_update(std::uint64_t seen, const char*) override
  {
    std::unique_lock<std::mutex> lk(mu_);
    cv_.wait(lk, [&] { return updates_ > seen; });
  }
  /// Another PE's write landing in this PE's memory.
  void deliver(int* where, int value)
  {
    std::lock_guard<std::mutex> g(mu_);
    __atomic_store_n(where, value, __ATOMIC_RELEASE); // as a NIC's atomic update: the watcher reads it at any time
    ++updates_;
    cv_.notify_all();
  }

private:
  void record(const char* kind, TransportCtx* c)
  {
    std::lock_guard<std::mutex> g(mu_);
    ops.push_back({kind, c->counters, std::this_thread::get_id()});
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::uint64_t updates_ = 0;
  Counters default_;
};

std::atomic<int> g_sum, g_when_ran, g_consumed;
std::atomic<int> g_max_worker;
int* g_flag;
int* g_slots;

void add_index(int i, void*)
{
  g_sum += i;
  int w = shmemx_my_worker();
  for (int m = g_max_worker.load(); w > m && !g_max_worker.compare_exchange_weak(m, w);) {
  }
  std::this_thread::sleep_for(std::chrono::microseconds(20)); // let the others steal
}
void put_slot(int i, void*)
{
  shmem_int_p(&g_slots[i], i + 1, 0);
}
void on_flag(void*)
{
  ++g_when_ran;
}
void producer(void* p)
{
  shmemx_satisfy_promise(static_cast<shmemx_promise_t*>(p), reinterpret_cast<void*>(42));
}
void consumer(void* f)
{
  if (shmemx_future_wait(static_cast<shmemx_future_t*>(f)) == reinterpret_cast<void*>(42))
    ++g_consumed;
}

void entry(void*)
{
  shmemx_int_task_when(g_flag, SHMEM_CMP_EQ, 1, on_flag, nullptr); // delivered by another thread
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, 1000, add_index, nullptr);
  shmemx_task_scope_end();
  shmemx_promise_t* p = shmemx_create_promise();
  shmemx_task_scope_begin();
  shmemx_task(consumer, shmemx_future_for_promise(p));
  shmemx_task(producer, p);
  shmemx_task_scope_end();
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, 64, put_slot, nullptr);
  shmemx_task_scope_end();
  shmem_quiet();
}

class AsyncRealThreads : public ::testing::TestWithParam<AsyncDesign> {
protected:
  RealRuntime rt;
  LockedTransport tp;
  void SetUp() override
  {
    install(Env{&rt, &tp, nullptr});
    g_sum = 0, g_when_ran = 0, g_consumed = 0, g_max_worker = 0;
    rt.params.workers = 4;
    rt.params.design  = GetParam();
    g_flag            = reinterpret_cast<int*>(rt.heap() + kReservedHeap);
    g_slots           = g_flag + 16;
  }
};

TEST_P(AsyncRealThreads, TasksScopesFuturesAndDeliveries)
{
  // The delivery that starts the communication-driven task comes from another thread, later.
  std::thread remote([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    tp.deliver(g_flag, 1);
  });
  shmemx_worker_init(entry, nullptr);
  remote.join();
  EXPECT_EQ(g_sum.load(), 999 * 1000 / 2);
  EXPECT_EQ(g_consumed.load(), 1);
  EXPECT_EQ(g_when_ran.load(), 1);
  EXPECT_GT(g_max_worker.load(), 0) << "no worker but worker 0 ran a parallel_for iteration";
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(g_slots[i], i + 1) << i;
  shmemx_async_stats_t st;
  shmemx_async_stats(&st);
  EXPECT_EQ(st.workers, 4);
  EXPECT_EQ(st.watches_fired, 1u);

  // Who performed the task phase's puts: one thread (offload) or the workers, each on its context.
  std::set<std::thread::id> by;
  std::set<const Counters*> on;
  for (const Op& o : tp.ops)
    if (o.kind == "put") {
      by.insert(o.by);
      on.insert(o.on);
    }
  if (GetParam() == AsyncDesign::Offload) {
    EXPECT_EQ(by.size(), 1u) << "offload: only the communication worker performs operations";
    EXPECT_EQ(on.size(), 1u);
    EXPECT_EQ(*on.begin(), tp.default_counters());
    EXPECT_GE(st.offloaded, 64u);
  } else {
    EXPECT_EQ(st.offloaded, 0u);
    EXPECT_EQ(on.count(tp.default_counters()), 0u) << "contexts: the workers issue on their own contexts";
    EXPECT_TRUE(tp.created.empty()) << "the workers' contexts are destroyed at the end";
  }
}

INSTANTIATE_TEST_SUITE_P(Designs, AsyncRealThreads, ::testing::Values(AsyncDesign::Offload, AsyncDesign::Contexts),
                         [](const auto& info) { return info.param == AsyncDesign::Offload ? "offload" : "contexts"; });

} // namespace
