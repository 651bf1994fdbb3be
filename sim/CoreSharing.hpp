// The sharing of a node's cores among the executions running on it (docs/design.md, "Key
// decisions"; docs/model.md, "Cores"): the model's own processor sharing, in place of SimGrid's CPU
// model, whose every start or end re-solves the node's constraint over all the executions on it
// (O(n) per execution, O(n^2) per run with thousands of PEs on a node: bench/README.md, "Start-up
// at scale").
//
// The semantics are SimGrid's: an execution uses at most one core at the core's speed, and the
// node's `cores` are shared fairly among the `n` executions on it, min(1, cores / n) of a core each.
// Generalized processor sharing: the node's virtual time V advances at that rate (seconds of one
// core's work done by each execution), an execution of `q` seconds' worth of work started at V0
// ends when V reaches V0 + q, and the executions a wake-up must find are in a heap by that tag.
// Cost O(log n) per start and end.
//
// How an actor waits (CoreSharing::execute): first a SimGrid sleep of `q`, its end at full speed,
// the earliest it can end (the same date, with the same floating-point operations, SimGrid's
// execution gave when the node was not oversubscribed; a sleep costs SimGrid O(1) on the node:
// sleeps take no share of its constraint). If the execution was slowed meanwhile (more
// executions than cores), it then waits suspended in the heap until a wake-up at the date V
// reaches its tag: one SimGrid timer per node, at the earliest such end, re-armed when n changes.
// An execution shorter than SimGrid's timing precision (1 ns), which SimGrid's sleep would
// lengthen to it, first runs as SimGrid's own execution instead (the node's constraint in SimGrid
// then holds only such short ones, which end within 1 ns of their start: cheap; and they end in
// the order and at the dates they did when every execution was SimGrid's).
//
// SimGrid ends together the activities whose end dates are within its timing precision of the
// clock; so does this model: whenever the clock moves (Simulation calls clock_moved), every
// execution that would end within the precision ends then.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace simgrid::s4u {
class Actor;
}
namespace simgrid::kernel::timer {
class Timer;
}

namespace shmemsim::sim {

class CoreSharing {
public:
  /// `speeds[i]`: flop/s of one core of node i; `cores`: cores per node; `precision`: SimGrid's
  /// timing precision, seconds (activities ending within it of the clock end together).
  CoreSharing(std::vector<double> speeds, int cores, double precision);
  ~CoreSharing();
  CoreSharing(const CoreSharing&)            = delete;
  CoreSharing& operator=(const CoreSharing&) = delete;

  /// The calling actor executes `flops` on a core of `node`: returns once it has ended.
  void execute(int node, double flops);

  /// SimGrid's clock moved to `now` (seconds; also by zero): end the executions due by then.
  void clock_moved(double now);

  /// Executions in progress on `node` (for tests).
  int running(int node) const { return nodes_.at(static_cast<std::size_t>(node)).n; }

private:
  struct Exec {
    double tag          = 0; ///< the node's virtual time at which it ends
    std::uint64_t seq   = 0; ///< start order: ties end in it
    int node            = 0;
    bool queued         = false; ///< in its node's heap (the actor waits suspended)
    bool done           = false;
    bool free           = true;
    simgrid::s4u::Actor* actor = nullptr;
  };
  struct Node {
    double speed = 0;   ///< flop/s of one core
    int n        = 0;   ///< executions in progress
    double v     = 0;   ///< virtual time at `at`
    double at    = 0;   ///< SimGrid's clock when v was last brought up to date
    std::vector<std::size_t> heap; ///< queued executions, min-heap by (tag, seq)
    simgrid::kernel::timer::Timer* timer = nullptr;
    double timer_at = -1; ///< date of `timer` (negative: none)
  };

  /// Share of a core each execution of `nd` gets: min(1, cores / n).
  double rate(const Node& nd) const;
  /// Bring nd's virtual time up to `now`.
  void advance(Node& nd, double now);
  /// The date nd's virtual time reaches `tag`, if n stays as it is.
  double date_of(const Node& nd, double tag) const;
  /// Whether `e` is due at `now` (its end within the precision of it).
  bool due(const Node& nd, const Exec& e, double now) const;
  /// Whether `e` has done all its work at `now` (up to rounding).
  bool reached(const Node& nd, const Exec& e, double now) const;
  /// Set nd's timer at its first queued execution's end (none if nothing is queued).
  void rearm(std::size_t node);
  /// End nd's queued executions due at `now`.
  void end_due(std::size_t node, double now);
  /// An execution ended (or its actor was killed): it leaves the node.
  void leave(Node& nd, double now);
  std::size_t take_slot();
  bool before(std::size_t a, std::size_t b) const;
  void heap_push(Node& nd, std::size_t slot);
  void heap_pop(Node& nd);

  std::vector<Node> nodes_;
  std::vector<Exec> execs_; ///< by slot; an actor's execution keeps its slot until it ends
  std::vector<std::size_t> free_;
  std::set<std::pair<double, std::size_t>> armed_; ///< (timer date, node) of every armed node
  int cores_;
  double precision_;
  std::uint64_t next_seq_ = 0;
};

} // namespace shmemsim::sim
