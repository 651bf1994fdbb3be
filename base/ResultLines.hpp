// A program's result figures: the `RESULT name=value ...` lines it prints on stdout (with or
// without --tag-output's "[PE n] " prefix). shmemsim-run keeps them in a run directory
// (reported.json) and `shmemsim sweep` collects them per run; both read them here.
#pragma once

#include <istream>
#include <string>
#include <vector>

namespace shmemsim {

struct ResultFigure {
  enum class Kind { Integer, Number, Text };
  std::string name;
  std::string text; ///< the value as printed
  Kind kind         = Kind::Text;
  long long integer = 0; ///< Kind::Integer
  double number     = 0; ///< Kind::Number (and Integer, as a double)
};

/// The figures of every RESULT line in `in`, in the order of their first appearance; a name given
/// again takes its last value. Fields that are not NAME=VALUE with NAME of letters, digits, '_',
/// '.', ':' or '-' (not starting with a digit) are skipped.
std::vector<ResultFigure> parse_result_lines(std::istream& in);

/// One value as a figure: an integer, a finite number, or text.
ResultFigure result_figure(const std::string& name, const std::string& text);

} // namespace shmemsim
