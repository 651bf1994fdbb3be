#include "scenarios/JsonText.hpp"

#include "scenarios/Scenario.hpp" // ScenarioError
#include "scenarios/Wording.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

namespace shmemsim::scenarios::detail {

using json = nlohmann::json;

namespace {

/// Deepest nesting of objects and arrays a scenario may use (its keys go 4 levels deep). Bounded so
/// that nothing recursive (dumping, merging, checking) can exhaust the stack.
constexpr std::size_t kMaxDepth = 100;

/// A first pass over the text with nlohmann's SAX interface (iterative, builds nothing): finds
/// what the DOM parser would accept silently or could not survive, naming where it is: nesting
/// deeper than kMaxDepth, a key given twice in one object, and malformed JSON.
class Screen {
public:
  Screen() = default;

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t&) { return value(); }
  bool string(json::string_t&) { return value(); }
  bool binary(json::binary_t&) { return value(); }
  bool start_object(std::size_t) { return open(true); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(false); }
  bool end_array() { return close(); }
  bool key(json::string_t& k)
  {
    Frame& f = frames_.back();
    if (!f.keys.insert(k).second) {
      problem_ = "the key \"" + clip(k) + "\" appears twice in " + (f.path.empty() ? "the top-level object" : f.path) +
                 "; give each key once";
      return false;
    }
    f.key = k;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e)
  {
    malformed_       = true;
    position_        = position;
    std::string what = e.what();
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..." -> the reason.
    std::size_t colon  = what.find("]");
    std::string reason = colon == std::string::npos ? what : what.substr(colon + 2);
    if (std::size_t at = reason.find("parse error"); at != std::string::npos)
      if (std::size_t c = reason.find(": ", at); c != std::string::npos)
        reason = reason.substr(c + 2);
    for (char& c : reason)
      if (c == '\n' || c == '\r' || c == '\t')
        c = ' ';
    problem_ = "malformed JSON: " + clip(reason);
    return false;
  }

  const std::string& problem() const { return problem_; }
  /// Not JSON at all (else: JSON the scenario refuses, e.g. nested too deep).
  bool malformed() const { return malformed_; }
  /// Malformed JSON: the parser's position (bytes read).
  std::size_t position() const { return position_; }

private:
  struct Frame {
    bool object;
    std::string path;
    std::string key;       ///< objects: the key of the value being read
    std::size_t index = 0; ///< arrays: the index of the value being read
    std::set<std::string> keys;
  };

  /// Path of the value about to be read.
  std::string here() const
  {
    if (frames_.empty())
      return "";
    const Frame& f = frames_.back();
    if (f.object)
      return f.path.empty() ? clip(f.key) : f.path + "." + clip(f.key);
    return f.path + "[" + std::to_string(f.index) + "]";
  }
  bool value()
  {
    if (!frames_.empty() && !frames_.back().object)
      ++frames_.back().index;
    return true;
  }
  bool open(bool object)
  {
    if (frames_.size() >= kMaxDepth) {
      problem_ = "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels (at " + here() +
                 "); scenarios need at most 4";
      return false;
    }
    frames_.push_back(Frame{object, here(), {}, 0, {}});
    return true;
  }
  bool close()
  {
    frames_.pop_back();
    return value();
  }

  std::vector<Frame> frames_;
  std::string problem_;
  bool malformed_       = false;
  std::size_t position_ = 0;
};

/// Path segments of "platform.fabric.down[1]" / "traffic[0].size".
struct Seg {
  std::string name; ///< empty for an array index
  std::size_t index = 0;
};

std::vector<Seg> split_path(const std::string& path)
{
  std::vector<Seg> r;
  std::string cur;
  for (std::size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == '.' || c == '[') {
      if (!cur.empty())
        r.push_back({cur, 0});
      cur.clear();
      if (c == '[') {
        std::size_t close = path.find(']', i);
        r.push_back({"", static_cast<std::size_t>(std::stoull(path.substr(i + 1, close - i - 1)))});
        i = close;
      }
    } else {
      cur += c;
    }
  }
  if (!cur.empty())
    r.push_back({cur, 0});
  return r;
}
} // namespace

/// line:column of byte `offset` of `text` (both from 1).
std::string line_col(const std::string& text, std::size_t offset)
{
  std::size_t line = 1, col = 1;
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

const json* find_at(const json& root, const std::string& path)
{
  const json* cur = &root;
  for (const auto& s : split_path(path)) {
    if (!s.name.empty()) {
      if (!cur->is_object())
        return nullptr;
      auto it = cur->find(s.name);
      if (it == cur->end())
        return nullptr;
      cur = &*it;
    } else {
      if (!cur->is_array() || s.index >= cur->size())
        return nullptr;
      cur = &(*cur)[s.index];
    }
  }
  return cur;
}

void set_at(json& root, const std::string& dotted, json v)
{
  json* cur         = &root;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = dotted.find('.', start);
    std::string seg = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos) {
      (*cur)[seg] = std::move(v);
      return;
    }
    cur   = &(*cur)[seg];
    start = dot + 1;
  }
}

/// a and b name the same value, or one lies inside the other.
bool related(const std::string& a, const std::string& b)
{
  auto inside = [](const std::string& inner, const std::string& outer) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           (inner[outer.size()] == '.' || inner[outer.size()] == '[');
  };
  return a == b || inside(a, b) || inside(b, a);
}

json deep_merge(const json& base, const json& over)
{
  if (!base.is_object() || !over.is_object())
    return over;
  json r = base;
  for (auto it = over.begin(); it != over.end(); ++it)
    r[it.key()] = r.contains(it.key()) ? deep_merge(r[it.key()], it.value()) : it.value();
  return r;
}

bool read_file(const std::string& path, std::string& out, std::string& err)
{
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    err = std::strerror(errno);
    return false;
  }
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    out.append(buf, n);
  bool bad = std::ferror(f);
  int e    = errno;
  std::fclose(f);
  if (bad) {
    err = std::strerror(e);
    return false;
  }
  return true;
}

/// Parses JSON text from `source` (a file, a preset or a --set value): one ScenarioError line
/// naming the source, where, and what is wrong.
json parse_json(const std::string& text, const std::string& source)
{
  if (std::size_t nul = text.find('\0'); nul != std::string::npos)
    throw ScenarioError(source + ":" + line_col(text, nul) + ": a NUL byte at byte offset " + std::to_string(nul) +
                        "; a scenario is JSON text");
  Screen screen;
  if (!json::sax_parse(text, &screen)) {
    const std::string where =
        screen.malformed() ? ":" + line_col(text, screen.position() > 0 ? screen.position() - 1 : 0) : "";
    throw ScenarioError(source + where + ": " + screen.problem());
  }
  try {
    return json::parse(text);
  } catch (const json::exception& e) { // the screen accepted it: should not happen
    throw ScenarioError(source + ": malformed JSON: " + clip(e.what()));
  }
}

bool parse_set_value(const std::string& text, json* out, std::string* problem)
{
  Screen screen;
  if (json::sax_parse(text, &screen))
    *out = json::parse(text);
  else if (screen.malformed())
    *out = text; // not JSON: a string
  else {
    *problem = screen.problem();
    return false;
  }
  return true;
}

/// Offset of the first byte of `s` that is not valid UTF-8, or npos.
std::size_t invalid_utf8(const std::string& s)
{
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c     = static_cast<unsigned char>(s[i]);
    std::size_t n    = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if (c >= 0xC2 && c <= 0xDF) {
      n  = 1;
      cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n  = 2;
      cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n  = 3;
      cp = c & 0x07u;
    } else {
      return i;
    }
    if (i + n >= s.size())
      return i;
    for (std::size_t j = 1; j <= n; ++j) {
      const auto cc = static_cast<unsigned char>(s[i + j]);
      if ((cc & 0xC0u) != 0x80u)
        return i;
      cp = (cp << 6) | (cc & 0x3Fu);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += n + 1;
  }
  return std::string::npos;
}

} // namespace shmemsim::scenarios::detail
