#include "shmem_front/loader/MemoryCopies.hpp"

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

namespace shmemsim::loader {

MemoryCopies::MemoryCopies(const std::string& program, int copies)
{
  const auto slash = program.rfind('/');
  name_            = slash == std::string::npos ? program : program.substr(slash + 1);
  std::ifstream in(program, std::ios::binary);
  bytes_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  readable_ = in.good() || in.eof();
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
