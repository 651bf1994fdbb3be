#include "shmem_front/transport/TriggeredSync.hpp"

#include "sim/Simulation.hpp"

#include <utility>

namespace shmemsim::front {

using portals::Status;

namespace {
/// The tree of the host-driven tree barrier (collectives.cpp, sync_tree): member r's subtree spans
/// r .. r + lowbit(r) - 1 (the root's: every member); its children are r + 1, r + 2, r + 4, ...
/// below that span.
std::vector<int> children_of(int r, int n)
{
  const unsigned u     = static_cast<unsigned>(r);
  const unsigned limit = r == 0 ? static_cast<unsigned>(n) : u & (~u + 1); // lowbit(r)
  std::vector<int> kids;
  for (unsigned m = 1; m < limit && r + static_cast<int>(m) < n; m <<= 1)
    kids.push_back(r + static_cast<int>(m));
  return kids;
}
int parent_of(int r)
{
  const unsigned u = static_cast<unsigned>(r);
  return r - static_cast<int>(u & (~u + 1));
}
} // namespace

TriggeredSync::TriggeredSync(portals::Network& net, std::function<void(const std::string&)> fatal)
    : net_(net), fatal_(std::move(fatal)), mds_(static_cast<std::size_t>(net.endpoints())),
      md_words_(static_cast<std::size_t>(net.endpoints()))
{
}

void TriggeredSync::check(Status s, portals::Ni& ni, const char* what, int owner)
{
  if (s != Status::Ok) // the message is built only on failure: this runs on every barrier
    fatal_(
        "job.collectives.barrier=triggered: " + (owner >= 0 ? "PE " + std::to_string(owner) + "'s " : std::string()) +
        what + ": " + ni.last_error() + " (raise platform.nic.limits, or use another barrier algorithm)");
}

portals::MdHandle TriggeredSync::send_md(int pe)
{
  auto& md = mds_[static_cast<std::size_t>(pe)];
  if (md.index < 0) {
    portals::Ni& ni = net_.ni(pe);
    check(ni.md_bind(portals::MdDesc{&md_words_[static_cast<std::size_t>(pe)], sizeof(std::uint64_t),
                                     portals::MD_VOLATILE, portals::CT_NONE},
                     &md),
          ni, "binding the send MD");
  }
  return md;
}

TriggeredSync::Group& TriggeredSync::group_of(const PeList& members)
{
  std::vector<int> key(members.size());
  for (std::size_t i = 0; i < key.size(); ++i)
    key[i] = members[i];
  auto it = groups_.find(key);
  if (it != groups_.end())
    return it->second;
  Group g;
  g.gather_pt  = next_pt_++;
  g.release_pt = next_pt_++;
  g.sides.resize(key.size());
  const std::uint32_t opts = portals::LE_OP_PUT | portals::LE_EVENT_CT_COMM;
  for (std::size_t i = 0; i < key.size(); ++i) {
    const int pe    = key[i];
    portals::Ni& ni = net_.ni(pe);
    Side& s         = g.sides[i];
    std::uint32_t pt;
    portals::LeHandle le;
    check(ni.ct_alloc(&s.gather), ni, "gather counter", pe);
    check(ni.ct_alloc(&s.release), ni, "release counter", pe);
    check(ni.pt_alloc(g.gather_pt, &pt), ni, "gather portal table entry", pe);
    check(ni.pt_alloc(g.release_pt, &pt), ni, "release portal table entry", pe);
    check(ni.le_append(g.gather_pt, portals::LeDesc{nullptr, 0, opts, s.gather}, &le), ni, "gather entry", pe);
    check(ni.le_append(g.release_pt, portals::LeDesc{nullptr, 0, opts, s.release}, &le), ni, "release entry", pe);
  }
  return groups_.emplace(std::move(key), std::move(g)).first->second;
}

void TriggeredSync::run(const PeList& members, int me)
{
  Group& g                    = group_of(members);
  Side& s                     = g.sides[static_cast<std::size_t>(me)];
  const int n                 = static_cast<int>(members.size());
  const int pe                = members[static_cast<std::size_t>(me)];
  portals::Ni& ni             = net_.ni(pe);
  const auto kids             = children_of(me, n);
  const std::uint64_t k       = ++s.barriers;
  const std::uint64_t arrived = k * (kids.size() + 1);
  const portals::MdHandle md  = send_md(pe);
  const auto to               = [&](int r) { return members[static_cast<std::size_t>(r)]; };
  int posted                  = 0;
  if (me != 0) {
    check(ni.triggered_put(md, 0, 0, portals::AckReq::NoAck, to(parent_of(me)), g.gather_pt, 0, s.gather, arrived), ni,
          "PtlTriggeredPut to its parent");
    ++posted;
  }
  for (int kid : kids) {
    const portals::CtHandle trig = me == 0 ? s.gather : s.release;
    check(ni.triggered_put(md, 0, 0, portals::AckReq::NoAck, to(kid), g.release_pt, 0, trig, me == 0 ? arrived : k), ni,
          "PtlTriggeredPut to a child");
    ++posted;
  }
  // The host's part: the calls that post the operations and the one that counts its arrival.
  net_.simulation().busy_for(static_cast<Ps>(posted + 1) * ni.initiate_overhead());
  check(ni.ct_inc(s.gather, portals::CtEvent{1, 0}), ni, "PtlCTInc of its arrival");
  portals::CtEvent ev;
  if (me == 0)
    check(ni.ct_wait(s.gather, arrived, &ev, "a triggered barrier's arrivals"), ni, "PtlCTWait");
  else
    check(ni.ct_wait(s.release, k, &ev, "a triggered barrier's release"), ni, "PtlCTWait");
}

} // namespace shmemsim::front
