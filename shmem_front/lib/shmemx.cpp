// The contexts API of Dinan & Flajslik (PGAS'14) under shmemx_ names (see shmemx.h), over the
// same seams as the standard routines.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"

#include <shmemx.h>

#include <string>
#include <type_traits>
#include <vector>

using namespace shmemsim::front;

namespace {

/// The paper's assertion (a thread level) as SHMEM_CTX_* options.
long options_of(const Entry& e, int assertion)
{
  switch (assertion) {
    case SHMEM_THREAD_SINGLE:
    case SHMEM_THREAD_MULTIPLE:
      return 0;
    case SHMEM_THREAD_FUNNELED:
    case SHMEM_THREAD_SERIALIZED:
      return SHMEM_CTX_SERIALIZED;
    default:
      e.fail("invalid assertion " + std::to_string(assertion) +
             "; use SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_MULTIPLE or 0 for none");
  }
}

void check_count(const Entry& e, int num_ctx, const shmem_ctx_t* ctx)
{
  if (num_ctx < 0)
    e.fail("num_ctx " + std::to_string(num_ctx) + " is negative");
  if (num_ctx > 0 && ctx == nullptr)
    e.fail("ctx is NULL; it must point to an array of num_ctx (" + std::to_string(num_ctx) + ") shmem_ctx_t");
}

void nb(const char* name, shmem_ctx_t c, bool is_put, void* target, const void* source, std::size_t len,
        std::size_t elem, int pe)
{
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  std::size_t n = 0;
  if (__builtin_mul_overflow(len, elem, &n))
    e.fail("len " + std::to_string(len) + " of " + std::to_string(elem) + "-byte elements overflows size_t");
  if (n == 0)
    return; // zero-length: nothing moves, any pointer is valid
  if (is_put) {
    e.check_symmetric(target, n, "target");
    tp().put(t, target, source, n, pe, false);
  } else {
    e.check_symmetric(source, n, "source");
    tp().get(t, target, source, n, pe, false);
  }
}

template <class T> T fadd(const char* name, shmem_ctx_t c, T* target, T value, int pe)
{
  static_assert(std::is_integral_v<T> && std::is_signed_v<T> && (sizeof(T) == 4 || sizeof(T) == 8));
  Entry e(name);
  TransportCtx* t = e.ctx(c);
  e.check_pe(pe);
  e.check_symmetric(target, sizeof(T), "target");
  T old{};
  tp().fetch_amo(t, AmoOp::Add, sizeof(T) == 4 ? AmoType::Int32 : AmoType::Int64, target, &value, nullptr, &old, pe,
                 true);
  return old;
}

} // namespace

#define SHMEMX_BODY_put_nb(NAME, ELEM) nb(NAME, ctx, true, target, source, len, ELEM, pe)
#define SHMEMX_BODY_get_nb(NAME, ELEM) nb(NAME, ctx, false, target, source, len, ELEM, pe)
#define SHMEMX_BODY_fadd_nb(NAME, ELEM) fadd(NAME, ctx, target, value, pe)
#define SHMEMX_DEFINE(RET, NAME, KIND, ELEM, PARAMS)                                                                   \
  RET shmemx_##NAME PARAMS                                                                                             \
  {                                                                                                                    \
    return SHMEMX_BODY_##KIND("shmemx_" #NAME, ELEM);                                                                  \
  }
#define SHMEMX_DEFINE_TYPED_(TYPE, TYPENAME) SHMEMX_NB_TYPED_ROUTINES(SHMEMX_DEFINE, TYPE, TYPENAME)
#define SHMEMX_DEFINE_FADD_(TYPE, TYPENAME) SHMEMX_FADD_NB_ROUTINES(SHMEMX_DEFINE, TYPE, TYPENAME)

extern "C" {

int shmemx_ctx_create(int num_ctx, int assertion, shmem_ctx_t ctx[])
{
  Entry e("shmemx_ctx_create");
  check_count(e, num_ctx, ctx);
  const long options = options_of(e, assertion);
  std::vector<shmemsim_ctx*> made;
  for (int i = 0; i < num_ctx; ++i) {
    TransportCtx* t = contexts().create(options);
    if (t == nullptr) {
      for (shmemsim_ctx* c : made) {
        {
          std::lock_guard lock(e.pe().contexts_mutex);
          e.pe().live.erase(c);
        }
        contexts().destroy(c->tctx);
        delete c; // never handed out
      }
      for (int k = 0; k < num_ctx; ++k)
        ctx[k] = SHMEM_CTX_INVALID;
      return 1;
    }
    made.push_back(register_ctx(e.pe(), t, options));
  }
  for (int i = 0; i < num_ctx; ++i)
    ctx[i] = made[static_cast<std::size_t>(i)];
  return 0;
}

void shmemx_ctx_destroy(int num_ctx, shmem_ctx_t ctx[])
{
  Entry e("shmemx_ctx_destroy");
  check_count(e, num_ctx, ctx);
  for (int i = 0; i < num_ctx; ++i) {
    if (ctx[i] == SHMEM_CTX_DEFAULT)
      e.fail("ctx[" + std::to_string(i) + "] is SHMEM_CTX_DEFAULT, which cannot be destroyed");
    TransportCtx* t = e.ctx(ctx[i]);
    tp().quiet(t);
    // Kept among the destroyed: later use is reported as use of a destroyed context.
    if (!e.pe().retire_ctx(ctx[i]))
      e.fail("ctx[" + std::to_string(i) + "] was destroyed (by another thread, meanwhile)");
    contexts().destroy(t);
  }
}

SHMEMX_NB_MEM_ROUTINES(SHMEMX_DEFINE)
SHMEMSIM_RMA_TYPES(SHMEMX_DEFINE_TYPED_)
SHMEMSIM_AMO_DEPRECATED_TYPES(SHMEMX_DEFINE_FADD_)

void shmemx_ctx_fence(shmem_ctx_t ctx)
{
  Entry e("shmemx_ctx_fence");
  tp().fence(e.ctx(ctx));
}

void shmemx_ctx_quiet(shmem_ctx_t ctx)
{
  Entry e("shmemx_ctx_quiet");
  tp().quiet(e.ctx(ctx));
}

void shmemx_sync(int PE_start, int logPE_stride, int PE_size, long* pSync)
{
  Entry e("shmemx_sync");
  const int n  = rt().n_pes();
  const int me = rt().my_pe();
  if (logPE_stride < 0 || logPE_stride > 30)
    e.fail("logPE_stride " + std::to_string(logPE_stride) + " is out of range 0..30");
  if (PE_size < 1 || PE_start < 0 || PE_start >= n)
    e.fail("active set PE_start " + std::to_string(PE_start) + ", PE_size " + std::to_string(PE_size) +
           " is not within the job's " + std::to_string(n) + " PEs");
  const long stride = 1L << logPE_stride;
  const long last   = PE_start + static_cast<long>(PE_size - 1) * stride;
  if (last >= n)
    e.fail("active set (PE_start " + std::to_string(PE_start) + ", logPE_stride " + std::to_string(logPE_stride) +
           ", PE_size " + std::to_string(PE_size) + ") ends at PE " + std::to_string(last) + "; the job has " +
           std::to_string(n) + " PEs");
  if (me < PE_start || (me - PE_start) % stride != 0 || me > last)
    e.fail("the calling PE " + std::to_string(me) + " is not in the active set (PE_start " + std::to_string(PE_start) +
           ", logPE_stride " + std::to_string(logPE_stride) + ", PE_size " + std::to_string(PE_size) + ")");
  e.check_symmetric(pSync, sizeof(long) * SHMEM_SYNC_SIZE, "pSync");
  // Dissemination over the set: in round r, signal member idx + 2^r and wait for a signal in
  // pSync[r], then consume it. Counting (not flagging) lets a fast PE's signal for the next call
  // wait in the slot. No quiet: that is the point of the "loud" barrier.
  const long idx    = (me - PE_start) / stride;
  const long one    = 1;
  const long* slots = pSync;
  int r             = 0;
  for (long dist = 1; dist < PE_size; dist *= 2, ++r) {
    const int peer = static_cast<int>(PE_start + ((idx + dist) % PE_size) * stride);
    tp().amo(default_ctx(), AmoOp::Add, AmoType::Int64, &pSync[r], &one, peer);
    wait_for(e.routine(), [&] { return load_updated(&slots[r]) >= 1; });
    __atomic_fetch_sub(&pSync[r], 1L, __ATOMIC_SEQ_CST);
  }
}

void shmemx_sync_all(void)
{
  Entry e("shmemx_sync_all");
  sync_all_impl(e);
}

} // extern "C"
