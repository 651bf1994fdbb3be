// Portals 4 types of the model: return codes, limits, options, ack types, atomic operations and
// datatypes. Names follow the Portals 4 specification (PTL_* in comments).
#pragma once

#include "base/PortalsLimits.hpp"
#include "base/Time.hpp"

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
  EqEmpty,    ///< PTL_EQ_EMPTY: no event (PtlEQGet), or the timeout passed (PtlEQPoll)
  EqDropped,  ///< PTL_EQ_DROPPED: an event is returned, and at least one before it was lost
  PtEqNeeded, ///< PTL_PT_EQ_NEEDED: flow control asked for without an event queue
  Interrupted ///< PTL_INTERRUPTED: the event queue waited on was freed
};

const char* to_string(Status s);

// MD options (ptl_md_t.options).
enum MdOption : std::uint32_t {
  MD_EVENT_CT_SEND         = 1u << 0, ///< PTL_MD_EVENT_CT_SEND
  MD_EVENT_CT_REPLY        = 1u << 1, ///< PTL_MD_EVENT_CT_REPLY
  MD_EVENT_CT_ACK          = 1u << 2, ///< PTL_MD_EVENT_CT_ACK
  MD_EVENT_CT_BYTES        = 1u << 3, ///< PTL_MD_EVENT_CT_BYTES
  MD_UNORDERED             = 1u << 4, ///< PTL_MD_UNORDERED
  MD_VOLATILE              = 1u << 5, ///< PTL_MD_VOLATILE
  MD_INDEPENDENT           = 1u << 6, ///< proposed PTL_MD_INDEPENDENT (contexts paper, 6.2.1)
  MD_EVENT_SUCCESS_DISABLE = 1u << 7, ///< PTL_MD_EVENT_SUCCESS_DISABLE: only failures reach the EQ
  MD_EVENT_SEND_DISABLE    = 1u << 8, ///< PTL_MD_EVENT_SEND_DISABLE: no PTL_EVENT_SEND
};

// LE options (ptl_le_t.options).
enum LeOption : std::uint32_t {
  LE_OP_PUT                 = 1u << 0,  ///< PTL_LE_OP_PUT
  LE_OP_GET                 = 1u << 1,  ///< PTL_LE_OP_GET
  LE_EVENT_CT_COMM          = 1u << 2,  ///< PTL_LE_EVENT_CT_COMM
  LE_EVENT_CT_BYTES         = 1u << 3,  ///< PTL_LE_EVENT_CT_BYTES
  LE_NO_TRUNCATE            = 1u << 4,  ///< PTL_LE_NO_TRUNCATE
  LE_USE_ONCE               = 1u << 5,  ///< PTL_LE_USE_ONCE
  LE_EVENT_COMM_DISABLE     = 1u << 6,  ///< PTL_LE_EVENT_COMM_DISABLE: no PUT/GET/ATOMIC/FETCH_ATOMIC events
  LE_EVENT_SUCCESS_DISABLE  = 1u << 7,  ///< PTL_LE_EVENT_SUCCESS_DISABLE: no successful-operation events
  LE_EVENT_UNLINK_DISABLE   = 1u << 8,  ///< PTL_LE_EVENT_UNLINK_DISABLE: no PTL_EVENT_AUTO_UNLINK
  LE_EVENT_LINK_DISABLE     = 1u << 9,  ///< PTL_LE_EVENT_LINK_DISABLE: no PTL_EVENT_LINK
  LE_EVENT_FLOWCTRL_DISABLE = 1u << 10, ///< PTL_LE_EVENT_FLOWCTRL_DISABLE: no PTL_EVENT_PT_DISABLED
};

// Portal table entry options (PtlPTAlloc).
enum PtOption : std::uint32_t {
  PT_ONLY_USE_ONCE = 1u << 0, ///< PTL_PT_ONLY_USE_ONCE (a hint; the model needs none)
  PT_FLOWCTRL      = 1u << 1, ///< PTL_PT_FLOWCTRL
};

/// ptl_ack_req_t. Only PTL_ACK_REQ (Ack) posts a full PTL_EVENT_ACK (to the MD's event queue);
/// the others are counted (PTL_MD_EVENT_CT_ACK) only.
enum class AckReq { NoAck, CtAck, OcAck, Ack };

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
enum class NiFail { Ok, Dropped, PermViolation, OpViolation, Segv, PtDisabled, Undeliverable };
const char* to_string(NiFail f);

/// ptl_event_kind_t: the full events the model posts (it has no overflow list and no matching, so
/// no *_OVERFLOW, SEARCH or AUTO_FREE events).
enum class EventKind { Get, Put, Atomic, FetchAtomic, Reply, Send, Ack, PtDisabled, Link, AutoUnlink };
const char* to_string(EventKind k);

/// ptl_event_t (initiator and target events share it, as in the specification).
struct Event {
  EventKind type              = EventKind::Put;
  void* start                 = nullptr; ///< target: where the data landed (or was read)
  std::uint64_t user_ptr      = 0;       ///< target: the LE's user_ptr; initiator: the operation's
  std::uint64_t hdr_data      = 0;
  std::uint64_t match_bits    = 0; ///< always 0: the model's NIs are non-matching
  std::uint64_t rlength       = 0; ///< length requested
  std::uint64_t mlength       = 0; ///< length manipulated (after truncation)
  std::uint64_t remote_offset = 0;
  int initiator               = -1; ///< target events: the initiating endpoint
  std::uint32_t pt_index      = 0;
  NiFail ni_fail_type         = NiFail::Ok;
  AtomicOp atomic_operation   = AtomicOp::Sum; ///< atomic events only
  Datatype atomic_type        = Datatype::Uint64;
};

struct EqHandle {
  int index = -1;
  bool valid() const { return index >= 0; }
  bool operator==(const EqHandle&) const = default;
};
inline constexpr EqHandle EQ_NONE{};
/// PTL_TIME_FOREVER for eq_poll's timeout.
inline constexpr Ps TIME_FOREVER = -1;

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
  EqHandle eq           = EQ_NONE; ///< initiator events (SEND, ACK, REPLY) go here
};

/// ptl_le_t (non-matching list entry)
struct LeDesc {
  void* start           = nullptr;
  std::uint64_t length  = 0;
  std::uint32_t options = LE_OP_PUT | LE_OP_GET;
  CtHandle ct           = CT_NONE;
};

} // namespace shmemsim::portals
