// Broadcasts run by the NICs on triggered puts (TriggeredSync.hpp: the protocol).
#include "shmem_front/transport/TriggeredSync.hpp"

#include "shmem_front/transport/Address.hpp"
#include "shmem_front/transport/TriggeredTree.hpp"
#include "sim/Simulation.hpp"

#include <cstdint>

namespace shmemsim::front {

using portals::Status;

namespace {
constexpr const char* kBcast = "job.collectives.broadcast=triggered";

} // namespace

void TriggeredSync::setup_bcast(const PeList& members, Group& g)
{
  g.data_pt[0]             = take_pt();
  g.data_pt[1]             = take_pt();
  const std::uint32_t opts = portals::LE_OP_PUT | portals::LE_EVENT_CT_COMM;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int pe      = members[i];
    portals::Ni& ni   = net_.ni(pe);
    Side& s           = g.sides[i];
    const PeMemory& m = memory_[static_cast<std::size_t>(pe)];
    std::uint32_t pt;
    check(ni.ct_alloc(&s.data), ni, kBcast, "data counter", pe);
    check(ni.pt_alloc(g.data_pt[0], &pt), ni, kBcast, "data portal table entry", pe);
    check(ni.pt_alloc(g.data_pt[1], &pt), ni, kBcast, "heap portal table entry", pe);
    check(ni.le_append(g.data_pt[0], portals::LeDesc{m.data, m.data_size, opts, s.data}, &s.data_le[0]), ni, kBcast,
          "data entry", pe);
    check(ni.le_append(g.data_pt[1], portals::LeDesc{m.heap, m.heap_size, opts, s.data}, &s.data_le[1]), ni, kBcast,
          "heap entry", pe);
  }
  g.bcast = true;
}

TriggeredSync::PeSide& TriggeredSync::bcast_side(int pe)
{
  PeSide& p = pes_[static_cast<std::size_t>(pe)];
  if (p.bcast_md.index < 0) {
    portals::Ni& ni = net_.ni(pe);
    check(ni.ct_alloc(&p.sent), ni, kBcast, "send counter");
    // Not volatile: the NIC reads the data as it injects them, so the caller waits for the send.
    check(ni.md_bind(portals::MdDesc{nullptr, UINT64_MAX, portals::MD_EVENT_CT_SEND, p.sent}, &p.bcast_md), ni, kBcast,
          "binding the broadcast MD");
  }
  return p;
}

int TriggeredSync::region_of(int pe, const void* p, std::size_t bytes, const char* key, std::uint64_t* offset)
{
  const PeMemory& m = memory_[static_cast<std::size_t>(pe)];
  const auto* d     = static_cast<const std::byte*>(p);
  if (d >= m.data && d + bytes <= m.data + m.data_size) {
    *offset = static_cast<std::uint64_t>(d - m.data);
    return 0;
  }
  if (d >= m.heap && d + bytes <= m.heap + m.heap_size) {
    *offset = static_cast<std::uint64_t>(d - m.heap);
    return 1;
  }
  fatal_(std::string(key) + ": dest " + std::to_string(addr(p)) + " is not symmetric");
  return 0;
}

const char* TriggeredSync::broadcast(const PeList& members, int me, void* dest, const void* source, std::size_t bytes,
                                     int root)
{
  const int pe    = members[static_cast<std::size_t>(me)];
  portals::Ni& ni = net_.ni(pe);
  if (bytes > ni.limits().max_msg_size)
    return "the data exceed platform.nic.limits.max_msg_size (one message per child)";
  // Where dest is in every PE's symmetric memory: the data (PT data_pt[0]) or the heap.
  std::uint64_t off = 0;
  const int region  = region_of(pe, dest, bytes, kBcast, &off);
  Group& g = group_of(members);
  if (!g.bcast)
    setup_bcast(members, g);
  Side& s     = g.sides[static_cast<std::size_t>(me)];
  ++s.calls;
  PeSide& p   = bcast_side(pe);
  const int n = static_cast<int>(members.size());
  const int rel = (me - root + n) % n;
  const TreeKids kids(rel, n);
  const auto to        = [&](int r) { return members[static_cast<std::size_t>((r + root) % n)]; };
  const std::uint32_t pt = g.data_pt[region];
  if (rel == 0) {
    ++broadcasts_;
    for (int i = kids.size() - 1; i >= 0; --i) // largest subtree first, as the host-driven tree
      check(ni.put(p.bcast_md, addr(source), bytes, portals::AckReq::NoAck, to(kids[i]), pt, off), ni, kBcast,
            "PtlPut to a child");
  } else {
    ++s.received;
    posted_ += static_cast<std::uint64_t>(kids.size());
    for (int i = kids.size() - 1; i >= 0; --i)
      check(ni.triggered_put(p.bcast_md, addr(dest), bytes, portals::AckReq::NoAck, to(kids[i]), pt, off, s.data,
                             s.received),
            ni, kBcast, "PtlTriggeredPut to a child");
  }
  p.sent_total += static_cast<std::uint64_t>(kids.size());
  // The host's part: the calls that post the operations.
  charge(pe, p.bcast_md, portals::MdHandle{}, kids.size(), 0);
  if (rel != 0)
    wait(ni, s.data, s.received, "a triggered broadcast's data", "broadcast", members, kBcast);
  if (kids.size() != 0)
    wait(ni, p.sent, p.sent_total, "a triggered broadcast's forwarding", "broadcast", members, kBcast);
  return nullptr;
}

} // namespace shmemsim::front
