#include "traces/Merge.hpp"

#include "traces/Paje.hpp"
#include "traces/Perfetto.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

namespace shmemsim::traces {

namespace {
/// At one date: everything else, then deliveries, then completions (a message's issue -- with its
/// operation, earlier in the same part -- comes before its delivery, which comes before its ACK).
int stage(Type t)
{
  return t == Type::Dlv ? 1 : t == Type::Done ? 2 : 0;
}

/// Dates a delivery no earlier than its message's issue, a completion no earlier than its
/// delivery (or issue): the parts' clocks may disagree by a little.
void keep_causality(std::vector<Event>& events)
{
  std::unordered_map<std::uint64_t, std::int64_t> issued, delivered;
  for (const Event& e : events)
    if (e.type == Type::Msg)
      issued[e.id] = e.t;
  for (Event& e : events)
    if (e.type == Type::Dlv) {
      if (auto it = issued.find(e.id); it != issued.end())
        e.t = std::max(e.t, it->second);
      delivered[e.id] = e.t;
    }
  for (Event& e : events)
    if (e.type == Type::Done) {
      if (auto it = delivered.find(e.id); it != delivered.end())
        e.t = std::max(e.t, it->second);
      else if (auto m = issued.find(e.id); m != issued.end())
        e.t = std::max(e.t, m->second);
    }
}
} // namespace

Trace merge_traces(const std::vector<std::string>& parts, const std::map<std::string, std::string>& meta,
                   std::vector<std::string>* missing)
{
  Trace out;
  out.level = Level::Ops;
  out.meta  = meta;
  std::vector<Event> head, events;
  for (const std::string& path : parts) {
    if (!std::filesystem::exists(path)) {
      if (missing != nullptr)
        missing->push_back(path);
      continue;
    }
    Trace part = read_trace_file(path, DateOrder::Any); // sorted below
    if (part.level == Level::Packets)
      out.level = Level::Packets;
    for (Event& e : part.events)
      (e.type == Type::Pe || e.type == Type::Link ? head : events).push_back(std::move(e));
  }
  keep_causality(events);
  std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.t != b.t ? a.t < b.t : stage(a.type) < stage(b.type);
  });
  out.events = std::move(head);
  out.events.insert(out.events.end(), std::make_move_iterator(events.begin()), std::make_move_iterator(events.end()));
  return out;
}

void trim_partial_line(const std::string& path)
{
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || size == 0)
    return;
  std::ifstream in(path, std::ios::binary);
  std::string text(size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  const std::size_t keep = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (keep < size)
    fs::resize_file(path, keep, ec);
}

std::vector<std::string> write_trace_files(const Trace& tr, const std::string& dir)
{
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  auto write = [&](const char* name, auto&& writer) {
    const fs::path p = fs::path(dir) / name;
    std::ofstream out(p, std::ios::binary);
    if (out)
      writer(out);
    out.close();
    if (!out)
      throw std::runtime_error("cannot write " + p.string());
    files.push_back(p.string());
  };
  write(kCompactName, [&](std::ostream& out) {
    write_header(out, tr.level, tr.meta);
    for (const Event& e : tr.events)
      write_event(out, e);
  });
  write("trace.json", [&](std::ostream& out) { write_perfetto(tr, out); });
  write("trace.paje", [&](std::ostream& out) { write_paje(tr, out); });
  return files;
}

} // namespace shmemsim::traces
