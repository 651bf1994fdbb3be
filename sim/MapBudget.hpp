// Memory mappings against the kernel's limit per process (vm.max_map_count, 65530 by default).
// Every actor's stack is one or two mappings (two with SimGrid's guard page below it); PEs add
// their program copy and symmetric heap (a few mappings each, or next to none when compact: the
// copies in anonymous memory that merges with its neighbours', the heaps carved from one
// reservation). Past the limit SimGrid cannot protect a new stack and aborts the process; the
// launcher plans a run within it instead (shmemsim-run), and Simulation::spawn refuses an actor
// that would not fit (a program thread: pthread_create's EAGAIN).
#pragma once

#include <cstdint>
#include <string>

namespace shmemsim::sim {

/// The limit a run plans against: vm.max_map_count, or SHMEMSIM_MAX_MAP_COUNT if that is lower (a
/// testing aid: it lowers the limit the checks see, never the kernel's). -1 when unknown.
long max_map_count();
/// The calling process's mappings now (lines of /proc/self/maps); -1 when unknown.
long mappings_in_use();

/// How a run of `pes` PEs fits the limit. Pure arithmetic, so that it can be tested at any size.
struct MapPlan {
  bool fits         = true;  ///< the run fits, with `guards` or without, or `compact`
  bool guards       = true;  ///< stacks keep SimGrid's guard pages (2 mappings each, else 1)
  bool compact      = false; ///< the remaining PEs' copies and heaps are compact (no guard pages then)
  long need_guarded = 0;     ///< mappings needed with guard pages
  long need_bare    = 0;     ///< without them
  long need_compact = 0;     ///< without them, the remaining copies and heaps compact
  int max_pes       = 0;     ///< the most PEs that fit compact (at most `pes` if it fits)
};
/// `in_use`: mappings now, after loading `loaded` PEs (their copies and heaps); `per_pe`: mappings one
/// more PE's copy and heap take (kCompactPerPe when compact); every PE also needs a stack. `spare`
/// mappings are kept for the rest of the run (libraries' buffers, large allocations, program
/// threads' stacks).
MapPlan plan_mappings(long limit, long in_use, int pes, int loaded, long per_pe, long spare);

/// What the compact copies and heaps cost per PE, counted as a whole mapping although most of them
/// merge with a neighbour's (room for what breaks a run of them: the libraries' own mappings).
constexpr long kCompactPerPe = 0;

/// Mappings kept free by plan_mappings for what a run maps after its start.
constexpr long kSpareMappings = 1024;

/// The one line that says what to do when `plan` does not fit (`need_compact`: the least the run needs).
std::string map_limit_advice(const MapPlan& plan, long limit, int pes);

/// Actors' stacks against the limit while a run goes on (threads started by the program).
class MapBudget {
public:
  /// `guards`: each stack is 2 mappings, else 1. Reads the limit and the mappings in use.
  explicit MapBudget(bool guards);
  /// Room for one more stack: counted, or false when it would leave fewer than a few mappings
  /// free (counted again from /proc when the estimate comes near the limit).
  bool take_stack();
  long limit() const { return limit_; }

private:
  long per_stack_;
  long limit_;
  long in_use_;
  long next_count_ = 0; ///< the estimate at which mappings are counted again
};

} // namespace shmemsim::sim
