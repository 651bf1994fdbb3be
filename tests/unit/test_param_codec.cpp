// The text form of parameter structs (base/ParamCodec.hpp): every kind of key round-trips exactly,
// a bad word is refused naming its key, and keys nested into a larger struct (base/Params.hpp's
// nested) read and write the inner struct's fields.
#include "base/ParamCodec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace shmemsim;

namespace {

enum class Colour { Red, Green, Blue };

struct Every {
  int i              = -3;
  std::uint64_t u    = 7;
  bool b             = false;
  std::string s      = "plain";
  Colour e           = Colour::Green;
  Ps t               = 1'300'000;
  std::uint64_t bw   = 32'000'000'000;
  std::uint64_t size = 4096;
  double speed       = 13.32e9;
  double x           = 0.5;
  std::vector<int> ints;
  std::vector<std::string> strings;

  static const ParamTable<Every>& keys()
  {
    using K                              = ParamKind;
    static const ParamTable<Every> table = {
        {.path = "i", .kind = K::Int, .doc = "int", .field = field(&Every::i), .min = -10, .max = 1'000'000},
        {.path = "u", .kind = K::UInt, .doc = "uint", .field = field(&Every::u)},
        {.path = "b", .kind = K::Bool, .doc = "bool", .field = field(&Every::b)},
        {.path = "s", .kind = K::Str, .doc = "string", .field = field(&Every::s)},
        {.path = "e", .kind = K::Enum, .doc = "enum", .field = field(&Every::e), .choices = {"red", "green", "blue"}},
        {.path = "t", .kind = K::Time, .doc = "time", .field = field(&Every::t)},
        {.path = "bw", .kind = K::Bandwidth, .doc = "bandwidth", .field = field(&Every::bw), .umin = 1},
        {.path = "size", .kind = K::Size, .doc = "size", .field = field(&Every::size)},
        {.path = "speed", .kind = K::Speed, .doc = "speed", .field = field(&Every::speed)},
        {.path = "x", .kind = K::Number, .doc = "number", .field = field(&Every::x), .min = -1, .max = 1},
        {.path = "ints", .kind = K::IntList, .doc = "ints", .field = field(&Every::ints), .min = -5, .max = 100},
        {.path = "strings", .kind = K::StrList, .doc = "strings", .field = field(&Every::strings)},
    };
    return table;
  }
};

bool same(const Every& a, const Every& b)
{
  return a.i == b.i && a.u == b.u && a.b == b.b && a.s == b.s && a.e == b.e && a.t == b.t && a.bw == b.bw &&
         a.size == b.size && a.speed == b.speed && a.x == b.x && a.ints == b.ints && a.strings == b.strings;
}

Every round_trip(const Every& e)
{
  return decode_params<Every>(Every::keys(), encode_params(Every::keys(), e));
}

std::string decode_error(const std::string& text)
{
  try {
    decode_params<Every>(Every::keys(), text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

/// The words of a default Every with entry `key`'s value replaced by `value`.
std::string with_entry(const std::string& key, const std::string& value)
{
  std::string text      = encode_params(Every::keys(), Every{});
  const std::size_t at  = text.find(key + "=");
  const std::size_t end = text.find(' ', at);
  return text.replace(at, end == std::string::npos ? std::string::npos : end - at, key + "=" + value);
}

} // namespace

TEST(param_codec, EveryKindRoundTripsExactly)
{
  Every e;
  e.i           = 1'000'000;
  e.u           = std::numeric_limits<std::uint64_t>::max();
  e.b           = true;
  e.s           = "a b=c,d%e\xC2\xB5\t\n";
  e.e           = Colour::Blue;
  e.t           = kMaxParamTime;
  e.bw          = 1;
  e.size        = 0;
  e.speed       = 1.0 / 3.0 * 1e9;
  e.x           = 0.1;
  e.ints        = {-5, 0, 100};
  e.strings     = {"", "two words", "x,y", "%"};
  const Every d = round_trip(e);
  EXPECT_TRUE(same(d, e));
  EXPECT_EQ(d.s, e.s);
  EXPECT_EQ(d.speed, e.speed); // every bit of the double
  EXPECT_EQ(d.strings, e.strings);
  EXPECT_TRUE(same(round_trip(Every{}), Every{}));

  // One word per key, no space inside any; the forms a reader of the text sees.
  const std::string text = encode_params(Every::keys(), e);
  EXPECT_EQ(text, "i=1000000 u=18446744073709551615 b=true s=a%20b%3Dc%2Cd%25e%C2%B5%09%0A e=blue "
                  "t=1000000000000000000 bw=1 size=0 speed=333333333.33333331 x=0.10000000000000001 "
                  "ints=3:-5,0,100 strings=4:,two%20words,x%2Cy,%25");
}

TEST(param_codec, EmptyAndSingleEmptyListsDiffer)
{
  Every none, one;
  one.strings = {""};
  EXPECT_TRUE(round_trip(none).strings.empty());
  EXPECT_EQ(round_trip(one).strings, std::vector<std::string>{""});
  one.s = "";
  EXPECT_EQ(round_trip(one).s, "");
}

TEST(param_codec, BadValueNamesTheKey)
{
  EXPECT_EQ(decode_error(with_entry("i", "-11")), "bad value of 'i': '-11': integer out of range [-10, 1000000]");
  EXPECT_EQ(decode_error(with_entry("i", "12x")), "bad value of 'i': '12x': expected an integer");
  EXPECT_EQ(decode_error(with_entry("u", "-1")), "bad value of 'u': '-1': expected a non-negative integer");
  EXPECT_EQ(decode_error(with_entry("b", "1")), "bad value of 'b': '1': expected true or false");
  EXPECT_EQ(decode_error(with_entry("s", "a%2")), "bad value of 's': 'a%2': '%' not followed by two hex digits");
  EXPECT_EQ(decode_error(with_entry("e", "Blue")), "bad value of 'e': 'Blue': expected one of red, green, blue");
  EXPECT_EQ(decode_error(with_entry("t", "-1")),
            "bad value of 't': '-1': time (ps) out of range [0, " + std::to_string(kMaxParamTime) + "]");
  EXPECT_EQ(decode_error(with_entry("bw", "0")),
            "bad value of 'bw': '0': integer out of range [1, 18446744073709551615]");
  EXPECT_EQ(decode_error(with_entry("speed", "0.5")),
            "bad value of 'speed': '0.5': expected a speed of at least 1 flop/s");
  EXPECT_EQ(decode_error(with_entry("x", "nan")), "bad value of 'x': 'nan': expected a finite number");
  EXPECT_EQ(decode_error(with_entry("x", "1.5")), "bad value of 'x': '1.5': number out of range [-1, 1]");
  EXPECT_EQ(decode_error(with_entry("ints", "2:1")), "bad value of 'ints': '2:1': count 2 but 1 items");
  EXPECT_EQ(decode_error(with_entry("ints", "1:101")), "bad value of 'ints': '1:101': element out of range [-5, 100]");
  EXPECT_EQ(decode_error(with_entry("strings", "a,b")), "bad value of 'strings': 'a,b': expected count:item,item,...");
}

TEST(param_codec, BadTextNamesTheEntry)
{
  const std::string text = encode_params(Every::keys(), Every{});
  EXPECT_EQ(decode_error(text.substr(0, text.find(" x="))), "missing entry 'x'");
  EXPECT_EQ(decode_error(text + " y=1"), "unknown entry 'y'");
  EXPECT_EQ(decode_error(text + " i=1"), "entry 'i' given twice");
  EXPECT_EQ(decode_error(text + " stray"), "entry 'stray' is not key=value");
}

namespace {
struct Outer {
  int own = 1;
  Every inner;
  Outer() { inner.i = 42; } // an Outer's default differs from an Every's
};
} // namespace

TEST(param_codec, NestedKeysReachTheInnerStruct)
{
  const std::vector<ParamKey> keys = nested(&Outer::inner, Every::keys());
  ASSERT_EQ(keys.size(), Every::keys().size());
  const ParamKey& i = key_at(keys, "i");
  EXPECT_EQ(i.default_value().i, 42); // the member of a default-constructed Outer
  Outer o;
  ParamValue v;
  v.i = -7;
  i.set(o, v);
  EXPECT_EQ(o.inner.i, -7);
  EXPECT_EQ(i.get(o).i, -7);
  Outer back;
  decode_params(keys, encode_params(keys, static_cast<const void*>(&o)), static_cast<void*>(&back));
  EXPECT_TRUE(same(back.inner, o.inner));
}
