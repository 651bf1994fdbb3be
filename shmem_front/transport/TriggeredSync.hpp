// Collectives offloaded to the NICs on Portals triggered operations (job.collectives.barrier =
// triggered, job.collectives.broadcast = triggered; sim/portals_model/Triggered.cpp), in the manner
// of the published triggered-operation collectives (Underwood et al., Hot Interconnects 2011): the
// binomial trees of the host-driven algorithms, with every forwarding step done by a NIC.
//
// Per group of PEs (a member list; the first collective on it sets it up for every member at
// once, so no message can arrive before its entry exists; the last member to leave it at a team's
// destruction frees it on every member's NIC, CTs, list entries, PTs, and a PE's MDs and CTs once
// it belongs to no group any more, unless a member already runs another collective on the list).
//
// Barrier (TriggeredSync.cpp): two portal table entries on PTs of their own, each with a
// non-matching list entry counted by a CT of the PE's: `gather` counts the PE's own arrival and
// its children's, `release` its parent's release. Per PE, an 8-byte MD the NIC sends the zero-byte
// messages from. The k-th barrier of a PE with c children:
//   - a PE that is not the root posts a triggered put to its parent's gather entry, released when
//     its gather CT reaches k (c + 1), and a triggered put to each child's release entry, released
//     when its release CT reaches k;
//   - the root posts a triggered put to each child's release entry, released when its gather CT
//     reaches k (c + 1);
//   - then the PE counts its own arrival (PtlCTInc on gather) and waits: the root on its gather CT
//     reaching k (c + 1), the others on their release CT reaching k.
//
// Broadcast (TriggeredBcast.cpp): two more PTs per group (set up at the group's first broadcast),
// with list entries over the PE's symmetric data and heap, counted by the PE's `data` CT. The tree
// is the host-driven binomial broadcast's, rooted at the call's root. The root puts the data to
// its children; every other PE posts a triggered put of its dest to each child, released when its
// data CT reaches the number of broadcasts it has received (this one included), then waits for
// that count: the NIC forwards the data the moment it lands. Every PE then waits until its NIC has
// sent what it forwards (a per-PE CT counting the send events of a whole-memory MD), so the
// buffer is its program's again when the call returns. One message per child: data above
// platform.nic.limits.max_msg_size are not offloaded (broadcast() says why; the caller falls back).
//
// Reduction (TriggeredReduce.cpp; job.collectives.reduce=triggered: an allreduce of at most
// platform.nic.limits.max_atomic_size bytes of integers), on the barrier's tree (root: member 0),
// one more PT per group with a list entry over a scratch area of the PE's, counted by its `red`
// CT: per call parity, an accumulator and one slot per child. At its k-th reduction a PE copies
// its source into its accumulator (the host's only work on the data) and posts, for each child, a
// triggered atomic (the reduction's operation) of the child's slot into its own accumulator,
// released when its red CT has counted the children's k-th contributions; the atomics are
// acknowledged on a per-PE CT (`acked`), and a triggered put of the accumulator into its parent's
// slot is released once they all are. The root's NIC then puts the result to its children's dest
// and the others forward it as in the broadcast; the root's host copies it to its own dest. The
// NICs combine what the children sent in the order it arrives: integer results are those of the
// host algorithms bit for bit; floating-point reductions are not offloaded (their sums would
// depend on arrival order), nor data above max_atomic_size (reduce() says why).
//
// Seed 003's non-blocking broadcasts and reductions (TriggeredNb.cpp) run the same protocols, each
// outstanding call on a lane of its own (PTs, list entries and CTs set up for the call on every
// member, freed by each member once its part is complete), since with several outstanding a
// counter shared by the calls could not tell their data apart.
//
// Thresholds grow with each call, so the counters are never reset. The host spends one Portals
// call's initiation cost per posted operation (and for the barrier's increment); nothing else runs
// on it: it waits, without using its core, while the NICs forward.
#pragma once

#include "base/ShmemObserver.hpp"
#include "shmem_front/lib/PeList.hpp"
#include "shmem_front/lib/PeMemory.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "sim/portals_model/Network.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace shmemsim::front {

/// The Portals datatype of a reduction's element type; false for floating point (TriggeredReduce.cpp).
bool triggered_datatype(RedElem e, portals::Datatype* dt);
/// The NIC's atomic operation of a reduction's.
portals::AtomicOp triggered_op(RedOp op);

class TriggeredSync {
public:
  /// `memory[pe]`: every PE's symmetric memory. `fatal` reports a limit that stops a collective
  /// (one line naming it).
  TriggeredSync(portals::Network& net, const std::vector<PeMemory>& memory,
                std::function<void(const std::string&)> fatal);

  /// One barrier among `members` (world PEs, which are the network's endpoints), called by
  /// members[me] on its own simulated thread.
  void run(const PeList& members, int me);
  /// Seed 003's non-blocking barrier: members[me] posts its part of its next barrier on the list
  /// (as run() does) and returns at once. The number returned names it for test_barrier and
  /// wait_barrier (once either has seen it complete, it is forgotten).
  std::uint64_t start_barrier(const PeList& members, int me);
  /// True once barrier `id` is complete on the calling PE (its counter has reached its count);
  /// never blocks.
  bool test_barrier(std::uint64_t id);
  /// Blocks until barrier `id` is complete on the calling PE.
  void wait_barrier(std::uint64_t id);
  /// One broadcast of `bytes` from members[root]'s `source` to the others' `dest` (symmetric),
  /// called by members[me]. Null when done; else why the NICs cannot run it (nothing was done).
  const char* broadcast(const PeList& members, int me, void* dest, const void* source, std::size_t bytes, int root);
  /// An allreduce of `count` elements (`e`, `op`) of every member's `source` into every member's
  /// `dest` (symmetric), called by members[me]. Null when done; else why the NICs cannot run it.
  const char* reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest, const void* source,
                     std::size_t count);
  /// Seed 003's non-blocking broadcast and reduction (job.collectives.broadcast|reduce=triggered,
  /// TriggeredNb.cpp): members[me] posts its part of the call (the protocol of broadcast() and
  /// reduce() on resources of the call's own) and returns a number (> 0) for test_call and
  /// wait_call, which forget it once they have seen it complete. 0 when the NICs cannot run it
  /// (`*why` says why; nothing was done; the same answer on every member for the same call).
  std::uint64_t start_broadcast(const PeList& members, int me, void* dest, const void* source, std::size_t bytes,
                                int root, const char** why);
  std::uint64_t start_reduce(const PeList& members, int me, RedOp op, RedElem e, void* dest, const void* source,
                             std::size_t count, const char** why);
  /// True once call `id` is complete on the calling PE (dest holds the result, source and dest
  /// are the program's again); never blocks.
  bool test_call(std::uint64_t id);
  /// Blocks until call `id` is complete on the calling PE.
  void wait_call(std::uint64_t id);
  /// Non-blocking calls the NICs ran, and the most one PE had outstanding on their own resources.
  std::uint64_t nb_calls() const { return nb_calls_; }
  int nb_peak() const { return nb_peak_; }

  /// Report the PEs' waits on the collectives' counters to `obs` (null: no one listens), from the
  /// calling thread `thread()` of the PE: a wait on no context (-1), on the counter, for the count,
  /// named `kind@list` (`barrier@0..15`: PeList::text), so that traces show them.
  void observe(ShmemObserver* obs, std::function<int()> thread);
  /// The host's side of the Portals calls a collective makes on PE `pe`: `calls` that post an
  /// operation (a put, atomic, or their triggered forms) from `md` or `md2` (index -1: none) and
  /// `incs` counter increments (PtlCTInc, PtlTriggeredCTInc). It charges the calling thread one
  /// initiate_overhead per call and the stalls on the shared cache lines those calls update
  /// (PortalsTransport::post_calls); unset, only the initiation costs.
  using HostCalls = std::function<void(int pe, portals::MdHandle md, portals::MdHandle md2, int calls, int incs)>;
  void charge_with(HostCalls f) { host_calls_ = std::move(f); }
  /// members[me] leaves the group (its team is being destroyed, after a barrier of its members):
  /// once every member has left, the group's resources are freed on every member's NIC, unless a
  /// member has begun another collective on the same member list meanwhile (another team of the
  /// same PEs, the world team, an active set): then the list is still in use and keeps them.
  void release(const PeList& members, int me);

  /// Collectives the NICs ran, counted once per call (by the group's first member to call).
  std::uint64_t barriers() const { return barriers_; }
  std::uint64_t broadcasts() const { return broadcasts_; }
  std::uint64_t reductions() const { return reductions_; }
  /// Triggered operations and counter increments the hosts posted for them.
  std::uint64_t posted() const { return posted_; }

private:
  struct Side {
    portals::CtHandle gather, release, data, red;
    portals::LeHandle gather_le, release_le, data_le[2], red_le;
    std::uint64_t barriers = 0; ///< this PE's barriers on the group so far
    std::uint64_t received = 0; ///< broadcasts and reductions whose data this PE received so far
    std::uint64_t reduces  = 0; ///< this PE's reductions on the group so far
    std::uint64_t calls    = 0; ///< this PE's collectives of any kind on the group so far
    std::uint64_t nb       = 0; ///< this PE's offloaded non-blocking broadcasts and reductions so far
    int nb_open            = 0; ///< of which not yet seen complete
    std::vector<std::byte> scratch; ///< per call parity: accumulator, then a slot per child
  };
  /// The resources of one outstanding non-blocking call (a lane), on every member: its data, on
  /// a PT of its own whose list entry covers the region of dest (the symmetric data or heap),
  /// counted by the member's `data` CT; for reductions also a scratch area (accumulator, then a
  /// slot per child) on another PT, counted by `red`. A member frees its part once its part of the
  /// call is complete (no message of the call can reach it any more); the PT numbers are taken
  /// again once every member has.
  struct LanePart {
    portals::CtHandle data, red;
    portals::LeHandle data_le, red_le;
    std::vector<std::byte> scratch;
    bool freed = false;
  };
  struct Lane {
    std::uint32_t data_pt = 0, red_pt = 0;
    int region            = 0; ///< 0 data, 1 heap
    bool reduce           = false;
    std::uint64_t slot    = 0; ///< bytes of an accumulator or slot (reductions)
    std::vector<LanePart> parts; ///< by member index
    int freed = 0;
  };
  struct Group {
    std::uint32_t gather_pt = 0, release_pt = 0;
    std::uint32_t data_pt[2] = {0, 0}; ///< the symmetric data and heap (broadcasts)
    bool bcast               = false;  ///< data PTs and CTs set up
    std::uint32_t red_pt     = 0;      ///< the scratch areas (reductions)
    bool red                 = false;  ///< red PT, CTs and scratch set up
    std::uint64_t slot       = 0;      ///< bytes of an accumulator or slot
    std::vector<Side> sides;           ///< by member index
    std::vector<bool> left;            ///< by member index: has released the group
    int leaving = 0;
    std::map<std::uint64_t, Lane> lanes; ///< outstanding non-blocking calls, by number on the list
  };
  /// Per PE, shared by its groups.
  struct PeSide {
    portals::MdHandle md;       ///< 8-byte MD of the barriers' zero-byte messages
    portals::MdHandle bcast_md; ///< whole memory, counting send events on `sent`
    portals::CtHandle sent;
    std::uint64_t sent_total = 0; ///< broadcast messages posted by the PE's NIC so far
    portals::MdHandle ack_md;     ///< whole memory, counting ACKs on `acked` (reductions' atomics)
    portals::CtHandle acked;
    std::uint64_t acked_total = 0; ///< acknowledged atomics posted so far
    int groups               = 0; ///< groups it belongs to
  };
  /// Orders member lists by their PEs, without building any list.
  struct ListLess {
    bool operator()(const PeList& a, const PeList& b) const;
  };

  /// What completes a PE's barrier: its counter `ct` reaching `target`.
  struct Pending {
    int pe = -1;
    portals::CtHandle ct;
    std::uint64_t target = 0;
    const char* reason   = "";
    PeList members;
  };
  /// members[me]'s part of its next barrier on the list: the NIC's operations posted, its arrival
  /// counted. Returns what completes it.
  Pending post_barrier(const PeList& members, int me);
  void finish_barrier(const Pending& p);

  /// A non-blocking call of members[me]: complete once its counter `ct` has reached `target` and
  /// the PE's send counter `sent_target` (the NIC has read what it sends).
  struct NbCall {
    PeList members;
    int me = 0;
    std::uint64_t lane = 0;
    portals::CtHandle ct;
    std::uint64_t target = 0, sent_target = 0;
    void* dest = nullptr;           ///< the root of a reduction copies its accumulator there
    std::size_t bytes = 0;
    bool copy_result  = false;
    const char* kind  = "";
    const char* key   = "";
  };
  /// The lane of the list's call number `k`, set up on every member by the first to start it.
  Lane& lane_of(const PeList& members, Group& g, std::uint64_t k, bool reduce, int region, const char* key);
  /// members[me]'s next non-blocking call on the list: its number and lane.
  std::uint64_t open_call(const PeList& members, int me, Group& g);
  bool call_done(const NbCall& c);
  /// members[me]'s part of the call is complete: the root's result, its lane part freed.
  void close_call(const NbCall& c);

  Group& group_of(const PeList& members);
  void setup_bcast(const PeList& members, Group& g);
  void setup_reduce(const PeList& members, Group& g);
  /// PE `pe`'s atomics MD and its ACK counter (bound at its first use).
  PeSide& reduce_side(int pe);
  /// Where `p` (bytes long) is in PE `pe`'s symmetric memory: 0 data, 1 heap (fatal if in neither).
  int region_of(int pe, const void* p, std::size_t bytes, const char* key, std::uint64_t* offset);
  std::uint32_t take_pt();
  /// PE `pe`'s barrier send MD (bound at its first use).
  portals::MdHandle send_md(int pe);
  /// PE `pe`'s broadcast MD and its send counter (bound at its first use).
  PeSide& bcast_side(int pe);
  void free_group(const PeList& members, Group& g);
  void free_pe(int pe);
  /// members[me] (on `ni`) waits until `ct` reaches `target` (PtlCTWait; `reason` for deadlock
  /// reports), reported to the observer as a wait of `kind` on `members` (observe()); `key` names
  /// the collective in a failure.
  void wait(portals::Ni& ni, portals::CtHandle ct, std::uint64_t target, const char* reason, const char* kind,
            const PeList& members, const char* key);
  /// Fatal (one line) unless `s` is Ok: `what` failed (for the collective of `key`), on PE
  /// `owner`'s NIC when it is not the caller's (-1: the caller's).
  void check(portals::Status s, portals::Ni& ni, const char* key, const char* what, int owner = -1);

  portals::Network& net_;
  const std::vector<PeMemory>& memory_;
  std::function<void(const std::string&)> fatal_;
  std::map<PeList, Group, ListLess> groups_;
  std::vector<PeSide> pes_;             ///< by PE
  std::vector<std::uint64_t> md_words_; ///< the barrier MDs' memory (nothing is read from it: zero-byte puts)
  std::set<std::uint32_t> free_pts_;    ///< PTs of freed groups, taken again first
  std::uint32_t next_pt_ = 2;           ///< PTs 0 and 1 are the symmetric memory's (PortalsTransport)
  std::uint64_t barriers_ = 0, broadcasts_ = 0, reductions_ = 0, posted_ = 0;
  std::map<std::uint64_t, Pending> pending_; ///< non-blocking barriers not yet seen complete
  std::map<std::uint64_t, NbCall> calls_;    ///< non-blocking broadcasts and reductions not yet seen complete
  std::uint64_t nb_calls_ = 0;
  int nb_peak_            = 0;
  std::uint64_t next_pending_ = 1;
  ShmemObserver* obs_ = nullptr;
  std::function<int()> thread_;
  HostCalls host_calls_;
  /// host_calls_, or the initiation costs alone.
  void charge(int pe, portals::MdHandle md, portals::MdHandle md2, int calls, int incs);
};

} // namespace shmemsim::front
