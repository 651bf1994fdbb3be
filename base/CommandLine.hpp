// A declarative command-line table: every option of a tool is declared once (its names, its value
// names or none, one help line, what to do with the value), and the same table parses argv and
// prints --help. Conventions, the same for every tool (README, "Command-line conventions"):
//   --opt VALUE and --opt=VALUE (any name of more than one letter, also -np=4);
//   -j N and -jN (one-letter names that take a value);
//   -- ends the options; a "rest" positional (PROGRAM [ARGS...]) ends them too;
//   -h and --help print the usage built from the table, on stdout, and the tool exits 0;
//   a mistake is one line naming the command and the option, thrown as UsageError.
// Floor 0: this header needs the C++ standard library only.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace shmemsim::base {

/// shmemsim's version (the project's, as CMake declares it), e.g. "0.1.0".
const char* version();

/// A command-line mistake. what() is one line: "COMMAND: MESSAGE (see 'PROGRAM COMMAND --help')"
/// (no "COMMAND: " for a program without subcommands); the program prints it after its own name
/// ("shmemsim: sweep: -j needs a value (see 'shmemsim sweep --help')") and exits with status 2.
class UsageError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class CommandLine;

/// One option or positional argument as given on the command line.
struct Given {
  std::string name;                   ///< as spelled ("-np", "--out"), or the positional's name
  std::vector<std::string> values;    ///< its values: none for a flag, one for most options
  const CommandLine* table = nullptr; ///< the table that parsed it
  /// The first value ("" for a flag).
  const std::string& value() const;
  /// Refuses the value: throws UsageError naming the table's command (CommandLine::fail).
  [[noreturn]] void fail(const std::string& message) const;
};

using Action = std::function<void(const Given&)>;

/// The table of one command. Declarations return *this, so a table reads as one statement.
class CommandLine {
public:
  /// `program`: the executable's name as the user types it ("shmemsim", "shmemsim-run");
  /// `command`: the subcommand ("sweep"), or "" when the program has none.
  CommandLine(std::string program, std::string command);

  /// The arguments after "usage: PROGRAM COMMAND " (e.g. "SCENARIO.json [OPTIONS] [PROGRAM
  /// [ARGS...]]"); several lines give several forms, each printed after the command's name; a line
  /// that starts with a space continues the form before it (printed aligned under it). Without
  /// one: "[OPTIONS]" (when the command has options) and the positionals' names.
  CommandLine& synopsis(std::string text);
  /// One line for a listing of several commands (`shmemsim --help`).
  CommandLine& summary(std::string line);
  /// Text printed as given between the usage lines and the arguments (paragraphs, examples).
  CommandLine& description(std::string text);
  /// Text printed as given after the options (environment, exit status, ...).
  CommandLine& epilogue(std::string text);
  /// Said after "unexpected argument 'X'" when an argument comes that no positional takes (e.g.
  /// "one scenario file per run").
  CommandLine& unexpected(std::string why);
  /// A heading: the options declared after it are listed under it in the help.
  CommandLine& section(std::string heading);

  /// An option without a value. `names`: comma-separated spellings, e.g. "-q, --quiet".
  CommandLine& flag(const std::string& names, std::string help, Action act);
  CommandLine& flag(const std::string& names, std::string help, bool& target);
  /// An option with one value, named `value_name` in the help ("-o, --out DIR").
  CommandLine& option(const std::string& names, std::string value_name, std::string help, Action act);
  CommandLine& option(const std::string& names, std::string value_name, std::string help, std::string& target);
  /// An option with several values, one argument each ("-genv VAR VALUE").
  CommandLine& option(const std::string& names, std::vector<std::string> value_names, std::string help, Action act);

  /// A positional argument, given at most once.
  CommandLine& positional(std::string name, std::string help, Action act);
  CommandLine& positional(std::string name, std::string help, std::string& target);
  /// A positional argument given any number of times ("DIR...").
  CommandLine& positionals(std::string name, std::string help, Action act);
  /// The last positional: it and every argument after it, options or not, go to `act` at once
  /// (Given::values, first the positional, e.g. PROGRAM then its ARGS). `name` is shown as given
  /// ("PROGRAM [ARGS...]").
  CommandLine& rest(std::string name, std::string help, Action act);

  /// Parses the arguments after the command's name. Returns false when -h/--help or --version was
  /// given: the help, or "PROGRAM [COMMAND] (shmemsim) VERSION", is then printed on stdout and
  /// nothing else was done after it. Throws UsageError.
  bool parse(int argc, char* const* argv) const;
  bool parse(const std::vector<std::string>& args) const;

  /// The whole help text of the command, as --help prints it.
  std::string help() const;
  /// Two or more lines for a listing of commands: "  COMMAND SYNOPSIS" then the summary, indented.
  std::string listing() const;
  /// Throws UsageError with `message`, naming this command.
  [[noreturn]] void fail(const std::string& message) const;

private:
  struct Entry {
    std::vector<std::string> names;       ///< options: the spellings; positionals: one name
    std::vector<std::string> value_names; ///< options: one per value (empty: a flag)
    std::string help;
    Action act;
    bool positional = false, repeat = false, rest = false;
    std::size_t section = 0; ///< index into sections_ (0: the default heading)
  };
  CommandLine& add(Entry e);
  const Entry* find_option(const std::string& name) const;
  std::string label() const;
  std::string entry_names(const Entry& e) const;
  std::string synopsis_text() const;

  std::string program_, command_, synopsis_, summary_, description_, epilogue_, unexpected_;
  std::vector<std::string> sections_{"options:"};
  std::vector<Entry> entries_;
};

/// An integer from `lo` to `hi` in `text`, or nullopt-like failure: false when `text` is not one.
bool parse_integer(const std::string& text, long long lo, long long hi, long long& out);

} // namespace shmemsim::base
