// What both trace converters (Perfetto, Paje) follow of the operations and messages under way:
// which operation a message belongs to, each NIC's queued and in-flight messages, each thread's
// outstanding operations (MessageLifecycle), and the one walk over a trace's events that both
// converters derive from (LifecycleWalk): it hands every event, with what the lifecycle made of
// it, to the converter's hook for its type. Only what is under way is kept: a message is
// forgotten once delivered and done, its operation once none of its messages is pending.
#pragma once

#include "traces/Trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace shmemsim::traces {

class MessageLifecycle {
public:
  /// An operation a PE thread issued.
  struct Op {
    int pe = 0, thr = 0, target = -1;
    std::int64_t issue = 0;
  };
  /// A message and the NIC node that sends it.
  struct Msg {
    std::uint64_t op = 0;
    int src = -1, dst = -1, node = 0;
    std::string kind;
    bool injected = false;
  };
  /// A message's delivery: the message and its operation (unset when not known: a message not
  /// from a PE's call, or an operation already retired).
  struct Delivery {
    Msg msg;
    std::optional<Op> op;
  };
  /// A message's completion (ACK or reply visible); `op_completed` when it was the operation's
  /// last pending message (its thread's outstanding count went down).
  struct Completion {
    Msg msg;
    std::optional<Op> op;
    bool op_completed = false;
  };

  explicit MessageLifecycle(const Endpoints& endpoints) : endpoints_(endpoints) {}

  /// An `op` event: the thread has one more operation outstanding.
  void issue(const Event& e);
  /// A `msg` event: queued at its source's NIC; returns its operation when known.
  std::optional<Op> queue(const Event& e);
  /// An `inj` event: from queued to in flight; unset for an unknown or already injected message.
  std::optional<Msg> inject(const Event& e);
  /// A `dlv` event (out of queue or flight); unset for an unknown message.
  std::optional<Delivery> deliver(const Event& e);
  /// A `done` event; unset for an unknown message.
  std::optional<Completion> complete(const Event& e);

  /// The NIC node of PE `pe`.
  int node(int pe) const { return endpoints_.node(pe); }
  long long queued(int node) const { return count(queued_, node); }
  long long in_flight(int node) const { return count(in_flight_, node); }
  long long outstanding(int pe, int thr) const { return count(outstanding_, std::pair{pe, thr}); }

private:
  struct OpState {
    Op op;
    int pending       = 0; ///< messages queued and not yet done
    bool counted_done = false;
  };
  struct MsgState {
    Msg msg;
    bool delivered = false, done = false;
  };

  template <class K> static long long count(const std::map<K, long long>& m, const K& k)
  {
    auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  }
  std::optional<Op> op_of(std::uint64_t op) const;
  void retire(std::map<std::uint64_t, MsgState>::iterator m);

  const Endpoints& endpoints_;
  std::map<std::uint64_t, OpState> ops_;
  std::map<std::uint64_t, MsgState> msgs_;
  std::map<std::pair<int, int>, long long> outstanding_; ///< by (pe, thr)
  std::map<int, long long> queued_, in_flight_;          ///< by NIC node
};

/// The walk over a trace's events, in order, that a converter derives from: `visit` steps the
/// message lifecycle and calls the hook of the event's type; waits are paired here (a thread's
/// new wait replaces one still open). Every hook does nothing unless overridden.
class LifecycleWalk {
public:
  explicit LifecycleWalk(const Endpoints& endpoints) : lifecycle_(endpoints) {}
  virtual ~LifecycleWalk() = default;

  /// Takes in the next event of the trace.
  void visit(const Event& e);
  /// Hands the waits still open to `wait_unfinished` (by PE, then thread) and forgets them.
  void close_open_waits(std::int64_t end);

protected:
  const MessageLifecycle& lifecycle() const { return lifecycle_; }

  virtual void ctx(const Event&) {}
  /// An operation issued (already counted as outstanding).
  virtual void issued(const Event&) {}
  /// A message queued at its NIC; its operation when known.
  virtual void queued(const Event&, const std::optional<MessageLifecycle::Op>&) {}
  virtual void injected(const Event&, const MessageLifecycle::Msg&) {}
  virtual void hop(const Event&) {}
  virtual void delivered(const Event&, const MessageLifecycle::Delivery&) {}
  virtual void completed(const Event&, const MessageLifecycle::Completion&) {}
  virtual void counter(const Event&) {}
  /// A thread starts waiting (`replaced`: the wait of the same thread it replaces, if any).
  virtual void wait_opened(const Event&, const Event* /*replaced*/) {}
  virtual void wait_closed(const Event& /*begin*/, const Event& /*end*/) {}
  virtual void wait_unfinished(const Event& /*begin*/, std::int64_t /*end*/) {}
  virtual void computed(const Event&) {}
  virtual void locked(const Event&) {}
  virtual void limit(const Event&) {}
  /// A thread enters (`call`) or leaves (`ret`) a SHMEM routine.
  virtual void routine(const Event&) {}

private:
  void wait_begins(const Event& e);
  void wait_ends(const Event& e);

  MessageLifecycle lifecycle_;
  std::map<std::pair<int, int>, Event> open_waits_; ///< by (pe, thr)
};

} // namespace shmemsim::traces
