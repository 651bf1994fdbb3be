/* OpenSHMEM 1.5 teams: SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED (checked against shmem_ptr),
 * queries, translation, configuration, strided splits (positive, negative stride, nested),
 * 2D splits (of the world and of a strided team), team contexts and shmem_ctx_get_team, what
 * SHMEM_TEAM_INVALID and an invalid triplet do, slot reuse over many create/destroy cycles and
 * the limit on live teams (creation fails on every PE, cleanly). */
#include <shmem.h>
#include <stdio.h>

#include "progtest.h"

static int me, npes;
static long val, sum;
static int probe;
static long mailbox[64];

/* Sum of the world PE numbers of the team's members, by a reduction over the team. */
static long team_sum(shmem_team_t t)
{
  val = me;
  shmem_team_sync(t);
  CHECK(shmem_long_sum_reduce(t, &sum, &val, 1) == 0, "sum_reduce");
  long s = sum;
  shmem_team_sync(t);
  return s;
}

/* The world PEs of a team, by translation; the sum of them. */
static long translated_sum(shmem_team_t t)
{
  long s = 0;
  for (int i = 0; i < shmem_team_n_pes(t); ++i)
    s += shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
  return s;
}

int main(void)
{
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();

  /* world */
  CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
  CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes, "world n_pes");
  shmem_team_config_t cfg = {.num_contexts = 99};
  CHECK(shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0 && cfg.num_contexts == 0,
        "world config %d", cfg.num_contexts);
  CHECK(team_sum(SHMEM_TEAM_WORLD) == (long)npes * (npes - 1) / 2, "world sum");

  /* SHMEM_TEAM_INVALID */
  shmem_team_t t = SHMEM_TEAM_WORLD;
  shmem_ctx_t c = SHMEM_CTX_DEFAULT;
  CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1, "invalid my_pe");
  CHECK(shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1, "invalid n_pes");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1, "invalid translate src");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) == -1, "invalid translate dest");
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_WORLD) == -1, "translate out of range");
  CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0, "invalid get_config");
  CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID,
        "split of invalid");
  shmem_team_t tx = SHMEM_TEAM_WORLD, ty = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 2, NULL, 0, &tx, NULL, 0, &ty) != 0 && tx == SHMEM_TEAM_INVALID &&
            ty == SHMEM_TEAM_INVALID,
        "split_2d of invalid");
  CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &c) != 0 && c == SHMEM_CTX_INVALID, "ctx of invalid team");
  shmem_team_destroy(SHMEM_TEAM_INVALID); /* no operation */
  CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 && t == SHMEM_TEAM_INVALID, "get_team of invalid ctx");
  /* an invalid triplet: non-zero and SHMEM_TEAM_INVALID everywhere */
  t = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes + 1, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID,
        "oversized triplet");
  t = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, npes - 1, 1, 2, NULL, 0, &t) != 0 && t == SHMEM_TEAM_INVALID,
        "triplet past the end");

  /* shared: the PEs shmem_ptr reaches */
  {
    int n_local = 0;
    long s = 0;
    for (int p = 0; p < npes; ++p)
      if (shmem_ptr(&probe, p) != NULL) {
        ++n_local;
        s += p;
      }
    CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == n_local, "shared n_pes %d, shmem_ptr reaches %d",
          shmem_team_n_pes(SHMEM_TEAM_SHARED), n_local);
    const int my = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    CHECK(my >= 0 && shmem_team_translate_pe(SHMEM_TEAM_SHARED, my, SHMEM_TEAM_WORLD) == me, "shared my_pe");
    CHECK(translated_sum(SHMEM_TEAM_SHARED) == s, "shared members");
    CHECK(team_sum(SHMEM_TEAM_SHARED) == s, "shared sum_reduce");
    if (me == 0)
      printf("team_split: SHMEM_TEAM_SHARED has %d PEs\n", n_local);
  }

  /* strided: evens (with a configuration), odds in reverse, nested (every 4th) */
  shmem_team_t evens, odds_rev, fourths = SHMEM_TEAM_INVALID;
  shmem_team_config_t two = {.num_contexts = 2};
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, &two, SHMEM_TEAM_NUM_CONTEXTS, &evens) == 0,
        "split evens");
  int nodds = npes / 2;
  int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, nodds > 0 ? 2 * nodds - 1 : 0, -2, nodds > 0 ? nodds : 1, NULL,
                                    0, &odds_rev);
  CHECK(rc == 0, "split odds reversed");
  if (me % 2 == 0) {
    CHECK((evens != SHMEM_TEAM_INVALID && odds_rev == SHMEM_TEAM_INVALID) || (nodds == 0 && me == 0),
          "evens membership");
    CHECK(shmem_team_my_pe(evens) == me / 2, "evens my_pe %d", shmem_team_my_pe(evens));
    CHECK(shmem_team_get_config(evens, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == 0 && cfg.num_contexts == 2, "evens config");
    long want = 0;
    for (int p = 0; p < npes; p += 2)
      want += p;
    CHECK(team_sum(evens) == want && translated_sum(evens) == want, "evens sum");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, evens) == me / 2, "world -> evens");
    CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 1, evens) == -1, "odd PE not in evens");
    CHECK(shmem_team_split_strided(evens, 0, 2, (shmem_team_n_pes(evens) + 1) / 2, NULL, 0, &fourths) == 0,
          "split fourths");
    if (me % 4 == 0) {
      CHECK(shmem_team_my_pe(fourths) == me / 4, "fourths my_pe");
      CHECK(shmem_team_translate_pe(fourths, shmem_team_my_pe(fourths), SHMEM_TEAM_WORLD) == me, "fourths -> world");
      CHECK(shmem_team_translate_pe(fourths, shmem_team_my_pe(fourths), evens) == me / 2, "fourths -> evens");
      long w4 = 0;
      for (int p = 0; p < npes; p += 4)
        w4 += p;
      CHECK(team_sum(fourths) == w4, "fourths sum");
    } else {
      CHECK(fourths == SHMEM_TEAM_INVALID, "fourths membership");
    }
  } else {
    CHECK(evens == SHMEM_TEAM_INVALID, "odd PE in evens");
    CHECK(shmem_team_my_pe(odds_rev) == nodds - 1 - me / 2, "odds reversed my_pe %d", shmem_team_my_pe(odds_rev));
    long want = 0;
    for (int p = 1; p < npes; p += 2)
      want += p;
    CHECK(team_sum(odds_rev) == want, "odds sum");
  }

  /* team contexts */
  if (evens != SHMEM_TEAM_INVALID) {
    shmem_ctx_t tc;
    shmem_team_t back = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_create_ctx(evens, 0, &tc) == 0, "create_ctx");
    CHECK(shmem_ctx_get_team(tc, &back) == 0 && back == evens, "ctx_get_team of a team context");
    /* put to the next even PE through the team context (world PE numbers) */
    const int ne = shmem_team_n_pes(evens), my = shmem_team_my_pe(evens);
    const int to = shmem_team_translate_pe(evens, (my + 1) % ne, SHMEM_TEAM_WORLD);
    shmem_ctx_long_p(tc, &mailbox[0], 1000 + me, to);
    shmem_ctx_quiet(tc);
    shmem_team_sync(evens);
    const int from = shmem_team_translate_pe(evens, (my + ne - 1) % ne, SHMEM_TEAM_WORLD);
    CHECK(mailbox[0] == 1000 + from, "team ctx put: %ld, want %d", mailbox[0], 1000 + from);
    shmem_ctx_destroy(tc);
  }
  {
    shmem_team_t w = SHMEM_TEAM_INVALID;
    shmem_ctx_t plain;
    CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &w) == 0 && w == SHMEM_TEAM_WORLD, "default ctx team");
    if (shmem_ctx_create(0, &plain) == 0) {
      w = SHMEM_TEAM_INVALID;
      CHECK(shmem_ctx_get_team(plain, &w) == 0 && w == SHMEM_TEAM_WORLD, "created ctx team");
      shmem_ctx_destroy(plain);
    }
  }
  shmem_barrier_all();
  shmem_team_destroy(fourths);
  shmem_team_destroy(evens);
  shmem_team_destroy(odds_rev);

  /* 2D: xrange 3 over the world; then xrange 2 over the evens */
  {
    shmem_team_t xt, yt;
    CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &xt, NULL, 0, &yt) == 0, "split_2d");
    const int x = me % 3, y = me / 3;
    CHECK(shmem_team_my_pe(xt) == x && shmem_team_my_pe(yt) == y, "2d coordinates (%d,%d)", shmem_team_my_pe(xt),
          shmem_team_my_pe(yt));
    const int nx = npes - 3 * y < 3 ? npes - 3 * y : 3;
    const int ny = (npes - x + 2) / 3;
    CHECK(shmem_team_n_pes(xt) == nx && shmem_team_n_pes(yt) == ny, "2d sizes %d %d", shmem_team_n_pes(xt),
          shmem_team_n_pes(yt));
    long wx = 0, wy = 0;
    for (int i = 0; i < nx; ++i)
      wx += 3 * y + i;
    for (int i = 0; i < ny; ++i)
      wy += x + 3 * i;
    CHECK(team_sum(xt) == wx && team_sum(yt) == wy, "2d sums");
    shmem_team_destroy(xt);
    shmem_team_destroy(yt);
  }
  shmem_barrier_all();

  /* many create/destroy cycles: slots are reused */
  for (int i = 0; i < 40; ++i) {
    shmem_team_t r;
    const int size = npes - i % npes;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, size, NULL, 0, &r) == 0, "cycle %d split", i);
    if (me < size) {
      CHECK(team_sum(r) == (long)size * (size - 1) / 2, "cycle %d sum", i);
      shmem_team_destroy(r);
    }
  }
  shmem_barrier_all();

  /* the limit on live teams: creation then fails on every PE, with SHMEM_TEAM_INVALID */
  {
    shmem_team_t live[64];
    int made = 0;
    while (made < 64) {
      shmem_team_t nt = SHMEM_TEAM_WORLD;
      if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &nt) != 0) {
        CHECK(nt == SHMEM_TEAM_INVALID, "failed split leaves SHMEM_TEAM_INVALID");
        break;
      }
      live[made++] = nt;
    }
    CHECK(made < 64, "no limit on live teams");
    if (made > 0)
      CHECK(team_sum(live[made - 1]) == (long)npes * (npes - 1) / 2, "last team works");
    for (int i = 0; i < made; ++i)
      shmem_team_destroy(live[i]);
    if (me == 0)
      printf("team_split: %d user teams at once\n", made);
    shmem_team_t again;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &again) == 0, "split after the limit");
    shmem_team_destroy(again);
  }
  return progtest_finish("team_split");
}
