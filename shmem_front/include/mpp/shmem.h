/* mpp/shmem.h: the header's name in older SHMEM codes (SGI and Cray SHMEM, OpenSHMEM 1.0 era
 * programs write `#include <mpp/shmem.h>`). It is shmem.h: the same declarations, the deprecated
 * routines included (start_pes, _my_pe, shmalloc, ...). Included by a path relative to this file,
 * so that it works whatever the include path. */
#ifndef SHMEMSIM_MPP_SHMEM_H
#define SHMEMSIM_MPP_SHMEM_H
#include "../shmem.h"
#endif
