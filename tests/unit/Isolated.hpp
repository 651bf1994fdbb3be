// Run a simulation in a child process (SimGrid's engine is one per process, so every simulated
// test case gets a fresh process whatever runner calls it). The child returns JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace shmemsim::testing {

inline nlohmann::json isolated(const std::function<nlohmann::json()>& body)
{
  int fds[2];
  if (pipe(fds) != 0)
    throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    try {
      out = body().dump();
    } catch (const std::exception& e) {
      out = nlohmann::json{{"exception", e.what()}}.dump();
    }
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t w = write(fds[1], out.data() + done, out.size() - done);
      if (w <= 0)
        break;
      done += static_cast<std::size_t>(w);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[65536];
  ssize_t r;
  while ((r = read(fds[0], buf, sizeof buf)) > 0)
    text.append(buf, static_cast<std::size_t>(r));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
    throw std::runtime_error("simulation child process crashed (status " + std::to_string(status) + ")");
  auto j = nlohmann::json::parse(text);
  if (j.is_object() && j.contains("exception"))
    throw std::runtime_error("in simulation child: " + j["exception"].get<std::string>());
  return j;
}

} // namespace shmemsim::testing
