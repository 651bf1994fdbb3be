#include "sim/portals_model/Atomics.hpp"

#include <complex>
#include <cstring>
#include <type_traits>

namespace shmemsim::portals {

const char* to_string(Status s)
{
  switch (s) {
    case Status::Ok:
      return "PTL_OK";
    case Status::ArgInvalid:
      return "PTL_ARG_INVALID";
    case Status::NoSpace:
      return "PTL_NO_SPACE";
    case Status::InUse:
      return "PTL_IN_USE";
    case Status::PtInUse:
      return "PTL_PT_IN_USE";
    case Status::PtFull:
      return "PTL_PT_FULL";
    case Status::EqEmpty:
      return "PTL_EQ_EMPTY";
    case Status::EqDropped:
      return "PTL_EQ_DROPPED";
    case Status::PtEqNeeded:
      return "PTL_PT_EQ_NEEDED";
    case Status::Interrupted:
      return "PTL_INTERRUPTED";
  }
  return "?";
}

const char* to_string(AtomicOp op)
{
  static const char* const names[] = {"MIN",      "MAX",      "SUM",      "PROD",     "LOR",      "LAND",
                                      "BOR",      "BAND",     "LXOR",     "BXOR",     "SWAP",     "CSWAP",
                                      "CSWAP_NE", "CSWAP_LE", "CSWAP_LT", "CSWAP_GE", "CSWAP_GT", "MSWAP"};
  return names[static_cast<int>(op)];
}

const char* to_string(Datatype dt)
{
  static const char* const names[] = {
      "INT8_T",   "UINT8_T", "INT16_T", "UINT16_T",      "INT32_T",        "UINT32_T",    "INT64_T",
      "UINT64_T", "FLOAT",   "DOUBLE",  "FLOAT_COMPLEX", "DOUBLE_COMPLEX", "LONG_DOUBLE", "LONG_DOUBLE_COMPLEX"};
  return names[static_cast<int>(dt)];
}

std::uint64_t datatype_size(Datatype dt)
{
  switch (dt) {
    case Datatype::Int8:
    case Datatype::Uint8:
      return 1;
    case Datatype::Int16:
    case Datatype::Uint16:
      return 2;
    case Datatype::Int32:
    case Datatype::Uint32:
    case Datatype::Float:
      return 4;
    case Datatype::Int64:
    case Datatype::Uint64:
    case Datatype::Double:
    case Datatype::FloatComplex:
      return 8;
    case Datatype::DoubleComplex:
      return 16;
    case Datatype::LongDouble:
      return sizeof(long double);
    case Datatype::LongDoubleComplex:
      return 2 * sizeof(long double);
  }
  return 1;
}

namespace {

bool is_integer(Datatype dt)
{
  return dt <= Datatype::Uint64;
}
bool is_complex(Datatype dt)
{
  return dt == Datatype::FloatComplex || dt == Datatype::DoubleComplex || dt == Datatype::LongDoubleComplex;
}
bool is_swap_family(AtomicOp op)
{
  return op >= AtomicOp::Swap;
}

template <class T> void apply_typed(AtomicOp op, T* t, const T* o, const T* cmp, T* fetched, std::uint64_t n)
{
  constexpr bool integral = std::is_integral_v<T>;
  constexpr bool ordered  = !std::is_class_v<T>; // complex numbers have no order
  for (std::uint64_t i = 0; i < n; ++i) {
    T old = t[i];
    if (fetched != nullptr)
      std::memcpy(&fetched[i], &old, sizeof(T));
    T v = old;
    switch (op) {
      case AtomicOp::Sum:
        v = static_cast<T>(old + o[i]);
        break;
      case AtomicOp::Prod:
        v = static_cast<T>(old * o[i]);
        break;
      case AtomicOp::Min:
        if constexpr (ordered)
          v = o[i] < old ? o[i] : old;
        break;
      case AtomicOp::Max:
        if constexpr (ordered)
          v = o[i] > old ? o[i] : old;
        break;
      case AtomicOp::Lor:
        if constexpr (integral)
          v = static_cast<T>((old != 0) || (o[i] != 0));
        break;
      case AtomicOp::Land:
        if constexpr (integral)
          v = static_cast<T>((old != 0) && (o[i] != 0));
        break;
      case AtomicOp::Lxor:
        if constexpr (integral)
          v = static_cast<T>((old != 0) != (o[i] != 0));
        break;
      case AtomicOp::Bor:
        if constexpr (integral)
          v = static_cast<T>(old | o[i]);
        break;
      case AtomicOp::Band:
        if constexpr (integral)
          v = static_cast<T>(old & o[i]);
        break;
      case AtomicOp::Bxor:
        if constexpr (integral)
          v = static_cast<T>(old ^ o[i]);
        break;
      case AtomicOp::Swap:
        v = o[i];
        break;
      case AtomicOp::Cswap:
        if (*cmp == old)
          v = o[i];
        break;
      case AtomicOp::CswapNe:
        if (!(*cmp == old))
          v = o[i];
        break;
      case AtomicOp::CswapLe:
        if constexpr (ordered)
          if (*cmp <= old)
            v = o[i];
        break;
      case AtomicOp::CswapLt:
        if constexpr (ordered)
          if (*cmp < old)
            v = o[i];
        break;
      case AtomicOp::CswapGe:
        if constexpr (ordered)
          if (*cmp >= old)
            v = o[i];
        break;
      case AtomicOp::CswapGt:
        if constexpr (ordered)
          if (*cmp > old)
            v = o[i];
        break;
      case AtomicOp::Mswap:
        if constexpr (integral)
          v = static_cast<T>((o[i] & *cmp) | (old & ~*cmp));
        break;
    }
    t[i] = v;
  }
}

template <class T>
void apply_as(AtomicOp op, std::byte* target, const std::byte* operand, const std::byte* compare, std::byte* fetched,
              std::uint64_t length)
{
  // Copy through aligned storage: target memory may be unaligned for T.
  const std::uint64_t n = length / sizeof(T);
  for (std::uint64_t i = 0; i < n; ++i) {
    T t, o, c{}, f{};
    std::memcpy(&t, target + i * sizeof(T), sizeof(T));
    std::memcpy(&o, operand + i * sizeof(T), sizeof(T));
    if (compare != nullptr)
      std::memcpy(&c, compare, sizeof(T));
    apply_typed<T>(op, &t, &o, &c, fetched != nullptr ? &f : nullptr, 1);
    std::memcpy(target + i * sizeof(T), &t, sizeof(T));
    if (fetched != nullptr)
      std::memcpy(fetched + i * sizeof(T), &f, sizeof(T));
  }
}

} // namespace

const char* check_atomic(AtomicCall call, AtomicOp op, Datatype dt, std::uint64_t length, const Limits& limits)
{
  const std::uint64_t size = datatype_size(dt);
  if (length == 0 || length % size != 0)
    return "length must be a positive multiple of the datatype size";
  if (call == AtomicCall::Swap) {
    if (!is_swap_family(op))
      return "PtlSwap takes SWAP, CSWAP, CSWAP_NE, CSWAP_LE, CSWAP_LT, CSWAP_GE, CSWAP_GT or MSWAP";
    if (op != AtomicOp::Swap && length != size)
      return "conditional and masked swaps operate on exactly one element";
    if (length > limits.max_fetch_atomic_size)
      return "length exceeds max_fetch_atomic_size";
  } else {
    if (is_swap_family(op))
      return "swap operations go through PtlSwap";
    if (length > (call == AtomicCall::FetchAtomic ? limits.max_fetch_atomic_size : limits.max_atomic_size))
      return call == AtomicCall::FetchAtomic ? "length exceeds max_fetch_atomic_size"
                                             : "length exceeds max_atomic_size";
  }
  const bool integer_only = op == AtomicOp::Lor || op == AtomicOp::Land || op == AtomicOp::Lxor ||
                            op == AtomicOp::Bor || op == AtomicOp::Band || op == AtomicOp::Bxor ||
                            op == AtomicOp::Mswap;
  if (integer_only && !is_integer(dt))
    return "logical, bitwise and masked operations take integer datatypes only";
  const bool needs_order = op == AtomicOp::Min || op == AtomicOp::Max || op == AtomicOp::CswapLe ||
                           op == AtomicOp::CswapLt || op == AtomicOp::CswapGe || op == AtomicOp::CswapGt;
  if (needs_order && is_complex(dt))
    return "MIN, MAX and ordered conditional swaps are undefined on complex datatypes";
  return "";
}

void apply_atomic(AtomicOp op, Datatype dt, std::byte* target, const std::byte* operand, const std::byte* compare,
                  std::byte* fetched, std::uint64_t length)
{
  switch (dt) {
    case Datatype::Int8:
      return apply_as<std::int8_t>(op, target, operand, compare, fetched, length);
    case Datatype::Uint8:
      return apply_as<std::uint8_t>(op, target, operand, compare, fetched, length);
    case Datatype::Int16:
      return apply_as<std::int16_t>(op, target, operand, compare, fetched, length);
    case Datatype::Uint16:
      return apply_as<std::uint16_t>(op, target, operand, compare, fetched, length);
    case Datatype::Int32:
      return apply_as<std::int32_t>(op, target, operand, compare, fetched, length);
    case Datatype::Uint32:
      return apply_as<std::uint32_t>(op, target, operand, compare, fetched, length);
    case Datatype::Int64:
      return apply_as<std::int64_t>(op, target, operand, compare, fetched, length);
    case Datatype::Uint64:
      return apply_as<std::uint64_t>(op, target, operand, compare, fetched, length);
    case Datatype::Float:
      return apply_as<float>(op, target, operand, compare, fetched, length);
    case Datatype::Double:
      return apply_as<double>(op, target, operand, compare, fetched, length);
    case Datatype::FloatComplex:
      return apply_as<std::complex<float>>(op, target, operand, compare, fetched, length);
    case Datatype::DoubleComplex:
      return apply_as<std::complex<double>>(op, target, operand, compare, fetched, length);
    case Datatype::LongDouble:
      return apply_as<long double>(op, target, operand, compare, fetched, length);
    case Datatype::LongDoubleComplex:
      return apply_as<std::complex<long double>>(op, target, operand, compare, fetched, length);
  }
}

} // namespace shmemsim::portals
