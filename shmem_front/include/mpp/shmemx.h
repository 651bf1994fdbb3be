/* mpp/shmemx.h: the extensions header under the legacy mpp/ directory, for codes that include
 * <mpp/shmemx.h>. It is shmemx.h (which includes shmem.h). */
#ifndef SHMEMSIM_MPP_SHMEMX_H
#define SHMEMSIM_MPP_SHMEMX_H
#include "../shmemx.h"
#endif
