// The memory hierarchy of counted compute (job.compute=counted): a deterministic model of one
// core's caches that prices the memory references the program's instrumented code reports.
//
// The plugin (shmem_front/tools/plugin/count_plugin.cc) makes every load and store through memory
// report its address when its cache line is one of the sampled lines: those whose index within
// their 4 KiB page is a multiple of `sampling` (page offsets do not change with address-space
// randomization, so the same program and scenario sample the same lines). Each thread keeps an LRU
// list per cache level over the sampled lines only, each level `size / line / sampling` lines long,
// fully associative (set indices would come from address bits the kernel randomizes). A reference
// looks the levels up in order and the levels that missed keep the line (a hit in the first level
// leaves the others' order alone). Each sampled
// reference costs what a reference of its kind costs at the level that held it, times `sampling`
// (it stands for that many lines):
//  - in the first level: nothing more (a hit is in the block's instructions and chains);
//  - in a lower level or memory, on a loop's dependency chain (pointer chasing): that level's
//    latency less the first level's, in full;
//  - otherwise (independent references, whose misses overlap): that difference divided by the
//    misses a core keeps in flight (`parallelism`), and from memory at least the line's transfer at
//    the core's memory bandwidth (twice for a store: the line is read, then written back);
//  - a stream's (an innermost loop's reference whose address advances by a small constant step,
//    whose lines the hardware prefetchers fetch ahead): the time the core takes per line to read a
//    stream from that level (`line_times`), from memory the line's transfer at the bandwidth (a
//    store's two);
//  - a store's, in a lower cache level, at least that level's time per line written
//    (`store_times`, when given): stores leave the store buffer in order, and the reads for
//    ownership of the lines they miss overlap less than loads' misses.
// Each sampled reference's page (4 KiB; huge pages are not modelled: a program maps them only on
// request) also goes through the core's data TLBs (TlbModel): LRU lists of pages, each level its
// real number of entries. A page found below the first level adds that level's time (the second
// level's hit, or a page walk): in full on a chain; for independent references it overlaps with
// the other misses (over `parallelism`), and page walks take at least the walk over the walks a
// core does at once; a walk stands for `sampling` walks, except a stream's (its other lines are in
// the same page: one walk a page).
#pragma once

#include "shmem_front/runtime/RuntimeParams.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace shmemsim::front {

/// What a reference is, as the plugin reports it (flags of __shmemsim_memory).
enum MemoryRef : unsigned {
  kRefLoad   = 0,
  kRefStore  = 1, ///< a store (never on a chain)
  kRefChain  = 2, ///< a load on an innermost loop's dependency chain
  kRefStream = 4, ///< in an innermost loop, an address that advances by a small constant step
};

/// One level's lines: least recently used first out, fully associative.
class LruLines {
public:
  explicit LruLines(std::size_t capacity);
  /// Whether `line` is held; it becomes the most recently used either way (a miss brings it in,
  /// evicting the least recently used line when full).
  bool touch(std::uint64_t line);
  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return index_.size(); }

private:
  struct Node {
    std::uint64_t line;
    std::uint32_t prev, next;
  };
  static constexpr std::uint32_t kNil = 0xFFFFFFFFu;
  void unlink(std::uint32_t n);
  void push_front(std::uint32_t n);

  std::size_t capacity_;
  std::vector<Node> nodes_;
  std::unordered_map<std::uint64_t, std::uint32_t> index_;
  std::uint32_t head_ = kNil, tail_ = kNil;
};

/// One core's data TLBs over the pages of the sampled references, and what a page found in a
/// lower level (or walked) adds to a reference's cache price.
class TlbModel {
public:
  explicit TlbModel(const CacheConfig& config);
  /// Whether there is any TLB level (none: references cost their cache price alone).
  bool enabled() const { return !levels_.empty(); }
  int levels() const { return static_cast<int>(levels_.size()); }
  /// The level that held the page of `address` (0: the first; levels(): none, a page walk); every
  /// level above it (looked up and missed) then holds the page, as its most recently used.
  int access(std::uint64_t address);
  /// The cost, in femtoseconds, of a sampled reference of kind `flags` whose cache price is
  /// `cache_fs` and whose page was found at `level`.
  std::uint64_t price(int level, unsigned flags, std::uint64_t cache_fs) const;

private:
  /// What a page found at one level adds (fs): in full on a chain; otherwise overlapped with the
  /// misses in flight, at least the walk over the walkers (a walk), a stream's once per page.
  struct Add {
    std::uint64_t chain = 0, overlap = 0, floor = 0, stream_overlap = 0, stream_floor = 0;
  };
  std::vector<LruLines> levels_;
  std::vector<Add> adds_; ///< by level, 0..levels() (a walk last)
  std::uint64_t last_page_ = ~std::uint64_t{0};
};

/// One core's (one simulated thread's) cache levels over the sampled lines, and the price of a
/// reference by the level that held it and its kind.
class CacheModel {
public:
  explicit CacheModel(const CacheConfig& config);

  /// Whether the model looks at the line of `address` (the sampled lines' test, as the program's
  /// inline code does it).
  bool sampled(std::uint64_t address) const { return (address & mask_) == 0; }
  /// The level that held the line of `address` (0: the first; levels(): memory); every level above
  /// it (looked up and missed) then holds it too, as its most recently used line.
  int access(std::uint64_t address);
  /// The cost, in femtoseconds, of a sampled reference of kind `flags` (MemoryRef) at `address`:
  /// its cache level's price and what its page's translation adds.
  std::uint64_t reference(std::uint64_t address, unsigned flags);
  const TlbModel& tlb() const { return tlb_; }
  /// The cost, in femtoseconds, of a sampled reference of kind `flags` served by `level`.
  std::uint64_t price(int level, unsigned flags) const;
  int levels() const { return static_cast<int>(levels_.size()); }
  /// The sampled lines' address test for the program's inline code: (address & mask) == 0.
  std::uint64_t mask() const { return mask_; }

private:
  std::vector<LruLines> levels_;
  std::uint64_t line_shift_ = 6;
  std::uint64_t mask_       = 0;
  std::uint64_t last_line_  = ~std::uint64_t{0}; ///< the most recent line (in the first level)
  TlbModel tlb_;
  /// fs by level (0..levels(), memory last) and kind: load, store, chain load
  std::vector<std::uint64_t> price_load_, price_store_, price_chain_, price_stream_load_, price_stream_store_;
};

} // namespace shmemsim::front
