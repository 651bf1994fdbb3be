// Always-on assertions for internal invariants (like SimGrid's xbt_assert): unlike `assert`, they
// run in release builds too (the default build defines NDEBUG). A failed invariant is a bug in
// shmemsim, not bad input: it prints one line naming the place, the condition and what it
// means, and aborts (a core dump or debugger shows the stack). Bad input never reaches these:
// it is reported as an error naming the file, key or argument.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace shmemsim::detail {
[[noreturn, gnu::cold]] inline void assertion_failed(const char* file, int line, const char* cond, const char* what)
{
  std::fflush(stdout);
  std::fprintf(stderr, "shmemsim: internal error at %s:%d: %s (%s); please report it\n", file, line, what, cond);
  std::fflush(stderr);
  std::abort();
}
} // namespace shmemsim::detail

/// SHMEMSIM_ASSERT(condition, "what it means"): checked in every build.
#define SHMEMSIM_ASSERT(cond, what)                                                                                    \
  do {                                                                                                                 \
    if (__builtin_expect(!(cond), 0))                                                                                  \
      ::shmemsim::detail::assertion_failed(__FILE__, __LINE__, #cond, what);                                           \
  } while (0)
