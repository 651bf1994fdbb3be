// RMA on typed and sized elements: put, get, put_nbi, get_nbi, p, g, iput, iget and their
// shmem_ctx_ forms, generated from the routine tables of shmemsim/shmem_rma.h.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/RoutineTables.hpp"

#include <shmem.h>

#include <string>

using namespace shmemsim::front;

namespace {

std::size_t total_bytes(const Entry& e, std::size_t nelems, std::size_t elem)
{
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(nelems, elem, &bytes))
    e.fail("nelems " + std::to_string(nelems) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  return bytes;
}

void contiguous(const char* name, shmem_ctx_t c, bool is_put, void* dest, const void* source, std::size_t nelems,
                std::size_t elem, int pe, bool blocking)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  const std::size_t n = total_bytes(e, nelems, elem);
  if (n == 0)
    return; // zero-length: nothing moves, any pointer is valid
  if (is_put) {
    e.check_symmetric(dest, n, "dest");
    tp().put(t, dest, source, n, pe, blocking);
  } else {
    e.check_symmetric(source, n, "source");
    tp().get(t, dest, source, n, pe, blocking);
  }
}

// Byte offset of element `i` at `stride` elements of `elem` bytes, or fail.
std::ptrdiff_t element_offset(const Entry& e, std::size_t i, std::ptrdiff_t stride, std::size_t elem, const char* what)
{
  std::ptrdiff_t off = 0;
  if (__builtin_mul_overflow(static_cast<std::ptrdiff_t>(i), stride, &off) ||
      __builtin_mul_overflow(off, static_cast<std::ptrdiff_t>(elem), &off))
    e.fail(std::string(what) + " stride " + std::to_string(stride) + " with nelems " + std::to_string(i + 1) +
           " overflows the address space");
  return off;
}

// Each element is one put (blocking: local completion per element) or one non-blocking get,
// completed together by one quiet of the context before returning; the remote extent is checked
// at its first and last element.
void strided(const char* name, shmem_ctx_t c, bool is_put, void* dest, const void* source, std::ptrdiff_t dst,
             std::ptrdiff_t sst, std::size_t nelems, std::size_t elem, int pe)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  const char* what   = is_put ? "dest" : "source";
  const void* remote = is_put ? static_cast<const void*>(dest) : source;
  if (nelems == 0)
    return; // zero-length: nothing moves, any pointer is valid
  const std::ptrdiff_t last_dst = element_offset(e, nelems - 1, dst, elem, "dst");
  const std::ptrdiff_t last_src = element_offset(e, nelems - 1, sst, elem, "sst");
  e.check_symmetric(remote, elem, what);
  const char* last = static_cast<const char*>(remote) + (is_put ? last_dst : last_src);
  e.check_symmetric(last, elem, is_put ? "dest (last element)" : "source (last element)");
  auto* d       = static_cast<char*>(dest);
  const auto* s = static_cast<const char*>(source);
  const auto de = dst * static_cast<std::ptrdiff_t>(elem);
  const auto se = sst * static_cast<std::ptrdiff_t>(elem);
  for (std::size_t i = 0; i < nelems; ++i) {
    const auto k = static_cast<std::ptrdiff_t>(i);
    if (is_put)
      tp().put(t, d + k * de, s + k * se, elem, pe, true);
    else
      tp().get(t, d + k * de, s + k * se, elem, pe, false);
  }
  if (!is_put)
    tp().quiet(t);
}

template <class T> void single_put(const char* name, shmem_ctx_t c, T* dest, T value, int pe)
{
  contiguous(name, c, true, dest, &value, 1, sizeof(T), pe, true);
}

template <class T> T single_get(const char* name, shmem_ctx_t c, const T* source, int pe)
{
  T value{};
  contiguous(name, c, false, &value, source, 1, sizeof(T), pe, true);
  return value;
}

} // namespace

// One body per KIND of the tables; the parameter names are those of the rows.
#define SHMEMSIM_BODY_put(C, NAME, ELEM) contiguous(NAME, C, true, dest, source, nelems, ELEM, pe, true)
#define SHMEMSIM_BODY_get(C, NAME, ELEM) contiguous(NAME, C, false, dest, source, nelems, ELEM, pe, true)
#define SHMEMSIM_BODY_put_nbi(C, NAME, ELEM) contiguous(NAME, C, true, dest, source, nelems, ELEM, pe, false)
#define SHMEMSIM_BODY_get_nbi(C, NAME, ELEM) contiguous(NAME, C, false, dest, source, nelems, ELEM, pe, false)
#define SHMEMSIM_BODY_p(C, NAME, ELEM) single_put(NAME, C, dest, value, pe)
#define SHMEMSIM_BODY_g(C, NAME, ELEM) single_get(NAME, C, source, pe)
#define SHMEMSIM_BODY_iput(C, NAME, ELEM) strided(NAME, C, true, dest, source, dst, sst, nelems, ELEM, pe)
#define SHMEMSIM_BODY_iget(C, NAME, ELEM) strided(NAME, C, false, dest, source, dst, sst, nelems, ELEM, pe)

#define SHMEMSIM_DEFINE_TYPED_(TYPE, TYPENAME) SHMEMSIM_RMA_TYPED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, TYPE, TYPENAME)
#define SHMEMSIM_DEFINE_SIZED_(SIZE) SHMEMSIM_RMA_SIZED_ROUTINES(SHMEMSIM_DEFINE_WITH_CTX, SIZE)

extern "C" {
SHMEMSIM_RMA_TYPES(SHMEMSIM_DEFINE_TYPED_)
SHMEMSIM_SIZES(SHMEMSIM_DEFINE_SIZED_)
} // extern "C"
