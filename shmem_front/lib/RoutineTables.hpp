// Definitions generated from the routine tables of the public headers: each table row
// (RET, NAME, KIND, ELEM, PARAMS) gives shmem_NAME on the default context and shmem_ctx_NAME on an
// explicit one, both running SHMEMSIM_BODY_<KIND> (defined by the including file).
#pragma once

#include <shmem.h>

#define SHMEMSIM_DEFINE_WITH_CTX(RET, NAME, KIND, ELEM, PARAMS)                                                        \
  RET shmem_##NAME PARAMS                                                                                              \
  {                                                                                                                    \
    return SHMEMSIM_BODY_##KIND(SHMEM_CTX_DEFAULT, "shmem_" #NAME, ELEM);                                              \
  }                                                                                                                    \
  RET shmem_ctx_##NAME(shmem_ctx_t ctx, SHMEMSIM_UNPAREN PARAMS)                                                       \
  {                                                                                                                    \
    return SHMEMSIM_BODY_##KIND(ctx, "shmem_ctx_" #NAME, ELEM);                                                        \
  }
