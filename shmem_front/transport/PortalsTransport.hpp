// The transport seam on the Portals 4 model: the contexts paper's mapping (DESIGN.md
// "Contexts on the Portals model"). Per PE: portal table entries for static data (PT 0) and the
// symmetric heap (PT 1), counted by one target CT (which wait_until waits on). Per context,
// `lean` (the paper's): one CT, one MD over the whole address space and one issued-operation
// counter; `split`: a put CT+MD and a get CT+MD with their own counters.
#pragma once

#include "shmem_front/lib/PeMemory.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/lib/ShmemObserver.hpp"
#include "sim/portals_model/Network.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace shmemsim::front {

enum class CtxMapping { Lean, Split };
enum class OnExhaustion { Fail, Share };

class PortalsTransport final : public Transport {
public:
  /// `current_pe` says which PE is calling. `memory[pe]` is every PE's symmetric memory.
  PortalsTransport(portals::Network& net, std::vector<PeMemory> memory, CtxMapping mapping, OnExhaustion on_exhaustion,
                   std::function<int()> current_pe, std::function<void(const std::string&)> fatal);
  ~PortalsTransport() override;

  /// Bind every PE's Portals resources (before the PEs start). Throws std::runtime_error if the
  /// limits cannot hold even the default context.
  void setup();

  TransportCtx* ctx_create(long options) override;
  void ctx_destroy(TransportCtx* ctx) override;
  TransportCtx* default_ctx() override;
  void put(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void get(TransportCtx* ctx, void* dest, const void* src, std::size_t n, int pe, bool blocking) override;
  void amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, int pe) override;
  void fetch_amo(TransportCtx* ctx, AmoOp op, AmoType t, void* dest, const void* value, const void* cond, void* result,
                 int pe, bool blocking) override;
  void quiet(TransportCtx* ctx) override;
  void fence(TransportCtx* ctx) override;
  std::uint64_t updates() override;
  void wait_for_update(std::uint64_t seen, const char* call) override;
  /// A thread of `pe` may have stored to the PE's symmetric memory (it entered the library or its
  /// time slice ended): wake the PE's threads waiting for updates, so they re-check.
  void note_local_stores(int pe);

  /// Report operations, waits and contexts to `obs` (null: nobody); `current_thread` says which
  /// thread of the calling PE is calling (0: its main thread).
  void set_observer(front::ShmemObserver* obs, std::function<int()> current_thread);

  /// Contexts created and refused so far (for reports).
  std::uint64_t contexts_created() const { return created_; }
  std::uint64_t contexts_refused() const { return refused_; }

private:
  struct PeNet;
  PeNet& me();
  /// Portal index and offset of the calling PE's symmetric address `addr` (n bytes).
  void target_of(const void* addr, std::size_t n, std::uint32_t* pt, std::uint64_t* offset);
  TransportCtx* make_ctx(PeNet& p, long options, bool independent);
  void check(portals::Status s, const char* what);
  void wait(TransportCtx* c, bool gets_only, const char* what);
  void quiet_as(TransportCtx* ctx, const char* what);
  /// Spend the host CPU time of one Portals data-movement call on the calling thread.
  void initiate();
  /// Tell the observer about an operation about to be issued on `ctx` (counted on `c`).
  void note_op(const TransportCtx* ctx, const TransportCtx* c, bool get_side, const char* kind, std::uint64_t bytes, int target);
  void note_ctx(const TransportCtx* ctx, front::CtxEvent what);
  sim::Ps now() { return net_.simulation().queue().now(); }

  portals::Network& net_;
  std::vector<PeMemory> memory_;
  CtxMapping mapping_;
  OnExhaustion on_exhaustion_;
  std::function<int()> current_pe_;
  std::function<void(const std::string&)> fatal_;
  std::vector<std::unique_ptr<PeNet>> pes_;
  std::uint64_t created_ = 0;
  std::uint64_t refused_ = 0;
  front::ShmemObserver* obs_ = nullptr;
  std::function<int()> current_thread_;
};

} // namespace shmemsim::front
