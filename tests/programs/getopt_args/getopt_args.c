/* getopt on every PE (libc's optind/optarg are per PE): parse before shmem_init, parse again
 * after it (optind reset) and after a barrier, with PEs interleaving their parsing through
 * barriers; argv is identical on every PE and each PE has its own copy of it; rand, random and
 * drand48 have per-PE state. Prints one line
 * per PE (in PE order) and "getopt_args: OK on N PEs". */
#include <shmem.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progtest.h"

struct parsed {
  int n, v;
  char s[32];
  char rest[64];
  int next;
};

static int parse(int argc, char** argv, struct parsed* p, int barrier_between)
{
  memset(p, 0, sizeof *p);
  optind = 1;
  int c;
  while ((c = getopt(argc, argv, "n:vs:")) != -1) {
    switch (c) {
      case 'n':
        p->n = atoi(optarg);
        break;
      case 'v':
        p->v = 1;
        break;
      case 's':
        strncpy(p->s, optarg, sizeof p->s - 1);
        break;
      default:
        return -1;
    }
    if (barrier_between)
      shmem_barrier_all(); /* other PEs parse in between: optind/optarg must survive */
  }
  p->next = optind;
  for (int i = optind; i < argc; ++i) {
    if (i > optind)
      strcat(p->rest, ",");
    strncat(p->rest, argv[i], sizeof p->rest - strlen(p->rest) - 2);
  }
  return 0;
}

static int same(const struct parsed* a, const struct parsed* b)
{
  return a->n == b->n && a->v == b->v && strcmp(a->s, b->s) == 0 && strcmp(a->rest, b->rest) == 0 && a->next == b->next;
}

static char argv_copy[16][64];
static int argc_of_pe;

int main(int argc, char** argv)
{
  /* First parse before shmem_init, with the program's own optind (no reset). */
  struct parsed before;
  memset(&before, 0, sizeof before);
  int c;
  while ((c = getopt(argc, argv, "n:vs:")) != -1)
    if (c == 'n')
      before.n = atoi(optarg);
    else if (c == 'v')
      before.v = 1;
    else if (c == 's')
      strncpy(before.s, optarg, sizeof before.s - 1);
  before.next = optind;
  for (int i = optind; i < argc; ++i) {
    if (i > optind)
      strcat(before.rest, ",");
    strncat(before.rest, argv[i], sizeof before.rest - strlen(before.rest) - 2);
  }

  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  struct parsed after, interleaved;
  CHECK(parse(argc, argv, &after, 0) == 0, "parse after shmem_init");
  shmem_barrier_all();
  CHECK(parse(argc, argv, &interleaved, 1) == 0, "parse with barriers in between");
  CHECK(same(&before, &after), "parse before and after shmem_init differ");
  CHECK(same(&before, &interleaved), "parse interleaved with other PEs differs");
  CHECK(optind == before.next, "optind %d after the interleaved parse", optind);

  /* argv is identical on every PE: compare with PE 0's (copied into symmetric memory). */
  argc_of_pe = argc;
  for (int i = 0; i < argc && i < 16; ++i)
    strncpy(argv_copy[i], argv[i], sizeof argv_copy[i] - 1);
  shmem_barrier_all();
  char theirs[16][64];
  shmem_getmem(theirs, argv_copy, sizeof theirs, 0);
  CHECK(shmem_int_g(&argc_of_pe, 0) == argc, "argc differs from PE 0's");
  for (int i = 1; i < argc && i < 16; ++i)
    CHECK(strcmp(theirs[i], argv[i]) == 0, "argv[%d] '%s' differs from PE 0's '%s'", i, argv[i], theirs[i]);
  /* Each PE's argv is its own: scribbling on it does not change another PE's. */
  if (argc > 5)
    argv[5][0] = (char)('a' + me % 26);
  shmem_barrier_all();
  if (argc > 5)
    CHECK(argv[5][0] == 'a' + me % 26, "argv[5] changed by another PE");

  /* The random generators are per PE too: the same seed gives the same sequence on every PE
   * even when the PEs draw in turns. */
  srand(42);
  srandom(7);
  srand48(3);
  int r1[8];
  long r2[8];
  double r3[8];
  for (int i = 0; i < 8; ++i) {
    r1[i] = rand();
    r2[i] = random();
    r3[i] = drand48();
    shmem_barrier_all();
  }
  static int r1_0[8];
  static long r2_0[8];
  static double r3_0[8];
  memcpy(r1_0, r1, sizeof r1);
  memcpy(r2_0, r2, sizeof r2);
  memcpy(r3_0, r3, sizeof r3);
  shmem_barrier_all();
  int theirs1[8];
  long theirs2[8];
  double theirs3[8];
  shmem_int_get(theirs1, r1_0, 8, 0);
  shmem_long_get(theirs2, r2_0, 8, 0);
  shmem_double_get(theirs3, r3_0, 8, 0);
  CHECK(memcmp(theirs1, r1, sizeof r1) == 0, "rand() sequence differs from PE 0's");
  CHECK(memcmp(theirs2, r2, sizeof r2) == 0, "random() sequence differs from PE 0's");
  CHECK(memcmp(theirs3, r3, sizeof r3) == 0, "drand48() sequence differs from PE 0's");
  CHECK(r1[0] != r1[1] && r2[0] != r2[1] && r3[0] != r3[1], "generators return constants");

  for (int p = 0; p < npes; ++p) {
    if (p == me)
      printf("PE %d: n=%d v=%d s=%s rest=%s argc=%d optind=%d\n", me, before.n, before.v, before.s, before.rest, argc,
             before.next);
    fflush(stdout);
    shmem_barrier_all();
  }
  const int rc = progtest_finish("getopt_args");
  shmem_finalize();
  return rc;
}
