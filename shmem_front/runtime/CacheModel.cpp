#include "shmem_front/runtime/CacheModel.hpp"

#include "base/Assert.hpp"

#include <algorithm>

namespace shmemsim::front {

namespace {
constexpr std::uint64_t kPage = 4096; ///< the sampled lines are chosen by their offset in a page of this size

bool power_of_two(std::uint64_t v)
{
  return v != 0 && (v & (v - 1)) == 0;
}

int log2_of(std::uint64_t v)
{
  int n = 0;
  while (v > 1) {
    v >>= 1;
    ++n;
  }
  return n;
}
} // namespace

LruLines::LruLines(std::size_t capacity) : capacity_(capacity)
{
  SHMEMSIM_ASSERT(capacity > 0 && capacity < kNil, "a cache level holds at least one line");
  // Nothing reserved: a thread's model grows with the lines it touches (a machine's 300 MiB L3 is
  // 300000 sampled lines, and a run may have hundreds of threads).
}

void LruLines::unlink(std::uint32_t n)
{
  Node& x                                        = nodes_[n];
  (x.prev != kNil ? nodes_[x.prev].next : head_) = x.next;
  (x.next != kNil ? nodes_[x.next].prev : tail_) = x.prev;
}

void LruLines::push_front(std::uint32_t n)
{
  Node& x = nodes_[n];
  x.prev  = kNil;
  x.next  = head_;
  if (head_ != kNil)
    nodes_[head_].prev = n;
  head_ = n;
  if (tail_ == kNil)
    tail_ = n;
}

bool LruLines::touch(std::uint64_t line)
{
  if (auto it = index_.find(line); it != index_.end()) {
    if (it->second != head_) {
      unlink(it->second);
      push_front(it->second);
    }
    return true;
  }
  std::uint32_t n;
  if (nodes_.size() < capacity_) {
    n = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back(Node{line, kNil, kNil});
  } else { // the least recently used line leaves; its node takes the new one
    n = tail_;
    unlink(n);
    index_.erase(nodes_[n].line);
    nodes_[n].line = line;
  }
  push_front(n);
  index_.emplace(line, n);
  return false;
}

TlbModel::TlbModel(const CacheConfig& c)
{
  SHMEMSIM_ASSERT(c.tlb_walkers >= 1 && c.parallelism >= 1, "at least one page walk and one miss at a time");
  if (c.tlb_entries.empty() || c.tlb_entries.front() == 0)
    return; // no first level: no TLB model
  for (const std::uint64_t entries : c.tlb_entries)
    if (entries != 0)
      levels_.emplace_back(static_cast<std::size_t>(entries));
  const double s = c.sampling, mlp = c.parallelism, walkers = c.tlb_walkers;
  const auto fs  = [](double v) { return static_cast<std::uint64_t>(v + 0.5); };
  adds_.resize(levels_.size() + 1); // the first level adds nothing
  for (std::size_t i = 1; i < adds_.size(); ++i) {
    const bool walk = i == levels_.size();
    const double e  = static_cast<double>(walk ? c.tlb_walk : c.tlb_hit) * 1e3; // fs
    // A walk occupies one of the core's page-miss handlers; a second level's hit does not.
    const double floor = walk ? e / walkers : 0.0;
    adds_[i] = Add{.chain          = fs(e * s),
                   .overlap        = fs(e / mlp * s),
                   .floor          = fs(floor * s),
                   .stream_overlap = fs(e / mlp),
                   .stream_floor   = fs(floor)};
  }
}

namespace {
/// Touch `key` in each level from the first until one holds it: that level's index (levels.size()
/// if none did). A TLB's pages and a cache's lines walk their levels alike.
int first_holding(std::vector<LruLines>& levels, std::uint64_t key)
{
  int level = 0;
  while (level < static_cast<int>(levels.size()) && !levels[static_cast<std::size_t>(level)].touch(key))
    ++level;
  return level;
}
} // namespace

int TlbModel::access(std::uint64_t address)
{
  const std::uint64_t page = address / kPage;
  if (page == last_page_)
    return 0; // the most recent page: the first level's most recently used
  last_page_ = page;
  return first_holding(levels_, page);
}

std::uint64_t TlbModel::price(int level, unsigned flags, std::uint64_t cache_fs) const
{
  SHMEMSIM_ASSERT(level >= 0 && level <= levels(), "a TLB level or a page walk");
  if (level == 0)
    return cache_fs;
  const Add& a = adds_[static_cast<std::size_t>(level)];
  if ((flags & kRefChain) != 0)
    return cache_fs + a.chain;
  if ((flags & kRefStream) != 0)
    return std::max(cache_fs + a.stream_overlap, a.stream_floor);
  return std::max(cache_fs + a.overlap, a.floor);
}

CacheModel::CacheModel(const CacheConfig& c) : tlb_(c)
{
  SHMEMSIM_ASSERT(power_of_two(c.line) && c.line <= kPage && power_of_two(c.sampling) && c.sampling * c.line <= kPage &&
                      c.parallelism >= 1 && c.sizes.size() == c.latencies.size(),
                  "a cache model of whole sampled lines (the scenario's keys are checked: HostParams::cache_problem)");
  line_shift_      = static_cast<std::uint64_t>(log2_of(c.line));
  mask_            = (c.sampling - 1) * c.line;
  const double s   = c.sampling;
  const Ps first   = c.latencies.empty() ? 0 : c.latencies.front();
  const double mlp = c.parallelism;
  const double line_fs =
      c.memory_bandwidth > 0 ? static_cast<double>(c.line) * 8 / static_cast<double>(c.memory_bandwidth) * 1e15 : 0;
  const auto extra_fs = [first](Ps latency) {
    return latency > first ? static_cast<double>(latency - first) * 1e3 : 0.0;
  };
  const auto fs = [](double v) { return static_cast<std::uint64_t>(v + 0.5); };
  for (std::size_t i = 0; i < c.sizes.size(); ++i) {
    if (c.sizes[i] == 0)
      continue;
    levels_.emplace_back(static_cast<std::size_t>(std::max<std::uint64_t>(1, c.sizes[i] / c.line / c.sampling)));
    const double extra = levels_.size() == 1 ? 0.0 : extra_fs(c.latencies[i]);
    const double stream =
        levels_.size() == 1 || i >= c.line_times.size() ? 0.0 : static_cast<double>(c.line_times[i]) * 1e3;
    // A store that misses the first level: its line's read for ownership overlaps less than a load's
    // miss (the store buffer drains in order), so it costs at least the level's measured time per
    // line written, independent or in a stream.
    const double store =
        levels_.size() == 1 || i >= c.store_times.size() ? 0.0 : static_cast<double>(c.store_times[i]) * 1e3;
    price_load_.push_back(fs(extra / mlp * s));
    price_store_.push_back(fs(std::max(extra / mlp, store) * s));
    price_chain_.push_back(fs(extra * s));
    price_stream_load_.push_back(fs(stream * s));
    price_stream_store_.push_back(fs(std::max(stream, store) * s));
  }
  const double extra = extra_fs(c.memory_latency);
  price_load_.push_back(fs(std::max(extra / mlp, line_fs) * s));
  price_store_.push_back(fs(std::max(extra / mlp, 2 * line_fs) * s));
  price_chain_.push_back(fs(extra * s));
  price_stream_load_.push_back(fs(line_fs * s));
  price_stream_store_.push_back(fs(2 * line_fs * s));
}

int CacheModel::access(std::uint64_t address)
{
  const std::uint64_t line = address >> line_shift_;
  if (line == last_line_ && !levels_.empty())
    return 0; // the most recent line: the first level's most recently used
  last_line_ = line;
  return first_holding(levels_, line);
}

std::uint64_t CacheModel::price(int level, unsigned flags) const
{
  const auto i = static_cast<std::size_t>(level);
  SHMEMSIM_ASSERT(level >= 0 && level <= levels(), "a cache level or memory");
  if ((flags & kRefChain) != 0)
    return price_chain_[i];
  if ((flags & kRefStream) != 0)
    return (flags & kRefStore) != 0 ? price_stream_store_[i] : price_stream_load_[i];
  return (flags & kRefStore) != 0 ? price_store_[i] : price_load_[i];
}

std::uint64_t CacheModel::reference(std::uint64_t address, unsigned flags)
{
  const std::uint64_t cache = price(access(address), flags);
  return tlb_.enabled() ? tlb_.price(tlb_.access(address), flags, cache) : cache;
}

} // namespace shmemsim::front
