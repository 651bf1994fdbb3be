// An OpenSHMEM program's run (`shmemsim-run`), simulated or emulated: from the request to the
// finished run directory and the exit status, with the launcher's lines on stderr (docs/runs.md).
#pragma once

#include "run/Request.hpp"

#include <cstdint>

namespace shmemsim::run {

/// The most PEs one simulated run holds (each a dlopen'ed copy of the program in this process).
inline constexpr int kMaxPes = 65536;

/// The symmetric heap per PE: job.symmetric_heap, or SHMEM_SYMMETRIC_SIZE in the specification's
/// form ("512m", "1G", "3.1m": at least the ceiling of number x 2^10/20/30/40). It is what the
/// program can allocate; the library's own reserved block comes on top (included).
std::uint64_t symmetric_heap_bytes(const Request& request);

/// The process's signal handlers for a program's run, installed before anything is loaded:
/// Ctrl-C and kill (one line, status 128 + signal, temporaries removed); simulated, also a PE's
/// crash (one line naming the PE, its thread and routine; 128 + signal) and --wall-time-limit
/// (status 4). Emulated, the emulator's launcher takes the signals over when it starts.
void install_signal_handlers(const Request& request);

/// Runs the request's program (request.emulate: on the emulated platform) and records it, then
/// calls request.finished; returns the exit status. A simulated run ends the process after
/// request.finished (its PEs' actors are not torn down).
int run_program(const Request& request);

} // namespace shmemsim::run
