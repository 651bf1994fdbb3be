// Per-pair state (source x destination) for the pairs that have some, and only those: an
// open-addressing hash table (linear probing, at most half full, deletion by backward shift, so no
// tombstones). Memory follows the number of pairs present at once, not the square of the number of
// endpoints; the models erase a pair's entry when it holds nothing worth keeping (nothing in flight),
// so a long run between many pairs needs no more than its busiest moment.
//
// Lookups never depend on the table's layout for their results, and nothing iterates over it, so
// results are the same whatever the hashing. References to values stay valid until the next
// insertion or erasure.
#pragma once

#include "base/Assert.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace shmemsim::sim {

template <class T> class PairMap {
public:
  PairMap() { table_.resize(kMinCapacity); }

  /// The entry of (row, column), made (value-initialised) if absent.
  T& at(std::uint32_t row, std::uint32_t column)
  {
    const std::uint64_t key = make_key(row, column);
    std::size_t i           = home(key);
    while (table_[i].key != kEmpty) {
      if (table_[i].key == key)
        return table_[i].value;
      i = (i + 1) & mask();
    }
    if (2 * (size_ + 1) > table_.size()) {
      grow();
      return at(row, column);
    }
    table_[i].key = key;
    ++size_;
    return table_[i].value;
  }

  /// The entry of (row, column), or null if absent.
  T* find(std::uint32_t row, std::uint32_t column)
  {
    const std::uint64_t key = make_key(row, column);
    for (std::size_t i = home(key); table_[i].key != kEmpty; i = (i + 1) & mask())
      if (table_[i].key == key)
        return &table_[i].value;
    return nullptr;
  }

  /// Forget the entry of (row, column) (it must exist).
  void erase(std::uint32_t row, std::uint32_t column)
  {
    const std::uint64_t key = make_key(row, column);
    std::size_t i           = home(key);
    while (table_[i].key != key) {
      SHMEMSIM_ASSERT(table_[i].key != kEmpty, "erasing a pair that has no entry");
      i = (i + 1) & mask();
    }
    // Backward shift: move up every later entry of the probe run that may live in the hole.
    std::size_t hole = i;
    for (std::size_t j = (i + 1) & mask(); table_[j].key != kEmpty; j = (j + 1) & mask()) {
      const std::size_t h = home(table_[j].key);
      // Entry j may move to the hole if its home is not cyclically in (hole, j].
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays)
        continue;
      table_[hole] = std::move(table_[j]);
      hole         = j;
    }
    table_[hole] = Entry{};
    --size_;
  }

  std::size_t size() const { return size_; }
  /// Bytes the table holds (for memory reports).
  std::size_t bytes() const { return table_.capacity() * sizeof(Entry); }

private:
  static constexpr std::uint64_t kEmpty     = ~std::uint64_t{0};
  static constexpr std::size_t kMinCapacity = 16;
  struct Entry {
    std::uint64_t key = kEmpty;
    T value{};
  };

  static std::uint64_t make_key(std::uint32_t row, std::uint32_t column)
  {
    return (static_cast<std::uint64_t>(row) << 32) | column; // never kEmpty: rows are endpoints or nodes
  }
  std::size_t mask() const { return table_.size() - 1; }
  std::size_t home(std::uint64_t key) const
  {
    // Fibonacci hashing: the high bits of key x 2^64/phi spread neighbouring pairs over the table.
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow()
  {
    std::vector<Entry> old;
    old.swap(table_);
    table_.resize(old.size() * 2);
    --shift_;
    size_ = 0;
    for (Entry& e : old) {
      if (e.key == kEmpty)
        continue;
      std::size_t i = home(e.key);
      while (table_[i].key != kEmpty)
        i = (i + 1) & mask();
      table_[i] = std::move(e);
      ++size_;
    }
  }

  std::vector<Entry> table_;
  int shift_        = 64 - 4; // log2(kMinCapacity) bits of hash
  std::size_t size_ = 0;
};

} // namespace shmemsim::sim
