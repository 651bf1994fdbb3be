// The symmetric heap allocator of one PE. Deterministic: the same sequence of calls gives the
// same offsets on every PE, which is what makes shmem_malloc'ed memory symmetric.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

namespace shmemsim::front {

class SymmetricHeap {
public:
  /// Manage [reserved, size) of a region; the first `reserved` bytes belong to the library.
  void reset(std::size_t size, std::size_t reserved);

  /// Offset of a new block, or nothing if it does not fit. `alignment` is a power of two; the
  /// offset is congruent to `residue` modulo `alignment` (so that base + offset is aligned for a
  /// base that is not: residue = -base mod alignment).
  std::optional<std::size_t> allocate(std::size_t bytes, std::size_t alignment = 64, std::size_t residue = 0);
  /// Free the block at `offset`; false if no block starts there.
  bool release(std::size_t offset);
  /// Size of the block at `offset`, or nothing.
  std::optional<std::size_t> block_size(std::size_t offset) const;

  std::size_t in_use() const { return in_use_; }
  std::size_t capacity() const { return size_ - reserved_; }
  std::size_t largest_free() const;

private:
  std::size_t size_     = 0;
  std::size_t reserved_ = 0;
  std::size_t in_use_   = 0;
  std::map<std::size_t, std::size_t> free_; ///< offset -> length, coalesced
  std::map<std::size_t, std::size_t> used_; ///< offset -> length
};

} // namespace shmemsim::front
