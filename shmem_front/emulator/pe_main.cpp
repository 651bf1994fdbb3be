// shmemsim-emu-pe: one emulated PE, started by `shmemsim-run --emulate` (docs/emulator.md). It
// loads the program built by shmemsim-cc once, maps its symmetric heap, connects to the
// launcher's bootstrap service and to every other PE, installs the emulator's runtime and
// transport as the library's seams and runs the program's main on its real main thread.
//
// The program is loaded without RTLD_DEEPBIND, so its calls bind to the first definition in the
// global scope: libc's real clocks, sleeps and pthreads (the interposition library it links is
// not consulted), libgomp's OpenMP entry points (loaded RTLD_GLOBAL first: a real OpenMP runtime
// instead of the simulator's), and this executable's exit() and empty counting hooks (exported).
#include "shmem_front/lib/SignalText.hpp"
#include "shmem_front/emulator/BootClient.hpp"
#include "shmem_front/emulator/Config.hpp"
#include "shmem_front/emulator/EmuRuntime.hpp"
#include "shmem_front/emulator/EmuTransport.hpp"
#include "shmem_front/emulator/Nic.hpp"
#include "shmem_front/lib/Seams.hpp"
#include "shmem_front/loader/CrashHandlers.hpp"
#include "shmem_front/loader/ProgramImage.hpp"
#include "traces/Recorder.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

using namespace shmemsim;
using namespace shmemsim::emulator;

// The counting hooks shmemsim-cc's plugin calls at every basic block: nothing to count here (real
// time is measured, not charged). Exported, they are found before the interposition library's.
extern "C" __attribute__((visibility("default"))) void __shmemsim_count(unsigned long)
{
}
extern "C" __attribute__((visibility("default"))) void __shmemsim_count_chain(unsigned long, unsigned long,
                                                                              unsigned long, unsigned long)
{
}

namespace {

struct Pe {
  Config cfg;
  BootClient* boot               = nullptr;
  Nic* nic                       = nullptr;
  EmuRuntime* runtime            = nullptr;
  traces::PartRecorder* recorder = nullptr; ///< this PE's part of the trace (--out), if any
  std::atomic<bool> in_main{false};
  std::atomic<bool> exiting{false};
};
Pe g_pe;

/// The PE cannot go on: its line goes to the launcher, which prints the first PE's only (every PE
/// fails alike when the program cannot be loaded); printed here when the launcher is out of reach.
[[noreturn]] void die(const std::string& what)
{
  const std::string line = "PE " + std::to_string(g_pe.cfg.rank) + ": " + what;
  bool told              = false;
  if (g_pe.boot != nullptr) {
    try {
      g_pe.boot->abort(2, line);
      told = true;
    } catch (...) {
    }
  }
  if (!told) {
    std::fprintf(stderr, "shmemsim-run: %s\n", line.c_str());
    std::fflush(stderr);
  }
  _exit(2);
}

using ProgramMain = int (*)(int, char**, char**);

ProgramMain load_program(const char* path, Segments& mem)
{
  // A real OpenMP runtime for -fopenmp programs: libgomp first in the global scope.
  dlopen("libgomp.so.1", RTLD_NOW | RTLD_GLOBAL);
  void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr)
    die(std::string("cannot load the program: ") + dlerror() + " (build it with shmemsim-cc)");
  if (dlsym(h, "shmemsim_program_entry") == nullptr)
    die(std::string(path) + ": not a program built by shmemsim-cc (rebuild it with shmemsim-cc)");
  auto m = reinterpret_cast<ProgramMain>(dlsym(h, "main"));
  if (m == nullptr)
    die(std::string(path) + ": has no main function");
  const loader::ProgramImage image = loader::describe_loaded_program(h);
  mem.base[0]                      = image.data;
  mem.size[0]                      = image.data_size;
  return m;
}

std::string stats_line()
{
  const NicStats s = g_pe.nic->stats();
  return "deliveries=" + std::to_string(s.deliveries) + " out_of_order=" + std::to_string(s.out_of_order) +
         " restored=" + std::to_string(s.restored) + " held=" + std::to_string(s.held) +
         " messages=" + std::to_string(s.messages) + " payload_bytes=" + std::to_string(s.payload_bytes) +
         " copied_bytes=" + std::to_string(s.copied_bytes) + " reads=" + std::to_string(s.reads) +
         " sleeps=" + std::to_string(s.sleeps) + " requests=" + std::to_string(s.requests) +
         " acks=" + std::to_string(s.acks) + " replies=" + std::to_string(s.replies);
}

/// The PE's part is over with `status`: wait (serving the others' requests) until every PE's is,
/// then stop the NIC. Returns the status to exit with.
void finish(int status)
{
  if (g_pe.exiting.exchange(true))
    return;
  std::fflush(nullptr);
  if (g_pe.boot == nullptr || g_pe.nic == nullptr)
    return;
  try {
    g_pe.boot->exit_and_wait(status, stats_line());
  } catch (const std::exception& e) {
    _exit(status); // the launcher is gone: it ended the job
  }
  g_pe.nic->stop();
  try {
    // The final figures: requests that reached this PE after its part ended (another PE's last
    // non-blocking ones) count too, as the trace has them.
    g_pe.boot->send_line("STATS " + stats_line());
  } catch (const std::exception&) {
    _exit(status); // the launcher is gone
  }
  if (g_pe.recorder != nullptr) {
    try {
      g_pe.recorder->flush(); // before the launcher, having reaped every PE, merges the files
    } catch (const std::exception& e) {
      std::fprintf(stderr, "shmemsim-run: PE %d: %s\n", g_pe.cfg.rank, e.what());
      _exit(2);
    }
  }
}

/// The program's threads, numbered as the simulator numbers them: 0 the PE's main thread, then
/// 1, 2, ... in the order they are created (by the program or the libraries it calls once main
/// runs; the NIC's own threads are not the program's).
thread_local int t_thread = 0;
std::atomic<int> g_threads{0};

struct ThreadStart {
  void* (*fn)(void*);
  void* arg;
  int index;
};

void* start_thread(void* p)
{
  const ThreadStart s = *static_cast<ThreadStart*>(p);
  delete static_cast<ThreadStart*>(p);
  t_thread = s.index;
  return s.fn(s.arg);
}

/// A crash: one line naming the PE, its thread and routine (as the simulator's), then the default
/// action, so that the launcher sees the signal and ends the job with 128 + signal.
void on_crash(int sig)
{
  const char* routine = EmuRuntime::thread_routine();
  char who[32];
  if (t_thread == 0)
    std::snprintf(who, sizeof who, "main thread");
  else
    std::snprintf(who, sizeof who, "thread %d", t_thread);
  char line[256];
  const int n = std::snprintf(line, sizeof line, "shmemsim-run: PE %d (%s) crashed: %s%s%s\n", g_pe.cfg.rank, who,
                              shmemsim::front::signal_text(sig), routine != nullptr ? " in " : "",
                              routine != nullptr ? routine : "");
  if (n > 0)
    (void)!write(2, line, static_cast<std::size_t>(n));
  signal(sig, SIG_DFL);
  raise(sig);
}

double cpu_seconds()
{
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

} // namespace

// exit() called by the program (exported: found before libc's): its PE's part ends with `status`.
extern "C" __attribute__((visibility("default"), noreturn)) void exit(int status) noexcept
{
  using ExitFn       = void (*)(int);
  static ExitFn real = reinterpret_cast<ExitFn>(dlsym(RTLD_NEXT, "exit"));
  if (g_pe.in_main.load())
    finish(status);
  real(status);
  __builtin_unreachable();
}

// pthread_create (exported: found before libc's) numbers the program's threads for crash reports.
extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                     void* (*fn)(void*), void* arg)
{
  using CreateFn       = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  static CreateFn real = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  if (!g_pe.in_main.load())
    return real(thread, attr, fn, arg);
  auto* start  = new ThreadStart{fn, arg, g_threads.fetch_add(1) + 1};
  const int rc = real(thread, attr, start_thread, start);
  if (rc != 0)
    delete start;
  return rc;
}

namespace {
/// The launcher's configuration from descriptor `fd` (up to its first newline or end of file).
std::string read_config(int fd)
{
  std::string text;
  char buf[4096];
  while (text.empty() || text.back() != '\n') {
    const ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    text.append(buf, static_cast<std::size_t>(r));
  }
  return text;
}
} // namespace

int main(int argc, char** argv)
{
  // shmemsim-emu-pe --config-fd N PROGRAM ARGS: the configuration (with the job's token) comes on
  // descriptor N, a pipe from the launcher (N = kConfigFd) or ssh's standard input (0); never in
  // the environment, whose initial copy /proc/PID/environ shows (Config.hpp).
  int fd = -1;
  if (argc > 3 && std::strcmp(argv[1], "--config-fd") == 0) {
    fd      = std::atoi(argv[2]);
    argv[2] = argv[0];
    argv += 2;
    argc -= 2;
  }
  if (fd < 0) {
    std::fprintf(stderr, "shmemsim-emu-pe: started by 'shmemsim-run --emulate' only\n");
    return 2;
  }
  const std::string text = read_config(fd);
  if (fd != 0)
    close(fd);
  try {
    g_pe.cfg = Config::parse(text);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim-emu-pe: the launcher's configuration (--config-fd %d): %s\n", fd, e.what());
    return 2;
  }
  const Config& cfg = g_pe.cfg;
  Segments mem;
  try {
    static BootClient boot(cfg.boot_host, cfg.boot_port, cfg.token, cfg.rank, "boot");
    g_pe.boot = &boot;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim-run: PE %d: %s\n", cfg.rank, e.what());
    return 2;
  }
  const ProgramMain program_main = load_program(argv[1], mem);
  mem.base[1]                    = static_cast<std::byte*>(loader::map_symmetric_heap(cfg.heap_bytes));
  if (mem.base[1] == MAP_FAILED)
    die("cannot map a symmetric heap of " + std::to_string(cfg.heap_bytes) + " bytes: " + std::strerror(errno) +
        " (lower SHMEM_SYMMETRIC_SIZE)");
  mem.size[1] = cfg.heap_bytes;
  auto fatal  = [](const std::string& m) {
    if (g_pe.runtime != nullptr)
      g_pe.runtime->fatal(m);
    die(m);
  };
  // Never destroyed: the process ends with exit() while nothing uses them any more.
  auto* nic               = new Nic(cfg, mem, fatal);
  g_pe.nic                = nic;
  auto* runtime           = new EmuRuntime(cfg, mem, *g_pe.boot);
  g_pe.runtime            = runtime;
  EmuTransport* transport = nullptr;
  try {
    transport = new EmuTransport(cfg, *nic, fatal);
    if (!cfg.trace_file.empty()) {
      // This PE's part of the trace, fed by its NIC, transport and runtime through the same
      // observer interfaces as the simulator's models; the launcher merges the parts.
      g_pe.recorder = new traces::PartRecorder(cfg.trace_file, cfg.rank, cfg.node);
      nic->set_observer(g_pe.recorder);
      transport->set_observer(g_pe.recorder, [runtime] { return runtime->thread_index(); });
      runtime->set_observer(g_pe.recorder);
    }
    nic->connect(*g_pe.boot);
  } catch (const std::exception& e) {
    die(e.what());
  }
  auto* monitor = new BootClient(cfg.boot_host, cfg.boot_port, cfg.token, cfg.rank, "monitor");
  nic->every(std::chrono::milliseconds(250), [monitor, nic, runtime, transport] {
    const char* r = runtime->routine();
    char head[256];
    std::snprintf(head, sizeof head, "HB %llu %.3f %s",
                  static_cast<unsigned long long>(runtime->calls() + nic->progress()), cpu_seconds(),
                  r != nullptr ? r : "-");
    // Then what the routine waiting now adds to a report (a pSync word the program overwrote).
    std::string line       = head;
    const std::string note = transport->wait_note();
    if (!note.empty())
      line += " " + note;
    try {
      monitor->send_line(line);
    } catch (...) {
      _exit(137); // the launcher is gone (a PE started over ssh outlives nothing)
    }
  });
  front::install(front::Env{runtime, transport, runtime});
  std::vector<char*> args(argv + 1, argv + argc);
  args.push_back(nullptr);
  loader::install_crash_handlers(on_crash);
  g_pe.in_main = true;
  runtime->program_starts();
  const int status = program_main(argc - 1, args.data(), environ);
  exit(status);
}
