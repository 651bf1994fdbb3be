/* PE 1 dereferences NULL after shmem_init; the run ends with 128+SIGSEGV and a report naming
 * the PE and thread.
 *   (no argument)  in its main thread
 *   handler        after installing its own SIGSEGV handler (signal and sigaction): the report
 *                  still names the PE, and says the program's handler was not run
 *   thread         in a second thread of the PE
 *   fork           PE 1 calls fork() instead: refused with one line (status 2) */
#include <pthread.h>
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int* volatile nowhere = NULL;

static void own_handler(int sig)
{
  (void)sig;
  static const char msg[] = "own handler ran\n";
  (void)!write(1, msg, sizeof msg - 1);
  _exit(3);
}

static void* crash_in_thread(void* arg)
{
  (void)arg;
  *nowhere = 42;
  return NULL;
}

int main(int argc, char** argv)
{
  const char* mode = argc > 1 ? argv[1] : "";
  shmem_init();
  if (strcmp(mode, "handler") == 0) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = own_handler;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGSEGV, NULL, &old);
    if (old.sa_handler != own_handler)
      printf("FAIL: sigaction does not report the program's handler back\n");
    if (signal(SIGBUS, own_handler) != SIG_DFL)
      printf("FAIL: signal(SIGBUS) did not return SIG_DFL first\n");
  }
  shmem_barrier_all();
  if (shmem_my_pe() == 1) {
    if (strcmp(mode, "thread") == 0) {
      pthread_t t;
      pthread_create(&t, NULL, crash_in_thread, NULL);
      pthread_join(t, NULL);
    } else if (strcmp(mode, "fork") == 0) {
      const pid_t pid = fork();
      printf("not reached (fork returned %d)\n", (int)pid);
    } else {
      *nowhere = 42;
    }
  }
  shmem_barrier_all();
  printf("not reached\n");
  shmem_finalize();
  return 0;
}
