/* A second translation unit: its static and global variables are symmetric too. */
#include <shmem.h>

static long other_static[8];
long other_global = 7;

long* other_static_address(void) { return other_static; }
