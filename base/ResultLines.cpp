#include "base/ResultLines.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace shmemsim {

namespace {

bool valid_name(const std::string& n)
{
  if (n.empty() || std::isdigit(static_cast<unsigned char>(n[0])))
    return false;
  return std::all_of(n.begin(), n.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':' || c == '-';
  });
}

} // namespace

ResultFigure result_figure(const std::string& name, const std::string& v)
{
  ResultFigure f;
  f.name = name;
  f.text = v;
  if (!v.empty() && v.find_first_not_of("+-0123456789") == std::string::npos &&
      v.find_first_of("0123456789") != std::string::npos) {
    errno             = 0;
    char* end         = nullptr;
    const long long i = std::strtoll(v.c_str(), &end, 10);
    if (*end == '\0' && errno == 0) {
      f.kind    = ResultFigure::Kind::Integer;
      f.integer = i;
      f.number  = static_cast<double>(i);
      return f;
    }
  }
  char* end      = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (!v.empty() && *end == '\0' && std::isfinite(d) && !std::isspace(static_cast<unsigned char>(v[0]))) {
    f.kind   = ResultFigure::Kind::Number;
    f.number = d;
  }
  return f;
}

std::vector<ResultFigure> parse_result_lines(std::istream& in)
{
  std::vector<ResultFigure> figures;
  std::string line;
  while (std::getline(in, line)) {
    std::size_t at = 0;
    if (line.rfind("[PE ", 0) == 0) { // --tag-output
      const std::size_t close = line.find("] ");
      if (close == std::string::npos)
        continue;
      at = close + 2;
    }
    if (line.compare(at, 7, "RESULT ") != 0)
      continue;
    std::istringstream fields(line.substr(at + 7));
    std::string field;
    while (fields >> field) {
      const std::size_t eq = field.find('=');
      if (eq == std::string::npos || !valid_name(field.substr(0, eq)))
        continue;
      ResultFigure f = result_figure(field.substr(0, eq), field.substr(eq + 1));
      auto same = std::find_if(figures.begin(), figures.end(), [&](const ResultFigure& x) { return x.name == f.name; });
      if (same != figures.end())
        *same = std::move(f);
      else
        figures.push_back(std::move(f));
    }
  }
  return figures;
}

} // namespace shmemsim
