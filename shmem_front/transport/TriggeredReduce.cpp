// Allreduces combined by the NICs' atomic units on triggered operations (TriggeredSync.hpp: the
// protocol).
#include "shmem_front/transport/TriggeredSync.hpp"

#include "shmem_front/transport/Address.hpp"
#include "shmem_front/transport/TriggeredTree.hpp"
#include "sim/Simulation.hpp"

#include <cstdint>
#include <cstring>

namespace shmemsim::front {

using portals::Status;

namespace {
constexpr const char* kReduce = "job.collectives.reduce=triggered";
} // namespace

bool triggered_datatype(RedElem e, portals::Datatype* dt)
{
  using D = portals::Datatype;
  if (!e.integer)
    return false;
  switch (e.size) {
    case 1:
      *dt = e.is_signed ? D::Int8 : D::Uint8;
      return true;
    case 2:
      *dt = e.is_signed ? D::Int16 : D::Uint16;
      return true;
    case 4:
      *dt = e.is_signed ? D::Int32 : D::Uint32;
      return true;
    case 8:
      *dt = e.is_signed ? D::Int64 : D::Uint64;
      return true;
    default:
      return false;
  }
}

portals::AtomicOp triggered_op(RedOp op)
{
  switch (op) {
    case RedOp::And:
      return portals::AtomicOp::Band;
    case RedOp::Or:
      return portals::AtomicOp::Bor;
    case RedOp::Xor:
      return portals::AtomicOp::Bxor;
    case RedOp::Max:
      return portals::AtomicOp::Max;
    case RedOp::Min:
      return portals::AtomicOp::Min;
    case RedOp::Sum:
      return portals::AtomicOp::Sum;
    case RedOp::Prod:
      break;
  }
  return portals::AtomicOp::Prod;
}

void TriggeredSync::setup_reduce(const PeList& members, Group& g)
{
  g.red_pt                 = take_pt();
  const std::uint64_t raw  = net_.ni(members[0]).limits().max_atomic_size;
  g.slot                   = (raw + 7) / 8 * 8;
  const std::uint32_t opts = portals::LE_OP_PUT | portals::LE_EVENT_CT_COMM;
  const int n              = static_cast<int>(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    const int pe    = members[i];
    portals::Ni& ni = net_.ni(pe);
    Side& s         = g.sides[i];
    const auto kids = static_cast<std::uint64_t>(TreeKids(static_cast<int>(i), n).size());
    s.scratch.assign(2 * (kids + 1) * g.slot, std::byte{0});
    std::uint32_t pt;
    check(ni.ct_alloc(&s.red), ni, kReduce, "reduction counter", pe);
    check(ni.pt_alloc(g.red_pt, &pt), ni, kReduce, "reduction portal table entry", pe);
    check(ni.le_append(g.red_pt, portals::LeDesc{s.scratch.data(), s.scratch.size(), opts, s.red}, &s.red_le), ni,
          kReduce, "reduction scratch entry", pe);
  }
  g.red = true;
}

TriggeredSync::PeSide& TriggeredSync::reduce_side(int pe)
{
  PeSide& p = bcast_side(pe);
  if (p.ack_md.index < 0) {
    portals::Ni& ni = net_.ni(pe);
    check(ni.ct_alloc(&p.acked), ni, kReduce, "ACK counter");
    check(ni.md_bind(portals::MdDesc{nullptr, UINT64_MAX, portals::MD_EVENT_CT_ACK, p.acked}, &p.ack_md), ni, kReduce,
          "binding the atomics MD");
  }
  return p;
}

const char* TriggeredSync::reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest, const void* source,
                                  std::size_t count)
{
  const int pe    = members[static_cast<std::size_t>(me)];
  portals::Ni& ni = net_.ni(pe);
  portals::Datatype dt{};
  if (!triggered_datatype(e, &dt))
    return "floating-point reductions are not offloaded (the NICs would combine in arrival order)";
  const std::uint64_t bytes = count * portals::datatype_size(dt);
  if (bytes > ni.limits().max_atomic_size)
    return "the data exceed platform.nic.limits.max_atomic_size (one atomic per child)";
  std::uint64_t off = 0;
  const int region  = region_of(pe, dest, bytes, kReduce, &off);
  Group& g          = group_of(members);
  if (!g.bcast)
    setup_bcast(members, g);
  if (!g.red)
    setup_reduce(members, g);
  Side& s               = g.sides[static_cast<std::size_t>(me)];
  PeSide& p             = reduce_side(pe);
  const int n           = static_cast<int>(members.size());
  const TreeKids kids(me, n);
  const auto c          = static_cast<std::uint64_t>(kids.size());
  const std::uint64_t k = ++s.reduces;
  ++s.calls;
  const std::uint64_t b = k & 1; // call parity: which half of the scratch
  const auto to         = [&](int r) { return members[static_cast<std::size_t>(r)]; };
  std::byte* acc        = s.scratch.data() + b * (c + 1) * g.slot;
  const portals::AtomicOp aop = triggered_op(op);
  if (me == 0)
    ++reductions_;
  std::memcpy(acc, source, bytes); // my own contribution
  // The children's contributions of call k: their k-th puts into my slots. Every earlier call's
  // were counted, and so were the atomics into my accumulators, 2c a call (all acknowledged).
  const std::uint64_t arrived = 2 * c * (k - 1) + c;
  for (std::uint64_t i = 0; i < c; ++i)
    check(ni.triggered_atomic(p.ack_md, addr(acc + (i + 1) * g.slot), bytes, portals::AckReq::CtAck, pe, g.red_pt,
                              static_cast<std::uint64_t>(acc - s.scratch.data()), aop, dt, s.red, arrived),
          ni, kReduce, "PtlTriggeredAtomic of a child's contribution");
  p.acked_total += c;
  int posted = static_cast<int>(c);
  if (me != 0) {
    // My subtree's combination into my slot at my parent (its layout: accumulator, then slots).
    const int parent        = tree_parent(me);
    const auto parent_kids  = static_cast<std::uint64_t>(TreeKids(parent, n).size());
    const std::uint64_t at  = (b * (parent_kids + 1) + 1 + static_cast<std::uint64_t>(child_position(me))) * g.slot;
    check(ni.triggered_put(p.bcast_md, addr(acc), bytes, portals::AckReq::NoAck, to(parent), g.red_pt, at, p.acked,
                           p.acked_total),
          ni, kReduce, "PtlTriggeredPut to its parent");
    ++posted;
    // The result, from my parent into my dest: forwarded to my children as it lands.
    ++s.received;
    for (int i = kids.size() - 1; i >= 0; --i)
      check(ni.triggered_put(p.bcast_md, addr(dest), bytes, portals::AckReq::NoAck, to(kids[i]), g.data_pt[region],
                             off, s.data, s.received),
            ni, kReduce, "PtlTriggeredPut of the result to a child");
  } else {
    for (int i = kids.size() - 1; i >= 0; --i)
      check(ni.triggered_put(p.bcast_md, addr(acc), bytes, portals::AckReq::NoAck, to(kids[i]), g.data_pt[region], off,
                             p.acked, p.acked_total),
            ni, kReduce, "PtlTriggeredPut of the result to a child");
  }
  posted += kids.size();
  p.sent_total += c + (me != 0 ? 1 : 0);
  posted_ += static_cast<std::uint64_t>(posted);
  charge(pe, c != 0 ? p.ack_md : p.bcast_md, c != 0 ? p.bcast_md : portals::MdHandle{}, posted, 0);
  if (me == 0) {
    wait(ni, p.acked, p.acked_total, "a triggered reduction's combining", "reduce", members, kReduce);
    std::memcpy(dest, acc, bytes);
  } else {
    wait(ni, s.data, s.received, "a triggered reduction's result", "reduce", members, kReduce);
  }
  // My NIC has read what it sends (the accumulator and dest are the program's and mine again).
  wait(ni, p.sent, p.sent_total, "a triggered reduction's sends", "reduce", members, kReduce);
  return nullptr;
}

} // namespace shmemsim::front
