/* AsyncSHMEM communication-driven tasks (seed 001: shmem_int_task_when, _when_any), seed names.
 * A token travels the ring of PEs: hop h (1..MAXHOP) is a put of h into `token` of PE h % npes.
 * Each PE registers shmem_int_task_when(&token, SHMEM_CMP_GE, next hop) and its task forwards the
 * token and registers again, like the seed's load balancer that "re-registers to handle new
 * updates". Registration never blocks (nothing has run right after it); the tasks run when the
 * puts arrive. Then _when_any on four flags, two of them excluded by status: the previous PE sets
 * an excluded flag first, then an included one; the task must run once, after the included one.
 * Then a second runtime (shmem_worker_init again): a task sleeps 10 ms of simulated time before it
 * puts `late` to the next PE, whose communication-driven task is waiting for it. The watcher must
 * be woken by that delivery, not poll: some tens of wake-ups (the siblings' own library calls and
 * locks count as updates in the simulator), where polling every 10 us would make a thousand. */
#define SHMEMSIM_SEED_NAMES
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <unistd.h>

#include "progtest.h"

static int token;    /* symmetric */
static int flags[4]; /* symmetric */
static int late;     /* symmetric */
static int late_ran;
static int me, npes, maxhop, expected, received, any_ran, any_saw_included;

static void on_token(void* data);

static void wait_for_hop(void) { shmem_int_task_when(&token, SHMEM_CMP_GE, expected, on_token, NULL); }

static void on_token(void* data)
{
  (void)data;
  const int h = token;
  CHECK(h == expected, "PE %d got hop %d, expected %d", me, h, expected);
  ++received;
  if (h < maxhop)
    shmem_int_p(&token, h + 1, (h + 1) % npes); /* from a task: offloaded or on the worker's context */
  expected += npes;
  if (expected <= maxhop)
    wait_for_hop();
}

static void on_flag(void* data)
{
  CHECK(data == (void*)flags, "when_any data");
  ++any_ran;
  any_saw_included = flags[3] == 1;
}

static void entrypoint(void* args)
{
  (void)args;
  expected = me > 0 ? me : npes;
  wait_for_hop();
  CHECK(received == 0, "a task ran before any put: %d", received);
  static const int status[4] = {1, 0, 1, 0}; /* flags 0 and 2 excluded */
  shmem_int_task_when_any(flags, 4, status, SHMEM_CMP_EQ, 1, on_flag, flags);
  CHECK(any_ran == 0, "the when_any task ran before any put");
  shmem_barrier_all(); /* every PE has registered */
  if (me == 0)
    shmem_int_p(&token, 1, 1 % npes);
  const int next = (me + 1) % npes;
  shmem_int_p(&flags[2], 1, next); /* excluded */
  shmem_quiet();
  shmem_int_p(&flags[3], 1, next); /* included */
}

static void on_late(void* data)
{
  (void)data;
  CHECK(late == 1, "late is %d", late);
  ++late_ran;
}

static void sleep_then_put(void* data)
{
  (void)data;
  usleep(10000); /* simulated time: the other threads are idle meanwhile */
  shmem_int_p(&late, 1, (me + 1) % npes);
}

static void late_phase(void* args)
{
  (void)args;
  shmem_int_task_when(&late, SHMEM_CMP_EQ, 1, on_late, NULL);
  shmem_barrier_all(); /* every PE waits before any puts */
  shmem_task(sleep_then_put, NULL);
}

int main(void)
{
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me     = shmem_my_pe();
  npes   = shmem_n_pes();
  maxhop = 3 * npes + 2;
  shmem_worker_init(entrypoint, NULL);
  int want = 0;
  for (int h = 1; h <= maxhop; ++h)
    want += h % npes == me % npes;
  CHECK(received == want, "PE %d received %d hops of %d", me, received, want);
  CHECK(any_ran == 1 && any_saw_included, "when_any ran %d times, saw the included flag %d", any_ran,
        any_saw_included);
  shmemx_async_stats_t st;
  shmemx_async_stats(&st);
  CHECK(st.watches_fired == (unsigned long)want + 1, "watches fired %lu", st.watches_fired);
  if (me == 0)
    printf("async_when: %d hops, %lu watcher wake-ups on PE 0\n", maxhop, st.watcher_wakeups);
  shmem_worker_init(late_phase, NULL);
  shmemx_async_stats(&st);
  CHECK(late_ran == 1, "the late task ran %d times", late_ran);
  /* The watcher wakes on deliveries to this PE (the other PEs' traffic of this phase included) and
   * re-checks at most every 1 ms for its own threads' stores: tens to about 150 wake-ups (122 seen
   * under ThreadSanitizer). A watcher that polled would wake thousands of times in 10 ms. */
  CHECK(st.watcher_wakeups <= 1000, "%lu watcher wake-ups while waiting 10 ms for one put", st.watcher_wakeups);
  if (me == 0)
    printf("async_when: 10 ms wait for one put: %lu watcher wake-ups on PE 0\n", st.watcher_wakeups);
  const int r = progtest_finish("async_when");
  shmem_finalize();
  return r;
}
