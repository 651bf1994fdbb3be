#include "traces/Trace.hpp"

#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace shmemsim::traces {

namespace {
struct TypeName {
  Type type;
  const char* tag;
};
constexpr TypeName kTypes[] = {
    {Type::Pe, "pe"},     {Type::Link, "link"}, {Type::Ctx, "ctx"},   {Type::Op, "op"},     {Type::Msg, "msg"},
    {Type::Inj, "inj"},   {Type::Hop, "hop"},   {Type::Dlv, "dlv"},   {Type::Done, "done"}, {Type::Ct, "ct"},
    {Type::Wait, "wait"}, {Type::Wend, "wend"}, {Type::Comp, "comp"}, {Type::Lock, "lock"}, {Type::Limit, "limit"},
    {Type::Call, "call"}, {Type::Ret, "ret"},
};

/// Words never contain blanks: the format splits on them.
std::string word(const std::string& s)
{
  if (s.empty())
    return "-";
  std::string w = s;
  for (char& c : w)
    if (c == ' ' || c == '\t' || c == '\n')
      c = '_';
  return w;
}
} // namespace

std::string ps_fixed(std::int64_t ps, int digits)
{
  unsigned long long div = 1;
  for (int i = 0; i < digits; ++i)
    div *= 10;
  const bool neg = ps < 0;
  const auto a   = neg ? 0ULL - static_cast<unsigned long long>(ps) : static_cast<unsigned long long>(ps);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%llu.%0*llu", neg ? "-" : "", a / div, digits, a % div);
  return buf;
}

int node_of(const std::map<int, int>& pe_node, int pe)
{
  auto it = pe_node.find(pe);
  return it == pe_node.end() ? pe : it->second;
}

void Endpoints::see(const Event& e)
{
  if (e.type == Type::Pe) {
    pe_node[e.pe] = e.node;
    threads[e.pe];
  } else if (e.type == Type::Msg) {
    threads[e.src];
    threads[e.dst];
  } else if (e.pe >= 0 && e.thr >= 0 && e.type != Type::Ct && e.type != Type::Limit) {
    threads[e.pe].insert(e.thr);
  }
}

const char* to_string(Level l)
{
  switch (l) {
    case Level::Off:
      return "off";
    case Level::Ops:
      return "ops";
    case Level::Packets:
      return "packets";
  }
  return "?";
}

bool parse_level(const std::string& s, Level* out)
{
  for (Level l : {Level::Off, Level::Ops, Level::Packets})
    if (s == to_string(l)) {
      *out = l;
      return true;
    }
  return false;
}

const char* tag(Type t)
{
  for (const TypeName& n : kTypes)
    if (n.type == t)
      return n.tag;
  return "?";
}

void write_header(std::ostream& out, Level level, const std::map<std::string, std::string>& meta)
{
  out << "#shmemsim-trace 1\n#level " << to_string(level) << '\n';
  for (const auto& [k, v] : meta)
    out << "#meta " << word(k) << ' ' << word(v) << '\n';
}

namespace {

/// Calls `f` on each field of an event after its tag, in the order of the compact format
/// (docs/traces.md): the one list the writer and the reader both follow.
template <class E, class F> void for_each_field(E& e, F&& f)
{
  switch (e.type) {
    case Type::Pe:
      f(e.pe), f(e.node);
      break;
    case Type::Link:
      f(e.id), f(e.what);
      break;
    case Type::Ctx:
      f(e.t), f(e.pe), f(e.thr), f(e.ctx), f(e.ct), f(e.what);
      break;
    case Type::Op:
      f(e.t), f(e.id), f(e.pe), f(e.thr), f(e.ctx), f(e.ct), f(e.seq), f(e.what), f(e.bytes), f(e.target_pe);
      break;
    case Type::Msg:
      f(e.t), f(e.id), f(e.op), f(e.src), f(e.dst), f(e.what), f(e.bytes);
      break;
    case Type::Inj:
    case Type::Done:
      f(e.t), f(e.id);
      break;
    case Type::Hop:
      f(e.t), f(e.id), f(e.link), f(e.queued), f(e.bytes);
      break;
    case Type::Dlv:
      f(e.t), f(e.id), f(e.ooo), f(e.depth);
      break;
    case Type::Ct:
      f(e.t), f(e.pe), f(e.ct), f(e.success), f(e.failure);
      break;
    case Type::Wait:
      f(e.t), f(e.pe), f(e.thr), f(e.ctx), f(e.ct), f(e.what), f(e.target);
      break;
    case Type::Wend:
      f(e.t), f(e.pe), f(e.thr), f(e.target);
      break;
    case Type::Comp:
    case Type::Lock:
      f(e.t), f(e.pe), f(e.thr), f(e.dur);
      break;
    case Type::Limit:
      f(e.t), f(e.pe), f(e.what);
      break;
    case Type::Call:
      f(e.t), f(e.pe), f(e.thr), f(e.what);
      break;
    case Type::Ret:
      f(e.t), f(e.pe), f(e.thr);
      break;
  }
}

// A field on a line: names as words, flags as 0 or 1, numbers in decimal.
void write_field(std::ostream& o, const std::string& s)
{
  o << word(s);
}
void write_field(std::ostream& o, bool b)
{
  o << (b ? 1 : 0);
}
template <class N> void write_field(std::ostream& o, const N& n)
{
  o << n;
}

void read_field(std::istream& in, std::string& s)
{
  in >> s;
}
void read_field(std::istream& in, bool& b)
{
  int v = 0;
  in >> v;
  b = v != 0;
}
template <class N> void read_field(std::istream& in, N& n)
{
  in >> n;
}

} // namespace

void write_event(std::ostream& o, const Event& e)
{
  o << tag(e.type);
  for_each_field(e, [&](const auto& v) {
    o << ' ';
    write_field(o, v);
  });
  o << '\n';
}

bool TraceReader::next(Event& e)
{
  std::string line;
  auto bad = [&](const std::string& why) {
    return std::runtime_error(name_ + ":" + std::to_string(lineno_) + ": " + why);
  };
  while (std::getline(in_, line)) {
    ++lineno_;
    if (line.empty())
      continue;
    std::istringstream s(line);
    std::string t;
    s >> t;
    if (t == "#shmemsim-trace") {
      int version = 0;
      s >> version;
      if (version != 1)
        throw bad("unsupported trace format version " + std::to_string(version) + " (this build reads version 1)");
      header_ = true;
      continue;
    }
    if (!header_)
      throw bad("not a shmemsim trace (it must start with \"#shmemsim-trace 1\")");
    if (t == "#level") {
      std::string l;
      s >> l;
      if (!parse_level(l, &level_))
        throw bad("unknown trace level '" + l + "'");
      continue;
    }
    if (t == "#meta") {
      std::string k, v;
      s >> k >> v;
      meta_[k] = v;
      continue;
    }
    if (t[0] == '#')
      continue;
    e          = Event{};
    bool known = false;
    for (const TypeName& n : kTypes)
      if (t == n.tag) {
        e.type = n.type;
        known  = true;
      }
    if (!known)
      throw bad("unknown event type '" + t + "'");
    for_each_field(e, [&](auto& v) { read_field(s, v); });
    if (s.fail())
      throw bad("malformed '" + t + "' event: " + line);
    std::string extra;
    if (s >> extra)
      throw bad("unexpected field '" + extra + "' in a '" + t + "' event");
    if (e.type != Type::Pe && e.type != Type::Link) {
      if (order_ == DateOrder::NonDecreasing && dated_ && e.t < last_)
        throw bad("dates go backwards");
      dated_ = true;
      last_  = e.t;
    }
    return true;
  }
  if (!header_)
    throw std::runtime_error(name_ + ": empty file, not a shmemsim trace");
  return false;
}

Trace read_trace(std::istream& in, const std::string& name, DateOrder order)
{
  Trace tr;
  TraceReader r(in, name, order);
  Event e;
  while (r.next(e))
    tr.events.push_back(std::move(e));
  tr.level = r.level();
  tr.meta  = r.meta();
  return tr;
}

Trace read_trace_file(const std::string& path, DateOrder order)
{
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path + ": cannot open the trace");
  return read_trace(in, path, order);
}

Trace for_each_event(const std::string& path, const std::function<void(const Event&)>& f)
{
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path + ": cannot open the trace");
  TraceReader r(in, path);
  Event e;
  while (r.next(e))
    f(e);
  Trace tr;
  tr.level = r.level();
  tr.meta  = r.meta();
  return tr;
}

EventSource events_of(const Trace& tr)
{
  return [&tr](const std::function<void(const Event&)>& f) {
    for (const Event& e : tr.events)
      f(e);
    Trace header;
    header.level = tr.level;
    header.meta  = tr.meta;
    return header;
  };
}

EventSource events_of_file(const std::string& path)
{
  return [path](const std::function<void(const Event&)>& f) { return for_each_event(path, f); };
}

} // namespace shmemsim::traces
