// Portals 4 types of the model: return codes, limits, options, ack types, atomic operations and
// datatypes. Names follow the Portals 4 specification (PTL_* in comments).
#pragma once

#include "base/PortalsLimits.hpp"

#include <cstdint>

namespace shmemsim::portals {

/// Return codes (PTL_OK, PTL_ARG_INVALID, PTL_NO_SPACE, ...).
enum class Status {
  Ok,         ///< PTL_OK
  ArgInvalid, ///< PTL_ARG_INVALID
  NoSpace,    ///< PTL_NO_SPACE: a resource limit of the NI is exhausted
  InUse,      ///< PTL_IN_USE
  PtInUse,    ///< PTL_PT_IN_USE
  PtFull,     ///< PTL_PT_FULL
};

const char* to_string(Status s);

// MD options (ptl_md_t.options).
enum MdOption : std::uint32_t {
  MD_EVENT_CT_SEND  = 1u << 0, ///< PTL_MD_EVENT_CT_SEND
  MD_EVENT_CT_REPLY = 1u << 1, ///< PTL_MD_EVENT_CT_REPLY
  MD_EVENT_CT_ACK   = 1u << 2, ///< PTL_MD_EVENT_CT_ACK
  MD_EVENT_CT_BYTES = 1u << 3, ///< PTL_MD_EVENT_CT_BYTES
  MD_UNORDERED      = 1u << 4, ///< PTL_MD_UNORDERED
  MD_VOLATILE       = 1u << 5, ///< PTL_MD_VOLATILE
  MD_INDEPENDENT    = 1u << 6, ///< proposed PTL_MD_INDEPENDENT (contexts paper, 6.2.1)
};

// LE options (ptl_le_t.options).
enum LeOption : std::uint32_t {
  LE_OP_PUT         = 1u << 0, ///< PTL_LE_OP_PUT
  LE_OP_GET         = 1u << 1, ///< PTL_LE_OP_GET
  LE_EVENT_CT_COMM  = 1u << 2, ///< PTL_LE_EVENT_CT_COMM
  LE_EVENT_CT_BYTES = 1u << 3, ///< PTL_LE_EVENT_CT_BYTES
  LE_NO_TRUNCATE    = 1u << 4, ///< PTL_LE_NO_TRUNCATE
  LE_USE_ONCE       = 1u << 5, ///< PTL_LE_USE_ONCE
};

/// ptl_ack_req_t. PTL_ACK_REQ (full events) needs event queues, which come later.
enum class AckReq { NoAck, CtAck, OcAck };

/// ptl_op_t
enum class AtomicOp {
  Min,
  Max,
  Sum,
  Prod,
  Lor,
  Land,
  Bor,
  Band,
  Lxor,
  Bxor,
  Swap,
  Cswap,
  CswapNe,
  CswapLe,
  CswapLt,
  CswapGe,
  CswapGt,
  Mswap
};

/// ptl_datatype_t
enum class Datatype {
  Int8,
  Uint8,
  Int16,
  Uint16,
  Int32,
  Uint32,
  Int64,
  Uint64,
  Float,
  Double,
  FloatComplex,
  DoubleComplex,
  LongDouble,
  LongDoubleComplex
};

const char* to_string(AtomicOp op);
const char* to_string(Datatype dt);
std::uint64_t datatype_size(Datatype dt);

/// ptl_ct_event_t
struct CtEvent {
  std::uint64_t success = 0;
  std::uint64_t failure = 0;
};

/// Why a message failed at the target (ptl_ni_fail_t).
enum class NiFail { Ok, Dropped, PermViolation, OpViolation, Segv };

struct CtHandle {
  int index = -1;
  bool valid() const { return index >= 0; }
  bool operator==(const CtHandle&) const = default;
};
inline constexpr CtHandle CT_NONE{};

struct MdHandle {
  int index                              = -1;
  bool operator==(const MdHandle&) const = default;
};

struct LeHandle {
  int index                              = -1;
  bool operator==(const LeHandle&) const = default;
};

/// ptl_md_t
struct MdDesc {
  void* start           = nullptr;
  std::uint64_t length  = 0;
  std::uint32_t options = 0;
  CtHandle ct           = CT_NONE;
};

/// ptl_le_t (non-matching list entry)
struct LeDesc {
  void* start           = nullptr;
  std::uint64_t length  = 0;
  std::uint32_t options = LE_OP_PUT | LE_OP_GET;
  CtHandle ct           = CT_NONE;
};

} // namespace shmemsim::portals
