// The plan of a run's memory mappings against vm.max_map_count (sim/MapBudget): with SimGrid's
// stack guard pages while they fit, without them while the run fits that way, refused beyond with
// how far to raise the limit or how many PEs fit; the limit the checks see (SHMEMSIM_MAX_MAP_COUNT).
#include "sim/MapBudget.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

using namespace shmemsim::sim;

TEST(MapBudget, PlanKeepsGuardsWhileTheyFitThenLeavesThemOutThenGoesCompactThenRefuses)
{
  // 500 mappings in use after 2 PEs, 6 more per PE (copy + heap), a stack of 2 (guarded) or 1.
  const long in_use = 500, per_pe = 6, spare = kSpareMappings;
  auto plan = [&](long limit, int pes) { return plan_mappings(limit, in_use, pes, 2, per_pe, spare); };
  // 8192 PEs: 500 + 8190 x 6 + 1024 = 50,664 before stacks; 67,048 guarded, 58,856 bare.
  const MapPlan p = plan(65530, 8192);
  EXPECT_EQ(p.need_guarded, 500 + 8190 * 6 + 1024 + 2 * 8192);
  EXPECT_EQ(p.need_bare, 500 + 8190 * 6 + 1024 + 8192);
  EXPECT_TRUE(p.fits);
  EXPECT_FALSE(p.guards);
  EXPECT_EQ(p.max_pes, 8192);
  // Exactly at the limit fits; one mapping short does not.
  EXPECT_TRUE(plan(p.need_guarded, 8192).guards);
  EXPECT_FALSE(plan(p.need_guarded - 1, 8192).guards);
  EXPECT_TRUE(plan(p.need_bare, 8192).fits);
  EXPECT_FALSE(plan(p.need_bare, 8192).compact);
  // Below that, the remaining PEs' copies and heaps go compact (kCompactPerPe each): what is in use,
  // the spare and a stack per PE.
  const MapPlan compact = plan(p.need_bare - 1, 8192);
  EXPECT_TRUE(compact.fits);
  EXPECT_TRUE(compact.compact);
  EXPECT_FALSE(compact.guards);
  EXPECT_EQ(compact.need_compact, 500 + 8190 * kCompactPerPe + 1024 + 8192);
  EXPECT_TRUE(plan(compact.need_compact, 8192).fits);
  const MapPlan refused = plan(compact.need_compact - 1, 8192);
  EXPECT_FALSE(refused.fits);
  // The most PEs that fit compact, and that many do fit.
  const MapPlan at_limit = plan(65530, 100000);
  EXPECT_FALSE(at_limit.fits);
  EXPECT_EQ(at_limit.max_pes, (65530 - 1024 - 500 + 2 * kCompactPerPe) / (kCompactPerPe + 1));
  EXPECT_TRUE(plan(65530, at_limit.max_pes).fits);
  EXPECT_FALSE(plan(65530, at_limit.max_pes + 1).fits);
  // An unknown limit plans nothing.
  EXPECT_TRUE(plan(-1, 65536).guards);
  // The advice: what to raise the limit to (room for the guards, rounded up), and how many PEs fit.
  const std::string advice = map_limit_advice(at_limit, 65530, 100000);
  EXPECT_NE(advice.find("100000 PEs need about " + std::to_string(at_limit.need_compact) + " memory mappings"),
            std::string::npos)
      << advice;
  EXPECT_NE(advice.find("vm.max_map_count allows (65530)"), std::string::npos) << advice;
  EXPECT_NE(
      advice.find("sudo sysctl -w vm.max_map_count=" + std::to_string((at_limit.need_guarded + 999) / 1000 * 1000)),
      std::string::npos)
      << advice;
  EXPECT_NE(advice.find("run at most " + std::to_string(at_limit.max_pes) + " PEs"), std::string::npos) << advice;
}

TEST(MapBudget, EnvironmentLowersTheLimitNeverRaisesIt)
{
  const long kernel = max_map_count();
  ASSERT_GT(kernel, 0); // Linux has /proc/sys/vm/max_map_count
  ::setenv("SHMEMSIM_MAX_MAP_COUNT", "1000", 1);
  EXPECT_EQ(max_map_count(), 1000);
  ::setenv("SHMEMSIM_MAX_MAP_COUNT", std::to_string(kernel + 1000).c_str(), 1);
  EXPECT_EQ(max_map_count(), kernel);
  ::setenv("SHMEMSIM_MAX_MAP_COUNT", "many", 1);
  EXPECT_EQ(max_map_count(), kernel);
  ::unsetenv("SHMEMSIM_MAX_MAP_COUNT");
  EXPECT_GT(mappings_in_use(), 0);
}

TEST(MapBudget, StacksStopShortOfTheLimit)
{
  // A limit 200 mappings above what is in use: guarded stacks (2 each) stop before it, keeping room
  // for the libraries; the budget counts /proc/self/maps again before refusing.
  const long now = mappings_in_use();
  ASSERT_GT(now, 0);
  ::setenv("SHMEMSIM_MAX_MAP_COUNT", std::to_string(now + 200).c_str(), 1);
  MapBudget budget(true);
  ::unsetenv("SHMEMSIM_MAX_MAP_COUNT");
  // Each stack granted is mapped as SimGrid maps a guarded one: two pages, the lower one protected.
  const long page = ::sysconf(_SC_PAGESIZE);
  std::vector<void*> maps;
  while (maps.size() < 1000 && budget.take_stack()) {
    void* m = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(m, MAP_FAILED);
    ASSERT_EQ(::mprotect(m, page, PROT_NONE), 0);
    maps.push_back(m);
  }
  EXPECT_GT(maps.size(), 40u);
  EXPECT_LT(maps.size(), 100u);
  EXPECT_LE(mappings_in_use(), now + 200);
  for (void* m : maps)
    ::munmap(m, 2 * page);
}
