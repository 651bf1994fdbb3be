// Collective algorithms (job.collectives.* keys): one enum per collective, its choices declared
// once, parsed once by the scenario layer and handed to the routines through Runtime::collectives()
// (Seams.hpp). Plain data (base/Params.hpp): the routines never read scenarios.
#pragma once

#include "base/Params.hpp"

#include <string>
#include <vector>

namespace shmemsim::front {

/// Team/active-set barriers and syncs.
enum class BarrierAlgorithm { Dissemination, Tree, Triggered };
/// Broadcasts.
enum class BroadcastAlgorithm { Binomial, Linear, Triggered };
/// collect and fcollect.
enum class CollectAlgorithm { Ring, Linear };
/// Reductions.
enum class ReduceAlgorithm { RecursiveDoubling, Linear, Ring, Triggered };

struct CollectiveParams {
  BarrierAlgorithm barrier     = BarrierAlgorithm::Dissemination;
  BroadcastAlgorithm broadcast = BroadcastAlgorithm::Binomial;
  CollectAlgorithm collect     = CollectAlgorithm::Ring;
  ReduceAlgorithm reduce       = ReduceAlgorithm::RecursiveDoubling;

  /// The job.collectives.* keys; each key's choices are its enum's names, in enumerator order.
  static const ParamTable<CollectiveParams>& keys();
};

inline const ParamTable<CollectiveParams>& CollectiveParams::keys()
{
  using K = ParamKind;
  using shmemsim::field;
  static const ParamTable<CollectiveParams> table = {
      {.path    = "job.collectives.barrier",
       .kind    = K::Enum,
       .doc     = "Team/active-set barriers and syncs: dissemination (log2 p rounds), tree (binomial gather and "
                  "release) or triggered (the same tree run by the NICs on Portals triggered operations: each PE "
                  "posts its part and waits on one counter; the NICs forward arrivals and releases without the "
                  "hosts; simulated NICs only: the emulator runs tree).",
       .field   = field(&CollectiveParams::barrier),
       .choices = {"dissemination", "tree", "triggered"},
       .noun    = "barrier algorithm"},
      {.path    = "job.collectives.broadcast",
       .kind    = K::Enum,
       .doc     = "Broadcast: binomial tree, linear (the root puts to every PE) or triggered (the binomial tree run "
                  "by the NICs on Portals triggered puts: each PE posts a put of its copy to each child, released by "
                  "its NIC when the data land; data above platform.nic.limits.max_msg_size run as binomial, with a "
                  "notice; simulated NICs only: the emulator runs binomial).",
       .field   = field(&CollectiveParams::broadcast),
       .choices = {"binomial", "linear", "triggered"},
       .noun    = "broadcast algorithm"},
      {.path    = "job.collectives.collect",
       .kind    = K::Enum,
       .doc     = "collect/fcollect: ring (p-1 steps to the right neighbour) or linear (every PE puts to every PE).",
       .field   = field(&CollectiveParams::collect),
       .choices = {"ring", "linear"},
       .noun    = "collect algorithm"},
      {.path    = "job.collectives.reduce",
       .kind    = K::Enum,
       .doc     = "Reductions: recursive_doubling (log2 p rounds of gets), linear (the first PE gets, reduces and "
                  "puts the result), ring (reduce-scatter + allgather in p chunks) or triggered (the NICs combine "
                  "the children's contributions up the barrier's binomial tree with triggered atomics and send the "
                  "result down it with triggered puts; integer types up to platform.nic.limits.max_atomic_size bytes; "
                  "other reductions run as recursive_doubling, with a notice; simulated NICs only).",
       .field   = field(&CollectiveParams::reduce),
       .choices = {"recursive_doubling", "linear", "ring", "triggered"},
       .noun    = "reduction algorithm"},
  };
  return table;
}

} // namespace shmemsim::front
