#include <shmem.h>
#include <stdio.h>
#include <math.h>
int twice(int);
int helper_sum(int);
int main(void) { shmem_init(); printf("PE %d: %d %d %.1f\n", shmem_my_pe(), twice(shmem_my_pe()), helper_sum(3), sqrt(16.0)); shmem_finalize(); return 0; }
