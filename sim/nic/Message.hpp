// A network operation as the NIC sees it: a request (put, get, atomic...) from one endpoint to
// another, its payload, and its progress through the initiator NIC, the fabric and the target NIC.
// The Portals model derives from it to carry its own fields; the NIC never interprets those.
#pragma once

#include "base/Time.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace shmemsim::nic {

class DeliveryHandler;

enum class OpKind : std::uint8_t { Put, Get, Atomic, FetchAtomic, Swap };

const char* to_string(OpKind k);

/// Which way a reply carries data: gets and fetching atomics get a reply, the others an ACK.
inline bool has_reply(OpKind k)
{
  return k == OpKind::Get || k == OpKind::FetchAtomic || k == OpKind::Swap;
}
/// Whether the request carries data from the initiator.
inline bool has_request_payload(OpKind k)
{
  return k != OpKind::Get;
}

struct Message {
  Message()                     = default;
  Message(Message&&)            = default;
  Message& operator=(Message&&) = default;
  virtual ~Message()            = default;

  OpKind kind          = OpKind::Put;
  int src_ep           = 0;
  int dst_ep           = 0;
  std::uint64_t length = 0; ///< bytes moved (put/atomic operand, get/fetch result)
  bool ack_requested   = false;
  bool ordered         = false; ///< delivered in issue order with earlier ordered messages of the pair
  int queue            = 0;     ///< injection queue on the initiator NIC
  /// The initiator's tag for the operation (Portals' user_ptr), handed to observers; 0: none.
  std::uint64_t user_ptr = 0;

  /// Request payload source. If `inline_payload`, the data was copied into `request_data` at
  /// issue (a volatile put); otherwise the NIC reads `source` by DMA as it injects the packets.
  const std::byte* source = nullptr;
  bool inline_payload     = false;
  /// Where a reply's data lands at the initiator (get, fetch, swap).
  std::byte* reply_dest = nullptr;

  /// Request payload as read from the initiator (or copied at issue), `length` bytes.
  std::byte* request_data() { return buffer(request_heap_, request_small_); }
  /// Reply payload as read or produced at the target, `length` bytes.
  std::byte* reply_data() { return buffer(reply_heap_, reply_small_); }
  bool has_request_data() const { return request_ready_; }
  /// Make room for the payloads (small ones live inside the message: no allocation).
  void alloc_request()
  {
    alloc(request_heap_);
    request_ready_ = true;
  }
  void alloc_reply() { alloc(reply_heap_); }
  /// Forget the payloads (the message is about to be reused).
  void clear_payloads()
  {
    request_heap_.reset();
    reply_heap_.reset();
    request_ready_ = false;
  }

private:
  static constexpr std::uint64_t kSmall = 32;
  std::byte* buffer(std::unique_ptr<std::byte[]>& heap, std::byte* small)
  {
    return length <= kSmall ? small : heap.get();
  }
  void alloc(std::unique_ptr<std::byte[]>& heap)
  {
    if (length > kSmall && !heap)
      heap.reset(new std::byte[length]);
  }
  std::unique_ptr<std::byte[]> request_heap_;
  std::unique_ptr<std::byte[]> reply_heap_;
  alignas(16) std::byte request_small_[kSmall];
  alignas(16) std::byte reply_small_[kSmall];
  bool request_ready_ = false;

public:
  // Filled in by the NIC.
  std::uint64_t pair_seq        = 0; ///< issue order among all messages of (src_ep, dst_ep)
  std::uint64_t ordered_seq     = 0; ///< issue order among ordered messages of the pair
  Ps issued_at                  = 0;
  std::uint64_t trace_id        = 0; ///< given by an observer at issue (0: none)
  Ps delivered_at               = 0;
  std::uint32_t request_packets = 0;
  std::uint32_t reply_packets   = 0;
  std::uint32_t arrived         = 0; ///< request packets through the target's receive engine
  std::uint32_t landed          = 0; ///< request (at target) or reply (at initiator) packets landed
  bool target_ok                = true;
  std::uint64_t mlength         = 0;       ///< bytes the target accepted (may be truncated)
  std::byte* target_base        = nullptr; ///< resolved target address (null on failure)
  /// A put above platform.nic.inline_size: its request carries the header only and the target's
  /// NIC pulls the payload with an RDMA read (docs/model.md).
  bool pulled                 = false;
  std::uint32_t pull_packets  = 0; ///< read response packets (pulled put, at the target)
  std::uint32_t pull_written  = 0; ///< of these, written to host memory (or being written)
  std::uint64_t read_trace_id = 0; ///< the RDMA read's trace id (0: none)
  bool send_done              = false;
  bool target_done            = false;
  bool initiator_done         = false; ///< ACK or reply seen by the initiator
};

} // namespace shmemsim::nic
