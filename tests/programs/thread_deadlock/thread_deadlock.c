/* Two threads take two mutexes in opposite orders, with a barrier in between so that each holds
 * its first: a deadlock between threads, which the run must report (status 3). */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;
static void* one(void* x)
{
  pthread_mutex_lock(&a);
  pthread_barrier_wait(&bar);
  pthread_mutex_lock(&b);
  return x;
}
static void* two(void* x)
{
  pthread_mutex_lock(&b);
  pthread_barrier_wait(&bar);
  pthread_mutex_lock(&a);
  return x;
}
int main(void)
{
  shmem_init();
  pthread_barrier_init(&bar, NULL, 2);
  pthread_t t1, t2;
  pthread_create(&t1, NULL, one, NULL);
  pthread_create(&t2, NULL, two, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  printf("not reached\n");
  shmem_finalize();
  return 0;
}
