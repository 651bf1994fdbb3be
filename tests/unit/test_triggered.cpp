// Portals 4 triggered operations in the model (sim/portals_model/Triggered.cpp), against the
// specification's text: an operation waits until its counting event's success + failure reaches
// the threshold; it then leaves the initiator with its buffer as it is then; one whose threshold
// is already reached proceeds at once; released operations go in threshold order, equal
// thresholds in the order issued; a triggered CTInc chains counters; PtlCTCancelTriggered destroys
// the pending ones; max_triggered_ops bounds them (PTL_NO_SPACE); bad arguments are refused when
// the call is made.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include <gtest/gtest.h>

#include <cstring>

using namespace shmemsim;
using namespace shmemsim::portals;
using shmemsim::Ps;
using shmemsim::testing::Cluster;
using shmemsim::testing::Endpoints;
using shmemsim::testing::isolated;

namespace {

constexpr std::uint64_t kSize = 64;
constexpr int kTarget         = 5;

/// When endpoint kTarget's counter sees a 64-byte put from endpoint 0 issued at time 0, and the
/// first byte that landed; `triggered`: issued by a trigger that reaches its threshold (2) at 2 us,
/// after the source changed from 0x11 to 0x22 at 1.5 us.
nlohmann::json put_seen(bool triggered, bool reached_before = false)
{
  return isolated([=] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, kSize, kSize, MD_EVENT_CT_ACK);
    Ps seen   = -1;
    Status st = Status::Ok;
    c.sim->spawn("sender", 0, [&] {
      auto& ni = c.ni(0);
      std::memset(e[0].src.data(), 0x11, kSize);
      if (!triggered) {
        ni.put(e[0].md, 0, kSize, AckReq::CtAck, kTarget, 0, 0);
        return;
      }
      CtHandle trig;
      ni.ct_alloc(&trig);
      if (reached_before)
        ni.ct_set(trig, CtEvent{1, 1});
      st = ni.triggered_put(e[0].md, 0, kSize, AckReq::CtAck, kTarget, 0, 0, trig, 2);
      c.sim->sleep_for(1'000'000);
      ni.ct_inc(trig, CtEvent{1, 0}); // 1: not yet
      c.sim->sleep_for(500'000);
      std::memset(e[0].src.data(), 0x22, kSize);
      c.sim->sleep_for(500'000);
      ni.ct_inc(trig, CtEvent{0, 1}); // success 1 + failure 1 = 2: released now
    });
    c.sim->spawn("receiver", c.node_of[kTarget], [&] {
      CtEvent ev;
      c.ni(kTarget).ct_wait(e[kTarget].le_ct, 1, &ev);
      seen = c.sim->queue().now();
    });
    c.sim->run();
    return nlohmann::json{{"seen", seen},
                          {"byte", static_cast<int>(e[kTarget].dst[0])},
                          {"status", static_cast<int>(st)},
                          {"fired", c.ni(0).usage().triggered_fired},
                          {"peak", c.ni(0).usage().triggered_peak}};
  });
}

} // namespace

TEST(Triggered, APutLeavesWhenTheCountReachesTheThresholdWithItsBufferAsItIsThen)
{
  const auto plain = put_seen(false);
  const auto trig  = put_seen(true);
  ASSERT_GT(plain["seen"].get<Ps>(), 0);
  EXPECT_EQ(trig["status"], static_cast<int>(Status::Ok));
  // Issued by the NIC at 2 us, the moment success + failure reached 2: it then takes what an
  // untriggered put takes from its issue.
  EXPECT_EQ(trig["seen"].get<Ps>(), 2'000'000 + plain["seen"].get<Ps>());
  EXPECT_EQ(trig["byte"], 0x22); // the buffer when the threshold was met, not when the call was made
  EXPECT_EQ(plain["byte"], 0x11);
  EXPECT_EQ(trig["fired"], 1);
  EXPECT_EQ(trig["peak"], 1);
}

TEST(Triggered, AThresholdAlreadyReachedProceedsAtOnce)
{
  const auto plain = put_seen(false);
  const auto trig  = put_seen(true, /*reached_before=*/true);
  EXPECT_EQ(trig["seen"], plain["seen"]);
  EXPECT_EQ(trig["byte"], 0x11);
  EXPECT_EQ(trig["peak"], 0); // never held
}

TEST(Triggered, ReleasedInThresholdOrderThenInIssueOrderAndChainedByCtInc)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    auto& ni = c.ni(0);
    CtHandle a, b, d, chained;
    ni.ct_alloc(&a);
    ni.ct_alloc(&b);
    ni.ct_alloc(&d);
    ni.ct_alloc(&chained);
    std::vector<Status> st;
    // Issued in the reverse of threshold order: set b to 10 at 1, then add 1 at 2 (11, not 10).
    st.push_back(ni.triggered_ct_inc(b, CtEvent{1, 0}, a, 2));
    st.push_back(ni.triggered_ct_set(b, CtEvent{10, 0}, a, 1));
    // Equal thresholds keep the order issued: set d to 5, then add 1 (6, not 5).
    st.push_back(ni.triggered_ct_set(d, CtEvent{5, 0}, a, 3));
    st.push_back(ni.triggered_ct_inc(d, CtEvent{1, 0}, a, 3));
    // A chain: a reaching 3 increments `chained`, whose own triggered inc then adds 100 to it.
    st.push_back(ni.triggered_ct_inc(chained, CtEvent{0, 1}, a, 3));
    st.push_back(ni.triggered_ct_inc(chained, CtEvent{100, 0}, chained, 1));
    CtEvent before_b, before_d;
    ni.ct_get(b, &before_b);
    ni.ct_get(d, &before_d);
    const int pending = ni.usage().triggered;
    ni.ct_set(a, CtEvent{5, 0}); // every threshold at once
    CtEvent vb, vd, vc;
    ni.ct_get(b, &vb);
    ni.ct_get(d, &vd);
    ni.ct_get(chained, &vc);
    nlohmann::json statuses = nlohmann::json::array();
    for (Status s : st)
      statuses.push_back(static_cast<int>(s));
    return nlohmann::json{{"statuses", statuses},
                          {"pending_before", pending},
                          {"before_b", before_b.success},
                          {"before_d", before_d.success},
                          {"b", vb.success},
                          {"d", vd.success},
                          {"chained_success", vc.success},
                          {"chained_failure", vc.failure},
                          {"pending_after", ni.usage().triggered},
                          {"fired", ni.usage().triggered_fired}};
  });
  for (const auto& s : r["statuses"])
    EXPECT_EQ(s, static_cast<int>(Status::Ok));
  EXPECT_EQ(r["pending_before"], 6);
  EXPECT_EQ(r["before_b"], 0); // nothing happened before the threshold
  EXPECT_EQ(r["before_d"], 0);
  EXPECT_EQ(r["b"], 11);
  EXPECT_EQ(r["d"], 6);
  EXPECT_EQ(r["chained_success"], 100);
  EXPECT_EQ(r["chained_failure"], 1);
  EXPECT_EQ(r["pending_after"], 0);
  EXPECT_EQ(r["fired"], 6);
}

TEST(Triggered, GetAndAtomicLeaveAtTheThreshold)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    Endpoints e(*c.net, 64, 64, MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY);
    std::uint64_t remote = 7;
    std::memcpy(e[3].dst.data(), &remote, sizeof remote);
    std::uint64_t got = 0, summed = 0;
    c.sim->spawn("initiator", 0, [&] {
      auto& ni = c.ni(0);
      CtHandle trig;
      ni.ct_alloc(&trig);
      ni.triggered_get(e[0].md, 0, 8, 3, 0, 0, trig, 1);
      const std::uint64_t add = 5;
      std::memcpy(e[0].src.data() + 8, &add, sizeof add);
      ni.triggered_atomic(e[0].md, 8, 8, AckReq::CtAck, 4, 0, 0, AtomicOp::Sum, Datatype::Uint64, trig, 1);
      CtEvent ev;
      c.sim->sleep_for(10'000'000); // 10 us: nothing may have left
      ni.ct_get(e[0].md_ct, &ev);
      EXPECT_EQ(ev.success + ev.failure, 0u);
      ni.ct_inc(trig, CtEvent{1, 0});
      ni.ct_wait(e[0].md_ct, 2, &ev); // the reply and the ACK
      std::memcpy(&got, e[0].src.data(), sizeof got);
      std::memcpy(&summed, e[4].dst.data(), sizeof summed);
    });
    c.sim->run();
    return nlohmann::json{{"got", got}, {"summed", summed}};
  });
  EXPECT_EQ(r["got"], 7);
  EXPECT_EQ(r["summed"], 5);
}

TEST(Triggered, LimitsCancelAndBadArguments)
{
  auto r       = isolated([] {
    Cluster c;
    c.limits.max_triggered_ops = 2;
    c.build();
    Endpoints e(*c.net, 64, 64, MD_EVENT_CT_ACK);
    auto& ni = c.ni(0);
    CtHandle trig;
    ni.ct_alloc(&trig);
    nlohmann::json j;
    j["first"]     = static_cast<int>(ni.triggered_put(e[0].md, 0, 8, AckReq::CtAck, 1, 0, 0, trig, 1));
    j["second"]    = static_cast<int>(ni.triggered_put(e[0].md, 0, 8, AckReq::CtAck, 2, 0, 0, trig, 1));
    j["third"]     = static_cast<int>(ni.triggered_put(e[0].md, 0, 8, AckReq::CtAck, 3, 0, 0, trig, 1));
    j["third_why"] = ni.last_error();
    j["free"]      = static_cast<int>(ni.ct_free(trig));
    j["free_why"]  = ni.last_error();
    j["cancel"]    = static_cast<int>(ni.ct_cancel_triggered(trig));
    j["pending"]   = ni.usage().triggered;
    j["again"]     = static_cast<int>(ni.triggered_put(e[0].md, 0, 8, AckReq::CtAck, 3, 0, 0, trig, 1));
    // Refused when the call is made: a bad target, a bad MD, a bad trigger, a bad counter.
    j["bad_target"]     = static_cast<int>(ni.triggered_put(e[0].md, 0, 8, AckReq::CtAck, 99, 0, 0, trig, 1));
    j["bad_target_why"] = ni.last_error();
    j["bad_md"]         = static_cast<int>(ni.triggered_get(MdHandle{77}, 0, 8, 1, 0, 0, trig, 1));
    j["bad_trig"]       = static_cast<int>(ni.triggered_put(e[0].md, 0, 8, AckReq::CtAck, 1, 0, 0, CtHandle{99}, 1));
    j["bad_trig_why"]   = ni.last_error();
    j["bad_ct"]         = static_cast<int>(ni.triggered_ct_inc(CtHandle{99}, CtEvent{1, 0}, trig, 1));
    c.sim->spawn("release", 0, [&] {
      ni.ct_inc(trig, CtEvent{1, 0}); // only the put issued after the cancel leaves
      CtEvent ev;
      ni.ct_wait(e[0].md_ct, 1, &ev);
    });
    c.sim->run();
    CtEvent at1, at2, at3;
    c.ni(1).ct_get(e[1].le_ct, &at1);
    c.ni(2).ct_get(e[2].le_ct, &at2);
    c.ni(3).ct_get(e[3].le_ct, &at3);
    j["delivered"] = {at1.success, at2.success, at3.success};
    j["fired"]     = ni.usage().triggered_fired;
    j["peak"]      = ni.usage().triggered_peak;
    return j;
  });
  const int ok = static_cast<int>(Status::Ok);
  EXPECT_EQ(r["first"], ok);
  EXPECT_EQ(r["second"], ok);
  EXPECT_EQ(r["third"], static_cast<int>(Status::NoSpace));
  EXPECT_EQ(r["third_why"], "PtlTriggeredPut: max_triggered_ops (2) triggered operations already wait on their "
                            "thresholds");
  EXPECT_EQ(r["free"], static_cast<int>(Status::InUse));
  EXPECT_EQ(r["free_why"], "2 triggered operations wait on this counting event (PtlCTCancelTriggered first)");
  EXPECT_EQ(r["cancel"], ok);
  EXPECT_EQ(r["pending"], 0);
  EXPECT_EQ(r["again"], ok);
  EXPECT_EQ(r["bad_target"], static_cast<int>(Status::ArgInvalid));
  EXPECT_EQ(r["bad_target_why"], "PtlTriggeredPut: target 99 is not an endpoint (0..15)");
  EXPECT_EQ(r["bad_md"], static_cast<int>(Status::ArgInvalid));
  EXPECT_EQ(r["bad_trig"], static_cast<int>(Status::ArgInvalid));
  EXPECT_EQ(r["bad_trig_why"], "PtlTriggeredPut: the trigger is not an allocated counting event");
  EXPECT_EQ(r["bad_ct"], static_cast<int>(Status::ArgInvalid));
  EXPECT_EQ(r["delivered"][0], 0); // cancelled: never issued
  EXPECT_EQ(r["delivered"][1], 0);
  EXPECT_EQ(r["delivered"][2], 1);
  EXPECT_EQ(r["fired"], 1);
  EXPECT_EQ(r["peak"], 2);
}
