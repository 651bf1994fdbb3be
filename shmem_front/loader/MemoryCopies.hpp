// Private copies of a program in memory (memfd), one per PE, for dlopen through
// /proc/self/fd/N: a copy costs no file-system inode. Creating, loading and deleting a file per PE
// in one directory was most of a large run's start-up on ext4 (bench/README.md, "Start-up").
// glibc's dlopen first matches an already loaded object by name, so every copy's descriptor stays
// open (its name unique) until the copies are dropped, after the last PE is loaded.
#pragma once

#include <string>
#include <vector>

namespace shmemsim::loader {

class MemoryCopies {
public:
  /// Reads `program` once (nothing is copied if it cannot be read: every next() is then empty).
  /// Raises the soft limit of open files towards the hard one for `copies` descriptors.
  MemoryCopies(const std::string& program, int copies);
  ~MemoryCopies();
  MemoryCopies(const MemoryCopies&)            = delete;
  MemoryCopies& operator=(const MemoryCopies&) = delete;

  /// A new copy's path for dlopen, or "" when the system refuses one (no memfd_create, no /proc)
  /// or the open-files limit leaves no room (kSpare descriptors are kept for the run): the caller
  /// then copies to a file.
  std::string next(int index);

private:
  std::string name_;
  std::vector<char> bytes_;
  bool readable_ = false;
  std::vector<int> fds_;
  /// Descriptors left to the rest of the run: copies beyond the limit minus these go to files.
  static constexpr unsigned kSpare = 256;
  std::size_t max_open_            = static_cast<std::size_t>(-1);
};

} // namespace shmemsim::loader
