// Signaling (OpenSHMEM 1.5 §9.8): put-with-signal (blocking and nbi, typed, sized, mem, ctx
// forms), shmem_signal_fetch, shmem_signal_wait_until; generated from the routine tables of
// shmemsim/shmem_signal_lock.h.
//
// A put-with-signal is the data put, a fence of the context, then a non-fetching atomic SET or ADD
// on the 64-bit signal: the transport's fence orders the signal after the data at the target
// (it is a quiet when the network does not order puts by itself), so a PE that sees the signal
// sees the data. The nbi form issues the data put without waiting for local completion; the
// fence may still wait for the data to be acknowledged when the network reorders.
#include "shmem_front/lib/Compare.hpp"
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/RoutineTables.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmem.h>

#include <string>

using namespace shmemsim::front;

namespace {

void put_signal(const char* name, shmem_ctx_t c, void* dest, const void* source, std::size_t nelems, std::size_t elem,
                std::uint64_t* sig_addr, std::uint64_t signal, int sig_op, int pe, bool blocking)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
    e.fail("invalid sig_op " + std::to_string(sig_op) + "; use SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD");
  std::size_t n = 0;
  if (__builtin_mul_overflow(nelems, elem, &n))
    e.fail("nelems " + std::to_string(nelems) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  e.check_symmetric(dest, n, "dest");
  e.check_symmetric(sig_addr, sizeof(std::uint64_t), "sig_addr");
  if (n != 0) {
    const auto* d = static_cast<const char*>(dest);
    const auto* s = reinterpret_cast<const char*>(sig_addr);
    if (s < d + n && d < s + sizeof(std::uint64_t))
      e.fail("sig_addr " + hex(sig_addr) + " overlaps dest " + hex(dest) + " (" + std::to_string(n) + " bytes)");
    tp().put(t, dest, source, n, pe, blocking);
    tp().fence(t);
  }
  const std::uint64_t value = signal;
  tp().amo(t, sig_op == SHMEM_SIGNAL_SET ? AmoOp::Set : AmoOp::Add, AmoType::Uint64, sig_addr, &value, pe);
}

} // namespace

#define SHMEMSIM_BODY_put_signal(C, NAME, ELEM)                                                                        \
  put_signal(NAME, C, dest, source, nelems, ELEM, sig_addr, signal, sig_op, pe, true)
#define SHMEMSIM_BODY_put_signal_nbi(C, NAME, ELEM)                                                                    \
  put_signal(NAME, C, dest, source, nelems, ELEM, sig_addr, signal, sig_op, pe, false)

#define SHMEMSIM_DEFINE_TYPED_(TYPE, TYPENAME) SHMEMSIM_SIGNAL_TYPED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_SIZED_(SIZE) SHMEMSIM_SIGNAL_SIZED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, SIZE)

extern "C" {
SHMEMSIM_RMA_TYPES(SHMEMSIM_DEFINE_TYPED_)
SHMEMSIM_SIZES(SHMEMSIM_DEFINE_SIZED_)
SHMEMSIM_SIGNAL_MEM_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX)

uint64_t shmem_signal_fetch(const uint64_t* sig_addr)
{
  Entry e("shmem_signal_fetch");
  e.check_symmetric(sig_addr, sizeof(std::uint64_t), "sig_addr");
  // Updates land whole (the transport applies an AMO at once): a plain aligned load is atomic.
  return load_updated(sig_addr);
}

uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value)
{
  Entry e("shmem_signal_wait_until");
  e.check_symmetric(sig_addr, sizeof(std::uint64_t), "sig_addr");
  std::uint64_t seen = 0;
  check_cmp(e, cmp);
  auto holds = [&](std::uint64_t x) { return satisfied<std::uint64_t>(x, cmp, cmp_value); };
  wait_for(
      e.routine(),
      [&] {
        seen = load_updated(sig_addr);
        return holds(seen);
      },
      sig_addr);
  return seen;
}

} // extern "C"
