// Private copies of a program built by shmemsim-cc, loaded into this process, one per PE: each
// copy has its own static data, globals and TLS image (dlopen RTLD_LOCAL | RTLD_DEEPBIND of a
// copy in memory when the system allows, else of a file copy in a temporary directory, deleted
// once loaded). libc only: the simulator's launcher loads its PEs with it.
#pragma once

#include "shmem_front/loader/MemoryCopies.hpp"
#include "shmem_front/loader/ProgramImage.hpp"

#include <cstdint>
#include <string>

namespace shmemsim::loader {

/// A program's `main`.
using ProgramMain = int (*)(int, char**, char**);

/// One private copy of the program, loaded.
struct LoadedCopy {
  void* handle     = nullptr;
  ProgramMain main = nullptr;
  ProgramImage image;
};

/// The copies of one program. Not copyable; at most one at a time (the temporary copy's path is
/// kept where a signal handler can remove it: remove_temporary_copies).
class ProgramCopies {
public:
  /// Copies of `program` (an existing file) for `count` PEs. Throws std::runtime_error if the
  /// temporary directory cannot be made.
  ProgramCopies(const std::string& program, int count);
  ~ProgramCopies(); ///< removes the temporary directory
  ProgramCopies(const ProgramCopies&)            = delete;
  ProgramCopies& operator=(const ProgramCopies&) = delete;

  /// PE `index`'s copy, loaded. Throws std::runtime_error naming the program (never the copy):
  /// it cannot be loaded (dlopen's reason and what to do), was not built by shmemsim-cc, or has
  /// no main function.
  LoadedCopy load(int index);

private:
  std::string program_;
  MemoryCopies memory_;
  /// The first copy's image and load address: every later copy's image is it, shifted.
  bool described_ = false;
  ProgramImage first_image_;
  std::uintptr_t first_base_ = 0;
};

/// Removes the copy being loaded and the temporary directory, if any: async-signal-safe, for the
/// crash, interrupt and time-limit handlers of the process that loads the copies.
void remove_temporary_copies();

} // namespace shmemsim::loader
