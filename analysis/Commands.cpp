#include "analysis/Commands.hpp"

#include "analysis/Compare.hpp"
#include "analysis/Diagram.hpp"
#include "analysis/Figure.hpp"
#include "analysis/Index.hpp"
#include "analysis/Plot.hpp"
#include "analysis/Report.hpp"
#include "traces/Paje.hpp"
#include "traces/Perfetto.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace shmemsim::analysis {

namespace fs = std::filesystem;

namespace {

constexpr int kExitBadInput = 2;

/// A command-line mistake: printed with the usage hint.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char* kUsage = R"USAGE(  report DIR [--bins N] [--quiet] [--export]
        Analyse DIR/trace.evt: ACK-counter waits, thread interference, overlap, NIC and link
        use, resources against limits. Prints a summary and writes DIR/report.json.
        --bins N   bins of the overlap timelines (default 20)
        --export   also write DIR/trace.json (Perfetto) and DIR/trace.paje (Paje) from it
  diagram DIR [-o FILE.svg] [--pes LIST] [--threads LIST] [--from T] [--to T] [--ops N]
        Timing diagram of DIR/trace.evt (default FILE: DIR/diagram.svg). LIST: 0,2,4-7.
        T: a time with a unit (200ns, 10us, 1.5ms, 2s; a bare number is seconds). Without
        --from/--to, the span of the first N operations (default 40).
  plot DIR... --x KEY --y KEY [--series KEY] [-o FILE.svg] [--title T] [--xlabel L]
       [--ylabel L] [--logx] [--logy] [--errors minmax|stddev]
        Plot a metric against a parameter over several run directories, one line per value
        of --series (default FILE: plot.svg). KEY: a dotted path into each DIR's summary.json,
        report.json, scenario.json or reported.json (a sweep run's program figures) (e.g.
        job.threads, sim_time_s, interference.total_s); prefix it with summary., report.,
        scenario. or reported. to name the file. "dir" is the run
        directory's name; "dir:REGEX" the first group REGEX matches in it (e.g. 'dir:t([0-9]+)').
        Units: a key ending in _s, _ms, _us, _ns, _ps (time), _bytes (size), _Bps (bytes/s), _bps
        (bits/s) or _per_s (rate), and a scenario key of kind time, size or bandwidth ("1.3us",
        "4KiB", "32Gbps"), give an axis in its unit, SI-scaled ("time (us)"; binary for sizes:
        "size (KiB)"); a log axis has powers of 10 (of 2 for sizes) with units ("1 KiB").
        Runs that share an x and a series make one point with an error bar: the median from the
        minimum to the maximum (--errors minmax, the default) or the mean -+ one standard
        deviation (--errors stddev); the table gives both ends and the number of runs.
        examples (from the source tree, with build/bin on PATH): a sweep with 3 runs per point,
        then its half round trip against message size per link latency (log axes, min-max bars),
        and against the link latency per size (mean -+ stddev):
          shmemsim sweep scenarios/net/latency-sweep.json -o lat --set repeat=3 --set platform.fabric.jitter=1us --quiet
          shmemsim plot lat/point-* --x scenario.traffic.0.size --y traffic.0.half_round_trip_s --series scenario.platform.fabric.link_latency --logx --logy -o lat.svg
          shmemsim plot lat/point-* --x scenario.platform.fabric.link_latency --y traffic.0.half_round_trip_s --series scenario.traffic.0.size --errors stddev -o by-latency.svg
  compare RUN_A RUN_B [--json] [--all]
        The numeric keys of two run directories' summary.json, report.json and reported.json:
        A, B, B/A and B-A for each key present in both, the keys that differ sorted by
        |log(B/A)| (largest change first; a key that is 0 on one side only comes first), then the
        keys only one side has. --json prints it all as JSON (every common key, in that order);
        --all also lists the equal keys in the table.
  figure SPEC.json BASE [-o FILE.svg]
        A paper's figure from sweeps run under BASE (SPEC names each sweep's directory, its x
        and series variables, the metric, how it is derived: rate, gain over a baseline,
        scaling efficiency) and its published values. Prints simulated beside published
        values and writes the plot, published points drawn as diamonds (default FILE:
        BASE/figure.svg). docs/figures.md describes SPEC.
)USAGE";

struct ArgReader {
  std::string cmd;
  int argc;
  char** argv;
  int i = 0;
  std::string arg;
  bool next()
  {
    if (i >= argc)
      return false;
    arg = argv[i++];
    return true;
  }
  bool is(const char* opt) const { return arg == opt || arg.rfind(std::string(opt) + "=", 0) == 0; }
  std::string value(const char* opt)
  {
    const std::string eq = std::string(opt) + "=";
    if (arg.rfind(eq, 0) == 0)
      return arg.substr(eq.size());
    if (i >= argc)
      throw UsageError(cmd + ": " + opt + " needs a value");
    return argv[i++];
  }
  [[noreturn]] void unknown() const { throw UsageError(cmd + ": unknown option '" + arg + "'"); }
  bool is_option() const { return arg.size() > 1 && arg[0] == '-'; }
  /// -o FILE or --output FILE (or --output=FILE); false for another argument.
  bool output(std::string& out)
  {
    if (arg != "-o" && !is("--output"))
      return false;
    out = value(arg == "-o" ? "-o" : "--output");
    return true;
  }
  /// An argument no option took: the run directory (once), or an unknown option.
  void run_dir(std::string& dir)
  {
    if (is_option())
      unknown();
    if (!dir.empty())
      throw UsageError(cmd + ": unexpected argument '" + arg + "' (one run directory)");
    dir = arg;
  }
  /// After the arguments: the run directory must have been given.
  void require_run_dir(const std::string& dir) const
  {
    if (dir.empty())
      throw UsageError(cmd + ": missing DIR (a run directory holding trace.evt)");
  }
};

std::set<int> parse_list(const std::string& cmd, const char* opt, const std::string& s)
{
  std::set<int> out;
  std::size_t pos = 0;
  auto bad        = [&]() {
    return UsageError(cmd + ": " + opt + " " + s + ": expected numbers and ranges, e.g. 0,2,4-7");
  };
  while (pos <= s.size()) {
    std::size_t comma = s.find(',', pos);
    if (comma == std::string::npos)
      comma = s.size();
    const std::string item = s.substr(pos, comma - pos);
    char* end              = nullptr;
    const long a           = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || end == item.c_str() || a < 0)
      throw bad();
    long b = a;
    if (*end == '-') {
      const char* q = end + 1;
      b             = std::strtol(q, &end, 10);
      if (end == q || b < a)
        throw bad();
    }
    if (*end != '\0' || b - a > 100000)
      throw bad();
    for (long v = a; v <= b; ++v)
      out.insert(static_cast<int>(v));
    pos = comma + 1;
  }
  return out;
}

std::int64_t parse_time_arg(const std::string& cmd, const char* opt, const std::string& s)
{
  std::int64_t ps = 0;
  if (!parse_time(s, &ps))
    throw UsageError(cmd + ": " + opt + " " + s + ": expected a time with a unit: ps, ns, us, ms or s (e.g. 10us, 1.5ms)");
  return ps;
}

int parse_int(const std::string& cmd, const char* opt, const std::string& s, int lo, int hi)
{
  char* end    = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < lo || v > hi)
    throw UsageError(cmd + ": " + opt + " " + s + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  return static_cast<int>(v);
}

traces::Trace load_trace(const std::string& dir)
{
  if (!fs::is_directory(dir))
    throw std::runtime_error(dir + ": no such directory");
  const fs::path p = fs::path(dir) / traces::kCompactName;
  if (!fs::exists(p))
    throw std::runtime_error(p.string() + ": no trace (record one with 'shmemsim run --out " + dir + "' at trace level ops or packets)");
  return traces::read_trace_file(p.string());
}

void write_file(const fs::path& p, const std::string& text)
{
  std::ofstream f(p, std::ios::binary);
  f << text;
  f.close();
  if (!f)
    throw std::runtime_error(p.string() + ": cannot write: " + std::strerror(errno));
}

int cmd_report(ArgReader& a)
{
  std::string dir;
  ReportOptions opt;
  bool quiet = false, exp = false;
  while (a.next()) {
    if (a.is("--bins"))
      opt.timeline_bins = parse_int(a.cmd, "--bins", a.value("--bins"), 1, 10000);
    else if (a.arg == "--quiet")
      quiet = true;
    else if (a.arg == "--export")
      exp = true;
    else
      a.run_dir(dir);
  }
  a.require_run_dir(dir);
  const traces::Trace tr = load_trace(dir);
  const Index ix         = build_index(tr);
  const Report r          = make_report(ix, opt);
  const fs::path out      = fs::path(dir) / "report.json";
  write_file(out, report_json(r).dump(2) + "\n");
  if (exp) {
    std::ostringstream pf, pj;
    traces::write_perfetto(tr, pf);
    traces::write_paje(tr, pj);
    write_file(fs::path(dir) / "trace.json", pf.str());
    write_file(fs::path(dir) / "trace.paje", pj.str());
  }
  if (!quiet) {
    std::fputs(format_report(r).c_str(), stdout);
    std::printf("report written to %s\n", out.string().c_str());
    if (exp)
      std::printf("Perfetto and Paje traces written to %s and %s\n", (fs::path(dir) / "trace.json").string().c_str(),
                  (fs::path(dir) / "trace.paje").string().c_str());
  }
  return 0;
}

int cmd_diagram(ArgReader& a)
{
  std::string dir, out;
  DiagramOptions opt;
  while (a.next()) {
    if (a.output(out))
      continue;
    if (a.is("--pes"))
      opt.pes = parse_list(a.cmd, "--pes", a.value("--pes"));
    else if (a.is("--threads"))
      opt.threads = parse_list(a.cmd, "--threads", a.value("--threads"));
    else if (a.is("--from"))
      opt.from = parse_time_arg(a.cmd, "--from", a.value("--from"));
    else if (a.is("--to"))
      opt.to = parse_time_arg(a.cmd, "--to", a.value("--to"));
    else if (a.is("--ops"))
      opt.max_ops = parse_int(a.cmd, "--ops", a.value("--ops"), 1, 1000000);
    else
      a.run_dir(dir);
  }
  a.require_run_dir(dir);
  if (opt.from && opt.to && *opt.to <= *opt.from)
    throw UsageError("diagram: --to must be after --from");
  if (out.empty())
    out = (fs::path(dir) / "diagram.svg").string();
  const traces::Trace tr = load_trace(dir);
  const Index ix         = build_index(tr);
  Diagram d;
  try {
    d = make_diagram(ix, opt);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("diagram: ") + e.what());
  }
  write_file(out, d.svg);
  std::printf("diagram: %s\ndiagram (%d lanes) written to %s\n", d.note.c_str(), d.lanes, out.c_str());
  return 0;
}

int cmd_figure(ArgReader& a)
{
  std::vector<std::string> pos;
  std::string out;
  while (a.next()) {
    if (a.output(out))
      continue;
    if (a.is_option())
      a.unknown();
    pos.push_back(a.arg);
  }
  if (pos.size() != 2)
    throw UsageError("figure: expected SPEC.json and BASE (the directory the sweeps wrote into)");
  std::ifstream f(pos[0]);
  if (!f)
    throw std::runtime_error(pos[0] + ": cannot read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(pos[0] + ": not valid JSON");
  }
  const FigureSpec spec = parse_figure_spec(j, pos[0]);
  const Figure fig      = make_figure(spec, pos[1]);
  if (out.empty())
    out = pos[1] + "/figure.svg";
  write_file(out, fig.plot.svg);
  std::printf("%s\n%s", spec.title.c_str(), fig.table.c_str());
  if (!spec.note.empty())
    std::printf("%s\n", spec.note.c_str());
  std::printf("figure: %zu series, %zu points, %zu published values; plot written to %s\n", fig.plot.series.size(), fig.plot.points.size(),
              fig.plot.references.size(), out.c_str());
  return 0;
}

Spread parse_spread(const std::string& v)
{
  if (v == "minmax")
    return Spread::MinMax;
  if (v == "stddev")
    return Spread::StdDev;
  throw UsageError("plot: --errors " + v + ": expected minmax (median, min to max) or stddev (mean -+ one standard deviation)");
}

int cmd_plot(ArgReader& a, const UnitReader& units)
{
  std::vector<std::string> dirs;
  std::string out = "plot.svg";
  PlotOptions opt;
  opt.units = units;
  while (a.next()) {
    if (a.output(out))
      continue;
    if (a.is("--x"))
      opt.x = a.value("--x");
    else if (a.is("--y"))
      opt.y = a.value("--y");
    else if (a.is("--series"))
      opt.series = a.value("--series");
    else if (a.is("--title"))
      opt.title = a.value("--title");
    else if (a.is("--xlabel"))
      opt.xlabel = a.value("--xlabel");
    else if (a.is("--ylabel"))
      opt.ylabel = a.value("--ylabel");
    else if (a.arg == "--logx")
      opt.logx = true;
    else if (a.arg == "--logy")
      opt.logy = true;
    else if (a.is("--errors"))
      opt.spread = parse_spread(a.value("--errors"));
    else if (a.is_option())
      a.unknown();
    else
      dirs.push_back(a.arg);
  }
  if (dirs.empty())
    throw UsageError("plot: missing run directories (DIR...)");
  if (opt.x.empty() || opt.y.empty())
    throw UsageError("plot: --x KEY and --y KEY are required (e.g. --x job.threads --y sim_time_s)");
  std::vector<RunDocs> runs;
  for (const std::string& d : dirs)
    runs.push_back(load_run(d));
  const Plot p = make_plot(runs, opt);
  write_file(out, p.svg);
  std::fputs(p.table.c_str(), stdout);
  std::printf("plot: %zu runs, %zu series, %zu points written to %s\n", runs.size(), p.series.size(), p.points.size(), out.c_str());
  return 0;
}

int cmd_compare(ArgReader& a)
{
  std::vector<std::string> dirs;
  bool as_json = false, all = false;
  while (a.next()) {
    if (a.arg == "--json")
      as_json = true;
    else if (a.arg == "--all")
      all = true;
    else if (a.is_option())
      a.unknown();
    else
      dirs.push_back(a.arg);
  }
  if (dirs.size() != 2)
    throw UsageError("compare: expected two run directories, RUN_A and RUN_B (got " + std::to_string(dirs.size()) + ")");
  const Comparison c = compare_runs(dirs[0], dirs[1]);
  if (as_json)
    std::printf("%s\n", comparison_json(c).dump(2).c_str());
  else
    std::fputs(format_comparison(c, all).c_str(), stdout);
  return 0;
}

} // namespace

const char* usage() { return kUsage; }

bool is_command(const std::string& cmd) { return cmd == "report" || cmd == "diagram" || cmd == "plot" || cmd == "figure" || cmd == "compare"; }

int run_command(const std::string& cmd, int argc, char** argv, const UnitReader& units)
{
  ArgReader a{cmd, argc, argv, 0, {}};
  for (int i = 0; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      // This command's part of the usage text: from its line to the next command's.
      const std::string text = kUsage;
      const std::size_t from = text.find("  " + cmd + " ");
      std::size_t to         = from == std::string::npos ? std::string::npos : text.find("\n  ", from + 1);
      while (to != std::string::npos && text.compare(to + 3, 1, " ") == 0)
        to = text.find("\n  ", to + 1);
      std::string part = text.substr(from + 1, to == std::string::npos ? std::string::npos : to - from);
      while (!part.empty() && part.back() == '\n')
        part.pop_back();
      std::fputs(("usage: shmemsim" + part + "\n").c_str(), stdout);
      return 0;
    }
  try {
    if (cmd == "report")
      return cmd_report(a);
    if (cmd == "diagram")
      return cmd_diagram(a);
    if (cmd == "plot")
      return cmd_plot(a, units);
    if (cmd == "figure")
      return cmd_figure(a);
    if (cmd == "compare")
      return cmd_compare(a);
    throw UsageError("unknown command '" + cmd + "'");
  } catch (const UsageError& e) {
    std::fprintf(stderr, "shmemsim: %s (see 'shmemsim --help')\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim: %s: %s\n", cmd.c_str(), e.what());
  }
  std::fflush(stdout);
  return kExitBadInput;
}

} // namespace shmemsim::analysis
