// Portals 4 triggered operations (Ni.hpp): an operation held by the NIC on a counting event until
// its count (success + failure) reaches a threshold, then issued by the NIC, with no host cost.
// Ordering: operations released together go in threshold order, equal thresholds in the order the
// calls were made (the specification's "quality implementation").
#include "sim/Simulation.hpp"
#include "sim/portals_model/Atomics.hpp"
#include "sim/portals_model/Ni.hpp"
#include "sim/portals_model/NiCt.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace shmemsim::portals {

Status Ni::check_triggered_target(MdHandle h, std::uint64_t local_offset, std::uint64_t length, int target,
                                  const char* what)
{
  return check_common(md_of(h), local_offset, length, target, what);
}

Status Ni::hold_until(CtHandle trig, std::uint64_t threshold, const char* what, std::function<Status()> issue)
{
  Ct* c = ct_of(trig);
  if (c == nullptr)
    return fail(Status::ArgInvalid, std::string(what) + ": the trigger is not an allocated counting event");
  // The threshold is checked when the operation is first tied to the counter: one already reached
  // proceeds at once, as an untriggered call would.
  if (c->ev.success + c->ev.failure >= threshold) {
    ++usage_.triggered_fired;
    return issue();
  }
  if (pool_.triggered >= limits_.max_triggered_ops) {
    SHMEMSIM_OBSERVE(obs_, limit_hit(sim_.queue().now(), id_, "triggered"));
    return fail(Status::NoSpace, std::string(what) + ": max_triggered_ops (" +
                                     std::to_string(limits_.max_triggered_ops) +
                                     ") triggered operations already wait on their thresholds");
  }
  c->triggered.emplace(threshold, std::move(issue));
  ++pool_.triggered;
  usage_.triggered_peak = std::max(usage_.triggered_peak, ++usage_.triggered);
  last_error_.clear();
  return Status::Ok;
}

void Ni::release_triggered(CtHandle h)
{
  // One at a time, looked up again after each: an operation issued here may count on this very
  // counter (a triggered CTInc of its own trigger) or add triggered operations to it.
  for (;;) {
    Ct* c = ct_of(h);
    if (c == nullptr || c->triggered.empty())
      return;
    auto first = c->triggered.begin();
    if (first->first > c->ev.success + c->ev.failure)
      return;
    std::function<Status()> issue = std::move(first->second);
    c->triggered.erase(first);
    --pool_.triggered;
    --usage_.triggered;
    ++usage_.triggered_fired;
    if (issue() != Status::Ok)
      ++usage_.triggered_failed; // e.g. its MD was released before the threshold (last_error says why)
  }
}

Status Ni::triggered_put(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target,
                         std::uint32_t pt, std::uint64_t remote_offset, CtHandle trig, std::uint64_t threshold,
                         std::uint64_t user_ptr)
{
  if (Status s = check_triggered_target(md, local_offset, length, target, "PtlTriggeredPut"); s != Status::Ok)
    return s;
  return hold_until(trig, threshold, "PtlTriggeredPut",
                    [=, this] { return put(md, local_offset, length, ack, target, pt, remote_offset, user_ptr); });
}

Status Ni::triggered_get(MdHandle md, std::uint64_t local_offset, std::uint64_t length, int target, std::uint32_t pt,
                         std::uint64_t remote_offset, CtHandle trig, std::uint64_t threshold, std::uint64_t user_ptr)
{
  if (Status s = check_triggered_target(md, local_offset, length, target, "PtlTriggeredGet"); s != Status::Ok)
    return s;
  return hold_until(trig, threshold, "PtlTriggeredGet",
                    [=, this] { return get(md, local_offset, length, target, pt, remote_offset, user_ptr); });
}

Status Ni::triggered_atomic(MdHandle md, std::uint64_t local_offset, std::uint64_t length, AckReq ack, int target,
                            std::uint32_t pt, std::uint64_t remote_offset, AtomicOp op, Datatype dt, CtHandle trig,
                            std::uint64_t threshold, std::uint64_t user_ptr)
{
  if (Status s = check_triggered_target(md, local_offset, length, target, "PtlTriggeredAtomic"); s != Status::Ok)
    return s;
  if (const char* why = check_atomic(AtomicCall::Atomic, op, dt, length, limits_); *why != '\0')
    return fail(Status::ArgInvalid,
                std::string("PtlTriggeredAtomic ") + to_string(op) + " on " + to_string(dt) + ": " + why);
  return hold_until(trig, threshold, "PtlTriggeredAtomic", [=, this] {
    return atomic(md, local_offset, length, ack, target, pt, remote_offset, op, dt, user_ptr);
  });
}

Status Ni::triggered_ct_inc(CtHandle ct, CtEvent increment, CtHandle trig, std::uint64_t threshold)
{
  if (ct_of(ct) == nullptr)
    return fail(Status::ArgInvalid, "PtlTriggeredCTInc: not an allocated counting event");
  return hold_until(trig, threshold, "PtlTriggeredCTInc", [=, this] { return ct_inc(ct, increment); });
}

Status Ni::triggered_ct_set(CtHandle ct, CtEvent value, CtHandle trig, std::uint64_t threshold)
{
  if (ct_of(ct) == nullptr)
    return fail(Status::ArgInvalid, "PtlTriggeredCTSet: not an allocated counting event");
  return hold_until(trig, threshold, "PtlTriggeredCTSet", [=, this] { return ct_set(ct, value); });
}

Status Ni::ct_cancel_triggered(CtHandle h)
{
  Ct* c = ct_of(h);
  if (c == nullptr)
    return fail(Status::ArgInvalid, "PtlCTCancelTriggered: not an allocated counting event");
  const int n = static_cast<int>(c->triggered.size());
  c->triggered.clear();
  pool_.triggered -= n;
  usage_.triggered -= n;
  return Status::Ok;
}

} // namespace shmemsim::portals
