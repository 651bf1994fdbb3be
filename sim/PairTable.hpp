// Per-pair state (source x destination) without hashing: one row per source, allocated the first
// time that source is seen, indexed directly by destination.
#pragma once

#include <cstddef>
#include <vector>

namespace shmemsim::sim {

template <class T> class PairTable {
public:
  explicit PairTable(std::size_t columns = 0) : columns_(columns) {}
  void set_columns(std::size_t columns) { columns_ = columns; }

  T& at(std::size_t row, std::size_t column)
  {
    if (row >= rows_.size())
      rows_.resize(row + 1);
    std::vector<T>& r = rows_[row];
    if (r.empty())
      r.resize(columns_);
    return r[column];
  }

private:
  std::size_t columns_;
  std::vector<std::vector<T>> rows_;
};

} // namespace shmemsim::sim
