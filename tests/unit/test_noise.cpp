// Operating-system noise (sim/Noise.hpp): the detour generator's statistics against its
// parameters, per-thread seeding, and what the simulation's helpers charge for it.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include "sim/Noise.hpp"
#include "sim/Simulation.hpp"

#include <gtest/gtest.h>
#include <simgrid/s4u/Engine.hpp>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

using namespace shmemsim;
using shmemsim::Ps;
using shmemsim::testing::isolated;

namespace {

sim::NoiseParams linux_tick()
{
  sim::NoiseParams p;
  p.enabled  = true;
  p.period   = 1'000'000'000; // 1 ms
  p.duration = 1'458'000;     // 1.458 us
  return p;
}

/// Interrupts that fall in the first `t` of a thread's execution at phase `phase`: k >= 0 with
/// phase + k x period < t, counted one by one (independently of the generator's closed form).
std::int64_t ticks_before(Ps t, Ps phase, Ps period)
{
  std::int64_t n = 0;
  for (Ps at = phase; at < t; at += period)
    ++n;
  return n;
}

} // namespace

TEST(noise, OffTakesNoTime)
{
  sim::Detours none;
  EXPECT_FALSE(none.active());
  EXPECT_EQ(none.during(5'000'000'000), 0);
  sim::NoiseParams off = linux_tick();
  off.enabled          = false;
  sim::Detours d(off, sim::Rng(7));
  EXPECT_FALSE(d.active());
  EXPECT_EQ(d.during(5'000'000'000), 0);
  EXPECT_EQ(d.count(), 0u);
}

TEST(noise, DetoursAreTheInterruptsThatFallDuringExecution)
{
  // Whatever the pieces a thread's execution comes in, it takes one `duration` per interrupt that
  // falls in it: the detours depend on how long it ran, not on how its work was cut.
  const sim::NoiseParams p = linux_tick();
  sim::Rng pieces(12345);
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    sim::Detours d(p, sim::Rng(seed));
    ASSERT_TRUE(d.active());
    ASSERT_GE(d.phase(), 0);
    ASSERT_LT(d.phase(), p.period);
    Ps ran = 0, took = 0;
    while (ran < 20'000'000'000) {                                     // 20 ms
      const Ps piece = static_cast<Ps>(1 + pieces.below(700'000'000)); // up to 0.7 ms
      const Ps extra = d.during(piece);
      ASSERT_EQ(extra % p.duration, 0);
      ASSERT_LE(extra, 1 * p.duration) << "a piece shorter than the period holds at most one interrupt";
      ran += piece;
      took += extra;
      ASSERT_EQ(took, ticks_before(ran, d.phase(), p.period) * p.duration) << "seed " << seed << " at " << ran;
    }
    EXPECT_EQ(d.executed(), ran);
    EXPECT_EQ(d.time(), took);
    EXPECT_EQ(static_cast<Ps>(d.count()) * p.duration, took);
    // The long-run share of the thread's time taken by detours is duration / period.
    EXPECT_NEAR(static_cast<double>(took) / static_cast<double>(ran),
                static_cast<double>(p.duration) / static_cast<double>(p.period), 1.0 / 20);
  }
}

TEST(noise, PhasesAreUniformPerThreadAndFixedBySeed)
{
  // 4000 threads' phases from the simulation's per-thread streams: uniform over [0, period) (chi-square
  // over 20 bins; mean within 4 standard errors), all distinct, and the same for the same seed.
  const nlohmann::json r = isolated([] {
    sim::HostParams hp;
    hp.nodes = 1;
    sim::Simulation s(hp, 42, linux_tick());
    nlohmann::json out = nlohmann::json::array();
    for (std::uint64_t key = 1; key <= 4000; ++key)
      out.push_back(s.detours_for(key).phase());
    out.push_back(s.detours_for(sim::Simulation::kNoiseKeyOthers).phase());
    return out;
  });
  ASSERT_TRUE(r.is_array()) << r.dump();
  const Ps period = linux_tick().period;
  std::vector<int> bins(20, 0);
  std::set<Ps> distinct;
  double sum = 0;
  for (std::size_t i = 0; i + 1 < r.size(); ++i) {
    const Ps ph = r[i].get<Ps>();
    ASSERT_GE(ph, 0);
    ASSERT_LT(ph, period);
    ++bins[static_cast<std::size_t>(ph * 20 / period)];
    distinct.insert(ph);
    sum += static_cast<double>(ph);
  }
  const double n = 4000, expected = n / 20;
  double chi2 = 0;
  for (int b : bins)
    chi2 += (b - expected) * (b - expected) / expected;
  EXPECT_LT(chi2, 43.8) << "chi-square with 19 degrees of freedom above its 0.1 % point";
  const double mean = sum / n, se = static_cast<double>(period) / std::sqrt(12 * n);
  EXPECT_NEAR(mean, static_cast<double>(period) / 2, 4 * se);
  EXPECT_EQ(distinct.size(), 4000u);

  // The same seed gives the same phases; another seed others.
  const nlohmann::json again = isolated([] {
    sim::HostParams hp;
    hp.nodes = 1;
    sim::Simulation s(hp, 42, linux_tick());
    sim::Simulation* sp = &s;
    nlohmann::json out  = nlohmann::json::array();
    for (std::uint64_t key : {1, 2, 3999})
      out.push_back(sp->detours_for(key).phase());
    return out;
  });
  EXPECT_EQ(again[0], r[0]);
  EXPECT_EQ(again[1], r[1]);
  EXPECT_EQ(again[2], r[3998]);
  const nlohmann::json other = isolated([] {
    sim::HostParams hp;
    hp.nodes = 1;
    sim::Simulation s(hp, 43, linux_tick());
    return nlohmann::json::array({s.detours_for(1).phase(), s.detours_for(2).phase()});
  });
  EXPECT_NE(other[0], r[0]);
  EXPECT_NE(other[1], r[1]);
}

TEST(noise, SimulationChargesDetoursOnTheThreadsOwnWorkOnly)
{
  // One actor computes 10 ms in 2 us time slices, then 4 ms through busy_for, then spins 3 ms in
  // 100 ns polls, then sleeps 5 ms: each of the first three takes the interrupts that fall in the
  // actor's own execution (10, then 4, then 3 more: one per millisecond of it), the sleep none.
  const nlohmann::json r = isolated([] {
    sim::HostParams hp;
    hp.nodes = 1;
    sim::Simulation s(hp, 9, linux_tick());
    nlohmann::json out;
    s.spawn("worker", 0, [&] {
      const double slice = 2e-6 * hp.core_speed;
      for (int i = 0; i < 5000; ++i)
        s.execute_slice(slice);
      s.settle();
      out["computed"] = simgrid::s4u::Engine::get_clock();
      s.busy_for(4'000'000'000);
      out["busy"] = simgrid::s4u::Engine::get_clock();
      for (int i = 0; i < 30000; ++i)
        s.spin_for(100'000);
      out["spun"] = simgrid::s4u::Engine::get_clock();
      s.sleep_for(5'000'000'000);
      out["slept"] = simgrid::s4u::Engine::get_clock();
    });
    s.run();
    out["detours"]     = s.actor_detours();
    out["detour_time"] = s.actor_detour_time();
    return out;
  });
  ASSERT_TRUE(r.contains("slept")) << r.dump();
  const double d = 1.458e-6;
  EXPECT_NEAR(r["computed"].get<double>(), 10e-3 + 10 * d, 1e-12);
  EXPECT_NEAR(r["busy"].get<double>(), 14e-3 + 14 * d, 1e-12);
  EXPECT_NEAR(r["spun"].get<double>(), 17e-3 + 17 * d, 1e-12);
  EXPECT_NEAR(r["slept"].get<double>(), 22e-3 + 17 * d, 1e-12);
  EXPECT_EQ(r["detours"], 17);
  EXPECT_EQ(r["detour_time"], 17 * 1'458'000);
}

TEST(noise, OnlyASoftwareProgressThreadTakesDetours)
{
  // Hardware engines (offload) take no detours. A progress thread does: one put's landing is seen
  // at the target later by the detours that fell while its progress thread handled it (its own
  // phase per seed: recv_overhead 200 ns of a 1 us period is hit for about one seed in five).
  auto put_seen = [](nic::TargetEngine engine, std::uint64_t seed) {
    return isolated([engine, seed] {
      shmemsim::testing::Cluster c;
      c.nic.progress   = engine;
      c.noise.enabled  = true;
      c.noise.period   = 1'000'000; // 1 us
      c.noise.duration = 100'000;   // 100 ns
      c.build(seed);
      shmemsim::testing::Endpoints e(*c.net, 8, 8, portals::MD_VOLATILE | portals::MD_EVENT_CT_ACK);
      Ps seen = -1;
      c.sim->spawn("receiver", 1, [&] {
        portals::CtEvent ev;
        c.ni(1).ct_wait(e[1].le_ct, 1, &ev);
        seen = c.sim->queue().now();
      });
      c.sim->spawn("sender", 0, [&] { c.ni(0).put(e[0].md, 0, 8, portals::AckReq::NoAck, 1, 0, 0); });
      c.sim->run();
      const sim::Detours& d = c.net->nic(1).progress_detours();
      return nlohmann::json{{"seen", seen},
                            {"active", d.active()},
                            {"phase", d.phase()},
                            {"count", d.count()},
                            {"executed", d.executed()}};
    });
  };
  int hit = 0, missed = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const nlohmann::json hw = put_seen(nic::TargetEngine::Offload, seed);
    const nlohmann::json sw = put_seen(nic::TargetEngine::Thread, seed);
    ASSERT_TRUE(sw.contains("seen")) << sw.dump();
    EXPECT_FALSE(hw["active"].get<bool>());
    EXPECT_EQ(hw["count"], 0);
    ASSERT_TRUE(sw["active"].get<bool>());
    // The target's progress thread handled one request (recv_overhead 200 ns of its execution).
    EXPECT_EQ(sw["executed"], 200'000);
    const std::uint64_t expected = sw["phase"].get<Ps>() < 200'000 ? 1 : 0;
    EXPECT_EQ(sw["count"].get<std::uint64_t>(), expected) << "seed " << seed;
    // Without a detour the progress thread is as fast as the receive engine (same recv_overhead).
    EXPECT_EQ(sw["seen"].get<Ps>(), hw["seen"].get<Ps>() + static_cast<Ps>(expected) * 100'000) << "seed " << seed;
    (expected ? hit : missed)++;
  }
  EXPECT_GT(hit, 0);
  EXPECT_GT(missed, 0);
}
