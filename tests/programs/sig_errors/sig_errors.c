/* Misuse of the signal, multi-element wait and lock routines, one case per run (argv[1]): PE 1
 * commits it, PE 0 waits in a barrier. Each ends the job with status 2 and one line on stderr
 * naming the routine and the bad value. Run with -np 2. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long data[4];
static uint64_t sig;
static int ivars[4];

int main(int argc, char** argv)
{
  shmem_init();
  const char* what = argc > 1 ? argv[1] : "";
  if (shmem_my_pe() == 1) {
    if (strcmp(what, "bad_sig_op") == 0) {
      long v[4] = {1, 2, 3, 4};
      shmem_long_put_signal(data, v, 4, &sig, 1, 7, 0);
    } else if (strcmp(what, "bad_cmp") == 0) {
      shmem_int_wait_until_all(ivars, 4, NULL, 9, 0);
    } else if (strcmp(what, "lock_not_symmetric") == 0) {
      long on_stack = 0;
      shmem_set_lock(&on_stack);
      printf("%ld\n", on_stack);
    }
    printf("not reached: %s\n", what);
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
