// Declared parameters: every model's parameter struct comes with a table of its scenario keys,
// in the spirit of SST's declared parameters. A key names its dotted path, its kind (which fixes
// the unit), its range or choices, one line of documentation, and how to read and write the
// struct's field. Its default is the field's value in a default-constructed struct: a default is
// written once, in the struct's initialiser.
//
// Plain data: models never read JSON. The scenario layer walks these tables, parses JSON values
// with units, checks the ranges and writes the fields.
#pragma once

#include "base/Assert.hpp"
#include "base/Time.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace shmemsim {

enum class ParamKind {
  Int,       ///< integer in [min, max]
  UInt,      ///< non-negative 64-bit integer in [umin, umax]
  Bool,      ///< true | false
  Str,       ///< any string
  Enum,      ///< one of `choices`, stored as the enumerator of the same index
  Time,      ///< picoseconds ("1.3us" in a scenario), in [min, max]
  Bandwidth, ///< bit/s ("32Gbps"), in [umin, umax]
  Size,      ///< bytes ("4KiB" or an integer), in [umin, umax]
  Speed,     ///< flop/s ("13.32Gf"), > 0
  Number,    ///< floating-point number in [min, max]
  IntList,   ///< one integer (the same for every element) or an array of them, each in [min, max]
  StrList,   ///< array of strings
};

/// The unit a kind is stored in ("" when it has none).
constexpr const char* unit_of(ParamKind k)
{
  switch (k) {
    case ParamKind::Time:
      return "ps";
    case ParamKind::Bandwidth:
      return "bit/s";
    case ParamKind::Size:
      return "B";
    case ParamKind::Speed:
      return "flop/s";
    default:
      return "";
  }
}

/// The value of one key. Which members matter depends on the kind: i (Int, Time), u (UInt, Size,
/// Bandwidth), d (Number, Speed), b, s, choice (Enum), ints (IntList; `scalar` when given as one
/// integer), strings (StrList).
struct ParamValue {
  std::int64_t i  = 0;
  std::uint64_t u = 0;
  double d        = 0;
  bool b          = false;
  std::string s;
  int choice = 0;
  std::vector<int> ints;
  bool scalar = false;
  std::vector<std::string> strings;
};

/// How a key reads and writes its field of a parameter struct (the struct is passed by address;
/// the table a key sits in says which struct).
struct ParamField {
  std::function<ParamValue(const void*)> get;
  std::function<void(void*, const ParamValue&)> set;
  std::function<ParamValue()> get_default; ///< the field of a default-constructed struct
};

/// A field of P as a ParamField: integers go through i and u, enums through choice, the rest
/// through the member of their type.
template <class P, class T> ParamField field(T P::*m)
{
  ParamField f;
  f.get = [m](const void* p) {
    ParamValue v;
    const T& x = static_cast<const P*>(p)->*m;
    if constexpr (std::is_same_v<T, bool>) {
      v.b = x;
    } else if constexpr (std::is_enum_v<T>) {
      v.choice = static_cast<int>(x);
    } else if constexpr (std::is_integral_v<T>) {
      v.i = static_cast<std::int64_t>(x);
      v.u = static_cast<std::uint64_t>(x);
    } else if constexpr (std::is_floating_point_v<T>) {
      v.d = x;
    } else if constexpr (std::is_same_v<T, std::string>) {
      v.s = x;
    } else if constexpr (std::is_same_v<T, std::vector<int>>) {
      v.ints = x;
    } else {
      static_assert(std::is_same_v<T, std::vector<std::string>>, "unsupported parameter field type");
      v.strings = x;
    }
    return v;
  };
  f.set = [m](void* p, const ParamValue& v) {
    T& x = static_cast<P*>(p)->*m;
    if constexpr (std::is_same_v<T, bool>) {
      x = v.b;
    } else if constexpr (std::is_enum_v<T>) {
      x = static_cast<T>(v.choice);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      x = static_cast<T>(v.i);
    } else if constexpr (std::is_integral_v<T>) {
      x = static_cast<T>(v.u);
    } else if constexpr (std::is_floating_point_v<T>) {
      x = v.d;
    } else if constexpr (std::is_same_v<T, std::string>) {
      x = v.s;
    } else if constexpr (std::is_same_v<T, std::vector<int>>) {
      x = v.ints;
    } else {
      x = v.strings;
    }
  };
  f.get_default = [get = f.get] {
    const P def{};
    return get(&def);
  };
  return f;
}

/// A field of P whose values are listed: choice i (an Enum key's i-th choice) stores values[i].
template <class P, class T> ParamField mapped(T P::*m, std::vector<T> values)
{
  ParamField f;
  f.get = [m, values](const void* p) {
    ParamValue v;
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] == static_cast<const P*>(p)->*m)
        v.choice = static_cast<int>(i);
    return v;
  };
  f.set = [m, values](void* p, const ParamValue& v) {
    static_cast<P*>(p)->*m = values.at(static_cast<std::size_t>(v.choice));
  };
  f.get_default = [get = f.get] {
    const P def{};
    return get(&def);
  };
  return f;
}

/// A key of P kept elsewhere than in one field (read by `get`, written by `set`).
template <class P>
ParamField accessor(std::function<ParamValue(const P&)> get, std::function<void(P&, const ParamValue&)> set)
{
  ParamField f;
  f.get         = [get](const void* p) { return get(*static_cast<const P*>(p)); };
  f.set         = [set](void* p, const ParamValue& v) { set(*static_cast<P*>(p), v); };
  f.get_default = [get] {
    const P def{};
    return get(def);
  };
  return f;
}

/// Longest single time any key accepts: 1e6 s (1e18 ps, about 11.6 days). The clock is an int64
/// of picoseconds (2^63 ps, about 9.2e6 s); one step of a model adds a few such delays to the
/// current date (a hop: link latency + switch latency + jitter + serialization), so the date of
/// any event scheduled before the clock passes 5e6 s stays far below 2^63.
inline constexpr Ps kMaxParamTime = 1'000'000 * kPsPerSecond;

/// One key of a parameter struct.
struct ParamKey {
  std::string path; ///< dotted scenario path, e.g. "platform.fabric.link_latency"
  ParamKind kind;
  std::string doc; ///< one line
  ParamField field;
  std::int64_t min                 = 0;                                         ///< Int, IntList, Time, Number
  std::int64_t max                 = std::numeric_limits<int>::max();           ///< Int, IntList, Number
  Ps tmax                          = kMaxParamTime;                             ///< Time
  std::uint64_t umin               = 0;                                         ///< UInt, Size, Bandwidth
  std::uint64_t umax               = std::numeric_limits<std::uint64_t>::max(); ///< UInt, Size, Bandwidth
  std::vector<std::string> choices = {}; ///< Enum, in the order of the enumerators
  /// IntList: what every element is when the key is not given (the struct's default list is this
  /// value once per level, e.g. FabricParams::kDefaultDown).
  std::int64_t fill = 0;
  std::string noun  = {}; ///< Enum: "routing" in "\"foo\" is not a routing"

  const char* unit() const { return unit_of(kind); }
  /// The default: the field of a default-constructed struct.
  ParamValue default_value() const { return field.get_default(); }
  /// The key's value in `p`, or `p` with the key set to `v` (P: the struct of the key's table).
  template <class P> ParamValue get(const P& p) const { return field.get(&p); }
  template <class P> void set(P& p, const ParamValue& v) const { field.set(&p, v); }
};

/// The keys of parameter struct P (P names the struct the keys' fields belong to).
template <class P> using ParamTable = std::vector<ParamKey>;

/// Key `k` of struct Inner as a key of Outer, whose member `m` holds an Inner: a consumer's keys,
/// declared once beside its struct, inside a larger struct (the PE runtime's job.* keys in
/// JobParams, the NIC limits in the emulator's configuration). Its default is the member of a
/// default-constructed Outer.
template <class Outer, class Inner> ParamKey nested(Inner Outer::*m, ParamKey k)
{
  const ParamField inner = std::move(k.field);
  k.field.get            = [m, get = inner.get](const void* p) { return get(&(static_cast<const Outer*>(p)->*m)); };
  k.field.set         = [m, set = inner.set](void* p, const ParamValue& v) { set(&(static_cast<Outer*>(p)->*m), v); };
  k.field.get_default = [m, get = inner.get] {
    const Outer def{};
    return get(&(def.*m));
  };
  return k;
}

/// Every key of `table` (Inner's) so.
template <class Outer, class Inner> std::vector<ParamKey> nested(Inner Outer::*m, const std::vector<ParamKey>& table)
{
  std::vector<ParamKey> keys;
  keys.reserve(table.size());
  for (const ParamKey& k : table)
    keys.push_back(nested(m, k));
  return keys;
}

/// The key of `table` at `path` (the table must have it).
inline const ParamKey& key_at(const std::vector<ParamKey>& table, const std::string& path)
{
  for (const ParamKey& k : table)
    if (k.path == path)
      return k;
  SHMEMSIM_ASSERT(false, ("no key " + path + " in its table").c_str());
  return table.front();
}

} // namespace shmemsim
