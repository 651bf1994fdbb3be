// libc's own process variables, found with dlsym (internal to the PE runtime). The launcher must
// not name them directly: that would create copy relocations in the executable, which libc then
// updates while the program copies (bound with RTLD_DEEPBIND) keep reading libc's original
// definitions.
#pragma once

#include <cstdio>

namespace shmemsim::front {

struct LibcVars {
  int* optind;
  int* opterr;
  int* optopt;
  char** optarg;
  char*** environ_;
  FILE** stdout_;
  FILE** stderr_;
};

/// The variables (looked up once).
const LibcVars& libc_vars();

} // namespace shmemsim::front
