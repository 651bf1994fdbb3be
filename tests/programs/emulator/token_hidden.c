/* What a PE's process shows of the job's token: nothing. The launcher passes each PE its
 * configuration (with the token) through a pipe, so neither the PE's initial environment, which
 * /proc/PID/environ shows whatever the process later does to its own, nor its command line holds it
 * (docs/emulator.md, Bootstrap). Prints "token_hidden: OK on N PEs" from PE 0. */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

/* Whether /proc/self/FILE (NUL-separated words) holds `needle`. -1 if it cannot be read. */
static int proc_holds(const char* file, const char* needle)
{
  char path[64], buf[1 << 16];
  snprintf(path, sizeof path, "/proc/self/%s", file);
  FILE* f = fopen(path, "rb");
  if (f == NULL)
    return -1;
  const size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  for (size_t i = 0; i < n; ++i)
    if (buf[i] == '\0')
      buf[i] = '\n';
  buf[n] = '\0';
  return strstr(buf, needle) != NULL;
}

int main(void)
{
  shmem_init();
  const int me = shmem_my_pe();
  int bad      = 0;
  const char* files[]   = {"environ", "cmdline"};
  const char* needles[] = {"SHMEMSIM_EMU_CONFIG", "token="};
  for (int f = 0; f < 2; ++f)
    for (int k = 0; k < 2; ++k) {
      const int r = proc_holds(files[f], needles[k]);
      if (r != 0) {
        printf("token_hidden: FAIL on PE %d: /proc/self/%s %s '%s'\n", me, files[f],
               r < 0 ? "cannot be read for" : "holds", needles[k]);
        bad = 1;
      }
    }
  shmem_barrier_all();
  if (me == 0 && !bad)
    printf("token_hidden: OK on %d PEs\n", shmem_n_pes());
  shmem_finalize();
  return 0;
}
