// Log-linear histogram of durations: exact count, sum, min and max; percentiles within 1/64
// (about 1.6 %) of the true value. Memory is fixed whatever the number of samples.
#pragma once

#include "base/Time.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace shmemsim::sim {

class Histogram {
public:
  void add(Ps v)
  {
    if (v < 0)
      v = 0;
    ++count_;
    sum_ += static_cast<long double>(v);
    min_ = count_ == 1 ? v : std::min(min_, v);
    max_ = std::max(max_, v);
    ++buckets_[index(static_cast<std::uint64_t>(v))];
  }
  void merge(const Histogram& o)
  {
    if (o.count_ == 0)
      return;
    min_ = count_ == 0 ? o.min_ : std::min(min_, o.min_);
    max_ = std::max(max_, o.max_);
    count_ += o.count_;
    sum_ += o.sum_;
    for (std::size_t i = 0; i < buckets_.size(); ++i)
      buckets_[i] += o.buckets_[i];
  }

  std::uint64_t count() const { return count_; }
  Ps min() const { return min_; }
  Ps max() const { return max_; }
  double mean() const { return count_ == 0 ? 0.0 : static_cast<double>(sum_ / static_cast<long double>(count_)); }

  /// Value at quantile q in [0, 1] (the lower bound of the bucket holding it, clamped to [min, max]).
  Ps quantile(double q) const
  {
    if (count_ == 0)
      return 0;
    const auto rank    = static_cast<std::uint64_t>(q * static_cast<double>(count_ - 1));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
      seen += buckets_[i];
      if (seen > rank)
        return std::clamp(lower_bound(i), min_, max_);
    }
    return max_;
  }

private:
  static constexpr int kSub = 64; // sub-buckets per power of two
  static std::size_t index(std::uint64_t v)
  {
    if (v < kSub)
      return static_cast<std::size_t>(v);
    const int e = 63 - std::countl_zero(v) - 6; // v >> e in [64, 128)
    return static_cast<std::size_t>(kSub * e + static_cast<int>(v >> e));
  }
  static Ps lower_bound(std::size_t i)
  {
    if (i < kSub)
      return static_cast<Ps>(i);
    const std::size_t e = i / kSub - 1;
    const std::size_t m = i % kSub + kSub;
    return static_cast<Ps>(static_cast<std::uint64_t>(m) << e);
  }

  std::uint64_t count_ = 0;
  long double sum_     = 0;
  Ps min_              = 0;
  Ps max_              = 0;
  std::array<std::uint64_t, kSub * 60> buckets_{};
};

} // namespace shmemsim::sim
