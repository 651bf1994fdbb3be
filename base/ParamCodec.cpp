#include "base/ParamCodec.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace shmemsim {

namespace {

/// Characters a string keeps as they are; every other byte becomes %XX.
bool plain(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~' || c == '/' || c == ':' || c == '@' || c == '+';
}

std::string percent_encoded(const std::string& s)
{
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (const char c : s) {
    if (plain(c)) {
      out += c;
    } else {
      const auto b = static_cast<unsigned char>(c);
      out += '%';
      out += digits[b >> 4];
      out += digits[b & 15];
    }
  }
  return out;
}

int hex_digit(char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

/// A value's problem; decode_param adds the key.
struct Bad {
  std::string why;
};

std::string percent_decoded(std::string_view s)
{
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      if (!plain(s[i]))
        throw Bad{"unexpected character '" + std::string(1, s[i]) + "' in a string"};
      out += s[i];
      continue;
    }
    const int hi = i + 2 < s.size() ? hex_digit(s[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;
    if (lo < 0)
      throw Bad{"'%' not followed by two hex digits"};
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

template <class T> T whole_number(std::string_view s, const char* what)
{
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    throw Bad{std::string("expected ") + what};
  return v;
}

double floating(std::string_view s)
{
  const std::string text(s);
  char* end      = nullptr;
  errno          = 0;
  const double d = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(d))
    throw Bad{"expected a finite number"};
  return d;
}

std::string with17(double d)
{
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

/// `count:item,item,...`: the items (not yet decoded), checked against the count.
std::vector<std::string_view> list_items(std::string_view word)
{
  const std::size_t colon = word.find(':');
  if (colon == std::string_view::npos)
    throw Bad{"expected count:item,item,..."};
  const auto n = whole_number<std::size_t>(word.substr(0, colon), "a count before ':'");
  std::vector<std::string_view> items;
  std::string_view rest = word.substr(colon + 1);
  if (n > 0)
    for (;;) {
      const std::size_t comma = rest.find(',');
      items.push_back(rest.substr(0, comma));
      if (comma == std::string_view::npos)
        break;
      rest.remove_prefix(comma + 1);
    }
  else if (!rest.empty())
    throw Bad{"0 items, but text after ':'"};
  if (items.size() != n)
    throw Bad{"count " + std::to_string(n) + " but " + std::to_string(items.size()) + " items"};
  return items;
}

template <class T> void check_range(T v, T lo, T hi, const char* what)
{
  if (v < lo || v > hi)
    throw Bad{std::string(what) + " out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"};
}

} // namespace

std::string encode_param(const ParamKey& k, const ParamValue& v)
{
  switch (k.kind) {
    case ParamKind::Int:
    case ParamKind::Time:
      return std::to_string(v.i);
    case ParamKind::UInt:
    case ParamKind::Size:
    case ParamKind::Bandwidth:
      return std::to_string(v.u);
    case ParamKind::Bool:
      return v.b ? "true" : "false";
    case ParamKind::Str:
      return percent_encoded(v.s);
    case ParamKind::Enum:
      SHMEMSIM_ASSERT(v.choice >= 0 && static_cast<std::size_t>(v.choice) < k.choices.size(),
                      ("an enumerator of " + k.path + " without a choice").c_str());
      return k.choices[static_cast<std::size_t>(v.choice)];
    case ParamKind::Speed:
    case ParamKind::Number:
      return with17(v.d);
    case ParamKind::IntList: {
      std::string out = std::to_string(v.ints.size()) + ":";
      for (std::size_t i = 0; i < v.ints.size(); ++i)
        out += (i > 0 ? "," : "") + std::to_string(v.ints[i]);
      return out;
    }
    case ParamKind::StrList: {
      std::string out = std::to_string(v.strings.size()) + ":";
      for (std::size_t i = 0; i < v.strings.size(); ++i)
        out += (i > 0 ? "," : "") + percent_encoded(v.strings[i]);
      return out;
    }
  }
  SHMEMSIM_ASSERT(false, "a parameter kind without an encoding");
  return {};
}

ParamValue decode_param(const ParamKey& k, const std::string& word)
{
  ParamValue v;
  try {
    switch (k.kind) {
      case ParamKind::Int:
      case ParamKind::Time: {
        const bool time = k.kind == ParamKind::Time;
        v.i             = whole_number<std::int64_t>(word, time ? "an integer number of picoseconds" : "an integer");
        check_range(v.i, k.min, time ? k.tmax : k.max, time ? "time (ps)" : "integer");
        v.u = static_cast<std::uint64_t>(v.i);
        break;
      }
      case ParamKind::UInt:
      case ParamKind::Size:
      case ParamKind::Bandwidth:
        v.u = whole_number<std::uint64_t>(word, "a non-negative integer");
        check_range(v.u, k.umin, k.umax, "integer");
        v.i = static_cast<std::int64_t>(v.u);
        break;
      case ParamKind::Bool:
        if (word != "true" && word != "false")
          throw Bad{"expected true or false"};
        v.b = word == "true";
        break;
      case ParamKind::Str:
        v.s = percent_decoded(word);
        break;
      case ParamKind::Enum: {
        std::string names;
        for (std::size_t i = 0; i < k.choices.size(); ++i) {
          if (k.choices[i] == word) {
            v.choice = static_cast<int>(i);
            return v;
          }
          names += (i > 0 ? ", " : "") + k.choices[i];
        }
        throw Bad{"expected one of " + names};
      }
      case ParamKind::Speed:
        v.d = floating(word);
        if (v.d < 1)
          throw Bad{"expected a speed of at least 1 flop/s"};
        break;
      case ParamKind::Number:
        v.d = floating(word);
        if (v.d < static_cast<double>(k.min) || v.d > static_cast<double>(k.max))
          throw Bad{"number out of range [" + std::to_string(k.min) + ", " + std::to_string(k.max) + "]"};
        break;
      case ParamKind::IntList:
        for (std::string_view item : list_items(word)) {
          const auto e = whole_number<std::int64_t>(item, "integers");
          check_range(e, k.min, k.max, "element");
          v.ints.push_back(static_cast<int>(e));
        }
        break;
      case ParamKind::StrList:
        for (std::string_view item : list_items(word))
          v.strings.push_back(percent_decoded(item));
        break;
    }
  } catch (const Bad& b) {
    throw std::invalid_argument("bad value of '" + k.path + "': '" + word + "': " + b.why);
  }
  return v;
}

std::string encode_params(const std::vector<ParamKey>& table, const void* p)
{
  std::string out;
  for (const ParamKey& k : table) {
    if (!out.empty())
      out += ' ';
    out += k.path + "=" + encode_param(k, k.field.get(p));
  }
  return out;
}

void decode_params(const std::vector<ParamKey>& table, const std::string& text, void* p)
{
  std::map<std::string, std::string, std::less<>> words;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("entry '" + item + "' is not key=value");
    if (!words.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw std::invalid_argument("entry '" + item.substr(0, eq) + "' given twice");
  }
  for (const ParamKey& k : table) {
    const auto it = words.find(k.path);
    if (it == words.end())
      throw std::invalid_argument("missing entry '" + k.path + "'");
    k.field.set(p, decode_param(k, it->second));
    words.erase(it);
  }
  if (!words.empty())
    throw std::invalid_argument("unknown entry '" + words.begin()->first + "'");
}

} // namespace shmemsim
