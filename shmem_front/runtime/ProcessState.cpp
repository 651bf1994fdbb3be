#include "shmem_front/runtime/ProcessState.hpp"

#include "shmem_front/runtime/LibcVars.hpp"

#include <dlfcn.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

namespace shmemsim::front {

const LibcVars& libc_vars()
{
  static const LibcVars v = [] {
    void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    LibcVars l{};
    l.optind   = static_cast<int*>(dlsym(libc, "optind"));
    l.opterr   = static_cast<int*>(dlsym(libc, "opterr"));
    l.optopt   = static_cast<int*>(dlsym(libc, "optopt"));
    l.optarg   = static_cast<char**>(dlsym(libc, "optarg"));
    l.environ_ = static_cast<char***>(dlsym(libc, "environ"));
    l.stdout_  = static_cast<FILE**>(dlsym(libc, "stdout"));
    l.stderr_  = static_cast<FILE**>(dlsym(libc, "stderr"));
    return l;
  }();
  return v;
}

namespace {
/// The live TLS block of a PE's program copy in this OS thread (allocated on first use). All
/// simulated threads run on one OS thread, so each keeps its own copy of the block and the
/// runtime swaps it in and out at every switch.
std::byte* tls_block(const PeProcess& pe)
{
  void* p = nullptr;
  dlinfo(pe.handle, RTLD_DI_TLS_DATA, &p);
  if (p == nullptr) {
    struct TlsIndex {
      unsigned long module, offset;
    } index{0, 0};
    std::size_t modid = 0;
    dlinfo(pe.handle, RTLD_DI_TLS_MODID, &modid);
    index.module     = modid;
    static auto* get = reinterpret_cast<void* (*)(TlsIndex*)>(dlsym(RTLD_DEFAULT, "__tls_get_addr"));
    p                = get(&index);
  }
  return static_cast<std::byte*>(p);
}

/// Whether `entry` ("NAME=value") defines the variable `name` of `len` characters.
bool defines(const char* entry, const char* name, std::size_t len)
{
  return std::strncmp(entry, name, len) == 0 && entry[len] == '=';
}

bool bad_env_name(const char* name)
{
  return name == nullptr || *name == '\0' || std::strchr(name, '=') != nullptr;
}

/// Make the PE's environment array its own (the program may have pointed environ elsewhere).
std::vector<char*>& own_env(PeProcess& pe)
{
  char** cur = *libc_vars().environ_;
  if (pe.env_storage.empty() || cur != pe.env_storage.data()) {
    std::vector<char*> copy;
    for (char** e = cur; e != nullptr && *e != nullptr; ++e)
      copy.push_back(*e);
    copy.push_back(nullptr);
    pe.env_storage.swap(copy);
  }
  return pe.env_storage;
}

void publish_env(PeProcess& pe)
{
  pe.env                = pe.env_storage.data();
  *libc_vars().environ_ = pe.env;
}

/// Replace or add `entry`, defining `name` (len characters).
void put_entry(PeProcess& pe, char* entry, const char* name, std::size_t len)
{
  std::vector<char*>& env = own_env(pe);
  for (char*& e : env)
    if (e != nullptr && defines(e, name, len)) {
      e = entry;
      publish_env(pe);
      return;
    }
  env.insert(env.end() - 1, entry);
  publish_env(pe);
}
} // namespace

ProcessState::~ProcessState()
{
  if (launcher_env_ != nullptr)
    *libc_vars().environ_ = launcher_env_;
}

void ProcessState::capture_launcher_env()
{
  launcher_env_ = *libc_vars().environ_;
}

void ProcessState::start_pe(PeProcess& pe)
{
  const LibcVars& v = libc_vars();
  *v.optind         = 1;
  *v.opterr         = 1;
  *v.optopt         = '?';
  *v.optarg         = nullptr;
  // Its own environment: a copy of the launcher's (setenv, putenv and unsetenv of one PE are not
  // seen by the others; libc's setenv gives a PE a new array of its own when it changes it).
  pe.env_storage.clear();
  for (char** e = launcher_env_; e != nullptr && *e != nullptr; ++e)
    pe.env_storage.push_back(*e);
  pe.env_storage.push_back(nullptr);
  pe.env      = pe.env_storage.data();
  *v.environ_ = pe.env;
  errno       = 0;
}

void ProcessState::start_thread(PeProcess& pe)
{
  errno = 0;
  if (pe.tls_memsz > 0) { // a fresh TLS block: the initial image, then zeros
    std::byte* block = tls_block(pe);
    std::memcpy(block, pe.tls_image, pe.tls_filesz);
    std::memset(block + pe.tls_filesz, 0, pe.tls_memsz - pe.tls_filesz);
  }
}

void ProcessState::save(SimThread& t) const
{
  PeProcess* pe     = t.pe;
  const LibcVars& v = libc_vars();
  pe->optind        = *v.optind;
  pe->opterr        = *v.opterr;
  pe->optopt        = *v.optopt;
  pe->optarg        = *v.optarg;
  pe->env           = *v.environ_;
  *v.environ_       = launcher_env_; // the simulator's own environment between PEs
  t.err             = errno;
  if (pe->tls_memsz > 0 && pe->threads > 1) {
    t.tls.resize(pe->tls_memsz);
    std::memcpy(t.tls.data(), tls_block(*pe), pe->tls_memsz);
  }
}

void ProcessState::restore(SimThread& t) const
{
  PeProcess* pe     = t.pe;
  const LibcVars& v = libc_vars();
  *v.optind         = pe->optind;
  *v.opterr         = pe->opterr;
  *v.optopt         = pe->optopt;
  *v.optarg         = pe->optarg;
  *v.environ_       = pe->env;
  errno             = t.err;
  if (!t.tls.empty())
    std::memcpy(tls_block(*pe), t.tls.data(), t.tls.size());
}

int ProcessState::env_set(const char* name, const char* value, bool overwrite)
{
  if (bad_env_name(name)) {
    errno = EINVAL;
    return -1;
  }
  PeProcess& pe         = *threads_.current_pe();
  const std::size_t len = std::strlen(name);
  if (!overwrite)
    for (char** e = *libc_vars().environ_; e != nullptr && *e != nullptr; ++e)
      if (defines(*e, name, len))
        return 0;
  std::string& entry = pe.env_strings.emplace_back(std::string(name) + "=" + value);
  put_entry(pe, entry.data(), name, len);
  return 0;
}

int ProcessState::env_put(char* entry)
{
  const char* eq = entry != nullptr ? std::strchr(entry, '=') : nullptr;
  if (eq == nullptr) { // "NAME" alone removes NAME, as glibc does
    return entry != nullptr && *entry != '\0' ? env_unset(entry) : (errno = EINVAL, -1);
  }
  put_entry(*threads_.current_pe(), entry, entry, static_cast<std::size_t>(eq - entry));
  return 0;
}

int ProcessState::env_unset(const char* name)
{
  if (bad_env_name(name)) {
    errno = EINVAL;
    return -1;
  }
  PeProcess& pe           = *threads_.current_pe();
  const std::size_t len   = std::strlen(name);
  std::vector<char*>& env = own_env(pe);
  std::erase_if(env, [&](char* e) { return e != nullptr && defines(e, name, len); });
  publish_env(pe);
  return 0;
}

int ProcessState::env_clear()
{
  PeProcess& pe = *threads_.current_pe();
  pe.env_storage.assign(1, nullptr);
  publish_env(pe);
  return 0;
}

} // namespace shmemsim::front
