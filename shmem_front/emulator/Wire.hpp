// The emulator's messages on its TCP connections (docs/emulator.md): every data connection starts
// with the job's token and the connecting PE's rank; then fixed-size headers, each followed by its
// payload (`len` bytes for PUT and REPLY). Symmetric addresses travel as (segment, offset):
// segment 0 is the program's writable data, segment 1 the symmetric heap. Completion records
// (`cookie`) and reply destinations (`dest`) are the initiator's own addresses, returned unchanged.
#pragma once

#include <cstddef>
#include <cstdint>

namespace shmemsim::emulator {

enum class MsgType : std::uint8_t { Put = 1, Get, Amo, FetchAmo, Ack, Reply };

struct Header {
  MsgType type         = MsgType::Put;
  std::uint8_t op      = 0; ///< front::AmoOp, with kSignalOp for a collective's signal
  std::uint8_t dtype   = 0; ///< front::AmoType
  std::uint8_t seg     = 0;
  std::uint32_t src    = 0; ///< the sending PE
  std::uint64_t seq    = 0; ///< requests: per (source, target) pair, from 1
  std::uint64_t offset = 0; ///< in the target's segment
  std::uint64_t len =
      0; ///< data bytes (PUT/REPLY: the payload that follows; GET: asked for); ACK: operations acknowledged
  std::uint64_t cookie   = 0;      ///< the initiator's counter to increment on ACK/REPLY
  std::uint64_t dest     = 0;      ///< REPLY: where the initiator wants the data
  std::uint64_t value[2] = {0, 0}; ///< AMO operand and comparand (raw bits, 4 or 8 bytes used)
};
static_assert(sizeof(Header) == 64, "the wire header is 64 bytes");

/// In an AMO's `op`: the add is a collective's signal into a synchronization word, which the
/// target records in its signal journal (shmem_front/lib/SignalJournal.hpp) as it executes it.
inline constexpr std::uint8_t kSignalOp = 0x80;

/// Whether a message of this type carries `len` bytes after its header.
inline bool has_payload(MsgType t)
{
  return t == MsgType::Put || t == MsgType::Reply;
}

/// Bytes of the token (presented as 64 hex digits on the bootstrap connection, raw on data ones).
inline constexpr std::size_t kTokenBytes = 32;

/// The first bytes of a data connection: the token, the connecting PE and which of the pair's
/// connections (paths, emulator.paths) this is.
struct Hello {
  std::uint8_t token[kTokenBytes];
  std::uint32_t rank;
  std::uint32_t path;
  std::uint32_t magic; ///< kHelloMagic
};
inline constexpr std::uint32_t kHelloMagic = 0x53454d55; // "SEMU"

} // namespace shmemsim::emulator
