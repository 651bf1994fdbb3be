#include "shmem_front/loader/ProgramImage.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>

namespace shmemsim::loader {
namespace {

struct Query {
  ElfW(Addr) base = 0;
  ProgramImage image;
};

std::byte* at(const dl_phdr_info* info, const ElfW(Phdr) & ph)
{
  return reinterpret_cast<std::byte*>(info->dlpi_addr + ph.p_vaddr);
}

int describe(dl_phdr_info* info, std::size_t, void* arg)
{
  auto* q = static_cast<Query*>(arg);
  if (info->dlpi_addr != q->base)
    return 0;
  std::byte* relro_end = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_TLS && ph.p_memsz > 0) {
      q->image.has_tls    = true;
      q->image.tls_image  = at(info, ph);
      q->image.tls_filesz = ph.p_filesz;
      q->image.tls_memsz  = ph.p_memsz;
    }
    if (ph.p_type == PT_GNU_RELRO)
      relro_end = at(info, ph) + ph.p_memsz;
  }
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || (ph.p_flags & PF_W) == 0)
      continue;
    std::byte* lo = at(info, ph);
    std::byte* hi = lo + ph.p_memsz;
    if (relro_end != nullptr && relro_end > lo && relro_end < hi)
      lo = relro_end; // the relocation read-only part is not program data
    q->image.data      = lo;
    q->image.data_size = static_cast<std::size_t>(hi - lo);
  }
  return 1;
}

} // namespace

ProgramImage describe_loaded_program(void* handle)
{
  link_map* lm = nullptr;
  Query q;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == nullptr)
    return q.image;
  q.base = lm->l_addr;
  dl_iterate_phdr(describe, &q);
  return q.image;
}

void* map_symmetric_heap(std::uint64_t bytes)
{
  const std::uint64_t page  = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const std::uint64_t align = std::clamp<std::uint64_t>(std::bit_floor(bytes), page, std::uint64_t{1} << 30);
  void* raw = mmap(nullptr, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (raw == MAP_FAILED)
    return raw;
  const auto start               = reinterpret_cast<std::uintptr_t>(raw);
  const auto aligned             = (start + align - 1) & ~static_cast<std::uintptr_t>(align - 1);
  const std::uint64_t mapped_end = start + bytes + align;
  const std::uint64_t heap_end   = (aligned + bytes + page - 1) & ~(page - 1);
  if (aligned > start) // give back the slack on both sides
    munmap(raw, aligned - start);
  if (mapped_end > heap_end)
    munmap(reinterpret_cast<void*>(heap_end), mapped_end - heap_end);
  return reinterpret_cast<void*>(aligned);
}

} // namespace shmemsim::loader
