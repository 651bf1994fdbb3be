/* A program with a thread-local variable that creates a thread: simulated threads of a PE would
 * share it, so the run is refused with one clear line (status 2) rather than silently wrong. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
static __thread int mine = 1;
static void* work(void* x)
{
  mine = 2;
  return x;
}
int main(void)
{
  shmem_init();
  pthread_t t;
  pthread_create(&t, NULL, work, NULL);
  pthread_join(t, NULL);
  printf("mine %d\n", mine);
  shmem_finalize();
  return 0;
}
