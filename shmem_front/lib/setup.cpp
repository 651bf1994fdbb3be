// Setup, query, symmetric memory and contexts.
#include "shmem_front/lib/Library.hpp"
#include "shmem_front/lib/Requests.hpp"
#include "shmem_front/lib/Sync.hpp"
#include "shmem_front/lib/coll_team.hpp"

#include <shmem.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

using namespace shmemsim::front;

#ifndef SHMEMSIM_VERSION
#define SHMEMSIM_VERSION "unknown"
#endif

namespace {

// ---------------------------------------------------------------- environment variables
//
// OpenSHMEM 1.5 (Environment Variables) defines four: SHMEM_VERSION and SHMEM_INFO (value: any;
// print the library version, print helpful text about these variables, at start-up), SHMEM_DEBUG
// (value: any; debugging messages) and SHMEM_SYMMETRIC_SIZE (the symmetric heap's size). Being set,
// to any value, is what turns the first three on. shmemsim-run reads SHMEM_SYMMETRIC_SIZE (it maps
// the heaps) and gives the deprecated SMA_ names to the SHMEM_ ones that are not set. PE 0 prints,
// on stdout, at shmem_init.

bool env_set(const char* name)
{
  return rt().getenv(name) != nullptr;
}

const char* set_text(const char* name)
{
  return env_set(name) ? "set" : "not set";
}

void print_environment_info()
{
  const bool info = env_set("SHMEM_INFO");
  if (!info && !env_set("SHMEM_VERSION"))
    return;
  std::printf("%s %s: OpenSHMEM %d.%d library on %s, %d PEs\n", SHMEM_VENDOR_STRING, SHMEMSIM_VERSION,
              SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION, rt().platform_kind(), rt().n_pes());
  if (info) {
    const std::size_t usable = rt().heap_size() - kReservedHeap;
    const char* size         = rt().getenv("SHMEM_SYMMETRIC_SIZE");
    const std::string heap   = size != nullptr ? std::string("\"") + size + "\" = " + std::to_string(usable) + " bytes"
                                               : "not set: job.symmetric_heap = " + std::to_string(usable) + " bytes";
    std::printf("OpenSHMEM environment variables (their SMA_ names are read too; the SHMEM_ name wins):\n"
                "  SHMEM_VERSION         any value: print the library version at start-up (%s)\n"
                "  SHMEM_INFO            any value: print this text at start-up (%s)\n"
                "  SHMEM_SYMMETRIC_SIZE  symmetric heap per PE, in bytes: a number, integer or decimal, with an\n"
                "                        optional suffix k, m, g or t in either case (2^10, 2^20, 2^30, 2^40),\n"
                "                        e.g. 512m, 1G (%s)\n"
                "  SHMEM_DEBUG           any value: debugging messages on stderr (%s)\n",
                set_text("SHMEM_VERSION"), set_text("SHMEM_INFO"), heap.c_str(), set_text("SHMEM_DEBUG"));
  }
  std::fflush(stdout);
}

// ---------------------------------------------------------------- initialization and finalization
//
// OpenSHMEM 1.5 leaves a second initialization call undefined ("a subsequent initialization call in
// the same program results in undefined behavior"; shmem_finalize "must be the last OpenSHMEM library
// call"). shmemsim gives those calls the meaning OpenSHMEM 1.6 defines, which test drivers calling
// init/finalize around every test case rely on: initialization calls nest, each matched by a
// shmem_finalize; a finalize that is not the last one is a barrier_all; the last one releases the
// library's resources (contexts, teams made by splits, the symmetric heap's blocks) and leaves it
// uninitialized, and a later shmem_init[_thread] initializes it again (collectively, as the first).
// A nesting depth per PE (PeState is shared with the rest of the library; the depth only matters here).

std::map<const PeState*, int>& init_depths()
{
  static std::map<const PeState*, int> depths;
  return depths;
}

} // namespace

extern "C" {

void shmem_init(void)
{
  Entry e("shmem_init", true);
  int& depth = init_depths()[&e.pe()];
  if (e.pe().initialized) {
    ++depth; // nested: a matching shmem_finalize is a barrier
    debug(e, "initialized already: nesting depth " + std::to_string(depth));
    return;
  }
  const bool again = e.pe().finalized;
  depth            = 1;
  e.pe().heap.reset(rt().heap_size(), kReservedHeap);
  e.pe().heap_base   = reinterpret_cast<std::uintptr_t>(rt().heap_base());
  e.pe().initialized = true;
  contexts(); // the PE's context table, made before its threads may share it
  if (rt().my_pe() == 0 && !again)
    print_environment_info(); // at start-up, once
  debug(e, std::string(again ? "initialized again" : "initialized") + ": symmetric heap of " +
               std::to_string(rt().heap_size()) + " bytes at " + hex(rt().heap_base()));
  rt().startup_barrier();
}

int shmem_init_thread(int requested, int* provided)
{
  {
    Entry e("shmem_init_thread", true);
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
      e.fail("requested thread level " + std::to_string(requested) +
             " is not one of SHMEM_THREAD_SINGLE, _FUNNELED, _SERIALIZED, _MULTIPLE");
    if (!e.pe().initialized)
      e.pe().thread_level = requested; // a nested call keeps the level in force
  }
  shmem_init();
  if (provided != nullptr)
    *provided = pe_state().thread_level;
  return 0;
}

void shmem_query_thread(int* provided)
{
  Entry e("shmem_query_thread");
  *provided = e.pe().thread_level;
}

void shmem_finalize(void)
{
  Entry e("shmem_finalize", true);
  if (!e.pe().initialized)
    return;
  // Finalize completes every outstanding operation (OpenSHMEM 1.5, 9.1.3), on every context, and
  // seed 003's requests (reporting those never waited for).
  finalize_requests(e);
  const std::vector<shmemsim_ctx*> ctxs = e.pe().borrow_live();
  for (shmemsim_ctx* c : ctxs)
    tp().quiet(c->tctx);
  PeState::give_back(ctxs);
  barrier_all_impl(e);
  int& depth = init_depths()[&e.pe()];
  if (--depth > 0) {
    debug(e, "nesting depth " + std::to_string(depth) + ": the library stays initialized");
    return;
  }
  // Every PE is here: no collective signal is in flight, every team slot's words are back to 0.
  std::set<shmemsim_ctx*> live;
  {
    std::lock_guard lock(e.pe().contexts_mutex);
    live.swap(e.pe().live);
  }
  for (shmemsim_ctx* c : in_creation_order({live.begin(), live.end()}))
    contexts().destroy(c->tctx);
  TeamState& teams = team_state();
  teams.teams.clear(); // teams made by splits (their handles are invalid from now on)
  teams.ctx_team.clear();
  teams.used_slots    = (1u << kWorldSlot) | (1u << kSharedSlot);
  e.pe().thread_level = SHMEM_THREAD_SINGLE;
  e.pe().initialized  = false;
  e.pe().finalized    = true;
  debug(e, "finalized");
}

void shmem_global_exit(int status)
{
  Entry e("shmem_global_exit", true);
  rt().global_exit(status);
}

int shmem_my_pe(void)
{
  Entry e("shmem_my_pe");
  return rt().my_pe();
}

int shmem_n_pes(void)
{
  Entry e("shmem_n_pes");
  return rt().n_pes();
}

int shmem_pe_accessible(int pe)
{
  Entry e("shmem_pe_accessible");
  return pe >= 0 && pe < rt().n_pes() && rt().pe_accessible(pe) ? 1 : 0;
}

int shmem_addr_accessible(const void* addr, int pe)
{
  Entry e("shmem_addr_accessible");
  return pe >= 0 && pe < rt().n_pes() && rt().is_symmetric(addr, 1) ? 1 : 0;
}

void* shmem_ptr(const void* dest, int pe)
{
  Entry e("shmem_ptr");
  e.check_pe(pe);
  if (!rt().is_symmetric(dest, 1))
    return nullptr;
  return rt().local_address(dest, pe);
}

void shmem_info_get_version(int* major, int* minor)
{
  Entry e("shmem_info_get_version", true);
  *major = SHMEM_MAJOR_VERSION;
  *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char* name)
{
  Entry e("shmem_info_get_name", true);
  std::snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

// ---------------------------------------------------------------- symmetric memory

/// A block of `size` (> 0) bytes whose address is a multiple of `alignment` (a power of two) on
/// every PE, or null (one line on stderr says why). The offset is the same on every PE (each runs
/// the same deterministic allocator), so the heaps' bases must agree modulo `alignment`: the offset
/// is chosen congruent to -base, which is the same residue on every PE when they do. Every PE runs
/// in this process, so the other PEs' bases are checked here; the launcher's heaps are page-aligned
/// (enough for shmem_malloc's 64 bytes), larger alignments rely on how the heaps are mapped.
static void* heap_allocate(Entry& e, std::size_t size, std::size_t alignment)
{
  const std::uintptr_t base = e.pe().heap_base;
  const std::size_t residue = (alignment - base % alignment) % alignment;
  for (int pe = 0; pe < rt().n_pes(); ++pe) {
    const PeState* other = pe_state_of(pe);
    if (other != nullptr && other->heap_base != 0 && (other->heap_base + residue) % alignment != 0) {
      std::fprintf(stderr,
                   "shmemsim: PE %d: %s: cannot align a symmetric block to %zu bytes: the symmetric heaps of PE %d and "
                   "PE %d start at different offsets modulo %zu; returning NULL\n",
                   rt().my_pe(), e.routine(), alignment, rt().my_pe(), pe, alignment);
      return nullptr;
    }
  }
  auto off = e.pe().heap.allocate(size, alignment, residue);
  if (off)
    debug(e, std::to_string(size) + " bytes at heap offset " + std::to_string(*off));
  if (!off) {
    std::fprintf(stderr,
                 "shmemsim: PE %d: %s: out of symmetric heap: %zu bytes requested (alignment %zu), %zu of %zu bytes in "
                 "use (largest free block %zu); returning NULL. Raise job.symmetric_heap or SHMEM_SYMMETRIC_SIZE\n",
                 rt().my_pe(), e.routine(), size, alignment, e.pe().heap.in_use(), e.pe().heap.capacity(),
                 e.pe().heap.largest_free());
    return nullptr;
  }
  return static_cast<char*>(rt().heap_base()) + *off;
}

// Size 0: the specification's "no action": a null pointer, and no barrier (malloc, align,
// malloc_with_hints). shmem_calloc with a zero count or size returns null too, but the
// specification keeps its barrier on exit.

void* shmem_malloc(size_t size)
{
  Entry e("shmem_malloc");
  if (size == 0)
    return nullptr;
  void* p = heap_allocate(e, size, 64);
  barrier_all_impl(e);
  return p;
}

void* shmem_malloc_with_hints(size_t size, long hints)
{
  Entry e("shmem_malloc_with_hints");
  (void)hints; // hints only describe the expected use: the same memory serves every use here
  if (size == 0)
    return nullptr;
  void* p = heap_allocate(e, size, 64);
  barrier_all_impl(e);
  return p;
}

void* shmem_calloc(size_t count, size_t size)
{
  Entry e("shmem_calloc");
  if (size != 0 && count > SIZE_MAX / size)
    e.fail("count * size overflows");
  void* p = nullptr;
  if (count != 0 && size != 0) {
    p = heap_allocate(e, count * size, 64);
    if (p != nullptr)
      std::memset(p, 0, count * size);
  }
  barrier_all_impl(e);
  return p;
}

void* shmem_align(size_t alignment, size_t size)
{
  Entry e("shmem_align");
  if (alignment == 0 || (alignment & (alignment - 1)) != 0)
    e.fail("alignment " + std::to_string(alignment) + " is not a power of two");
  if (size == 0)
    return nullptr;
  void* p = heap_allocate(e, size, alignment < 64 ? 64 : alignment);
  barrier_all_impl(e);
  return p;
}

static std::size_t heap_offset(Entry& e, void* ptr)
{
  const auto* base = static_cast<char*>(rt().heap_base());
  const auto* p    = static_cast<char*>(ptr);
  if (p < base || p >= base + rt().heap_size() || !e.pe().heap.block_size(static_cast<std::size_t>(p - base)))
    e.fail(hex(ptr) + " was not returned by shmem_malloc, shmem_calloc, shmem_align or shmem_realloc");
  return static_cast<std::size_t>(p - base);
}

void shmem_free(void* ptr)
{
  Entry e("shmem_free");
  if (ptr == nullptr)
    return; // no action, no barrier
  const std::size_t off = heap_offset(e, ptr);
  barrier_all_impl(e);
  e.pe().heap.release(off);
  debug(e, "freed heap offset " + std::to_string(off));
}

void* shmem_realloc(void* ptr, size_t size)
{
  Entry e("shmem_realloc");
  if (ptr == nullptr) {
    if (size == 0)
      return nullptr; // shmem_malloc(0): no action
    void* p = heap_allocate(e, size, 64);
    barrier_all_impl(e);
    return p;
  }
  const std::size_t off = heap_offset(e, ptr);
  if (size == 0) {
    barrier_all_impl(e);
    e.pe().heap.release(off);
    return nullptr;
  }
  const std::size_t old = *e.pe().heap.block_size(off);
  void* p               = heap_allocate(e, size, 64);
  if (p != nullptr) {
    std::memcpy(p, ptr, old < size ? old : size);
    e.pe().heap.release(off);
  }
  barrier_all_impl(e);
  return p;
}

// ---------------------------------------------------------------- contexts

int shmem_ctx_create(long options, shmem_ctx_t* ctx)
{
  Entry e("shmem_ctx_create");
  if ((options & ~(SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE)) != 0)
    e.fail("unknown option bits " + std::to_string(options) +
           "; use SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE");
  TransportCtx* t = contexts().create(options);
  if (t == nullptr) {
    *ctx = SHMEM_CTX_INVALID;
    return 1;
  }
  *ctx = register_ctx(e.pe(), t, options);
  return 0;
}

void shmem_ctx_destroy(shmem_ctx_t ctx)
{
  Entry e("shmem_ctx_destroy");
  if (ctx == SHMEM_CTX_DEFAULT)
    e.fail("SHMEM_CTX_DEFAULT cannot be destroyed");
  TransportCtx* t = e.ctx(ctx);
  tp().quiet(t);
  // Kept among the destroyed, so that later use is reported as use of a destroyed context.
  if (!e.pe().retire_ctx(ctx))
    e.fail("context " + hex(ctx) + " was destroyed (by another thread, meanwhile)");
  contexts().destroy(t);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t* team)
{
  Entry e("shmem_ctx_get_team");
  if (ctx == SHMEM_CTX_INVALID) {
    *team = SHMEM_TEAM_INVALID;
    return -1;
  }
  e.ctx(ctx);
  *team = shmemsim::front::ctx_team(ctx); // SHMEM_TEAM_WORLD unless made by shmem_team_create_ctx
  return 0;
}

} // extern "C"
