/* Misuse of the API, one case per run (argv[1]); PE 1 commits it, PE 0 waits in a barrier.
 * Each must end the job with status 2 and one line on stderr naming the routine and the bad
 * value; nothing after the misuse runs. Run with -np 2. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char small[64];
static long tail_array[4];
static int flag;

static void misuse(const char* what, int npes)
{
  char src[64] = "data";
  if (strcmp(what, "invalid_pe") == 0) {
    shmem_putmem(small, src, 8, npes); /* PEs are 0..npes-1 */
  } else if (strcmp(what, "invalid_pe_negative") == 0) {
    shmem_int_p(&flag, 1, -1);
  } else if (strcmp(what, "not_symmetric") == 0) {
    char on_stack[64];
    shmem_putmem(on_stack, src, 8, 0);
    printf("%c\n", on_stack[0]);
  } else if (strcmp(what, "out_of_bounds_static") == 0) {
    /* Far beyond the end of the program's static data (and not in the symmetric heap). */
    const size_t n = 64u << 20;
    char* big = calloc(n, 1);
    shmem_putmem(small, big, n, 0);
    free(big);
  } else if (strcmp(what, "out_of_bounds_heap") == 0) {
    /* A block near the end of a 1 MiB symmetric heap, written past the heap's end. */
    long* block = shmem_malloc(900 * 1024);
    long* src_l = calloc(132 * 1024, sizeof(long));
    shmem_long_put(block, src_l, 132 * 1024, 0); /* 1056 KiB: more than the whole heap */
    free(src_l);
  } else if (strcmp(what, "destroyed_ctx") == 0) {
    shmem_ctx_t ctx;
    if (shmem_ctx_create(0, &ctx) != 0)
      return;
    shmem_ctx_destroy(ctx);
    shmem_ctx_putmem(ctx, small, src, 8, 0);
  } else if (strcmp(what, "invalid_ctx") == 0) {
    shmem_ctx_int_p(SHMEM_CTX_INVALID, &flag, 1, 0);
  } else if (strcmp(what, "free_invalid") == 0) {
    shmem_free(small);
  } else if (strcmp(what, "destroy_default") == 0) {
    shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
  } else if (strcmp(what, "bad_cmp") == 0) {
    shmem_int_wait_until(&flag, 42, 0);
  }
  (void)tail_array;
}

int main(int argc, char** argv)
{
  const char* what = argc > 1 ? argv[1] : "";
  if (strcmp(what, "before_init") == 0) {
    /* PE 1 (argv is the same everywhere: pick by a racy-free rule: the second PE to get here is
     * not knowable before init, so every PE misuses; the first report ends the job). */
    char src[8] = "x";
    shmem_putmem(small, src, 1, 0);
    printf("not reached\n");
    return 0;
  }
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  if (strcmp(what, "after_finalize") == 0) {
    shmem_finalize();
    if (me == 1) {
      char src[8] = "x";
      shmem_putmem(small, src, 1, 0);
      printf("not reached\n");
    }
    return 0;
  }
  if (strcmp(what, "out_of_bounds_heap") == 0 && me == 0)
    (void)shmem_malloc(900 * 1024); /* collective: PE 0 takes part too */
  if (me == 1)
    misuse(what, npes);
  shmem_barrier_all();
  printf("not reached: PE %d passed the misuse of %s\n", me, what);
  shmem_finalize();
  return 0;
}
