/* OpenSHMEM profiling interface: every routine of shmem.h (and shmemx.h) is also available under
 * its pshmem_ name, so that tools can wrap the shmem_ names and call the library through these. */
#ifndef PSHMEM_H
#define PSHMEM_H
#include <shmem.h>
#endif
