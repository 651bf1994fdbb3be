// The data symbols of a program's ELF file (.symtab, else .dynsym), so that reports can name a
// variable by its address even when it is static (dladdr only sees exported symbols).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::front {

class ElfSymbols {
public:
  /// Read `path`'s object symbols; an unreadable or stripped file gives none (reports fall back
  /// to addresses).
  static ElfSymbols read(const std::string& path);

  /// The symbol covering link-time address `vaddr`, "name" or "name+offset"; empty if none.
  std::string name_at(std::uint64_t vaddr) const;
  bool empty() const { return symbols_.empty(); }

private:
  struct Symbol {
    std::uint64_t value = 0, size = 0;
    std::string name;
  };
  std::vector<Symbol> symbols_; ///< by value
};

} // namespace shmemsim::front
