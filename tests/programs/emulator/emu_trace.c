/* A known number of operations on a context of its own, for the emulator's trace test (trace.sh):
 * each PE issues K put_nbi, A atomic adds and G blocking gets to its right neighbour on context 1
 * (the first it creates), and checks the data they moved. */
#include <shmem.h>
#include <stdio.h>

#define K 40
#define A 6
#define G 10

static long dst[K];
static long src[K];
static long counter;
static long got[G];

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) != 0) {
    printf("emu_trace: PE %d: shmem_ctx_create failed\n", me);
    shmem_global_exit(1);
  }
  for (int i = 0; i < K; ++i)
    src[i] = me * 1000 + i;
  shmem_barrier_all();
  for (int i = 0; i < K; ++i)
    shmem_ctx_long_put_nbi(ctx, &dst[i], &src[i], 1, right);
  shmem_ctx_quiet(ctx);
  for (int i = 0; i < A; ++i)
    shmem_ctx_long_atomic_add(ctx, &counter, 1, right);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  for (int i = 0; i < G; ++i) /* right's dst[i] was written by this PE */
    got[i] = shmem_ctx_long_g(ctx, &dst[i], right);
  shmem_ctx_destroy(ctx);
  int bad = counter != A;
  for (int i = 0; i < K; ++i)
    bad |= dst[i] != left * 1000 + i;
  for (int i = 0; i < G; ++i)
    bad |= got[i] != me * 1000 + i;
  if (bad)
    printf("emu_trace: PE %d: wrong data (counter %ld)\n", me, counter);
  shmem_barrier_all();
  if (me == 0 && !bad)
    printf("emu_trace: OK on %d PEs\n", n);
  shmem_finalize();
  return bad;
}
