// A scenario: JSON (file + presets + --set overrides) parsed and validated into plain parameter
// structs. Models never read JSON; this is the only place that does (docs/design.md).
#pragma once

#include "scenarios/JobParams.hpp"
#include "scenarios/TrafficParams.hpp"
#include "shmem_front/emulator/EmulatorParams.hpp"
#include "sim/FabricParams.hpp"
#include "sim/HostParams.hpp"
#include "sim/Noise.hpp"
#include "sim/Simulation.hpp"
#include "sim/nic/NicParams.hpp"
#include "sim/portals_model/Types.hpp"
#include "base/PortalsLimits.hpp"
#include "base/Units.hpp" // the units of its values (parse_time, format_bandwidth...)

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace shmemsim::scenarios {

/// Bad input. what() is one line naming the file or argument, the JSON path, the bad value and
/// what is allowed.
class ScenarioError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The platform of a program run whose scenario names no `platform.preset` (shmemsim-run, with or
/// without --scenario; shmemsim sweep checks a program's points with it; docs/runs.md). Traffic
/// scenarios (`shmemsim run`, `validate`) have no default preset: their keys' own defaults apply.
inline constexpr const char* kProgramPreset = "qdr-16";

struct PlatformParams {
  std::string preset; ///< the preset the platform starts from (a name or a .json path); empty if none
  /// No input named a preset: `preset` is the loader's default (load_scenario's default_preset).
  bool preset_by_default = false;
  /// The platform keys the scenario file and --set arguments give (dotted, below `platform.`, sorted;
  /// `preset` left out): what differs from the preset, or everything given when there is none.
  std::vector<std::string> keys_given;
  bool progress_core = false; ///< platform.nic.progress_core: one core per node runs the NIC's progress thread
  sim::HostParams hosts;
  sim::NoiseParams noise; ///< platform.noise.*: operating-system noise of the nodes' threads
  sim::FabricParams fabric;
  nic::NicParams nic;
  portals::Limits limits;
};

struct Scenario {
  std::string source; ///< file name as given, for messages
  std::uint64_t seed = 1;
  PlatformParams platform;
  JobParams job;
  emulator::EmulatorParams emulator; ///< shmemsim-run --emulate only
  std::vector<TrafficParams> traffic;
  std::string output_trace = "ops"; ///< output.trace: off, ops or packets (with --out)
  /// repeat: runs per sweep point (shmemsim sweep); a single run ignores it.
  int repeat = 1;
  /// sweep: the sweep's specification as given (null if absent), checked by scenarios::SweepSpec;
  /// a single run ignores it. Neither key is part of `resolved`: they describe a sweep, not a run.
  nlohmann::json sweep;
  nlohmann::json resolved; ///< every key with its effective value (defaults filled in)
};

/// Load `path`, apply `sets` ("dotted.path=VALUE"; VALUE parsed as JSON if it parses, else a
/// string), resolve presets, validate everything. Throws ScenarioError. `default_preset` (a
/// preset's name, e.g. kProgramPreset) is the platform's base when neither the file nor `sets` name
/// `platform.preset`; empty: none (`"preset": ""` always means none).
Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets,
                       const std::string& default_preset = "");
/// Same from JSON text; `source` names it in messages.
Scenario parse_scenario(const std::string& text, const std::string& source, const std::vector<std::string>& sets,
                        const std::string& default_preset = "");

/// The platform a run is on, in words, for its one stderr line: "qdr-16", "qdr-16 with 2 of its keys
/// set (fabric.jitter, nodes)", "custom (no preset; keys given: nodes)", "custom (no preset; every
/// key at its default)"; then its size ("16 nodes x 12 cores").
std::string describe_platform(const PlatformParams& p);
/// The same for summary.json: {"preset": name or "custom", "by_default": bool, "keys_given": [...]}.
nlohmann::json platform_record(const PlatformParams& p);

/// The kind of a scenario key in the key tables (which fixes its unit: Time, Size, Bandwidth...);
/// a traffic key as "traffic.KEY" or "traffic.N.KEY". nullopt when there is no such key.
std::optional<ParamKind> key_kind(const std::string& path);

/// Every key with its default, type and meaning, for `shmemsim keys`.
std::string describe_keys();
/// Names of the built-in platform presets.
std::vector<std::string> preset_names();
/// A built-in preset's "description" (empty if it has none or `name` is not a preset).
std::string preset_description(const std::string& name);

} // namespace shmemsim::scenarios
