/* Seed 003's non-blocking broadcasts and reductions, several outstanding on one active set with
 * different data (seed names; the broadcasts as shmemx_broadcast64_aset_req, for their roots), whatever job.collectives.broadcast / reduce select (with
 * `triggered` the NICs run the integer ones, each call on counters of its own). Per round:
 *   - every PE starts BC broadcasts, call j rooted at member (round + j) % n, each into its own
 *     dest, then RC reductions (long sum, int max, long long xor, short min, and a double max,
 *     which the NICs do not combine: it runs the library's protocol between offloaded calls),
 *     all outstanding together, each with its own pSync;
 *   - the last PE sleeps 20 us before starting them, and PE 1 between its broadcasts, so later
 *     calls' data reach some PEs before earlier ones';
 *   - the requests complete out of order: the odd calls polled with shmem_test_request until
 *     complete, the even ones waited for, last first;
 *   - every element of every dest is checked against its value, computed locally.
 * A barrier ends the round (the dests are used again). */
#include <shmem.h>
#include <shmemx.h>
#include <string.h>
#include <unistd.h>

#include "progtest.h"

#define ROUNDS 4
#define BC 4
#define NB 6 /* longs per broadcast */
#define MAX_PES 32

static long bsrc[BC][NB], bdst[BC][NB];
static long lsrc[5], ldst[5], lwrk[5 * MAX_PES];
static int isrc[7], idst[7], iwrk[7 * MAX_PES];
static long long usrc[3], udst[3], uwrk[3 * MAX_PES];
static short ssrc[4], sdst[4], swrk[4 * MAX_PES];
static double dsrc[2], ddst[2], dwrk[2 * MAX_PES];
static long pSync[BC + 5][SHMEM_SYNC_SIZE];

static long bval(int r, int j, int root, int i)
{
  return (long)r * 1000003L + (long)j * 10007L + (long)root * 101L + i;
}
static long lval(int r, int pe, int i) { return (long)(r + 1) * (pe + 3) * (i + 7) - pe; }
static int ival(int r, int pe, int i) { return (pe * 37 + i * 11 + r * 5) % 97 - 40; }
static long long uval(int r, int pe, int i) { return (long long)(0x9e3779b97f4a7c15ull * (unsigned long long)(pe + 1)) ^ (i << 8) ^ r; }
static short sval(int r, int pe, int i) { return (short)((pe * 13 + i * 7 + r) % 50 - 25); }
static double dval(int r, int pe, int i) { return 0.5 * (pe * 3 + i + r); }

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  CHECK(npes <= MAX_PES, "at most %d PEs", MAX_PES);
  for (int k = 0; k < BC + 5; ++k)
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i)
      pSync[k][i] = SHMEM_SYNC_VALUE;
  shmem_aset* all = shmem_create_strided_aset(0, 1, npes);
  shmem_barrier_all();
  long polls = 0;
  for (int r = 1; r <= ROUNDS; ++r) {
    for (int j = 0; j < BC; ++j)
      for (int i = 0; i < NB; ++i) {
        bsrc[j][i] = bval(r, j, me, i);
        bdst[j][i] = -1;
      }
    for (int i = 0; i < 5; ++i) lsrc[i] = lval(r, me, i), ldst[i] = -1;
    for (int i = 0; i < 7; ++i) isrc[i] = ival(r, me, i), idst[i] = -1;
    for (int i = 0; i < 3; ++i) usrc[i] = uval(r, me, i), udst[i] = 0;
    for (int i = 0; i < 4; ++i) ssrc[i] = sval(r, me, i), sdst[i] = -1;
    for (int i = 0; i < 2; ++i) dsrc[i] = dval(r, me, i), ddst[i] = -1;
    shmem_barrier_all();
    if (me == npes - 1)
      usleep(20);
    shmem_request_handle_t req[BC + 5];
    for (int j = 0; j < BC; ++j) {
      shmemx_broadcast64_aset_req(bdst[j], bsrc[j], NB, (r + j) % npes, all, pSync[j], &req[j]);
      if (me == 1)
        usleep(3);
    }
    shmem_long_sum_to_all_nb(ldst, lsrc, 5, all, lwrk, pSync[BC], &req[BC]);
    shmem_int_max_to_all_nb(idst, isrc, 7, all, iwrk, pSync[BC + 1], &req[BC + 1]);
    shmem_double_max_to_all_nb(ddst, dsrc, 2, all, dwrk, pSync[BC + 2], &req[BC + 2]);
    shmem_longlong_xor_to_all_nb(udst, usrc, 3, all, uwrk, pSync[BC + 3], &req[BC + 3]);
    shmem_short_min_to_all_nb(sdst, ssrc, 4, all, swrk, pSync[BC + 4], &req[BC + 4]);
    for (int k = 1; k < BC + 5; k += 2)
      while (!shmem_test_request(req[k]))
        ++polls;
    for (int k = (BC + 4) / 2 * 2; k >= 0; k -= 2)
      shmem_wait_request(req[k]);
    for (int j = 0; j < BC; ++j) {
      const int root = (r + j) % npes;
      for (int i = 0; i < NB; ++i)
        CHECK(me == root ? bdst[j][i] == -1 : bdst[j][i] == bval(r, j, root, i),
              "round %d, broadcast %d (root %d), element %d: %ld", r, j, root, i, bdst[j][i]);
    }
    for (int i = 0; i < 5; ++i) {
      long v = 0;
      for (int pe = 0; pe < npes; ++pe) v += lval(r, pe, i);
      CHECK(ldst[i] == v, "round %d, long sum, element %d: %ld, not %ld", r, i, ldst[i], v);
    }
    for (int i = 0; i < 7; ++i) {
      int v = ival(r, 0, i);
      for (int pe = 1; pe < npes; ++pe) v = ival(r, pe, i) > v ? ival(r, pe, i) : v;
      CHECK(idst[i] == v, "round %d, int max, element %d: %d, not %d", r, i, idst[i], v);
    }
    for (int i = 0; i < 3; ++i) {
      long long v = 0;
      for (int pe = 0; pe < npes; ++pe) v ^= uval(r, pe, i);
      CHECK(udst[i] == v, "round %d, long long xor, element %d: %llx, not %llx", r, i, udst[i], v);
    }
    for (int i = 0; i < 4; ++i) {
      short v = sval(r, 0, i);
      for (int pe = 1; pe < npes; ++pe) v = sval(r, pe, i) < v ? sval(r, pe, i) : v;
      CHECK(sdst[i] == v, "round %d, short min, element %d: %d, not %d", r, i, sdst[i], v);
    }
    for (int i = 0; i < 2; ++i) {
      const double v = dval(r, npes - 1, i);
      CHECK(ddst[i] == v, "round %d, double max, element %d: %g, not %g", r, i, ddst[i], v);
    }
    shmem_barrier_all();
  }
  if (me == 0)
    printf("nbc_offload_data: %d rounds of %d broadcasts and 5 reductions outstanding, PE 0 polled %ld times\n", ROUNDS,
           BC, polls);
  shmem_delete_aset(all);
  return progtest_finish("nbc_offload_data");
}
