// The scenario loader's JSON text: files read whole, a screening pass that names where the text is
// malformed (line:column), nested too deep or gives a key twice, UTF-8 checks of --set arguments,
// and dotted paths into documents ("platform.fabric.down[1]"). Internal to scenarios/.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace shmemsim::scenarios::detail {

/// Reads the file at `path` into `out`; false with the system's reason in `err`.
bool read_file(const std::string& path, std::string& out, std::string& err);
/// line:column of byte `offset` of `text` (both from 1).
std::string line_col(const std::string& text, std::size_t offset);
/// Parses JSON text from `source` (a file, a preset or a --set value): one ScenarioError line
/// naming the source, where, and what is wrong.
nlohmann::json parse_json(const std::string& text, const std::string& source);
/// The value of a --set argument: its JSON when the text is JSON, else the text itself as a
/// string; false (with `*problem`) when it is JSON a scenario refuses (nested too deep, a key twice).
bool parse_set_value(const std::string& text, nlohmann::json* out, std::string* problem);
/// Offset of the first byte of `s` that is not valid UTF-8, or npos.
std::size_t invalid_utf8(const std::string& s);

/// The value at a dotted path ("platform.fabric.down[1]", "traffic[0].size"), or null.
const nlohmann::json* find_at(const nlohmann::json& root, const std::string& path);
/// Sets the value at a dotted path of objects, making the objects on the way.
void set_at(nlohmann::json& root, const std::string& dotted, nlohmann::json v);
/// a and b name the same value, or one lies inside the other.
bool related(const std::string& a, const std::string& b);
/// `over` merged into `base`, objects key by key.
nlohmann::json deep_merge(const nlohmann::json& base, const nlohmann::json& over);

} // namespace shmemsim::scenarios::detail
