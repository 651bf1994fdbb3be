// The sharing of a node's cores among its executions (sim/CoreSharing): an execution runs at one
// core's speed at most, and the cores are shared equally among the executions on the node; the
// end dates are the analytical ones of processor sharing.
#include "Isolated.hpp"

#include "sim/Simulation.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace shmemsim;
using shmemsim::Ps;
using shmemsim::testing::isolated;

namespace {

struct Job {
  int node;
  Ps start;    ///< the actor sleeps until then
  Ps duration; ///< of one core's work (busy_for)
};

/// Runs each job in an actor of its own on a platform of `cores` cores per node; returns the end
/// date of each job (picoseconds) and whether the run completed.
nlohmann::json run(int nodes, int cores, const std::vector<Job>& jobs)
{
  return isolated([&] {
    sim::HostParams hp;
    hp.nodes          = nodes;
    hp.cores_per_node = cores;
    sim::Simulation s(hp, 1);
    nlohmann::json ends = nlohmann::json::array();
    for (std::size_t i = 0; i < jobs.size(); ++i)
      ends.push_back(-1);
    for (std::size_t i = 0; i < jobs.size(); ++i)
      s.spawn("job " + std::to_string(i), jobs[i].node, [&s, &ends, i, job = jobs[i]] {
        if (job.start > 0)
          s.sleep_for(job.start);
        s.busy_for(job.duration);
        ends[i] = s.queue().now();
      });
    nlohmann::json out;
    out["completed"] = s.run() == sim::RunStatus::Completed;
    out["ends"]      = ends;
    return out;
  });
}

void expect_ends(const nlohmann::json& r, const std::vector<Ps>& want)
{
  ASSERT_EQ(r["completed"], true) << r.dump();
  ASSERT_EQ(r["ends"].size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(r["ends"][i].get<Ps>(), want[i]) << "job " << i << " in " << r.dump();
}

constexpr Ps kMs = 1'000'000'000;

} // namespace

TEST(CoreSharing, ExecutionsUpToTheCoresRunAtFullSpeed)
{
  // Two executions on two cores, a third on another node: none is slowed.
  expect_ends(run(2, 2, {{0, 0, kMs}, {0, 0, 2 * kMs}, {1, 0, kMs}}), {kMs, 2 * kMs, kMs});
}

TEST(CoreSharing, ThreeExecutionsOnTwoCoresShareThemEqually)
{
  // Each gets 2/3 of a core: 1 ms of work takes 1.5 ms.
  expect_ends(run(1, 2, {{0, 0, kMs}, {0, 0, kMs}, {0, 0, kMs}}), {3 * kMs / 2, 3 * kMs / 2, 3 * kMs / 2});
}

TEST(CoreSharing, ALateExecutionSlowsTheOthersAndSpeedsUpWhenTheyEnd)
{
  // Two cores. A and B (1 ms each) run alone until 0.5 ms (0.5 ms left each); C (1 ms) starts
  // then: 2/3 of a core each, A and B end 0.75 ms later (1.25 ms), C has done 0.5 ms by then and
  // ends alone at full speed 0.5 ms later (1.75 ms). D (0.2 ms) on another node is not slowed.
  expect_ends(run(2, 2, {{0, 0, kMs}, {0, 0, kMs}, {0, kMs / 2, kMs}, {1, kMs / 2, kMs / 5}}),
              {5 * kMs / 4, 5 * kMs / 4, 7 * kMs / 4, 7 * kMs / 10});
}

TEST(CoreSharing, ShortExecutionsEndInOrderOfTheirWork)
{
  // One core, four executions of 1, 2, 3 and 4 us started together: 4 us of work each at a
  // quarter of a core; the first ends at 4 us, the second 2 x 1 us / (1/3) later, and so on.
  constexpr Ps us = 1'000'000;
  expect_ends(run(1, 1, {{0, 0, us}, {0, 0, 2 * us}, {0, 0, 3 * us}, {0, 0, 4 * us}}),
              {4 * us, 7 * us, 9 * us, 10 * us});
}

TEST(CoreSharing, ThousandsOfExecutionsOnANode)
{
  // 3,000 executions of 10 us on 12 cores: each gets 1/250 of a core, all end at 2.5 ms.
  std::vector<Job> jobs(3000, Job{0, 0, 10'000'000});
  const nlohmann::json r = run(1, 12, jobs);
  expect_ends(r, std::vector<Ps>(jobs.size(), 2'500'000'000));
}
