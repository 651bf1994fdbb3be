// Teams and the machinery of the collectives: a Group (the PEs of a team or an active set, the
// calling PE's index in it, and the symmetric synchronization words it signals on), the
// algorithms, and the per-PE team state.
//
// RESERVED HEAP LAYOUT (the first kReservedHeap = 4 KiB of every PE's symmetric heap)
//   [   0,  256)  world barrier counters of barrier_all/sync_all (rma_sync.cpp; 32 rounds max)
//   [ 256, 4096)  15 team slots of kSlotBytes = 256 bytes (32 uint64 words, layout `Word`):
//                 slot 0 SHMEM_TEAM_WORLD, slot 1 SHMEM_TEAM_SHARED, slots 2..14 teams made by
//                 shmem_team_split_*: a split agrees on a slot free on every member of the
//                 parent (an OR-reduction of the used-slot masks over the parent team); none left
//                 -> the split fails (non-zero, SHMEM_TEAM_INVALID), as the specification allows.
// The deprecated active-set collectives use the first 32 words of the caller's pSync
// (SHMEM_SYNC_SIZE = 64 longs) with the same layout.
//
// SIGNALLING DISCIPLINE (unordered delivery): data is put, then fence, then a signal is an atomic
// add on a word of the receiver; the receiver waits until the word holds what it needs and
// subtracts it (so every word is back to 0 once every PE has returned: pSync is restored).
//  - DOWN[k] only ever receives signals from the member 2^k below (mod n), FROM_RIGHT only from
//    the member 1 above, and GATHER only from the caller's children in the binomial tree rooted
//    at 0, so counting is exact whatever the
//    order of arrival (a later signal of the same sender implies the earlier data landed).
//  - ANY/READY/DONE receive from several senders; they come in two banks chosen by the parity of
//    the group's count of such calls, and every algorithm using them completes on a PE only once
//    every member has entered the call, so no member is ever two such calls ahead.
#pragma once

#include <type_traits>

#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/PeList.hpp"

#include <shmem.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace shmemsim::front {

constexpr std::size_t kWorldBarrierBytes = 256;
constexpr std::size_t kSlotBytes         = 256;
constexpr int kSlots                     = static_cast<int>((kReservedHeap - kWorldBarrierBytes) / kSlotBytes);
constexpr int kWorldSlot                 = 0;
constexpr int kSharedSlot                = 1;
constexpr int kFirstUserSlot             = 2;

/// Word indices in a slot (or pSync).
enum Word : int {
  kDown      = 0,  ///< kDown + k: from the member 2^k below (k < 16)
  kGather    = 16, ///< tree barrier: arrivals of children
  kAny       = 17, ///< + bank: counters from any member
  kReady     = 19, ///< + bank: reduction round bits "my partial is published"
  kDone      = 21, ///< + bank: reduction round bits "I have read your partial"
  kSize      = 23, ///< collect: the caller's nelems (a value)
  kVal       = 24, ///< 24, 25: internal small reductions (source, dest)
  kFromRight = 26, ///< from the member 1 above (mod n): ring reduction "I have read your chunk"
  kWords     = 32,
  kMaxRounds = 16,
};

struct TeamState;

} // namespace shmemsim::front

/// A team handle (per PE: each PE has its own object for each team it belongs to).
struct shmemsim_team {
  std::uint32_t magic = 0x5445414d; // "TEAM"
  int owner           = -1;         ///< world PE whose handle this is
  shmemsim::front::PeList members;  ///< world PE of each team index
  int me                  = -1;     ///< the owner's index
  int slot                = -1;     ///< reserved-heap slot
  int num_contexts        = 0;
  std::uint64_t any_calls = 0; ///< calls that used the ANY/READY/DONE banks
  bool predefined         = false;
};

namespace shmemsim::front {

/// The PEs taking part in one collective call, as the algorithms see them.
struct Group {
  const PeList* members    = nullptr; ///< world PEs by index
  int me                   = 0;
  std::uint64_t* words     = nullptr; ///< kWords symmetric words
  std::uint64_t* any_calls = nullptr; ///< bank chooser (null: always bank 0, pSync)
  const char* routine      = "";
  /// The words are the caller's pSync (active-set forms): the program owns them, so signals into
  /// them are journaled and a wait's report says when the program overwrote one (SignalJournal.hpp).
  bool psync = false;

  int n() const { return static_cast<int>(members->size()); }
  int pe(int idx) const { return (*members)[static_cast<std::size_t>(idx)]; }
  /// The bank for a call using ANY/READY/DONE (advances the count).
  int next_bank() { return any_calls == nullptr ? 0 : static_cast<int>((*any_calls)++ & 1); }
};

/// Per-PE team state.
struct TeamState {
  const void* owner_pe = nullptr; ///< the PeState it belongs to (reset when that changes)
  std::unique_ptr<shmemsim_team> world, shared;
  std::map<shmemsim_team*, std::unique_ptr<shmemsim_team>> teams; ///< made by splits
  std::uint32_t used_slots = (1u << kWorldSlot) | (1u << kSharedSlot);
  std::map<shmem_ctx_t, shmem_team_t> ctx_team; ///< contexts made by shmem_team_create_ctx
};

TeamState& team_state();
/// The team behind a handle (predefined ones included); null for SHMEM_TEAM_INVALID. Misuse
/// (a destroyed or foreign handle) is fatal.
shmemsim_team* resolve_team(const Entry& e, shmem_team_t team);
/// A Group over a team.
Group team_group(const Entry& e, shmemsim_team* t);
/// The team of a context (SHMEM_TEAM_WORLD unless made by shmem_team_create_ctx).
shmem_team_t ctx_team(shmem_ctx_t ctx);
/// Symmetric words of a slot.
std::uint64_t* slot_words(int slot);

// ---------------------------------------------------------------- algorithms (collectives.cpp)
/// Barrier without quiet over the group (algorithm from job.collectives.barrier).
void group_sync(Group& g);
/// OR-allreduce of one uint64 over the group (internal: team splits).
std::uint64_t group_or(Group& g, std::uint64_t value);

// The same algorithms for the explicit active sets of seed 003 (aset.cpp, nb_collectives.cpp).
// RedOp and RedType: Seams.hpp (the transport may run reductions: offloaded_reduce).
/// The RedType of a reduction's element type T.
template <class T> RedType red_type()
{
  if constexpr (std::is_same_v<T, short>)
    return RedType::Short;
  else if constexpr (std::is_same_v<T, int>)
    return RedType::Int;
  else if constexpr (std::is_same_v<T, long>)
    return RedType::Long;
  else if constexpr (std::is_same_v<T, long long>)
    return RedType::LongLong;
  else if constexpr (std::is_same_v<T, float>)
    return RedType::Float;
  else
    return RedType::Double;
}
/// Active-set broadcast: the root's dest is not written (as the 1.0 active-set form).
void group_broadcast(Group& g, void* dest, const void* source, std::size_t bytes, int root);
/// collect (`fixed` false: sizes may differ) or fcollect.
void group_collect(Group& g, void* dest, const void* source, std::size_t bytes, bool fixed);
/// Reduction of `count` elements (bitwise operations on integer types only).
void group_reduce(Group& g, RedOp op, RedType t, void* dest, const void* source, std::size_t count);
/// acc[i] = op(acc[i], in[i]) for i < count, locally.
void combine(RedOp op, RedType t, void* acc, const void* in, std::size_t count);

} // namespace shmemsim::front
