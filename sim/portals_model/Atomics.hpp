// Portals atomic operations on raw memory: which (operation, datatype) pairs are legal, and
// applying them element by element.
#pragma once

#include "sim/portals_model/Types.hpp"

#include <cstddef>
#include <cstdint>

namespace shmemsim::portals {

/// Which call issues the operation: PtlAtomic/PtlFetchAtomic take the arithmetic and logical
/// operations, PtlSwap the swap family.
enum class AtomicCall { Atomic, FetchAtomic, Swap };

/// Empty if (call, op, dt, length) is legal under `limits`, else the reason.
const char* check_atomic(AtomicCall call, AtomicOp op, Datatype dt, std::uint64_t length, const Limits& limits);

/// Apply `op` to `length` bytes at `target` with `operand`. `compare` (one element) is the
/// PtlSwap operand for the conditional and masked swaps: a conditional swap replaces the target
/// element when `compare <op> target` holds (CSWAP: ==, CSWAP_NE: !=, CSWAP_LE: <=, ...);
/// MSWAP sets the bits of `compare` from `operand`. If `fetched` is non-null it receives the
/// previous contents.
void apply_atomic(AtomicOp op, Datatype dt, std::byte* target, const std::byte* operand, const std::byte* compare,
                  std::byte* fetched, std::uint64_t length);

} // namespace shmemsim::portals
