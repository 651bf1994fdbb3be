/* Launcher and library conventions of third-party suites (tests/programs/launch_conv.cmake).
 *   launch_conv env VAR...   every PE prints "launch_conv: PE <me> VAR=<value>" (getenv, in PE order)
 *                            and checks that main's envp agrees with getenv
 *   launch_conv nodes        every PE prints its node-mates: "launch_conv: PE <me> shares a node
 *                            with <n> PEs from PE <first>" (SHMEM_TEAM_SHARED)
 *   launch_conv reinit K B   K rounds of shmem_init .. shmem_finalize, as a test driver does around
 *                            each test case; each round allocates B bytes, a context and a team
 *                            without freeing them (the last shmem_finalize releases them), puts
 *                            to the next PE and checks
 *   launch_conv nested       shmem_init twice (the second through shmem_init_thread), shmem_finalize
 *                            twice: the library stays usable after the first finalize
 * Each mode ends with "launch_conv: OK on <n> PEs" from PE 0 when every check held. */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

static int round_seen; /* static data survives re-initialization */

static void in_pe_order(void (*what)(int, char**), int argc, char** argv)
{
  for (int pe = 0; pe < shmem_n_pes(); ++pe) {
    if (pe == shmem_my_pe()) {
      what(argc, argv);
      fflush(stdout);
    }
    shmem_barrier_all();
  }
}

static char** g_envp;

static void print_env(int argc, char** argv)
{
  for (int i = 2; i < argc; ++i) {
    const char* v  = getenv(argv[i]);
    const size_t n = strlen(argv[i]);
    const char* in_envp = NULL;
    for (char** e = g_envp; e != NULL && *e != NULL; ++e)
      if (strncmp(*e, argv[i], n) == 0 && (*e)[n] == '=')
        in_envp = *e + n + 1;
    CHECK((v == NULL && in_envp == NULL) || (v != NULL && in_envp != NULL && strcmp(v, in_envp) == 0),
          "getenv(%s) = %s, envp has %s", argv[i], v ? v : "(unset)", in_envp ? in_envp : "(unset)");
    printf("launch_conv: PE %d %s=%s\n", shmem_my_pe(), argv[i], v ? v : "(unset)");
  }
}

static void print_node(int argc, char** argv)
{
  (void)argc;
  (void)argv;
  const int mates = shmem_team_n_pes(SHMEM_TEAM_SHARED);
  const int first = shmem_team_translate_pe(SHMEM_TEAM_SHARED, 0, SHMEM_TEAM_WORLD);
  printf("launch_conv: PE %d shares a node with %d PEs from PE %d\n", shmem_my_pe(), mates, first);
}

static int reinit(int rounds, size_t bytes)
{
  for (int r = 0; r < rounds; ++r) {
    shmem_init();
    const int me = shmem_my_pe(), npes = shmem_n_pes();
    CHECK(round_seen == r, "round %d: static data says %d", r, round_seen);
    int* block = shmem_malloc(bytes);
    CHECK(block != NULL, "round %d: shmem_malloc(%zu) returned NULL", r, bytes);
    shmem_ctx_t ctx = SHMEM_CTX_INVALID;
    CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "round %d: shmem_ctx_create failed", r);
    shmem_team_t half = SHMEM_TEAM_INVALID;
    CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &half) == 0 && half != SHMEM_TEAM_INVALID,
          "round %d: shmem_team_split_strided failed", r);
    if (block != NULL && ctx != SHMEM_CTX_INVALID) {
      block[0] = -1;
      shmem_barrier_all();
      shmem_ctx_int_p(ctx, block, 1000 * r + me, (me + 1) % npes);
      shmem_ctx_quiet(ctx);
      shmem_barrier_all();
      const int from = (me + npes - 1) % npes;
      CHECK(block[0] == 1000 * r + from, "round %d: got %d from PE %d, expected %d", r, block[0], from, 1000 * r + from);
    }
    ++round_seen;
    shmem_finalize(); /* releases the block, the context and the team */
  }
  shmem_init();
  const int rc = progtest_finish("launch_conv");
  shmem_finalize();
  return rc;
}

static int nested(void)
{
  shmem_init();
  int provided = -1;
  CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0, "nested shmem_init_thread failed");
  CHECK(provided == SHMEM_THREAD_SINGLE, "nested shmem_init_thread provided %d, expected the level in force %d",
        provided, SHMEM_THREAD_SINGLE);
  static long value;
  shmem_finalize(); /* the first of two: a barrier, the library stays initialized */
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  shmem_long_p(&value, me + 1, (me + 1) % npes);
  shmem_barrier_all();
  CHECK(value == (me + npes - 1) % npes + 1, "after the first shmem_finalize: got %ld", value);
  return progtest_finish("launch_conv");
}

int main(int argc, char** argv, char** envp)
{
  g_envp = envp;
  if (argc >= 4 && strcmp(argv[1], "reinit") == 0)
    return reinit(atoi(argv[2]), (size_t)strtoull(argv[3], NULL, 10));
  if (argc >= 2 && strcmp(argv[1], "nested") == 0) {
    const int rc = nested();
    shmem_finalize();
    return rc;
  }
  shmem_init();
  if (argc >= 2 && strcmp(argv[1], "env") == 0)
    in_pe_order(print_env, argc, argv);
  else if (argc >= 2 && strcmp(argv[1], "nodes") == 0)
    in_pe_order(print_node, argc, argv);
  else
    CHECK(0, "usage: launch_conv env VAR... | nodes | reinit K BYTES | nested");
  const int rc = progtest_finish("launch_conv");
  shmem_finalize();
  return rc;
}
