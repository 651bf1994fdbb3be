/* Uses what the runtime provides without extra flags: libm (no -lm), pthreads (no -pthread),
 * libc; plus a function from a shared library given with -L/-l (helper_scale, libconvhelper.so). */
#include <math.h>
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>

double helper_scale(double x);

static double result;

static void* work(void* arg)
{
  double x = *(double*)arg;
  result   = helper_scale(sqrt(x) + exp(0.0) + sin(0.0));
  return NULL;
}

int main(void)
{
  shmem_init();
  double x = 16.0 + shmem_my_pe() * 0.0;
  pthread_t t;
  pthread_create(&t, NULL, work, &x);
  pthread_join(t, NULL);
  shmem_barrier_all();
  if (shmem_my_pe() == 0)
    printf("runtime_libs: %.1f on %d PEs\n", result, shmem_n_pes());
  shmem_finalize();
  return result == 10.0 ? 0 : 1;
}
