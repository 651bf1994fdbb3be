#include "sim/EventQueue.hpp"

#include "sim/Assert.hpp"

#include "sim/Notifier.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>

namespace shmemsim::sim {

namespace {
Ps clock_ps()
{
  return seconds_to_ps(simgrid::s4u::Engine::get_clock());
}
} // namespace

EventQueue::~EventQueue()
{
  if (timer_ != nullptr)
    timer_->remove();
}

Ps EventQueue::now() const
{
  if (in_fire_)
    return now_;
  return std::max(now_, clock_ps());
}

void EventQueue::schedule(Ps t, Fn fn, void* obj, std::uint64_t arg)
{
  if (t > kHorizon || t < 0) [[unlikely]] { // t < 0: a date that wrapped (cannot happen below the horizon)
    past_horizon_ = true;
    return;
  }
  SHMEMSIM_ASSERT(t >= now(), "event scheduled in the past");
  push_key(Key{t, next_seq_++, fn, obj, arg});
  if (!in_fire_)
    arm();
}

namespace {
struct FarLater {
  bool operator()(const auto& a, const auto& b) const { return a.time != b.time ? a.time > b.time : a.seq > b.seq; }
};
} // namespace

void EventQueue::push_key(const Key& k)
{
  ++count_;
  const std::int64_t b = k.time >> kBucketShift;
  SHMEMSIM_ASSERT(b >= cur_bucket_, "event before the calendar's current bucket");
  if (b >= cur_bucket_ + static_cast<std::int64_t>(kBuckets)) {
    far_.push_back(k);
    std::push_heap(far_.begin(), far_.end(), FarLater{});
    return;
  }
  const std::size_t i   = static_cast<std::size_t>(b) & (kBuckets - 1);
  std::vector<Key>& bkt = buckets_[i];
  if (b == sorted_bucket_) {
    // Keep it sorted: new keys are usually the latest, so this is usually an append.
    if (bkt.size() == sorted_head_ || before(bkt.back(), k))
      bkt.push_back(k);
    else
      bkt.insert(std::upper_bound(bkt.begin() + static_cast<std::ptrdiff_t>(sorted_head_), bkt.end(), k, before), k);
  } else {
    bkt.push_back(k);
  }
  nonempty_[i >> 6] |= std::uint64_t{1} << (i & 63);
}

const EventQueue::Key* EventQueue::peek()
{
  if (count_ == 0)
    return nullptr;
  // Scan the window [cur, cur + kBuckets) for the first non-empty bucket.
  const std::int64_t end = cur_bucket_ + static_cast<std::int64_t>(kBuckets);
  std::int64_t pos       = cur_bucket_;
  std::int64_t found     = -1;
  while (pos < end) {
    const std::size_t idx  = static_cast<std::size_t>(pos) & (kBuckets - 1);
    const unsigned bit     = static_cast<unsigned>(idx & 63);
    const std::uint64_t bits = nonempty_[idx >> 6] & (~std::uint64_t{0} << bit);
    if (bits != 0) {
      found = pos + (std::countr_zero(bits) - static_cast<int>(bit));
      break;
    }
    pos += 64 - bit;
  }
  if (found < 0 || found >= end) {
    peeked_bucket_ = -1;
    SHMEMSIM_ASSERT(!far_.empty(), "event count says events remain, but none is queued");
    return &far_.front();
  }
  peeked_bucket_        = found;
  std::vector<Key>& bkt = buckets_[static_cast<std::size_t>(found) & (kBuckets - 1)];
  if (sorted_bucket_ != found) {
    std::sort(bkt.begin(), bkt.end(), before);
    sorted_bucket_ = found;
    sorted_head_   = 0;
  }
  return &bkt[sorted_head_];
}

/// Pop the earliest event and run it.
void EventQueue::run_top()
{
  const Key* kp = peek();
  Key top       = *kp;
  if (peeked_bucket_ < 0) {
    std::pop_heap(far_.begin(), far_.end(), FarLater{});
    far_.pop_back();
    cur_bucket_ = top.time >> kBucketShift;
  } else {
    const std::size_t i = static_cast<std::size_t>(peeked_bucket_) & (kBuckets - 1);
    if (++sorted_head_ == buckets_[i].size()) {
      // Drained. A bucket that grew large gives its memory back: the window cycles through all
      // of them, and keeping every bucket's peak would grow memory with the length of the run.
      if (buckets_[i].capacity() > 64)
        std::vector<Key>().swap(buckets_[i]);
      else
        buckets_[i].clear();
      sorted_head_ = 0;
      nonempty_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    }
    cur_bucket_ = peeked_bucket_;
  }
  --count_;
  // The window moved forward: bring in far keys it now covers.
  while (!far_.empty() && (far_.front().time >> kBucketShift) < cur_bucket_ + static_cast<std::int64_t>(kBuckets)) {
    std::pop_heap(far_.begin(), far_.end(), FarLater{});
    const Key k = far_.back();
    far_.pop_back();
    --count_;
    push_key(k);
  }
  now_ = top.time;
  ++processed_;
  top.fn(top.obj, top.arg);
}

void EventQueue::arm()
{
  Ps want;
  if (!deferred_.empty())
    want = now_;
  else if (const Key* k = peek())
    want = k->time;
  else
    return;
  if (timer_ != nullptr) {
    if (timer_at_ <= want)
      return;
    timer_->remove();
  }
  timer_at_ = want;
  timer_    = simgrid::kernel::timer::Timer::set(ps_to_seconds(want), [this, want] { fire(want); });
}

bool EventQueue::defer_wake(Notifier* n)
{
  if (!in_fire_)
    return false;
  if (now_ <= fire_clock_) {
    // The actor runs at SimGrid's current date: no event past that date may be processed first.
    woke_in_batch_ = true;
    return false;
  }
  deferred_.push_back(n);
  stop_batch_ = true;
  return true;
}

void EventQueue::fire(Ps due)
{
  timer_   = nullptr;
  in_fire_ = true;
  // Past 2^53 ps (about 2.5 hours) a picosecond date does not survive the round trip through
  // SimGrid's double clock: the timer set for `due` may fire at a clock that reads a few ps
  // earlier. It is the same instant; without this, the events at `due` would never be due.
  const Ps clock = std::max(clock_ps(), due);
  fire_clock_    = clock;
  now_           = std::max(now_, clock);
  woke_in_batch_ = false;
  if (!deferred_.empty()) {
    std::vector<Notifier*> wakes;
    wakes.swap(deferred_);
    for (Notifier* n : wakes)
      n->release_now();
    woke_in_batch_ = true;
  }
  stop_batch_ = false;
  while (const Key* next = peek()) {
    const Ps t = next->time;
    if (t > clock) {
      // Look ahead only while no actor can act before t: none inside a SimGrid activity, and no
      // other SimGrid timer due first.
      if (!lookahead_ || activities_ != 0 || woke_in_batch_ || (time_limit_ > 0 && t > time_limit_))
        break;
      const double other = simgrid::kernel::timer::Timer::next();
      if (other >= 0 && seconds_to_ps(other) <= t)
        break;
    }
    run_top();
    if (stop_batch_)
      break;
  }
  in_fire_ = false;
  arm();
}

void EventQueue::drain()
{
  in_fire_    = true;
  fire_clock_ = INT64_MAX; // no actor is left: every wake is immediate
  for (Notifier* n : deferred_)
    n->release_now();
  deferred_.clear();
  if (timer_ != nullptr) {
    timer_->remove();
    timer_ = nullptr;
  }
  while (!empty())
    run_top();
  in_fire_ = false;
}

} // namespace shmemsim::sim
