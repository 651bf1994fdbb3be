// The binomial tree of the host-driven tree barrier and binomial broadcast (collectives.cpp), for
// the collectives the NICs run (TriggeredSync.hpp), over ranks relative to the tree's root: rank
// r's subtree spans r .. r + lowbit(r) - 1 (the root's: every rank); its children are r + 1,
// r + 2, r + 4, ... below that span; its parent is r - lowbit(r).
#pragma once

#include <array>

namespace shmemsim::front {

/// Rank r's children among n ranks, smallest first, held without allocating.
class TreeKids {
public:
  TreeKids(int r, int n)
  {
    const unsigned u     = static_cast<unsigned>(r);
    const unsigned limit = r == 0 ? static_cast<unsigned>(n) : u & (~u + 1); // lowbit(r)
    for (unsigned m = 1; m < limit && r + static_cast<int>(m) < n; m <<= 1)
      kids_[static_cast<std::size_t>(size_++)] = r + static_cast<int>(m);
  }
  int size() const { return size_; }
  int operator[](int i) const { return kids_[static_cast<std::size_t>(i)]; }

private:
  std::array<int, 32> kids_{};
  int size_ = 0;
};

inline int tree_parent(int r)
{
  const unsigned u = static_cast<unsigned>(r);
  return r - static_cast<int>(u & (~u + 1));
}

/// Rank r's position among its parent's children (r = parent + 2^position).
inline int child_position(int r)
{
  return __builtin_ctz(static_cast<unsigned>(r - tree_parent(r)));
}

} // namespace shmemsim::front
