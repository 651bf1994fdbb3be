// A parameter struct as text and back, through its key table (Params.hpp): each key becomes one
// word `path=value`, exactly and reversibly -- integers as integers, times in picoseconds, sizes in
// bytes, bandwidths in bit/s, numbers with 17 significant digits (a double round-trips), booleans
// as true/false, enums as their choice's name, strings percent-encoded (no space, comma or
// percent sign left), lists as `count:item,item`. Reading the words back checks each key's range
// or choices and throws std::invalid_argument naming the key. The emulator's launcher hands each
// PE process its configuration so (shmem_front/emulator/Config.hpp).
#pragma once

#include "base/Params.hpp"

#include <string>
#include <vector>

namespace shmemsim {

/// `v`, the value of key `k`, as a word without spaces.
std::string encode_param(const ParamKey& k, const ParamValue& v);
/// The inverse. Throws std::invalid_argument "bad value of 'PATH': ..." when `word` is not a
/// value of `k` (its kind, range or choices).
ParamValue decode_param(const ParamKey& k, const std::string& word);

/// Every key of `table` in `p` (the struct the table describes) as "path=value path=value ...".
std::string encode_params(const std::vector<ParamKey>& table, const void* p);
/// Sets every key of `table` in `p` from `text` (encode_params' words, in any order). Throws
/// std::invalid_argument naming the entry: not key=value, given twice, unknown, missing, or a bad
/// value.
void decode_params(const std::vector<ParamKey>& table, const std::string& text, void* p);

template <class P> std::string encode_params(const ParamTable<P>& table, const P& p)
{
  return encode_params(table, static_cast<const void*>(&p));
}

/// The struct `text` describes (P named: decode_params<P>(P::keys(), text)).
template <class P> P decode_params(const ParamTable<P>& table, const std::string& text)
{
  P p{};
  decode_params(table, text, static_cast<void*>(&p));
  return p;
}

} // namespace shmemsim
