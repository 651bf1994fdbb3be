// The symmetric heap allocator, and the transport seam on the Portals model: address
// translation of static data and heap, completion, contexts (a PE's ContextTable over the
// transport's counter source, as the library keeps it) under the lean and split mappings and on
// exhaustion.
#include "Isolated.hpp"

#include "shmem_front/lib/SymmetricHeap.hpp"
#include "shmem_front/lib/ContextTable.hpp"
#include "shmem_front/transport/PortalsTransport.hpp"
#include "sim/Simulation.hpp"
#include "sim/portals_model/Network.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace shmemsim;
using namespace shmemsim::front;
using shmemsim::testing::isolated;

TEST(SymmetricHeap, SameCallsGiveSameOffsetsOnEveryPe)
{
  SymmetricHeap a, b;
  a.reset(1 << 20, 4096);
  b.reset(1 << 20, 4096);
  std::vector<std::size_t> sizes = {1, 100, 4096, 7, 65536, 33};
  for (std::size_t s : sizes)
    EXPECT_EQ(a.allocate(s), b.allocate(s));
  EXPECT_GE(*a.allocate(8), 4096u) << "the reserved start belongs to the library";
}

TEST(SymmetricHeap, FreeCoalescesAndAlignmentHolds)
{
  SymmetricHeap h;
  h.reset(1 << 16, 0);
  auto x = *h.allocate(1000);
  auto y = *h.allocate(1000);
  auto z = *h.allocate(1000);
  EXPECT_TRUE(h.release(y));
  EXPECT_FALSE(h.release(y)) << "double free is refused";
  EXPECT_TRUE(h.release(x));
  EXPECT_TRUE(h.release(z));
  EXPECT_EQ(h.largest_free(), std::size_t{1} << 16) << "neighbours merge back into one block";
  auto a = *h.allocate(10, 4096);
  EXPECT_EQ(a % 4096, 0u);
  EXPECT_FALSE(h.allocate(std::size_t{1} << 20).has_value()) << "too large: no block";
  EXPECT_EQ(h.block_size(a), 10u);
}

TEST(SymmetricHeap, ResidueAlignsAnUnalignedBase)
{
  // A heap whose base is 3 MiB past a 4 MiB boundary: residue 1 MiB makes base + offset aligned.
  SymmetricHeap h;
  h.reset(std::size_t{64} << 20, 4096);
  const std::size_t mib = std::size_t{1} << 20;
  auto a                = *h.allocate(100, 4 * mib, mib);
  EXPECT_EQ(a % (4 * mib), mib);
  EXPECT_EQ((3 * mib + a) % (4 * mib), 0u);
  auto b = *h.allocate(100, 4 * mib, mib);
  EXPECT_EQ(b, a + 4 * mib) << "the next block with the same residue";
  auto c = *h.allocate(8, 64, 0);
  EXPECT_EQ(c % 64, 0u);
  EXPECT_LT(c, a) << "the space before an aligned block stays free";
}

namespace {
/// Two PEs on two nodes of a small fat tree, with fake program data and heaps.
nlohmann::json transport_run(CtxMapping mapping, int max_cts, OnExhaustion exhaustion)
{
  sim::HostParams hosts;
  hosts.nodes = 2;
  sim::FabricParams fabric;
  fabric.down = {2};
  nic::NicParams nicp;
  portals::Limits limits;
  limits.max_cts = max_cts;
  sim::Simulation s(hosts, 1);
  portals::Network net(s, fabric, nicp, limits, {0, 1});
  struct Pe {
    std::vector<std::byte> data = std::vector<std::byte>(256);
    std::vector<std::byte> heap = std::vector<std::byte>(4096);
  } pes[2];
  std::vector<PeMemory> mem;
  for (auto& p : pes)
    mem.push_back(PeMemory{p.data.data(), p.data.size(), p.heap.data(), p.heap.size()});
  int current = 0;
  std::string fatal;
  PortalsTransport tp(
      net, mem, mapping, [&] { return current; },
      [&](const std::string& m) {
        fatal = m;
        throw std::runtime_error(m);
      });
  tp.setup();
  ContextTable table(0, exhaustion, tp.counter_source()); // PE 0's (current)
  nlohmann::json r;
  s.spawn("PE 0", 0, [&] {
    current = 0;
    // Static data: PE 0's address of offset 16 lands at PE 1's offset 16.
    const std::uint64_t v = 0x1122334455667788ull;
    tp.put(table.default_ctx(), pes[0].data.data() + 16, &v, 8, 1, true);
    // Heap, bigger than the volatile size, blocking.
    std::vector<std::byte> big(1000, std::byte{7});
    tp.put(table.default_ctx(), pes[0].heap.data() + 100, big.data(), big.size(), 1, true);
    tp.quiet(table.default_ctx());
    // Read back from PE 1 through a get.
    std::uint64_t back = 0;
    tp.get(table.default_ctx(), &back, pes[0].data.data() + 16, 8, 1, true);
    r["get_back"] = back == v;
    // Atomics at PE 1's heap offset 0.
    std::uint64_t one = 5, old = 99, cond = 5, seven = 7;
    tp.amo(table.default_ctx(), AmoOp::Add, AmoType::Uint64, pes[0].heap.data(), &one, 1);
    tp.fetch_amo(table.default_ctx(), AmoOp::Add, AmoType::Uint64, pes[0].heap.data(), &one, nullptr, &old, 1, true);
    r["fetched"] = old; // 5 after the first add
    tp.fetch_amo(table.default_ctx(), AmoOp::CompareSwap, AmoType::Uint64, pes[0].heap.data(), &seven, &cond, &old, 1,
                 true);
    r["cswap_old"] = old; // 10: no swap
    // Contexts until exhaustion.
    int made = 0;
    std::vector<TransportCtx*> ctxs;
    while (made < 50) {
      TransportCtx* c = table.create(0);
      if (c == nullptr)
        break;
      ctxs.push_back(c);
      ++made;
      tp.put(c, pes[0].data.data() + 32 + (made % 8) * 8, &v, 8, 1, false);
    }
    r["contexts_made"]      = made;
    r["independent_queues"] = net.totals().independent_queues;
    for (TransportCtx* c : ctxs) {
      tp.quiet(c);
      table.destroy(c);
    }
    r["after_destroy"] = table.create(0) != nullptr;
  });
  s.run();
  std::uint64_t landed;
  std::memcpy(&landed, pes[1].data.data() + 16, 8);
  std::uint64_t counter;
  std::memcpy(&counter, pes[1].heap.data(), 8);
  r["landed"] = landed == 0x1122334455667788ull;
  r["heap_landed"] =
      pes[1].heap[100] == std::byte{7} && pes[1].heap[1099] == std::byte{7} && pes[1].heap[1100] == std::byte{0};
  r["counter"]          = counter;
  r["not_on_pe0"]       = pes[0].data[16] == std::byte{0};
  r["fatal"]            = fatal;
  const ContextCounts n = table.counts();
  r["refused"]          = n.refused;
  r["created"]          = n.created;
  r["shared_default"]   = n.shared_default;
  r["shared_created"]   = n.shared_created;
  return r;
}
} // namespace

TEST(PortalsTransport, TranslatesStaticAndHeapAddressesAndCompletes)
{
  for (auto mapping : {CtxMapping::Lean, CtxMapping::Split}) {
    auto r = isolated([mapping] { return transport_run(mapping, 64, OnExhaustion::Fail); });
    EXPECT_EQ(r["fatal"], "");
    EXPECT_TRUE(r["landed"].get<bool>());
    EXPECT_TRUE(r["not_on_pe0"].get<bool>());
    EXPECT_TRUE(r["heap_landed"].get<bool>());
    EXPECT_TRUE(r["get_back"].get<bool>());
    EXPECT_EQ(r["fetched"], 5);
    EXPECT_EQ(r["cswap_old"], 10);
    EXPECT_EQ(r["counter"], 10);
  }
}

TEST(PortalsTransport, ContextCreationStopsAtTheCtLimitAndRecovers)
{
  // max_cts 10: the target CT and the default context use 2 (lean), so 8 more contexts fit.
  auto lean = isolated([] { return transport_run(CtxMapping::Lean, 10, OnExhaustion::Fail); });
  EXPECT_EQ(lean["contexts_made"], 8);
  // Each created context's MD asked for its own injection queue (PTL_MD_INDEPENDENT); the NIC
  // has 16 queues and one endpoint, so all 8 got one.
  EXPECT_EQ(lean["independent_queues"], 8);
  EXPECT_EQ(lean["refused"], 1);
  EXPECT_TRUE(lean["after_destroy"].get<bool>());
  // split: 3 CTs for target + default, then 2 per context.
  auto split = isolated([] { return transport_run(CtxMapping::Split, 10, OnExhaustion::Fail); });
  EXPECT_EQ(split["contexts_made"], 3);
  // share: contexts past the limit share the default context's resources.
  auto share = isolated([] { return transport_run(CtxMapping::Lean, 10, OnExhaustion::Share); });
  EXPECT_EQ(share["contexts_made"], 50);
  EXPECT_EQ(share["fatal"], "");
  EXPECT_EQ(share["refused"], 0) << "a shared context is not a refused one";
  EXPECT_EQ(share["shared_default"], 42);
}

TEST(PortalsTransport, RoundRobinSharesCreatedContextsAndFreesThemWithTheirLastSharer)
{
  // 8 contexts of their own, then 42 over theirs in turn; the owners are destroyed first (their
  // resources live on for their sharers), and once all are gone a new context gets its own again.
  auto rr = isolated([] { return transport_run(CtxMapping::Lean, 10, OnExhaustion::RoundRobin); });
  EXPECT_EQ(rr["fatal"], "");
  EXPECT_EQ(rr["contexts_made"], 50);
  EXPECT_EQ(rr["shared_created"], 42);
  EXPECT_EQ(rr["shared_default"], 0);
  EXPECT_EQ(rr["refused"], 0);
  EXPECT_EQ(rr["created"], 9) << "8, then one after all were destroyed";
  EXPECT_TRUE(rr["after_destroy"].get<bool>());
  // No created context (max_cts 2: the runtime's own): the default context's.
  auto none = isolated([] { return transport_run(CtxMapping::Lean, 2, OnExhaustion::RoundRobin); });
  EXPECT_EQ(none["fatal"], "");
  EXPECT_EQ(none["shared_default"], 51);
  EXPECT_EQ(none["created"], 0);
}

TEST(PortalsTransport, KeepPrivateSharesContextsCreatedWithoutPrivate)
{
  // transport_run creates with options 0 (not SHMEM_CTX_PRIVATE): every one shares the default's.
  auto kp = isolated([] { return transport_run(CtxMapping::Lean, 10, OnExhaustion::KeepPrivate); });
  EXPECT_EQ(kp["fatal"], "");
  EXPECT_EQ(kp["contexts_made"], 50);
  EXPECT_EQ(kp["created"], 0);
  EXPECT_EQ(kp["shared_default"], 51);
}
