// Scenario loading: JSON text -> --set overrides -> preset merge -> key check -> typed values.
//
// Every key lives in ONE table, schema(): its path, type, default, allowed values, help text and
// the function that stores it into the parameter structs. Validation, defaults, `resolved` and
// describe_keys() are all driven by that table.
#include "scenarios/Scenario.hpp"

#include "scenarios/JsonText.hpp"
#include "scenarios/Wording.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <set>
#include <sstream>

namespace shmemsim::scenarios {

namespace detail {
// Generated from presets/*.json by cmake/EmbedPresets.cmake.
const char* find_preset(const std::string& name);
std::vector<std::string> preset_list();
} // namespace detail

const char* to_string(Pattern p)
{
  const auto i = static_cast<std::size_t>(p);
  return i < pattern_names().size() ? pattern_names()[i].c_str() : "?";
}

namespace {
/// Why a job.env entry is not "NAME=value" with a variable name (letters, digits, _, not first a
/// digit); empty when it is.
std::string env_entry_error(const std::string& entry)
{
  const std::size_t eq   = entry.find('=');
  const std::string name = entry.substr(0, eq);
  const bool named       = !name.empty() && !std::isdigit(static_cast<unsigned char>(name.front())) &&
                     std::all_of(name.begin(), name.end(),
                                 [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)); });
  if (eq == std::string::npos || !named)
    return "'" + entry + "': expected \"NAME=value\" with a variable name (letters, digits, _)";
  return {};
}

using json = nlohmann::json;
using namespace detail; // Wording.hpp, JsonText.hpp

// ---------------------------------------------------------------------------------------------
// The schema: the models' declared keys (base/Params.hpp tables), bound to where their structs live
// in a Scenario, plus the scenario's own keys.
// ---------------------------------------------------------------------------------------------

using Kind  = ParamKind;
using Value = ParamValue;

enum class Scope { Root, Traffic };

/// What is being built: the scenario, plus how down/up were given (scalar: same for each level).
struct Build {
  Scenario sc;
  bool down_scalar = false;
  bool up_scalar   = false;
};

struct Key {
  Scope scope;
  std::string path; ///< dotted, relative to the scope (traffic keys: relative to one pattern)
  Kind kind;
  bool traffic_list                = false; ///< the `traffic` key itself (its keys are the Scope::Traffic entries)
  bool opaque                      = false; ///< an object checked elsewhere (`sweep`: tools/SweepSpec)
  Value def                        = {};    ///< the default: the field of a default-constructed struct
  std::string help                 = {};
  std::int64_t min                 = 0;
  std::int64_t max                 = INT_MAX;
  Ps tmax                          = kMaxParamTime;
  std::uint64_t size_min           = 0;
  std::uint64_t size_max           = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::string> choices = {};
  std::string noun                 = {};
  std::function<void(Build&, const Value&)> root            = {};
  std::function<void(TrafficParams&, const Value&)> traffic = {};
};

/// A declared key as a schema entry (setters bound by the caller).
Key entry(Scope scope, const ParamKey& pk)
{
  Key k{.scope = scope, .path = pk.path, .kind = pk.kind};
  if (scope == Scope::Traffic)
    k.path = pk.path.substr(std::string("traffic.").size());
  k.def = pk.default_value();
  if (pk.kind == Kind::IntList) { // not given: one value for every level
    k.def.ints   = {static_cast<int>(pk.fill)};
    k.def.scalar = true;
  }
  k.help     = pk.doc;
  k.min      = pk.min;
  k.max      = pk.max;
  k.tmax     = pk.tmax;
  k.size_min = pk.umin;
  k.size_max = pk.umax;
  k.choices  = pk.choices;
  k.noun     = pk.noun;
  return k;
}

/// Appends the keys of `table`, whose struct is `where(build)`.
template <class Where> void add_keys(std::vector<Key>& out, const std::vector<ParamKey>& table, Where where)
{
  for (const auto& pk : table) {
    Key k  = entry(Scope::Root, pk);
    k.root = [&pk, where](Build& b, const Value& v) { pk.set(where(b), v); };
    out.push_back(std::move(k));
  }
}

std::string preset_help()
{
  std::string names;
  for (const auto& n : detail::preset_list())
    names += (names.empty() ? "" : ", ") + n;
  return "Platform preset: a built-in name (" + names +
         ") or a path ending in .json (relative to the scenario file) to a file {\"platform\": {...}} (a \"description\" string may sit beside it). The "
         "preset is the base; keys given under `platform` override it. \"\": none.";
}

/// A scenario-level key stored by `get`/`set` on the Scenario.
ParamField on_scenario(std::function<Value(const Scenario&)> get, std::function<void(Scenario&, const Value&)> set)
{
  return shmemsim::accessor<Scenario>(std::move(get), std::move(set));
}

/// The scenario's own keys (not a model's), in the order they are listed among the others.
const ParamTable<Scenario>& scenario_keys()
{
  static const ParamTable<Scenario> table = [] {
    using shmemsim::field;
    const auto none_get    = [](const Scenario&) { return Value{}; };
    const auto none_set    = [](Scenario&, const Value&) {};
    ParamTable<Scenario> t = {
        {.path  = "seed",
         .kind  = Kind::UInt,
         .doc   = "Seed of every random stream (routing, jitter, traffic).",
         .field = field(&Scenario::seed)},
        {.path  = "description",
         .kind  = Kind::Str,
         .doc   = "Free text, ignored.",
         .field = on_scenario(none_get, none_set)},
        {.path  = "platform.preset",
         .kind  = Kind::Str,
         .doc   = preset_help(),
         .field = on_scenario(
             [](const Scenario& s) {
               Value v;
               v.s = s.platform.preset;
               return v;
             },
             [](Scenario& s, const Value& v) { s.platform.preset = v.s; })},
        {.path  = "platform.nic.progress_core",
         .kind  = Kind::Bool,
         .doc   = "The NIC's progress thread occupies one core of every node (as Portals over InfiniBand did): "
                  "programs get platform.cores_per_node - 1 cores.",
         .field = on_scenario(
             [](const Scenario& s) {
               Value v;
               v.b = s.platform.progress_core;
               return v;
             },
             [](Scenario& s, const Value& v) { s.platform.progress_core = v.b; })},
        {.path    = "output.trace",
         .kind    = Kind::Enum,
         .doc     = "Detail of the trace recorded with --out DIR (docs/traces.md): off, ops (operations, messages, "
                    "counters, waits, computation), packets (also every packet's hop and queueing). --trace overrides it.",
         .field   = shmemsim::mapped(&Scenario::output_trace,
                                     {std::string("off"), std::string("ops"), std::string("packets")}),
         .choices = {"off", "ops", "packets"},
         .noun    = "trace level"},
        {.path  = "repeat",
         .kind  = Kind::Int,
         .doc   = "shmemsim sweep: runs per point; repeat r > 0 gets a seed derived from seed and r (README, Sweeps). "
                  "A single run ignores it.",
         .field = field(&Scenario::repeat),
         .min   = 1,
         .max   = 100000},
    };
    return t;
  }();
  return table;
}

const std::vector<Key>& schema()
{
  static const std::vector<Key> keys = [] {
    std::vector<Key> k;
    const auto& own = scenario_keys();
    auto add_own    = [&](const char* path) {
      for (const auto& pk : own)
        if (pk.path == path) {
          Key e  = entry(Scope::Root, pk);
          e.root = [&pk](Build& b, const Value& v) { pk.set(b.sc, v); };
          k.push_back(std::move(e));
        }
    };
    add_own("seed");
    add_own("description");
    add_own("platform.preset");
    add_keys(k, sim::HostParams::keys(), [](Build& b) -> sim::HostParams& { return b.sc.platform.hosts; });
    add_keys(k, sim::NoiseParams::keys(), [](Build& b) -> sim::NoiseParams& { return b.sc.platform.noise; });
    add_keys(k, sim::FabricParams::keys(), [](Build& b) -> sim::FabricParams& { return b.sc.platform.fabric; });
    for (Key& e : k) { // a scalar down/up means "the same for every level"
      if (e.path == "platform.fabric.down")
        e.root = [set = e.root](Build& b, const Value& v) {
          set(b, v);
          b.down_scalar = v.scalar;
        };
      if (e.path == "platform.fabric.up")
        e.root = [set = e.root](Build& b, const Value& v) {
          set(b, v);
          b.up_scalar = v.scalar;
        };
    }
    add_keys(k, nic::NicParams::keys(), [](Build& b) -> nic::NicParams& { return b.sc.platform.nic; });
    add_own("platform.nic.progress_core");
    add_keys(k, portals::Limits::keys(), [](Build& b) -> portals::Limits& { return b.sc.platform.limits; });
    add_keys(k, JobParams::keys(), [](Build& b) -> JobParams& { return b.sc.job; });
    add_own("output.trace");
    k.push_back(Key{.scope        = Scope::Root,
                    .path         = "traffic",
                    .kind         = Kind::Str,
                    .traffic_list = true,
                    .help         = "Built-in Portals-level traffic: one pattern object, or an array of them running "
                                    "concurrently. Keys of each pattern: traffic.*"});
    for (const auto& pk : TrafficParams::keys()) {
      Key e     = entry(Scope::Traffic, pk);
      e.traffic = [&pk](TrafficParams& t, const Value& v) { pk.set(t, v); };
      k.push_back(std::move(e));
    }
    add_own("repeat");
    k.push_back(Key{.scope  = Scope::Root,
                    .path   = "sweep",
                    .kind   = Kind::Str,
                    .opaque = true,
                    .help   = "shmemsim sweep: the keys, program arguments (arg) and environment variables (env) to "
                              "vary, {\"cartesian\": [VAR...], \"zip\": [VAR...], \"plot\": {\"x\", \"y\", "
                              "\"series\"}}; VAR is {\"key\"|\"arg\"|\"env\": NAME, \"values\": [...] or "
                              "\"range\": {\"from\", \"to\", \"step\"|\"times\"}, \"name\"}. A single run ignores it "
                              "(README, Sweeps)."});
    add_keys(k, emulator::EmulatorParams::keys(), [](Build& b) -> emulator::EmulatorParams& { return b.sc.emulator; });
    // Every scenario key is listed once.
    std::size_t own_listed = 0;
    for (const Key& e : k)
      for (const auto& pk : own)
        own_listed += e.path == pk.path;
    if (own_listed != own.size()) {
      std::fprintf(stderr, "shmemsim: internal error: scenario keys listed %zu times, declared %zu\n", own_listed,
                   own.size());
      std::abort();
    }
    return k;
  }();
  return keys;
}

const Key* find_key(Scope scope, const std::string& path)
{
  for (const auto& k : schema())
    if (k.scope == scope && k.path == path)
      return &k;
  return nullptr;
}

/// Distinct next path segments below `prefix` ("" or "platform.fabric."), in table order.
std::vector<std::string> children(Scope scope, const std::string& prefix)
{
  std::vector<std::string> r;
  for (const auto& k : schema()) {
    if (k.scope != scope || k.path.compare(0, prefix.size(), prefix) != 0 || k.path.size() == prefix.size())
      continue;
    std::string rest = k.path.substr(prefix.size());
    std::string seg  = rest.substr(0, rest.find('.'));
    if (std::find(r.begin(), r.end(), seg) == r.end())
      r.push_back(seg);
  }
  return r;
}

bool is_branch(Scope scope, const std::string& path)
{
  for (const auto& k : schema())
    if (k.scope == scope && k.path.size() > path.size() && k.path.compare(0, path.size(), path) == 0 &&
        k.path[path.size()] == '.')
      return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A problem at a JSON path; the caller adds the source (file, preset or --set argument).
struct Fail {
  std::string path;
  std::string problem;
  /// The keys whose values make the problem, when `path` names a group of keys (e.g.
  /// platform.fabric for its shape): the input that gave one of them is blamed.
  std::vector<std::string> sources = {};
};

// ---------------------------------------------------------------------------------------------
// Reading one value
// ---------------------------------------------------------------------------------------------

std::string int_range(const Key& k)
{
  if (k.max == INT_MAX || k.max == std::numeric_limits<std::int64_t>::max())
    return "an integer >= " + std::to_string(k.min);
  return "an integer between " + std::to_string(k.min) + " and " + std::to_string(k.max);
}

bool get_int(const json& v, const Key& k, std::int64_t& out)
{
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      return false;
    out = static_cast<std::int64_t>(u);
  } else if (v.is_number_integer()) {
    out = v.get<std::int64_t>();
  } else {
    return false;
  }
  return out >= k.min && out <= k.max;
}

std::uint64_t parse_with(const json& v, const std::string& path, const char* noun, const char* forms,
                         const std::function<std::uint64_t(const std::string&)>& parse)
{
  if (!v.is_string())
    throw Fail{path, show(v) + " is not " + noun + " (units are required); " + forms};
  try {
    return parse(v.get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw Fail{path, e.what()};
  }
}

Value read_value(const Key& k, const json& v, const std::string& path)
{
  Value r;
  switch (k.kind) {
    case Kind::Int:
      if (!get_int(v, k, r.i))
        throw Fail{path, "expected " + int_range(k) + ", got " + show(v)};
      break;
    case Kind::UInt:
      if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0))
        r.u = v.get<std::uint64_t>();
      else
        throw Fail{path, "expected a non-negative integer, got " + show(v)};
      break;
    case Kind::Bool:
      if (!v.is_boolean())
        throw Fail{path, "expected true or false, got " + show(v)};
      r.b = v.get<bool>();
      break;
    case Kind::Str:
      if (!v.is_string())
        throw Fail{path, "expected a string, got " + show(v)};
      r.s = v.get<std::string>();
      break;
    case Kind::Enum: {
      auto it = v.is_string() ? std::find(k.choices.begin(), k.choices.end(), v.get<std::string>()) : k.choices.end();
      if (it == k.choices.end())
        throw Fail{path, show(v) + " is not " + article(k.noun) + "; choose " + join_or(k.choices)};
      r.choice = static_cast<int>(it - k.choices.begin());
      break;
    }
    case Kind::Time: {
      const std::string range =
          (k.min == 0 ? "expected a time between 0ns and " + format_time(k.tmax)
                      : "expected at least " + format_time(k.min) + " and at most " + format_time(k.tmax)) +
          " (the clock counts picoseconds in 63 bits)";
      try {
        r.i = static_cast<std::int64_t>(parse_with(v, path, "a time", time_forms(), [](const std::string& s) {
          return static_cast<std::uint64_t>(parse_time(s));
        }));
      } catch (const Fail& f) {
        if (f.problem.find("too large") != std::string::npos)
          throw Fail{path, show(v) + " is out of range; " + range};
        throw;
      }
      if (r.i < k.min || r.i > k.tmax)
        throw Fail{path, show(v) + " is out of range; " + range};
      break;
    }
    case Kind::Bandwidth:
      r.u = parse_with(v, path, "a bandwidth", bandwidth_forms(), parse_bandwidth);
      if (r.u < k.size_min || r.u > k.size_max)
        throw Fail{path, show(v) + " is out of range; expected a bandwidth between " + format_bandwidth(k.size_min) +
                             " and " + format_bandwidth(k.size_max)};
      break;
    case Kind::Speed: {
      if (!v.is_string())
        throw Fail{path, show(v) + " is not a speed (units are required); " + speed_forms()};
      try {
        r.d = parse_speed(v.get<std::string>());
      } catch (const std::invalid_argument& e) {
        throw Fail{path, e.what()};
      }
      if (r.d < 1)
        throw Fail{path, show(v) + " is out of range; expected a speed of at least 1f (one flop per second)"};
      break;
    }
    case Kind::Size: {
      if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
        r.u = v.get<std::uint64_t>();
      } else if (v.is_string()) {
        try {
          r.u = parse_size(v.get<std::string>());
        } catch (const std::invalid_argument& e) {
          throw Fail{path, e.what()};
        }
      } else {
        throw Fail{path, show(v) + " is not a size; " + size_forms() + ", or an integer number of bytes"};
      }
      if (r.u < k.size_min || r.u > k.size_max) {
        std::string range = k.size_max == std::numeric_limits<std::uint64_t>::max()
                                ? "at least " + std::to_string(k.size_min) + "B"
                                : "between " + std::to_string(k.size_min) + "B and " + std::to_string(k.size_max) + "B";
        throw Fail{path, show(v) + " is out of range; expected a size " + range};
      }
      break;
    }
    case Kind::StrList:
      if (!v.is_array())
        throw Fail{path, "expected an array of strings, got " + show(v)};
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
          throw Fail{path + "[" + std::to_string(i) + "]", "expected a string, got " + show(v[i])};
        r.strings.push_back(v[i].get<std::string>());
      }
      break;
    case Kind::Number:
      if (!v.is_number() || v.get<double>() < static_cast<double>(k.min) ||
          v.get<double>() > static_cast<double>(k.max))
        throw Fail{path, "expected a number between " + std::to_string(k.min) + " and " + std::to_string(k.max) +
                             ", got " + show(v)};
      r.d = v.get<double>();
      break;
    case Kind::IntList: {
      std::string what = int_range(k);
      auto elem_error  = [&](const std::string& p, const json& e) {
        return Fail{p, "expected " + what + " or an array of them, got " + show(e)};
      };
      std::int64_t x = 0;
      if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i) {
          if (!get_int(v[i], k, x))
            throw elem_error(path + "[" + std::to_string(i) + "]", v[i]);
          r.ints.push_back(static_cast<int>(x));
        }
      } else if (get_int(v, k, x)) {
        r.ints   = {static_cast<int>(x)};
        r.scalar = true;
      } else {
        throw elem_error(path, v);
      }
      break;
    }
  }
  // Integer fields read i or u, whichever their signedness; both hold the value.
  switch (k.kind) {
    case Kind::Int:
    case Kind::Time:
      r.u = static_cast<std::uint64_t>(r.i);
      break;
    case Kind::UInt:
    case Kind::Size:
    case Kind::Bandwidth:
      r.i = static_cast<std::int64_t>(r.u);
      break;
    default:
      break;
  }
  return r;
}

json canonical(const Key& k, const Value& v)
{
  switch (k.kind) {
    case Kind::Int:
      return v.i;
    case Kind::UInt:
      return v.u;
    case Kind::Bool:
      return v.b;
    case Kind::Str:
      return v.s;
    case Kind::Enum:
      return k.choices[static_cast<std::size_t>(v.choice)];
    case Kind::Time:
      return format_time(v.i);
    case Kind::Bandwidth:
      return format_bandwidth(v.u);
    case Kind::Size:
      return format_size(v.u);
    case Kind::Speed:
      return format_speed(v.d);
    case Kind::IntList:
      return v.ints;
    case Kind::StrList:
      return v.strings;
    case Kind::Number:
      return v.d;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// The loader
// ---------------------------------------------------------------------------------------------

class Loader {
public:
  Loader(std::string source, std::filesystem::path base_dir, std::string default_preset)
      : source_(std::move(source)), base_dir_(std::move(base_dir)), default_preset_(std::move(default_preset))
  {
  }

  Scenario load(const std::string& text, const std::vector<std::string>& sets)
  {
    json doc = parse_json(text, source_);
    if (!doc.is_object())
      throw ScenarioError(source_ + ": expected a JSON object at the top level, got " + std::string(doc.type_name()));
    for (const auto& s : sets)
      apply_set(doc, s);
    scenario_ = doc;
    try {
      json merged = resolve_preset(doc);
      // "job": {"threads": N} is short for job.threads.per_pe (the short form `shmemsim keys` documents).
      if (merged.contains("job") && merged["job"].is_object() && merged["job"].contains("threads") &&
          merged["job"]["threads"].is_number())
        merged["job"]["threads"] = json{{"per_pe", merged["job"]["threads"]}};
      check_keys(merged, Scope::Root, "", "");
      Scenario sc                   = build(merged);
      sc.platform.preset_by_default = preset_by_default_;
      if (doc.contains("platform") && doc["platform"].is_object())
        leaf_paths(doc["platform"], "", sc.platform.keys_given);
      std::erase(sc.platform.keys_given, std::string("preset"));
      std::sort(sc.platform.keys_given.begin(), sc.platform.keys_given.end());
      return sc;
    } catch (const Fail& f) {
      throw ScenarioError(origin(f) + ": " + f.path + ": " + f.problem);
    }
  }

private:
  struct SetRecord {
    std::string arg;
    std::string path;
  };

  [[noreturn]] void set_error(const std::string& arg, const std::string& problem)
  {
    throw ScenarioError("--set " + clip(arg) + ": " + problem);
  }

  void apply_set(json& doc, const std::string& arg)
  {
    std::size_t eq = arg.find('=');
    if (eq == std::string::npos)
      set_error(arg, "expected dotted.path=VALUE, e.g. --set platform.fabric.routing=adaptive");
    std::string path = arg.substr(0, eq);
    std::string text = arg.substr(eq + 1);
    std::vector<std::string> segs;
    std::size_t start = 0;
    while (true) {
      std::size_t dot = path.find('.', start);
      segs.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
      if (dot == std::string::npos)
        break;
      start = dot + 1;
    }
    for (const auto& s : segs)
      if (s.empty())
        set_error(arg, "\"" + clip(path) +
                           "\" is not a dotted key path; expected dotted.path=VALUE, e.g. --set "
                           "platform.fabric.routing=adaptive");
    if (std::size_t bad = invalid_utf8(arg); bad != std::string::npos)
      set_error(arg,
                "not valid UTF-8 (byte " + std::to_string(bad) + " of the argument); keys and values are UTF-8 text");
    json value;
    if (std::string problem; !parse_set_value(text, &value, &problem))
      set_error(arg, problem);

    json* cur = &doc;
    std::string shown;
    for (std::size_t i = 0; i < segs.size(); ++i) {
      const std::string& s = segs[i];
      const bool last      = i + 1 == segs.size();
      const bool numeric   = s.find_first_not_of("0123456789") == std::string::npos;
      std::size_t index    = std::numeric_limits<std::size_t>::max(); // too large: out of range
      if (numeric)
        std::from_chars(s.data(), s.data() + s.size(), index);
      if (cur->is_array() && numeric && index < cur->size()) {
        shown += "[" + s + "]";
        cur = &(*cur)[index];
        if (last)
          *cur = value;
        continue;
      }
      if (cur->is_array() && numeric)
        set_error(arg, shown + " has " + std::to_string(cur->size()) + " element" + (cur->size() == 1 ? "" : "s") +
                           "; index " + clip(s) + " is out of range");
      if (cur->is_array())
        set_error(arg, shown + " is an array of " + std::to_string(cur->size()) + "; name an element by index, e.g. " +
                           shown + ".0." + clip(s));
      if (!cur->is_object())
        set_error(arg, (shown.empty() ? std::string("the scenario") : shown) + " is " + show(*cur) +
                           ", not an object; cannot set " + clip(path));
      shown += (shown.empty() ? "" : ".") + s;
      if (last) {
        (*cur)[s] = value;
      } else {
        if (!cur->contains(s))
          (*cur)[s] = json::object();
        cur = &(*cur)[s];
      }
    }
    sets_.push_back({arg, shown});
  }

  /// The dotted paths of `obj`'s leaves (arrays are leaves: fabric.down).
  static void leaf_paths(const json& obj, const std::string& prefix, std::vector<std::string>& out)
  {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      if (it->is_object())
        leaf_paths(*it, prefix + it.key() + ".", out);
      else
        out.push_back(prefix + it.key());
    }
  }

  /// Reads and merges platform.preset (or the default preset when no input names one); returns
  /// the merged document.
  json resolve_preset(const json& doc)
  {
    const json* p = find_at(doc, "platform.preset");
    std::string name;
    if (p == nullptr) {
      // The tool's default platform, unless `platform` is not an object (check_keys says so).
      if (default_preset_.empty() || (doc.contains("platform") && !doc["platform"].is_object()))
        return doc;
      name               = default_preset_;
      preset_by_default_ = true;
    } else {
      if (!p->is_string())
        throw Fail{"platform.preset", "expected a string (a preset name or a path to a .json file), got " + show(*p)};
      name = p->get<std::string>();
    }
    if (name.empty())
      return doc;
    std::string text;
    if (name.size() > 5 && name.ends_with(".json")) {
      std::filesystem::path file = name;
      if (file.is_relative())
        file = base_dir_ / file;
      preset_source_ = file.string();
      std::string err;
      if (!read_file(preset_source_, text, err))
        throw Fail{"platform.preset", "cannot read preset file " + clip_path(preset_source_) + ": " + err};
    } else {
      const char* builtin = detail::find_preset(name);
      if (!builtin) {
        std::vector<std::string> names = detail::preset_list();
        names.push_back("a path to a .json file");
        throw Fail{"platform.preset", show(*p) + " is not a preset; choose " + join_or(names)};
      }
      preset_source_ = "preset " + name + (preset_by_default_ ? " (the default platform)" : "");
      text           = builtin;
    }
    preset_   = parse_json(text, preset_source_);
    auto perr = [&](const std::string& path, const std::string& problem) {
      throw ScenarioError(preset_source_ + ": " + (path.empty() ? "" : path + ": ") + problem);
    };
    if (!preset_.is_object())
      perr("", "expected a JSON object {\"platform\": {...}}, got " + std::string(preset_.type_name()));
    for (auto it = preset_.begin(); it != preset_.end(); ++it) {
      if (it.key() == "description") {
        if (!it->is_string())
          perr("description", "expected a string, got " + show(*it));
      } else if (it.key() != "platform") {
        perr(clip(it.key()), unknown_key_problem(it.key(), {"platform", "description"}));
      }
    }
    if (!preset_.contains("platform") || !preset_["platform"].is_object())
      perr("platform", "expected an object with the platform keys, e.g. {\"platform\": {\"nodes\": 16}}");
    if (preset_["platform"].contains("preset"))
      perr("platform.preset", "a preset cannot name another preset; remove this key");
    json merged        = doc;
    merged["platform"] = deep_merge(preset_["platform"], doc.contains("platform") ? doc["platform"] : json::object());
    merged["platform"]["preset"] = name; // resolved names it: the file reruns on it with any tool
    return merged;
  }

  /// Which input a problem comes from: a --set argument, the preset or the scenario.
  std::string origin(const Fail& f) const
  {
    const std::vector<std::string> keys = f.sources.empty() ? std::vector<std::string>{f.path} : f.sources;
    for (auto it = sets_.rbegin(); it != sets_.rend(); ++it)
      for (const std::string& k : keys)
        if (related(it->path, k))
          return "--set " + clip(it->arg);
    if (!preset_.is_null())
      for (const std::string& k : keys)
        if (find_at(preset_, k) && !find_at(scenario_, k))
          return preset_source_;
    return source_;
  }

  /// Every key present must be in the schema; branches must be objects.
  void check_keys(const json& obj, Scope scope, const std::string& rel_prefix, const std::string& shown_prefix)
  {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      const std::string rel   = rel_prefix + it.key();
      const std::string shown = shown_prefix + it.key();
      if (const Key* k = find_key(scope, rel)) {
        if (k->traffic_list)
          check_traffic(*it);
        if (k->opaque && !it->is_object())
          throw Fail{shown,
                     "expected an object, e.g. {\"cartesian\": [{\"key\": \"job.pes\", \"values\": [2, 4]}]}, got " +
                         show(*it)};
        continue;
      }
      if (is_branch(scope, rel)) {
        if (!it->is_object())
          throw Fail{shown, "expected an object with keys " + join(children(scope, rel + ".")) + ", got " + show(*it)};
        check_keys(*it, scope, rel + ".", shown + ".");
        continue;
      }
      throw Fail{shown_prefix + clip(it.key()), unknown_key_problem(it.key(), children(scope, rel_prefix))};
    }
  }

  void check_traffic(const json& t)
  {
    if (t.is_object()) {
      check_keys(t, Scope::Traffic, "", "traffic.");
    } else if (t.is_array()) {
      for (std::size_t i = 0; i < t.size(); ++i) {
        std::string p = "traffic[" + std::to_string(i) + "]";
        if (!t[i].is_object())
          throw Fail{p, "expected an object (one traffic pattern), got " + show(t[i])};
        check_keys(t[i], Scope::Traffic, "", p + ".");
      }
    } else {
      throw Fail{"traffic", "expected an object or an array of objects (traffic patterns), got " + show(t)};
    }
  }

  Scenario build(const json& doc)
  {
    Build b;
    b.sc.source   = source_;
    json resolved = json::object();
    for (const auto& k : schema()) {
      if (k.scope != Scope::Root || k.traffic_list || k.opaque)
        continue;
      const json* v = find_at(doc, k.path);
      Value val     = v ? read_value(k, *v, k.path) : k.def;
      k.root(b, val);
      set_at(resolved, k.path, canonical(k, val));
    }

    // Fabric shape: scalars mean "the same for every level".
    auto& f           = b.sc.platform.fabric;
    const auto levels = static_cast<std::size_t>(f.levels);
    if (b.down_scalar)
      f.down.assign(levels, f.down.front());
    if (b.up_scalar)
      f.up.assign(levels - 1, f.up.front());
    const bool dragonfly = f.topology == sim::Topology::Dragonfly;
    if (std::string err = f.check(); !err.empty()) {
      if (dragonfly)
        throw Fail{"platform.fabric", err,
                   {"platform.fabric.topology", "platform.fabric.dragonfly.switches_per_group",
                    "platform.fabric.dragonfly.global_per_switch", "platform.fabric.dragonfly.groups"}};
      throw Fail{"platform.fabric", err, {"platform.fabric.levels", "platform.fabric.down", "platform.fabric.up"}};
    }
    if (dragonfly) {
      f.dragonfly.groups                                  = f.dragonfly.group_count();
      resolved["platform"]["fabric"]["dragonfly"]["groups"] = f.dragonfly.groups;
    }
    check_rates(b.sc.platform);
    if (auto [key, problem] = b.sc.platform.hosts.cache_problem(); !key.empty())
      throw Fail{key, problem};
    if (const auto& noise = b.sc.platform.noise; noise.enabled && noise.duration >= noise.period)
      throw Fail{"platform.noise.duration",
                 "\"" + format_time(noise.duration) + "\" is not shorter than platform.noise.period (\"" +
                     format_time(noise.period) + "\"): a detour must end before the next one falls",
                 {"platform.noise.duration", "platform.noise.period"}};
    resolved["platform"]["fabric"]["down"] = f.down;
    resolved["platform"]["fabric"]["up"]   = f.up;
    const auto& hosts                      = b.sc.platform.hosts;
    if (dragonfly && hosts.nodes > f.capacity()) {
      const auto& d = f.dragonfly;
      throw Fail{"platform.nodes",
                 std::to_string(hosts.nodes) + " nodes do not fit a dragonfly of capacity " +
                     std::to_string(f.capacity()) + " (endpoints_per_switch " + std::to_string(d.endpoints_per_switch) +
                     " x switches_per_group " + std::to_string(d.switches_per_group) + " x groups " +
                     std::to_string(d.groups) + "); raise platform.fabric.dragonfly.*",
                 {"platform.nodes", "platform.fabric.dragonfly.endpoints_per_switch",
                  "platform.fabric.dragonfly.switches_per_group", "platform.fabric.dragonfly.groups"}};
    }
    if (hosts.nodes > f.capacity()) {
      std::string down;
      for (int d : f.down)
        down += (down.empty() ? "" : ", ") + std::to_string(d);
      throw Fail{"platform.nodes",
                 std::to_string(hosts.nodes) + " nodes do not fit a fat tree of capacity " +
                     std::to_string(f.capacity()) + " (levels " + std::to_string(f.levels) + ", down [" + down +
                     "]); raise platform.fabric.down or levels",
                 {"platform.nodes", "platform.fabric.levels", "platform.fabric.down"}};
    }

    // Job.
    auto& job = b.sc.job;
    for (std::size_t i = 0; i < job.env.size(); ++i)
      if (std::string err = env_entry_error(job.env[i]); !err.empty())
        throw Fail{"job.env[" + std::to_string(i) + "]", err};
    const std::int64_t room = std::int64_t{hosts.nodes} * job.pes_per_node;
    if (job.pes == 0) {
      if (room > INT_MAX)
        throw Fail{"job.pes_per_node",
                   std::to_string(room) + " endpoints in all is too many; at most " + std::to_string(INT_MAX)};
      job.pes = static_cast<int>(room);
    } else if (job.pes > room) {
      throw Fail{"job.pes", std::to_string(job.pes) + " endpoints do not fit " + std::to_string(hosts.nodes) +
                                " nodes x " + std::to_string(job.pes_per_node) + " pes_per_node = " +
                                std::to_string(room) + "; raise job.pes_per_node or platform.nodes"};
    }
    resolved["job"]["pes"] = job.pes;
    resolved.erase("repeat"); // a sweep's key, not a run's
    if (const json* sw = find_at(doc, "sweep"))
      b.sc.sweep = *sw;

    // Traffic.
    const json* t = find_at(doc, "traffic");
    std::vector<std::pair<json, std::string>> patterns; // (object, path prefix)
    if (!t)
      patterns.emplace_back(json::object(), "traffic.");
    else if (t->is_object())
      patterns.emplace_back(*t, "traffic.");
    else
      for (std::size_t i = 0; i < t->size(); ++i)
        patterns.emplace_back((*t)[i], "traffic[" + std::to_string(i) + "].");
    resolved["traffic"] = json::array();
    for (const auto& [obj, prefix] : patterns) {
      TrafficParams tp;
      json out = json::object();
      for (const auto& k : schema()) {
        if (k.scope != Scope::Traffic)
          continue;
        const json* v = find_at(obj, k.path);
        Value val     = v ? read_value(k, *v, prefix + k.path) : k.def;
        k.traffic(tp, val);
        set_at(out, k.path, canonical(k, val));
      }
      check_traffic_params(tp, prefix, job.pes);
      b.sc.traffic.push_back(tp);
      resolved["traffic"].push_back(std::move(out));
    }
    b.sc.resolved = std::move(resolved);
    return std::move(b.sc);
  }

  /// Every time is at most kMaxParamTime (read_value); every bandwidth must move a message of
  /// max_msg_size within kMaxParamTime too, so that no step of a model adds more than a few such
  /// delays to the clock (int64 picoseconds: 2^63 ps is about 9.2e6 s).
  static void check_rates(const PlatformParams& p)
  {
    __extension__ using u128 = unsigned __int128;
    const auto& f            = p.fabric;
    const std::uint64_t mx   = p.limits.max_msg_size;
    if (std::uint64_t{f.mtu} + f.header_size > 0xFFFF'FFFFu)
      throw Fail{"platform.fabric.header_size",
                 "mtu + header_size is " + std::to_string(std::uint64_t{f.mtu} + f.header_size) +
                     " bytes; a packet on the wire must be at most 4294967295 bytes",
                 {"platform.fabric.mtu", "platform.fabric.header_size"}};
    for (const auto& [path, bytes] :
         {std::pair{"platform.fabric.buffer", f.buffer}, std::pair{"platform.nic.rx_buffer", p.nic.rx_buffer}})
      if (bytes > 0 && bytes < f.largest_packet_credits())
        throw Fail{path,
                   "\"" + format_size(bytes) + "\" cannot hold one packet: mtu + header_size (" +
                       std::to_string(std::uint64_t{f.mtu} + f.header_size) + " B) take " +
                       std::to_string(f.largest_packet_credits()) +
                       " B in 64-byte credits; give at least that, or 0 for no flow control",
                   {path, "platform.fabric.mtu", "platform.fabric.header_size"}};
    const u128 packets = (u128{mx} + f.mtu - 1) / f.mtu;
    auto check         = [&](const char* path, std::uint64_t bps, u128 bytes, const char* where) {
      const u128 limit_s = static_cast<u128>(kMaxParamTime / kPsPerSecond);
      const u128 need    = (bytes * 8 + limit_s - 1) / limit_s; // bit/s
      if (u128{bps} >= need)
        return;
      const u128 secs = bytes * 8 / bps;
      std::string took;
      for (u128 x = secs; x > 0 || took.empty(); x /= 10)
        took.insert(took.begin(), static_cast<char>('0' + static_cast<int>(x % 10)));
      const std::string needed = need > std::numeric_limits<std::uint64_t>::max()
                                             ? std::string("more than any bandwidth can give")
                                             : "at least " + format_bandwidth(static_cast<std::uint64_t>(need));
      throw Fail{path,
                 "\"" + format_bandwidth(bps) + "\" is too low: a message of platform.nic.limits.max_msg_size (" +
                     format_size(mx) + ") would take " + took + " s " + where + "; expected " + needed + " (at most " +
                     format_time(kMaxParamTime) + " per message), or a smaller max_msg_size",
                 {path, "platform.nic.limits.max_msg_size"}};
    };
    check("platform.fabric.link_bandwidth", f.link_bandwidth, u128{mx} + packets * f.header_size,
          "on a link (with its packets' headers)");
    check("platform.nic.pcie_bandwidth", p.nic.pcie_bandwidth, u128{mx}, "over PCIe");
  }

  static void check_traffic_params(const TrafficParams& t, const std::string& prefix, int n)
  {
    const std::string range = "expected 0.." + std::to_string(n - 1) + " (the job has " + std::to_string(n) +
                              " endpoint" + (n == 1 ? "" : "s") + ")";
    if (t.root >= n)
      throw Fail{prefix + "root", std::to_string(t.root) + " is not an endpoint; " + range};
    if (t.peer >= n)
      throw Fail{prefix + "peer", std::to_string(t.peer) + " is not an endpoint; " + range + ", or -1 for the last"};
    const char* name = to_string(t.pattern);
    if (t.pattern == Pattern::PingPong || t.pattern == Pattern::Stream) {
      if (n < 2)
        throw Fail{prefix + "pattern", std::string(name) + " needs at least 2 endpoints, the job has " +
                                           std::to_string(n) + "; raise job.pes, job.pes_per_node or platform.nodes"};
      int peer = t.peer == -1 ? n - 1 : t.peer;
      if (peer == t.root && !(t.pattern == Pattern::Stream && t.pairs))
        throw Fail{prefix + "peer",
                   (t.peer == -1 ? "-1 means the last endpoint (" + std::to_string(peer) + "), which is the root"
                                 : std::to_string(t.peer) + " is the root") +
                       "; " + name + " needs a peer other than the root (0.." + std::to_string(n - 1) + ")"};
    }
    if (t.pattern == Pattern::Shift && t.shift % n == 0)
      throw Fail{prefix + "shift", std::to_string(t.shift) + " is a multiple of the job's " + std::to_string(n) +
                                       " endpoints: every endpoint would put to itself"};
    if (t.injection == Injection::Bernoulli) {
      if (t.pattern != Pattern::Random && t.pattern != Pattern::Shift)
        throw Fail{prefix + "injection", std::string("bernoulli needs pattern random or shift, not ") + name};
      if (t.ack != portals::AckReq::NoAck)
        throw Fail{prefix + "ack", "bernoulli injection needs ack none (an open-loop source waits for nothing, and "
                                   "acknowledgements would share the links it measures)"};
      if (!(t.load > 0))
        throw Fail{prefix + "load", "bernoulli injection needs a load above 0"};
    }
    if (t.pattern == Pattern::FetchAdd && t.size != 8)
      throw Fail{prefix + "size",
                 "\"" + format_size(t.size) + "\" is not valid for fetch_add, which adds 8-byte integers; use 8"};
  }

  std::string source_;
  std::filesystem::path base_dir_;
  std::string default_preset_;
  bool preset_by_default_ = false;
  json scenario_;
  json preset_;
  std::string preset_source_;
  std::vector<SetRecord> sets_;
};

std::string pad(std::string s, std::size_t w)
{
  if (s.size() < w)
    s.append(w - s.size(), ' ');
  else
    s += "  ";
  return s;
}

} // namespace

Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets, const std::string& default_preset)
{
  std::string text, err;
  if (!read_file(path, text, err))
    throw ScenarioError(path + ": cannot read scenario file: " + err);
  return parse_scenario(text, path, sets, default_preset);
}

Scenario parse_scenario(const std::string& text, const std::string& source, const std::vector<std::string>& sets,
                        const std::string& default_preset)
{
  Loader l(source, std::filesystem::path(source).parent_path(), default_preset);
  return l.load(text, sets);
}

std::string describe_platform(const PlatformParams& p)
{
  std::string keys;
  for (const std::string& k : p.keys_given)
    keys += (keys.empty() ? "" : ", ") + k;
  const std::size_t n = p.keys_given.size();
  std::string s;
  if (p.preset.empty())
    s = "custom (no preset; " + (n == 0 ? std::string("every key at its default") : "keys given: " + keys) + ")";
  else
    s = p.preset + (n == 0 ? std::string() : " with " + std::to_string(n) + " of its keys set (" + keys + ")");
  const int nodes = p.hosts.nodes, cores = p.hosts.cores_per_node;
  return s + "; " + std::to_string(nodes) + (nodes == 1 ? " node x " : " nodes x ") + std::to_string(cores) +
         (cores == 1 ? " core" : " cores");
}

nlohmann::json platform_record(const PlatformParams& p)
{
  return {{"preset", p.preset.empty() ? std::string("custom") : p.preset},
          {"by_default", p.preset_by_default},
          {"keys_given", p.keys_given}};
}

std::vector<std::string> preset_names()
{
  return detail::preset_list();
}

std::string preset_description(const std::string& name)
{
  const char* text = detail::find_preset(name);
  if (text == nullptr)
    return "";
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_object() && j.contains("description") && j["description"].is_string())
    return j["description"].get<std::string>();
  return "";
}

std::optional<ParamKind> key_kind(const std::string& path)
{
  if (const Key* k = find_key(Scope::Root, path); k && !k->traffic_list && !k->opaque)
    return k->kind;
  if (path.rfind("traffic.", 0) != 0)
    return std::nullopt;
  std::string rest      = path.substr(8);
  const std::size_t dot = rest.find('.');
  if (dot != std::string::npos && dot > 0 && rest.find_first_not_of("0123456789") == dot)
    rest = rest.substr(dot + 1); // traffic.N.KEY: the N-th pattern's KEY
  if (const Key* k = find_key(Scope::Traffic, rest))
    return k->kind;
  return std::nullopt;
}

std::string describe_keys()
{
  std::ostringstream o;
  o << "Scenario keys. Every key has a default, so {} is a valid scenario; nested objects, shown\n"
       "dotted here. --set dotted.path=VALUE overrides any key (VALUE is JSON if it parses, else a string).\n"
       "Units are strings:\n"
       "  time       "
    << time_forms() << "\n  bandwidth  " << bandwidth_forms() << "\n  size       " << size_forms()
    << " (a bare integer is bytes)\n  speed      " << speed_forms() << "\n\n";
  auto type_of = [](const Key& k) -> std::string {
    switch (k.kind) {
      case Kind::Int:
        return int_range(k);
      case Kind::UInt:
        return "non-negative integer";
      case Kind::Bool:
        return "true | false";
      case Kind::Str:
        return "string";
      case Kind::Enum:
        return join(k.choices, " | ");
      case Kind::Time:
        return "time, " + format_time(k.min) + " to " + format_time(k.tmax);
      case Kind::Bandwidth:
        return "bandwidth; it must move a message of platform.nic.limits.max_msg_size within " +
               format_time(kMaxParamTime);
      case Kind::Size:
        if (k.size_max != std::numeric_limits<std::uint64_t>::max())
          return "size, " + std::to_string(k.size_min) + "B to " + std::to_string(k.size_max) + "B";
        return k.size_min > 0 ? "size, at least " + std::to_string(k.size_min) + "B" : "size";
      case Kind::Speed:
        return "speed";
      case Kind::IntList:
        return int_range(k) + ", or an array of them";
      case Kind::StrList:
        return "array of strings";
      case Kind::Number:
        return "number";
    }
    return "";
  };
  for (const auto& k : schema()) {
    std::string name = k.scope == Scope::Traffic ? "traffic." + k.path : k.path;
    std::string def;
    if (k.traffic_list)
      def = json::array({json::object()}).dump();
    else if (k.opaque)
      def = "{}";
    else if (k.kind == Kind::IntList && k.def.scalar)
      def = json(k.def.ints.front()).dump();
    else
      def = canonical(k, k.def).dump();
    const std::string type = k.traffic_list ? "object or array of objects" : k.opaque ? "object" : type_of(k);
    o << pad(name, 44) << pad("default " + def, 26) << "(" << type << ")\n";
    o << "    " << k.help << "\n";
  }
  return o.str();
}

} // namespace shmemsim::scenarios
