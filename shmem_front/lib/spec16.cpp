// Routines OpenSHMEM 1.6 added beyond 1.5 (declared in shmemsim/shmem_spec16.h; the typed and
// sized families are generated from its routine tables):
//   ibput/ibget        blocked strided RMA (1.6 "shmem_ibput", "shmem_ibget")
//   sum_inscan/exscan  prefix sums over a team (1.6 "shmem_sum_inscan, shmem_sum_exscan")
//   pe_quiet           completion of the operations to some PEs (1.6 "shmem_pe_quiet")
//   signal_add/set     atomic update of a remote signal (1.6 "shmem_signal_add", "shmem_signal_set")
//   session_start/stop communication sessions (1.6 "shmem_ctx_session_start/stop")
// Everything goes through the transport seam, as the 1.5 routines do.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/RoutineTables.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <shmem.h>

#include <cstring>
#include <string>
#include <vector>

using namespace shmemsim::front;

namespace {

std::size_t mul_or_fail(const Entry& e, std::size_t a, std::size_t b, const char* what)
{
  std::size_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    e.fail(std::string(what) + " overflows size_t");
  return r;
}

// ---------------------------------------------------------------- ibput / ibget
// Block i is bsize contiguous elements at element i*dst of dest and i*sst of source (the strides
// between block starts, at least bsize, as the 1.6 text requires). ibput: one blocking put per
// block (local completion: source may be reused on return). ibget: one non-blocking get per block,
// completed together by a quiet of the context before returning. The remote extent is checked
// from its first element to the end of its last block.
void blocked(const char* name, shmem_ctx_t c, bool is_put, void* dest, const void* source, std::ptrdiff_t dst,
             std::ptrdiff_t sst, std::size_t bsize, std::size_t nblocks, std::size_t elem, int pe)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  if (bsize == 0 || nblocks == 0)
    return; // nothing moves: any pointer is valid
  const std::size_t block_bytes = mul_or_fail(e, bsize, elem, "bsize * element size");
  if (nblocks > 1) {
    const auto b = static_cast<std::ptrdiff_t>(bsize);
    if (b < 0 || dst < b || sst < b)
      e.fail("strides dst " + std::to_string(dst) + " and sst " + std::to_string(sst) + " must be at least bsize " +
             std::to_string(bsize) + " (the distance between block starts)");
  }
  const std::ptrdiff_t remote_stride = is_put ? dst : sst;
  const std::size_t last_start =
      mul_or_fail(e, mul_or_fail(e, nblocks - 1, static_cast<std::size_t>(remote_stride), "(nblocks - 1) * stride"),
                  elem, "the extent of the blocks");
  std::size_t extent = 0;
  if (__builtin_add_overflow(last_start, block_bytes, &extent))
    e.fail("the extent of the blocks overflows size_t");
  e.check_symmetric(is_put ? static_cast<const void*>(dest) : source, extent, is_put ? "dest" : "source");
  auto* d              = static_cast<char*>(dest);
  const auto* s        = static_cast<const char*>(source);
  const std::size_t de = static_cast<std::size_t>(dst) * elem, se = static_cast<std::size_t>(sst) * elem;
  for (std::size_t i = 0; i < nblocks; ++i) {
    if (is_put)
      tp().put(t, d + i * de, s + i * se, block_bytes, pe, true);
    else
      tp().get(t, d + i * de, s + i * se, block_bytes, pe, false);
  }
  if (!is_put)
    tp().quiet(t);
}

// ---------------------------------------------------------------- sum_inscan / sum_exscan
// Over the team's Group (coll_team.hpp): a barrier so every member's source is ready; member i
// then gets the sources of members 0..i (inscan) or 0..i-1 (exscan) with non-blocking gets
// completed by one quiet, and sums them in member order (so the result of a floating-point scan
// is the same on every run); a second barrier so no member returns, or overwrites an in-place
// source with its result, before every member has read it.
template <class T>
int scan(const char* name, bool inclusive, shmem_team_t team, T* dest, const T* source, std::size_t nelems)
{
  Entry e(name);
  shmemsim_team* tm = resolve_team(e, team);
  if (tm == nullptr)
    return -1;
  const std::size_t bytes = mul_or_fail(e, nelems, sizeof(T), "nelems * element size");
  e.check_symmetric(dest, bytes, "dest");
  e.check_symmetric(source, bytes, "source");
  if (bytes == 0)
    return 0;
  const auto* d = reinterpret_cast<const char*>(dest);
  const auto* s = reinterpret_cast<const char*>(source);
  if (d != s && d < s + bytes && s < d + bytes)
    e.fail("dest " + hex(dest) + " and source " + hex(source) + " overlap without being the same (" +
           std::to_string(bytes) + " bytes)");
  Group g         = team_group(e, tm);
  const int n     = g.n();
  const int count = inclusive ? g.me + 1 : g.me; // members whose sources are summed
  std::vector<T> parts(static_cast<std::size_t>(count) * nelems);
  if (n > 1)
    group_sync(g);
  bool remote = false;
  for (int k = 0; k < count; ++k) {
    T* part = parts.data() + static_cast<std::size_t>(k) * nelems;
    if (k == g.me) {
      std::memcpy(part, source, bytes);
    } else {
      tp().get(default_ctx(), part, source, bytes, g.pe(k), false);
      remote = true;
    }
  }
  if (remote)
    tp().quiet(default_ctx());
  std::vector<T> acc(nelems, T{});
  for (int k = 0; k < count; ++k) {
    const T* part = parts.data() + static_cast<std::size_t>(k) * nelems;
    for (std::size_t j = 0; j < nelems; ++j)
      acc[j] = k == 0 ? part[j] : acc[j] + part[j];
  }
  if (n > 1)
    group_sync(g);
  std::memcpy(dest, acc.data(), bytes);
  return 0;
}

// ---------------------------------------------------------------- signal_add / signal_set
void signal_update(const char* name, shmem_ctx_t c, AmoOp op, std::uint64_t* sig_addr, std::uint64_t signal, int pe)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  if (sig_addr == nullptr)
    e.fail("sig_addr is NULL");
  e.check_symmetric(sig_addr, sizeof(std::uint64_t), "sig_addr");
  if (reinterpret_cast<std::uintptr_t>(sig_addr) % alignof(std::uint64_t) != 0)
    e.fail("sig_addr " + hex(sig_addr) + " is not aligned to 8 bytes");
  const std::uint64_t value = signal;
  tp().amo(t, op, AmoType::Uint64, sig_addr, &value, pe);
}

// ---------------------------------------------------------------- pe_quiet
// Completing every operation of the context completes those to the given PEs: a valid
// implementation of shmem_pe_quiet (the transport has one completion counter per context). The
// arguments are still checked: each target a PE of the job, target_pes not NULL unless npes is 0.
void pe_quiet(const char* name, shmem_ctx_t c, const int* target_pes, std::size_t npes)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  if (npes != 0 && target_pes == nullptr)
    e.fail("target_pes is NULL with npes " + std::to_string(npes));
  for (std::size_t i = 0; i < npes; ++i)
    e.check_pe(target_pes[i]);
  tp().quiet(t);
}

} // namespace

#define SHMEMSIM_BODY_ibput(C, NAME, ELEM) blocked(NAME, C, true, dest, source, dst, sst, bsize, nblocks, ELEM, pe)
#define SHMEMSIM_BODY_ibget(C, NAME, ELEM) blocked(NAME, C, false, dest, source, dst, sst, bsize, nblocks, ELEM, pe)
#define SHMEMSIM_BODY_signal_add(C, NAME, ELEM) signal_update(NAME, C, AmoOp::Add, sig_addr, signal, pe)
#define SHMEMSIM_BODY_signal_set(C, NAME, ELEM) signal_update(NAME, C, AmoOp::Set, sig_addr, signal, pe)

#define SHMEMSIM_DEFINE_SCAN(RET, NAME, KIND, ELEM, PARAMS)                                                            \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return scan("shmem_" #NAME, SHMEMSIM_SCAN_INCLUSIVE_##KIND, team, dest, source, nelems);                           \
  }
#define SHMEMSIM_SCAN_INCLUSIVE_inscan true
#define SHMEMSIM_SCAN_INCLUSIVE_exscan false

#define SHMEMSIM_DEFINE_IB_TYPED_(TYPE, TYPENAME)                                                                      \
  SHMEMSIM_IBRMA_TYPED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_IB_SIZED_(SIZE) SHMEMSIM_IBRMA_SIZED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, SIZE)
#define SHMEMSIM_DEFINE_SCAN_(TYPE, TYPENAME) SHMEMSIM_SCAN_ROUTINES(SHMEMSIM_DEFINE_SCAN, TYPE, TYPENAME)

extern "C" {

SHMEMSIM_RMA_TYPES(SHMEMSIM_DEFINE_IB_TYPED_)
SHMEMSIM_SIZES(SHMEMSIM_DEFINE_IB_SIZED_)
SHMEMSIM_REDUCE_ARITH_TYPES(SHMEMSIM_DEFINE_SCAN_)
SHMEMSIM_SIGNAL_UPDATE_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX)

void shmem_pe_quiet(const int* target_pes, size_t npes)
{
  pe_quiet("shmem_pe_quiet", SHMEM_CTX_DEFAULT, target_pes, npes);
}

void shmem_ctx_pe_quiet(shmem_ctx_t ctx, const int* target_pes, size_t npes)
{
  pe_quiet("shmem_ctx_pe_quiet", ctx, target_pes, npes);
}

// Sessions are hints (1.6 "shmem_ctx_session_start": "OpenSHMEM implementations are not required
// to apply any optimization"; shmem_ctx_session_config_t: "these parameters serve only as hints")
// and never change completion or ordering, so accepting and checking them and doing nothing else
// is a correct implementation. SHMEM_CTX_INVALID: no action, as the text requires. Every option
// combination is accepted ("no combination of options ... results in undefined behavior"); a
// mask bit the library does not define, or a mask without a config, is misuse.
void shmem_ctx_session_start(shmem_ctx_t ctx, long options, const shmem_ctx_session_config_t* config, long config_mask)
{
  Entry e("shmem_ctx_session_start");
  (void)options;
  if (ctx == SHMEM_CTX_INVALID)
    return;
  e.ctx(ctx); // a live context of the calling PE, or a fatal error
  if ((config_mask & ~SHMEM_CTX_SESSION_TOTAL_OPS) != 0)
    e.fail("config_mask " + std::to_string(config_mask) +
           " has bits no configuration field uses; valid: 0, "
           "SHMEM_CTX_SESSION_TOTAL_OPS (" +
           std::to_string(SHMEM_CTX_SESSION_TOTAL_OPS) + ")");
  if (config_mask != 0 && config == nullptr)
    e.fail("config is NULL with config_mask " + std::to_string(config_mask));
}

void shmem_ctx_session_stop(shmem_ctx_t ctx)
{
  Entry e("shmem_ctx_session_stop");
  if (ctx == SHMEM_CTX_INVALID)
    return;
  e.ctx(ctx); // stopping a stopped session has no effect; the handle must still be valid
}

} // extern "C"
