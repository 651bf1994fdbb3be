// What both PE hosts (the simulator's shmemsim-run and the emulator's shmemsim-emu-pe) need from
// a program they have loaded with dlopen: where its symmetric static data lies and its TLS image;
// and the mapping of a symmetric heap aligned the same way on every PE. No dependency beyond libc.
#pragma once

#include <cstddef>
#include <cstdint>

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
};

/// The image of the object dlopen returned as `handle` (found by its load address).
ProgramImage describe_loaded_program(void* handle);

/// A symmetric heap of `bytes`, reserved lazily (MAP_NORESERVE: pages cost memory once touched).
/// It starts at a multiple of the largest power of two not above its size (at most 1 GiB), so
/// that all PEs' heaps are congruent modulo any alignment shmem_align can be asked for within
/// them and the same heap offset is equally aligned on every PE. MAP_FAILED (errno set) if the
/// address space cannot hold it.
void* map_symmetric_heap(std::uint64_t bytes);

} // namespace shmemsim::loader
