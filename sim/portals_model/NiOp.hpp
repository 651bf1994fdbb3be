// A Portals operation in flight inside the model (Ni.cpp, EventQueues.cpp): the NIC's message
// plus what the Portals model needs back at the target and the initiator.
#pragma once

#include "sim/nic/Message.hpp"
#include "sim/portals_model/Ni.hpp"

#include <cstddef>
#include <cstdint>

namespace shmemsim::portals {

/// A Portals operation in flight: the NIC's message plus what the Portals model needs back.
struct Ni::Op final : nic::Message {
  Ni* initiator               = nullptr;
  int md                      = -1; ///< MD the request data comes from (put, atomic) / put_md (fetch, swap)
  int get_md                  = -1; ///< MD the reply lands in (get, fetch, swap)
  std::uint32_t pt            = 0;
  std::uint64_t remote_offset = 0;
  AtomicOp op                 = AtomicOp::Sum;
  Datatype dt                 = Datatype::Uint64;
  bool has_compare            = false;
  alignas(16) std::byte compare[32]{};
  // Resolved at the target.
  CtHandle le_ct{};
  std::uint32_t le_options  = 0;
  std::uint64_t le_user_ptr = 0;
  bool le_unlinked          = false; ///< a use-once entry this message unlinked
  NiFail fail               = NiFail::Ok;
  // From the initiator.
  AckReq ack             = AckReq::NoAck;
  std::uint64_t hdr_data = 0;
};

} // namespace shmemsim::portals
