/* Each PE puts its number to the next one and prints what it received, with an environment
 * variable the launcher set (GREETING) and its first argument. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  static int got = -1;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_int_p(&got, me, (me + 1) % npes);
  shmem_barrier_all();
  const char* greeting = getenv("GREETING");
  for (int pe = 0; pe < npes; ++pe) {
    if (pe == me) {
      printf("hello: PE %d of %d got %d, GREETING=%s, arg %s, %d PEs on its node\n", me, npes, got,
             greeting ? greeting : "(unset)", argc > 1 ? argv[1] : "(none)", shmem_team_n_pes(SHMEM_TEAM_SHARED));
      fflush(stdout);
    }
    shmem_barrier_all();
  }
  shmem_finalize();
  return got == (me + npes - 1) % npes ? 0 : 1;
}
