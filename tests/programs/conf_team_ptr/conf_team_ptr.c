/* shmem_team_ptr (OpenSHMEM 1.5 §9.2): a local address of a symmetric object on a team member when
 * load/store reaches it (PEs of the caller's node: the same PEs for which shmem_ptr gives one),
 * NULL otherwise and for SHMEM_TEAM_INVALID. Checked against shmem_ptr on SHMEM_TEAM_WORLD,
 * SHMEM_TEAM_SHARED (every member reachable) and a split team (team PE numbers translated), with
 * stores through the returned pointers seen by their owners. Run with several PEs per node and
 * with one. */
#include <shmem.h>
#include <stdint.h>

#include "progtest.h"

static long cell[4];
static long* heap_cell;

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  heap_cell    = shmem_malloc(4 * sizeof(long));

  /* World: the same answer as shmem_ptr, for static and heap objects. */
  int reachable = 0;
  for (int pe = 0; pe < npes; ++pe) {
    void* t = shmem_team_ptr(SHMEM_TEAM_WORLD, &cell[1], pe);
    CHECK(t == shmem_ptr(&cell[1], pe), "team_ptr(WORLD, static, %d) == shmem_ptr", pe);
    CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &heap_cell[2], pe) == shmem_ptr(&heap_cell[2], pe),
          "team_ptr(WORLD, heap, %d) == shmem_ptr", pe);
    reachable += t != NULL;
  }
  CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &cell[0], me) == &cell[0], "team_ptr to myself is my own address");
  CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &cell[0], 0) == NULL, "team_ptr(SHMEM_TEAM_INVALID) is NULL");
  int on_stack = 0;
  CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &on_stack, me) == NULL, "team_ptr of a private object is NULL");

  /* Shared team: every member is reachable; store my PE number into each member's cell[me % 4]. */
  const int nshared = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  CHECK(nshared == reachable, "SHMEM_TEAM_SHARED has %d PEs, shmem_ptr reaches %d", nshared, reachable);
  shmem_barrier_all();
  for (int i = 0; i < nshared; ++i) {
    long* p = shmem_team_ptr(SHMEM_TEAM_SHARED, &heap_cell[0], i);
    CHECK(p != NULL, "team_ptr(SHARED, %d) is NULL", i);
    const int world = shmem_team_translate_pe(SHMEM_TEAM_SHARED, i, SHMEM_TEAM_WORLD);
    CHECK(p == shmem_ptr(&heap_cell[0], world), "team_ptr(SHARED, %d) == shmem_ptr(world PE %d)", i, world);
    if (p != NULL && i == (shmem_team_my_pe(SHMEM_TEAM_SHARED) + 1) % nshared)
      *p = 100 + me; /* a store into my right neighbour in the shared team */
  }
  shmem_barrier_all();
  if (nshared > 1) {
    const int left_in_team = (shmem_team_my_pe(SHMEM_TEAM_SHARED) + nshared - 1) % nshared;
    const int left_world   = shmem_team_translate_pe(SHMEM_TEAM_SHARED, left_in_team, SHMEM_TEAM_WORLD);
    CHECK(heap_cell[0] == 100 + left_world, "store through team_ptr: %ld", heap_cell[0]);
  }

  /* A split team (the odd world PEs): team PE i is world PE 2i+1. */
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  if (npes > 1) {
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
      for (int i = 0; i < shmem_team_n_pes(odd); ++i)
        CHECK(shmem_team_ptr(odd, &cell[3], i) == shmem_ptr(&cell[3], 2 * i + 1),
              "team_ptr(odd team, %d) == shmem_ptr(world PE %d)", i, 2 * i + 1);
      shmem_team_destroy(odd);
    }
  }
  if (me == 0)
    printf("PE 0 reaches %d of %d PEs by load/store\n", reachable, npes);
  shmem_free(heap_cell);
  const int rc = progtest_finish("conf_team_ptr");
  shmem_finalize();
  return rc;
}
