// Counted compute's cache model (shmem_front/runtime/CacheModel.hpp): LRU lines per level, which
// level serves a sampled reference, and what a reference costs by level and kind.
#include "shmem_front/runtime/CacheModel.hpp"

#include <gtest/gtest.h>

#include <cstdint>

using namespace shmemsim::front;

namespace {

// A small hierarchy, every line simulated (sampling 1): 4 lines of L1, 16 of L2, 64 of L3.
CacheConfig small(unsigned sampling = 1)
{
  CacheConfig c;
  c.line             = 64;
  c.sizes            = {4 * 64 * sampling, 16 * 64 * sampling, 64 * 64 * sampling};
  c.latencies        = {1'000, 3'000, 12'000}; // ps
  c.line_times       = {0, 500, 700};          // ps a line of a stream
  c.memory_latency   = 81'000;
  c.memory_bandwidth = 64ull * 8 * 1'000'000'000; // one line per ns
  c.parallelism      = 10;
  c.sampling         = sampling;
  return c;
}

constexpr std::uint64_t kLine = 64;

} // namespace

TEST(LruLines, KeepsTheMostRecentlyUsedAndEvictsTheLeast)
{
  LruLines lru(3);
  EXPECT_FALSE(lru.touch(1));
  EXPECT_FALSE(lru.touch(2));
  EXPECT_FALSE(lru.touch(3));
  EXPECT_TRUE(lru.touch(1));  // 1 becomes the most recent: 2 is now the least
  EXPECT_FALSE(lru.touch(4)); // evicts 2
  EXPECT_EQ(lru.size(), 3u);
  EXPECT_TRUE(lru.touch(3));
  EXPECT_TRUE(lru.touch(1));
  EXPECT_TRUE(lru.touch(4));
  EXPECT_FALSE(lru.touch(2)); // it was evicted; now 3 goes (least recent of 3, 1, 4)
  EXPECT_FALSE(lru.touch(3));
}

TEST(CacheModel, AFirstReferenceComesFromMemoryThenHitsTheFirstLevel)
{
  CacheModel m(small());
  EXPECT_EQ(m.levels(), 3);
  EXPECT_EQ(m.access(0x1000), 3);      // cold: memory
  EXPECT_EQ(m.access(0x1008), 0);      // the same line
  EXPECT_EQ(m.access(0x1000 + 63), 0); // its last byte
  EXPECT_EQ(m.access(0x1000 + 64), 3); // the next line
}

TEST(CacheModel, MissesByLevelFollowTheWorkingSet)
{
  // Lines cycled in order: a set of n lines hits in the first level that holds n lines.
  const auto steady_level = [](int lines) {
    CacheModel m(small());
    for (int round = 0; round < 3; ++round)
      for (int i = 0; i < lines; ++i)
        m.access(0x100000 + i * kLine);
    int worst = 0;
    for (int i = 0; i < lines; ++i)
      worst = std::max(worst, m.access(0x100000 + i * kLine));
    return worst;
  };
  EXPECT_EQ(steady_level(4), 0);  // fits L1
  EXPECT_EQ(steady_level(5), 1);  // LRU over 5 lines in 4: every reference misses L1, hits L2
  EXPECT_EQ(steady_level(16), 1); // fits L2
  EXPECT_EQ(steady_level(17), 2); // L3
  EXPECT_EQ(steady_level(64), 2); // fits L3
  EXPECT_EQ(steady_level(65), 3); // memory
}

TEST(CacheModel, AStreamCostsOneMissPerLine)
{
  CacheModel m(small());
  int misses = 0;
  for (std::uint64_t a = 0; a < 100 * kLine; a += 8) // 800 doubles, 100 lines
    misses += m.access(0x200000 + a) == 3 ? 1 : 0;
  EXPECT_EQ(misses, 100);
}

TEST(CacheModel, PricesByLevelAndKind)
{
  CacheModel m(small());
  // First level: nothing beyond the instructions.
  EXPECT_EQ(m.price(0, kRefLoad), 0u);
  EXPECT_EQ(m.price(0, kRefChain), 0u);
  // L2: (3 - 1) ns, in full on a chain, over 10 misses in flight otherwise (fs).
  EXPECT_EQ(m.price(1, kRefChain), 2'000'000u);
  EXPECT_EQ(m.price(1, kRefLoad), 200'000u);
  EXPECT_EQ(m.price(2, kRefChain), 11'000'000u);
  // Memory: 80 ns on a chain; independent: max(80 / 10, 1 ns a line) = 8 ns; a store at least two
  // line transfers (2 ns < 8 ns).
  EXPECT_EQ(m.price(3, kRefChain), 80'000'000u);
  EXPECT_EQ(m.price(3, kRefLoad), 8'000'000u);
  EXPECT_EQ(m.price(3, kRefStore), 8'000'000u);
  EXPECT_EQ(m.reference(0x5000, kRefChain), 80'000'000u);
  EXPECT_EQ(m.reference(0x5000, kRefChain), 0u);
}

TEST(CacheModel, StreamsCostTheirLinesTransfer)
{
  CacheModel m(small());
  // Memory: the line's transfer (1 ns), not the latency over the misses in flight (8 ns); a
  // store reads and writes the line back.
  EXPECT_EQ(m.price(3, kRefLoad | kRefStream), 1'000'000u);
  EXPECT_EQ(m.price(3, kRefStore | kRefStream), 2'000'000u);
  // A cache level: its time per line of a stream (L2: 0.5 ns; L3: 0.7 ns).
  EXPECT_EQ(m.price(1, kRefLoad | kRefStream), 500'000u);
  EXPECT_EQ(m.price(2, kRefLoad | kRefStream), 700'000u);
  EXPECT_EQ(m.price(2, kRefStore | kRefStream), 700'000u);
  // A chain is never a stream.
  EXPECT_EQ(m.price(3, kRefChain | kRefStream), 80'000'000u);
}

TEST(CacheModel, StoresCostAtLeastTheLevelsTimePerLineWritten)
{
  // A store that misses the first level costs at least the level's measured time per line written
  // (platform.cache.l2.store_time), independent or in a stream; loads are not affected, nor a level
  // with no figure (0: as a load), nor memory.
  CacheConfig c = small();
  c.store_times = {0, 2'000, 0};
  CacheModel m(c);
  EXPECT_EQ(m.price(1, kRefStore), 2'000'000u);              // not (3 - 1) / 10 ns
  EXPECT_EQ(m.price(1, kRefStore | kRefStream), 2'000'000u); // not 0.5 ns
  EXPECT_EQ(m.price(1, kRefLoad), 200'000u);
  EXPECT_EQ(m.price(1, kRefLoad | kRefStream), 500'000u);
  EXPECT_EQ(m.price(2, kRefStore), 1'100'000u); // no figure for L3: (12 - 1) / 10 ns, as a load
  EXPECT_EQ(m.price(2, kRefStore | kRefStream), 700'000u);
  EXPECT_EQ(m.price(3, kRefStore), 8'000'000u);
  // A time per line below the load's price changes nothing.
  c.store_times = {0, 100, 100};
  CacheModel low(c);
  EXPECT_EQ(low.price(1, kRefStore), 200'000u);
  EXPECT_EQ(low.price(1, kRefStore | kRefStream), 500'000u);
  EXPECT_EQ(low.price(0, kRefStore), 0u); // the first level: never
}

TEST(CacheModel, BandwidthBoundsIndependentMisses)
{
  CacheConfig c      = small();
  c.memory_bandwidth = 64ull * 8 * 50'000'000; // a line per 20 ns
  const CacheModel m(c);
  EXPECT_EQ(m.price(3, kRefLoad), 20'000'000u);  // not 8 ns: the bandwidth binds
  EXPECT_EQ(m.price(3, kRefStore), 40'000'000u); // read, then written back
  EXPECT_EQ(m.price(3, kRefChain), 80'000'000u); // a chain waits for the latency
}

TEST(CacheModel, SamplingScalesCostsAndCapacities)
{
  // One line in 4 of each page: a sampled reference stands for 4, each level holds a quarter
  // of its lines among the sampled ones.
  CacheModel m(small(4));
  EXPECT_EQ(m.mask(), 3u * kLine);
  EXPECT_TRUE(m.sampled(0x7000));
  EXPECT_FALSE(m.sampled(0x7040));
  EXPECT_TRUE(m.sampled(0x7100));
  EXPECT_EQ(m.price(3, kRefChain), 4 * 80'000'000u);
  // L1 (16 lines) holds 4 sampled lines: a cycle over 4 sampled lines (16 lines of memory) hits.
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 4; ++i)
      m.access(0x10000 + i * 4 * kLine);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(m.access(0x10000 + i * 4 * kLine), 0) << i;
}

TEST(CacheModel, LevelsOfSizeZeroAreLeftOut)
{
  CacheConfig c = small();
  c.sizes[2]    = 0; // no L3
  CacheModel m(c);
  EXPECT_EQ(m.levels(), 2);
  EXPECT_EQ(m.access(0x9000), 2); // memory
  EXPECT_EQ(m.price(2, kRefChain), 80'000'000u);
}

namespace {

constexpr std::uint64_t kPage = 4096;

// small() with two TLB levels: 4 and 16 pages, a second-level hit 2 ns, a walk 20 ns, 2 walkers.
CacheConfig with_tlb(unsigned sampling = 1)
{
  CacheConfig c  = small(sampling);
  c.tlb_entries  = {4, 16};
  c.tlb_hit      = 2'000;
  c.tlb_walk     = 20'000;
  c.tlb_walkers  = 2;
  return c;
}

} // namespace

TEST(TlbModel, LevelsFollowThePagesInUse)
{
  // Pages cycled in order (one reference each): a set of n pages stays in the first level that
  // holds n entries; beyond the last, every reference walks.
  const auto steady_level = [](int pages) {
    TlbModel t(with_tlb());
    for (int round = 0; round < 3; ++round)
      for (int i = 0; i < pages; ++i)
        t.access(0x40000000 + i * kPage + 8);
    int worst = 0;
    for (int i = 0; i < pages; ++i)
      worst = std::max(worst, t.access(0x40000000 + i * kPage + 8));
    return worst;
  };
  EXPECT_EQ(steady_level(4), 0);
  EXPECT_EQ(steady_level(5), 1);
  EXPECT_EQ(steady_level(16), 1);
  EXPECT_EQ(steady_level(17), 2); // a page walk every time
  TlbModel t(with_tlb());
  EXPECT_EQ(t.levels(), 2);
  EXPECT_EQ(t.access(0x1234000), 2);
  EXPECT_EQ(t.access(0x1234ff8), 0); // the same page, another line
}

TEST(TlbModel, PricesAddToTheCachePrice)
{
  const TlbModel t(with_tlb());
  const std::uint64_t cache = 5'000'000; // fs
  // The first level: nothing more.
  EXPECT_EQ(t.price(0, kRefLoad, cache), cache);
  // A second-level hit: 2 ns in full on a chain, over the 10 misses in flight otherwise, no floor.
  EXPECT_EQ(t.price(1, kRefChain, cache), cache + 2'000'000);
  EXPECT_EQ(t.price(1, kRefLoad, cache), cache + 200'000);
  EXPECT_EQ(t.price(1, kRefStore, 0), 200'000u);
  // A walk: 20 ns on a chain; independent, overlapped (20 / 10 = 2 ns), but at least 20 ns over
  // 2 walkers = 10 ns each.
  EXPECT_EQ(t.price(2, kRefChain, cache), cache + 20'000'000);
  EXPECT_EQ(t.price(2, kRefLoad, cache), 10'000'000u);           // the walkers bind
  EXPECT_EQ(t.price(2, kRefLoad, 30'000'000), 32'000'000u);      // the overlap does
  EXPECT_EQ(t.price(2, kRefLoad | kRefStream, cache), 10'000'000u);
}

TEST(TlbModel, ASampledWalkStandsForSamplingWalksButAStreamsForOne)
{
  // One line in 4 simulated: an independent reference's walk counts 4 times (the lines it stands
  // for are other pages' too), a stream's once (its page's next lines follow it).
  const TlbModel t(with_tlb(4));
  EXPECT_EQ(t.price(2, kRefChain, 0), 80'000'000u);
  EXPECT_EQ(t.price(2, kRefLoad, 0), 40'000'000u);
  EXPECT_EQ(t.price(2, kRefLoad | kRefStream, 0), 10'000'000u);
  // A cold stream of doubles through 8 pages, every sampled line from memory (a line's transfer,
  // 1 ns, times 4): each page's first sampled line also walks (max(4 + 20 / 10, 20 / 2) = 10 ns),
  // its 15 other sampled lines cost 4 ns, the other references to a line nothing more.
  CacheModel m(with_tlb(4));
  std::uint64_t total = 0;
  for (std::uint64_t a = 0; a < 8 * kPage; a += 8)
    if (m.sampled(0x80000000 + a))
      total += m.reference(0x80000000 + a, kRefLoad | kRefStream);
  EXPECT_EQ(total, 8 * (10'000'000u + 15 * 4'000'000u));
}

TEST(TlbModel, CacheModelChargesTheTranslation)
{
  CacheModel m(with_tlb());
  // A cold chain load: memory (80 ns) and a page walk (20 ns).
  EXPECT_EQ(m.reference(0x7000000, kRefChain), 100'000'000u);
  // The next line of the same page: memory only.
  EXPECT_EQ(m.reference(0x7000040, kRefChain), 80'000'000u);
  // No first TLB level: no TLB model, the cache price alone.
  CacheConfig c  = with_tlb();
  c.tlb_entries  = {0, 16};
  CacheModel off(c);
  EXPECT_FALSE(off.tlb().enabled());
  EXPECT_EQ(off.reference(0x7000000, kRefChain), 80'000'000u);
}
