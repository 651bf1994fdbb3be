/* bench/shmem-vs-smpi, MPI side: each rank does N iterations of an 8-byte MPI_Put to rank
 * (me+1)%size into a window, then MPI_Win_flush(target). Run with smpirun.
 * Usage: mpi_put_flush N */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  long iters = argc > 1 ? atol(argv[1]) : 1000;
  long x = 0, v = me;
  MPI_Win win;
  MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int target = (me + 1) % n;
  /* A shared lock on the one target (not MPI_Win_lock_all: SMPI locks and unlocks every rank
   one by one, P^2 operations that dominate at 1024 ranks). */
  MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win);
  for (long i = 0; i < iters; i++) {
    MPI_Put(&v, 8, MPI_BYTE, target, 0, 8, MPI_BYTE, win);
    MPI_Win_flush(target, win);
  }
  MPI_Win_unlock(target, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (x != (me + n - 1) % n) {
    fprintf(stderr, "rank %d: got %ld, expected %d\n", me, x, (me + n - 1) % n);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
