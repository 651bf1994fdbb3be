#include "analysis/Commands.hpp"

#include "base/CommandLine.hpp"

#include "analysis/Compare.hpp"
#include "analysis/Diagram.hpp"
#include "analysis/Figure.hpp"
#include "analysis/Index.hpp"
#include "analysis/Plot.hpp"
#include "analysis/SvgRender.hpp"
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

using base::CommandLine;
using base::Given;

/// The start of every analysis command's table.
CommandLine table(const char* cmd)
{
  return CommandLine("shmemsim", cmd);
}

std::set<int> parse_list(const CommandLine& cl, const Given& g)
{
  const std::string& s = g.value();
  std::set<int> out;
  std::size_t pos = 0;
  auto bad        = [&]() { cl.fail(g.name + " " + s + ": expected numbers and ranges, e.g. 0,2,4-7"); };
  while (pos <= s.size()) {
    std::size_t comma = s.find(',', pos);
    if (comma == std::string::npos)
      comma = s.size();
    const std::string item = s.substr(pos, comma - pos);
    char* end              = nullptr;
    const long a           = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || end == item.c_str() || a < 0)
      bad();
    long b = a;
    if (*end == '-') {
      const char* q = end + 1;
      b             = std::strtol(q, &end, 10);
      if (end == q || b < a)
        bad();
    }
    if (*end != '\0' || b - a > 100000)
      bad();
    for (long v = a; v <= b; ++v)
      out.insert(static_cast<int>(v));
    pos = comma + 1;
  }
  return out;
}

std::int64_t parse_time_arg(const CommandLine& cl, const Given& g)
{
  std::int64_t ps = 0;
  if (!parse_time(g.value(), &ps))
    cl.fail(g.name + " " + g.value() + ": expected a time with a unit: ps, ns, us, ms or s (e.g. 10us, 1.5ms)");
  return ps;
}

int parse_int(const CommandLine& cl, const Given& g, int lo, int hi)
{
  long long v = 0;
  if (!base::parse_integer(g.value(), lo, hi, v))
    cl.fail(g.name + " " + g.value() + ": expected an integer from " + std::to_string(lo) + " to " +
            std::to_string(hi));
  return static_cast<int>(v);
}

/// -o FILE, --output FILE: the file a command writes.
void output_option(CommandLine& cl, std::string& out, const std::string& what)
{
  cl.option("-o, --output", "FILE", what, out);
}

/// A drawing's output file must name a format (.svg, .png, .pdf): checked before any work.
void check_drawing_name(const CommandLine& cl, const std::string& out)
{
  try {
    image_format(out);
  } catch (const std::invalid_argument& e) {
    cl.fail(e.what());
  }
}

traces::Trace load_trace(const std::string& dir)
{
  if (!fs::is_directory(dir))
    throw std::runtime_error(dir + ": no such directory");
  const fs::path p = fs::path(dir) / traces::kCompactName;
  if (!fs::exists(p))
    throw std::runtime_error(p.string() + ": no trace (record one with 'shmemsim run --out " + dir +
                             "' at trace level ops or packets)");
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

/// shmemsim report DIR.
struct ReportCommand {
  std::string dir;
  ReportOptions opt;
  bool quiet = false, exp = false;
  CommandLine cl = table("report");
  ReportCommand()
  {
    cl.synopsis("DIR [--bins N] [--quiet] [--export]")
        .summary("Analyse DIR/trace.evt: ACK-counter waits, thread interference, overlap, NIC and link use, resources "
                 "against limits; print a summary, write DIR/report.json.")
        .description("Analyse DIR/trace.evt: ACK-counter waits, thread interference, overlap, NIC and link\n"
                     "use, resources against limits. Prints a summary and writes DIR/report.json (docs/analysis.md).")
        .positional("DIR", "a run directory holding trace.evt", dir)
        .unexpected("one run directory")
        .option("--bins", "N", "bins of the overlap timelines (default 20)",
                [this](const Given& g) { opt.timeline_bins = parse_int(cl, g, 1, 10000); })
        .flag("--quiet", "print nothing (DIR/report.json is still written)", quiet)
        .flag("--export", "also write DIR/trace.json (Perfetto) and DIR/trace.paje (Paje) from it", exp);
  }
  ReportCommand(const ReportCommand&) = delete;
  int run() const;
};

int ReportCommand::run() const
{
  if (dir.empty())
    cl.fail("missing DIR (a run directory holding trace.evt)");
  const traces::Trace tr = load_trace(dir);
  const Index ix         = build_index(tr);
  const Report r         = make_report(ix, opt);
  const fs::path out     = fs::path(dir) / "report.json";
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

/// shmemsim diagram DIR.
struct DiagramCommand {
  std::string dir, out;
  DiagramOptions opt;
  CommandLine cl = table("diagram");
  DiagramCommand()
  {
    cl.synopsis("DIR [-o FILE.svg|.png|.pdf] [--pes LIST] [--threads LIST] [--from T] [--to T] [--ops N]")
        .summary("Timing diagram of DIR/trace.evt (SVG, PNG or PDF).")
        .description("Timing diagram of DIR/trace.evt (default FILE: DIR/diagram.svg; FILE.png or FILE.pdf:\n"
                     "the same drawing rendered). LIST: 0,2,4-7.\n"
                     "T: a time with a unit (200ns, 10us, 1.5ms, 2s; a bare number is refused). Without\n"
                     "--from/--to, the span of the first N operations (default 40).");
    cl.positional("DIR", "a run directory holding trace.evt", dir).unexpected("one run directory");
    output_option(cl, out, "the file to write: .svg, .png or .pdf (default DIR/diagram.svg)");
    cl.option("--pes", "LIST", "the PEs to draw (default all)", [this](const Given& g) { opt.pes = parse_list(cl, g); })
        .option("--threads", "LIST", "the threads to draw (default all)",
                [this](const Given& g) { opt.threads = parse_list(cl, g); })
        .option("--from", "T", "start of the time span", [this](const Given& g) { opt.from = parse_time_arg(cl, g); })
        .option("--to", "T", "end of the time span", [this](const Given& g) { opt.to = parse_time_arg(cl, g); })
        .option("--ops", "N", "without --from/--to: the span of the first N operations (default 40)",
                [this](const Given& g) { opt.max_ops = parse_int(cl, g, 1, 1000000); });
  }
  DiagramCommand(const DiagramCommand&) = delete;
  int run();
};

int DiagramCommand::run()
{
  if (dir.empty())
    cl.fail("missing DIR (a run directory holding trace.evt)");
  if (opt.from && opt.to && *opt.to <= *opt.from)
    cl.fail("--to must be after --from");
  if (out.empty())
    out = (fs::path(dir) / "diagram.svg").string();
  check_drawing_name(cl, out);
  const traces::Trace tr = load_trace(dir);
  const Index ix         = build_index(tr);
  Diagram d;
  try {
    d = make_diagram(ix, opt);
  } catch (const std::invalid_argument& e) {
    cl.fail(e.what());
  }
  write_drawing(out, d.svg);
  std::printf("diagram: %s\ndiagram (%d lanes) written to %s\n", d.note.c_str(), d.lanes, out.c_str());
  return 0;
}

/// shmemsim figure SPEC.json BASE.
struct FigureCommand {
  std::string spec_file, base_dir, out, title;
  CommandLine cl = table("figure");
  FigureCommand()
  {
    cl.synopsis("SPEC.json BASE [-o FILE.svg|.png|.pdf] [--title T]")
        .summary("A paper's figure from sweeps run under BASE, beside its published values.")
        .description("A paper's figure from sweeps run under BASE (SPEC names each sweep's directory, its x\n"
                     "and series variables, the metric, how it is derived: rate, gain over a baseline,\n"
                     "scaling efficiency) and its published values. Prints simulated beside published\n"
                     "values and writes the plot, published points drawn as diamonds. docs/figures.md\n"
                     "describes SPEC.");
    cl.positional("SPEC.json", "the figure's specification", spec_file)
        .positional("BASE", "the directory the sweeps wrote into", base_dir)
        .unexpected("SPEC.json and BASE only");
    output_option(cl, out, "the file to write: .svg, .png or .pdf (default BASE/figure.svg)");
    cl.option("--title", "T", "the plot's and the table's title instead of SPEC's (e.g. to say a run was reduced)",
              title);
  }
  FigureCommand(const FigureCommand&) = delete;
  int run();
};

int FigureCommand::run()
{
  if (base_dir.empty())
    cl.fail("expected SPEC.json and BASE (the directory the sweeps wrote into)");
  if (!out.empty())
    check_drawing_name(cl, out);
  std::ifstream f(spec_file);
  if (!f)
    throw std::runtime_error(spec_file + ": cannot read");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(spec_file + ": not valid JSON");
  }
  FigureSpec spec = parse_figure_spec(j, spec_file);
  if (!title.empty())
    spec.title = title;
  const Figure fig = make_figure(spec, base_dir);
  if (out.empty())
    out = base_dir + "/figure.svg";
  write_drawing(out, fig.plot.svg);
  std::printf("%s\n%s", spec.title.c_str(), fig.table.c_str());
  if (!spec.note.empty())
    std::printf("%s\n", spec.note.c_str());
  std::printf("figure: %zu series, %zu points, %zu published values; plot written to %s\n", fig.plot.series.size(),
              fig.plot.points.size(), fig.plot.references.size(), out.c_str());
  return 0;
}

/// shmemsim plot DIR...
struct PlotCommand {
  std::vector<std::string> dirs;
  std::string out = "plot.svg";
  PlotOptions opt;
  CommandLine cl = table("plot");
  PlotCommand()
  {
    cl.synopsis("DIR... --x KEY --y KEY [--series KEY] [-o FILE.svg|.png|.pdf] [--title T] [--xlabel L]\n"
                "     [--ylabel L] [--logx] [--logy] [--errors minmax|stddev]")
        .summary("Plot a metric against a parameter over several run directories (SVG).")
        .description(R"TXT(Plot a metric against a parameter over several run directories, one line per value
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
deviation (--errors stddev); the table gives both ends and the number of runs.)TXT")
        .epilogue(R"TXT(examples (from the source tree, with build/bin on PATH): a sweep with 3 runs per point,
then its half round trip against message size per link latency (log axes, min-max bars),
and against the link latency per size (mean -+ stddev):
  shmemsim sweep scenarios/net/latency-sweep.json -o lat --set repeat=3 --set platform.fabric.jitter=1us --quiet
  shmemsim plot lat/point-* --x scenario.traffic.0.size --y traffic.0.half_round_trip_s --series scenario.platform.fabric.link_latency --logx --logy -o lat.svg
  shmemsim plot lat/point-* --x scenario.platform.fabric.link_latency --y traffic.0.half_round_trip_s --series scenario.traffic.0.size --errors stddev -o by-latency.svg)TXT");
    cl.positionals("DIR...", "run directories", [this](const Given& g) { dirs.push_back(g.value()); });
    output_option(cl, out, "the file to write: .svg, .png or .pdf (default plot.svg)");
    cl.option("--x", "KEY", "the parameter (x axis)", opt.x)
        .option("--y", "KEY", "the metric (y axis)", opt.y)
        .option("--series", "KEY", "one line per value of KEY", opt.series)
        .option("--title", "T", "the plot's title", opt.title)
        .option("--xlabel", "L", "the x axis's label", opt.xlabel)
        .option("--ylabel", "L", "the y axis's label", opt.ylabel)
        .flag("--logx", "a logarithmic x axis", opt.logx)
        .flag("--logy", "a logarithmic y axis", opt.logy)
        .option("--errors", "minmax|stddev",
                "error bars: median, min to max (default), or mean -+ one standard deviation", [this](const Given& g) {
                  if (g.value() == "minmax")
                    opt.spread = Spread::MinMax;
                  else if (g.value() == "stddev")
                    opt.spread = Spread::StdDev;
                  else
                    cl.fail(g.name + " " + g.value() +
                            ": expected minmax (median, min to max) or stddev (mean -+ one standard deviation)");
                });
  }
  PlotCommand(const PlotCommand&) = delete;
  int run(const UnitReader& units);
};

int PlotCommand::run(const UnitReader& units)
{
  opt.units = units;
  if (dirs.empty())
    cl.fail("missing run directories (DIR...)");
  if (opt.x.empty() || opt.y.empty())
    cl.fail("--x KEY and --y KEY are required (e.g. --x job.threads --y sim_time_s)");
  check_drawing_name(cl, out);
  std::vector<RunDocs> runs;
  for (const std::string& d : dirs)
    runs.push_back(load_run(d));
  const Plot p = make_plot(runs, opt);
  write_drawing(out, p.svg);
  std::fputs(p.table.c_str(), stdout);
  std::printf("plot: %zu runs, %zu series, %zu points written to %s\n", runs.size(), p.series.size(), p.points.size(),
              out.c_str());
  return 0;
}

/// shmemsim compare RUN_A RUN_B.
struct CompareCommand {
  std::vector<std::string> dirs;
  bool as_json = false, all = false;
  std::string keys;
  int top        = 0;
  CommandLine cl = table("compare");
  CompareCommand()
  {
    cl.synopsis("RUN_A RUN_B [--json] [--all] [--keys REGEX] [--top N]")
        .summary("The numeric keys of two run (or sweep) directories side by side, largest change first.")
        .description("The numeric keys of two run directories' summary.json, report.json and reported.json:\n"
                     "A, B, B/A and B-A for each key present in both, the keys that differ sorted by\n"
                     "|log(B/A)| (largest change first; a key that is 0 on one side only comes first), then the\n"
                     "keys only one side has (docs/runs.md). The text starts with the runs' headline figures\n"
                     "(simulated time, the program's own figures, deliveries, bandwidth, interference, overlap).\n"
                     "Two sweep directories (shmemsim sweep -o DIR) are compared point by point: the points\n"
                     "matched by their swept values, each point's figures the mean over its successful runs;\n"
                     "points only one sweep has are listed.")
        .positionals("RUN_A RUN_B", "the two run directories (or two sweep directories)",
                     [this](const Given& g) { dirs.push_back(g.value()); })
        .flag("--json", "print it all as JSON (every common key, in that order)", as_json)
        .flag("--all", "also list the equal keys in the table", all)
        .option("--keys", "REGEX", "only the keys this regular expression finds (e.g. 'latency|sim_time')",
                [this](const Given& g) { keys = g.value(); })
        .option("--top", "N", "only the N largest changes in the table (per point for sweeps)",
                [this](const Given& g) { top = parse_int(cl, g, 1, 1000000); });
  }
  CompareCommand(const CompareCommand&) = delete;
  int run() const;
};

int CompareCommand::run() const
{
  if (dirs.size() != 2)
    cl.fail("expected two run directories, RUN_A and RUN_B, or two sweep directories (got " +
            std::to_string(dirs.size()) + ")");
  const bool sweep_a = is_sweep_directory(dirs[0]), sweep_b = is_sweep_directory(dirs[1]);
  if (sweep_a != sweep_b)
    throw std::runtime_error((sweep_a ? dirs[0] : dirs[1]) + " is a sweep directory and " +
                             (sweep_a ? dirs[1] : dirs[0]) +
                             " is not: compare two sweeps, or two runs (a sweep's run: DIR/point-NNNN)");
  if (sweep_a) {
    SweepComparison c = compare_sweeps(dirs[0], dirs[1]);
    if (!keys.empty())
      select_keys(c, keys);
    if (as_json)
      std::printf("%s\n", sweep_comparison_json(c).dump(2).c_str());
    else
      std::fputs(format_sweep_comparison(c, all, static_cast<std::size_t>(top)).c_str(), stdout);
    return 0;
  }
  Comparison c = compare_runs(dirs[0], dirs[1]);
  if (!keys.empty())
    select_keys(c, keys);
  if (as_json)
    std::printf("%s\n", comparison_json(c).dump(2).c_str());
  else
    std::fputs(format_comparison(c, all, static_cast<std::size_t>(top)).c_str(), stdout);
  return 0;
}

} // namespace

std::string usage()
{
  return ReportCommand().cl.listing() + DiagramCommand().cl.listing() + PlotCommand().cl.listing() +
         CompareCommand().cl.listing() + FigureCommand().cl.listing();
}

bool is_command(const std::string& cmd)
{
  return cmd == "report" || cmd == "diagram" || cmd == "plot" || cmd == "figure" || cmd == "compare";
}

namespace {
/// Parses the arguments into `c` and runs it; 0 after --help.
template <class C, class... Extra> int parse_and_run(C& c, int argc, char** argv, const Extra&... extra)
{
  return c.cl.parse(argc, argv) ? c.run(extra...) : 0;
}
} // namespace

int run_command(const std::string& cmd, int argc, char** argv, const UnitReader& units)
{
  try {
    if (cmd == "report") {
      ReportCommand c;
      return parse_and_run(c, argc, argv);
    }
    if (cmd == "diagram") {
      DiagramCommand c;
      return parse_and_run(c, argc, argv);
    }
    if (cmd == "plot") {
      PlotCommand c;
      return parse_and_run(c, argc, argv, units);
    }
    if (cmd == "figure") {
      FigureCommand c;
      return parse_and_run(c, argc, argv);
    }
    if (cmd == "compare") {
      CompareCommand c;
      return parse_and_run(c, argc, argv);
    }
    throw base::UsageError("unknown command '" + cmd + "'");
  } catch (const base::UsageError& e) {
    std::fprintf(stderr, "shmemsim: %s\n", e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shmemsim: %s: %s\n", cmd.c_str(), e.what());
  }
  std::fflush(stdout);
  return kExitBadInput;
}

} // namespace shmemsim::analysis
