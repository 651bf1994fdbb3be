#include "base/CommandLine.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace shmemsim::base {

namespace {

constexpr std::size_t kWidth  = 100; ///< help lines are wrapped to this many columns
constexpr std::size_t kColumn = 26;  ///< where an option's help starts

std::string trim(const std::string& s)
{
  const std::size_t a = s.find_first_not_of(' ');
  if (a == std::string::npos)
    return "";
  return s.substr(a, s.find_last_not_of(' ') - a + 1);
}

std::vector<std::string> split_names(const std::string& names)
{
  std::vector<std::string> out;
  std::stringstream in(names);
  for (std::string n; std::getline(in, n, ',');)
    if (!trim(n).empty())
      out.push_back(trim(n));
  return out;
}

/// `text` wrapped at word boundaries to lines of at most `width` columns after `indent` spaces
/// (the first line's indent is the caller's); explicit newlines are kept.
std::string wrap(const std::string& text, std::size_t first_col, std::size_t indent)
{
  std::string out;
  std::size_t col = first_col;
  std::stringstream lines(text);
  bool first_line = true;
  for (std::string line; std::getline(lines, line);) {
    if (!first_line) {
      out += "\n" + std::string(indent, ' ');
      col = indent;
    }
    first_line = false;
    std::stringstream words(line);
    bool first_word = true;
    for (std::string w; words >> w;) {
      if (!first_word && col + 1 + w.size() > kWidth) {
        out += "\n" + std::string(indent, ' ');
        col = indent;
      } else if (!first_word) {
        out += ' ';
        ++col;
      }
      out += w;
      col += w.size();
      first_word = false;
    }
  }
  return out;
}

bool is_one_letter(const std::string& name)
{
  return name.size() == 2 && name[0] == '-' && name[1] != '-';
}

} // namespace

const std::string& Given::value() const
{
  static const std::string none;
  return values.empty() ? none : values.front();
}

void Given::fail(const std::string& message) const
{
  if (table == nullptr)
    throw UsageError(message);
  table->fail(message);
}

bool parse_integer(const std::string& text, long long lo, long long hi, long long& out)
{
  if (text.empty() || text.size() > 19)
    return false;
  char* end         = nullptr;
  errno             = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (*end != '\0' || errno != 0 || v < lo || v > hi || text[0] == ' ' || text[0] == '+')
    return false;
  out = v;
  return true;
}

CommandLine::CommandLine(std::string program, std::string command)
    : program_(std::move(program)), command_(std::move(command))
{
}

CommandLine& CommandLine::synopsis(std::string text)
{
  synopsis_ = std::move(text);
  return *this;
}
CommandLine& CommandLine::summary(std::string line)
{
  summary_ = std::move(line);
  return *this;
}
CommandLine& CommandLine::description(std::string text)
{
  description_ = std::move(text);
  return *this;
}
CommandLine& CommandLine::epilogue(std::string text)
{
  epilogue_ = std::move(text);
  return *this;
}
CommandLine& CommandLine::unexpected(std::string why)
{
  unexpected_ = std::move(why);
  return *this;
}
CommandLine& CommandLine::section(std::string heading)
{
  sections_.push_back(std::move(heading));
  return *this;
}

CommandLine& CommandLine::add(Entry e)
{
  e.section = sections_.size() - 1;
  if (e.positional) {
    if (!entries_.empty() && std::any_of(entries_.begin(), entries_.end(),
                                         [](const Entry& x) { return x.positional && (x.rest || x.repeat); }))
      throw std::logic_error(label() + "positional " + e.names[0] + " after a repeated or rest positional");
  } else {
    if (e.names.empty())
      throw std::logic_error(label() + "an option without a name");
    for (const std::string& n : e.names) {
      if (n.size() < 2 || n[0] != '-' || n == "--" || n.find('=') != std::string::npos || n == "-h" || n == "--help" || n == "--version")
        throw std::logic_error(label() + "bad option name '" + n + "'");
      if (find_option(n) != nullptr)
        throw std::logic_error(label() + "option '" + n + "' declared twice");
    }
  }
  entries_.push_back(std::move(e));
  return *this;
}

CommandLine& CommandLine::flag(const std::string& names, std::string help, Action act)
{
  return add(Entry{split_names(names), {}, std::move(help), std::move(act)});
}

CommandLine& CommandLine::flag(const std::string& names, std::string help, bool& target)
{
  return flag(names, std::move(help), [&target](const Given&) { target = true; });
}

CommandLine& CommandLine::option(const std::string& names, std::string value_name, std::string help, Action act)
{
  return add(Entry{split_names(names), {std::move(value_name)}, std::move(help), std::move(act)});
}

CommandLine& CommandLine::option(const std::string& names, std::string value_name, std::string help,
                                 std::string& target)
{
  return option(names, std::move(value_name), std::move(help), [&target](const Given& g) { target = g.value(); });
}

CommandLine& CommandLine::option(const std::string& names, std::vector<std::string> value_names, std::string help,
                                 Action act)
{
  return add(Entry{split_names(names), std::move(value_names), std::move(help), std::move(act)});
}

CommandLine& CommandLine::positional(std::string name, std::string help, Action act)
{
  Entry e{{std::move(name)}, {}, std::move(help), std::move(act)};
  e.positional = true;
  return add(std::move(e));
}

CommandLine& CommandLine::positional(std::string name, std::string help, std::string& target)
{
  return positional(std::move(name), std::move(help), [&target](const Given& g) { target = g.value(); });
}

CommandLine& CommandLine::positionals(std::string name, std::string help, Action act)
{
  Entry e{{std::move(name)}, {}, std::move(help), std::move(act)};
  e.positional = e.repeat = true;
  return add(std::move(e));
}

CommandLine& CommandLine::rest(std::string name, std::string help, Action act)
{
  Entry e{{std::move(name)}, {}, std::move(help), std::move(act)};
  e.positional = e.rest = true;
  return add(std::move(e));
}

const CommandLine::Entry* CommandLine::find_option(const std::string& name) const
{
  for (const Entry& e : entries_)
    if (!e.positional)
      for (const std::string& n : e.names)
        if (n == name)
          return &e;
  return nullptr;
}

std::string CommandLine::label() const
{
  return command_.empty() ? "" : command_ + ": ";
}

void CommandLine::fail(const std::string& message) const
{
  throw UsageError(label() + message + " (see '" + program_ + (command_.empty() ? "" : " " + command_) + " --help')");
}

#ifndef SHMEMSIM_VERSION
#define SHMEMSIM_VERSION "unknown"
#endif
const char* version()
{
  return SHMEMSIM_VERSION;
}

bool CommandLine::parse(int argc, char* const* argv) const
{
  return parse(std::vector<std::string>(argv, argv + argc));
}

bool CommandLine::parse(const std::vector<std::string>& args) const
{
  std::size_t next_positional = 0; // index among the positional entries
  std::vector<const Entry*> positionals;
  for (const Entry& e : entries_)
    if (e.positional)
      positionals.push_back(&e);
  bool options_ended = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg       = args[i];
    const bool looks_like_option = !options_ended && arg.size() > 1 && arg[0] == '-';
    if (looks_like_option && arg == "--") {
      options_ended = true;
      continue;
    }
    if (looks_like_option && (arg == "-h" || arg == "--help")) {
      std::fputs(help().c_str(), stdout);
      return false;
    }
    if (looks_like_option && arg == "--version") {
      std::printf("%s%s (shmemsim) %s\n", program_.c_str(), command_.empty() ? "" : (" " + command_).c_str(), version());
      return false;
    }
    if (looks_like_option) {
      // The spelling: an exact name first (-np is not -n with p), then NAME=VALUE, then -jVALUE.
      std::string name = arg;
      std::vector<std::string> values;
      bool attached  = false;
      const Entry* e = find_option(arg);
      if (e == nullptr) {
        const std::size_t eq = arg.find('=');
        if (eq != std::string::npos && eq > 2 && (e = find_option(arg.substr(0, eq))) != nullptr) {
          name     = arg.substr(0, eq);
          attached = true;
          values.push_back(arg.substr(eq + 1));
          if (e->value_names.empty())
            fail(name + " takes no value");
        } else if ((e = find_option(arg.substr(0, 2))) != nullptr && is_one_letter(arg.substr(0, 2)) &&
                   !e->value_names.empty()) {
          name     = arg.substr(0, 2);
          attached = true;
          values.push_back(arg.substr(2));
        } else {
          fail("unknown option '" + arg + "'");
        }
      }
      for (std::size_t v = attached ? 1 : 0; v < e->value_names.size(); ++v) {
        if (i + 1 >= args.size())
          fail(name + (e->value_names.size() > 1 ? " needs " + std::to_string(e->value_names.size()) + " values"
                                                 : " needs a value"));
        values.push_back(args[++i]);
      }
      e->act(Given{name, std::move(values), this});
      continue;
    }
    // A positional argument.
    if (next_positional >= positionals.size()) {
      fail("unexpected argument '" + arg + "'" + (unexpected_.empty() ? "" : " (" + unexpected_ + ")"));
    }
    const Entry& p = *positionals[next_positional];
    if (p.rest) {
      Given g{p.names[0], std::vector<std::string>(args.begin() + static_cast<std::ptrdiff_t>(i), args.end()), this};
      p.act(g);
      return true;
    }
    p.act(Given{p.names[0], {arg}, this});
    if (!p.repeat)
      ++next_positional;
  }
  return true;
}

std::string CommandLine::entry_names(const Entry& e) const
{
  std::string s;
  for (const std::string& n : e.names)
    s += (s.empty() ? "" : ", ") + n;
  for (const std::string& v : e.value_names)
    s += " " + v;
  return s;
}

std::string CommandLine::synopsis_text() const
{
  if (!synopsis_.empty())
    return synopsis_;
  std::string out; // [OPTIONS] and the positionals' names
  if (std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) { return !e.positional; }))
    out = "[OPTIONS]";
  for (const Entry& e : entries_)
    if (e.positional)
      out += (out.empty() ? "" : " ") + e.names[0];
  return out;
}

std::string CommandLine::help() const
{
  const std::string who = program_ + (command_.empty() ? "" : " " + command_);
  std::string out;
  std::stringstream forms(synopsis_text());
  bool first = true;
  for (std::string line; std::getline(forms, line);) {
    if (!line.empty() && line[0] == ' ') // the form goes on
      out += std::string(8 + who.size(), ' ') + trim(line) + "\n";
    else
      out += (first ? "usage: " : "   or: ") + who + (line.empty() ? "" : " " + line) + "\n";
    first = false;
  }
  if (first)
    out += "usage: " + who + "\n";
  if (!description_.empty())
    out += "\n" + description_ + (description_.back() == '\n' ? "" : "\n");
  auto item = [&](const std::string& names, const std::string& help) {
    std::string line = "  " + names;
    if (help.empty())
      return line + "\n";
    if (line.size() + 2 > kColumn)
      line += "\n" + std::string(kColumn, ' ');
    else
      line += std::string(kColumn - line.size(), ' ');
    return line + wrap(help, kColumn, kColumn) + "\n";
  };
  bool any_positional = false;
  for (const Entry& e : entries_)
    if (e.positional && !e.help.empty()) {
      if (!any_positional)
        out += "\narguments:\n";
      any_positional = true;
      out += item(e.names[0], e.help);
    }
  for (std::size_t s = 0; s < sections_.size(); ++s) {
    std::string part;
    for (const Entry& e : entries_)
      if (!e.positional && e.section == s)
        part += item(entry_names(e), e.help);
    if (s == 0)
      part += item("-h, --help", "print this help and exit") + item("--version", "print the version and exit");
    if (!part.empty())
      out += "\n" + sections_[s] + "\n" + part;
  }
  if (!epilogue_.empty())
    out += "\n" + epilogue_ + (epilogue_.back() == '\n' ? "" : "\n");
  return out;
}

std::string CommandLine::listing() const
{
  std::string out;
  std::stringstream forms(synopsis_text());
  for (std::string line; std::getline(forms, line);)
    if (!line.empty() && line[0] == ' ') // the form goes on
      out += std::string(3 + command_.size(), ' ') + trim(line) + "\n";
    else
      out += "  " + command_ + (line.empty() ? "" : " " + line) + "\n";
  if (out.empty())
    out = "  " + command_ + "\n";
  if (!summary_.empty())
    out += "        " + wrap(summary_, 8, 8) + "\n";
  return out;
}

} // namespace shmemsim::base
