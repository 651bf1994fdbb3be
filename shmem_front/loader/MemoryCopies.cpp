#include "shmem_front/loader/MemoryCopies.hpp"

#include <elf.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

namespace shmemsim::loader {

namespace {
/// How much of an ELF image the loader maps: up to the end of its last PT_LOAD segment's bytes
/// in the file (what follows -- debug information, the section headers -- is never mapped, and a
/// copy in memory would keep it resident for the whole run). The whole size if it is not a
/// 64-bit ELF image whose program headers lie inside it.
std::size_t loaded_extent(const std::vector<char>& image)
{
  Elf64_Ehdr eh;
  if (image.size() < sizeof eh)
    return image.size();
  std::memcpy(&eh, image.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > image.size() ||
      eh.e_phnum > (image.size() - eh.e_phoff) / sizeof(Elf64_Phdr))
    return image.size();
  std::uint64_t end = eh.e_phoff + std::uint64_t{eh.e_phnum} * sizeof(Elf64_Phdr);
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    std::memcpy(&ph, image.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD || ph.p_type == PT_DYNAMIC || ph.p_type == PT_NOTE || ph.p_type == PT_INTERP)
      end = std::max<std::uint64_t>(end, ph.p_offset + ph.p_filesz);
  }
  return end < image.size() ? static_cast<std::size_t>(end) : image.size();
}
} // namespace

MemoryCopies::MemoryCopies(const std::string& program, int copies)
{
  const auto slash = program.rfind('/');
  name_            = slash == std::string::npos ? program : program.substr(slash + 1);
  std::ifstream in(program, std::ios::binary);
  bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  readable_ = in.good() || in.eof();
  bytes_.resize(loaded_extent(bytes_));
  readable_ = readable_ && !bytes_.empty() && access("/proc/self/fd", R_OK) == 0;
  rlimit files{};
  const rlim_t wanted = static_cast<rlim_t>(copies) + kSpare; // and what the run itself opens
  if (readable_ && getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < wanted) {
    files.rlim_cur = files.rlim_max == RLIM_INFINITY || files.rlim_max > wanted ? wanted : files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
    max_open_ = files.rlim_cur > kSpare ? static_cast<std::size_t>(files.rlim_cur - kSpare) : 0;
}

MemoryCopies::~MemoryCopies()
{
  for (int fd : fds_)
    close(fd); // the loaded copies keep their mappings
}

std::string MemoryCopies::next(int index)
{
  if (!readable_ || fds_.size() >= max_open_)
    return ""; // keep descriptors for the run (and for loading the file copies)
  const std::string label = "pe" + std::to_string(index) + "-" + name_;
  const int fd            = memfd_create(label.c_str(), MFD_CLOEXEC);
  if (fd < 0)
    return "";
  std::size_t done = 0;
  while (done < bytes_.size()) {
    const ssize_t n = write(fd, bytes_.data() + done, bytes_.size() - done);
    if (n <= 0) {
      close(fd);
      return "";
    }
    done += static_cast<std::size_t>(n);
  }
  fds_.push_back(fd);
  return "/proc/self/fd/" + std::to_string(fd);
}

} // namespace shmemsim::loader
