#include "tools/SweepPlan.hpp"

#include "scenarios/Scenario.hpp"
#include "base/Assert.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace shmemsim::tools {

using scenarios::kProgramPreset;
using scenarios::load_scenario;
using scenarios::Scenario;
using scenarios::ScenarioError;

using json   = nlohmann::json;
namespace fs = std::filesystem;

std::string shell_quote(const std::string& s)
{
  const bool plain = !s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                       "0123456789_./:=@%+,-") == std::string::npos;
  if (plain)
    return s;
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string SweepRun::shell() const
{
  std::string line = "cd " + shell_quote(dir) + " && { "; // environment variables: -x in argv
  for (std::size_t i = 0; i < argv.size(); ++i)
    line += (i ? " " : "") + shell_quote(argv[i]);
  return line + " > stdout.txt 2> stderr.txt; echo $? > status; }";
}

json SweepRun::record() const
{
  json env_j = json::object();
  for (const auto& [k, v] : env)
    env_j[k] = v;
  return json{{"name", name}, {"point", point},  {"repeat", repeat}, {"seed", seed},
              {"cwd", dir},   {"command", argv}, {"env", env_j},     {"shell", shell()}};
}

json SweepIndex::to_json() const
{
  json runs_j = json::array();
  for (const SweepRun& r : runs) {
    json vals = json::object();
    for (std::size_t v = 0; v < names.size(); ++v)
      vals[names[v]] = r.values[v];
    json j      = r.record();
    j["values"] = vals;
    runs_j.push_back(std::move(j));
  }
  json plots_j = json::array();
  for (const SweepPlot& p : plots)
    plots_j.push_back({{"x", p.x},
                       {"y", p.y},
                       {"series", p.series},
                       {"file", p.file},
                       {"title", p.title},
                       {"logx", p.logx},
                       {"logy", p.logy},
                       {"errors", p.errors}});
  json numeric_j = json::array();
  for (bool b : numeric)
    numeric_j.push_back(b);
  return json{{"scenario", scenario}, {"repeat", repeat}, {"variables", names},
              {"numeric", numeric_j}, {"plots", plots_j}, {"runs", runs_j}};
}

SweepIndex SweepIndex::read(const std::string& dir)
{
  const fs::path file = fs::path(dir) / "sweep.json";
  std::ifstream in(file);
  if (!in)
    throw ScenarioError(file.string() + ": cannot read (is " + dir +
                        " a sweep's directory? shmemsim sweep -o DIR or --export writes it)");
  const json j = json::parse(in, nullptr, false);
  SweepIndex x;
  try {
    if (j.is_discarded())
      throw std::runtime_error("not valid JSON");
    x.dir      = fs::absolute(dir).lexically_normal().string();
    x.scenario = j.at("scenario").get<std::string>();
    x.repeat   = j.at("repeat").get<int>();
    x.names    = j.at("variables").get<std::vector<std::string>>();
    x.numeric  = j.at("numeric").get<std::vector<bool>>();
    for (const json& p : j.at("plots")) {
      x.plots.push_back({p.at("x").get<std::string>(), p.at("y").get<std::string>(), p.at("series").get<std::string>(),
                         p.at("file").get<std::string>(), p.at("title").get<std::string>(), p.at("logx").get<bool>(),
                         p.at("logy").get<bool>()});
      x.plots.back().errors = p.value("errors", std::string("minmax")); // absent in older sweep.json
    }
    for (const json& r : j.at("runs")) {
      SweepRun run;
      run.name   = r.at("name").get<std::string>();
      run.point  = r.at("point").get<std::size_t>();
      run.repeat = r.at("repeat").get<int>();
      run.seed   = r.at("seed").get<std::uint64_t>();
      run.dir    = (fs::path(x.dir) / run.name).string(); // the directory may have moved
      run.argv   = r.at("command").get<std::vector<std::string>>();
      for (const auto& [k, v] : r.at("env").items())
        run.env.emplace_back(k, v.get<std::string>());
      for (const std::string& n : x.names)
        run.values.push_back(r.at("values").at(n));
      x.runs.push_back(std::move(run));
    }
  } catch (const std::exception& e) {
    throw ScenarioError(file.string() + ": not a sweep index written by shmemsim sweep (" + e.what() + ")");
  }
  return x;
}

namespace {

/// Builds the runs of a sweep from its request.
class Planner {
public:
  explicit Planner(const SweepRequest& req)
      : req_(req), base_(load_base(req)), spec_(SweepSpec::parse(base_.sweep, req.scenario))
  {
    program_mode_ = req.has_program || !base_.job.program.empty();
    for (const SweepVariable& v : spec_.variables())
      if (v.target != SweepVariable::Target::Key && !program_mode_)
        throw ScenarioError(req.scenario + ": " + v.path +
                            ": program arguments and environment variables need a program "
                            "(job.program, or PROGRAM on the command line); this sweep runs traffic");
    if (program_mode_ && !fs::exists(fs::path(req.bin_dir) / "shmemsim-run"))
      throw ScenarioError("shmemsim-run: not found in " + req.bin_dir + " (beside shmemsim); a program sweep runs it");
  }

  SweepIndex plan()
  {
    SweepIndex x;
    x.dir      = fs::absolute(req_.out).lexically_normal().string();
    x.scenario = fs::absolute(req_.scenario).lexically_normal().string();
    x.repeat   = base_.repeat;
    for (const SweepVariable& v : spec_.variables()) {
      x.names.push_back(v.name);
      x.numeric.push_back(std::all_of(v.values.begin(), v.values.end(), [](const json& j) { return j.is_number(); }));
    }
    x.plots                  = spec_.plots(); // their x axes are checked by SweepSpec::parse
    const std::size_t points = spec_.point_count();
    if (points * static_cast<std::size_t>(base_.repeat) > SweepSpec::kMaxRuns)
      throw ScenarioError(req_.scenario + ": repeat: " + std::to_string(points) + " points x " +
                          std::to_string(base_.repeat) + " repeats is more than " +
                          std::to_string(SweepSpec::kMaxRuns) + " runs");
    std::size_t width = 4;
    while (std::to_string(points - 1).size() > width)
      ++width;
    for (std::size_t i = 0; i < points; ++i)
      add_point(x, i, width);
    return x;
  }

private:
  /// The scenario as given; a program's scenario is checked without its traffic, and on the default
  /// platform when it names none, as shmemsim-run does.
  static Scenario load_base(const SweepRequest& req)
  {
    std::vector<std::string> sets = req.sets;
    if (req.has_program)
      sets.push_back("traffic=[]");
    try {
      return load_scenario(req.scenario, sets, req.has_program ? kProgramPreset : "");
    } catch (const ScenarioError&) {
      if (req.has_program)
        throw;
      sets.push_back("traffic=[]");
      try {
        Scenario sc = load_scenario(req.scenario, sets, kProgramPreset);
        if (!sc.job.program.empty())
          return sc;
      } catch (const ScenarioError&) {
      }
      throw;
    }
  }

  void add_point(SweepIndex& x, std::size_t i, std::size_t width) const
  {
    const std::vector<json> values = spec_.point(i);
    std::string name               = std::to_string(i);
    name                           = "point-" + std::string(width - name.size(), '0') + name;
    std::vector<std::string> sets  = req_.sets;
    for (std::size_t v = 0; v < values.size(); ++v)
      if (spec_.variables()[v].target == SweepVariable::Target::Key)
        sets.push_back(spec_.variables()[v].of + "=" + values[v].dump());
    const Checked& sc = check(name, values, sets);
    std::string program;
    std::vector<std::string> args;
    if (program_mode_) {
      program = program_path(sc);
      args    = program_args(sc, values);
    }
    for (int r = 0; r < base_.repeat; ++r) {
      SweepRun run;
      run.name   = base_.repeat > 1 ? name + "-r" + std::to_string(r) : name;
      run.point  = i;
      run.repeat = r;
      run.seed   = derive_seed(sc.seed, r);
      run.values = values;
      run.dir    = (fs::path(x.dir) / run.name).string();
      for (std::size_t v = 0; v < values.size(); ++v)
        if (spec_.variables()[v].target == SweepVariable::Target::Env)
          run.env.emplace_back(spec_.variables()[v].of, value_text(values[v]));
      run.argv = command(x, run, sets, program, args);
      x.runs.push_back(std::move(run));
    }
  }

  /// What a point's run takes from its scenario.
  struct Checked {
    std::uint64_t seed = 0;
    std::string program;
    std::vector<std::string> args;
  };

  /// The point's scenario, checked as its run will check it (once per distinct set of keys: points
  /// that differ only in arguments or environment share it).
  const Checked& check(const std::string& name, const std::vector<json>& values, std::vector<std::string> sets) const
  {
    if (program_mode_)
      sets.push_back("traffic=[]"); // shmemsim-run ignores traffic the same way
    if (const auto it = checked_.find(sets); it != checked_.end())
      return it->second;
    try {
      const Scenario sc     = load_scenario(req_.scenario, sets, program_mode_ ? kProgramPreset : "");
      return checked_[sets] = Checked{sc.seed, sc.job.program, sc.job.args};
    } catch (const ScenarioError& e) {
      std::string desc;
      for (std::size_t v = 0; v < values.size(); ++v)
        desc += (v ? ", " : "") + spec_.variables()[v].name + "=" + values[v].dump();
      throw ScenarioError(req_.scenario + ": sweep: " + name + " (" + desc + ") is not a valid run: " + e.what());
    }
  }

  std::string program_path(const Checked& sc) const
  {
    const std::string given = req_.has_program ? req_.program : sc.program;
    if (given.empty())
      throw ScenarioError(req_.scenario +
                          ": job.program: empty; name the program (or give PROGRAM on the command line)");
    const fs::path p = fs::absolute(given).lexically_normal();
    if (!fs::is_regular_file(p))
      throw ScenarioError((req_.has_program ? std::string("PROGRAM ") : req_.scenario + ": job.program: ") + given +
                          ": no such file");
    return p.string();
  }

  /// The program's arguments with the point's arg variables applied: a position is replaced; an
  /// option's value (the next argument, or "--n=VALUE") replaced, or the option appended.
  std::vector<std::string> program_args(const Checked& sc, const std::vector<json>& values) const
  {
    std::vector<std::string> args = req_.has_program ? req_.args : sc.args;
    const std::size_t given       = args.size();
    for (std::size_t v = 0; v < values.size(); ++v) {
      const SweepVariable& var = spec_.variables()[v];
      if (var.target != SweepVariable::Target::Arg)
        continue;
      const std::string text = value_text(values[v]);
      if (var.position >= 0) {
        if (static_cast<std::size_t>(var.position) >= given)
          throw ScenarioError(req_.scenario + ": " + var.path + ".arg: position " + std::to_string(var.position) +
                              ", but the program has " + std::to_string(given) + " argument" + (given == 1 ? "" : "s") +
                              " (0 is the first)");
        args[static_cast<std::size_t>(var.position)] = text;
        continue;
      }
      const bool joined = var.of.back() == '=';
      auto it           = std::find_if(args.begin(), args.end(),
                                       [&](const std::string& a) { return joined ? a.rfind(var.of, 0) == 0 : a == var.of; });
      if (joined && it != args.end())
        *it = var.of + text;
      else if (joined)
        args.push_back(var.of + text);
      else if (it != args.end() && it + 1 != args.end())
        *(it + 1) = text;
      else if (it != args.end())
        args.push_back(text);
      else
        args.insert(args.end(), {var.of, text});
    }
    return args;
  }

  std::vector<std::string> command(const SweepIndex& x, const SweepRun& run, const std::vector<std::string>& sets,
                                   const std::string& program, const std::vector<std::string>& args) const
  {
    const fs::path bin(req_.bin_dir);
    std::vector<std::string> c;
    if (program_mode_)
      c = {(bin / "shmemsim-run").string(), "--scenario", x.scenario};
    else
      c = {(bin / "shmemsim").string(), "run", x.scenario};
    for (const std::string& s : sets)
      c.insert(c.end(), {"--set", s});
    c.insert(c.end(), {"--set", "seed=" + std::to_string(run.seed), "--out", run.dir, "--quiet"});
    if (!req_.trace.empty())
      c.insert(c.end(), {"--trace", req_.trace});
    if (!req_.time_limit.empty())
      c.insert(c.end(), {"--sim-time-limit", req_.time_limit});
    if (req_.report)
      c.push_back("--report");
    if (program_mode_) {
      for (const auto& [name, value] : run.env) // recorded in the run's scenario.json (job.env)
        c.insert(c.end(), {"-x", name + "=" + value});
      c.insert(c.end(), {"--", program});
      c.insert(c.end(), args.begin(), args.end());
    }
    return c;
  }

  const SweepRequest& req_;
  Scenario base_;
  SweepSpec spec_;
  bool program_mode_ = false;
  mutable std::map<std::vector<std::string>, Checked> checked_;
};

} // namespace

SweepIndex plan_sweep(const SweepRequest& req)
{
  return Planner(req).plan();
}

void prepare_sweep(const SweepIndex& index)
{
  std::error_code ec;
  fs::create_directories(index.dir, ec);
  if (ec)
    throw ScenarioError(index.dir + ": cannot create the sweep's directory: " + ec.message());
  std::set<std::string> current;
  for (const SweepRun& r : index.runs)
    current.insert(fs::path(r.dir).filename().string());
  for (const fs::directory_entry& e : fs::directory_iterator(index.dir, ec)) { // an earlier, larger sweep's runs
    const std::string name = e.path().filename().string();
    if (name.rfind("point-", 0) == 0 && !current.count(name) && fs::exists(e.path() / "point.json"))
      fs::remove_all(e.path(), ec);
  }
  for (const SweepRun& r : index.runs) {
    SHMEMSIM_ASSERT(fs::path(r.dir).parent_path() == fs::path(index.dir), "a run's directory is inside the sweep's");
    if (fs::exists(r.dir)) {
      if (!fs::exists(fs::path(r.dir) / "point.json"))
        throw ScenarioError(r.dir +
                            ": exists and is not a sweep's run directory (no point.json); choose another -o DIR");
      fs::remove_all(r.dir, ec);
      if (ec)
        throw ScenarioError(r.dir + ": cannot empty the earlier run's directory: " + ec.message());
    }
    fs::create_directories(r.dir, ec);
    if (ec)
      throw ScenarioError(r.dir + ": cannot create: " + ec.message());
    json rec    = r.record();
    json values = json::object();
    for (std::size_t v = 0; v < index.names.size(); ++v)
      values[index.names[v]] = r.values[v];
    rec["values"] = values;
    write_text(fs::path(r.dir) / "point.json", rec.dump(2) + "\n");
  }
  write_text(fs::path(index.dir) / "sweep.json", index.to_json().dump(2) + "\n");
}

void write_text(const std::filesystem::path& p, const std::string& text)
{
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush())
    throw ScenarioError(p.string() + ": cannot write");
}

} // namespace shmemsim::tools
