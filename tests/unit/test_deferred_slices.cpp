// Deferred time slices (sim/DeferredSlices): an actor computing slices that nothing else can
// observe is not executed slice by slice, yet every date is the one SimGrid's executions give.
#include "Isolated.hpp"

#include "sim/Notifier.hpp"
#include "sim/Simulation.hpp"

#include <gtest/gtest.h>
#include <simgrid/s4u/Engine.hpp>

#include <bit>
#include <cstdint>

using namespace shmemsim;
using shmemsim::Ps;
using shmemsim::testing::isolated;

namespace {

std::uint64_t bits(double d)
{
  return std::bit_cast<std::uint64_t>(d);
}

/// Actor "compute" (node 0) runs 3000 slices of an awkward number of flops, settling after every
/// 500th (what a library call does) and recording SimGrid's exact clock. Actor "waiter" (node 1)
/// waits on its notifier, which a model event at 1.3 us wakes; it then sleeps 2.5 us and records
/// its dates. Actor "late" (node 2) sleeps 4 ms, then computes a short execution of its own while
/// "compute" still slices. Returns the dates (as bit patterns) and the count of deferred slices.
nlohmann::json run(sim::DeferredSlices::Mode mode)
{
  return isolated([mode] {
    sim::HostParams hp;
    hp.nodes = 3;
    sim::Simulation s(hp, 1);
    s.deferred_slices().set_mode(mode);
    nlohmann::json out;
    out["compute"]        = nlohmann::json::array();
    out["waiter"]         = nlohmann::json::array();
    sim::Notifier* waiter = nullptr;
    s.spawn("compute", 0, [&] {
      const double flops = 26640.123456789; // about 2 us of a 13.32 Gflop/s core
      for (int i = 1; i <= 3000; ++i) {
        s.execute_slice(flops * (1 + (i % 7) * 1e-3));
        if (i % 500 == 0) {
          s.settle();
          out["compute"].push_back(bits(simgrid::s4u::Engine::get_clock()));
        }
      }
    });
    s.spawn("waiter", 1, [&] {
      waiter = &s.self_notifier();
      s.queue().schedule(
          1'300'000, [](void* n, std::uint64_t) { static_cast<sim::Notifier*>(n)->notify(); }, &s.self_notifier(), 0);
      s.self_notifier().wait(nullptr, "test");
      out["waiter"].push_back(s.queue().now());
      s.sleep_for(2'500'000);
      out["waiter"].push_back(s.queue().now());
    });
    s.spawn("late", 2, [&] {
      s.sleep_for(4'000'000'000);
      s.execute(1e5);
      out["late"] = bits(simgrid::s4u::Engine::get_clock());
    });
    out["completed"] = s.run() == sim::RunStatus::Completed;
    out["deferred"]  = s.deferred_slices().deferred_count();
    out["end"]       = s.end_time();
    return out;
  });
}

} // namespace

TEST(DeferredSlices, GiveTheDatesOfExecutingEverySlice)
{
  const nlohmann::json off   = run(sim::DeferredSlices::Mode::Off);
  const nlohmann::json on    = run(sim::DeferredSlices::Mode::On);
  const nlohmann::json check = run(sim::DeferredSlices::Mode::Check); // aborts on a wrong date
  for (const nlohmann::json* r : {&off, &on, &check})
    ASSERT_EQ((*r)["completed"], true) << r->dump();
  ASSERT_EQ(off["compute"].size(), 6u);
  EXPECT_EQ(off["compute"], on["compute"]);
  EXPECT_EQ(off["waiter"], on["waiter"]);
  EXPECT_EQ(off["late"], on["late"]);
  EXPECT_EQ(off["end"], on["end"]);
  EXPECT_EQ(off["waiter"], nlohmann::json::array({1'300'000, 3'800'000}));
  EXPECT_EQ(off["deferred"], 0u);
  // Most slices are deferred: all but those that end near the waiter's wake and sleep, and those
  // while "late" computes. Check mode executes every slice, so it checks at least those (also
  // some that a long run of deferred slices leaves out: the settling sleep would not land exactly).
  EXPECT_GT(on["deferred"].get<unsigned long>(), 2900u);
  EXPECT_GE(check["deferred"].get<unsigned long>(), on["deferred"].get<unsigned long>());
  EXPECT_EQ(check["compute"], on["compute"]);
}
