/* Misuse of teams and collectives: each case (argv[1]) ends the run with status 2 and one line
 * naming the routine and the bad value. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long pSync[SHMEM_SYNC_SIZE];
static long src[8], dst[8 * 64];

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const char* what = argc > 1 ? argv[1] : "";
  long local[SHMEM_SYNC_SIZE] = {0};
  shmem_team_t t = SHMEM_TEAM_INVALID;
  if (strcmp(what, "destroyed_team") == 0) /* collective over the world: the team of PE 1 */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, 1, NULL, 0, &t);
  shmem_barrier_all();
  if (me == 1) {
    if (strcmp(what, "destroy_world") == 0)
      shmem_team_destroy(SHMEM_TEAM_WORLD);
    else if (strcmp(what, "bad_root") == 0)
      shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 1, npes);
    else if (strcmp(what, "not_in_set") == 0)
      shmem_barrier(0, 1, 1, pSync); /* the set is PE 0 only */
    else if (strcmp(what, "bad_stride") == 0)
      shmem_sync(0, 31, 2, pSync);
    else if (strcmp(what, "psync_local") == 0)
      shmem_sync(0, 0, npes, local);
    else if (strcmp(what, "destroyed_team") == 0) {
      shmem_team_destroy(t);
      shmem_team_my_pe(t);
    }
  }
  if (me == 1) /* PE 0 may legitimately get here before PE 1's error ends the run */
    printf("not reached: %s\n", what);
  shmem_finalize();
  return 0;
}
