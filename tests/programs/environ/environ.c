/* Each PE has its own environment, as each has its own process on a real cluster: setenv,
 * putenv and unsetenv of one PE are not seen by the others; the threads of a PE share it; main's
 * envp and `environ` show it. SHMEMSIM_TEST_VAR=launcher is set for the run. */
#include <pthread.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progtest.h"

extern char** environ;

static int seen_in(char** env, const char* entry)
{
  for (char** e = env; e != NULL && *e != NULL; ++e)
    if (strcmp(*e, entry) == 0)
      return 1;
  return 0;
}

static void* thread_reads(void* arg)
{
  const char* v = getenv("SHMEMSIM_TEST_PE");
  *(int*)arg    = v != NULL ? atoi(v) : -1;
  return NULL;
}

int main(int argc, char** argv, char** envp)
{
  (void)argc;
  (void)argv;
  shmem_init();
  const int me = shmem_my_pe();
  const char* launcher = getenv("SHMEMSIM_TEST_VAR");
  CHECK(launcher != NULL && strcmp(launcher, "launcher") == 0, "SHMEMSIM_TEST_VAR = %s", launcher ? launcher : "(unset)");
  CHECK(envp == environ, "main's envp is not environ");
  char value[16];
  snprintf(value, sizeof value, "%d", me);
  setenv("SHMEMSIM_TEST_PE", value, 1);
  if (me == 0) {
    static char entry[] = "SHMEMSIM_TEST_ONLY0=yes";
    putenv(entry);
    unsetenv("SHMEMSIM_TEST_VAR");
  }
  shmem_barrier_all(); /* every PE has changed its environment; now each reads its own */
  const char* mine = getenv("SHMEMSIM_TEST_PE");
  CHECK(mine != NULL && atoi(mine) == me, "SHMEMSIM_TEST_PE = %s on PE %d", mine ? mine : "(unset)", me);
  CHECK((getenv("SHMEMSIM_TEST_ONLY0") != NULL) == (me == 0), "PE 0's putenv seen on PE %d", me);
  CHECK((getenv("SHMEMSIM_TEST_VAR") == NULL) == (me == 0), "PE 0's unsetenv seen on PE %d", me);
  CHECK(seen_in(environ, me == 0 ? "SHMEMSIM_TEST_ONLY0=yes" : "SHMEMSIM_TEST_VAR=launcher"), "environ on PE %d", me);
  int from_thread = -2;
  pthread_t t;
  pthread_create(&t, NULL, thread_reads, &from_thread);
  pthread_join(t, NULL);
  CHECK(from_thread == me, "a thread of PE %d reads SHMEMSIM_TEST_PE = %d", me, from_thread);
  const int rc = progtest_finish("environ");
  shmem_finalize();
  return rc;
}
