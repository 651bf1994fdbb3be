/* Simulated time of a team barrier (shmem_team_sync) over teams of the first p PEs, p = 2, 4, 8,
 * ... up to the job size, with the algorithm of job.collectives.barrier. PE 0 prints the mean
 * time per barrier for every p. A logarithmic barrier adds about one round per doubling of p
 * (rounds that leave a leaf switch cost more than the first, so the growth is log-like only from
 * p = 8 on the 4-node leaves of unordered.json); a linear one doubles. Checked from p = 16 on:
 * time(p)/time(2) < 0.75 p/2 and time(p)/time(p/2) < 1.6. The largest team's time is also a RESULT
 * line (barrier_us), for sweeps. */
#include <shmem.h>
#include <stdio.h>
#include <time.h>

#include "progtest.h"

#define ITER 50

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  double t2 = 0, prev = 0;
  for (int p = 2; p <= npes; p *= 2) {
    shmem_team_t t;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, p, NULL, 0, &t) == 0, "split %d", p);
    if (me < p) {
      for (int i = 0; i < 5; ++i) /* warm-up */
        shmem_team_sync(t);
      const double start = now();
      for (int i = 0; i < ITER; ++i)
        shmem_team_sync(t);
      const double per = (now() - start) / ITER;
      if (me == 0) {
        if (p == 2)
          t2 = per;
        printf("barrier_time: p=%d %.3f us ratio %.2f\n", p, per * 1e6, per / t2);
        CHECK(per > 0, "no simulated time for p=%d", p);
        CHECK(p < 16 || per / t2 < 0.75 * p / 2, "p=%d: %.2f times the 2-PE barrier, not logarithmic", p, per / t2);
        CHECK(p < 16 || per / prev < 1.6, "p=%d: %.2f times the p/2 barrier, not logarithmic", p, per / prev);
        prev = per;
        if (p * 2 > npes) /* the largest team: the figure a sweep reads (README, Sweeps) */
          printf("RESULT barrier_us=%.3f pes=%d\n", per * 1e6, p);
      }
      shmem_team_destroy(t);
    }
    shmem_barrier_all();
  }
  return progtest_finish("coll_barrier_time");
}
