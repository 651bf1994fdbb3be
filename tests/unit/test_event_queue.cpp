// The model's event queue: exact (date, scheduling order) order across its calendar window,
// far-future events, events scheduled by events, and actors scheduling after a peek.
#include "Isolated.hpp"

#include "sim/Notifier.hpp"
#include "sim/Rng.hpp"
#include "sim/Simulation.hpp"

#include <gtest/gtest.h>

using namespace shmemsim;
using shmemsim::Ps;
using shmemsim::testing::isolated;

namespace {
struct Recorder {
  sim::EventQueue* q;
  std::vector<std::pair<Ps, std::uint64_t>> seen; // (date, id) in execution order
  std::vector<Ps> due;                            // id -> scheduled date
  sim::Rng rng{5};
  int children = 0;
  void fire(std::uint64_t id)
  {
    seen.emplace_back(q->now(), id);
    // Some events schedule more, at the same date or later, near or far.
    if (children < 3000 && rng.below(3) == 0) {
      ++children;
      const Ps t = q->now() + static_cast<Ps>(rng.below(4) == 0 ? 0 : rng.below(200'000'000));
      due.push_back(t);
      q->schedule<&Recorder::fire>(t, this, due.size() - 1);
    }
  }
  /// Whether the events ran in (date, scheduling order), and each at the date it was scheduled for.
  std::pair<bool, bool> verdict() const
  {
    bool ordered = true, on_time = true;
    for (std::size_t i = 0; i < seen.size(); ++i) {
      const auto [t, id] = seen[i];
      on_time            = on_time && t == due[id];
      if (i > 0) {
        const auto [pt, pid] = seen[i - 1];
        ordered              = ordered && (pt < t || (pt == t && pid < id));
      }
    }
    return {ordered, on_time};
  }
};
} // namespace

TEST(EventQueue, RunsEveryEventInDateThenSchedulingOrder)
{
  auto r = isolated([] {
    sim::Simulation s(sim::HostParams{}, 1);
    Recorder rec;
    rec.q = &s.queue();
    s.spawn("scheduler", 0, [&] {
      sim::Rng rng(9);
      for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < 4000; ++i) {
          // Mix: same date, within a bucket, within the window, and far beyond it (up to 50 ms).
          Ps dt = 0;
          switch (rng.below(4)) {
            case 0:
              dt = 0;
              break;
            case 1:
              dt = static_cast<Ps>(rng.below(1000));
              break;
            case 2:
              dt = static_cast<Ps>(rng.below(60'000'000));
              break;
            default:
              dt = static_cast<Ps>(rng.below(50'000'000'000));
              break;
          }
          const Ps t = s.queue().now() + dt;
          rec.due.push_back(t);
          s.queue().schedule<&Recorder::fire>(t, &rec, rec.due.size() - 1);
        }
        s.sleep_for(3'000'000); // let time pass, then schedule again relative to the new date
      }
    });
    s.run();
    const auto [ordered, on_time] = rec.verdict();
    return nlohmann::json{{"ran", rec.seen.size()},
                          {"scheduled", rec.due.size()},
                          {"ordered", ordered},
                          {"on_time", on_time},
                          {"processed", s.queue().events_processed()}};
  });
  EXPECT_EQ(r["ran"], r["scheduled"]);
  EXPECT_GT(r["scheduled"].get<std::size_t>(), 20000u);
  EXPECT_TRUE(r["ordered"].get<bool>()) << "events ran out of (date, scheduling order)";
  EXPECT_TRUE(r["on_time"].get<bool>()) << "an event ran at another date than scheduled";
  EXPECT_EQ(r["processed"], r["ran"]);
}

// The queue's regimes (sim/EventQueue.hpp): thousands of events at one date (one bucket), many
// pending spread over a range (buckets over an epoch), stragglers far past it (the far array, the
// next epochs), and events scheduled into the current bucket while it is being consumed.
TEST(EventQueue, BurstsSpreadAndStragglersKeepDateThenSchedulingOrder)
{
  auto r = isolated([] {
    sim::Simulation s(sim::HostParams{}, 1);
    Recorder rec;
    rec.q = &s.queue();
    s.spawn("scheduler", 0, [&] {
      sim::Rng rng(17);
      auto add = [&](Ps t) {
        rec.due.push_back(t);
        s.queue().schedule<&Recorder::fire>(t, &rec, rec.due.size() - 1);
      };
      for (int round = 0; round < 3; ++round) {
        const Ps now = s.queue().now();
        for (int i = 0; i < 5000; ++i) // a burst at one date
          add(now + 1000);
        for (int i = 0; i < 20000; ++i) // spread over 2 us
          add(now + static_cast<Ps>(rng.below(2'000'000)));
        for (int i = 0; i < 50; ++i) // stragglers, up to 1 ms later
          add(now + 2'000'000 + static_cast<Ps>(rng.below(1'000'000'000)));
        s.sleep_for(1'500'000'000);
      }
    });
    s.run();
    const auto [ordered, on_time] = rec.verdict();
    return nlohmann::json{
        {"ran", rec.seen.size()}, {"scheduled", rec.due.size()}, {"ordered", ordered}, {"on_time", on_time}};
  });
  EXPECT_EQ(r["ran"], r["scheduled"]);
  EXPECT_GT(r["scheduled"].get<std::size_t>(), 75000u);
  EXPECT_TRUE(r["ordered"].get<bool>()) << "events ran out of (date, scheduling order)";
  EXPECT_TRUE(r["on_time"].get<bool>()) << "an event ran at another date than scheduled";
}
