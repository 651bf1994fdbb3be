#include "shmem_front/loader/ProgramImage.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstring>
#include <vector>

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
  const auto page      = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD) {
      const auto start = reinterpret_cast<std::uintptr_t>(at(info, ph));
      lo               = std::min(lo, start & ~(page - 1));
      hi               = std::max(hi, (start + ph.p_memsz + page - 1) & ~(page - 1));
    }
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
  if (hi > lo) {
    q->image.span      = reinterpret_cast<std::byte*>(lo);
    q->image.span_size = static_cast<std::size_t>(hi - lo);
    for (int i = 0; i < info->dlpi_phnum; ++i) {
      const ElfW(Phdr)& ph = info->dlpi_phdr[i];
      if (ph.p_type != PT_LOAD)
        continue;
      const auto start = reinterpret_cast<std::uintptr_t>(at(info, ph));
      const auto first = start & ~(page - 1);
      const auto end   = (start + ph.p_memsz + page - 1) & ~(page - 1);
      q->image.loads.emplace_back(first - lo, end - first);
    }
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

std::uintptr_t load_base(void* handle)
{
  link_map* lm = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == nullptr)
    return 0;
  return lm->l_addr;
}

ProgramImage shift_image(const ProgramImage& image, std::uintptr_t base_from, std::uintptr_t base_to)
{
  const auto move = [&](auto* p) {
    using P = decltype(p);
    return p == nullptr ? p : reinterpret_cast<P>(reinterpret_cast<std::uintptr_t>(p) - base_from + base_to);
  };
  ProgramImage shifted = image;
  shifted.data         = move(image.data);
  shifted.tls_image    = move(image.tls_image);
  shifted.span         = move(image.span);
  return shifted;
}

bool compact_copies_allowed()
{
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* probe     = mmap(nullptr, page, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED)
    return false;
  munmap(probe, page);
  return true;
}

bool compact_copy(const ProgramImage& image)
{
  if (image.span == nullptr || image.span_size == 0)
    return true;
  // The segments' bytes aside (a gap between them may be unreadable), then anonymous memory over
  // the whole span: created without pages of its own, it merges with an adjacent compact copy; then
  // the bytes back.
  std::size_t saved = 0;
  for (const auto& [offset, size] : image.loads)
    saved += size;
  std::vector<std::byte> bytes(saved);
  std::byte* to = bytes.data();
  for (const auto& [offset, size] : image.loads) {
    std::memcpy(to, image.span + offset, size);
    to += size;
  }
  void* at = mmap(image.span, image.span_size, PROT_READ | PROT_WRITE | PROT_EXEC,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (at == MAP_FAILED)
    return false;
  const std::byte* from = bytes.data();
  for (const auto& [offset, size] : image.loads) {
    std::memcpy(image.span + offset, from, size);
    from += size;
  }
  return true;
}

bool HeapBlock::reserve(std::uint64_t bytes, std::uint64_t count)
{
  const std::uint64_t page  = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  const std::uint64_t align = std::clamp<std::uint64_t>(std::bit_floor(bytes), page, std::uint64_t{1} << 30);
  stride_                   = (bytes + align - 1) & ~(align - 1);
  count_                    = count;
  given_                    = 0;
  if (count == 0)
    return true;
  void* raw = map_symmetric_heap(stride_ * count);
  if (raw == MAP_FAILED)
    return false;
  base_ = static_cast<std::byte*>(raw);
  // map_symmetric_heap aligns the block to its own size's power of two, capped at 1 GiB: at least
  // `align`, so every slice is aligned as a heap of its own would be.
  return true;
}

void* HeapBlock::next()
{
  if (given_ >= count_)
    return MAP_FAILED;
  return base_ + stride_ * given_++;
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
