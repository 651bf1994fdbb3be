#include "sim/MapBudget.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace shmemsim::sim {

namespace {
/// A non-negative number from a file's first line (-1 if unreadable).
long read_number(const char* path)
{
  std::FILE* f = std::fopen(path, "r");
  if (f == nullptr)
    return -1;
  long v = -1;
  if (std::fscanf(f, "%ld", &v) != 1 || v < 0)
    v = -1;
  std::fclose(f);
  return v;
}
} // namespace

long max_map_count()
{
  long limit = read_number("/proc/sys/vm/max_map_count");
  if (const char* env = std::getenv("SHMEMSIM_MAX_MAP_COUNT"); env != nullptr && *env != '\0') {
    char* end    = nullptr;
    errno        = 0;
    const long v = std::strtol(env, &end, 10);
    if (*end == '\0' && errno == 0 && v > 0 && (limit < 0 || v < limit))
      limit = v;
  }
  return limit;
}

long mappings_in_use()
{
  const int fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  long lines = 0;
  char buf[1 << 16];
  ssize_t n;
  while ((n = ::read(fd, buf, sizeof buf)) > 0)
    lines += std::count(buf, buf + n, '\n');
  ::close(fd);
  return n < 0 ? -1 : lines;
}

MapPlan plan_mappings(long limit, long in_use, int pes, int loaded, long per_pe, long spare)
{
  MapPlan p;
  const long rest = in_use + static_cast<long>(pes - loaded) * per_pe + spare;
  p.need_guarded  = rest + 2L * pes;
  p.need_bare     = rest + pes;
  p.max_pes       = pes;
  if (limit < 0 || p.need_guarded <= limit)
    return p;
  p.guards = false;
  if (p.need_bare <= limit)
    return p;
  p.need_compact = in_use + static_cast<long>(pes - loaded) * kCompactPerPe + spare + pes;
  p.compact      = true;
  if (p.need_compact <= limit)
    return p;
  p.fits    = false;
  p.max_pes = static_cast<int>(std::max(0L, (limit - spare - in_use + loaded * kCompactPerPe) / (kCompactPerPe + 1)));
  return p;
}

std::string map_limit_advice(const MapPlan& plan, long limit, int pes)
{
  // Room for the guard pages too, rounded up to a thousand.
  const long raise = (plan.need_guarded + 999) / 1000 * 1000;
  const long need  = plan.compact ? plan.need_compact : plan.need_bare;
  return std::to_string(pes) + " PEs need about " + std::to_string(need) +
         " memory mappings (each PE's program copy, symmetric heap and stack), more than this system's "
         "vm.max_map_count allows (" +
         std::to_string(limit) + "): raise it (sudo sysctl -w vm.max_map_count=" + std::to_string(raise) +
         ") or run at most " + std::to_string(plan.max_pes) + " PEs";
}

MapBudget::MapBudget(bool guards) : per_stack_(guards ? 2 : 1), limit_(max_map_count()), in_use_(mappings_in_use())
{
  next_count_ = in_use_ + (limit_ - in_use_) / 2;
}

bool MapBudget::take_stack()
{
  if (limit_ < 0 || in_use_ < 0)
    return true; // unknown: nothing to plan against
  // Counted again from /proc whenever the estimate passes half the room left at the last count:
  // a few counts per run, and what the program maps meanwhile is seen before the limit.
  constexpr long kKeep = 64; // for the libraries' own mappings while the actor starts
  if (in_use_ + per_stack_ + kKeep > limit_ || in_use_ >= next_count_) {
    in_use_     = mappings_in_use();
    next_count_ = in_use_ + (limit_ - in_use_) / 2;
    if (in_use_ < 0)
      return true;
  }
  if (in_use_ + per_stack_ + kKeep > limit_)
    return false;
  in_use_ += per_stack_;
  return true;
}

} // namespace shmemsim::sim
