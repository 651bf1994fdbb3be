#include "shmem_front/loader/ProgramCopies.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace fs = std::filesystem;

namespace shmemsim::loader {

namespace {

/// The temporary directory holding the copy being loaded, and that copy (empty when none): plain
/// arrays, so that a signal handler can remove them (remove_temporary_copies).
char g_tmpdir[64];
char g_copy[4096];

/// dlopen of `path`, a private copy of `program` (errors name `program`, not the copy).
void* open_copy(const std::string& program, const std::string& path)
{
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (handle != nullptr)
    return handle;
  std::string why = dlerror();
  for (auto at = why.find(path); at != std::string::npos; at = why.find(path))
    why.replace(at, path.size(), program); // name the user's file, not our copy
  const char* hint = why.find("undefined symbol") != std::string::npos
                         ? " (nothing loaded defines it; shmemsim-cc reports such symbols when linking: rebuild the "
                           "program with this version of it)"
                         : " (build it with shmemsim-cc; see shmemsim-cc --help)";
  throw std::runtime_error(program + ": cannot load: " + why + hint);
}

/// PE `index`'s copy as a file in the temporary directory, loaded, and deleted.
void* open_file_copy(const std::string& program, int index)
{
  const fs::path copy =
      fs::path(g_tmpdir) / ("pe" + std::to_string(index) + "-" + fs::path(program).filename().string());
  std::snprintf(g_copy, sizeof g_copy, "%s", copy.c_str());
  std::error_code ec;
  fs::copy_file(program, copy, fs::copy_options::overwrite_existing, ec);
  if (ec)
    throw std::runtime_error(program + ": cannot copy for PE " + std::to_string(index) + ": " + ec.message());
  void* handle = nullptr;
  try {
    handle = open_copy(program, copy.string());
  } catch (...) {
    fs::remove(copy, ec);
    g_copy[0] = '\0';
    throw;
  }
  fs::remove(copy, ec);
  g_copy[0] = '\0';
  return handle;
}

} // namespace

void remove_temporary_copies()
{
  if (g_copy[0] != '\0')
    unlink(g_copy);
  if (g_tmpdir[0] != '\0')
    rmdir(g_tmpdir);
}

ProgramCopies::ProgramCopies(const std::string& program, int count) : program_(program), memory_(program, count)
{
  const char* tmp_root = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp_root != nullptr && *tmp_root != '\0' ? tmp_root : "/tmp") + "/shmemsim-run-XXXXXX";
  if (tmpl.size() >= sizeof g_tmpdir)
    tmpl = "/tmp/shmemsim-run-XXXXXX";
  const char* dir = mkdtemp(tmpl.data());
  if (dir == nullptr)
    throw std::runtime_error(std::string("cannot create a temporary directory: ") + std::strerror(errno));
  std::snprintf(g_tmpdir, sizeof g_tmpdir, "%s", dir);
}

ProgramCopies::~ProgramCopies()
{
  remove_temporary_copies();
  g_tmpdir[0] = '\0';
}

LoadedCopy ProgramCopies::load(int index)
{
  LoadedCopy c;
  if (const std::string in_memory = memory_.next(index); !in_memory.empty())
    c.handle = open_copy(program_, in_memory);
  else
    c.handle = open_file_copy(program_, index);
  if (dlsym(c.handle, "shmemsim_program_entry") == nullptr)
    throw std::runtime_error(program_ + ": not a program built by shmemsim-cc (rebuild it with shmemsim-cc)");
  c.main = reinterpret_cast<ProgramMain>(dlsym(c.handle, "main"));
  if (c.main == nullptr)
    throw std::runtime_error(program_ + ": has no main function");
  // Every copy is the same file: described once (dl_iterate_phdr walks all loaded objects), then
  // moved by the difference of load addresses.
  const std::uintptr_t base = load_base(c.handle);
  if (!described_ || base == 0 || first_base_ == 0) {
    c.image      = describe_loaded_program(c.handle);
    first_image_ = c.image;
    first_base_  = base;
    described_   = true;
  } else {
    c.image = shift_image(first_image_, first_base_, base);
  }
  return c;
}

} // namespace shmemsim::loader
