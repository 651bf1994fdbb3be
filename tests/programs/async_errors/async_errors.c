/* AsyncSHMEM misuse: each mode must end the run with one clear line (or a deadlock report).
 *   outside   shmemx_task outside shmemx_worker_init
 *   twice     a promise satisfied twice
 *   scope     shmemx_task_scope_end without a scope
 *   open      a task returns with its scope still open
 *   never     a communication-driven task whose condition never holds: a deadlock, reported
 *   thread    shmemx_task from a pthread that is no worker */
#include <pthread.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <string.h>

static int flag; /* symmetric, never set */
static const char* mode = "";

static void nothing(void* data) { (void)data; }
static void leaves_open(void* data)
{
  (void)data;
  shmemx_task_scope_begin();
}
static void* from_thread(void* data)
{
  shmemx_task(nothing, data);
  return NULL;
}

static void entry(void* data)
{
  (void)data;
  if (strcmp(mode, "twice") == 0) {
    shmemx_promise_t* p = shmemx_create_promise();
    shmemx_satisfy_promise(p, NULL);
    shmemx_satisfy_promise(p, NULL);
  } else if (strcmp(mode, "scope") == 0) {
    shmemx_task_scope_end();
  } else if (strcmp(mode, "open") == 0) {
    shmemx_task(leaves_open, NULL);
  } else if (strcmp(mode, "never") == 0) {
    shmemx_int_task_when(&flag, SHMEM_CMP_EQ, 1, nothing, NULL);
  } else if (strcmp(mode, "thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, from_thread, NULL);
    pthread_join(t, NULL);
  }
}

int main(int argc, char** argv)
{
  mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "outside") == 0) {
    shmem_init();
    shmemx_task(nothing, NULL);
  }
  shmemx_worker_init(entry, NULL);
  printf("async_errors: %s: no error\n", mode);
  return 0;
}
