// Loading a program for a simulated run: the interposition library (first, so that the program
// copies bind to this instance), then one private copy of the program (shmem_front/loader's
// ProgramCopies) and one symmetric heap per PE, within the system's limit of memory mappings.
#pragma once

#include "run/ProgramWorkload.hpp"
#include "run/Request.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace shmemsim::run {

/// The directory of this executable (bin/: the interposition library is in ../lib, the
/// emulator's PE program beside it).
std::string self_dir();

/// The request's program loaded for the PEs at `node_of`, each with a symmetric heap of
/// `heap_bytes`. `stack_guards`: whether the actors' stacks keep their guard pages within
/// vm.max_map_count (one notice line when not). Throws (one line) when the program cannot be
/// loaded, a heap cannot be mapped, or the run cannot fit the limit of mappings.
LoadedProgram load_program(const Request& request, const std::vector<int>& node_of, std::uint64_t heap_bytes,
                           bool& stack_guards);

/// Whether the loaded program installed a handler of its own for signal `sig` (the interposition
/// library records them; false before loading). Async-signal-safe: for the crash handler.
bool program_handles(int sig);

} // namespace shmemsim::run
