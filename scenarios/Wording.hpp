// The words of the scenario loader's one-line messages: input echoed and clipped, lists joined,
// and the "did you mean" suggestion for an unknown key (edit distance). Internal to scenarios/.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace shmemsim::scenarios::detail {

/// `s` cut to at most 80 characters ("..." at the end when cut), for echoing input in messages.
std::string clip(const std::string& s);
/// A file name in messages: whole unless absurdly long, then its last 200 characters.
std::string clip_path(const std::string& s);
/// A JSON value as it appears in messages: compact, at most 80 characters, invalid UTF-8 replaced.
std::string show(const nlohmann::json& v);
std::string join(const std::vector<std::string>& v, const char* sep = ", ");
/// "a, b or c"
std::string join_or(const std::vector<std::string>& v);
/// "a noun" or "an noun".
std::string article(const std::string& noun);
/// Optimal string alignment distance (Levenshtein plus transpositions).
std::size_t edit_distance(const std::string& a, const std::string& b);
/// "unknown key; valid keys here: ..." with the nearest valid key when it is close enough to be a typo.
std::string unknown_key_problem(const std::string& key, const std::vector<std::string>& valid);

} // namespace shmemsim::scenarios::detail
