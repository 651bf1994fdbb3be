// Portals 4 event queues in the model (sim/portals_model/EventQueues.cpp), against the
// specification's text: full events at the initiator (SEND, ACK only for PTL_ACK_REQ, REPLY) and
// the target (PUT, GET, ATOMIC, FETCH_ATOMIC, LINK, AUTO_UNLINK) with their fields; the event
// options that silence them; a full EQ overwrites its oldest event and the next one taken says
// PTL_EQ_DROPPED; a flow-controlled portal table entry is disabled instead (message dropped,
// PTL_NI_PT_DISABLED at the initiator, PTL_EVENT_PT_DISABLED in its reserved slot) until
// PtlPTEnable; PtlEQPoll's timeout, round-robin and `which`; PTL_INTERRUPTED; max_eqs; bad
// arguments; an event is seen when the NIC's write of it lands, after the data.
#include "Isolated.hpp"
#include "NetFixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace shmemsim;
using namespace shmemsim::portals;
using shmemsim::Ps;
using shmemsim::testing::Cluster;
using shmemsim::testing::isolated;

namespace {

constexpr int kTarget          = 5;
constexpr std::uint32_t kPt    = 1;
constexpr std::uint64_t kLePtr = 0xBEEF;

nlohmann::json to_json(Status s, const Event& e)
{
  return {{"status", to_string(s)},           {"type", to_string(e.type)}, {"user_ptr", e.user_ptr},
          {"hdr_data", e.hdr_data},           {"rlength", e.rlength},      {"mlength", e.mlength},
          {"remote_offset", e.remote_offset}, {"initiator", e.initiator},  {"pt_index", e.pt_index},
          {"fail", to_string(e.ni_fail_type)}};
}

/// Endpoint 0 initiates from an MD on its own EQ; endpoint kTarget takes on portal kPt, whose
/// entry's events go to the target EQ.
struct EqRig {
  Cluster c;
  std::vector<std::byte> src = std::vector<std::byte>(64, std::byte{0x11});
  std::vector<std::byte> dst = std::vector<std::byte>(64, std::byte{0});
  EqHandle ieq, teq;
  MdHandle md;
  CtHandle md_ct;
  LeHandle le;

  EqRig(std::uint32_t md_options, std::uint32_t le_options, std::uint32_t pt_options = 0, std::uint64_t teq_count = 16)
  {
    c.build();
    auto& ni = c.ni(0);
    ni.eq_alloc(16, &ieq);
    ni.ct_alloc(&md_ct);
    ni.md_bind(MdDesc{src.data(), src.size(), md_options | MD_EVENT_CT_ACK | MD_EVENT_CT_REPLY, md_ct, ieq}, &md);
    auto& t = c.ni(kTarget);
    t.eq_alloc(teq_count, &teq);
    std::uint32_t pt;
    t.pt_alloc(pt_options, teq, kPt, &pt);
    t.le_append(kPt, LeDesc{dst.data(), dst.size(), le_options}, &le, kLePtr);
  }
  /// Every event of `eq` on endpoint `ep` now, in order.
  nlohmann::json drain(int ep, EqHandle eq)
  {
    nlohmann::json out = nlohmann::json::array();
    Event e;
    for (Status s; (s = c.ni(ep).eq_get(eq, &e)) != Status::EqEmpty;)
      out.push_back(to_json(s, e));
    return out;
  }
};

} // namespace

TEST(PortalsEq, APutWithAckReqPostsSendAckAndPutWithTheirFields)
{
  auto r = isolated([] {
    EqRig s(0, LE_OP_PUT | LE_OP_GET);
    nlohmann::json j;
    s.c.sim->spawn("sender", 0, [&] {
      s.c.ni(0).put(s.md, 8, 24, AckReq::Ack, kTarget, kPt, 16, /*user_ptr=*/7, /*hdr_data=*/99);
      CtEvent ev;
      s.c.ni(0).ct_wait(s.md_ct, 1, &ev);
      Ps acked = s.c.sim->queue().now();
      Event e;
      s.c.ni(0).eq_wait(s.ieq, &e); // SEND, long seen
      s.c.ni(0).eq_wait(s.ieq, &e); // ACK: after its counter, by one event write
      j["ack_after_ct"] = s.c.sim->queue().now() - acked;
    });
    s.c.sim->run();
    j["target"] = s.drain(kTarget, s.teq);
    j["link"]   = j["target"][0]["type"];
    j["byte"]   = static_cast<int>(s.dst[16]);
    return j;
  });
  // The NIC writes a 64-byte event after the ACK's counter update: 64 B at 25.6 Gb/s = 20 ns.
  EXPECT_EQ(r["ack_after_ct"], 20'000);
  EXPECT_EQ(r["byte"], 0x11);
  ASSERT_EQ(r["target"].size(), 2u);
  EXPECT_EQ(r["link"], "PTL_EVENT_LINK");
  const auto& put = r["target"][1];
  EXPECT_EQ(put["type"], "PTL_EVENT_PUT");
  EXPECT_EQ(put["user_ptr"], kLePtr);
  EXPECT_EQ(put["hdr_data"], 99);
  EXPECT_EQ(put["rlength"], 24);
  EXPECT_EQ(put["mlength"], 24);
  EXPECT_EQ(put["remote_offset"], 16);
  EXPECT_EQ(put["initiator"], 0);
  EXPECT_EQ(put["pt_index"], kPt);
  EXPECT_EQ(put["fail"], "PTL_NI_OK");
}

TEST(PortalsEq, InitiatorEventsAndTheOptionsThatSilenceThem)
{
  nlohmann::json r;
  for (std::uint32_t opt : {0u, unsigned(MD_EVENT_SEND_DISABLE), unsigned(MD_EVENT_SUCCESS_DISABLE)}) {
    r.push_back(isolated([opt] {
      EqRig s(opt, LE_OP_PUT | LE_OP_GET | LE_EVENT_LINK_DISABLE);
      s.c.sim->spawn("sender", 0, [&] {
        auto& ni = s.c.ni(0);
        ni.put(s.md, 0, 8, AckReq::Ack, kTarget, kPt, 0, 1);
        ni.put(s.md, 0, 8, AckReq::CtAck, kTarget, kPt, 0, 2); // counted, no full ACK
        ni.get(s.md, 0, 8, kTarget, kPt, 0, 3);
        ni.fetch_atomic(s.md, 8, s.md, 0, 8, kTarget, kPt, 0, AtomicOp::Sum, Datatype::Uint64, 4);
        ni.put(s.md, 0, 8, AckReq::Ack, kTarget, 7, 0, 5); // nothing on portal 7: fails
        CtEvent ev;
        ni.ct_wait(s.md_ct, 5, &ev);
        s.c.sim->sleep_for(1'000'000);
      });
      s.c.sim->run();
      nlohmann::json out;
      for (const auto& e : s.drain(0, s.ieq))
        out.push_back(std::string(e["type"]) + " " + std::to_string(e["user_ptr"].get<int>()) + " " +
                      std::string(e["fail"]));
      nlohmann::json tgt;
      for (const auto& e : s.drain(kTarget, s.teq))
        tgt.push_back(e["type"]);
      return nlohmann::json{{"ini", out}, {"tgt", tgt}};
    }));
  }
  using V = std::vector<std::string>;
  // Unordered network: compare as sets of events per run.
  auto sorted = [](nlohmann::json a) {
    V v = a.is_null() ? V{} : a.get<V>();
    std::sort(v.begin(), v.end());
    return v;
  };
  V all = {"PTL_EVENT_ACK 1 PTL_NI_OK",   "PTL_EVENT_ACK 5 PTL_NI_DROPPED", "PTL_EVENT_REPLY 3 PTL_NI_OK",
           "PTL_EVENT_REPLY 4 PTL_NI_OK", "PTL_EVENT_SEND 1 PTL_NI_OK",     "PTL_EVENT_SEND 2 PTL_NI_OK",
           "PTL_EVENT_SEND 4 PTL_NI_OK",  "PTL_EVENT_SEND 5 PTL_NI_OK"};
  EXPECT_EQ(sorted(r[0]["ini"]), all);
  V no_send = {"PTL_EVENT_ACK 1 PTL_NI_OK", "PTL_EVENT_ACK 5 PTL_NI_DROPPED", "PTL_EVENT_REPLY 3 PTL_NI_OK",
               "PTL_EVENT_REPLY 4 PTL_NI_OK"};
  EXPECT_EQ(sorted(r[1]["ini"]), no_send);
  EXPECT_EQ(sorted(r[2]["ini"]), V{"PTL_EVENT_ACK 5 PTL_NI_DROPPED"}); // failures still reported
  EXPECT_EQ(sorted(r[0]["tgt"]), (V{"PTL_EVENT_FETCH_ATOMIC", "PTL_EVENT_GET", "PTL_EVENT_PUT", "PTL_EVENT_PUT"}));
}

TEST(PortalsEq, TargetEventOptionsUseOnceAndLink)
{
  nlohmann::json r;
  for (std::uint32_t opt : {unsigned(LE_USE_ONCE), unsigned(LE_USE_ONCE | LE_EVENT_UNLINK_DISABLE),
                            unsigned(LE_USE_ONCE | LE_EVENT_COMM_DISABLE | LE_EVENT_LINK_DISABLE),
                            unsigned(LE_USE_ONCE | LE_EVENT_SUCCESS_DISABLE)}) {
    r.push_back(isolated([opt] {
      EqRig s(0, LE_OP_PUT | opt);
      s.c.sim->spawn("sender", 0, [&] {
        s.c.ni(0).put(s.md, 0, 8, AckReq::CtAck, kTarget, kPt, 0);
        CtEvent ev;
        s.c.ni(0).ct_wait(s.md_ct, 1, &ev);
        s.c.sim->sleep_for(1'000'000);
      });
      s.c.sim->run();
      nlohmann::json t = nlohmann::json::array();
      for (const auto& e : s.drain(kTarget, s.teq))
        t.push_back(e["type"]);
      return t;
    }));
  }
  EXPECT_EQ(r[0], nlohmann::json({"PTL_EVENT_LINK", "PTL_EVENT_PUT", "PTL_EVENT_AUTO_UNLINK"}));
  EXPECT_EQ(r[1], nlohmann::json({"PTL_EVENT_LINK", "PTL_EVENT_PUT"}));
  EXPECT_EQ(r[2], nlohmann::json({"PTL_EVENT_AUTO_UNLINK"}));
  EXPECT_EQ(r[3], nlohmann::json({"PTL_EVENT_LINK", "PTL_EVENT_AUTO_UNLINK"}));
}

TEST(PortalsEq, AFullQueueOverwritesItsOldestAndTheNextGetSaysDropped)
{
  auto r = isolated([] {
    EqRig s(0, LE_OP_PUT | LE_EVENT_LINK_DISABLE, 0, /*teq_count=*/2);
    s.c.sim->spawn("sender", 0, [&] {
      for (std::uint64_t k = 1; k <= 3; ++k) { // one at a time: events in this order
        s.c.ni(0).put(s.md, 0, 8, AckReq::CtAck, kTarget, kPt, 0, 0, /*hdr_data=*/k);
        CtEvent ev;
        s.c.ni(0).ct_wait(s.md_ct, k, &ev);
      }
      s.c.sim->sleep_for(1'000'000);
    });
    s.c.sim->run();
    nlohmann::json j;
    j["events"]  = s.drain(kTarget, s.teq);
    j["dropped"] = s.c.ni(kTarget).usage().events_dropped;
    j["posted"]  = s.c.ni(kTarget).usage().events_posted;
    return j;
  });
  ASSERT_EQ(r["events"].size(), 2u);
  EXPECT_EQ(r["events"][0]["status"], "PTL_EQ_DROPPED"); // the first put's event was lost
  EXPECT_EQ(r["events"][0]["hdr_data"], 2);
  EXPECT_EQ(r["events"][1]["status"], "PTL_OK");
  EXPECT_EQ(r["events"][1]["hdr_data"], 3);
  EXPECT_EQ(r["dropped"], 1);
  EXPECT_EQ(r["posted"], 3);
}

TEST(PortalsEq, FlowControlDisablesTheEntryDropsTheMessageAndPtlPTEnableReenables)
{
  auto r = isolated([] {
    EqRig s(0, LE_OP_PUT | LE_EVENT_LINK_DISABLE, PT_FLOWCTRL, /*teq_count=*/1);
    nlohmann::json j;
    s.c.sim->spawn("sender", 0, [&] {
      auto& ni = s.c.ni(0);
      auto put = [&](std::uint64_t k, std::byte fill) {
        std::memset(s.src.data(), static_cast<int>(fill), 8);
        ni.put(s.md, 0, 8, AckReq::Ack, kTarget, kPt, 8 * k, k);
        CtEvent ev;
        ni.ct_wait(s.md_ct, k + 1, &ev);
      };
      put(0, std::byte{0xA0});       // its PUT event fills the target's EQ (1 slot)
      put(1, std::byte{0xA1});       // no room: the entry is disabled, the put dropped
      put(2, std::byte{0xA2});       // still disabled: dropped, no second PT_DISABLED
      s.c.sim->sleep_for(1'000'000); // the last ACK's event lands
      j["initiator"] = s.drain(0, s.ieq);
      j["target"]    = s.drain(kTarget, s.teq);                   // the host drains the EQ...
      j["enable"]    = to_string(s.c.ni(kTarget).pt_enable(kPt)); // ...and re-enables the entry
      put(3, std::byte{0xA3});
      s.c.sim->sleep_for(1'000'000);
      j["after"] = s.drain(kTarget, s.teq);
    });
    s.c.sim->run();
    j["bytes"] = {static_cast<int>(s.dst[0]), static_cast<int>(s.dst[8]), static_cast<int>(s.dst[16]),
                  static_cast<int>(s.dst[24])};
    j["usage"] = {s.c.ni(kTarget).usage().pt_disabled, s.c.ni(kTarget).usage().pt_disabled_drops};
    return j;
  });
  EXPECT_EQ(r["bytes"], nlohmann::json({0xA0, 0, 0, 0xA3}));
  std::vector<std::string> acks;
  for (const auto& e : r["initiator"])
    if (e["type"] == "PTL_EVENT_ACK")
      acks.push_back(e["fail"]);
  EXPECT_EQ(acks, (std::vector<std::string>{"PTL_NI_OK", "PTL_NI_PT_DISABLED", "PTL_NI_PT_DISABLED"}));
  ASSERT_EQ(r["target"].size(), 2u);
  EXPECT_EQ(r["target"][0]["type"], "PTL_EVENT_PUT");
  EXPECT_EQ(r["target"][1]["type"], "PTL_EVENT_PT_DISABLED"); // in the slot reserved for it: nothing lost
  EXPECT_EQ(r["target"][1]["status"], "PTL_OK");
  EXPECT_EQ(r["target"][1]["user_ptr"], kLePtr);
  EXPECT_EQ(r["target"][1]["initiator"], 0);
  EXPECT_EQ(r["enable"], "PTL_OK");
  ASSERT_EQ(r["after"].size(), 1u);
  EXPECT_EQ(r["after"][0]["type"], "PTL_EVENT_PUT");
  EXPECT_EQ(r["usage"], nlohmann::json({1, 2}));
}

TEST(PortalsEq, PollTimeoutWhichRoundRobinAndInterrupted)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    auto& ni = c.ni(0);
    EqHandle q[2];
    ni.eq_alloc(4, &q[0]);
    ni.eq_alloc(4, &q[1]);
    std::vector<std::byte> buf(64);
    CtHandle ct;
    ni.ct_alloc(&ct);
    MdHandle md[2];
    ni.md_bind(MdDesc{buf.data(), 64, 0, CT_NONE, q[0]}, &md[0]);
    ni.md_bind(MdDesc{buf.data(), 64, 0, CT_NONE, q[1]}, &md[1]);
    std::vector<std::byte> dst(64);
    std::uint32_t pt;
    c.ni(3).pt_alloc(0, &pt);
    LeHandle le;
    c.ni(3).le_append(0, LeDesc{dst.data(), 64, LE_OP_PUT}, &le);
    nlohmann::json j;
    c.sim->spawn("poller", 0, [&] {
      Event e;
      int which    = -1;
      j["zero"]    = to_string(ni.eq_poll(q, 2, 0, &e, &which));
      const Ps t0  = c.sim->queue().now();
      j["timeout"] = to_string(ni.eq_poll(q, 2, 3'000'000, &e, &which));
      j["waited"]  = c.sim->queue().now() - t0;
      ni.put(md[1], 0, 8, AckReq::NoAck, 3, 0, 0, 21);
      j["one"]   = to_string(ni.eq_poll(q, 2, TIME_FOREVER, &e, &which));
      j["which"] = {which};
      ni.put(md[0], 0, 8, AckReq::NoAck, 3, 0, 0, 1);
      ni.put(md[1], 0, 8, AckReq::NoAck, 3, 0, 0, 2);
      c.sim->sleep_for(2'000'000);
      for (int k = 0; k < 2; ++k) { // both ready: round-robin from where the last left off
        ni.eq_poll(q, 2, TIME_FOREVER, &e, &which);
        j["which"].push_back(which);
      }
      // Freed while waited on: PTL_INTERRUPTED.
      j["wait"] = to_string(ni.eq_wait(q[0], &e));
    });
    c.sim->spawn("freer", 0, [&] {
      c.sim->sleep_for(10'000'000);
      Event e;
      j["get_while_waited"] = to_string(ni.eq_get(q[0], &e));
      j["free_in_use"]      = to_string(ni.eq_free(q[0]));
      j["free_in_use_why"]  = ni.last_error();
      ni.md_release(md[0]);
      j["free"] = to_string(ni.eq_free(q[0]));
    });
    c.sim->run();
    return j;
  });
  EXPECT_EQ(r["zero"], "PTL_EQ_EMPTY");
  EXPECT_EQ(r["timeout"], "PTL_EQ_EMPTY");
  EXPECT_EQ(r["waited"], 3'000'000);
  EXPECT_EQ(r["one"], "PTL_OK");
  EXPECT_EQ(r["which"], nlohmann::json({1, 0, 1}));
  EXPECT_EQ(r["get_while_waited"], "PTL_EQ_EMPTY");
  EXPECT_EQ(r["free_in_use"], "PTL_IN_USE");
  EXPECT_EQ(r["free_in_use_why"], "PtlEQFree: memory descriptor 0 still uses this event queue");
  EXPECT_EQ(r["free"], "PTL_OK");
  EXPECT_EQ(r["wait"], "PTL_INTERRUPTED");
}

TEST(PortalsEq, LimitsAndBadArguments)
{
  auto r = isolated([] {
    Cluster c;
    c.limits.max_eqs = 2;
    c.build();
    auto& ni = c.ni(0);
    EqHandle a, b, d;
    nlohmann::json j;
    j["zero"] = to_string(ni.eq_alloc(0, &a));
    ni.eq_alloc(8, &a);
    ni.eq_alloc(4, &b);
    j["third"]     = to_string(ni.eq_alloc(4, &d));
    j["third_why"] = ni.last_error();
    std::uint32_t pt;
    j["flowctrl_no_eq"] = to_string(ni.pt_alloc(PT_FLOWCTRL, EQ_NONE, 3, &pt));
    j["bad_eq"]         = to_string(ni.pt_alloc(0, EqHandle{9}, 3, &pt));
    ni.pt_alloc(PT_FLOWCTRL, a, 3, &pt);
    j["slots"]  = ni.usage().eq_slots; // 8 + 4 + 1 reserved for PT_DISABLED
    j["free_a"] = to_string(ni.eq_free(a));
    std::vector<std::byte> buf(8);
    LeHandle le;
    ni.le_append(3, LeDesc{buf.data(), 8, LE_OP_PUT}, &le);
    j["pt_free"] = to_string(ni.pt_free(3));
    ni.le_unlink(le);
    j["pt_free2"] = to_string(ni.pt_free(3));
    j["free_a2"]  = to_string(ni.eq_free(a));
    j["again"]    = to_string(ni.eq_alloc(4, &d));
    Event e;
    j["get_bad"]   = to_string(ni.eq_get(EqHandle{7}, &e));
    j["get_empty"] = to_string(ni.eq_get(d, &e));
    MdHandle md;
    j["md_bad_eq"] = to_string(ni.md_bind(MdDesc{buf.data(), 8, 0, CT_NONE, EqHandle{5}}, &md));
    j["peak"]      = {ni.usage().eqs_peak, ni.usage().eq_slots_peak, ni.usage().eqs};
    return j;
  });
  EXPECT_EQ(r["zero"], "PTL_ARG_INVALID");
  EXPECT_EQ(r["third"], "PTL_NO_SPACE");
  EXPECT_EQ(r["third_why"], "max_eqs (2) event queues already allocated");
  EXPECT_EQ(r["flowctrl_no_eq"], "PTL_PT_EQ_NEEDED");
  EXPECT_EQ(r["bad_eq"], "PTL_ARG_INVALID");
  EXPECT_EQ(r["slots"], 13);
  EXPECT_EQ(r["free_a"], "PTL_IN_USE");
  EXPECT_EQ(r["pt_free"], "PTL_PT_IN_USE");
  EXPECT_EQ(r["pt_free2"], "PTL_OK");
  EXPECT_EQ(r["free_a2"], "PTL_OK");
  EXPECT_EQ(r["again"], "PTL_OK");
  EXPECT_EQ(r["get_bad"], "PTL_ARG_INVALID");
  EXPECT_EQ(r["get_empty"], "PTL_EQ_EMPTY");
  EXPECT_EQ(r["md_bad_eq"], "PTL_ARG_INVALID");
  EXPECT_EQ(r["peak"], nlohmann::json({2, 13, 2}));
}

TEST(PortalsEq, NoListEntryTripsFlowControlAndPtlPTDisablePostsNothing)
{
  auto r = isolated([] {
    Cluster c;
    c.build();
    auto& ni = c.ni(0);
    auto& t  = c.ni(kTarget);
    EqHandle ieq, teq;
    ni.eq_alloc(8, &ieq);
    t.eq_alloc(8, &teq);
    std::vector<std::byte> buf(8), dst(8);
    MdHandle md;
    ni.md_bind(MdDesc{buf.data(), 8, 0, CT_NONE, ieq}, &md);
    std::uint32_t pt;
    t.pt_alloc(PT_FLOWCTRL, teq, 2, &pt); // no list entry on it
    t.pt_alloc(0, teq, 3, &pt);
    LeHandle le;
    t.le_append(3, LeDesc{dst.data(), 8, LE_OP_PUT | LE_EVENT_LINK_DISABLE}, &le);
    nlohmann::json j;
    j["disable"] = to_string(t.pt_disable(3));
    c.sim->spawn("sender", 0, [&] {
      ni.put(md, 0, 8, AckReq::Ack, kTarget, 2, 0, 1);
      ni.put(md, 0, 8, AckReq::Ack, kTarget, 3, 0, 2);
      c.sim->sleep_for(100'000'000); // 100 us: both ACKs are back
    });
    c.sim->run();
    nlohmann::json acks = nlohmann::json::array(), tgt = nlohmann::json::array();
    Event e;
    for (Status s; (s = ni.eq_get(ieq, &e)) != Status::EqEmpty;)
      if (e.type == EventKind::Ack)
        acks.push_back(std::to_string(e.user_ptr) + " " + to_string(e.ni_fail_type));
    for (Status s; (s = t.eq_get(teq, &e)) != Status::EqEmpty;)
      tgt.push_back(std::string(to_string(e.type)) + " " + std::to_string(e.pt_index));
    j["acks"] = acks;
    j["tgt"]  = tgt;
    j["byte"] = static_cast<int>(dst[0]);
    return j;
  });
  EXPECT_EQ(r["disable"], "PTL_OK");
  std::vector<std::string> acks = r["acks"].get<std::vector<std::string>>();
  std::sort(acks.begin(), acks.end());
  EXPECT_EQ(acks, (std::vector<std::string>{"1 PTL_NI_PT_DISABLED", "2 PTL_NI_PT_DISABLED"}));
  // Only the flow-controlled entry posts PTL_EVENT_PT_DISABLED; PtlPTDisable's caller knows.
  EXPECT_EQ(r["tgt"], nlohmann::json({"PTL_EVENT_PT_DISABLED 2"}));
  EXPECT_EQ(r["byte"], 0);
}
