/* Held out (never used to fit; written and recorded before the TLB model existed, issue 27):
 * independent reads, one a page, over 128 MiB (32768 pages of 4 KiB) in a scattered page order,
 * each read a line further into its page than the last (2 MiB of distinct lines, which the
 * caches keep after the first pass). Nearly every read misses the data TLBs (a second level of
 * 512-1536 entries reaches 2-6 MiB) while its line is a cache hit: the kernel's time is page
 * walks. */
#include "kernel.h"

#define BYTES (128L << 20)
#define PAGES (BYTES / 4096)
#define WORDS (BYTES / 8)

int main(int argc, char** argv)
{
  const long scale        = kernel_scale(argc, argv);
  unsigned long long* buf = malloc(BYTES);
  if (buf == NULL) {
    fprintf(stderr, "page_walk: out of memory\n");
    return 2;
  }
  for (long i = 0; i < WORDS; ++i)
    buf[i] = (unsigned long long)(i & 1023);
  unsigned long long sum = 0;
  const double t0        = kernel_now();
  for (long pass = 0; pass < scale; ++pass)
    for (long k = 0; k < PAGES; ++k) {
      const long page = (k * 40503) & (PAGES - 1); /* an odd multiplier: every page once a pass */
      sum += buf[page * 512 + (k & 63) * 8];
    }
  const double t = kernel_now() - t0;
  kernel_report(t, (double)sum);
  free(buf);
  return 0;
}
