#include "run/Traffic.hpp"

#include "sim/Rng.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <stdexcept>

namespace shmemsim::run {

using namespace scenarios;

using portals::Status;

struct TrafficPattern::Endpoint {
  int id = 0;
  std::vector<std::byte> src;     ///< source buffer (MD)
  std::vector<std::byte> dst;     ///< target buffer (LE)
  std::vector<std::byte> fetched; ///< fetch_add results, one uint64 per operation
  portals::CtHandle md_ct, le_ct, fetch_ct;
  portals::MdHandle md, fetch_md;
  portals::LeHandle le;
  std::unordered_map<std::uint64_t, std::uint64_t> last_tag; ///< random: target * slots + slot -> tag
  bool active = false;
};

namespace {
const char* call_error(portals::Ni& ni, Status s)
{
  static std::string buf;
  buf = std::string(portals::to_string(s));
  if (!ni.last_error().empty())
    buf += " (" + ni.last_error() + ")";
  return buf.c_str();
}
} // namespace

void TrafficPattern::fail_setup(int ep, const char* call, Status s)
{
  throw std::runtime_error("traffic[" + std::to_string(index_) + "] (" + to_string(p_.pattern) + "): endpoint " +
                           std::to_string(ep) + ": " + call + " failed: " + call_error(net_.ni(ep), s));
}

std::uint64_t TrafficPattern::slots_per_source() const
{
  return static_cast<std::uint64_t>(p_.window);
}

int TrafficPattern::target_of(int source) const
{
  switch (p_.pattern) {
    case Pattern::Incast:
      return p_.root;
    case Pattern::Shift:
      return static_cast<int>((static_cast<std::int64_t>(source) + p_.shift) % n_);
    default:
      return p_.pairs ? source + n_ / 2 : p_.peer;
  }
}

std::uint64_t TrafficPattern::dst_offset(int source, std::uint64_t iteration) const
{
  switch (p_.pattern) {
    case Pattern::PingPong:
    case Pattern::FetchAdd:
      return 0;
    case Pattern::Stream:
      return (iteration % slots_per_source()) * p_.size;
    case Pattern::Shift:
      // A slot per iteration: completions come back in any order once the fabric reorders, so a
      // slot of the window may still be written when the window lets the next put go.
      return iteration * p_.size;
    case Pattern::AllToAll:
      return static_cast<std::uint64_t>(source) * p_.size;
    case Pattern::Incast:
    case Pattern::Random:
      return (static_cast<std::uint64_t>(source) * slots_per_source() + iteration % slots_per_source()) * p_.size;
  }
  return 0;
}

TrafficPattern::TrafficPattern(portals::Network& net, const TrafficParams& p, int index, std::uint64_t seed)
    : net_(net), p_(p), index_(index), seed_(seed), n_(net.endpoints())
{
  if (p_.peer < 0)
    p_.peer = n_ - 1;
  // Operations the NI's limits would reject make the pattern impossible: say so before running.
  const portals::Limits& lim = net_.ni(0).limits();
  const std::string where    = "traffic[" + std::to_string(index_) + "] (" + to_string(p_.pattern) + "): ";
  if (p_.pattern == Pattern::FetchAdd && lim.max_fetch_atomic_size < 8)
    throw std::runtime_error(
        where + "8-byte fetch-adds exceed platform.nic.limits.max_fetch_atomic_size (" +
        std::to_string(lim.max_fetch_atomic_size) +
        " B); every PtlFetchAtomic would be rejected with PTL_ARG_INVALID: raise the limit to 8 or more");
  if (p_.pattern != Pattern::FetchAdd && p_.size > lim.max_msg_size)
    throw std::runtime_error(
        where + "size " + std::to_string(p_.size) + " B exceeds platform.nic.limits.max_msg_size (" +
        std::to_string(lim.max_msg_size) +
        " B); every PtlPut would be rejected with PTL_ARG_INVALID: lower traffic.size or raise the limit");
  const std::uint64_t n = static_cast<std::uint64_t>(n_);
  const std::uint64_t w = slots_per_source();
  // The largest buffer an endpoint holds (every pattern's worst case), computed without wrapping:
  // real data moves, so it must fit in memory.
  {
    constexpr std::uint64_t kMaxBuffer = std::uint64_t{1} << 36; // 64 GiB
    std::uint64_t slots = 0, bytes = 0;
    const bool per_peer =
        p_.pattern == Pattern::AllToAll || p_.pattern == Pattern::Incast || p_.pattern == Pattern::Random;
    const std::uint64_t peers = per_peer ? n : 1;
    const std::uint64_t win   = p_.pattern == Pattern::AllToAll || p_.pattern == Pattern::PingPong ? 1
                                : p_.pattern == Pattern::Shift                                  ? p_.iterations
                                                                                                : w;
    const bool overflow =
        p_.pattern == Pattern::FetchAdd
            ? __builtin_mul_overflow(static_cast<std::uint64_t>(p_.iterations), 8, &bytes)
            : __builtin_mul_overflow(peers, win, &slots) || __builtin_mul_overflow(slots, p_.size, &bytes);
    if (overflow || bytes > kMaxBuffer)
      throw std::runtime_error(
          where + "its buffers would need " + (overflow ? std::string("more than 2^64") : std::to_string(bytes)) +
          " bytes on one endpoint (" +
          (p_.pattern == Pattern::FetchAdd ? std::string("iterations x 8 B")
           : p_.pattern == Pattern::Shift  ? std::string("size x iterations")
                                           : "size x window, times the endpoints for patterns that receive from all") +
          "); at most 64 GiB: lower traffic.size, traffic.window or traffic.iterations");
  }
  if (p_.injection == Injection::Bernoulli && p_.warmup >= static_cast<Ps>(p_.iterations) * slot())
    throw std::runtime_error(where + "traffic.warmup (" + format_time(p_.warmup) +
                             ") leaves nothing to measure: the endpoints inject for traffic.iterations x " +
                             format_time(slot()) + "; raise traffic.iterations or lower traffic.warmup");
  for (int ep = 0; ep < n_; ++ep) {
    auto e   = std::make_unique<Endpoint>();
    e->id    = ep;
    auto& ni = net_.ni(ep);
    switch (p_.pattern) {
      case Pattern::PingPong:
        e->active = ep == p_.root || ep == p_.peer;
        e->src.resize(p_.size);
        e->dst.resize(p_.size);
        break;
      case Pattern::Stream: {
        const bool sends    = p_.pairs ? ep < n_ / 2 : ep == p_.root;
        const bool receives = p_.pairs ? ep >= n_ / 2 && ep < 2 * (n_ / 2) : ep == p_.peer;
        e->active           = sends;
        e->src.resize(sends ? w * p_.size : 0);
        e->dst.resize(receives ? w * p_.size : 0);
        break;
      }
      case Pattern::AllToAll:
        e->active = n_ > 1;
        e->src.resize(p_.size);
        e->dst.resize(n * p_.size);
        break;
      case Pattern::Incast:
        e->active = ep != p_.root;
        e->src.resize(w * p_.size);
        e->dst.resize(ep == p_.root ? n * w * p_.size : 0);
        break;
      case Pattern::Random:
        e->active = n_ > 1;
        e->src.resize(w * p_.size);
        e->dst.resize(n * w * p_.size);
        break;
      case Pattern::Shift:
        e->active = true;
        e->src.resize(w * p_.size);
        e->dst.resize(p_.iterations * p_.size);
        break;
      case Pattern::FetchAdd:
        e->active = true;
        e->src.resize(8);
        e->dst.resize(8);
        e->fetched.resize(p_.iterations * 8);
        break;
    }
    // Counters, then the target side (portal table entry + list entry), then the source MD.
    if (Status s = ni.ct_alloc(&e->le_ct); s != Status::Ok)
      fail_setup(ep, "PtlCTAlloc", s);
    std::uint32_t pt = 0;
    if (Status s = ni.pt_alloc(static_cast<std::uint32_t>(index_), &pt); s != Status::Ok)
      fail_setup(ep, "PtlPTAlloc", s);
    pt_ = pt;
    portals::LeDesc le;
    le.start   = e->dst.data();
    le.length  = e->dst.size();
    le.options = portals::LE_OP_PUT | portals::LE_OP_GET | portals::LE_EVENT_CT_COMM;
    le.ct      = e->le_ct;
    if (Status s = ni.le_append(pt_, le, &e->le); s != Status::Ok)
      fail_setup(ep, "PtlLEAppend", s);
    if (!e->active) {
      eps_.push_back(std::move(e));
      continue;
    }
    if (Status s = ni.ct_alloc(&e->md_ct); s != Status::Ok)
      fail_setup(ep, "PtlCTAlloc", s);
    portals::MdDesc md;
    md.start   = e->src.data();
    md.length  = e->src.size();
    md.options = (p_.ack == portals::AckReq::NoAck ? portals::MD_EVENT_CT_SEND : portals::MD_EVENT_CT_ACK) |
                 (p_.volatile_md ? portals::MD_VOLATILE : 0u) | (p_.independent_md ? portals::MD_INDEPENDENT : 0u);
    md.ct = e->md_ct;
    if (Status s = ni.md_bind(md, &e->md); s != Status::Ok)
      fail_setup(ep, "PtlMDBind", s);
    if (p_.pattern == Pattern::FetchAdd) {
      const std::uint64_t one = 1;
      std::memcpy(e->src.data(), &one, 8);
      if (Status s = ni.ct_alloc(&e->fetch_ct); s != Status::Ok)
        fail_setup(ep, "PtlCTAlloc", s);
      portals::MdDesc fmd;
      fmd.start   = e->fetched.data();
      fmd.length  = e->fetched.size();
      fmd.options = portals::MD_EVENT_CT_REPLY;
      fmd.ct      = e->fetch_ct;
      if (Status s = ni.md_bind(fmd, &e->fetch_md); s != Status::Ok)
        fail_setup(ep, "PtlMDBind", s);
    }
    eps_.push_back(std::move(e));
  }
}

TrafficPattern::~TrafficPattern() = default;

Ps TrafficPattern::slot() const
{
  const sim::FabricParams& f = net_.fabric().params();
  const std::uint64_t mtu    = f.mtu;
  const std::uint64_t pkts   = p_.size == 0 ? 1 : (p_.size + mtu - 1) / mtu;
  return transfer_time(p_.size + pkts * f.header_size, f.link_bandwidth);
}

void TrafficPattern::start()
{
  if (p_.injection == Injection::Bernoulli) {
    const Ps now = net_.simulation().queue().now();
    const Ps end = now + static_cast<Ps>(p_.iterations) * slot();
    net_.fabric().latency().measure(now + p_.warmup, end);
  }
  for (auto& e : eps_) {
    if (!e->active)
      continue;
    const int ep = e->id;
    net_.simulation().spawn("endpoint " + std::to_string(ep) + " (traffic[" + std::to_string(index_) + "] " +
                                to_string(p_.pattern) + ")",
                            net_.ni(ep).node(), [this, ep] { run_endpoint(ep); });
  }
}

void TrafficPattern::note_time(Ps start, Ps end)
{
  if (!started_any_ || start < result_.start)
    result_.start = start;
  result_.end  = std::max(result_.end, end);
  started_any_ = true;
}

void TrafficPattern::window_wait(Endpoint& e, std::uint64_t issued)
{
  if (issued < static_cast<std::uint64_t>(p_.window))
    return;
  portals::CtEvent ev;
  net_.ni(e.id).ct_wait(p_.pattern == Pattern::FetchAdd ? e.fetch_ct : e.md_ct, issued - p_.window + 1, &ev);
}

void TrafficPattern::issue_put(Endpoint& e, int target, std::uint64_t src_off, std::uint64_t dst_off, std::uint64_t tag)
{
  for (std::uint64_t k = 0; k < p_.size; ++k)
    e.src[src_off + k] = static_cast<std::byte>(payload_byte(e.id, tag, k));
  auto& ni = net_.ni(e.id);
  if (Status s = ni.put(e.md, src_off, p_.size, p_.ack, target, pt_, dst_off); s != Status::Ok)
    throw std::runtime_error(std::string("PtlPut failed: ") + call_error(ni, s));
  ++result_.operations;
  result_.bytes += p_.size;
}

void TrafficPattern::run_endpoint(int ep)
{
  Endpoint& e          = *eps_[static_cast<std::size_t>(ep)];
  auto& ni             = net_.ni(ep);
  auto& sim            = net_.simulation();
  const Ps t0          = sim.queue().now();
  std::uint64_t issued = 0;
  portals::CtEvent ev;
  auto pause = [&] {
    if (p_.gap > 0)
      sim.sleep_for(p_.gap);
  };
  try {
    if (p_.injection == Injection::Bernoulli) {
      run_open_loop(e);
      note_time(t0, sim.queue().now());
      return;
    }
    switch (p_.pattern) {
      case Pattern::PingPong: {
        const bool is_root = ep == p_.root;
        const int other    = is_root ? p_.peer : p_.root;
        for (std::uint64_t i = 0; i < p_.iterations; ++i) {
          if (!is_root)
            ni.ct_wait(e.le_ct, i + 1, &ev); // the ping arrived
          pause();
          issue_put(e, other, 0, 0, i);
          ++issued;
          if (is_root)
            ni.ct_wait(e.le_ct, i + 1, &ev); // the pong arrived
        }
        if (is_root)
          result_.half_rtt_s = ps_to_seconds(sim.queue().now() - t0) / (2.0 * static_cast<double>(p_.iterations));
        break;
      }
      case Pattern::Stream:
      case Pattern::Incast:
      case Pattern::Shift: {
        const int target = target_of(ep);
        for (std::uint64_t i = 0; i < p_.iterations; ++i) {
          window_wait(e, issued);
          pause();
          issue_put(e, target, (i % slots_per_source()) * p_.size, dst_offset(ep, i), i);
          ++issued;
        }
        break;
      }
      case Pattern::AllToAll: {
        for (std::uint64_t round = 0; round < p_.iterations; ++round) {
          for (int k = 1; k < n_; ++k) {
            const int target = (ep + k) % n_;
            window_wait(e, issued);
            pause();
            if (k == 1)
              issue_put(e, target, 0, dst_offset(ep, round), round);
            else {
              if (Status s = ni.put(e.md, 0, p_.size, p_.ack, target, pt_, dst_offset(ep, round)); s != Status::Ok)
                throw std::runtime_error(std::string("PtlPut failed: ") + call_error(ni, s));
              ++result_.operations;
              result_.bytes += p_.size;
            }
            ++issued;
          }
          ni.ct_wait(e.md_ct, issued, &ev); // end of round: every put of the round completed
        }
        break;
      }
      case Pattern::Random: {
        e.last_tag.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(p_.iterations, 1u << 20)));
        sim::Rng rng =
            sim::Rng::stream(seed_ ^ (static_cast<std::uint64_t>(index_) << 20), 1000 + static_cast<std::uint64_t>(ep));
        for (std::uint64_t i = 0; i < p_.iterations; ++i) {
          int target = static_cast<int>(rng.below(static_cast<std::uint64_t>(n_ - 1)));
          if (target >= ep)
            ++target;
          window_wait(e, issued);
          pause();
          const std::uint64_t off = dst_offset(ep, i);
          issue_put(e, target, (i % slots_per_source()) * p_.size, off, i);
          e.last_tag[static_cast<std::uint64_t>(target) * (static_cast<std::uint64_t>(n_) * slots_per_source()) +
                     off / p_.size] = i;
          ++issued;
        }
        break;
      }
      case Pattern::FetchAdd: {
        for (std::uint64_t i = 0; i < p_.iterations; ++i) {
          window_wait(e, issued);
          pause();
          if (Status s = ni.fetch_atomic(e.fetch_md, i * 8, e.md, 0, 8, p_.root, pt_, 0, portals::AtomicOp::Sum,
                                         portals::Datatype::Uint64);
              s != Status::Ok)
            throw std::runtime_error(std::string("PtlFetchAtomic failed: ") + call_error(ni, s));
          ++result_.operations;
          result_.bytes += 8;
          ++issued;
        }
        ni.ct_wait(e.fetch_ct, issued, &ev);
        break;
      }
    }
    // Wait for every operation this endpoint issued to complete.
    if (p_.pattern != Pattern::FetchAdd && issued > 0)
      ni.ct_wait(e.md_ct, issued, &ev);
    if (ev.failure > 0)
      result_.failures.push_back("endpoint " + std::to_string(ep) + ": " + std::to_string(ev.failure) +
                                 " operations failed at their target");
  } catch (const std::runtime_error& err) {
    result_.failures.push_back("endpoint " + std::to_string(ep) + ": " + err.what());
  }
  note_time(t0, sim.queue().now());
}

void TrafficPattern::run_open_loop(Endpoint& e)
{
  auto& sim     = net_.simulation();
  const Ps t0   = sim.queue().now();
  const Ps slot = this->slot();
  const auto n  = static_cast<std::uint64_t>(n_);
  // One stream for the Bernoulli trials, one for the targets (the random pattern's, so a closed-loop
  // and an open-loop run of the same seed draw the same target sequence).
  const std::uint64_t base = seed_ ^ (static_cast<std::uint64_t>(index_) << 20);
  sim::Rng trials          = sim::Rng::stream(base, 2000 + static_cast<std::uint64_t>(e.id));
  sim::Rng targets         = sim::Rng::stream(base, 1000 + static_cast<std::uint64_t>(e.id));
  constexpr double kTwo53  = 9007199254740992.0;
  const auto threshold     = static_cast<std::uint64_t>(p_.load * kTwo53);
  std::uint64_t issued     = 0;
  for (std::uint64_t i = 0; i < p_.iterations; ++i) {
    if (trials.below(std::uint64_t{1} << 53) >= threshold)
      continue;
    const Ps at = t0 + static_cast<Ps>(i) * slot;
    if (at > sim.queue().now())
      sim.sleep_for(at - sim.queue().now());
    int target = target_of(e.id);
    if (p_.pattern == Pattern::Random) {
      target = static_cast<int>(targets.below(n - 1));
      if (target >= e.id)
        ++target;
    }
    issue_put(e, target, (issued % slots_per_source()) * p_.size, dst_offset(e.id, issued), issued);
    ++issued;
  }
  portals::CtEvent ev;
  if (issued > 0)
    net_.ni(e.id).ct_wait(e.md_ct, issued, &ev); // every put has left (ack none: counted when sent)
  if (ev.failure > 0)
    result_.failures.push_back("endpoint " + std::to_string(e.id) + ": " + std::to_string(ev.failure) +
                               " operations failed");
}

void TrafficPattern::verify()
{
  auto check = [&](int target, std::uint64_t off, int source, std::uint64_t tag) {
    const Endpoint& t = *eps_[static_cast<std::size_t>(target)];
    for (std::uint64_t k = 0; k < p_.size; ++k)
      if (t.dst[off + k] != static_cast<std::byte>(payload_byte(source, tag, k))) {
        result_.failures.push_back("endpoint " + std::to_string(target) + ": byte " + std::to_string(off + k) +
                                   " holds the wrong data (expected the put tagged " + std::to_string(tag) +
                                   " from endpoint " + std::to_string(source) + ")");
        return false;
      }
    return true;
  };
  if (!p_.verify || !result_.failures.empty()) {
    result_.verified = false;
    return;
  }
  const std::uint64_t it = p_.iterations;
  const bool acked       = p_.ack != portals::AckReq::NoAck;
  switch (p_.pattern) {
    case Pattern::PingPong:
      check(p_.peer, 0, p_.root, it - 1);
      check(p_.root, 0, p_.peer, it - 1);
      break;
    case Pattern::Shift:
      if (acked)
        for (int src = 0; src < n_; ++src)
          for (std::uint64_t i = 0; i < it; ++i)
            if (!check(target_of(src), dst_offset(src, i), src, i))
              break;
      break;
    case Pattern::Stream:
      if (acked)
        for (int src = 0; src < n_; ++src) {
          if (!eps_[static_cast<std::size_t>(src)]->active)
            continue;
          const int dst = target_of(src);
          for (std::uint64_t i = it > slots_per_source() ? it - slots_per_source() : 0; i < it; ++i)
            if (!check(dst, dst_offset(src, i), src, i))
              break;
        }
      break;
    case Pattern::AllToAll:
      if (acked)
        for (int t = 0; t < n_; ++t)
          for (int s = 0; s < n_; ++s)
            if (s != t && !check(t, dst_offset(s, it - 1), s, it - 1))
              break;
      break;
    case Pattern::Incast:
      if (acked)
        for (int s = 0; s < n_; ++s)
          if (s != p_.root)
            for (std::uint64_t i = it > slots_per_source() ? it - slots_per_source() : 0; i < it; ++i)
              if (!check(p_.root, dst_offset(s, i), s, i))
                break;
      break;
    case Pattern::Random:
      if (acked)
        for (const auto& e : eps_)
          for (const auto& [where, tag] : e->last_tag) {
            const std::uint64_t per_target = static_cast<std::uint64_t>(n_) * slots_per_source();
            if (!check(static_cast<int>(where / per_target), (where % per_target) * p_.size, e->id, tag))
              break;
          }
      break;
    case Pattern::FetchAdd: {
      // Every fetched value is distinct and together they are exactly 0 .. total-1.
      std::uint64_t counter;
      std::memcpy(&counter, eps_[static_cast<std::size_t>(p_.root)]->dst.data(), 8);
      const std::uint64_t total = it * static_cast<std::uint64_t>(n_);
      if (counter != total)
        result_.failures.push_back("fetch_add: counter at endpoint " + std::to_string(p_.root) + " is " +
                                   std::to_string(counter) + ", expected " + std::to_string(total));
      std::vector<bool> seen(total, false);
      for (const auto& e : eps_)
        for (std::uint64_t i = 0; i < it; ++i) {
          std::uint64_t v;
          std::memcpy(&v, e->fetched.data() + i * 8, 8);
          if (v >= total || seen[v]) {
            result_.failures.push_back("fetch_add: endpoint " + std::to_string(e->id) + " fetched " +
                                       std::to_string(v) + (v >= total ? " (out of range)" : " twice"));
            break;
          }
          seen[v] = true;
        }
      break;
    }
  }
  result_.verified = result_.failures.empty();
}

} // namespace shmemsim::run
