// Run a simulation in a child process (SimGrid's engine is one per process, so every simulated
// test case gets a fresh process whatever runner calls it). The child returns JSON. A gtest check
// that fails inside the child (EXPECT_*/ASSERT_* in `body`) fails the test in the parent too: the
// child's failures are its own process's, so it says so in what it returns.
#pragma once

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace shmemsim::testing {

/// Failed checks recorded so far in the running test (in this process).
inline int failed_checks()
{
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr)
    return 0;
  const ::testing::TestResult* r = info->result();
  int failed                     = 0;
  for (int i = 0; i < r->total_part_count(); ++i)
    failed += r->GetTestPartResult(i).failed() ? 1 : 0;
  return failed;
}

inline nlohmann::json isolated(const std::function<nlohmann::json()>& body)
{
  int fds[2];
  if (pipe(fds) != 0)
    throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string out;
    const int failed_before = failed_checks();
    try {
      out = body().dump();
    } catch (const std::exception& e) {
      out = nlohmann::json{{"exception", e.what()}}.dump();
    }
    if (const int failed = failed_checks() - failed_before; failed > 0)
      out = nlohmann::json{{"exception",
                            std::to_string(failed) + " check(s) failed in the simulation child (printed above)"}}
                .dump();
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
