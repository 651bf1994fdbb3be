/* Global and static variables (initialized and zero, scalars, arrays, a struct, a function's
 * static, another translation unit's) are private per PE and symmetric: every PE writes its
 * right neighbour's copies remotely, then checks its own copies hold what its left neighbour
 * wrote, and that its initialized data started from the program's initial values. */
#include <shmem.h>
#include <string.h>

#include "progtest.h"

struct record {
  int id;
  double weight;
  char name[24];
  long history[5];
};

int g_int;
int g_init = 12345;
static long s_array[300];
static double s_init_array[4] = {1.5, 2.5, 3.5, 4.5};
struct record g_record;
static struct record s_records[3] = {{1, 1.0, "one", {1}}, {2, 2.0, "two", {2}}, {3, 3.0, "three", {3}}};

extern long other_global;
long* other_static_address(void);

static int* function_static(void)
{
  static int counter_in_function = 100;
  return &counter_in_function;
}

int main(void)
{
  /* Before anything: every PE sees the initial values in its own copy. */
  const int init_ok = g_init == 12345 && s_init_array[2] == 3.5 && s_records[2].id == 3 && other_global == 7 &&
                      *function_static() == 100 && g_int == 0 && s_array[299] == 0;
  shmem_init();
  const int me = shmem_my_pe(), npes = shmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  CHECK(init_ok, "initial values of static data");

  /* Local writes stay local: each PE's copy is its own. */
  g_init = 1000 + me;
  *function_static() = 200 + me;
  shmem_barrier_all();
  CHECK(g_init == 1000 + me, "own copy of g_init changed by another PE: %d", g_init);
  CHECK(shmem_int_g(&g_init, right) == 1000 + right, "g_init of PE %d", right);
  CHECK(shmem_int_g(function_static(), right) == 200 + right, "function static of PE %d", right);
  CHECK(shmem_addr_accessible(&g_int, right) && shmem_addr_accessible(s_array, right), "addr_accessible");
  int on_stack = 0;
  CHECK(!shmem_addr_accessible(&on_stack, right), "a stack variable is not accessible remotely");
  CHECK(shmem_ptr(&g_int, me) == (void*)&g_int, "shmem_ptr to self");
  /* A PE on the same node may be reachable by load/store: then it is the same object. */
  int* direct = shmem_ptr(&g_init, right);
  CHECK(direct == NULL || *direct == 1000 + right, "shmem_ptr to PE %d reads %d", right, direct ? *direct : -1);
  shmem_barrier_all();

  /* Remote writes into the right neighbour's copies. */
  shmem_int_p(&g_int, 10 * me + 1, right);
  long arr[300];
  for (int i = 0; i < 300; ++i)
    arr[i] = me * 1000L + i;
  shmem_long_put(s_array, arr, 300, right);
  shmem_double_p(&s_init_array[1], me + 0.25, right);
  struct record r;
  memset(&r, 0, sizeof r);
  r.id     = me;
  r.weight = me * 0.5;
  strcpy(r.name, "from PE");
  r.name[7] = (char)('A' + me % 26);
  for (int i = 0; i < 5; ++i)
    r.history[i] = me + i;
  shmem_putmem(&g_record, &r, sizeof r, right);
  shmem_putmem(&s_records[1].name, "remote", 7, right);
  shmem_long_p(&other_global, 70 + me, right);
  shmem_long_p(other_static_address() + 3, 300 + me, right);
  shmem_barrier_all();

  CHECK(g_int == 10 * left + 1, "g_int %d", g_int);
  int bad = 0;
  for (int i = 0; i < 300; ++i)
    bad += s_array[i] != left * 1000L + i;
  CHECK(bad == 0, "s_array: %d wrong", bad);
  CHECK(s_init_array[0] == 1.5 && s_init_array[1] == left + 0.25 && s_init_array[3] == 4.5, "s_init_array");
  CHECK(g_record.id == left && g_record.weight == left * 0.5 && g_record.name[7] == 'A' + left % 26 &&
            strncmp(g_record.name, "from PE", 7) == 0 && g_record.history[4] == left + 4,
        "g_record");
  CHECK(strcmp(s_records[1].name, "remote") == 0 && s_records[1].id == 2 && strcmp(s_records[0].name, "one") == 0,
        "s_records");
  CHECK(other_global == 70 + left && other_static_address()[3] == 300 + left && other_static_address()[2] == 0,
        "other translation unit");
  CHECK(g_init == 1000 + me && *function_static() == 200 + me, "untouched data changed");

  /* The symmetric heap: malloc, align, calloc, realloc keep the same offsets on every PE. */
  long* h = shmem_malloc(1000 * sizeof(long));
  double* a = shmem_align(4096, 64 * sizeof(double));
  int* z = shmem_calloc(100, sizeof(int));
  CHECK(h != NULL && a != NULL && z != NULL, "symmetric allocation failed");
  CHECK(((unsigned long)a & 4095) == 0, "shmem_align(4096) returned %p", (void*)a);
  int zeros = 0;
  for (int i = 0; i < 100; ++i)
    zeros += z[i] == 0;
  CHECK(zeros == 100, "shmem_calloc: %d of 100 zero", zeros);
  for (int i = 0; i < 1000; ++i)
    h[i] = -1;
  shmem_barrier_all();
  for (int i = 0; i < 1000; ++i)
    shmem_long_p(&h[i], me * 100000L + i, right);
  shmem_double_p(&a[63], me + 0.5, right);
  shmem_int_p(&z[99], me + 1, right);
  shmem_barrier_all();
  bad = 0;
  for (int i = 0; i < 1000; ++i)
    bad += h[i] != left * 100000L + i;
  CHECK(bad == 0 && a[63] == left + 0.5 && z[99] == left + 1, "heap data: %d wrong", bad);
  h = shmem_realloc(h, 4000 * sizeof(long));
  CHECK(h != NULL && h[999] == left * 100000L + 999, "shmem_realloc lost the contents");
  shmem_long_p(&h[3999], me, right);
  shmem_barrier_all();
  CHECK(h[3999] == left, "realloc'ed block written remotely");
  shmem_free(z);
  shmem_free(a);
  shmem_free(h);

  const int rc = progtest_finish("static_data");
  shmem_finalize();
  return rc;
}
