#include "shmem_front/runtime/ElfSymbols.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace shmemsim::front {

namespace {
/// `count` records of type T at `offset` of `file`, or none if they are not all inside it.
template <class T> std::vector<T> records(const std::vector<char>& file, std::uint64_t offset, std::uint64_t count)
{
  std::vector<T> out;
  if (offset > file.size() || count > (file.size() - offset) / sizeof(T))
    return out;
  out.resize(count);
  std::memcpy(out.data(), file.data() + offset, count * sizeof(T));
  return out;
}
} // namespace

ElfSymbols ElfSymbols::read(const std::string& path)
{
  ElfSymbols result;
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto header = records<Elf64_Ehdr>(file, 0, 1);
  if (header.empty() || std::memcmp(header[0].e_ident, ELFMAG, SELFMAG) != 0 ||
      header[0].e_ident[EI_CLASS] != ELFCLASS64)
    return result;
  const auto sections = records<Elf64_Shdr>(file, header[0].e_shoff, header[0].e_shnum);
  // The full symbol table when the program has one, else the exported symbols.
  for (const Elf64_Word wanted : {static_cast<Elf64_Word>(SHT_SYMTAB), static_cast<Elf64_Word>(SHT_DYNSYM)}) {
    for (const Elf64_Shdr& s : sections) {
      if (s.sh_type != wanted || s.sh_entsize != sizeof(Elf64_Sym) || s.sh_link >= sections.size())
        continue;
      const Elf64_Shdr& strtab = sections[s.sh_link];
      for (const Elf64_Sym& sym : records<Elf64_Sym>(file, s.sh_offset, s.sh_size / sizeof(Elf64_Sym))) {
        if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_name >= strtab.sh_size ||
            strtab.sh_offset + sym.st_name >= file.size())
          continue;
        const char* name       = file.data() + strtab.sh_offset + sym.st_name;
        const std::size_t room = file.size() - (strtab.sh_offset + sym.st_name);
        result.symbols_.push_back({sym.st_value, sym.st_size, std::string(name, strnlen(name, room))});
      }
    }
    if (!result.symbols_.empty())
      break;
  }
  std::sort(result.symbols_.begin(), result.symbols_.end(),
            [](const Symbol& a, const Symbol& b) { return a.value < b.value; });
  return result;
}

std::string ElfSymbols::name_at(std::uint64_t vaddr) const
{
  auto it = std::upper_bound(symbols_.begin(), symbols_.end(), vaddr,
                             [](std::uint64_t v, const Symbol& s) { return v < s.value; });
  if (it == symbols_.begin())
    return {};
  --it;
  const std::uint64_t offset = vaddr - it->value;
  if (offset >= std::max<std::uint64_t>(it->size, 1))
    return {};
  return offset == 0 ? it->name : it->name + "+" + std::to_string(offset);
}

} // namespace shmemsim::front
