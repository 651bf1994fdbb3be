/* AsyncSHMEM (seed 001) examples, written with the seed's own names (SHMEMSIM_SEED_NAMES), each
 * with checked results:
 *   hello        the environment example: every worker reports shmem_my_worker() in [0, n)
 *   scope        the task-scope example: foo (which makes bar) and baz in a scope; scope_end
 *                returns after all three ran; then nested scopes, the inner one ending first
 *   parallel_for the parallel-iteration example: 100 iterations, each index exactly once
 *   promise      the producer/consumer example: the consumer waits on the producer's promise
 *                (shmem_future_wait), a task_await'ed task starts only after satisfaction, and
 *                shmem_task_future's result; the produced value is fetched from the next PE
 *   remote       tasks put to the next PE and a barrier after the scope completes them
 *   state        per-thread and per-PE state across a suspension: a task sets a __thread
 *                variable, makes a SHMEM call (offload: the task is suspended while the
 *                communication worker performs it, its worker runs other tasks), and finds its
 *                thread-local value, its PE and its PE's private globals unchanged
 * Runs in either runtime design (SHMEM_ASYNC_RUNTIME / job.async.runtime). */
#define SHMEMSIM_SEED_NAMES
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "progtest.h"

#define NITER 100
#define NREMOTE 16

static int ran_foo, ran_bar, ran_baz;
static int iter_seen[NITER];
static int workers_seen[1024];
static int inner_done, outer_done;
static int produced;           /* symmetric: the value the next PE's producer fetches */
static int consumed, awaited_after, awaited_value_ok;
static long remote_in[NREMOTE]; /* symmetric: written by the previous PE's tasks */
static int me, npes;

static void add(int* x) { __atomic_fetch_add(x, 1, __ATOMIC_SEQ_CST); }

/* ---- hello */
static void hello(int iter, void* data)
{
  (void)iter;
  (void)data;
  const int w = shmem_my_worker();
  CHECK(w >= 0 && w < shmem_n_workers(), "worker %d of %d", w, shmem_n_workers());
  if (w >= 0 && w < 1024)
    add(&workers_seen[w]);
}

/* ---- the seed's task-scope example */
static void bar(void* data) { (void)data; add(&ran_bar); }
static void foo(void* data)
{
  (void)data;
  add(&ran_foo);
  shmem_task(bar, NULL);
}
static void baz(void* data) { (void)data; add(&ran_baz); }

static void slow_inner(void* data)
{
  (void)data;
  for (volatile int i = 0; i < 20000; ++i) {
  }
  add(&inner_done);
}
static void outer_task(void* data)
{
  (void)data;
  add(&outer_done);
}

/* ---- parallel_for */
static void iteration(int i, void* data)
{
  CHECK(data == (void*)iter_seen, "parallel_for data %p", data);
  add(&iter_seen[i]);
}

/* ---- promises and futures */
static void producer(void* data)
{
  /* Fetch the next PE's value: a SHMEM call from a task. */
  const int v = shmem_int_g(&produced, (me + 1) % npes);
  shmem_satisfy_promise((shmem_promise_t*)data, (void*)(intptr_t)v);
}
static void consumer(void* data)
{
  void* result = shmem_future_wait((shmem_future_t*)data);
  CHECK((intptr_t)result == 1000 + (me + 1) % npes, "consumer got %ld", (long)(intptr_t)result);
  add(&consumed);
}
static shmem_future_t* awaited_future;
static void after_promise(void* data)
{
  (void)data;
  /* Only starts executing after the producer satisfied the promise. */
  CHECK(consumed <= 1, "consumer ran %d times", consumed);
  void* v = shmem_future_wait(awaited_future); /* satisfied: returns at once */
  awaited_value_ok = (intptr_t)v == 1000 + (me + 1) % npes;
  add(&awaited_after);
}
static void* square(void* data)
{
  const intptr_t x = (intptr_t)data;
  return (void*)(x * x);
}

/* ---- per-thread and per-PE state across a suspension */
static __thread int tls_mark;
static int pe_mark; /* private to this PE's copy of the program */
static int state_ok;
static void state_task(int i, void* data)
{
  (void)data;
  tls_mark       = 1000 * me + i;
  const int v    = shmem_int_g(&produced, (me + 1) % npes);
  const int same = tls_mark == 1000 * me + i && shmem_my_pe() == me && pe_mark == 7 * me + 1 &&
                   v == 1000 + (me + 1) % npes;
  CHECK(same, "task %d: TLS %d, PE %d, global %d, got %d", i, tls_mark, shmem_my_pe(), pe_mark, v);
  if (same)
    add(&state_ok);
}

/* ---- remote puts from tasks */
static void put_one(int i, void* data)
{
  (void)data;
  shmem_long_p(&remote_in[i], 100L * me + i, (me + 1) % npes);
}

static void entrypoint(void* args)
{
  CHECK(args == (void*)&me, "entrypoint data %p", args);
  const int n = shmem_n_workers();
  produced    = 1000 + me;
  shmem_barrier_all(); /* a collective from the root task: every PE's value is set */

  shmem_task_scope_begin();
  shmem_parallel_for(0, 4 * n, hello, NULL);
  shmem_task_scope_end();

  /* The seed's example: waits for foo, bar and baz. */
  shmem_task_scope_begin();
  {
    shmem_task(foo, NULL);
    shmem_task(baz, NULL);
  }
  shmem_task_scope_end();
  CHECK(ran_foo == 1 && ran_bar == 1 && ran_baz == 1, "after scope_end: foo %d bar %d baz %d", ran_foo, ran_bar,
        ran_baz);

  /* Nested scopes: the inner end waits for the inner tasks only. */
  shmem_task_scope_begin();
  shmem_task(outer_task, NULL);
  shmem_task_scope_begin();
  for (int i = 0; i < 8; ++i)
    shmem_task(slow_inner, NULL);
  shmem_task_scope_end();
  CHECK(inner_done == 8, "inner scope ended with %d of 8 inner tasks", inner_done);
  shmem_task_scope_end();
  CHECK(outer_done == 1, "outer scope ended with outer task %d", outer_done);

  /* parallel_for: no implicit wait; the scope waits. */
  shmem_task_scope_begin();
  shmem_parallel_for(0, NITER, iteration, iter_seen);
  shmem_task_scope_end();
  for (int i = 0; i < NITER; ++i)
    CHECK(iter_seen[i] == 1, "iteration %d ran %d times", i, iter_seen[i]);

  /* The seed's promise example, plus task_await and task_future. */
  shmem_promise_t* promise = shmem_create_promise();
  shmem_future_t* future   = shmem_future_for_promise(promise);
  awaited_future           = future;
  shmem_task_scope_begin();
  shmem_task_await(future, after_promise, NULL);
  shmem_task(consumer, future);
  shmem_task(producer, promise);
  shmem_task_scope_end();
  CHECK(consumed == 1 && awaited_after == 1 && awaited_value_ok, "consumer %d awaited %d value ok %d", consumed,
        awaited_after, awaited_value_ok);
  shmem_future_t* sq = shmem_task_future(square, (void*)(intptr_t)(me + 7));
  CHECK((intptr_t)shmem_future_wait(sq) == (me + 7) * (me + 7), "task_future result");

  pe_mark = 7 * me + 1;
  shmem_task_scope_begin();
  shmem_parallel_for(0, 32, state_task, NULL);
  shmem_task_scope_end();
  CHECK(state_ok == 32, "%d of 32 tasks kept their state", state_ok);

  /* Tasks put to the next PE; the barrier completes their puts. */
  shmem_task_scope_begin();
  shmem_parallel_for(0, NREMOTE, put_one, NULL);
  shmem_task_scope_end();
  shmem_barrier_all();
  const int prev = (me + npes - 1) % npes;
  for (int i = 0; i < NREMOTE; ++i)
    CHECK(remote_in[i] == 100L * prev + i, "remote_in[%d] = %ld", i, remote_in[i]);
}

int main(void)
{
  /* The program initializes (the contexts runtime needs SHMEM_THREAD_MULTIPLE), so
   * shmem_worker_init neither initializes nor finalizes. */
  int provided = 0;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  me   = shmem_my_pe();
  npes = shmem_n_pes();
  shmem_worker_init(entrypoint, &me);

  shmemx_async_stats_t st;
  shmemx_async_stats(&st);
  int total_seen = 0;
  for (int w = 0; w < 1024; ++w)
    total_seen += workers_seen[w];
  CHECK(total_seen == 4 * st.workers, "hello iterations %d of %d", total_seen, 4 * st.workers);
  CHECK(st.runtime == SHMEMX_ASYNC_OFFLOAD ? st.offloaded > 0 : st.offloaded == 0, "offloaded %lu", st.offloaded);
  CHECK(st.runtime == SHMEMX_ASYNC_CONTEXTS || st.suspensions > 0, "no task was suspended (offload)");
  if (me == 0)
    printf("async_seed: %s runtime, %d workers, %lu tasks\n", st.runtime == SHMEMX_ASYNC_OFFLOAD ? "offload" : "contexts",
           st.workers, st.tasks);
  const int r = progtest_finish("async_seed");
  shmem_finalize();
  return r;
}
