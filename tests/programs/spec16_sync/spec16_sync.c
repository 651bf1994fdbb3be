/* OpenSHMEM 1.6 ordering, signal and session additions:
 *  - shmem_pe_quiet / shmem_ctx_pe_quiet complete non-blocking puts (default and created
 *    contexts), are accepted with (NULL, 0), and a target list naming several PEs;
 *  - shmem_signal_set / shmem_signal_add and their shmem_ctx_ forms (and the C11 ctx-first
 *    spelling shmem_signal_add(ctx, ...)) update a remote signal that shmem_signal_wait_until and
 *    shmem_signal_fetch observe;
 *  - sessions: shmem_ctx_session_start/stop with SHMEM_CTX_SESSION_BATCH, a
 *    shmem_ctx_session_config_t with SHMEM_CTX_SESSION_TOTAL_OPS, mask 0 with a NULL config,
 *    repeated starts and stops, SHMEM_CTX_INVALID; operations inside a session move their data;
 *  - the deprecated constants _SHMEM_ALLTOALL_SYNC_SIZE, _SHMEM_ALLTOALLS_SYNC_SIZE, the version
 *    (still 1.5), and the pshmem_ names of the new routines.
 * Argument "badmask": a session configuration mask with an undefined bit (misuse). */
#include <pshmem.h>
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "progtest.h"

#define BIG 4096

static long data[BIG];
static long flag;
static uint64_t sig;
static long batch[256];

int main(int argc, char** argv)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;

  if (argc > 1 && strcmp(argv[1], "badmask") == 0) {
    shmem_ctx_session_config_t cfg = {16};
    shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, &cfg, 6);
    printf("not reached\n");
    return 0;
  }

  /* constants */
  CHECK(_SHMEM_ALLTOALL_SYNC_SIZE == SHMEM_ALLTOALL_SYNC_SIZE, "_SHMEM_ALLTOALL_SYNC_SIZE");
  CHECK(_SHMEM_ALLTOALLS_SYNC_SIZE == SHMEM_ALLTOALLS_SYNC_SIZE, "_SHMEM_ALLTOALLS_SYNC_SIZE");
  CHECK(SHMEM_MAJOR_VERSION == 1 && SHMEM_MINOR_VERSION == 5, "version stays 1.5");
  CHECK(SHMEM_CTX_SESSION_BATCH != 0 && SHMEM_CTX_SESSION_TOTAL_OPS != 0, "session constants are non-zero");

  shmem_ctx_t ctx;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
    ctx = SHMEM_CTX_DEFAULT;

  /* pe_quiet: a large non-blocking put, completed by shmem_pe_quiet on its target, then a flag
   * set by an atomic: the neighbour that sees the flag must see every element. */
  long v[BIG];
  for (int round = 0; round < 3; ++round) {
    for (int k = 0; k < BIG; ++k)
      v[k] = (long)me * 100000 + round * 10000 + k;
    shmem_ctx_t c = round == 1 ? ctx : SHMEM_CTX_DEFAULT;
    shmem_ctx_long_put_nbi(c, data, v, BIG, right);
    if (round == 0) {
      shmem_pe_quiet(&right, 1);
    } else if (round == 1) {
      const int targets[2] = {right, left};
      shmem_ctx_pe_quiet(ctx, targets, 2);
    } else {
      const int targets[3] = {right, left, me};
      shmem_ctx_pe_quiet(SHMEM_CTX_DEFAULT, targets, 3);
    }
    /* On a shared node (--pes-per-node), the neighbour's memory is read directly at once: the
     * data must already be there when shmem_pe_quiet returns. */
    const long* direct = (const long*)shmem_ptr(data, right);
    if (direct != NULL && right != me) {
      int missing = 0;
      for (int k = 0; k < BIG; ++k)
        missing += direct[k] != v[k];
      CHECK(missing == 0, "round %d: %d of %d elements not at the target when shmem_pe_quiet returns", round,
            missing, BIG);
    }
    shmem_long_atomic_set(&flag, round + 1, right);
    shmem_long_wait_until(&flag, SHMEM_CMP_EQ, round + 1);
    int bad = 0;
    for (int k = 0; k < BIG; ++k)
      bad += data[k] != (long)left * 100000 + round * 10000 + k;
    CHECK(bad == 0, "round %d: %d of %d elements missing after shmem_pe_quiet and the flag", round, bad, BIG);
    shmem_barrier_all();
  }
  shmem_pe_quiet(NULL, 0);
  shmem_ctx_pe_quiet(ctx, NULL, 0);
  pshmem_pe_quiet(NULL, 0);

  /* signal_set / signal_add, seen by shmem_signal_wait_until */
  shmem_signal_set(&sig, 5, right);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 5) == 5, "signal_set 5");
  shmem_barrier_all();
  shmem_signal_add(&sig, 3, right);
  shmem_ctx_signal_add(ctx, &sig, 4, right);
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 12) == 12, "signal_add 3 + ctx signal_add 4 on 5");
  shmem_barrier_all();
  shmem_ctx_signal_set(ctx, &sig, 100, right);
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_GE, 100) == 100, "ctx signal_set 100");
  shmem_barrier_all();
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
  shmem_signal_add(ctx, &sig, 20, right); /* C11: the ctx-first spelling */
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 120) == 120, "C11 shmem_signal_add(ctx, ...) 20");
  shmem_barrier_all();
  shmem_signal_set(SHMEM_CTX_DEFAULT, &sig, 0, right); /* C11: the ctx-first spelling */
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 0) == 0, "C11 shmem_signal_set(ctx, ...) 0");
#endif
  shmem_barrier_all();
  pshmem_signal_set(&sig, 7, right);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 7) == 7, "pshmem_signal_set 7");
  shmem_barrier_all(); /* else the add may land before the neighbour has seen the 7 it waits for */
  pshmem_ctx_signal_add(ctx, &sig, 1, right);
  shmem_ctx_quiet(ctx);
  CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 8) == 8, "pshmem_ctx_signal_add 1");
  CHECK(shmem_signal_fetch(&sig) == 8, "signal_fetch");
  shmem_barrier_all();

  /* sessions */
  shmem_ctx_session_config_t cfg;
  cfg.total_ops = 256;
  shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  for (int k = 0; k < 256; ++k)
    shmem_ctx_long_p(ctx, &batch[k], (long)me * 1000 + k, right);
  shmem_ctx_session_start(ctx, 0, NULL, 0); /* a second start combines options: accepted */
  shmem_ctx_session_stop(ctx);
  shmem_ctx_session_stop(ctx); /* stopping a stopped session has no effect */
  shmem_ctx_quiet(ctx);        /* session_stop does not quiet */
  shmem_barrier_all();
  int bad = 0;
  for (int k = 0; k < 256; ++k)
    bad += batch[k] != (long)left * 1000 + k;
  CHECK(bad == 0, "%d of 256 values put inside a session are wrong", bad);
  shmem_barrier_all(); /* the neighbour's atomic below changes batch[0], which was just checked */
  shmem_ctx_session_start(SHMEM_CTX_DEFAULT, SHMEM_CTX_SESSION_BATCH, NULL, 0);
  shmem_long_atomic_add(&batch[0], 1, right);
  shmem_ctx_session_stop(SHMEM_CTX_DEFAULT);
  shmem_ctx_session_start(SHMEM_CTX_INVALID, SHMEM_CTX_SESSION_BATCH, NULL, SHMEM_CTX_SESSION_TOTAL_OPS);
  shmem_ctx_session_stop(SHMEM_CTX_INVALID);
  pshmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
  pshmem_ctx_session_stop(ctx);
  shmem_barrier_all();
  CHECK(batch[0] == (long)left * 1000 + 1, "atomic inside a default-context session");

  if (ctx != SHMEM_CTX_DEFAULT)
    shmem_ctx_destroy(ctx);
  int rc = progtest_finish("spec16_sync");
  shmem_finalize();
  return rc;
}
