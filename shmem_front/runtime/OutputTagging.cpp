#include "shmem_front/runtime/OutputTagging.hpp"

#include "shmem_front/runtime/LibcVars.hpp"

#include <unistd.h>

#include <string>

namespace shmemsim::front {

namespace {
/// Point stdout/stderr at `out`/`err`: both libc's own variables (read by the program copies)
/// and this executable's copies (read by libc's printf, through the copy relocation).
void use_streams(FILE* out, FILE* err)
{
  const LibcVars& v = libc_vars();
  *v.stdout_        = out;
  *v.stderr_        = err;
  stdout            = out;
  stderr            = err;
}

/// A stream that writes complete lines to `fd`, each prefixed with "[PE n] ".
struct TaggedStream {
  int fd;
  std::string prefix;
  std::string pending;
  static ssize_t write(void* cookie, const char* buf, std::size_t size)
  {
    auto* t = static_cast<TaggedStream*>(cookie);
    t->pending.append(buf, size);
    std::size_t start = 0, nl;
    while ((nl = t->pending.find('\n', start)) != std::string::npos) {
      const std::string line = t->prefix + t->pending.substr(start, nl + 1 - start);
      (void)!::write(t->fd, line.data(), line.size());
      start = nl + 1;
    }
    t->pending.erase(0, start);
    return static_cast<ssize_t>(size);
  }
  static int close(void* cookie)
  {
    auto* t = static_cast<TaggedStream*>(cookie);
    if (!t->pending.empty()) {
      const std::string line = t->prefix + t->pending + "\n";
      (void)!::write(t->fd, line.data(), line.size());
    }
    delete t;
    return 0;
  }
};

FILE* tagged(int fd, int pe)
{
  cookie_io_functions_t io{};
  io.write = &TaggedStream::write;
  io.close = &TaggedStream::close;
  FILE* f  = fopencookie(new TaggedStream{fd, "[PE " + std::to_string(pe) + "] ", {}}, "w", io);
  setvbuf(f, nullptr, _IOLBF, 0);
  return f;
}
} // namespace

void OutputTagging::tag(std::vector<PeProcess>& pes)
{
  std::fflush(nullptr);
  real_out_ = stdout;
  real_err_ = stderr;
  for (PeProcess& pe : pes) {
    pe.out     = tagged(1, pe.id);
    pe.err_out = tagged(2, pe.id);
  }
}

void OutputTagging::switch_in(const PeProcess& pe) const
{
  if (pe.out != nullptr)
    use_streams(pe.out, pe.err_out);
}

void OutputTagging::switch_out(const PeProcess& pe) const
{
  if (pe.out != nullptr)
    use_streams(real_out_, real_err_);
}

void OutputTagging::close(PeProcess& pe) const
{
  if (pe.out != nullptr) {
    std::fclose(pe.out);
    std::fclose(pe.err_out);
    pe.out = pe.err_out = nullptr;
    use_streams(real_out_, real_err_);
  }
}

void OutputTagging::to_real_streams() const
{
  if (real_out_ != nullptr)
    use_streams(real_out_, real_err_);
}

void OutputTagging::close_all(std::vector<PeProcess>& pes) const
{
  for (PeProcess& pe : pes)
    if (pe.out != nullptr) {
      std::fclose(pe.out);
      std::fclose(pe.err_out);
    }
}

} // namespace shmemsim::front
