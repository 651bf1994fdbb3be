// The ContextTable (shmem_front/lib/ContextTable.hpp) on its own: which counters contexts and
// requests get from a backend with a fixed number left, under each job.contexts.on_exhaustion
// policy; its ids, notices and context events. The backend is a counter source of the test: the
// table is the unit under test (the library runs it over both transports in the program tests
// ctx_limits*, contexts*, thread_shared*, nb_*).
#include "shmem_front/lib/ContextTable.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using namespace shmemsim::front;
using shmemsim::CtxEvent;

namespace {

constexpr long kPrivate = 1L << 1; // SHMEM_CTX_PRIVATE

struct FakeCounters final : Counters {
  int id         = 0;
  CounterUse use = CounterUse::Context;
};

struct Event {
  int id;
  const Counters* counters;
  CtxEvent what;
};

/// A backend with `left` counters to give (each context or slot takes one), as a NIC's max_cts.
class FakeSource final : public CounterSource {
public:
  explicit FakeSource(int left) : left(left) { def.id = 0; }

  Counters* default_counters() override { return &def; }

  Counters* acquire(CounterUse use, int id, std::string* limit) override
  {
    if (left == 0) {
      *limit = "max_cts (7) reached";
      return nullptr;
    }
    --left;
    auto c = std::make_unique<FakeCounters>();
    c->id  = id;
    c->use = use;
    live.push_back(std::move(c));
    return live.back().get();
  }
  void release(Counters* c) override
  {
    auto* f = static_cast<FakeCounters*>(c);
    released.push_back(f->id);
    ++left;
    std::erase_if(live, [f](const std::unique_ptr<FakeCounters>& x) { return x.get() == f; });
  }
  void ctx_event(int id, const Counters* c, CtxEvent what) override { events.push_back({id, c, what}); }
  void notice(const std::string& line) override { notices.push_back(line); }

  int left;
  FakeCounters def;
  std::vector<std::unique_ptr<FakeCounters>> live;
  std::vector<int> released;
  std::vector<Event> events;
  std::vector<std::string> notices;
};

int id_of(const Counters* c)
{
  return static_cast<const FakeCounters*>(c)->id;
}

} // namespace

TEST(ContextTable, FailRefusesWhenCountersRunOutWithOneNoticeAndRecovers)
{
  FakeSource src(2);
  ContextTable t(3, OnExhaustion::Fail, src);
  TransportCtx* a = t.create(0);
  TransportCtx* b = t.create(kPrivate);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->id, 1);
  EXPECT_EQ(b->id, 2);
  EXPECT_EQ(id_of(a->counters), 1); // acquired for the id it got
  EXPECT_NE(a->counters, b->counters);
  EXPECT_EQ(t.create(0), nullptr);
  EXPECT_EQ(t.create(0), nullptr);
  ASSERT_EQ(src.notices.size(), 1u) << "one notice line per PE";
  EXPECT_EQ(src.notices[0], "PE 3: a context was refused (SHMEM_CTX_INVALID): max_cts (7) reached");
  ASSERT_EQ(src.events.size(), 4u);
  EXPECT_EQ(src.events[0].what, CtxEvent::Create);
  EXPECT_EQ(src.events[2].what, CtxEvent::Refuse);
  EXPECT_EQ(src.events[2].id, -1);
  EXPECT_EQ(src.events[2].counters, nullptr);
  t.destroy(a);
  EXPECT_EQ(src.released, std::vector<int>{1});
  EXPECT_EQ(src.events.back().what, CtxEvent::Destroy);
  EXPECT_EQ(src.events.back().id, 1);
  TransportCtx* c = t.create(0);
  ASSERT_NE(c, nullptr) << "a destroyed context's counters serve the next one";
  EXPECT_EQ(c->id, 3) << "ids are not reused";
  EXPECT_EQ(t.counts().created, 3u);
  EXPECT_EQ(t.counts().refused, 2u);
  EXPECT_EQ(t.counts().shared_default + t.counts().shared_created, 0u);
}

TEST(ContextTable, ShareGivesTheDefaultContextsCountersOnceTheyRunOut)
{
  FakeSource src(1);
  ContextTable t(0, OnExhaustion::Share, src);
  EXPECT_EQ(t.default_ctx()->id, 0);
  EXPECT_EQ(t.default_ctx()->counters, &src.def);
  TransportCtx* own = t.create(0);
  TransportCtx* s1  = t.create(0);
  TransportCtx* s2  = t.create(kPrivate);
  EXPECT_EQ(own->counters, src.live[0].get());
  EXPECT_EQ(s1->counters, &src.def);
  EXPECT_EQ(s2->counters, &src.def);
  EXPECT_EQ(s1->id, 2);
  EXPECT_EQ(s2->id, 3);
  ASSERT_EQ(src.notices.size(), 1u);
  EXPECT_EQ(src.notices[0], "PE 0: context 2 shares the default context's resources: max_cts (7) reached");
  EXPECT_EQ(src.events[1].what, CtxEvent::Share);
  EXPECT_EQ(src.events[1].counters, &src.def) << "a share event names the counters it issues on";
  t.destroy(s1);
  t.destroy(s2);
  EXPECT_TRUE(src.released.empty()) << "the default context's counters are never released";
  EXPECT_EQ(t.counts().shared_default, 2u);
  EXPECT_EQ(t.counts().shared_created, 0u);
}

TEST(ContextTable, RoundRobinSharesCreatedContextsInTurnNeverARequestSlot)
{
  FakeSource src(3);
  ContextTable t(1, OnExhaustion::RoundRobin, src);
  TransportCtx* a     = t.create(0);
  TransportRequest* r = t.open_request(); // takes the third counter: not a context to share
  TransportCtx* b     = t.create(0);
  ASSERT_EQ(src.left, 0);
  std::vector<TransportCtx*> shared;
  for (int i = 0; i < 4; ++i)
    shared.push_back(t.create(0));
  EXPECT_EQ(shared[0]->counters, a->counters);
  EXPECT_EQ(shared[1]->counters, b->counters);
  EXPECT_EQ(shared[2]->counters, a->counters);
  EXPECT_EQ(shared[3]->counters, b->counters);
  EXPECT_EQ(src.notices.at(0), "PE 1: context 4 shares context 1's resources: max_cts (7) reached");
  EXPECT_EQ(t.counts().shared_created, 4u);
  // An owner destroyed before its sharers: its counters live on until the last of them goes,
  // and it leaves the turn meanwhile.
  t.destroy(a);
  EXPECT_TRUE(src.released.empty());
  EXPECT_EQ(t.create(0)->counters, b->counters);
  t.destroy(shared[0]);
  EXPECT_TRUE(src.released.empty());
  t.destroy(shared[2]);
  EXPECT_EQ(src.released, std::vector<int>{1});
  t.close_request(r);
  EXPECT_EQ(src.released, (std::vector<int>{1, 2}));
}

TEST(ContextTable, RoundRobinFallsBackToTheDefaultContextWithNoCreatedOne)
{
  FakeSource src(0);
  ContextTable t(0, OnExhaustion::RoundRobin, src);
  EXPECT_EQ(t.create(0)->counters, &src.def);
  EXPECT_EQ(src.notices.at(0), "PE 0: context 1 shares the default context's resources: max_cts (7) reached");
}

TEST(ContextTable, KeepPrivateLeavesTheCountersToPrivateContexts)
{
  FakeSource src(1);
  ContextTable t(5, OnExhaustion::KeepPrivate, src);
  TransportCtx* pub = t.create(0);
  EXPECT_EQ(pub->counters, &src.def) << "not SHMEM_CTX_PRIVATE: shares from the first one";
  EXPECT_EQ(src.left, 1);
  ASSERT_EQ(src.notices.size(), 1u);
  EXPECT_EQ(src.notices[0],
            "PE 5: context 1 shares the default context's resources: not SHMEM_CTX_PRIVATE (contexts.on_exhaustion "
            "keep_private)");
  TransportCtx* p1 = t.create(kPrivate);
  TransportCtx* p2 = t.create(kPrivate);
  EXPECT_EQ(p1->counters, src.live[0].get());
  EXPECT_EQ(p2->counters, &src.def) << "then shares the default's";
  EXPECT_EQ(t.counts().created, 1u);
  EXPECT_EQ(t.counts().shared_default, 2u);
}

TEST(ContextTable, RequestsGetSlotsThenShareTheOldestOpenOneThenTheDefaultContext)
{
  FakeSource src(2);
  ContextTable t(2, OnExhaustion::Fail, src);
  TransportCtx* c      = t.create(0);
  TransportRequest* r1 = t.open_request();
  TransportRequest* r2 = t.open_request(); // none left
  TransportRequest* r3 = t.open_request();
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(r1->slot->request_slot);
  EXPECT_EQ(r1->slot->id, 2) << "slots are numbered with the contexts";
  EXPECT_EQ(static_cast<const FakeCounters*>(r1->slot->counters)->use, CounterUse::Request);
  EXPECT_EQ(r2->slot, r1->slot);
  EXPECT_EQ(r3->slot, r1->slot);
  ASSERT_EQ(src.notices.size(), 1u) << "one notice line per PE about requests";
  EXPECT_EQ(src.notices[0], "PE 2: a request shares the completion counter of an earlier request: max_cts (7) reached");
  EXPECT_EQ(src.events.size(), 1u) << "requests make no context events";
  t.close_request(r1);
  t.close_request(r2);
  EXPECT_TRUE(src.released.empty()) << "a slot lives while a request issues on it";
  t.close_request(r3);
  EXPECT_EQ(src.released, std::vector<int>{2});
  // Every counter taken by contexts: a request goes on the default context's. The context
  // notice is a line of its own.
  TransportCtx* d = t.create(0);
  ASSERT_NE(d, nullptr);
  TransportRequest* r4 = t.open_request();
  EXPECT_EQ(r4->slot, t.default_ctx());
  t.close_request(r4);
  EXPECT_EQ(t.create(0), nullptr);
  ASSERT_EQ(src.notices.size(), 2u);
  EXPECT_EQ(src.notices[1], "PE 2: a context was refused (SHMEM_CTX_INVALID): max_cts (7) reached");
  const ContextCounts& n = t.counts();
  EXPECT_EQ(n.requests_opened, 4u);
  EXPECT_EQ(n.requests_own, 1u);
  EXPECT_EQ(n.requests_shared, 3u);
  EXPECT_EQ(n.request_slots_peak, 1);
}

TEST(ContextTable, CountsAddUpOverPesWithTheLargestPeak)
{
  ContextCounts a, b;
  a.created            = 2;
  a.requests_own       = 1;
  a.request_slots_peak = 3;
  b.created            = 5;
  b.refused            = 1;
  b.request_slots_peak = 2;
  a.add(b);
  EXPECT_EQ(a.created, 7u);
  EXPECT_EQ(a.refused, 1u);
  EXPECT_EQ(a.requests_own, 1u);
  EXPECT_EQ(a.request_slots_peak, 3);
}
