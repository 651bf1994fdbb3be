// RMA on bytes (putmem/getmem), fence, quiet, barrier_all, sync_all.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Sync.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <shmem.h>

using namespace shmemsim::front;

namespace shmemsim::front {

void sync_all_impl(Entry& e)
{
  // The world team's barrier: the algorithm of job.collectives.barrier (collectives.cpp).
  if (rt().n_pes() == 1)
    return;
  Group g = team_group(e, resolve_team(e, SHMEM_TEAM_WORLD));
  group_sync(g);
}

void barrier_all_impl(Entry& e)
{
  // OpenSHMEM 1.5 (9.9.2): barrier_all completes the RMA and AMOs issued on the default context;
  // other contexts complete by their own quiet (the contexts paper, section 3: "the implicit quiet
  // [...] is performed on the default context").
  tp().quiet(default_ctx(e.pe()));
  sync_all_impl(e);
}

} // namespace shmemsim::front

static void putmem(const char* name, shmem_ctx_t ctx, void* dest, const void* source, size_t n, int pe, bool blocking)
{
  Entry e(name);
  TransportCtx* t = e.ctx(ctx);
  e.check_pe(pe);
  e.check_symmetric(dest, n, "dest");
  if (n != 0)
    tp().put(t, dest, source, n, pe, blocking);
}

static void getmem(const char* name, shmem_ctx_t ctx, void* dest, const void* source, size_t n, int pe, bool blocking)
{
  Entry e(name);
  TransportCtx* t = e.ctx(ctx);
  e.check_pe(pe);
  e.check_symmetric(source, n, "source");
  if (n != 0)
    tp().get(t, dest, source, n, pe, blocking);
}

extern "C" {

void shmem_putmem(void* d, const void* s, size_t n, int pe)
{
  putmem("shmem_putmem", SHMEM_CTX_DEFAULT, d, s, n, pe, true);
}
void shmem_getmem(void* d, const void* s, size_t n, int pe)
{
  getmem("shmem_getmem", SHMEM_CTX_DEFAULT, d, s, n, pe, true);
}
void shmem_putmem_nbi(void* d, const void* s, size_t n, int pe)
{
  putmem("shmem_putmem_nbi", SHMEM_CTX_DEFAULT, d, s, n, pe, false);
}
void shmem_getmem_nbi(void* d, const void* s, size_t n, int pe)
{
  getmem("shmem_getmem_nbi", SHMEM_CTX_DEFAULT, d, s, n, pe, false);
}
void shmem_ctx_putmem(shmem_ctx_t c, void* d, const void* s, size_t n, int pe)
{
  putmem("shmem_ctx_putmem", c, d, s, n, pe, true);
}
void shmem_ctx_getmem(shmem_ctx_t c, void* d, const void* s, size_t n, int pe)
{
  getmem("shmem_ctx_getmem", c, d, s, n, pe, true);
}
void shmem_ctx_putmem_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, int pe)
{
  putmem("shmem_ctx_putmem_nbi", c, d, s, n, pe, false);
}
void shmem_ctx_getmem_nbi(shmem_ctx_t c, void* d, const void* s, size_t n, int pe)
{
  getmem("shmem_ctx_getmem_nbi", c, d, s, n, pe, false);
}

void shmem_fence(void)
{
  Entry e("shmem_fence");
  tp().fence(default_ctx(e.pe()));
}

void shmem_ctx_fence(shmem_ctx_t ctx)
{
  Entry e("shmem_ctx_fence");
  tp().fence(e.ctx(ctx));
}

void shmem_quiet(void)
{
  Entry e("shmem_quiet");
  tp().quiet(default_ctx(e.pe()));
}

void shmem_ctx_quiet(shmem_ctx_t ctx)
{
  Entry e("shmem_ctx_quiet");
  tp().quiet(e.ctx(ctx));
}

void shmem_barrier_all(void)
{
  Entry e("shmem_barrier_all");
  barrier_all_impl(e);
}

void shmem_sync_all(void)
{
  Entry e("shmem_sync_all");
  sync_all_impl(e);
}

} // extern "C"
