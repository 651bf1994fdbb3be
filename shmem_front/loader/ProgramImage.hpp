// What both PE hosts (the simulator's shmemsim-run and the emulator's shmemsim-emu-pe) need from
// a program they have loaded with dlopen: where its symmetric static data lies and its TLS image;
// and the mapping of a symmetric heap aligned the same way on every PE. No dependency beyond libc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace shmemsim::loader {

/// A loaded program's writable data and thread-local storage template.
struct ProgramImage {
  /// The writable PT_LOAD segment past its RELRO part (.data and .bss: the program's symmetric
  /// static data); null/0 when the program has none.
  std::byte* data       = nullptr;
  std::size_t data_size = 0;
  /// PT_TLS: the initial image (.tdata, tls_filesz bytes) and the whole block (tls_memsz).
  bool has_tls               = false;
  const std::byte* tls_image = nullptr;
  std::size_t tls_filesz = 0, tls_memsz = 0;
  /// The pages its PT_LOAD segments span (code, read-only data, data), from the first page of the
  /// first to the end of the last page of the last.
  std::byte* span       = nullptr;
  std::size_t span_size = 0;
  /// The pages of each PT_LOAD segment within the span (offset, size): what holds bytes (a gap
  /// between segments may be unreadable).
  std::vector<std::pair<std::size_t, std::size_t>> loads;
};

/// The image of the object dlopen returned as `handle` (found by its load address among all loaded
/// objects: linear in their number).
ProgramImage describe_loaded_program(void* handle);

/// The load address (link_map's l_addr) of the object dlopen returned as `handle`; 0 if unknown.
std::uintptr_t load_base(void* handle);

/// `image`, described for a copy of the same file loaded at `base_from`, for the copy loaded at
/// `base_to`: every address moves by the difference. Constant time, so that loading N copies does
/// not search N loaded objects each (bench/README.md, "Start-up at scale").
ProgramImage shift_image(const ProgramImage& image, std::uintptr_t base_from, std::uintptr_t base_to);

/// Whether this system lets a process map anonymous memory readable, writable and executable
/// (compact_copy needs it; a hardened kernel may refuse it).
bool compact_copies_allowed();

/// Moves the loaded copy `image` into anonymous memory (readable, writable, executable) at the same
/// addresses with the same bytes: one mapping instead of one per segment, which merges with the
/// previous copy's when the loader put them side by side (bench/README.md, "Start-up at scale").
/// Returns false (errno set) if the mapping failed (then the copy is gone: the run must stop).
bool compact_copy(const ProgramImage& image);

/// Symmetric heaps of `bytes` each for `count` PEs carved from one reservation (one mapping for all,
/// MAP_NORESERVE), every one aligned as map_symmetric_heap aligns one. Nothing separates two heaps:
/// a write past one PE's heap lands in the next one's instead of faulting.
class HeapBlock {
public:
  HeapBlock() = default;
  /// Reserves the heaps; false (errno set) if the address space cannot hold them.
  bool reserve(std::uint64_t bytes, std::uint64_t count);
  /// The next heap, or MAP_FAILED when all are handed out.
  void* next();

private:
  std::byte* base_      = nullptr;
  std::uint64_t stride_ = 0;
  std::uint64_t count_ = 0, given_ = 0;
};

/// A symmetric heap of `bytes`, reserved lazily (MAP_NORESERVE: pages cost memory once touched).
/// It starts at a multiple of the largest power of two not above its size (at most 1 GiB), so
/// that all PEs' heaps are congruent modulo any alignment shmem_align can be asked for within
/// them and the same heap offset is equally aligned on every PE. MAP_FAILED (errno set) if the
/// address space cannot hold it.
void* map_symmetric_heap(std::uint64_t bytes);

} // namespace shmemsim::loader
