// The deprecated routines OpenSHMEM 1.5 still lists (Annex "Deprecated"): start_pes, shmalloc,
// shfree, shrealloc, shmemalign, _my_pe, _num_pes, and the cache-management routines (no-ops: the
// simulated memory is coherent). The others are the 1.5 routines under their old names.
#include "shmem_front/lib/Library.hpp"

#include <shmem.h>

using namespace shmemsim::front;

extern "C" {

void start_pes(int npes)
{
  (void)npes; // ignored, as the specification says: the job's PE count is the launcher's
  shmem_init();
}

void* shmalloc(size_t size)
{
  return shmem_malloc(size);
}

void shfree(void* ptr)
{
  shmem_free(ptr);
}

void* shrealloc(void* ptr, size_t size)
{
  return shmem_realloc(ptr, size);
}

void* shmemalign(size_t alignment, size_t size)
{
  return shmem_align(alignment, size);
}

int _my_pe(void)
{
  return shmem_my_pe();
}

int _num_pes(void)
{
  return shmem_n_pes();
}

void shmem_clear_cache_inv(void)
{
  Entry e("shmem_clear_cache_inv", true);
}

void shmem_set_cache_inv(void)
{
  Entry e("shmem_set_cache_inv", true);
}

void shmem_clear_cache_line_inv(void* dest)
{
  Entry e("shmem_clear_cache_line_inv", true);
  (void)dest;
}

void shmem_set_cache_line_inv(void* dest)
{
  Entry e("shmem_set_cache_line_inv", true);
  (void)dest;
}

void shmem_udcflush(void)
{
  Entry e("shmem_udcflush", true);
}

void shmem_udcflush_line(void* dest)
{
  Entry e("shmem_udcflush_line", true);
  (void)dest;
}

} // extern "C"
