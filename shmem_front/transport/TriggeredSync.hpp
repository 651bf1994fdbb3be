// Barriers offloaded to the NICs on Portals triggered operations (job.collectives.barrier =
// triggered; sim/portals_model/Triggered.cpp), in the manner of the published triggered-operation
// collectives: the binomial tree of the host-driven `tree` barrier (root: the group's first PE),
// with every forwarding step done by a NIC.
//
// Per group of PEs (the first barrier on a member list sets it up for every member at once, so no
// message can arrive before its entry exists): two portal table entries on PTs of its own, each
// with a non-matching list entry counted by a CT of the PE's: `gather` counts the PE's own arrival
// and its children's, `release` its parent's release. Per PE, an 8-byte MD the NIC sends the
// zero-byte messages from. The k-th barrier of a PE with c children:
//   - a PE that is not the root posts a triggered put to its parent's gather entry, released when
//     its gather CT reaches k (c + 1), and a triggered put to each child's release entry, released
//     when its release CT reaches k;
//   - the root posts a triggered put to each child's release entry, released when its gather CT
//     reaches k (c + 1);
//   - then the PE counts its own arrival (PtlCTInc on gather) and waits: the root on its gather CT
//     reaching k (c + 1), the others on their release CT reaching k.
// Thresholds grow with k, so the counters are never reset. The host spends one Portals call's
// initiation cost per posted operation and for the increment; nothing else runs on it.
#pragma once

#include "shmem_front/lib/PeList.hpp"
#include "sim/portals_model/Network.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace shmemsim::front {

class TriggeredSync {
public:
  /// `fatal` reports a limit that stops the barrier (one line naming it).
  TriggeredSync(portals::Network& net, std::function<void(const std::string&)> fatal);

  /// One barrier among `members` (world PEs, which are the network's endpoints), called by
  /// members[me] on its own simulated thread.
  void run(const PeList& members, int me);

private:
  struct Side {
    portals::CtHandle gather, release;
    std::uint64_t barriers = 0; ///< this PE's barriers on the group so far
  };
  struct Group {
    std::uint32_t gather_pt = 0, release_pt = 0;
    std::vector<Side> sides; ///< by member index
  };
  Group& group_of(const PeList& members);
  /// PE `pe`'s send MD (bound at its first use).
  portals::MdHandle send_md(int pe);
  /// Fatal (one line) unless `s` is Ok: `what` failed, on PE `owner`'s NIC when it is not the
  /// caller's (-1: the caller's).
  void check(portals::Status s, portals::Ni& ni, const char* what, int owner = -1);

  portals::Network& net_;
  std::function<void(const std::string&)> fatal_;
  std::map<std::vector<int>, Group> groups_;
  std::vector<portals::MdHandle> mds_;  ///< by PE (index -1: not bound yet)
  std::vector<std::uint64_t> md_words_; ///< the MDs' memory (nothing is read from it: zero-byte puts)
  std::uint32_t next_pt_ = 2;           ///< PTs 0 and 1 are the symmetric memory's (PortalsTransport)
};

} // namespace shmemsim::front
