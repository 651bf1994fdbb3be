// The shared-memory path between emulated PEs of one host (docs/emulator.md, "Shared memory on one
// host"): one segment per host, made by the launcher (memfd_create: it has no name, so nothing is
// ever left in /dev/shm, whatever dies) and inherited by the PEs it forks there. It holds a control
// word per PE (whether its progress thread sleeps) and one ring per ordered pair of PEs: a
// single-producer single-consumer byte stream carrying the same Wire messages as a TCP connection
// (header, then payload). The producer is the sending PE (its threads take the peer's lock), the
// consumer the receiving PE's NIC. Positions only grow: head and tail are byte counts since the
// start, their difference the bytes in flight.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace shmemsim::emulator {

/// The segment's layout for `pes` PEs sharing it with rings of `ring_bytes` (a power of two).
struct ShmLayout {
  static constexpr std::size_t kLine       = 64;  ///< one cache line per control word
  static constexpr std::size_t kRingHeader = 256; ///< head, tail and the producer's flag, a line each
  int pes                                  = 0;
  std::size_t ring_bytes                   = 0;

  std::size_t control_bytes() const { return static_cast<std::size_t>(pes) * kLine; }
  std::size_t ring_stride() const { return kRingHeader + ring_bytes; }
  /// Offset of the ring from slot `from` to slot `to`.
  std::size_t ring_at(int from, int to) const
  {
    return control_bytes() +
           (static_cast<std::size_t>(from) * static_cast<std::size_t>(pes) + static_cast<std::size_t>(to)) *
               ring_stride();
  }
  std::size_t total() const { return ring_at(pes, 0); }

  /// The ring size for `pes` PEs on one host: 2 MiB per ordered pair (a 1 MiB put fits whole),
  /// less as the pairs multiply so that the segment stays near 256 MiB of address space (its pages
  /// are only touched where PEs talk), at least 64 KiB.
  static std::size_t ring_for(int pes)
  {
    const std::size_t pairs = static_cast<std::size_t>(pes) * static_cast<std::size_t>(pes > 1 ? pes - 1 : 1);
    std::size_t r           = std::size_t{2} << 20;
    while (r > (std::size_t{64} << 10) && r * pairs > (std::size_t{256} << 20))
      r /= 2;
    return r;
  }
};

/// One direction of a pair: a byte ring in the shared segment.
class ShmRing {
public:
  ShmRing() = default;
  ShmRing(std::byte* at, std::size_t bytes)
      : head_(reinterpret_cast<std::uint64_t*>(at)), tail_(reinterpret_cast<std::uint64_t*>(at + ShmLayout::kLine)),
        waiting_(reinterpret_cast<std::uint32_t*>(at + 2 * ShmLayout::kLine)), data_(at + ShmLayout::kRingHeader),
        size_(bytes)
  {
  }
  explicit operator bool() const { return data_ != nullptr; }

  /// Producer: copy up to `n` bytes in (what fits); returns how many.
  std::size_t push(const void* src, std::size_t n)
  {
    const std::uint64_t tail = std::atomic_ref(*tail_).load(std::memory_order_relaxed);
    const std::uint64_t head = std::atomic_ref(*head_).load(std::memory_order_acquire);
    const std::size_t m      = std::min<std::size_t>(n, size_ - static_cast<std::size_t>(tail - head));
    if (m == 0)
      return 0;
    const std::size_t pos   = static_cast<std::size_t>(tail) & (size_ - 1);
    const std::size_t first = std::min(m, size_ - pos);
    std::memcpy(data_ + pos, src, first);
    std::memcpy(data_, static_cast<const std::byte*>(src) + first, m - first);
    std::atomic_ref(*tail_).store(tail + m, std::memory_order_release);
    return m;
  }

  /// Consumer: copy up to `n` bytes out; returns how many.
  std::size_t pop(void* dst, std::size_t n)
  {
    const std::uint64_t head = std::atomic_ref(*head_).load(std::memory_order_relaxed);
    const std::uint64_t tail = std::atomic_ref(*tail_).load(std::memory_order_acquire);
    const std::size_t m      = std::min<std::size_t>(n, static_cast<std::size_t>(tail - head));
    if (m == 0)
      return 0;
    const std::size_t pos   = static_cast<std::size_t>(head) & (size_ - 1);
    const std::size_t first = std::min(m, size_ - pos);
    std::memcpy(dst, data_ + pos, first);
    std::memcpy(static_cast<std::byte*>(dst) + first, data_, m - first);
    std::atomic_ref(*head_).store(head + m, std::memory_order_release);
    return m;
  }

  /// Consumer: whether bytes wait.
  bool readable() const
  {
    return std::atomic_ref(*tail_).load(std::memory_order_acquire) !=
           std::atomic_ref(*head_).load(std::memory_order_relaxed);
  }
  /// Producer: whether there is room.
  bool writable() const
  {
    return std::atomic_ref(*tail_).load(std::memory_order_relaxed) -
               std::atomic_ref(*head_).load(std::memory_order_acquire) <
           size_;
  }

  /// The producer's flag: it waits for room (its progress thread may sleep): the consumer wakes it
  /// after taking bytes.
  std::atomic_ref<std::uint32_t> producer_waiting() const { return std::atomic_ref(*waiting_); }

private:
  std::uint64_t* head_    = nullptr; ///< bytes taken by the consumer
  std::uint64_t* tail_    = nullptr; ///< bytes put by the producer
  std::uint32_t* waiting_ = nullptr;
  std::byte* data_        = nullptr;
  std::size_t size_       = 0;
};

} // namespace shmemsim::emulator
