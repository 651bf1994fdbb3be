#include "base/Units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace shmemsim {

const char* time_forms()
{
  return "use a number with ps, ns, us, ms or s, e.g. \"1.3us\"";
}
const char* bandwidth_forms()
{
  return "use a number with bps, Kbps, Mbps, Gbps or Tbps (bits/s; also \"Gb/s\", \"Gbit/s\") or Bps, KBps, "
         "MBps, GBps, TBps, KiBps, MiBps or GiBps (bytes/s; also \"GB/s\"), e.g. \"32Gbps\"";
}
const char* size_forms()
{
  return "use a whole number of bytes with B, KB, MB, GB, TB, KiB, MiB, GiB or TiB, e.g. \"4KiB\"";
}
const char* symmetric_size_forms()
{
  return "use a non-negative number of bytes, integer or decimal, with an optional suffix k, m, g or t "
         "(either case; 2^10, 2^20, 2^30, 2^40 bytes), e.g. \"512m\", \"1G\", \"1.5g\", \"1048576\" "
         "(\"64MiB\" and the other size units of scenarios work too)";
}
const char* speed_forms()
{
  return "use a number with f, Kf, Mf, Gf or Tf (flop/s), e.g. \"13.32Gf\"";
}

namespace {

__extension__ typedef unsigned __int128 u128;

/// A non-negative decimal number, exactly: mantissa × 10^exp10.
struct Decimal {
  u128 mant = 0;
  int exp10 = 0;
  bool neg  = false;
};

constexpr int kMaxDigits = 24; // mantissa < 10^24 < 2^80, so mantissa × 2^43 (TiB/s in bit/s) fits in 128 bits

bool is_digit(char c)
{
  return c >= '0' && c <= '9';
}

/// Scans a decimal number at the start of `s` ([-]digits[.digits][e[+-]digits]); returns the
/// number of characters used, 0 if there is no number, npos if it has too many digits.
std::size_t scan_decimal(std::string_view s, Decimal& d)
{
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') {
    d.neg = true;
    ++i;
  }
  bool any_digit  = false;
  int significant = 0;
  auto take       = [&](char c, bool fractional) -> bool {
    any_digit = true;
    if (d.mant == 0 && c == '0') { // leading zero: no significance
      if (fractional)
        --d.exp10;
      return true;
    }
    if (significant >= kMaxDigits) {
      if (!fractional)
        ++d.exp10; // drop a digit of the integer part... only if it is zero
      return c == '0';
    }
    d.mant = d.mant * 10 + static_cast<unsigned>(c - '0');
    ++significant;
    if (fractional)
      --d.exp10;
    return true;
  };
  while (i < s.size() && is_digit(s[i]))
    if (!take(s[i++], false))
      return std::string_view::npos;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) {
      char c = s[i++];
      if (significant >= kMaxDigits && c == '0')
        continue; // trailing fractional zeros beyond precision are harmless
      if (!take(c, true))
        return std::string_view::npos;
    }
  }
  if (!any_digit)
    return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    bool eneg     = false;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) {
      eneg = s[j] == '-';
      ++j;
    }
    if (j < s.size() && is_digit(s[j])) {
      long e = 0;
      while (j < s.size() && is_digit(s[j])) {
        if (e < 100000)
          e = e * 10 + (s[j] - '0');
        ++j;
      }
      d.exp10 += static_cast<int>(eneg ? -e : e);
      i = j;
    }
  }
  return i;
}

struct Split {
  Decimal number;
  std::string_view unit;
};

/// Splits "1.3us" into the number and the unit (spaces between them are allowed).
std::optional<Split> split(std::string_view s)
{
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  Split r;
  std::size_t n = scan_decimal(s, r.number);
  if (n == 0 || n == std::string_view::npos)
    return std::nullopt;
  r.unit = s.substr(n);
  while (!r.unit.empty() && r.unit.front() == ' ')
    r.unit.remove_prefix(1);
  return r;
}

/// number × mult, rounded to the nearest integer (half away from zero). `exact` tells whether no
/// rounding happened. nullopt if the result exceeds `limit`.
std::optional<std::uint64_t> scale(const Decimal& d, u128 mult, u128 limit, bool& exact)
{
  u128 num = d.mant * mult; // fits: mant < 10^24, mult <= 2^43
  exact    = true;
  if (num == 0)
    return 0;
  if (d.exp10 >= 0) {
    for (int k = 0; k < d.exp10; ++k) {
      if (num > limit / 10)
        return std::nullopt;
      num *= 10;
    }
  } else {
    int e = -d.exp10;
    if (e > 38) {
      exact = false;
      return 0;
    }
    u128 div = 1;
    for (int k = 0; k < e; ++k)
      div *= 10;
    u128 q = num / div;
    u128 r = num % div;
    exact  = r == 0;
    if (r != 0 && r >= div - r)
      ++q;
    num = q;
  }
  if (num > limit)
    return std::nullopt;
  return static_cast<std::uint64_t>(num);
}

/// `s` in quotes, cut to at most 80 characters ("..." at the end when cut).
std::string quoted(const std::string& s)
{
  return "\"" + (s.size() > 80 ? s.substr(0, 77) + "..." : s) + "\"";
}

[[noreturn]] void fail(const std::string& s, const char* what, const char* forms)
{
  throw std::invalid_argument(quoted(s) + " is not " + what + "; " + forms);
}

struct UnitDef {
  std::string_view name;
  u128 mult;
};

std::optional<u128> lookup(std::string_view unit, std::initializer_list<UnitDef> table)
{
  for (const auto& u : table)
    if (u.name == unit)
      return u.mult;
  return std::nullopt;
}

/// Bandwidth units: returns bits/s per unit.
std::optional<u128> bandwidth_unit(std::string_view unit)
{
  struct Prefix {
    std::string_view p;
    u128 mult;
  };
  static const Prefix prefixes[] = {
      {"", 1},
      {"K", 1'000},
      {"k", 1'000},
      {"M", 1'000'000},
      {"G", 1'000'000'000},
      {"T", 1'000'000'000'000},
      {"Ki", u128{1} << 10},
      {"Mi", u128{1} << 20},
      {"Gi", u128{1} << 30},
      {"Ti", u128{1} << 40},
  };
  static const std::string_view bit_suffixes[]  = {"bps", "b/s", "bit/s", "bits/s"};
  static const std::string_view byte_suffixes[] = {"Bps", "B/s", "byte/s", "bytes/s"};
  for (const auto& pre : prefixes) {
    if (unit.substr(0, pre.p.size()) != pre.p)
      continue;
    std::string_view rest = unit.substr(pre.p.size());
    for (auto s : bit_suffixes)
      if (rest == s)
        return pre.mult;
    for (auto s : byte_suffixes)
      if (rest == s)
        return pre.mult * 8;
  }
  return std::nullopt;
}

std::string with_unit(u128 value, std::string_view unit)
{
  std::string digits;
  if (value == 0)
    digits = "0";
  while (value > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
    value /= 10;
  }
  return digits + std::string(unit);
}

/// `value` in the largest power-of-ten unit not above it, as an exact decimal ("1.3us", "25.6Gbps").
template <std::size_t N>
std::string decimal_with_unit(std::uint64_t value, const std::pair<std::uint64_t, std::string_view> (&units)[N])
{
  for (const auto& [m, u] : units) {
    if (value < m && m > 1)
      continue;
    std::string s = with_unit(value / m, "");
    if (std::uint64_t frac = value % m; frac != 0) {
      std::string digits = with_unit(frac, "");
      std::string fd     = with_unit(m, "").substr(1); // as many digits as zeros in m
      fd.replace(fd.size() - digits.size(), digits.size(), digits);
      while (!fd.empty() && fd.back() == '0')
        fd.pop_back();
      s += "." + fd;
    }
    return s + std::string(u);
  }
  return with_unit(value, units[N - 1].second);
}

} // namespace

Ps parse_time(const std::string& s)
{
  auto sp = split(s);
  if (!sp)
    fail(s, "a time", time_forms());
  auto mult = lookup(sp->unit, {{"ps", 1},
                                {"ns", 1'000},
                                {"us", 1'000'000},
                                {"\xC2\xB5s", 1'000'000}, // µs
                                {"ms", 1'000'000'000},
                                {"s", 1'000'000'000'000}});
  if (!mult)
    fail(s, "a time", time_forms());
  if (sp->number.neg && sp->number.mant != 0)
    throw std::invalid_argument(quoted(s) + " is negative; a time must be >= 0, e.g. \"1.3us\"");
  bool exact = true;
  auto v     = scale(sp->number, *mult, static_cast<u128>(std::numeric_limits<Ps>::max()), exact);
  if (!v)
    throw std::invalid_argument(quoted(s) + " is too large for a time; at most about 106 days (2^63 ps)");
  return static_cast<Ps>(*v);
}

std::uint64_t parse_bandwidth(const std::string& s)
{
  auto sp = split(s);
  if (!sp)
    fail(s, "a bandwidth", bandwidth_forms());
  auto mult = bandwidth_unit(sp->unit);
  if (!mult)
    fail(s, "a bandwidth", bandwidth_forms());
  if (sp->number.neg && sp->number.mant != 0)
    throw std::invalid_argument(quoted(s) + " is negative; a bandwidth must be > 0, e.g. \"32Gbps\"");
  bool exact = true;
  auto v     = scale(sp->number, *mult, std::numeric_limits<std::uint64_t>::max(), exact);
  if (!v)
    throw std::invalid_argument(quoted(s) + " is too large for a bandwidth; at most 2^64-1 bit/s");
  if (*v == 0)
    throw std::invalid_argument(quoted(s) + " is not a usable bandwidth; it must be > 0, e.g. \"32Gbps\"");
  return *v;
}

std::uint64_t parse_size(const std::string& s)
{
  auto sp = split(s);
  if (!sp)
    fail(s, "a size", size_forms());
  auto mult = lookup(sp->unit, {{"B", 1},
                                {"KB", 1'000},
                                {"kB", 1'000},
                                {"MB", 1'000'000},
                                {"GB", 1'000'000'000},
                                {"TB", 1'000'000'000'000},
                                {"KiB", u128{1} << 10},
                                {"MiB", u128{1} << 20},
                                {"GiB", u128{1} << 30},
                                {"TiB", u128{1} << 40}});
  if (!mult)
    fail(s, "a size", size_forms());
  if (sp->number.neg && sp->number.mant != 0)
    throw std::invalid_argument(quoted(s) + " is negative; " + size_forms());
  bool exact = true;
  auto v     = scale(sp->number, *mult, std::numeric_limits<std::uint64_t>::max(), exact);
  if (!v)
    throw std::invalid_argument(quoted(s) + " is too large for a size; at most 2^64-1 bytes");
  if (!exact)
    throw std::invalid_argument(quoted(s) + " is not a whole number of bytes; " + size_forms());
  return *v;
}

/// `s` without leading and trailing spaces.
std::string_view trimmed(const std::string& s)
{
  std::string_view v = s;
  while (!v.empty() && v.front() == ' ')
    v.remove_prefix(1);
  while (!v.empty() && v.back() == ' ')
    v.remove_suffix(1);
  return v;
}

std::uint64_t parse_symmetric_size(const std::string& s)
{
  // The OpenSHMEM specification's form (Environment Variables): a non-negative decimal number,
  // integer or floating point (".5m" is 0.5m), with at most one suffix k/K, m/M, g/G or t/T
  // multiplying by 2^10, 2^20, 2^30 or 2^40; the size is at least the integer ceiling of the
  // product ("3.1m" is 3250586 bytes). Any other suffix is an error.
  const std::string_view v = trimmed(s);
  Decimal d;
  const std::size_t n = v.empty() || v.front() == '-' || v.front() == '+' ? 0 : scan_decimal(v, d);
  if (n != 0 && n != std::string_view::npos) {
    const std::string_view suffix = v.substr(n);
    u128 mult                     = 0;
    if (suffix.empty())
      mult = 1;
    else if (suffix.size() == 1)
      switch (suffix.front()) {
        case 'k':
        case 'K':
          mult = u128{1} << 10;
          break;
        case 'm':
        case 'M':
          mult = u128{1} << 20;
          break;
        case 'g':
        case 'G':
          mult = u128{1} << 30;
          break;
        case 't':
        case 'T':
          mult = u128{1} << 40;
          break;
        default:
          break;
      }
    if (mult != 0) {
      // number x mult, rounded up.
      u128 num       = d.mant * mult;
      const u128 max = std::numeric_limits<std::uint64_t>::max();
      bool too_large = false;
      if (d.exp10 >= 0) {
        for (int k = 0; k < d.exp10 && num != 0 && !too_large; ++k) {
          too_large = num > max / 10;
          num *= 10;
        }
      } else if (num != 0) {
        const int e = -d.exp10;
        if (e > 38) {
          num = 1;
        } else {
          u128 div = 1;
          for (int k = 0; k < e; ++k)
            div *= 10;
          num = num / div + (num % div != 0 ? 1 : 0);
        }
      }
      if (too_large || num > max)
        throw std::invalid_argument(quoted(s) + " is too large for a size; at most 2^64-1 bytes");
      return static_cast<std::uint64_t>(num);
    }
  }
  // The scenario's size forms ("64MiB", "1GB", "4096B") are accepted too.
  try {
    return parse_size(s);
  } catch (const std::invalid_argument&) {
    throw std::invalid_argument(quoted(s) + " is not a size; " + symmetric_size_forms());
  }
}

double parse_speed(const std::string& s)
{
  const std::string_view v = trimmed(s);
  Decimal d;
  std::size_t n = scan_decimal(v, d);
  if (n == 0 || n == std::string_view::npos)
    fail(s, "a speed", speed_forms());
  double number  = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + n, number);
  if (ec != std::errc() || ptr != v.data() + n)
    fail(s, "a speed", speed_forms());
  std::string_view unit = v.substr(n);
  while (!unit.empty() && unit.front() == ' ')
    unit.remove_prefix(1);
  double mult = 0;
  struct Prefix {
    std::string_view p;
    double mult;
  };
  static const Prefix prefixes[]           = {{"", 1}, {"K", 1e3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}};
  static const std::string_view suffixes[] = {"f", "flops", "flop/s"};
  for (const auto& pre : prefixes) {
    if (unit.substr(0, pre.p.size()) != pre.p)
      continue;
    for (auto suf : suffixes)
      if (unit.substr(pre.p.size()) == suf)
        mult = pre.mult;
  }
  if (mult == 0)
    fail(s, "a speed", speed_forms());
  double r = number * mult;
  if (!std::isfinite(r))
    throw std::invalid_argument(quoted(s) + " is too large for a speed");
  if (r <= 0)
    throw std::invalid_argument(quoted(s) + " is not a usable speed; it must be > 0, e.g. \"13.32Gf\"");
  return r;
}

std::string format_time(Ps t)
{
  static const std::pair<std::uint64_t, std::string_view> units[] = {
      {1'000'000'000'000, "s"}, {1'000'000'000, "ms"}, {1'000'000, "us"}, {1'000, "ns"}, {1, "ps"}};
  if (t == 0)
    return "0ns";
  return decimal_with_unit(static_cast<std::uint64_t>(t), units);
}

std::string format_bandwidth(std::uint64_t bps)
{
  static const std::pair<std::uint64_t, std::string_view> units[] = {
      {1'000'000'000'000, "Tbps"}, {1'000'000'000, "Gbps"}, {1'000'000, "Mbps"}, {1'000, "Kbps"}, {1, "bps"}};
  return decimal_with_unit(bps, units);
}

std::string format_size(std::uint64_t bytes)
{
  static const std::pair<std::uint64_t, std::string_view> units[] = {
      {std::uint64_t{1} << 40, "TiB"}, {1'000'000'000'000, "TB"},
      {std::uint64_t{1} << 30, "GiB"}, {1'000'000'000, "GB"},
      {std::uint64_t{1} << 20, "MiB"}, {1'000'000, "MB"},
      {std::uint64_t{1} << 10, "KiB"}, {1'000, "KB"}};
  if (bytes != 0)
    for (const auto& [m, u] : units)
      if (bytes % m == 0)
        return with_unit(bytes / m, u);
  return with_unit(bytes, "B");
}

std::string format_speed(double flops)
{
  // The largest unit whose shortest decimal form reads back to exactly the same value.
  static const std::pair<double, std::string_view> units[] = {
      {1e12, "Tf"}, {1e9, "Gf"}, {1e6, "Mf"}, {1e3, "Kf"}, {1, "f"}};
  for (const auto& [m, u] : units) {
    if (flops < m && m > 1)
      continue;
    char buf[64];
    auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, flops / m);
    if (ec != std::errc())
      continue;
    std::string s(buf, ptr);
    if (s.find_first_of("eE") != std::string::npos)
      continue;
    s += u;
    try {
      if (parse_speed(s) == flops)
        return s;
    } catch (const std::invalid_argument&) {
    }
  }
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, flops);
  return std::string(buf, ptr) + "f";
}

} // namespace shmemsim
