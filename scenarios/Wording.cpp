#include "scenarios/Wording.hpp"

#include <algorithm>
#include <cstring>

namespace shmemsim::scenarios::detail {

using json = nlohmann::json;

/// `s` cut to at most 80 characters ("..." at the end when cut), for echoing input in messages.
/// Control characters (a JSON key may hold any once unescaped: "\n") are shown escaped, so that
/// the message stays one line.
std::string clip(const std::string& s)
{
  static constexpr char kHex[] = "0123456789abcdef";
  std::string r;
  r.reserve(s.size());
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n')
      r += "\\n";
    else if (c < 0x20 || c == 0x7f)
      r += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
    else
      r += ch;
  }
  return r.size() > 80 ? r.substr(0, 77) + "..." : r;
}

/// A file name in messages: whole unless absurdly long, then its last 200 characters.
std::string clip_path(const std::string& s)
{
  return s.size() > 200 ? "..." + s.substr(s.size() - 197) : s;
}

/// A JSON value as it appears in messages: compact, at most 80 characters, invalid UTF-8 replaced.
std::string show(const json& v)
{
  return clip(v.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string join(const std::vector<std::string>& v, const char* sep)
{
  std::string r;
  for (std::size_t i = 0; i < v.size(); ++i)
    r += (i ? sep : "") + v[i];
  return r;
}

/// "a, b or c"
std::string join_or(const std::vector<std::string>& v)
{
  std::string r;
  for (std::size_t i = 0; i < v.size(); ++i)
    r += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + v[i];
  return r;
}

std::string article(const std::string& noun)
{
  return (!noun.empty() && std::strchr("aeiou", noun[0])) ? "an " + noun : "a " + noun;
}

/// Optimal string alignment distance (Levenshtein plus transpositions).
std::size_t edit_distance(const std::string& a, const std::string& b)
{
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j]          = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string unknown_key_problem(const std::string& key, const std::vector<std::string>& valid)
{
  std::string msg = "unknown key; valid keys here: " + join(valid);
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& v : valid) {
    if (key.size() > 2 * v.size() + 8) // far too long to be a typo (and to compare cheaply)
      continue;
    std::size_t d = edit_distance(key, v);
    if (d < best_d) {
      best_d = d;
      best   = v;
    }
  }
  if (!best.empty() && best_d <= std::max<std::size_t>(1, std::max(key.size(), best.size()) / 3))
    msg += " (did you mean '" + best + "'?)";
  return msg;
}

} // namespace shmemsim::scenarios::detail
