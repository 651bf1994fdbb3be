/* bench/memory: every PE joins SHMEM_TEAM_WORLD's collectives once (a barrier, a team sync and a
 * one-element sum reduction, checked) and nothing else: the memory a large job keeps for the
 * world team beyond a hello world. Usage: shmem_world_team */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  static long mine, sum;
  shmem_init();
  int me = shmem_my_pe(), n = shmem_team_n_pes(SHMEM_TEAM_WORLD);
  mine = me;
  shmem_barrier_all();
  shmem_team_sync(SHMEM_TEAM_WORLD);
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &sum, &mine, 1);
  if (sum != (long)n * (n - 1) / 2) {
    fprintf(stderr, "PE %d: sum %ld, expected %ld\n", me, sum, (long)n * (n - 1) / 2);
    shmem_global_exit(1);
  }
  if (me == 0)
    printf("world team: %d PEs, sum %ld OK\n", n, sum);
  shmem_finalize();
  return 0;
}
