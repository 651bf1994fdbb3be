#include "shmem_front/launcher/RunRecord.hpp"

#include "base/ResultLines.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace shmemsim::front {

namespace fs = std::filesystem;

namespace {

/// Writes all of `n` bytes; false once the descriptor refuses (a closed pipe: later bytes are dropped).
bool write_all(int fd, const char* p, std::size_t n)
{
  while (n > 0) {
    const ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

void write_reported(const fs::path& dir)
{
  std::ifstream in(dir / "output.txt", std::ios::binary);
  nlohmann::json r = nlohmann::json::object();
  for (const ResultFigure& f : parse_result_lines(in))
    r[f.name] = f.kind == ResultFigure::Kind::Integer  ? nlohmann::json(f.integer)
                : f.kind == ResultFigure::Kind::Number ? nlohmann::json(f.number)
                                                       : nlohmann::json(f.text);
  std::ofstream(dir / "reported.json", std::ios::binary) << r.dump(2) << "\n";
}

/// The copier's life: stdout's bytes from `from` to `real_out` and `file` until every writer has
/// closed the pipe, then reported.json. Interrupts are the launcher's to handle: the copier outlives
/// them long enough to pass on what was printed before.
[[noreturn]] void copy_until_closed(int from, int real_out, int file, const fs::path& dir)
{
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    signal(sig, SIG_IGN);
  std::vector<char> buf(1 << 16);
  bool out_open = true, file_open = true;
  for (;;) {
    const ssize_t n = read(from, buf.data(), buf.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    if (out_open)
      out_open = write_all(real_out, buf.data(), static_cast<std::size_t>(n));
    if (file_open)
      file_open = write_all(file, buf.data(), static_cast<std::size_t>(n));
  }
  close(file);
  write_reported(dir);
  _exit(0);
}

} // namespace

OutputRecord OutputRecord::start(const std::string& dir)
{
  OutputRecord rec;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return rec;
  const fs::path d(dir);
  const int file = open((d / "output.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (file < 0)
    return rec;
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) {
    close(file);
    return rec;
  }
  std::fflush(stdout);
  const bool line_buffered = isatty(1) != 0; // what a terminal would have given the program
  rec.real_out_            = fcntl(1, F_DUPFD_CLOEXEC, 3);
  const pid_t pid          = rec.real_out_ < 0 ? -1 : fork();
  if (pid == 0) {
    close(p[1]);
    close(1); // the copier holds no writer of its own pipe
    copy_until_closed(p[0], rec.real_out_, file, d);
  }
  close(p[0]);
  close(file);
  if (pid < 0) {
    close(p[1]);
    if (rec.real_out_ >= 0)
      close(rec.real_out_);
    rec.real_out_ = -1;
    return rec;
  }
  dup2(p[1], 1); // without O_CLOEXEC: emulated PEs write to it too
  close(p[1]);
  if (line_buffered)
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
  rec.copier_ = pid;
  return rec;
}

void OutputRecord::finish()
{
  if (copier_ < 0)
    return;
  std::fflush(stdout);
  dup2(real_out_, 1); // the last writer of the pipe closes: the copier sees the end
  close(real_out_);
  int status = 0;
  while (waitpid(copier_, &status, 0) < 0 && errno == EINTR) {
  }
  copier_   = -1;
  real_out_ = -1;
}

namespace {

/// Runs `shmemsim ARGS...` (the one beside this executable), its stdout on our stderr (or nowhere,
/// quiet); its exit status, or -1 if it could not start.
int run_shmemsim(const std::vector<std::string>& args, bool quiet)
{
  std::error_code ec;
  const fs::path self    = fs::read_symlink("/proc/self/exe", ec);
  const std::string tool = (ec ? fs::path("shmemsim") : self.parent_path() / "shmemsim").string();
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(tool.c_str()));
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    const int to = quiet ? open("/dev/null", O_WRONLY) : 2;
    if (to >= 0)
      dup2(to, 1);
    execv(tool.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

bool analyse_run(const std::string& dir, bool report, bool diagram, bool quiet)
{
  if (!fs::exists(fs::path(dir) / "trace.evt")) {
    std::fprintf(stderr, "shmemsim-run: --%s: %s/trace.evt was not written (the run wrote no trace)\n",
                 report ? "report" : "diagram", dir.c_str());
    return false;
  }
  auto step = [&](const char* option, std::vector<std::string> args) {
    const int status = run_shmemsim(args, quiet);
    if (status == 0)
      return true;
    std::fprintf(stderr, "shmemsim-run: %s: 'shmemsim %s %s' %s\n", option, args[0].c_str(), dir.c_str(),
                 status == 127 || status < 0 ? "could not be started (shmemsim is not beside shmemsim-run)"
                                             : ("ended with status " + std::to_string(status)).c_str());
    return false;
  };
  bool ok = true;
  if (report)
    ok = step("--report",
              quiet ? std::vector<std::string>{"report", dir, "--quiet"} : std::vector<std::string>{"report", dir}) &&
         ok;
  if (diagram)
    ok = step("--diagram", {"diagram", dir, "-o", (fs::path(dir) / "diagram.svg").string()}) && ok;
  return ok;
}

} // namespace shmemsim::front
