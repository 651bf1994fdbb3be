#include "shmem_front/lib/SymmetricHeap.hpp"

#include <algorithm>

namespace shmemsim::front {

void SymmetricHeap::reset(std::size_t size, std::size_t reserved)
{
  size_     = size;
  reserved_ = std::min(reserved, size);
  in_use_   = 0;
  free_.clear();
  used_.clear();
  if (size_ > reserved_)
    free_[reserved_] = size_ - reserved_;
}

std::optional<std::size_t> SymmetricHeap::allocate(std::size_t bytes, std::size_t alignment, std::size_t residue)
{
  if (bytes == 0)
    bytes = 1;
  residue %= alignment;
  if (alignment < 16 && residue == 0)
    alignment = 16; // the smallest alignment of every block
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::size_t start   = it->first;
    const std::size_t len     = it->second;
    const std::size_t aligned = start + (residue + alignment - start % alignment) % alignment;
    if (aligned - start > len || len - (aligned - start) < bytes)
      continue;
    free_.erase(it);
    if (aligned > start)
      free_[start] = aligned - start;
    const std::size_t end = start + len;
    if (aligned + bytes < end)
      free_[aligned + bytes] = end - (aligned + bytes);
    used_[aligned] = bytes;
    in_use_ += bytes;
    return aligned;
  }
  return std::nullopt;
}

bool SymmetricHeap::release(std::size_t offset)
{
  auto u = used_.find(offset);
  if (u == used_.end())
    return false;
  std::size_t start = offset;
  std::size_t len   = u->second;
  in_use_ -= len;
  used_.erase(u);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + len) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      len += prev->second;
      free_.erase(prev);
    }
  }
  free_[start] = len;
  return true;
}

std::optional<std::size_t> SymmetricHeap::block_size(std::size_t offset) const
{
  auto u = used_.find(offset);
  if (u == used_.end())
    return std::nullopt;
  return u->second;
}

std::size_t SymmetricHeap::largest_free() const
{
  std::size_t m = 0;
  for (const auto& [o, l] : free_)
    m = std::max(m, l);
  return m;
}

} // namespace shmemsim::front
