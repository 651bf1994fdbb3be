// What the command-line tests share: running a command as a subprocess with its output captured
// in files of a directory, and reading files whole.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace shmemsim::testing {

/// A finished command: its exit status (128 + signal when killed) and what it printed.
struct Result {
  int status = -1;
  std::string out, err;
};

/// The whole content of a file ("" if it cannot be read).
inline std::string slurp(const std::filesystem::path& p)
{
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// `s` quoted for a POSIX shell.
inline std::string quote(const std::string& s)
{
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs the shell command line `command` in `dir` with no input, its output captured in
/// DIR/stdout and DIR/stderr.
inline Result run_in(const std::filesystem::path& dir, const std::string& command)
{
  const std::string line = "cd " + quote(dir.string()) + " && " + command + " > stdout 2> stderr < /dev/null";
  const int raw          = std::system(line.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out    = slurp(dir / "stdout");
  r.err    = slurp(dir / "stderr");
  return r;
}

} // namespace shmemsim::testing
