// World PEs by index, as a team, an active set or a legacy (PE_start, logPE_stride, PE_size)
// triplet names them. A progression (start + i * stride: the world team, strided splits and
// triplets, most sets) is held in constant space, so that no PE keeps a list of every PE of a
// large job; any other order (SHMEM_TEAM_SHARED on an irregular placement, 2D splits' columns,
// generic sets) is an explicit list.
#pragma once

#include "base/Assert.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace shmemsim::front {

class PeList {
public:
  PeList() = default;
  /// start, start + stride, ... (size PEs; stride >= 1).
  static PeList strided(int start, long stride, int size)
  {
    SHMEMSIM_ASSERT(size >= 0 && stride >= 1, "a progression of PEs has a positive stride");
    PeList l;
    l.start_  = start;
    l.stride_ = stride;
    l.size_   = static_cast<std::size_t>(size);
    return l;
  }
  /// `pes` in this order, held as a progression when it is one.
  static PeList listed(std::vector<int> pes)
  {
    const std::size_t n = pes.size();
    const long stride   = n > 1 ? static_cast<long>(pes[1]) - pes[0] : 1;
    bool progression    = stride >= 1;
    for (std::size_t i = 2; progression && i < n; ++i)
      progression = static_cast<long>(pes[i]) - pes[i - 1] == stride;
    if (progression)
      return strided(n > 0 ? pes[0] : 0, stride, static_cast<int>(n));
    PeList l;
    l.size_ = n;
    l.list_ = std::move(pes);
    return l;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// The world PE of index `i` (< size()).
  int operator[](std::size_t i) const
  {
    return list_.empty() ? static_cast<int>(start_ + static_cast<long>(i) * stride_) : list_[i];
  }
  /// The index of world PE `pe`, or -1 if it is not a member.
  int index_of(int pe) const
  {
    if (list_.empty()) {
      const long d = static_cast<long>(pe) - start_;
      if (d < 0 || d % stride_ != 0 || static_cast<std::size_t>(d / stride_) >= size_)
        return -1;
      return static_cast<int>(d / stride_);
    }
    for (std::size_t i = 0; i < size_; ++i)
      if (list_[i] == pe)
        return static_cast<int>(i);
    return -1;
  }
  bool contains(int pe) const { return index_of(pe) >= 0; }
  /// The PEs in a word with no blank, for traces: "4" (one PE), "0..15" (a progression of stride
  /// 1), "0..30/2" (stride 2), "3,7,1" (any other list of up to 8 PEs), "3,7,1,2,...(40)" (its
  /// first 4 PEs and its size).
  std::string text() const
  {
    if (size_ == 1)
      return std::to_string((*this)[0]);
    if (list_.empty())
      return std::to_string(start_) + ".." + std::to_string((*this)[size_ - 1]) +
             (stride_ == 1 ? std::string() : "/" + std::to_string(stride_));
    std::string s;
    const std::size_t shown = size_ <= 8 ? size_ : 4;
    for (std::size_t i = 0; i < shown; ++i)
      s += (i == 0 ? "" : ",") + std::to_string(list_[i]);
    return shown == size_ ? s : s + ",...(" + std::to_string(size_) + ")";
  }
  /// Bytes held beyond the object itself (0 for a progression).
  std::size_t heap_bytes() const { return list_.capacity() * sizeof(int); }

private:
  int start_        = 0;
  long stride_      = 1;
  std::size_t size_ = 0;
  std::vector<int> list_; ///< empty for a progression
};

} // namespace shmemsim::front
