// sim::PairMap, the per-pair state of the fabric and the NICs: every pair finds its own value
// through growth, collisions and erasures (backward shift), against std::map as the reference.
#include "sim/PairMap.hpp"
#include "sim/Rng.hpp"

#include <gtest/gtest.h>

#include <map>
#include <utility>

using namespace shmemsim;

TEST(PairMap, KeepsEveryPairsValueThroughGrowthAndErasure)
{
  sim::PairMap<std::uint64_t> m;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> ref;
  sim::Rng rng(3);
  for (int step = 0; step < 200000; ++step) {
    // Few rows and columns: many collisions and long probe runs for the erasures to shift.
    const auto a = static_cast<std::uint32_t>(rng.below(64));
    const auto b = static_cast<std::uint32_t>(rng.below(300));
    switch (rng.below(3)) {
      case 0:
        m.at(a, b) += static_cast<std::uint64_t>(step);
        ref[{a, b}] += static_cast<std::uint64_t>(step);
        break;
      case 1: {
        std::uint64_t* v = m.find(a, b);
        const auto it    = ref.find({a, b});
        ASSERT_EQ(v != nullptr, it != ref.end()) << "pair " << a << "," << b << " at step " << step;
        if (v != nullptr) { // braces: ASSERT_EQ is an if/else of its own (-Wdangling-else)
          ASSERT_EQ(*v, it->second);
        }
        break;
      }
      default:
        if (ref.erase({a, b}) == 1)
          m.erase(a, b);
        break;
    }
    ASSERT_EQ(m.size(), ref.size());
  }
  for (const auto& [k, v] : ref) {
    const std::uint64_t* got = m.find(k.first, k.second);
    ASSERT_NE(got, nullptr);
    EXPECT_EQ(*got, v);
  }
}

TEST(PairMap, MemoryFollowsThePairsPresentNotThoseEverSeen)
{
  sim::PairMap<std::uint64_t> m;
  // 10,000 x 10,000 pairs pass through, at most 100 at a time.
  for (std::uint32_t src = 0; src < 10000; ++src) {
    for (std::uint32_t k = 0; k < 100; ++k)
      m.at(src, (src + k * 97) % 10000) = k + 1;
    for (std::uint32_t k = 0; k < 100; ++k)
      m.erase(src, (src + k * 97) % 10000);
  }
  EXPECT_EQ(m.size(), 0u);
  EXPECT_LE(m.bytes(), 256u * 16u); // a table sized for 100 entries at most half full
  EXPECT_EQ(m.find(5, 5), nullptr);
}
