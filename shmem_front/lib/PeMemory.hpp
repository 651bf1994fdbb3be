// A PE's symmetric memory as the backends see it: the runtime keeps one per PE and answers the
// routines' memory questions from it, the transport translates addresses with every PE's. Part of
// the seams (no simulator types), so both include it without an arrow between them.
#pragma once

#include <cstddef>

namespace shmemsim::front {

/// A PE's symmetric memory: its copy of the program's writable data, and its heap.
struct PeMemory {
  std::byte* data       = nullptr;
  std::size_t data_size = 0;
  std::byte* heap       = nullptr;
  std::size_t heap_size = 0;
};

} // namespace shmemsim::front
