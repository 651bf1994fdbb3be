#include "shmem_front/transport/TriggeredSync.hpp"

#include "base/Assert.hpp"
#include "shmem_front/transport/TriggeredTree.hpp"
#include "sim/Simulation.hpp"

#include <utility>

namespace shmemsim::front {

using portals::Status;

namespace {
constexpr const char* kBarrier = "job.collectives.barrier=triggered";
} // namespace

TriggeredSync::TriggeredSync(portals::Network& net, const std::vector<PeMemory>& memory,
                             std::function<void(const std::string&)> fatal)
    : net_(net), memory_(memory), fatal_(std::move(fatal)), pes_(static_cast<std::size_t>(net.endpoints())),
      md_words_(static_cast<std::size_t>(net.endpoints()))
{
}

bool TriggeredSync::ListLess::operator()(const PeList& a, const PeList& b) const
{
  if (a.size() != b.size())
    return a.size() < b.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i])
      return a[i] < b[i];
  return false;
}

void TriggeredSync::observe(ShmemObserver* obs, std::function<int()> thread)
{
  obs_    = obs;
  thread_ = std::move(thread);
}

void TriggeredSync::charge(int pe, portals::MdHandle md, portals::MdHandle md2, int calls, int incs)
{
  if (host_calls_) {
    host_calls_(pe, md, md2, calls, incs);
    return;
  }
  net_.simulation().busy_for(static_cast<Ps>(calls + incs) * net_.ni(pe).initiate_overhead());
}

void TriggeredSync::wait(portals::Ni& ni, portals::CtHandle ct, std::uint64_t target, const char* reason,
                         const char* kind, const PeList& members, const char* key)
{
  const int thr = obs_ != nullptr ? thread_() : 0;
  if (obs_ != nullptr) // the name is built only when someone listens
    obs_->wait_begin(net_.simulation().queue().now(), ni.id(), thr, -1, ct.index,
                     (std::string(kind) + "@" + members.text()).c_str(), target);
  portals::CtEvent ev;
  check(ni.ct_wait(ct, target, &ev, reason), ni, key, "PtlCTWait");
  SHMEMSIM_OBSERVE(obs_, wait_end(net_.simulation().queue().now(), ni.id(), thr, target));
}

void TriggeredSync::check(Status s, portals::Ni& ni, const char* key, const char* what, int owner)
{
  if (s != Status::Ok) // the message is built only on failure: this runs on every call
    fatal_(std::string(key) + ": " + (owner >= 0 ? "PE " + std::to_string(owner) + "'s " : std::string()) + what +
           ": " + ni.last_error() + " (raise platform.nic.limits, or use another algorithm)");
}

portals::MdHandle TriggeredSync::send_md(int pe)
{
  auto& md = pes_[static_cast<std::size_t>(pe)].md;
  if (md.index < 0) {
    portals::Ni& ni = net_.ni(pe);
    check(ni.md_bind(portals::MdDesc{&md_words_[static_cast<std::size_t>(pe)], sizeof(std::uint64_t),
                                     portals::MD_VOLATILE, portals::CT_NONE},
                     &md),
          ni, kBarrier, "binding the send MD");
  }
  return md;
}

std::uint32_t TriggeredSync::take_pt()
{
  if (free_pts_.empty())
    return next_pt_++;
  const std::uint32_t pt = *free_pts_.begin();
  free_pts_.erase(free_pts_.begin());
  return pt;
}

TriggeredSync::Group& TriggeredSync::group_of(const PeList& members)
{
  auto it = groups_.find(members);
  if (it != groups_.end())
    return it->second;
  Group g;
  g.gather_pt  = take_pt();
  g.release_pt = take_pt();
  g.sides.resize(members.size());
  g.left.assign(members.size(), false);
  const std::uint32_t opts = portals::LE_OP_PUT | portals::LE_EVENT_CT_COMM;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int pe    = members[i];
    portals::Ni& ni = net_.ni(pe);
    Side& s         = g.sides[i];
    std::uint32_t pt;
    check(ni.ct_alloc(&s.gather), ni, kBarrier, "gather counter", pe);
    check(ni.ct_alloc(&s.release), ni, kBarrier, "release counter", pe);
    check(ni.pt_alloc(g.gather_pt, &pt), ni, kBarrier, "gather portal table entry", pe);
    check(ni.pt_alloc(g.release_pt, &pt), ni, kBarrier, "release portal table entry", pe);
    check(ni.le_append(g.gather_pt, portals::LeDesc{nullptr, 0, opts, s.gather}, &s.gather_le), ni, kBarrier,
          "gather entry", pe);
    check(ni.le_append(g.release_pt, portals::LeDesc{nullptr, 0, opts, s.release}, &s.release_le), ni, kBarrier,
          "release entry", pe);
    ++pes_[static_cast<std::size_t>(pe)].groups;
  }
  return groups_.emplace(members, std::move(g)).first->second;
}

TriggeredSync::Pending TriggeredSync::post_barrier(const PeList& members, int me)
{
  Group& g                    = group_of(members);
  Side& s                     = g.sides[static_cast<std::size_t>(me)];
  const int n                 = static_cast<int>(members.size());
  const int pe                = members[static_cast<std::size_t>(me)];
  portals::Ni& ni             = net_.ni(pe);
  const TreeKids kids(me, n);
  const std::uint64_t k       = ++s.barriers;
  ++s.calls;
  const std::uint64_t per     = static_cast<std::uint64_t>(kids.size()) + 1;
  const std::uint64_t arrived = k * per;
  const portals::MdHandle md  = send_md(pe);
  const auto to               = [&](int r) { return members[static_cast<std::size_t>(r)]; };
  int posted                  = 0;
  if (me == 0)
    ++barriers_;
  if (me != 0) {
    check(ni.triggered_put(md, 0, 0, portals::AckReq::NoAck, to(tree_parent(me)), g.gather_pt, 0, s.gather, arrived),
          ni, kBarrier, "PtlTriggeredPut to its parent");
    ++posted;
  }
  for (int i = 0; i < kids.size(); ++i) {
    const portals::CtHandle trig = me == 0 ? s.gather : s.release;
    check(ni.triggered_put(md, 0, 0, portals::AckReq::NoAck, to(kids[i]), g.release_pt, 0, trig,
                           me == 0 ? arrived : k),
          ni, kBarrier, "PtlTriggeredPut to a child");
    ++posted;
  }
  // The host's part: the calls that post the operations and the one that counts its arrival.
  posted_ += static_cast<std::uint64_t>(posted + 1);
  charge(pe, md, portals::MdHandle{}, posted, 1);
  // Its arrival counts at once when its previous barrier on the list is complete here (always, in
  // blocking barriers). A non-blocking one still outstanding: the NIC holds the increment until it
  // is (PtlTriggeredCTInc), so that an arrival never counts toward an earlier barrier (the
  // children's next arrivals come after their release, itself after this PE's previous gather).
  const portals::CtHandle done = me == 0 ? s.gather : s.release;
  const std::uint64_t before   = me == 0 ? (k - 1) * per : k - 1;
  portals::CtEvent ev;
  ni.ct_get(done, &ev);
  if (ev.success + ev.failure >= before)
    check(ni.ct_inc(s.gather, portals::CtEvent{1, 0}), ni, kBarrier, "PtlCTInc of its arrival");
  else
    check(ni.triggered_ct_inc(s.gather, portals::CtEvent{1, 0}, done, before), ni, kBarrier,
          "PtlTriggeredCTInc of its arrival");
  if (me == 0)
    return Pending{pe, s.gather, arrived, "a triggered barrier's arrivals", members};
  return Pending{pe, s.release, k, "a triggered barrier's release", members};
}

void TriggeredSync::finish_barrier(const Pending& p)
{
  wait(net_.ni(p.pe), p.ct, p.target, p.reason, "barrier", p.members, kBarrier);
}

void TriggeredSync::run(const PeList& members, int me)
{
  finish_barrier(post_barrier(members, me));
}

std::uint64_t TriggeredSync::start_barrier(const PeList& members, int me)
{
  const std::uint64_t id = next_pending_++;
  pending_.emplace(id, post_barrier(members, me));
  return id;
}

bool TriggeredSync::test_barrier(std::uint64_t id)
{
  auto it = pending_.find(id);
  SHMEMSIM_ASSERT(it != pending_.end(), "a non-blocking triggered barrier tested after its completion");
  portals::CtEvent ev;
  net_.ni(it->second.pe).ct_get(it->second.ct, &ev);
  if (ev.success + ev.failure < it->second.target)
    return false;
  pending_.erase(it);
  return true;
}

void TriggeredSync::wait_barrier(std::uint64_t id)
{
  auto it = pending_.find(id);
  SHMEMSIM_ASSERT(it != pending_.end(), "a non-blocking triggered barrier waited for after its completion");
  const Pending p = it->second;
  pending_.erase(it);
  finish_barrier(p);
}

void TriggeredSync::release(const PeList& members, int me)
{
  auto it = groups_.find(members);
  if (it == groups_.end())
    return; // no offloaded collective ran on this member list since it was last freed
  Group& g = it->second;
  SHMEMSIM_ASSERT(!g.left[static_cast<std::size_t>(me)], "a PE leaves an offloaded group twice");
  g.left[static_cast<std::size_t>(me)] = true;
  if (++g.leaving < static_cast<int>(members.size()))
    return;
  // Every member is in its team's destruction, past a barrier of the members: none of its
  // collectives' messages is in flight. Unless a member has begun another collective on the same
  // list since (its calls are ahead), none runs and no triggered operation waits.
  g.leaving = 0;
  g.left.assign(g.left.size(), false);
  for (const Side& s : g.sides)
    if (s.calls != g.sides.front().calls)
      return; // still in use: kept for the list's other users
  free_group(it->first, g);
  groups_.erase(it);
}

void TriggeredSync::free_group(const PeList& members, Group& g)
{
  constexpr const char* kFree = "freeing an offloaded group";
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int pe    = members[i];
    portals::Ni& ni = net_.ni(pe);
    Side& s         = g.sides[i];
    check(ni.le_unlink(s.gather_le), ni, kFree, "gather entry", pe);
    check(ni.le_unlink(s.release_le), ni, kFree, "release entry", pe);
    check(ni.pt_free(g.gather_pt), ni, kFree, "gather portal table entry", pe);
    check(ni.pt_free(g.release_pt), ni, kFree, "release portal table entry", pe);
    check(ni.ct_free(s.gather), ni, kFree, "gather counter", pe);
    check(ni.ct_free(s.release), ni, kFree, "release counter", pe);
    if (g.bcast) {
      for (int r = 0; r < 2; ++r) {
        check(ni.le_unlink(s.data_le[r]), ni, kFree, "broadcast data entry", pe);
        check(ni.pt_free(g.data_pt[r]), ni, kFree, "broadcast portal table entry", pe);
      }
      check(ni.ct_free(s.data), ni, kFree, "broadcast data counter", pe);
    }
    if (g.red) {
      check(ni.le_unlink(s.red_le), ni, kFree, "reduction scratch entry", pe);
      check(ni.pt_free(g.red_pt), ni, kFree, "reduction portal table entry", pe);
      check(ni.ct_free(s.red), ni, kFree, "reduction counter", pe);
    }
    if (--pes_[static_cast<std::size_t>(pe)].groups == 0)
      free_pe(pe);
  }
  free_pts_.insert(g.gather_pt);
  free_pts_.insert(g.release_pt);
  if (g.bcast) {
    free_pts_.insert(g.data_pt[0]);
    free_pts_.insert(g.data_pt[1]);
  }
  if (g.red)
    free_pts_.insert(g.red_pt);
}

void TriggeredSync::free_pe(int pe)
{
  constexpr const char* kFree = "freeing an offloaded group";
  PeSide& p                   = pes_[static_cast<std::size_t>(pe)];
  portals::Ni& ni             = net_.ni(pe);
  if (p.md.index >= 0)
    check(ni.md_release(p.md), ni, kFree, "barrier send MD", pe);
  if (p.bcast_md.index >= 0) {
    check(ni.md_release(p.bcast_md), ni, kFree, "broadcast MD", pe);
    check(ni.ct_free(p.sent), ni, kFree, "broadcast send counter", pe);
  }
  if (p.ack_md.index >= 0) {
    check(ni.md_release(p.ack_md), ni, kFree, "reduction MD", pe);
    check(ni.ct_free(p.acked), ni, kFree, "reduction ACK counter", pe);
  }
  p = PeSide{};
}

} // namespace shmemsim::front
