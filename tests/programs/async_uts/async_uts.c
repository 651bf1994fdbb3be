/* An unbalanced tree search in the manner of UTS's binomial trees, written for shmemsim: the root
 * has ROOTS children, every other node has M children with probability Q/1000 (else none); a
 * node's identity is a hash of its parent's and its index, and visiting a node hashes HASH
 * rounds (the work). The root's children are dealt round-robin to the PEs. Counted twice:
 *   plain: each PE walks its subtrees depth first with an explicit stack;
 *   tasks: AsyncSHMEM (seed 001): the PE's root children are dealt to GROUPS tasks; each opens
 *          a task scope, visits its subtrees with one task per node, and at the scope's end adds
 *          their node count to the next PE's tally with an atomic (a SHMEM call from a task). A
 *          tally per group, not per subtree: every message costs the target's progress thread
 *          about a microsecond on qdr-16, so one per subtree would make the count a hot spot.
 * Both must find the same number of nodes and the same depth on every PE, and the sum of the
 * tallies must equal the sum of the plain counts.
 *   async_uts [ROOTS] [Q] [M] [HASH] [GROUPS]      (defaults 64 200 4 16 8) */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "progtest.h"

#include <time.h>

/* Simulated seconds (the simulator's clocks are simulated time). */
static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int me, npes, roots, q, m, rounds, groups;
static long tally; /* symmetric: the previous PE's tasks' subtree counts */
static long plain_nodes, plain_sum, tally_sum, plain_depth, task_nodes, task_depth;

static uint64_t mix(uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The node's work: its identity hashed `rounds` times; the number of its children follows. */
static int children_of(uint64_t id, int depth)
{
  if (depth == 0)
    return roots;
  uint64_t h = id;
  for (int r = 0; r < rounds; ++r)
    h = mix(h);
  return (int)(h % 1000) < q ? m : 0;
}

static uint64_t child_id(uint64_t id, int i) { return mix(id * 31 + (uint64_t)i + 1); }

/* ------------------------------------------------------------------ plain */
typedef struct {
  uint64_t id;
  int depth;
} Node;

static void walk(uint64_t id, int depth)
{
  size_t cap = 1024, n = 0;
  Node* stack = malloc(cap * sizeof(Node));
  stack[n++]  = (Node){id, depth};
  while (n > 0) {
    const Node v = stack[--n];
    ++plain_nodes;
    if (v.depth > plain_depth)
      plain_depth = v.depth;
    const int k = children_of(v.id, v.depth);
    for (int i = 0; i < k; ++i) {
      if (n == cap)
        stack = realloc(stack, (cap *= 2) * sizeof(Node));
      stack[n++] = (Node){child_id(v.id, i), v.depth + 1};
    }
  }
  free(stack);
}

/* ------------------------------------------------------------------ tasks */
typedef struct {
  uint64_t id;
  int depth;
  long* count; /* the subtree's node count */
} TaskNode;

static void visit(void* data)
{
  TaskNode* v = data;
  __atomic_fetch_add(v->count, 1, __ATOMIC_RELAXED);
  long d = __atomic_load_n(&task_depth, __ATOMIC_RELAXED);
  while (v->depth > d && !__atomic_compare_exchange_n(&task_depth, &d, v->depth, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  const int k = children_of(v->id, v->depth);
  for (int i = 0; i < k; ++i) {
    TaskNode* c = malloc(sizeof *c);
    *c          = (TaskNode){child_id(v->id, i), v->depth + 1, v->count};
    shmemx_task(visit, c);
  }
  free(v);
}

static void group(int g, void* data)
{
  (void)data;
  long count = 0;
  shmemx_task_scope_begin();
  for (int child = me + g * npes; child < roots; child += groups * npes) { /* this PE's children g, g + groups, ... */
    TaskNode* v = malloc(sizeof *v);
    *v          = (TaskNode){child_id(0, child), 1, &count};
    shmemx_task(visit, v);
  }
  shmemx_task_scope_end();
  __atomic_fetch_add(&task_nodes, count, __ATOMIC_RELAXED);
  shmem_long_atomic_add(&tally, count, (me + 1) % npes);
}

static void search(void* data)
{
  (void)data;
  shmemx_task_scope_begin();
  shmemx_parallel_for(0, groups, group, NULL);
  shmemx_task_scope_end();
  shmem_quiet();
}

int main(int argc, char** argv)
{
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me     = shmem_my_pe();
  npes   = shmem_n_pes();
  roots  = argc > 1 ? atoi(argv[1]) : 64;
  q      = argc > 2 ? atoi(argv[2]) : 200;
  m      = argc > 3 ? atoi(argv[3]) : 4;
  rounds = argc > 4 ? atoi(argv[4]) : 16;
  groups = argc > 5 ? atoi(argv[5]) : 8;
  if (roots < 1 || q < 0 || q > 1000 || m < 0 || (long)q * m >= 1000 || rounds < 0 || groups < 1) {
    fprintf(stderr, "async_uts: ROOTS >= 1, 0 <= Q <= 1000, M >= 0 with Q*M < 1000 (a finite tree), HASH >= 0, "
                    "GROUPS >= 1\n");
    return 2;
  }

  shmem_barrier_all();
  double t0 = now_s();
  for (int c = me; c < roots; c += npes)
    walk(child_id(0, c), 1);
  shmem_barrier_all();
  const double t_plain = now_s() - t0;

  t0 = now_s();
  shmemx_worker_init(search, NULL);
  shmem_barrier_all();
  const double t_tasks = now_s() - t0;

  CHECK(task_nodes == plain_nodes, "PE %d: %ld nodes with tasks, %ld plainly", me, task_nodes, plain_nodes);
  CHECK(task_depth == plain_depth, "PE %d: depth %ld with tasks, %ld plainly", me, task_depth, plain_depth);
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &plain_sum, &plain_nodes, 1);
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &tally_sum, &tally, 1);
  if (me == 0) {
    CHECK(tally_sum == plain_sum, "tasks' tallies %ld, plain sum %ld", tally_sum, plain_sum);
    shmemx_async_stats_t st;
    shmemx_async_stats(&st);
    printf("async_uts: %ld nodes (+1 root), plain %.6f s, tasks %.6f s (%s, %d workers)\n", plain_sum, t_plain,
           t_tasks, st.runtime == SHMEMX_ASYNC_OFFLOAD ? "offload" : "contexts", st.workers);
    printf("async_stats: tasks %lu steals %lu offloaded %lu comm_busy_s %.6f comm_queue_s %.6f span_s %.6f\n",
           st.tasks, st.steals, st.offloaded, st.comm_busy_s, st.comm_queue_s, st.span_s);
  }
  const int r = progtest_finish("async_uts");
  shmem_finalize();
  return r;
}
