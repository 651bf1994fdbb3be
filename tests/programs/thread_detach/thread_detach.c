/* pthread_detach inside PEs: a detached thread cannot be joined (EINVAL while it runs) nor
 * detached again (EINVAL); its resources go at its end, so afterwards its id names no thread
 * (ESRCH). Threads detached by their creator, by themselves, by their attributes
 * (PTHREAD_CREATE_DETACHED), and after they ended; their thread-specific destructors run; a
 * joinable thread still joins with its value. */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include "progtest.h"

static pthread_key_t key;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv    = PTHREAD_COND_INITIALIZER;
static int ended, destroyed;

static void destructor(void *v) {
  pthread_mutex_lock(&lock);
  destroyed += (int)(long)v;
  pthread_mutex_unlock(&lock);
}

static void note_end(void) {
  pthread_mutex_lock(&lock);
  ended++;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&lock);
}

static void *worker(void *arg) {
  pthread_setspecific(key, arg);
  usleep(100); /* still running while main tries to join it */
  note_end();
  return NULL;
}

static void *self_detaching(void *arg) {
  int r = pthread_detach(pthread_self());
  CHECK(r == 0, "pthread_detach(pthread_self()) returned %d", r);
  pthread_setspecific(key, arg);
  note_end();
  return NULL;
}

static void *quick(void *arg) { return arg; }

int main(void) {
  int provided;
  shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
  pthread_key_create(&key, destructor);
  int r;

  pthread_t a, b, c;
  pthread_create(&a, NULL, worker, (void *)1L);
  r = pthread_detach(a);
  CHECK(r == 0, "pthread_detach returned %d", r);
  r = pthread_join(a, NULL);
  CHECK(r == EINVAL, "pthread_join of a detached thread returned %d, not EINVAL", r);
  r = pthread_detach(a);
  CHECK(r == EINVAL, "pthread_detach of a detached thread returned %d, not EINVAL", r);
  pthread_create(&b, NULL, self_detaching, (void *)10L);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&c, &attr, worker, (void *)100L);
  pthread_attr_destroy(&attr);
  r = pthread_join(c, NULL);
  CHECK(r == EINVAL, "pthread_join of a thread created detached returned %d, not EINVAL", r);

  pthread_mutex_lock(&lock);
  while (ended < 3) pthread_cond_wait(&cv, &lock);
  pthread_mutex_unlock(&lock);
  usleep(1000); /* they return and end */
  pthread_t gone[3] = {a, b, c};
  for (int i = 0; i < 3; i++) {
    r = pthread_join(gone[i], NULL);
    CHECK(r == ESRCH, "pthread_join of ended detached thread %d returned %d, not ESRCH", i, r);
    r = pthread_detach(gone[i]);
    CHECK(r == ESRCH, "pthread_detach of ended detached thread %d returned %d, not ESRCH", i, r);
  }
  CHECK(destroyed == 111, "thread-specific destructors of detached threads: %d, not 111", destroyed);

  /* Detached after its end: its resources go at once. */
  pthread_t d;
  pthread_create(&d, NULL, quick, NULL);
  usleep(1000);
  r = pthread_detach(d);
  CHECK(r == 0, "pthread_detach of an ended thread returned %d", r);
  r = pthread_join(d, NULL);
  CHECK(r == ESRCH, "pthread_join of a thread detached after its end returned %d, not ESRCH", r);

  /* Joinable threads are unchanged. */
  pthread_t e;
  void *value = NULL;
  pthread_create(&e, NULL, quick, (void *)42L);
  r = pthread_join(e, &value);
  CHECK(r == 0 && value == (void *)42L, "pthread_join returned %d with %p", r, value);
  return progtest_finish("thread_detach");
}
