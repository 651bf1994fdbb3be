// Seed 003's non-blocking broadcasts and reductions run by the NICs (TriggeredSync.hpp).
//
// The blocking forms tell consecutive calls on a member list apart by count only: a PE's data CT
// counts every broadcast's data, and its NIC forwards its dest when the count reaches the number
// of calls it has received. With several calls outstanding, the data of a later call (another
// root, another tree, or the same tree with unordered delivery) can land first and the count would
// release the forwarding of the earlier call's dest, not yet written. So each outstanding call gets
// resources of its own, on every member: a lane (TriggeredSync::Lane), a PT whose list entry covers
// the region of dest counted by a CT of the call's (and, for reductions, a scratch area on another
// PT, counted by another CT). Its thresholds are then the call's own: 1 for its data, c and 2c for
// a reduction's children's contributions and their combination. The lanes are counted against the
// NICs' limits (max_cts, max_pt_index, max_entries): a call beyond them stops the run with one line
// naming the limit, as the blocking forms do.
#include "shmem_front/transport/TriggeredSync.hpp"

#include "base/Assert.hpp"
#include "shmem_front/transport/Address.hpp"
#include "shmem_front/transport/TriggeredTree.hpp"

#include <algorithm>
#include <cstring>

namespace shmemsim::front {

namespace {
constexpr const char* kBcast  = "job.collectives.broadcast=triggered";
constexpr const char* kReduce = "job.collectives.reduce=triggered";
} // namespace

TriggeredSync::Lane& TriggeredSync::lane_of(const PeList& members, Group& g, std::uint64_t k, bool reduce, int region,
                                            const char* key)
{
  auto it = g.lanes.find(k);
  if (it != g.lanes.end()) {
    Lane& l = it->second;
    if (l.reduce != reduce || l.region != region)
      fatal_(std::string(key) + ": non-blocking collective #" + std::to_string(k) + " on the active set " +
             members.text() + " is not the same call on every PE (another kind, or dest in another region)");
    return l;
  }
  // The first member to start the call sets it up on every member's NIC, so that no message of
  // the call can arrive before its entry exists.
  Lane l;
  l.reduce = reduce;
  l.region = region;
  l.data_pt = take_pt();
  if (reduce) {
    l.red_pt = take_pt();
    l.slot   = (net_.ni(members[0]).limits().max_atomic_size + 7) / 8 * 8;
  }
  l.parts.resize(members.size());
  const std::uint32_t opts = portals::LE_OP_PUT | portals::LE_EVENT_CT_COMM;
  const int n              = static_cast<int>(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int pe      = members[i];
    portals::Ni& ni   = net_.ni(pe);
    LanePart& part    = l.parts[i];
    const PeMemory& m = memory_[static_cast<std::size_t>(pe)];
    std::uint32_t pt;
    check(ni.ct_alloc(&part.data), ni, key, "non-blocking call's data counter", pe);
    check(ni.pt_alloc(l.data_pt, &pt), ni, key, "non-blocking call's data portal table entry", pe);
    const portals::LeDesc data = region == 0 ? portals::LeDesc{m.data, m.data_size, opts, part.data}
                                             : portals::LeDesc{m.heap, m.heap_size, opts, part.data};
    check(ni.le_append(l.data_pt, data, &part.data_le), ni, key, "non-blocking call's data entry", pe);
    if (reduce) {
      const auto kids = static_cast<std::uint64_t>(TreeKids(static_cast<int>(i), n).size());
      part.scratch.assign((kids + 1) * l.slot, std::byte{0});
      check(ni.ct_alloc(&part.red), ni, key, "non-blocking reduction's counter", pe);
      check(ni.pt_alloc(l.red_pt, &pt), ni, key, "non-blocking reduction's portal table entry", pe);
      check(ni.le_append(l.red_pt, portals::LeDesc{part.scratch.data(), part.scratch.size(), opts, part.red},
                         &part.red_le),
            ni, key, "non-blocking reduction's scratch entry", pe);
    }
  }
  return g.lanes.emplace(k, std::move(l)).first->second;
}

std::uint64_t TriggeredSync::open_call(const PeList& members, int me, Group& g)
{
  Side& s = g.sides[static_cast<std::size_t>(me)];
  ++s.calls;
  ++s.nb_open;
  nb_peak_ = std::max(nb_peak_, s.nb_open);
  if (me == 0)
    ++nb_calls_;
  (void)members;
  return ++s.nb;
}

std::uint64_t TriggeredSync::start_broadcast(const PeList& members, int me, void* dest, const void* source,
                                             std::size_t bytes, int root, const char** why)
{
  const int pe    = members[static_cast<std::size_t>(me)];
  portals::Ni& ni = net_.ni(pe);
  if (bytes > ni.limits().max_msg_size) {
    *why = "the data exceed platform.nic.limits.max_msg_size (one message per child)";
    return 0;
  }
  std::uint64_t off = 0;
  const int region  = region_of(pe, dest, bytes, kBcast, &off);
  Group& g          = group_of(members);
  const std::uint64_t k = open_call(members, me, g);
  Lane& l           = lane_of(members, g, k, false, region, kBcast);
  LanePart& part    = l.parts[static_cast<std::size_t>(me)];
  PeSide& p         = bcast_side(pe);
  const int n       = static_cast<int>(members.size());
  const int rel     = (me - root + n) % n;
  const TreeKids kids(rel, n);
  const auto to = [&](int r) { return members[static_cast<std::size_t>((r + root) % n)]; };
  if (rel == 0) {
    ++broadcasts_;
    for (int i = kids.size() - 1; i >= 0; --i) // largest subtree first, as the host-driven tree
      check(ni.put(p.bcast_md, addr(source), bytes, portals::AckReq::NoAck, to(kids[i]), l.data_pt, off), ni, kBcast,
            "PtlPut to a child");
  } else {
    posted_ += static_cast<std::uint64_t>(kids.size());
    // Forwarded the moment this call's data land: its own counter, its own threshold.
    for (int i = kids.size() - 1; i >= 0; --i)
      check(ni.triggered_put(p.bcast_md, addr(dest), bytes, portals::AckReq::NoAck, to(kids[i]), l.data_pt, off,
                             part.data, 1),
            ni, kBcast, "PtlTriggeredPut to a child");
  }
  p.sent_total += static_cast<std::uint64_t>(kids.size());
  charge(pe, p.bcast_md, portals::MdHandle{}, kids.size(), 0);
  NbCall c{members, me, k, part.data, rel == 0 ? 0u : 1u, p.sent_total, dest, bytes, false, "broadcast", kBcast};
  const std::uint64_t id = next_pending_++;
  calls_.emplace(id, std::move(c));
  return id;
}

std::uint64_t TriggeredSync::start_reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest,
                                          const void* source, std::size_t count, const char** why)
{
  const int pe    = members[static_cast<std::size_t>(me)];
  portals::Ni& ni = net_.ni(pe);
  portals::Datatype dt{};
  if (!triggered_datatype(e, &dt)) {
    *why = "floating-point reductions are not offloaded (the NICs would combine in arrival order)";
    return 0;
  }
  const std::uint64_t bytes = count * portals::datatype_size(dt);
  if (bytes == 0) {
    *why = "a reduction of no elements is not offloaded (nothing for the NICs to combine)";
    return 0;
  }
  if (bytes > ni.limits().max_atomic_size) {
    *why = "the data exceed platform.nic.limits.max_atomic_size (one atomic per child)";
    return 0;
  }
  std::uint64_t off = 0;
  const int region  = region_of(pe, dest, bytes, kReduce, &off);
  Group& g          = group_of(members);
  const std::uint64_t k = open_call(members, me, g);
  Lane& l           = lane_of(members, g, k, true, region, kReduce);
  LanePart& part    = l.parts[static_cast<std::size_t>(me)];
  PeSide& p         = bcast_side(pe);
  const int n       = static_cast<int>(members.size());
  const TreeKids kids(me, n);
  const auto c      = static_cast<std::uint64_t>(kids.size());
  const auto to     = [&](int r) { return members[static_cast<std::size_t>(r)]; };
  std::byte* acc    = part.scratch.data();
  if (me == 0)
    ++reductions_;
  std::memcpy(acc, source, bytes); // my own contribution (the host's one touch of the data)
  // The children's contributions land in my slots (red counts c), each combined into my
  // accumulator by an atomic of my NIC to itself (red counts c more once all are applied).
  for (std::uint64_t i = 0; i < c; ++i)
    check(ni.triggered_atomic(p.bcast_md, addr(acc + (i + 1) * l.slot), bytes, portals::AckReq::NoAck, pe, l.red_pt,
                              0, triggered_op(op), dt, part.red, c),
          ni, kReduce, "PtlTriggeredAtomic of a child's contribution");
  int posted = static_cast<int>(c);
  if (me != 0) {
    const int parent       = tree_parent(me);
    const std::uint64_t at = (1 + static_cast<std::uint64_t>(child_position(me))) * l.slot;
    check(ni.triggered_put(p.bcast_md, addr(acc), bytes, portals::AckReq::NoAck, to(parent), l.red_pt, at, part.red,
                           2 * c),
          ni, kReduce, "PtlTriggeredPut to its parent");
    ++posted;
    for (int i = kids.size() - 1; i >= 0; --i) // the result, forwarded as it lands in my dest
      check(ni.triggered_put(p.bcast_md, addr(dest), bytes, portals::AckReq::NoAck, to(kids[i]), l.data_pt, off,
                             part.data, 1),
            ni, kReduce, "PtlTriggeredPut of the result to a child");
  } else {
    for (int i = kids.size() - 1; i >= 0; --i)
      check(ni.triggered_put(p.bcast_md, addr(acc), bytes, portals::AckReq::NoAck, to(kids[i]), l.data_pt, off,
                             part.red, 2 * c),
            ni, kReduce, "PtlTriggeredPut of the result to a child");
  }
  posted += kids.size();
  p.sent_total += 2 * c + (me != 0 ? 1 : 0);
  posted_ += static_cast<std::uint64_t>(posted);
  charge(pe, p.bcast_md, portals::MdHandle{}, posted, 0);
  NbCall call{members, me, k, me == 0 ? part.red : part.data, me == 0 ? 2 * c : 1, p.sent_total, dest, bytes,
              me == 0, "reduce", kReduce};
  const std::uint64_t id = next_pending_++;
  calls_.emplace(id, std::move(call));
  return id;
}

bool TriggeredSync::call_done(const NbCall& c)
{
  portals::Ni& ni = net_.ni(c.members[static_cast<std::size_t>(c.me)]);
  portals::CtEvent ev;
  ni.ct_get(c.ct, &ev);
  if (ev.success + ev.failure < c.target)
    return false;
  ni.ct_get(pes_[static_cast<std::size_t>(ni.id())].sent, &ev);
  return ev.success + ev.failure >= c.sent_target;
}

void TriggeredSync::close_call(const NbCall& c)
{
  Group& g       = groups_.at(c.members);
  Lane& l        = g.lanes.at(c.lane);
  LanePart& part = l.parts[static_cast<std::size_t>(c.me)];
  if (c.copy_result) // the root of a reduction: the combination is in its accumulator
    std::memcpy(c.dest, part.scratch.data(), c.bytes);
  // Every message of the call to this PE has landed (its data, or its children's contributions
  // and its own atomics) and its NIC has sent its own: its part can go.
  const int pe    = c.members[static_cast<std::size_t>(c.me)];
  portals::Ni& ni = net_.ni(pe);
  constexpr const char* kFree = "freeing a non-blocking call's lane";
  check(ni.le_unlink(part.data_le), ni, kFree, "data entry", pe);
  check(ni.pt_free(l.data_pt), ni, kFree, "data portal table entry", pe);
  check(ni.ct_free(part.data), ni, kFree, "data counter", pe);
  if (l.reduce) {
    check(ni.le_unlink(part.red_le), ni, kFree, "scratch entry", pe);
    check(ni.pt_free(l.red_pt), ni, kFree, "scratch portal table entry", pe);
    check(ni.ct_free(part.red), ni, kFree, "reduction counter", pe);
  }
  part.scratch = {};
  part.freed   = true;
  --g.sides[static_cast<std::size_t>(c.me)].nb_open;
  if (++l.freed < static_cast<int>(l.parts.size()))
    return;
  free_pts_.insert(l.data_pt);
  if (l.reduce)
    free_pts_.insert(l.red_pt);
  g.lanes.erase(c.lane);
}

bool TriggeredSync::test_call(std::uint64_t id)
{
  auto it = calls_.find(id);
  SHMEMSIM_ASSERT(it != calls_.end(), "a non-blocking offloaded call tested after its completion");
  if (!call_done(it->second))
    return false;
  close_call(it->second);
  calls_.erase(it);
  return true;
}

void TriggeredSync::wait_call(std::uint64_t id)
{
  auto it = calls_.find(id);
  SHMEMSIM_ASSERT(it != calls_.end(), "a non-blocking offloaded call waited for after its completion");
  const NbCall c = it->second;
  calls_.erase(it);
  portals::Ni& ni = net_.ni(c.members[static_cast<std::size_t>(c.me)]);
  wait(ni, c.ct, c.target, c.copy_result ? "a triggered reduction's combining" : "a non-blocking call's data", c.kind,
       c.members, c.key);
  wait(ni, pes_[static_cast<std::size_t>(ni.id())].sent, c.sent_target, "a non-blocking call's sends", c.kind,
       c.members, c.key);
  close_call(c);
}

} // namespace shmemsim::front
